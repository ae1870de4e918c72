"""Boundaries, pinned: a value exactly at the bar or the tolerance, a date exactly today, an age
exactly at its limit, list positions, and the YAML scalars a careless parser gets wrong.

Each case sits on the edge a flipped comparison would move (`<` for `<=`, `>` for `>=`), so the
mutation run (tests/mutation/run) finds a test that fails for every such change.
"""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

import pytest

from scorecard.core.place import LedgerPlace
from scorecard.measure import verdict
from scorecard.measure import compare
from scorecard.cli import pipeline
from scorecard.ledger.cache import ParsedFiles, open_ledger_folder
from scorecard.ledger.load import MemoryParseCache
from scorecard.measure.reading import Measurement
from scorecard.ledger.yamldoc import Document, parse_bytes

from conftest import LEDGERS, copy_ledger

TOL = 0.05


def bar(value: float = 100.0, better: str = "higher", unit: str = "req/s"):
    return SimpleNamespace(value=value, unit=unit, better=better)


def judged(status: str, value: float, *, low: float | None = None, high: float | None = None,
           better: str = "higher") -> str | None:
    m = Measurement(value, "req/s", (), low=low, high=high, interval_from="ci" if low is not None else "")
    c = compare.compare(m, bar(better=better), TOL)
    assert c is not None
    problem = verdict.judge(status, m, c)
    return None if problem is None else problem.code


# --- the margin and the tolerance -------------------------------------------------------------------

@pytest.mark.parametrize(("status", "value", "code"), [
    ("leads", 100.0, "SC501"),    # exactly at the bar is not a lead
    ("leads", 105.0, "SC504"),    # a lead of exactly the tolerance is inside it
    ("leads", 105.5, None),       # beyond the tolerance: a lead
    ("leads", 99.0, "SC501"),
    ("trails", 100.0, "SC502"),   # exactly at the bar is not a trail
    ("trails", 99.0, "SC502"),    # a single value 1 % behind is exact, within the tolerance: parity (issue 41)
    ("trails", 94.5, None),
    ("trails", 95.0, "SC502"),    # exactly at -tolerance is level
    ("trails", 101.0, "SC502"),
    ("inconclusive", 99.0, "SC514"),  # a single value is always placed
    ("inconclusive", 120.0, "SC514"),
    ("parity", 105.0, None),      # exactly at +tolerance is level
    ("parity", 95.0, None),       # exactly at -tolerance is level
    ("parity", 105.5, "SC503"),
    ("parity", 94.5, "SC503"),
])
def test_status_against_the_bar_at_its_edges(status, value, code):
    assert judged(status, value) == code


@pytest.mark.parametrize(("status", "value", "lower_code", "higher_code"), [
    ("leads", 95.0, "SC504", "SC501"),   # lower is better: 95 against 100 is exactly 5% ahead
    ("leads", 94.0, None, "SC501"),
    ("trails", 105.0, "SC502", "SC502"),  # exactly the tolerance behind either way: level
    ("trails", 106.0, None, "SC502"),
    ("trails", 94.0, "SC502", None),
])
def test_the_direction_decides_which_side_is_ahead(status, value, lower_code, higher_code):
    assert judged(status, value, better="lower") == lower_code
    assert judged(status, value, better="higher") == higher_code


def test_margin_is_relative_and_direction_aware():
    assert compare.margin(110, 100, "higher") == pytest.approx(0.10)
    assert compare.margin(110, 100, "lower") == pytest.approx(-0.10)
    # A bar of zero: only the sign, whatever the unit the value is written in (49 ms against 0 s is not parity).
    assert (compare.margin(5, 0, "higher"), compare.margin(0.005, 0, "higher"), compare.margin(-5, 0, "higher")) == \
        (1, 1, -1)
    assert (compare.margin(5, 0, "lower"), compare.margin(0, 0, "lower")) == (-1, 0)
    assert compare.margin(90, -100, "higher") == pytest.approx(1.9)  # relative to |bar|


@pytest.mark.parametrize(("low", "high", "status", "code"), [
    (100.0, 130.0, "leads", "SC505"),   # the interval's worst end exactly at the bar reaches it
    (100.5, 130.0, "leads", None),
    (90.0, 100.0, "trails", "SC506"),   # the point 3 % behind, the worse end 10 %, the best exactly at the bar
    (90.0, 99.5, "trails", None),       # the whole interval behind, its worse end beyond the tolerance
    (98.0, 99.5, "trails", "SC502"),    # the whole interval behind, but within the tolerance: parity (issue 41)
    (70.0, 100.0, "trails", None),      # the point 20 % behind, beyond the tolerance: trails (issue 41)
])
def test_an_interval_touching_the_bar(low, high, status, code):
    value = 120.0 if status == "leads" else (97.0 if low in (90.0, 98.0) else 80.0)
    assert judged(status, value, low=low, high=high) == code


def test_standing_needs_the_margin_beyond_the_tolerance_and_the_whole_interval_on_one_side():
    def standing(value, low=None, high=None):
        m = Measurement(value, "req/s", (), low=low, high=high)
        c = compare.compare(m, bar(), TOL)
        assert c is not None
        return c.standing

    assert standing(105.0) == "level" and standing(95.0) == "level"
    assert standing(105.5) == "ahead" and standing(94.5) == "behind"
    assert standing(120.0, 100.0, 130.0) == "level"  # worst end exactly at the bar
    assert standing(80.0, 70.0, 100.0) == "behind"  # the point beyond the tolerance behind (issue 41)
    assert standing(99.0, 98.0, 100.0) == "level"
    assert standing(120.0, 90.0, 130.0) == "unplaced"  # the worse end 10 % behind, the point 20 % ahead
    assert standing(120.0, 100.5, 130.0) == "ahead" and standing(80.0, 70.0, 99.5) == "behind"


# --- dates: today, and ages exactly at their limit --------------------------------------------------

TODAY = "2026-06-15"  # SOURCE_DATE_EPOCH of the test run (conftest)


def _validate_with(tmp_path, beta_edits: dict[str, str], settings_edits: dict[str, str] | None = None):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    beta = root / "claims/core/beta.yaml"
    text = beta.read_text()
    for old, new in beta_edits.items():
        assert old in text, old
        text = text.replace(old, new)
    beta.write_text(text)
    settings = root / "scorecard.yaml"
    stext = settings.read_text()
    for old, new in (settings_edits or {}).items():
        assert old in stext, old
        stext = stext.replace(old, new)
    settings.write_text(stext)
    result, _ = pipeline.validate(root)
    return [(f.code, f.file, f.line, f.col) for f in result.findings]


def _beta_date() -> str:
    text = (LEDGERS / "base/claims/core/beta.yaml").read_text()
    return next(line.split(":", 1)[1].strip() for line in text.splitlines() if line.strip().startswith("date:"))


@pytest.mark.parametrize(("when", "future"), [(TODAY, False), ("2026-06-16", True), ("2026-06", False),
                                              ("2026-07", True), ("2026", False), ("2027", True)])
def test_a_source_dated_today_is_not_in_the_future(tmp_path, when, future):
    found = _validate_with(tmp_path, {f"date: {_beta_date()}": f"date: {when}"},
                           {"stale_after_months: 24": "stale_after_months: 120"})
    assert any(code == "SC602" for code, *_ in found) == future, found


@pytest.mark.parametrize(("when", "stale"), [
    ("2024-06", False),  # 24 months before June 2026: exactly at the limit, not over it
    ("2024-05", True),
    ("2024", False),     # a year counts from its December: 18 months
    ("2023", True),      # from December 2023: 30 months
])
def test_a_source_exactly_at_the_age_limit_is_not_stale(tmp_path, when, stale):
    found = _validate_with(tmp_path, {f"date: {_beta_date()}": f"date: {when}"})
    assert any(code == "SC603" for code, *_ in found) == stale, found


def test_months_between_counts_whole_months():
    assert compare.months_between((2024, 6), date(2026, 6, 15)) == 24
    assert compare.months_between((2024, 12), date(2026, 6, 1)) == 18
    assert compare.months_between((2026, 7), date(2026, 6, 30)) == -1


# --- YAML: scalars, positions of list items, NUL bytes -----------------------------------------------

def parsed(text: str) -> tuple[Document, list]:
    doc = Document("f.yaml")
    findings: list = []
    parse_bytes(text.encode(), doc, findings)
    return doc, findings


def test_booleans_and_nulls_by_the_yaml_1_2_core_schema():
    doc, findings = parsed("a: false\nb: true\nc: FALSE\nd: null\ne: ~\nf:\ng: 'false'\nh: 0x10\ni: 1e3\n"
                           "j: False\nk: True\nl: TRUE\nm: Null\nn: NULL\n")
    assert findings == []
    assert doc.data == {"a": False, "b": True, "c": False, "d": None, "e": None, "f": None, "g": "false",
                        "h": 16, "i": 1000.0, "j": False, "k": True, "l": True, "m": None, "n": None}
    assert [type(v) for v in doc.data.values()].count(bool) == 6
    assert doc.data["a"] is False and doc.data["b"] is True


def test_every_list_item_has_its_own_position():
    doc, findings = parsed("trace:\n  - a\n  - b\n  -   c\nx: [1, 22, 333]\n")
    assert findings == []
    assert [doc.pos(("trace", i)) for i in range(3)] == [(2, 5), (3, 5), (4, 7)]
    assert [doc.pos(("x", i)) for i in range(3)] == [(5, 5), (5, 8), (5, 12)]
    assert doc.pos(("x",), key=True) == (5, 1)


def test_a_bad_trace_item_is_reported_at_its_own_line(tmp_path):
    text = (LEDGERS / "base/claims/core/beta.yaml").read_text()
    assert "trace:" not in text
    found = _validate_with(tmp_path, {"claim:": "trace:\n  - docs/notes.md\n  - https://example.org/x\n"
                                                "  - docs/missing.md\nclaim:"})
    line = text.splitlines().index(next(x for x in text.splitlines() if x.startswith("claim:"))) + 1
    assert ("SC401", "claims/core/beta.yaml", line + 3, 5) in found, found


def test_a_nul_byte_is_a_finding_not_a_silent_drop(tmp_path):
    doc, findings = parsed("title: a\x00b\n")
    assert doc.data is None
    assert [(f.code, f.line, f.col) for f in findings] == [("SC107", 1, 1)]
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    (root / "claims/core/beta.yaml").write_bytes(b"title: Beta\x00\n")
    result, _ = pipeline.validate(root)
    assert [(f.code, f.file, f.line) for f in result.errors] == [("SC107", "claims/core/beta.yaml", 1)]


def test_meta_that_is_not_an_object_is_sc309(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    art = root / "evidence/run.json"
    assert art.is_file()
    art.write_text('{"meta": ["not", "an object"], "runs": [{"rps": 12}]}\n')
    result, _ = pipeline.validate(root)
    sc309 = [f for f in result.findings if f.code == "SC309"]
    assert [(f.file, f.line, f.col) for f in sc309] == [("evidence/run.json", 1, 1)]
    assert "an array, not an object" in sc309[0].message


# --- the rules beyond the schema, in process (coverage and the mutation run see these) ------------

def _ledger(tmp_path, edits: dict[str, dict[str, str]] | None = None, files: dict[str, str] | None = None):
    """The base ledger with text replaced in its files, and files added; returns (root, findings)."""
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    for rel, pairs in (edits or {}).items():
        path = root / rel
        text = path.read_text()
        for old, new in pairs.items():
            assert old in text, (rel, old)
            text = text.replace(old, new)
        path.write_text(text)
    for rel, text in (files or {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    result, _ = pipeline.validate(root)
    return root, result.findings


def where(findings, code):
    return [(f.file, f.line, f.col) for f in findings if f.code == code]


def test_an_unknown_bar_unit_warns_at_the_unit(tmp_path):
    _, found = _ledger(tmp_path, {"claims/core/beta.yaml": {"unit: ms": "unit: furlongs"}})
    assert where(found, "SC508") == [("claims/core/beta.yaml", 6, 9)]
    assert [f.severity for f in found if f.code == "SC508"] == ["warning"]


def test_a_review_is_judged_only_on_a_record_without_errors(tmp_path):
    stamp = {"claim: 12 req/s": "claim: 12 req/s\nreviewed: fp1-0000000000000000"}
    _, found = _ledger(tmp_path, {"claims/core/alpha.yaml": stamp})
    assert where(found, "SC801") == [("claims/core/alpha.yaml", 12, 11)]
    _, found = _ledger(tmp_path / "2", {"claims/core/alpha.yaml": {**stamp, "- docs/notes.md": "- docs/gone.md"}})
    assert where(found, "SC401") and not where(found, "SC801")


@pytest.mark.parametrize(("measured_on", "stale"), [("2025-06-30", False), ("2025-05-31", True)])
def test_evidence_exactly_at_its_age_limit_is_not_stale(tmp_path, measured_on, stale):
    _, found = _ledger(tmp_path, {"scorecard.yaml": {"stale_after_months: 24": "stale_after_months: 24\n"
                                                     "stale_evidence_after_months: 12"},
                                  "evidence/run.json": {'"date": "2026-02-01"': f'"date": "{measured_on}"'}})
    assert bool(where(found, "SC310")) == stale, found


@pytest.mark.parametrize(("checked", "code"), [("2025-06", None), ("2025-06-01", None), ("2025-05-31", "SC204"),
                                               ("2025", "SC204")])
def test_checked_in_the_source_month_is_not_before_it(tmp_path, checked, code):
    _, found = _ledger(tmp_path, {"claims/core/beta.yaml": {"date: 2025-06": f"date: 2025-06\n  checked: {checked}"}})
    assert [f.code for f in found if f.code == "SC204"] == ([code] if code else []), found


@pytest.mark.parametrize(("path", "text"), [(("why",), "Say why a buyer or a user cares about this dimension."),
                                            (("claim",), "our number, in words"),
                                            (("sota", "source"), "https://example.org/paper")])
def test_each_example_text_left_in_is_sc604(tmp_path, path, text):
    old = {("why",): "why: Latency matters.", ("claim",): "claim: not measured",
           ("sota", "source"): "source: https://example.org/beta"}[path]
    _, found = _ledger(tmp_path, {"claims/core/beta.yaml": {old: old.split(":")[0] + ": " + text}})
    sc604 = [f for f in found if f.code == "SC604"]
    assert len(sc604) == 1 and ".".join(path) in sc604[0].message, found


def test_the_example_artifact_left_in_is_sc604(tmp_path):
    from scorecard.ledger.placeholders import ARTIFACT_NOTE

    _, found = _ledger(tmp_path, {"evidence/run.json": {'"commit": "abc1234"': f'"note": "{ARTIFACT_NOTE}: x"'}})
    assert where(found, "SC604") == [("evidence/run.json", 1, 1)]


@pytest.mark.parametrize(("trace", "message"), [
    ("docs/notes.md#", "must be a JSON pointer into a .json file"),          # an empty fragment
    ("evidence/run.json#runs/0", "must be a JSON pointer into a .json file"),  # no leading slash
    ("docs/notes.md#/intro", "must be a JSON pointer into a .json file"),    # not a .json file
    ("docs/data.json#/a", "is invalid JSON"),                                  # the JSON does not parse
    ("evidence/run.json#/runs/9", "index 9"),
])
def test_trace_fragments(tmp_path, trace, message):
    _, found = _ledger(tmp_path, {"claims/core/alpha.yaml": {"- docs/notes.md": f'- "{trace}"'}},
                       {"docs/data.json": "{not json"})
    sc402 = [f for f in found if f.code == "SC402"]
    assert [(f.file, f.line, f.col) for f in sc402] == [("claims/core/alpha.yaml", 17, 5)], found
    assert message in sc402[0].message, sc402[0].message


def test_a_labelled_trace_is_reported_at_its_path(tmp_path):
    labelled = "- label: Notes\n    path: docs/gone.md"
    _, found = _ledger(tmp_path, {"claims/core/alpha.yaml": {"- docs/notes.md": labelled}})
    assert where(found, "SC401") == [("claims/core/alpha.yaml", 18, 11)], found


@pytest.mark.parametrize(("field", "hint"), [("date", "the date the source was published"),
                                             ("checked", "the date you checked that the bar still stands")])
def test_a_future_date_says_which_date_to_use(tmp_path, field, hint):
    text = "date: 2027-01" if field == "date" else "date: 2025-06\n  checked: 2027-01"
    _, found = _ledger(tmp_path, {"claims/core/beta.yaml": {"date: 2025-06": text}})
    sc602 = [f for f in found if f.code == "SC602"]
    assert len(sc602) == 1 and hint in sc602[0].hint and f"sota.{field} 2027-01" in sc602[0].message


# --- reading the ledger's files ---------------------------------------------------------------------

def test_an_unreadable_record_is_sc101(tmp_path, monkeypatch):
    import scorecard.ledger.load as load

    real = load.read_regular

    def refuse(path, rel, limit):
        if rel.endswith("beta.yaml"):
            raise PermissionError(13, "Permission denied")
        return real(path, rel, limit)

    monkeypatch.setattr(load, "read_regular", refuse)
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    result, _ = pipeline.validate(root)
    assert [(f.code, f.file, f.line, f.col, f.message) for f in result.findings] == [
        ("SC101", "claims/core/beta.yaml", 1, 1, "cannot read the file: Permission denied")]


def test_a_cached_parse_keeps_its_findings(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    (root / "claims/core/beta.yaml").write_text((LEDGERS / "base/claims/core/beta.yaml").read_text()
                                                + "claim: twice\n")
    cache = MemoryParseCache()
    first, _ = pipeline.validate(root, cache)
    second, _ = pipeline.validate(root, cache)
    assert len(cache) == 4 and [(f.code, f.line, f.col) for f in first.findings] == [("SC102", 12, 1)]
    assert second.findings == first.findings


def test_the_warm_cache_keeps_a_files_findings_and_positions(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    (root / "claims/core/beta.yaml").write_text((LEDGERS / "base/claims/core/beta.yaml").read_text()
                                                + "claim: twice\nstatus: leads\n")
    pipeline.validate(root, warm=True)  # the first run on a ledger only marks it as seen
    cold, _ = pipeline.validate(root, warm=True)
    folder = open_ledger_folder(LedgerPlace.at(root))
    # scorecard.yaml, a _category.yaml and two records
    assert folder is not None and len(ParsedFiles(folder / "parsed.bin").kept) == 4
    warm, _ = pipeline.validate(root, warm=True)
    assert [(f.code, f.line, f.col) for f in cold.findings] == [("SC102", 12, 1), ("SC102", 13, 1), ("SC301", 13, 9)]
    assert warm.findings == cold.findings


def test_a_missing_settings_file_is_sc001(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    (root / "scorecard.yaml").unlink()
    result, _ = pipeline.validate(root)
    assert [(f.code, f.file, f.line, f.col) for f in result.errors] == [("SC001", "scorecard.yaml", 1, 1)]


@pytest.mark.parametrize(("name", "hint"), [("gamma.yml", "rename it to gamma.yaml"),
                                            ("notes.txt", "remove it, or move it out of claims/")])
def test_a_file_that_is_not_yaml_says_what_to_do(tmp_path, name, hint):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    (root / "claims/core" / name).write_text("title: x\n")
    result, _ = pipeline.validate(root)
    assert [(f.code, f.file, f.hint) for f in result.findings] == [("SC003", f"claims/core/{name}", hint)]


def test_positions_fall_back_to_the_nearest_parent_then_the_start():
    doc, _ = parsed("a:\n  - x\n  - y\n")
    assert doc.pos(("a", 1), key=True) == (3, 5)  # a list item has no key: its value's position
    assert doc.pos(("a", 1, "zz")) == (3, 5)      # a missing child: its parent
    assert doc.pos(("zz",), key=True) == (1, 1)   # nothing: the document's start
    assert Document("f.yaml").pos(("a",)) == (1, 1)


@pytest.mark.parametrize(("digits", "value"), [("9" * 310, int("9" * 310)), ("9" * 311, float("inf")),
                                               ("-" + "9" * 309, -int("9" * 309)), ("-" + "9" * 310, float("-inf"))])
def test_integers_past_any_float_become_infinite_at_311_characters(digits, value):
    doc, findings = parsed(f"a: {digits}\n")
    assert findings == [] and doc.data == {"a": value}


@pytest.mark.parametrize(("text", "expected"), [
    ("title: a\x07b\n", ("SC101", 1, 1, "YAML error: unacceptable character #x0007", "fix the YAML syntax")),
    ("# only a comment\n", ("SC106", 1, 1, "the file holds no value", "fill in the record")),
    ("a: b: c\n", ("SC101", 1, 5, "YAML syntax error: mapping values are not allowed in this context",
                   "a ': ' inside a value starts a new key: put the whole value in quotes")),
    ("k: v\n x: y\n", ("SC101", 2, 3, "YAML syntax error: mapping values are not allowed in this context",
                       "this key's indentation does not fit the line above")),
    ("a: : b\n", ("SC101", 1, 4, "YAML syntax error: mapping values are not allowed in this context",
                  "a ': ' inside a value starts a new key")),
    ("k: v\n x: y\tz\n", ("SC101", 2, 3, "YAML syntax error: mapping values are not allowed in this context",
                           "this key's indentation does not fit the line above")),  # a tab, but not in the indent
    ("a:\n\tb: 1\n", ("SC101", 2, 1, "YAML syntax error: a tab in the indentation",
                      "indent with spaces only; YAML does not allow tabs for indentation")),
])
def test_yaml_errors_say_where_and_what_to_do(text, expected):
    _, findings = parsed(text)
    assert len(findings) == 1
    f = findings[0]
    code, line, col, message, hint = expected
    assert (f.code, f.line, f.col) == (code, line, col) and f.message.startswith(message) and f.hint.startswith(hint)


def test_a_value_that_did_not_move_is_neither_better_nor_worse():
    assert compare.change_words(10, "req/s", 10, "req/s", "higher") == "10 req/s → 10 req/s, +0.0 %"
    assert compare.change_words(10, "req/s", 11, "req/s", "lower").endswith(", worse")


def test_in_unit_needs_both_units():
    assert compare.in_unit(1.0, None, "ms") is None and compare.in_unit(1.0, "ms", None) is None
    assert compare.in_unit(1.0, None, None) == 1.0 and compare.in_unit(2.0, "s", "ms") == pytest.approx(2000.0)


def test_the_oldest_input_decides_how_old_a_number_is():
    from scorecard.measure.evidence import Artifact

    arts = {"evidence/new.json": Artifact("evidence/new.json", meta={"date": "2026-05-01"}),
            "evidence/old.json": Artifact("evidence/old.json", meta={"date": "2025-01-31"})}
    store = SimpleNamespace(get=arts.__getitem__, git_date=lambda rel: None)
    oldest = compare.oldest_evidence([("a", "evidence/new.json"), ("b", "evidence/old.json")], store)
    assert oldest == (date(2025, 1, 31), "meta.date", "b", "evidence/old.json")
    assert compare.oldest_evidence([], store) is None


def test_example_text_is_reported_at_the_first_place_in_the_file(tmp_path):
    from scorecard.ledger import placeholders as ph

    text = (LEDGERS / "base/claims/core/beta.yaml").read_text()
    text = f"note: {ph.DIMENSION[('note',)]}\n" + text.replace("why: Latency matters.",
                                                               f"why: {ph.DIMENSION[('why',)]}")
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    (root / "claims/core/beta.yaml").write_text(text)
    result, _ = pipeline.validate(root)
    sc604 = [f for f in result.findings if f.code == "SC604"]
    assert [(f.line, f.col) for f in sc604] == [(1, 7)]
    assert sc604[0].message.endswith("still in: note, why")


# --- the site's ages and staleness, exactly at their limits --------------------------------------------

def _resolved(tmp_path, beta_date: str, measured_on: str):
    from scorecard.site.resolve import resolve_ledger

    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    settings = root / "scorecard.yaml"
    settings.write_text(settings.read_text().replace("stale_after_months: 24",
                                                     "stale_after_months: 24\nstale_evidence_after_months: 12"))
    beta = root / "claims/core/beta.yaml"
    beta.write_text(beta.read_text().replace("date: 2025-06", f"date: {beta_date}"))
    run = root / "evidence/run.json"
    run.write_text(run.read_text().replace('"date": "2026-02-01"', f'"date": "{measured_on}"'))
    result, store = pipeline.validate(LedgerPlace.at(root, pinned=date(2026, 6, 15)))
    assert not result.errors, result.findings
    led = resolve_ledger(result.ledger, store)
    return {d.id: d for c in led.categories for d in c.dimensions}


def test_ages_this_month_are_zero_and_ages_at_the_limit_are_not_stale(tmp_path):
    dims = _resolved(tmp_path, "2026-06", "2026-06-01")
    assert (dims["beta"].source_age_months, dims["beta"].source_stale) == (0, False)
    assert (dims["alpha"].evidence_age_months, dims["alpha"].evidence_stale) == (0, False)
    dims = _resolved(tmp_path / "2", "2024-06", "2025-06-01")  # exactly 24 and 12 months
    assert (dims["beta"].source_age_months, dims["beta"].source_stale) == (24, False)
    assert (dims["alpha"].evidence_age_months, dims["alpha"].evidence_stale) == (12, False)
    dims = _resolved(tmp_path / "3", "2024-05", "2025-05-31")  # one month over each
    assert (dims["beta"].source_age_months, dims["beta"].source_stale) == (25, True)
    assert (dims["alpha"].evidence_age_months, dims["alpha"].evidence_stale) == (13, True)


def test_the_template_shortcuts_name_the_first_source(tmp_path):
    """measured.evidence, .pointer and .meta are documented for ledger templates (docs/site.md)."""
    alpha = _resolved(tmp_path, "2025-06", "2026-02-01")["alpha"]
    assert alpha.measured is not None
    assert (alpha.measured.evidence, alpha.measured.pointer) == ("evidence/run.json", "/runs/0/rps")
    assert alpha.measured.meta == {"commit": "abc1234", "date": "2026-02-01"}


@pytest.mark.parametrize(("extra", "too_large"), [(0, False), (1, True)])
def test_a_record_of_exactly_the_size_limit_is_read(tmp_path, extra, too_large):
    MAX_FILE_BYTES = 1024 * 1024  # the documented limit (docs/format.md), not read from the code under test

    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    beta = root / "claims/core/beta.yaml"
    text = beta.read_bytes()
    filler = MAX_FILE_BYTES + extra - len(text) - 2
    beta.write_bytes(text + b"#" + b"x" * filler + b"\n")
    assert beta.stat().st_size == MAX_FILE_BYTES + extra
    result, _ = pipeline.validate(root)
    assert [(f.code, f.line, f.col) for f in result.findings] == ([("SC108", 1, 1)] if too_large else [])


def test_a_special_file_in_place_of_a_record_is_refused_at_its_start(tmp_path):
    import os

    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    os.mkfifo(root / "claims/core/gamma.yaml")
    result, _ = pipeline.validate(root)
    assert [(f.code, f.file, f.line, f.col) for f in result.findings] == [("SC406", "claims/core/gamma.yaml", 1, 1)]


def test_the_root_is_the_nearest_folder_with_scorecard_yaml(tmp_path):
    from scorecard.ledger.load import LedgerNotFound, find_root

    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    assert find_root(root / "claims/core") == root.resolve()
    assert find_root(root) == root.resolve()
    with pytest.raises(LedgerNotFound, match="no scorecard.yaml"):
        find_root(tmp_path)
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "scorecard.yaml").symlink_to(tmp_path / "nowhere.yaml")  # a dangling link still marks a ledger
    assert find_root(linked) == linked.resolve()


def test_a_byte_that_is_not_utf8_is_found_after_a_blank_first_line():
    doc = Document("f.yaml")
    findings: list = []
    parse_bytes(b"\ntitle: caf\xe9\n", doc, findings)
    assert [(f.code, f.line, f.col) for f in findings] == [("SC107", 2, 11)]


def test_a_link_that_stays_inside_the_ledger_is_followed(tmp_path):
    root = copy_ledger(LEDGERS / "base", tmp_path / "ledger")
    (root / "shared").mkdir()
    (root / "shared/gamma.yaml").write_text((root / "claims/core/beta.yaml").read_text())
    (root / "claims/core/gamma.yaml").symlink_to("../../shared/gamma.yaml")
    result, _ = pipeline.validate(root)
    assert result.findings == [] and sorted(d.id for d in result.ledger.dimensions()) == ["alpha", "beta", "gamma"]


@pytest.mark.parametrize(("measured_on", "months"), [("2025-05-31", 13), ("2025-06-30", 12), ("2026-09-01", 0)])
def test_the_site_and_the_check_date_evidence_once_and_alike(tmp_path, monkeypatch, measured_on, months):
    """Issue 25: one evidence-age computation. The check dates the evidence (SC310); the site reuses that date
    (it asks the artifacts and git no second time) and counts from the same reference date to the same age,
    evidence dated after it counting as new (0), never as a negative age."""
    from scorecard.cli import pipeline
    from scorecard.site import resolve

    root, found = _ledger(tmp_path, {"scorecard.yaml": {"stale_after_months: 24": "stale_after_months: 24\n"
                                                        "stale_evidence_after_months: 12"},
                                     "evidence/run.json": {'"date": "2026-02-01"': f'"date": "{measured_on}"'}})
    result, store = pipeline.validate(root)
    [alpha] = [d for d in result.ledger.dimensions() if d.id == "alpha"]
    assert alpha.evidence_dated is not None and alpha.evidence_dated[0].isoformat() == measured_on

    def asked_again(*_):
        raise AssertionError("the site dated the evidence a second time")

    monkeypatch.setattr(resolve, "oldest_evidence", asked_again)
    [site_alpha] = [d for c in resolve.resolve_ledger(result.ledger, store).categories
                    for d in c.dimensions if d.id == "alpha"]
    assert site_alpha.evidence_age_months == months
    assert site_alpha.evidence_stale == (months > 12) == bool(where(found, "SC310"))


def test_parity_is_decided_in_decimal_not_on_a_rounded_margin():
    """Found by a hostile pass: 2.8500000000000245 against 3.0000000000000258 is behind by 5.00000000000000033 %,
    beyond 5 %, but its float margin rounds to exactly -0.05: parity validated and the honest trails was refused."""
    m = Measurement(2.8500000000000245, "req/s", ())
    c = compare.compare(m, bar(3.0000000000000258), TOL)
    assert c.margin == -0.05 and not c.within  # the float says level; the decimal says beyond
    assert c.verdict() == "trails" and verdict.judge("trails", m, c) is None
    assert verdict.judge("parity", m, c).code == "SC503"
    ends = Measurement(2.99, "req/s", (), low=2.8500000000000245, high=3.1, interval_from="ci")
    c = compare.compare(ends, bar(3.0000000000000258), TOL)  # the worse end, likewise
    assert c.worse_end == -0.05 and c.verdict() == "inconclusive"
