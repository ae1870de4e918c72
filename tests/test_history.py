"""History from git: timelines, renames, removals, merges, the changes page and the Atom feed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from datetime import datetime

import feedparser
import pytest

from scorecard.core.place import LedgerPlace
from scorecard.site import charts
from scorecard.history import walk as history
from scorecard.cli import pipeline

from conftest import LEDGERS, copy_ledger, run_cli
from gitrepo import commit, git, scripted_history

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    return scripted_history(tmp_path_factory.mktemp("history") / "ledger")


def test_timelines_follow_status_value_renames_and_removals(repo):
    root, ids = repo
    walked = history.walk(LedgerPlace.at(root))
    # The docs-only commit is not part of the ledger's history.
    assert [c.sha for c in walked.commits] == [ids[k] for k in ("c1", "c2", "c3", "c4", "c5", "c6", "c7")]
    alpha = walked.dimensions["alpha"]
    assert [(e.short, e.text) for e in alpha.events] == [
        (ids["c1"][:7], "added as leads at 12 req/s"),
        (ids["c2"][:7], "measured value 12 req/s → 13 req/s, +8.3 %, better"),
        (ids["c3"][:7], "status leads → parity; measured value 13 req/s → 10.2 req/s, -21.5 %, worse"),
        (ids["c7"][:7], "SOTA bar 10 req/s → 10.1 req/s"),
    ]
    assert [s.value for _, s in alpha.points] == [12, 13, 10.2, 10.2]
    gamma = walked.dimensions["gamma"]
    assert gamma.renamed_from == ["beta"] and "beta" not in walked.dimensions
    assert [e.text for e in gamma.events] == ["added as no-claim", "renamed from beta to gamma"]
    assert gamma.events[0].dim == "beta" and gamma.events[0].target == "gamma"
    delta = walked.dimensions["delta"]
    assert delta.removed and [e.text for e in delta.events] == ["added as no-claim", "removed from the ledger"]
    assert walked.notes == []


def test_events_are_newest_first(repo):
    root, ids = repo
    walked = history.walk(LedgerPlace.at(root))
    times = [e.commit.time for e in walked.events]
    assert times == sorted(times, reverse=True)
    assert walked.events[0].commit.sha == ids["c7"] and walked.events[-1].commit.sha == ids["c1"]


def test_each_file_version_is_parsed_once(repo, monkeypatch):
    root, _ = repo
    calls = []
    real = history.Parsed.model

    def counting(self, blob, path):
        if blob not in self.models:
            calls.append(blob)
        return real(self, blob, path)

    monkeypatch.setattr(history.Parsed, "model", counting)
    history.walk(LedgerPlace.at(root))
    assert len(calls) == len(set(calls))
    # alpha: 3 versions (leads, parity, bar 10.1); beta/gamma: 1 (a pure rename keeps the blob); delta: 1
    assert len(calls) == 5


def test_build_with_history_writes_timeline_chart_changes_and_feed(repo, tmp_path):
    root, ids = repo
    outcome = pipeline.build(root, tmp_path / "site", history=True)
    assert not outcome.refused and outcome.notes == []
    site = tmp_path / "site"
    page = (site / "core" / "index.html").read_text()
    assert 'class="chart history-chart"' in page and "<polyline" in page
    assert "status leads → parity" in page and "Known earlier as <code>beta</code>" in page
    changes = (site / "changes.html").read_text()
    first = changes.index("SOTA bar 10 req/s → 10.1 req/s")
    assert first < changes.index("status leads → parity") < changes.index("added as leads at 12 req/s")
    assert 'href="core/index.html#gamma"' in changes and "removed from the ledger" in changes
    data = json.loads((site / "history.json").read_text())
    assert data["head"] == ids["c7"] and data["dimensions"]["gamma"]["renamed_from"] == ["beta"]
    index = (site / "index.html").read_text()
    assert 'type="application/atom+xml" href="feed.xml"' in index and "Latest changes" in index


def test_feed_is_atom_1_0(repo, tmp_path):
    """The RFC 4287 requirements a feed must meet, checked one by one, and a real reader's view."""
    root, _ = repo
    (root / "scorecard.yaml").write_text((root / "scorecard.yaml").read_text() + "base_url: https://example.org/sc/\n")
    try:
        pipeline.build(root, tmp_path / "site", history=True)
    finally:
        git(root, "checkout", "-q", "--", "scorecard.yaml")
    raw = (tmp_path / "site" / "feed.xml").read_bytes()
    assert raw.startswith(b'<?xml version="1.0" encoding="utf-8"?>')
    feed = ET.fromstring(raw)
    assert feed.tag == f"{ATOM}feed"

    def one(node, name):
        found = node.findall(f"{ATOM}{name}")
        assert len(found) == 1, (name, len(found))
        return found[0]

    rfc3339 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$")
    for name in ("id", "title", "updated"):
        one(feed, name)
    assert rfc3339.match(one(feed, "updated").text)
    assert one(feed, "id").text == "https://example.org/sc/feed.xml"
    assert feed.findall(f"{ATOM}author"), "a feed without authors needs one in every entry"
    links = {(link.get("rel"), link.get("type")): link.get("href") for link in feed.findall(f"{ATOM}link")}
    assert links[("self", "application/atom+xml")] == "https://example.org/sc/feed.xml"
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == 8
    assert one(feed, "subtitle").text.endswith("Parity means level with the bar: within ±5%.")  # issue 41
    summaries = [one(e, "summary").text for e in entries]
    assert [s for s in summaries if "parity" in s] and all(
        "(parity: level with the bar within ±5%)" in s for s in summaries if "parity" in s)
    ids = [one(e, "id").text for e in entries]
    assert len(set(ids)) == len(ids) and all(re.match(r"^urn:uuid:[0-9a-f-]{36}$", i) for i in ids)
    updated = [one(e, "updated").text for e in entries]
    assert all(rfc3339.match(u) for u in updated)
    assert updated == sorted(updated, reverse=True), "newest first"
    assert one(feed, "updated").text == updated[0]
    for e in entries:
        one(e, "title")
        alternate = [link for link in e.findall(f"{ATOM}link") if link.get("rel", "alternate") == "alternate"]
        assert alternate and alternate[0].get("href").startswith("https://example.org/sc/")
        assert e.find(f"{ATOM}content") is not None or e.find(f"{ATOM}summary") is not None
    allowed = {f"{ATOM}{n}" for n in ("author", "category", "contributor", "generator", "icon", "id", "link", "logo",
                                     "rights", "subtitle", "title", "updated", "entry")}
    assert {child.tag for child in feed} <= allowed
    parsed = feedparser.parse(raw)
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10" and len(parsed.entries) == 8
    assert parsed.entries[0].link == "https://example.org/sc/core/index.html#alpha"
    assert datetime(*parsed.entries[-1].updated_parsed[:6]).date().isoformat() == "2026-01-10"


def test_history_command_text_json_and_renamed(repo):
    root, ids = repo
    text = run_cli("history", "alpha", "--root", str(root))
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines()[0] == "alpha: 4 changes over 4 recorded states"
    assert f"{ids['c3'][:7]}  status leads → parity" in text.stdout
    data = json.loads(run_cli("history", "alpha", "--root", str(root), "--format", "json").stdout)
    assert [s["status"] for s in data["states"]] == ["leads", "leads", "parity", "parity"]
    renamed = run_cli("history", "beta", "--root", str(root))
    assert renamed.returncode == 0 and "renamed; it is now 'gamma'" in renamed.stderr
    assert renamed.stdout.startswith("gamma: 2 changes")
    missing = run_cli("history", "nope", "--root", str(root))
    assert missing.returncode == 2 and "no dimension 'nope'" in missing.stderr and "Traceback" not in missing.stderr
    assert "did you mean" not in missing.stderr
    typo = run_cli("history", "alpah", "--root", str(root))
    assert typo.returncode == 2 and "did you mean 'alpha'?" in typo.stderr


def test_shallow_clone_says_where_history_starts(repo, tmp_path):
    root, ids = repo
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "2", f"file://{root}", str(clone)], check=True)
    walked = history.walk(LedgerPlace.at(clone))
    assert len(walked.commits) == 2
    assert walked.notes and "shallow clone" in walked.notes[0] and "git fetch --unshallow" in walked.notes[0]
    # The oldest commit it has lists every file as added: every dimension still has a state.
    assert set(walked.dimensions) >= {"alpha", "gamma"}
    outcome = pipeline.build(clone, tmp_path / "site", history=True)
    assert not outcome.refused and any("shallow clone" in n for n in outcome.notes)
    assert "shallow clone" in (tmp_path / "site" / "changes.html").read_text()


def test_without_git_the_build_says_so_and_history_exits_1(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "plain")
    built = run_cli("build", "--history", "--root", str(root))
    assert built.returncode == 0 and "no history:" in built.stderr and "not inside a git repository" in built.stderr
    assert not (root / "site" / "feed.xml").exists() and (root / "site" / "index.html").exists()
    shown = run_cli("history", "alpha", "--root", str(root))
    assert shown.returncode == 1 and "not inside a git repository" in shown.stderr
    assert "Traceback" not in shown.stderr + built.stderr


def test_repository_without_commits(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "fresh")
    git(root, "init", "-q")
    with pytest.raises(history.HistoryUnavailable, match="no commits yet"):
        history.walk(LedgerPlace.at(root))


def test_ledger_in_a_subfolder_of_the_repository(tmp_path):
    top = tmp_path / "repo"
    top.mkdir()
    git(top, "init", "-q")
    root = copy_ledger(LEDGERS / "base", top / "scorecard")
    (top / "README").write_text("code\n")
    git(top, "add", "-A")
    git(top, "commit", "-q", "-m", "one", when=1767225600)
    walked = history.walk(LedgerPlace.at(root))
    assert len(walked.commits) == 1 and set(walked.dimensions) == {"alpha", "beta"}


def test_a_record_invalid_at_some_commit_keeps_its_last_state(repo, tmp_path):
    root = shutil.copytree(repo[0], tmp_path / "copy")
    (root / "claims/core/alpha.yaml").write_text("title: [broken\n")
    git(root, "commit", "-qam", "break alpha", when=1767225600 + 200 * 86400)
    walked = history.walk(LedgerPlace.at(root))
    assert walked.dimensions["alpha"].points[-1][1].status == "parity"
    assert any("did not validate" in n for n in walked.notes)


def test_history_without_an_id_lists_the_ledgers_changes_newest_first(repo):
    root, ids = repo
    text = run_cli("history", "--root", str(root), "--limit", "3")
    assert text.returncode == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[0].startswith("8 changes in 7 commits that touched the ledger, up to " + ids["c7"][:7])
    assert lines[1] == f"  2026-07-10  {ids['c7'][:7]}  alpha: SOTA bar 10 req/s → 10.1 req/s  — merge the new bar"
    assert len(lines) == 5 and lines[4] == "  … and 5 earlier (--limit 0 shows all)"
    everything = json.loads(run_cli("history", "--root", str(root), "--format", "json", "--limit", "0").stdout)
    assert everything["total"] == len(everything["events"]) == 8
    assert everything["events"][-1]["text"] in ("added as leads at 12 req/s", "added as no-claim")


def test_hostile_commit_subjects_and_file_names_stay_inert(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    (root / "claims/core/Not A Slug\x1b.yaml").write_text((root / "claims/core/beta.yaml").read_text())
    git(root, "init", "-q")
    git(root, "add", "-A")
    subject = "evil <script>alert(1)</script> & \x07bell \x1b[31mred"
    git(root, "commit", "-q", "-m", subject, when=1767225600)
    (root / "claims/core/Not A Slug\x1b.yaml").unlink()
    git(root, "commit", "-qam", "drop the odd file", when=1767225600 + 86400)
    walked = history.walk(LedgerPlace.at(root))
    assert set(walked.dimensions) == {"alpha", "beta"}  # the odd file was never a dimension
    assert walked.commits[0].subject == "evil <script>alert(1)</script> & \ufffdbell \ufffd[31mred"
    pipeline.build(root, tmp_path / "site", history=True)
    raw = (tmp_path / "site" / "feed.xml").read_bytes()
    ET.fromstring(raw)  # well-formed: no control characters
    assert not feedparser.parse(raw).bozo
    changes = (tmp_path / "site" / "changes.html").read_text()
    assert "<script>alert" not in changes and "&lt;script&gt;alert(1)&lt;/script&gt;" in changes
    for text in (changes, raw.decode(), (tmp_path / "site" / "history.json").read_text(),
                 run_cli("history", "--root", str(root)).stdout):
        assert "\x07" not in text and "\x1b" not in text


def test_a_simulated_value_is_never_called_measured(tmp_path):
    import re

    from gitrepo import edit as edit_file, set_rps

    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    edit_file(root, "claims/core/alpha.yaml", "status: leads", "status: simulated")
    edit_file(root, "claims/core/alpha.yaml", "claim: 12 req/s", "claim: modelled at ${value}")
    edit_file(root, "scorecard.yaml", "stale_after_months: 24",
              "stale_after_months: 24\nstale_evidence_after_months: 12")
    git(root, "init", "-q")
    commit(root, "simulated", 1)
    set_rps(root, 13)
    commit(root, "simulated again", 2)
    assert not pipeline.build(root, tmp_path / "site", history=True).refused
    section = re.search(r'id="alpha".*?</article>', (tmp_path / "site/core/index.html").read_text(), re.S)[0]
    feed = (tmp_path / "site/feed.xml").read_text()
    changes = (tmp_path / "site/changes.html").read_text()
    shown = {"section": section, "feed": feed, "changes": changes,
             "history": run_cli("history", "alpha", "--root", str(root)).stdout,
             "diff": run_cli("diff", "HEAD~1", "HEAD", "--root", str(root), cwd=root).stdout}
    for where, text in shown.items():
        words = re.sub(r"<[^>]+>", " ", text)  # what a reader sees, not class names
        context = re.findall(r".{60}measured.{40}", words, re.I | re.S)
        assert not re.search(r"(?<!not )\bmeasured\b", words, re.I), (where, context)
    assert "the simulated value, over 2 recorded states" in section
    assert 'Simulated <time datetime="2026-02-01">2026-02-01</time>' in section
    assert "simulated value 12 req/s → 13 req/s" in shown["diff"]


def _chart(times_values, unit="s", bar=0.05):
    from scorecard.core.git import Commit

    h = history.DimensionHistory("d")
    for t, v in times_values:
        h.points.append((Commit(f"{t:040x}", t, "s"), history.State("c", "trails", v, unit, bar, unit, "claim")))
    return charts.chart(h, h.points[-1][0])


def test_history_chart_labels_have_room_and_three_figures():
    c = _chart([(1767225600, 0.0811949), (1767225600 + 40 * 86400, 0.0790001)])
    t = c["ticks"]
    assert [label for _, label in t["y"]] == ["40 ms", "60 ms", "80 ms", "100 ms"]  # round, never 0.0811949 s
    assert all(t["left"] - 4 >= 6.2 * len(label) for _, label in t["y"])  # each label starts inside the picture
    ys = [y for y, _ in t["y"]]
    assert ys == sorted(ys, reverse=True) and ys[0] <= c["height"] - 20 and ys[-1] >= 0  # bottom to top, inside
    assert "81.2 ms" in c["label"] and "0.0811949" not in c["label"]
    assert c["label"].startswith("The bar held at 50 ms; ours went from 81.2 ms to 79 ms, the measured value, over "
                                 "2 recorded states from 2026-01-01 to 2026-02-10")


def test_history_chart_on_one_day_orders_by_commit_and_says_so():
    day = 1767225600
    c = _chart([(day + 3600, 1.0), (day + 3700, 2.0), (day + 7200, 1.5)])
    xs = [p[0] for p in c["dots"]]
    assert xs == sorted(xs) and len(set(xs)) == 3
    assert abs((xs[1] - xs[0]) - (xs[2] - xs[1])) < 0.2  # evenly spaced, not squashed together
    assert "all on 2026-01-01, so the points are in commit order" in c["label"]
    assert c["ticks"]["start"] == "2026-01-01, by commit" and c["ticks"]["end"] == "" and c["ticks"]["dates"] == []


def test_history_chart_has_a_date_axis_with_labels_apart():
    start = 1767225600
    c = _chart([(start, 1.0), (start + 200 * 86400, 2.0), (start + 365 * 86400, 1.5)])
    dates = c["ticks"]["dates"]
    assert len(dates) >= 2 and all(d.endswith("-01") for _, d in dates)  # month starts
    xs = [c["ticks"]["left"]] + [px for px, _ in dates] + [c["width"] - 8]
    assert all(b - a >= 70 for a, b in zip(xs, xs[1:], strict=False))


@pytest.mark.parametrize("stamp", ["@299999999999 +0000", "@9999999999999 +0000"])
def test_a_commit_dated_after_the_year_9999_is_clamped_never_an_internal_error(tmp_path, stamp):
    """Issue 26: a commit dated in the year 11476 made build, build --history, history and the action's build step
    exit 3 ("year 11476 is out of range")."""
    import shutil
    import subprocess

    from conftest import LEDGERS, run_cli

    root = tmp_path / "ledger"
    shutil.copytree(LEDGERS / "base", root)
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org", "HOME": str(root), "PATH": "/usr/bin:/bin",
           "GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "far future"]):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, env=env)
    for args in (["build"], ["build", "--history", "--out", str(tmp_path / "h")], ["history"], ["history", "alpha"],
                 ["validate"]):
        proc = run_cli(*args, cwd=root, env={"SOURCE_DATE_EPOCH": ""})
        assert proc.returncode in (0, 1) and "internal error" not in proc.stderr and "Traceback" not in proc.stderr, \
            (args, proc.stderr)
    proc = run_cli("validate", cwd=root, env={"SOURCE_DATE_EPOCH": "999999999999999"})
    assert proc.returncode in (0, 1) and "internal error" not in proc.stderr, proc.stderr


def test_a_reworded_claim_is_a_change_and_changes_html_is_grouped_by_commit(tmp_path):
    """Issue 26: a commit that changed only the claim text was missing from `history ID` and changes.html, and
    changes.html repeated 'Commit eb5038a — …' once per dimension."""
    from conftest import LEDGERS, copy_ledger
    from gitrepo import commit, edit, git

    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    git(root, "init", "-q", "-b", "main")
    commit(root, "initial", 9)
    edit(root, "claims/core/alpha.yaml", "claim: 12 req/s", "claim: about 12 req/s on one node")
    edit(root, "claims/core/beta.yaml", "status: no-claim", "status: no-claim\nnote: Not measured yet.")
    sha = commit(root, "reword", 20)
    walked = history.walk(LedgerPlace.at(root))
    texts = [e.text for e in walked.dimensions["alpha"].events]
    assert texts[-1] == "claim reworded: “12 req/s” → “about 12 req/s on one node”"
    assert [e.text for e in walked.dimensions["beta"].events][-1] == "note reworded"
    pipeline.build(root, tmp_path / "site", history=True)
    changes = (tmp_path / "site" / "changes.html").read_text()
    assert changes.count('<li class="commit">') == 2  # two commits, each once
    assert changes.count(f"Commit <code>{sha[:7]}</code>") == 1
    assert f'id="c-{sha[:7]}-alpha"' in changes and f'id="c-{sha[:7]}-beta"' in changes


def test_a_record_is_left_out_of_the_history_while_it_holds_example_text(tmp_path):
    """Issue 43 item 1: init's and new's example dimensions stayed in the public history and feed for ever. A record
    version that still holds the scaffold's example text (SC604) is not a state anyone published: the dimension
    appears when it is edited."""
    from scorecard.ledger import placeholders as ph

    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    git(root, "init", "-q")
    commit(root, "ledger", 1)
    assert run_cli("new", "core/gamma", "--root", str(root)).returncode == 0
    example = commit(root, "scaffold", 2)
    record = root / "claims/core/gamma.yaml"
    text = record.read_text()
    for placeholder in (*ph.DIMENSION.values(), ph.LEADER):
        text = text.replace(placeholder, "https://example.com/real" if placeholder == ph.SOURCE else "Real words.")
    record.write_text(text)
    edited = commit(root, "the real text", 3)
    walked = history.walk(LedgerPlace.at(root))
    gamma = walked.dimensions["gamma"]
    assert [c.sha for c, _ in gamma.points] == [edited] and gamma.events[0].text.startswith("added")
    assert example not in {e.commit.sha for e in walked.events if e.dim == "gamma"}
    assert any("example text" in n and n.startswith("1 record versions") for n in walked.notes)


@pytest.mark.parametrize("values, bar, unit", [
    ([0.01198, 0.01198], 0.012, "s"),         # a 0.2 % gap (11.98 against 12 ms): inside the band
    ([0.02, 0.02, 0.02], 0.03, "s"),            # a flat series
    ([0.0815], 0.05, "s"),                      # one state
    ([3.0, 2.0, 2.5], 0.0, "ms"),               # a bar of 0: the values' own range
    ([0.0], 0.0, "ms"),                         # all 0
])
def test_a_history_chart_never_exaggerates_a_gap(values, bar, unit):
    """Issue 45: the y-range holds at least the band where parity holds around the bar (±5 %), shaded; a flat
    series or one state keeps a visible range; the ticks are distinct at the precision shown."""
    start = 1767225600
    c = _chart([(start + i * 86400, v) for i, v in enumerate(values)], unit=unit, bar=bar)
    labels = [label for _, label in c["ticks"]["y"]]
    assert len(labels) == len(set(labels)) >= 2, labels
    top, bottom = c["ticks"]["top"], c["ticks"]["bottom"]
    ys = [y for _, y in c["dots"]]
    assert all(top <= y <= bottom for y in ys)
    if bar:
        band = c["band"]
        assert band is not None and top <= band["top"] < band["bottom"] <= bottom
        assert (band["bottom"] - band["top"]) / (bottom - top) <= 1.0  # the band inside the axis, at its size
    else:
        assert c["band"] is None
    spread = (max(ys) - min(ys)) / (bottom - top) if ys else 0
    assert spread <= 0.95  # no series fills the whole height
    assert ("1 recorded state " in c["label"]) == (len(values) == 1)


def test_a_small_gap_reads_as_small():
    """11.98 against 12 ms: the value and the bar a sliver apart, inside the shaded band, on an axis whose ticks
    read 11.5, 12, 12.5 (not three ticks all reading 12 ms)."""
    start = 1767225600
    c = _chart([(start, 0.01198), (start + 86400, 0.01198)], unit="s", bar=0.012)
    labels = [label for _, label in c["ticks"]["y"]]
    assert len(set(labels)) == len(labels) and "12 ms" in labels and len(labels) >= 3
    value_y = c["dots"][0][1]
    bar_y = float(c["bar"].split()[0].split(",")[1])
    height = c["ticks"]["bottom"] - c["ticks"]["top"]
    assert abs(value_y - bar_y) < 0.05 * height
    assert (c["band"]["bottom"] - c["band"]["top"]) >= 0.4 * height  # the band where parity holds is most of it
