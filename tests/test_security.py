"""The ledger as untrusted input: the defences the attack corpus (test_hostile) cannot reach alone."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml

from scorecard.core.place import LedgerPlace
from scorecard.core import paths
from scorecard.cli import pipeline, review, scaffold, serve
from scorecard.site import write
from scorecard.measure.evidence import Artifact, parse_artifact, resolve_pointer, PointerError
from scorecard.site.render import Site
from scorecard.site.views import carried_as
from scorecard.site.resolve import resolve_ledger
from scorecard.cli.review import set_stamp

from conftest import REPO, run_cli


# --- templates ------------------------------------------------------------------------------

def test_the_sandbox_renders_the_example_byte_for_byte(tmp_path, monkeypatch):
    monkeypatch.delenv("SCORECARD_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))  # one cache for both, as on a user's machine
    result, store = pipeline.validate(REPO)
    resolved = resolve_ledger(result.ledger, store)
    boxed, plain = Site(resolved, sandboxed=True), Site(resolved, sandboxed=False)
    assert not plain.sandboxed and boxed.sandboxed
    first = boxed.render()
    assert plain.render() == first  # code compiled for the sandbox is never loaded without it, nor the reverse
    assert Site(resolved, sandboxed=True).render() == first
    folders = sorted(p.name for p in (tmp_path / "cache/scorecard").iterdir())
    assert folders == ["templates-0.1.0", "templates-0.1.0-sandboxed-data"]


def test_a_ledger_template_turns_the_sandbox_on(base_ledger, tmp_path):
    result, store = pipeline.validate(base_ledger)
    assert not Site(resolve_ledger(result.ledger, store)).sandboxed  # the built-in theme alone: trusted
    (base_ledger / "templates").mkdir()
    (base_ledger / "templates/style.css").write_text("body{}\n")
    assert Site(resolve_ledger(result.ledger, store)).sandboxed


def _safe_cache(monkeypatch, home: Path) -> Path | None:
    monkeypatch.delenv("SCORECARD_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return paths.user_cache_dir("templates-x")


def test_the_template_cache_is_kept_only_where_no_one_else_can_write(tmp_path, monkeypatch):
    made = _safe_cache(monkeypatch, tmp_path / "cache")
    assert made == tmp_path / "cache/scorecard/templates-x"
    assert stat.S_IMODE(made.stat().st_mode) == 0o700
    os.chmod(made, 0o777)  # a folder others can write into: code planted there would be loaded
    assert _safe_cache(monkeypatch, tmp_path / "cache") is None
    os.chmod(made, 0o700)
    os.chmod(made.parent, 0o775)
    assert _safe_cache(monkeypatch, tmp_path / "cache") is None
    os.chmod(made.parent, 0o700)
    assert _safe_cache(monkeypatch, tmp_path / "cache") == made


def test_a_symlinked_or_relative_cache_folder_is_not_used(tmp_path, monkeypatch):
    (tmp_path / "real").mkdir(mode=0o700)
    (tmp_path / "cache/scorecard").mkdir(parents=True, mode=0o700)
    (tmp_path / "cache/scorecard/templates-x").symlink_to(tmp_path / "real")
    assert _safe_cache(monkeypatch, tmp_path / "cache") is None
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", "relative")  # ignored, as the XDG specification says
    assert paths.user_cache_dir("templates-x") == tmp_path / "home/.cache/scorecard/templates-x"
    assert not (tmp_path / "relative").exists()


# --- what the site carries raw ------------------------------------------------------------

@pytest.mark.parametrize("rel, how", [
    ("evidence/run.json", "viewed"), ("docs/notes.md", "viewed"), ("docs/NOTES.MD", "viewed"),
    ("docs/run.JSON", "raw"), ("docs/a.csv", "raw"), ("docs/plot.PNG", "raw"), ("docs/log.txt", "raw"),
    ("docs/a.html", "text"), ("docs/a.HTML", "text"), ("docs/a.xht", "text"), ("docs/a.xhtml", "text"),
    ("docs/a.svg", "text"), ("docs/a.svgz", "text"), ("docs/a.js", "text"), ("docs/a.pdf", "text"),
    ("docs/Makefile", "text"), ("docs/a.html.gz", "text"), ("docs/.txt", "raw")])
def test_only_an_allowlist_of_types_is_copied_raw(rel, how):
    assert carried_as(rel) == how


def test_serve_gives_ledger_files_no_active_type():
    assert serve.content_type("_files/docs/a.svg") == "application/octet-stream"
    assert serve.content_type("_files/docs/a.md.html").startswith("text/html")
    assert serve.content_type("_badges/core.svg") == "image/svg+xml"
    assert serve.content_type("_files/x.xht") == "application/octet-stream"


# --- reading --------------------------------------------------------------------------------

def test_read_regular_refuses_specials_and_sizes_at_the_boundary(tmp_path):
    exact = tmp_path / "exact"
    exact.write_bytes(b"x" * 100)
    assert paths.read_regular(exact, "exact", 100) == b"x" * 100
    with pytest.raises(paths.PathProblem) as over:
        paths.read_regular(exact, "exact", 99)
    assert over.value.code == "SC408"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    started = time.monotonic()
    with pytest.raises(paths.PathProblem) as special:
        paths.read_regular(fifo, "fifo", 100)
    assert special.value.code == "SC406" and time.monotonic() - started < 5


@pytest.mark.parametrize("raw, error", [
    (b'{"a": 1, "a": 2}', "duplicate key 'a'"),
    (b'{"x": 0, "a": 1, "a": 2, "c": 3}', "duplicate key 'a'"),  # the key repeated is named, wherever it is
    (b'{"a": 1e400}', "too large"),
    (b'{"a": "\\ud800"}', "surrogate"),
    (b'{"\\ud800": 1}', "surrogate"),  # in a key
    (b'{"a": ["ok", "\\udc00"]}', "surrogate"),  # in a list
    (b'{"a": NaN}', "NaN is not valid JSON"),
])
def test_artifacts_that_json_would_take_silently_are_errors(raw, error):
    art = parse_artifact(Artifact("evidence/x.json", raw=raw))
    assert art.data is None and error in art.error


def test_a_surrogate_pair_and_an_escaped_backslash_are_fine():
    assert parse_artifact(Artifact("x.json", raw=b'{"a": "\\ud83d\\ude00", "b": "\\\\ud800"}')).error is None


@pytest.mark.parametrize("token", ["²", "٠", "1" * 5000, "01", "-1", "+1"])
def test_only_ascii_digits_index_an_array(token):
    with pytest.raises(PointerError):
        resolve_pointer({"runs": [1, 2, 3]}, f"/runs/{token}")
    assert resolve_pointer({"runs": [1, 2, 3]}, "/runs/2") == 3


# --- git ------------------------------------------------------------------------------------

def test_git_never_runs_status_and_disables_repository_programs(monkeypatch, tmp_path):
    from scorecard.core import git

    seen = []
    real = subprocess.run
    monkeypatch.setattr(git.subprocess, "run", lambda argv, **kw: (seen.append(argv), real(argv, **kw))[1])
    LedgerPlace.at(tmp_path).last_change_dates("evidence")
    for argv in seen:
        assert "core.fsmonitor=false" in argv and "status" not in argv


# --- writing --------------------------------------------------------------------------------

def test_a_build_running_now_keeps_its_temporary_folder(tmp_path, base_ledger):
    out = tmp_path / "site"
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        running = tmp_path / f".site-tmp-{sleeper.pid}-abcdefgh"
        running.mkdir()
        dead = tmp_path / ".site-tmp-999999999-abcdefgh"  # no such process
        dead.mkdir()
        assert not pipeline.build(base_ledger, out).refused
        assert running.is_dir() and not dead.exists()
    finally:
        sleeper.kill()
        sleeper.wait()


def test_review_stages_its_files_where_validate_does_not_look(tmp_path, base_ledger):
    stale = base_ledger / f"{write.REVIEW_TMP}999999999-x.tmp"
    stale.write_text("left by a killed review")
    target = base_ledger / "claims/core/alpha.yaml"
    write.replace_files({target: b"title: x\n"}, base_ledger)
    assert target.read_bytes() == b"title: x\n" and not stale.exists()
    assert list(base_ledger.rglob("*.tmp")) == []


def test_review_writes_nothing_when_one_file_cannot_be_written(tmp_path, base_ledger):
    a, b = base_ledger / "claims/core/alpha.yaml", base_ledger / "claims/core/beta.yaml"
    before = a.read_bytes(), b.read_bytes()
    with pytest.raises(OSError):
        write.replace_files({a: b"new a\n", base_ledger / "claims/missing/x.yaml": b"x"}, base_ledger)
    assert (a.read_bytes(), b.read_bytes()) == before
    assert list(base_ledger.rglob("*.tmp")) == []


def test_stamping_a_file_with_old_mac_line_ends_keeps_them():
    text = "title: T\rclaim: c\rnote: n\r"
    assert set_stamp(text, "fp1-0123456789abcdef") == "title: T\rclaim: c\rreviewed: fp1-0123456789abcdef\rnote: n\r"


# --- init and new ---------------------------------------------------------------------------

@pytest.mark.parametrize("title, subject", [
    ("Cost: the good one", "Team #1 scorecard"), ("a\nsubject: injected", "x\ny: 1"), ("'quoted' \"both\"", "- list"),
    ("\x1b[31mred", "tab\there")])
def test_init_writes_any_title_and_subject_as_text(tmp_path, title, subject):
    scaffold.init(tmp_path / "l", subject=subject, title=title)
    settings = yaml.safe_load((tmp_path / "l/scorecard.yaml").read_text())
    assert (settings["title"], settings["subject"]) == (title, subject)
    assert set(settings) == {"title", "subject", "description", "stale_after_months", "parity_tolerance"}


def test_new_refuses_a_dangling_symlink_and_a_folder_that_leads_out(tmp_path, base_ledger):
    outside = tmp_path / "outside"
    outside.mkdir()
    (base_ledger / "claims/core/gamma.yaml").symlink_to(outside / "written.yaml")
    # Python 3.13's glob lists the dangling link, so the id's uniqueness refuses it first there
    with pytest.raises(scaffold.ScaffoldRefused, match="overwrite|used already by claims/core/gamma.yaml"):
        scaffold.new(base_ledger, "core/gamma")
    (base_ledger / "claims/leak").symlink_to(outside)
    with pytest.raises(scaffold.ScaffoldRefused, match="symlink"):
        scaffold.new(base_ledger, "leak/delta")
    assert list(outside.iterdir()) == []


def _disk_full_after(monkeypatch, module, calls: int) -> None:
    import errno

    real, count = module.os.open, [0]

    def failing(path, flags, *args):
        count[0] += 1
        if count[0] > calls:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, flags, *args)

    monkeypatch.setattr(module.os, "open", failing)


def test_new_on_a_full_disk_is_a_clear_refusal_that_keeps_nothing(base_ledger, monkeypatch):
    from scorecard.cli import writeall

    _disk_full_after(monkeypatch, writeall, 1)  # the record is written, its new category file is not
    with pytest.raises(scaffold.ScaffoldRefused, match="No space left on device"):
        scaffold.new(base_ledger, "fresh/gamma")
    assert not list((base_ledger / "claims/fresh").glob("*"))


def test_build_on_a_full_disk_keeps_the_previous_site(tmp_path, base_ledger, monkeypatch):
    from conftest import run_cli

    out = tmp_path / "site"
    assert not pipeline.build(base_ledger, out).refused
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    real_open = open

    def full(path, mode="r", *args, **kwargs):
        if "w" in mode and ".site-tmp-" in str(path) and str(path).endswith("index.html"):
            raise OSError(28, "No space left on device")
        return real_open(path, mode, *args, **kwargs)

    record = base_ledger / "claims/core/beta.yaml"  # index.html changes: it is written, not linked from before
    record.write_text(record.read_text().replace("Beta latency", "Beta latency v2"))
    monkeypatch.setattr("builtins.open", full)
    with pytest.raises(OSError):
        pipeline.build(base_ledger, out)
    monkeypatch.undo()
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site-")] == []
    os.chmod(out.parent, 0o555) if os.geteuid() != 0 else None
    site_file = out / "index.html"
    (tmp_path / "readonly").write_text("a file where the output folder would go")
    proc = run_cli("build", "--root", str(base_ledger), "--out", str(tmp_path / "readonly/site"))
    os.chmod(out.parent, 0o755)
    assert proc.returncode == 2 and "cannot write the site" in proc.stderr and "Traceback" not in proc.stderr
    assert site_file.is_file()


# --- serve ----------------------------------------------------------------------------------

@pytest.fixture
def server(tmp_path, base_ledger):
    out = tmp_path / "site"
    rebuilder = serve.Rebuilder(base_ledger, out, echo=lambda _: None)
    rebuilder.rebuild()
    (out / "passwd.html").symlink_to("/etc/passwd")
    httpd = serve.Server(("127.0.0.1", 0), serve._handler(rebuilder))
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield httpd.server_address[1], out
    httpd.shutdown()
    httpd.server_close()


def _get(port: int, path: str, host: str | None = "127.0.0.1") -> tuple[int, bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        header = f"Host: {host}:{port}\r\n" if host is not None else ""
        sock.sendall(f"GET {path} HTTP/1.0\r\n{header}\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def test_serve_serves_only_regular_files_inside_the_site(server):
    port, _ = server
    assert _get(port, "/")[0] == 200
    assert _get(port, "/core")[0] == 301
    assert _get(port, "/passwd.html")[0] == 404  # a symlink in the site is never followed
    assert _get(port, "/index.html%00.txt")[0] == 400
    assert _get(port, "/../../etc/passwd")[0] in (400, 404)
    assert _get(port, "/%ff")[0] == 400


def test_serve_takes_a_burst_of_connections_and_drops_idle_ones(server):
    port, _ = server
    idle = socket.create_connection(("127.0.0.1", port), timeout=30)  # says nothing
    results = []

    def fetch():
        try:
            results.append(_get(port, "/_assets/style.css")[0])
        except OSError as exc:
            results.append(exc)

    threads = [threading.Thread(target=fetch) for _ in range(200)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert results.count(200) == 200
    started = time.monotonic()
    assert idle.recv(10) == b""  # the server hangs up on a silent client
    assert time.monotonic() - started < 25
    idle.close()


def test_review_on_a_full_disk_is_a_refusal_that_changes_nothing(base_ledger, monkeypatch):
    import errno
    import tempfile

    before = (base_ledger / "claims/core/alpha.yaml").read_bytes()

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(base_ledger))

    monkeypatch.setattr(tempfile, "mkstemp", full)
    outcome = review.review(base_ledger, ["alpha"], every=False)
    assert "No space left on device" in outcome.refusal and outcome.stamped == []
    assert (base_ledger / "claims/core/alpha.yaml").read_bytes() == before


@pytest.mark.parametrize("target_kind", ["other-site", "missing", "empty"])
def test_a_committed_site_symlink_never_sends_the_default_build_outside_the_root(tmp_path, target_kind):
    """Issue 26: `site` committed as a symlink made `scorecard build` replace another scorecard site on the machine,
    create a folder that did not exist, or fill an empty one. The default output must be a real folder."""
    from conftest import LEDGERS, copy_ledger, run_cli

    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    target = tmp_path / "elsewhere"
    if target_kind == "other-site":
        target.mkdir()
        (target / ".scorecard-site").write_text("")
        (target / "index.html").write_text("someone else's site")
    elif target_kind == "empty":
        target.mkdir()
    (root / "site").symlink_to(target)
    before = sorted(p.name for p in target.iterdir()) if target.exists() else None
    assert "SC410" in run_cli("validate", cwd=root).stdout
    for args in (["build"], ["build", "--history"]):
        proc = run_cli(*args, cwd=root)
        assert proc.returncode == 2 and "is a symlink" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
        assert (sorted(p.name for p in target.iterdir()) if target.exists() else None) == before
    explicit = tmp_path / "chosen"
    assert run_cli("build", "--out", str(explicit), cwd=root).returncode == 0  # an explicit --out is the user's


@pytest.mark.parametrize("rel,target", [("claims/core/zeta.yaml", "../../.git/config"),
                                        ("claims/vcs", "../.git"), ("scorecard.yaml", ".git/scorecard.yaml")])
def test_nothing_a_link_leads_to_in_a_version_control_folder_is_read(base_ledger, rel, target):
    """Issue 40 item 8: a record symlinked into .git/ was read and its lines printed in SC202 messages."""
    git_dir = base_ledger / ".git"
    git_dir.mkdir()
    (git_dir / "config").write_text("[remote \"origin\"]\n\turl = https://token-secret@example.org/x\n")
    (git_dir / "scorecard.yaml").write_text((base_ledger / "scorecard.yaml").read_text() + "secretkey: token-secret\n")
    (git_dir / "_category.yaml").write_text("title: token-secret\n")
    link = base_ledger / rel
    if link.exists():
        link.unlink()
    link.symlink_to(target)
    result, _ = pipeline.validate(base_ledger)
    found = [f for f in result.findings if f.code == "SC407"]
    assert found and found[0].file == rel, [(f.code, f.file, f.message) for f in result.findings]
    assert not any("token-secret" in f.message + f.hint for f in result.findings)


@pytest.mark.parametrize("rel,bad", [("claims/con/nul.yaml", True), ("evidence/aux.tar.gz", True), ("COM1", True),
                                     ("docs/LPT9.md", True), ("docs/a:b.md", True), ("docs/trail.", True),
                                     ("docs/trail ", True), ("docs/q?.md", True), ("claims/com10/x.yaml", False),
                                     ("docs/console.md", False), ("claims/core/annul.yaml", False),
                                     ("evidence/run.json", False), ("evidence/COM¹.json", True),
                                     ("docs/CONIN$", True)])
def test_names_windows_cannot_check_out(rel, bad):
    assert (paths.windows_problem(rel) is not None) == bad


def test_every_export_shows_control_characters_as_replacement(base_ledger, tmp_path):
    """Issue 40 item 8: data.csv kept NUL, ESC and BEL (a `cat` retitled the terminal); C1 controls were raw in
    data.json."""
    alpha = base_ledger / "claims/core/alpha.yaml"
    alpha.write_text(alpha.read_text().replace("title: Alpha throughput",
                                               'title: "Alpha \\e]0;pwned\\a \\x9b2J \\0 throughput"'))
    proc = run_cli("build", "--root", str(base_ledger), "--out", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr
    for name in ("data.csv", "data.json", "core/data.json", "search.json"):
        text = (tmp_path / "out" / name).read_text(encoding="utf-8")
        assert not any(ch in text for ch in "\x1b\x07\x9b\x00"), name
        assert "\\u001b" not in text and "\\u0007" not in text and "\\u0000" not in text, name
        assert "Alpha \ufffd]0;pwned\ufffd \ufffd2J \ufffd throughput" in text, name


def test_a_version_control_folder_is_known_in_any_case(tmp_path):
    """Found by the review: `.GIT` is `.git` where names fold (macOS, Windows): it is never read either."""
    (tmp_path / ".GIT").mkdir()
    (tmp_path / ".GIT/config").write_text("token\n")
    with pytest.raises(paths.PathProblem) as exc:
        paths.resolve_inside(tmp_path, ".GIT/config")
    assert exc.value.code == "SC407"
    (tmp_path / "link").symlink_to(".GIT")
    with pytest.raises(paths.PathProblem) as exc:
        paths.inside_root(tmp_path / "link", tmp_path.resolve(), "link")
    assert exc.value.code == "SC407"


@pytest.mark.parametrize("host, code", [("127.0.0.1", 200), ("localhost", 200), ("[::1]", 200),
                                        ("evil.example", 403), ("127.0.0.1.evil.example", 403), (None, 403)])
def test_serve_answers_only_requests_naming_a_loopback_host(server, host, code):
    """Issue 40 item 7: a DNS-rebinding page (Host: evil.example, resolving to 127.0.0.1) read the preview."""
    port, _ = server
    assert _get(port, "/", host)[0] == code


def test_serve_builds_outside_the_ledger_and_shows_the_findings_before_a_good_build(tmp_path, base_ledger):
    """A broken ledger: no site yet, so every page is the findings page (it was 404); --out inside the ledger is
    refused, and a folder nested 1,100 deep is walked without recursion."""
    from conftest import run_cli

    (base_ledger / "claims/core/alpha.yaml").write_text("title: [unclosed\n")
    rebuilder = serve.Rebuilder(base_ledger, tmp_path / "out", echo=lambda _: None)
    rebuilder.rebuild()
    httpd = serve.Server(("127.0.0.1", 0), serve._handler(rebuilder))
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        code, body = _get(httpd.server_address[1], "/core/")
        assert code == 200 and b"No good build yet" in body and b"SC101" in body
    finally:
        httpd.shutdown()
        httpd.server_close()
    proc = run_cli("serve", "--root", str(base_ledger), "--out", str(base_ledger / "site"))
    assert proc.returncode == 2 and "inside the ledger" in proc.stderr
    deep, made = base_ledger / "evidence", []
    for _ in range(1100):
        deep = deep / "d"
        deep.mkdir()
        made.append(deep)
    (deep / "x.json").write_text("{}")
    try:
        assert str(deep / "x.json") in rebuilder.inputs()
    finally:  # removed deepest first: shutil.rmtree (pytest's clean-up) recurses and would fail on it
        (deep / "x.json").unlink()
        for folder in reversed(made):
            folder.rmdir()


def test_every_query_of_a_run_shares_one_budget(base_ledger, monkeypatch):
    """Issue 40 item 5: the 2-second budget was per query, so 41 hostile records took 73 s. Every path: query of a run
    now shares one budget; past it, a finding that says so (SC311), not "selects nothing"; the next run starts
    afresh."""
    from scorecard.cli import pipeline
    from scorecard.measure import budget

    alpha = (base_ledger / "claims/core/alpha.yaml").read_text().replace("  pointer: /runs/0/rps\n",
                                                                       "  path: $.runs[0].rps\n")
    for name in ("a1", "a2", "a3"):
        (base_ledger / f"claims/core/{name}.yaml").write_text(alpha.replace("Alpha throughput", f"Alpha {name}"))
    result, _ = pipeline.validate(base_ledger)
    assert [f.code for f in result.findings] == []
    one = budget.run_spent()[1] // 4  # the work of one query (alpha and its three copies)
    monkeypatch.setattr(budget, "RUN_WORK_BUDGET", 2 * one)
    result, _ = pipeline.validate(base_ledger)
    spent = [f for f in result.findings if f.code == "SC311"]
    assert len(spent) == 2 and all("this run's queries together spent their budget" in f.message and
                                   "the run's budget" in f.hint for f in spent)
    assert not any(f.code == "SC312" for f in result.findings)
    monkeypatch.setattr(budget, "RUN_WORK_BUDGET", 10 ** 9)
    assert pipeline.validate(base_ledger)[0].findings == []  # a new run, a fresh budget
