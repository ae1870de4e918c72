"""Prose from the numbers: placeholders in claim:/note: and the check of numbers typed there (SC211, SC513).

The promises: a number the site would print for a value never warns against that value (honest prose passes);
a number no known value gives at its written precision always warns (drifted prose never passes silently);
numbers in other units, glued to letters, in code spans or quoted are left alone.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st

from scorecard.cli import pipeline
from scorecard.ledger.prose import _gives
from scorecard.measure import prose, typed, units
from scorecard.measure.numfmt import fmt_value
from scorecard.measure.pagetext import readings
from scorecard.measure.typed import Known

from conftest import LEDGERS, copy_ledger


def texts(text: str) -> list[str]:
    return [w.text for w in typed.written_numbers(text)]


def warned(text: str, *known: Known) -> list[str]:
    return [m.written.text for m in typed.check(text, list(known))]


# --- placeholders ---------------------------------------------------------------------------------

def test_every_name_fills_and_quote_shows_its_text():
    values = {n: f"<{n}>" for n in prose.NAMES}
    text = "${value} ${bar} ${ratio} ${gap} ${n} ${interval} ${quote 4.48x}"
    assert prose.fill(text, values) == "<value> <bar> <ratio> <gap> <n> <interval> 4.48x"
    assert prose.split(text)[1] == []
    assert prose.names(text + " ${value}") == list(prose.NAMES)


def test_literal_dollar_brace():
    pieces, slips = prose.split("costs $${value} and $5 {x}")
    assert slips == [] and prose.fill("costs $${value} and $5 {x}", {"value": "9"}) == "costs ${value} and $5 {x}"
    assert [p.name for p in pieces] == [None]


@pytest.mark.parametrize("text, message, start", [
    ("a ${valeu} b", "${valeu} is not a placeholder", 2),
    ("${}", "${} is not a placeholder", 0),
    ("x ${value", "'${' is not closed", 2),
    ("${quote}", "${quote} marks nothing", 0),
    ("${quote ${value}}", "holds a placeholder", 0),
    ("${value 3}", "${value} takes nothing after its name", 0),
])
def test_placeholders_that_cannot_be_read(text, message, start):
    _, slips = prose.split(text)
    assert len(slips) == 1 and message in slips[0].message and slips[0].start == start


def test_a_near_name_is_suggested():
    assert "did you mean ${interval}?" in prose.split("${intervall}")[1][0].hint


@given(st.text(alphabet="${} valuebarquote5ms", max_size=40))
def test_split_never_fails_and_fill_keeps_unread_text(text):
    pieces, slips = prose.split(text)
    filled = prose.fill(text, {n: "" for n in prose.NAMES})
    if not slips and "$" not in text:
        assert filled == text
    for p in pieces:
        assert p.name in (None, prose.QUOTE, *prose.NAMES)


# --- numbers typed in prose -----------------------------------------------------------------------

@pytest.mark.parametrize("written, half", [
    ("81 ms", "0.5"), ("81.0 ms", "0.05"), ("81.25 ms", "0.005"), ("80 ms", "0.5"), ("120 ms", "5"),
    ("1,840 tok/s", "5"), ("2000 ms", "50"), ("100 ms", "5"), ("0 ms", "0.5"), ("1e-4 Wh", "0.00005"),
    ("1.5e3 ms", "50"), ("4.1x", "0.05"),
])
def test_each_written_precision(written, half):
    [w] = typed.written_numbers(written)
    assert w.half == Decimal(half), written


def test_the_step_boundary_is_inclusive():
    assert warned("81 ms", Known(81.5, "ms", "the value")) == []
    assert warned("81 ms", Known(80.5, "ms", "the value")) == []
    assert warned("81 ms", Known(81.51, "ms", "the value")) == ["81 ms"]
    assert warned("30.2 ms", Known(30.25, "ms", "the value")) == []  # shown as 30.2 ms by the site


@pytest.mark.parametrize("written, value, unit", [
    ("81 ms", 0.0812, "s"), ("0.081 s", 81.2, "ms"), ("81,200 µs", 81.2, "ms"), ("720 req/min", 12, "req/s"),
    ("12%", 12, "%"), ("12 percent", 12, "%"), ("1.2x", 1.2, "x"), ("1.2×", 1.2, "x"), ("3 GiB", 3 * 2 ** 30, "B"),
])
def test_each_comparable_unit_is_checked(written, value, unit):
    assert warned(written, Known(value, unit, "the value")) == []
    assert warned(written, Known(value * 1.5, unit, "the value")) == [written]


@pytest.mark.parametrize("text, unit", [
    ("batch 32, 8 cores, in 2025, 99 %, 2025-09", "ms"),  # other units, none comparable with ms
    ("an H100, the 50x5 workload, v2.1, 3rd, p99", "ms"),  # glued to letters
    ("the rival's ${quote 95 ms}", "ms"),
    ("a 3.1x lead, 8% behind", "ms"),  # x and % only against a result in x or %
    ("costs $0.40 per run", "USD"),  # a currency sign before the number is not read
    ("see https://example.org/2401.09670 ms", "ms"),
    ("8-GPU node, H-100 ms", "ms"),
])
def test_numbers_left_alone(text, unit):
    assert warned(text, Known(1, unit, "the value")) == []


@pytest.mark.parametrize("text", ["`95 ms` in a code span", "``95 ms`` too", "`95\nms`",
                                  "| system | TTFT (ms) |\n|---|---:|\n| ours | 95 |"])
def test_a_number_in_a_code_span_or_a_table_cell_is_read(text):
    """Issue 42: a code span shows its number like any other text, and a table cell its column's unit."""
    assert warned(text, Known(1, "ms", "the value")) == ["95 ms"]


def test_ranges_take_the_unit_of_their_second_end():
    assert texts("75–88 ms, 5 to 7 s, 2-3x") == ["75 ms", "88 ms", "5 s", "7 s", "2x", "3x"]
    assert warned("from 75–88 ms", Known(75.2, "ms", "low"), Known(88.4, "ms", "high")) == []
    assert warned("from 70–88 ms", Known(75.2, "ms", "low"), Known(88.4, "ms", "high")) == ["70 ms"]


def test_a_negative_number():
    assert texts("-5 ms and (−3 ms)") == ["-5 ms", "−3 ms"]
    assert warned("-5 ms", Known(5, "ms", "v")) == ["-5 ms"]
    assert texts("- 5 ms in a list") == ["5 ms"]


# --- what a hostile pass found: each a false number that validated (or a crash, or a hang) ------------------

_VALUE = Known(81.1, "ms", "the value")


@pytest.mark.parametrize("text", [
    "95  ms", "95\tms", "95\u2009ms", "95\u200ams", "95\u2007ms", "95\u3000ms", "95 \u00a0ms", "95\u200bms",
    "95\u2060ms", "95\u00adms", "start-up is 95\nms median", "start-up is 95\n\nms",  # spacing, invisible, breaks
    "**95** ms", "*95* ms", "_95_ ms", "[95](x) ms", "9&#53; ms", "95&nbsp;ms", "95&#160;ms",  # Markdown, entities
    "`a\n\n95 ms\n\nb`", "<http://a/`> start-up is 95 ms <http://b/`>", "\\`95 ms\\`",  # not code spans
    "95 msec", "95 MS", "95 mS", "95-ms latency", ".095 s", "p50/p99 81/95 ms", "0.095 seconds",  # spellings
    "9.5e1 ms", "~95 ms", "≈95 ms", "９５ ms",
])
def test_a_false_number_is_read_however_it_is_spelled(text):
    assert warned(text, _VALUE) != [], text


@pytest.mark.parametrize("text, unit", [
    ("99-fold", "x"), ("99X", "x"), ("99 X", "x"), ("99 requests per second", "req/s"), ("9.99k tok/s", "tok/s"),
    ("9,999 tokens per second", "tok/s"), ("99 rps", "req/s"), ("15 pct", "%"), ("15 per cent", "%"), ("15％", "%"),
])
def test_more_unit_spellings(text, unit):
    assert warned(text, Known(12.4, unit, "the value")) != [], text
    assert warned(text.replace("99", "12.4").replace("9.99k", "0.0124k").replace("9,999", "12.4")
                  .replace("15", "12.4"), Known(12.4, unit, "the value")) == [], text


@pytest.mark.parametrize("text", ["9${n} ms", "${n}.5 ms", "1${n} ms", "-${value}", "**9**${n} ms", "${n}5 ms",
                                  "9${quote 5 ms}", "2,${n} ms"])
def test_a_number_typed_against_a_placeholder_is_glued(text):
    assert readings(text, {"n": "12", "value": "81.1 ms"})[1], text


def test_a_placeholder_that_gives_a_bare_number_is_read_with_the_typed_unit():
    values = {"n": "12", "value": "81.1 ms"}
    assert [m.written.text for m in typed.check("${n} ms", [_VALUE], values)] == ["12 ms"]
    assert typed.check("${n} runs, ${value}", [_VALUE], values) == []
    assert [m.written.text for m in typed.check("runs 95–${value}", [_VALUE], values)] == ["95 ms"]


@pytest.mark.parametrize("text", ["1e999999999 ms", "1e1000000 ms", "1e-999999 ms", "9" * 5000 + " ms"])
def test_huge_exponents_and_numbers_do_not_crash(text):
    warned(text, _VALUE)


def test_many_backticks_are_read_in_linear_time():
    warned("`" * 200_000 + " 95 ms", _VALUE)
    warned("` " * 100_000 + " 95 ms", _VALUE)


@pytest.mark.parametrize("text", [
    "1\u202f840 tok/s", "1\u00a0840 tok/s", "1'840 tok/s", "81.1 ± 1.2 ms", "38.9 ms faster than the bar",
    "under 100 ms", "well under 1 s", "at least 80 ms", "within 40 ms of the bar", "within 100 ms",
])
def test_honest_forms_that_warned_before(text):
    known = [_VALUE, Known(120, "ms", "the bar"), Known(38.9, "ms", typed.DIFFERENCE), Known(1840, "tok/s", "input")]
    assert warned(text, *known) == [], text


@pytest.mark.parametrize("text, number", [("under 50 ms", "50 ms"), ("over 90 ms", "90 ms"),
                                          ("within 10 ms", "10 ms"), ("at most 0.05 s", "0.05 s")])
def test_a_false_bound_warns(text, number):
    known = [_VALUE, Known(120, "ms", "the bar"), Known(38.9, "ms", typed.DIFFERENCE)]
    assert warned(text, *known) == [number], text


_UNITS = st.sampled_from(["ms", "s", "µs", "req/s", "tok/s", "%", "x", "GB/s", "J/token"])
_VALUES = st.floats(min_value=1e-9, max_value=1e12, allow_nan=False, allow_infinity=False)


@settings(max_examples=300, deadline=None)
@given(_VALUES, _UNITS, st.integers(1, 6))
def test_what_the_site_prints_never_warns(value, unit, sig):
    """Honest prose: the value as the site prints it (scaled for reading, any number of figures) passes."""
    printed = fmt_value(value, unit, sig)
    assert warned(f"we measured {printed}.", Known(value, unit, "the value")) == []


@settings(max_examples=300, deadline=None)
@given(_VALUES, _UNITS, st.floats(min_value=1.02, max_value=1e3))
def test_a_drifted_number_always_warns(value, unit, factor):
    """Drifted prose: a number 2% or more away from every known number, written to six figures, warns."""
    typed = f"{value * factor:.5e}"  # six significant figures, trailing zeros kept
    assert warned(f"we measured {typed} {unit}.", Known(value, unit, "the value")) == [f"{typed} {unit}"]


# --- in a ledger ---------------------------------------------------------------------------------

def test_example_ledger_prose_is_checked_and_clean():
    result, _ = pipeline.validate(LEDGERS.parent.parent)
    assert [f for f in result.findings if f.code in ("SC211", "SC513")] == []


def test_a_drift_in_the_good_prose_ledger_warns_at_the_note(tmp_path):
    root = copy_ledger(LEDGERS / "good" / "prose", tmp_path / "ledger")
    path = root / "claims/core/start.yaml"
    path.write_text(path.read_text().replace("runs from 78.2 ms", "runs from 75.2 ms"))
    result, _ = pipeline.validate(root)
    [f] = result.findings
    assert (f.code, f.file, f.line, f.col) == ("SC513", "claims/core/start.yaml", 17, 7)
    assert f.message == "note says 75.2 ms; the artifact gives 81.1 ms (the nearest number it rests on: the lowest " \
                        "run is 78.2 ms)"


_PIECES = st.sampled_from(["95", "81", "9", "5", " ", "ms", " ms", "s", "**", "*", "_", "`", "``", "\\", "&#53;",
                           "&nbsp;", "&amp;", "[", "](x)", "<http://a/>", "<", ">", "\n", "\n\n", ".", ",", "-",
                           "!", "#", "|", "x", "~", "a", "    ", "1.", "> ", "]", "[r]", "\n[r]: http://a",
                           "\ue010", "\u034f", " and ", "(", ")", "<#x y>"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=30).map("".join))
def test_every_number_the_page_shows_is_read(text):
    """Differential, against the renderer itself: each number with a unit in the text of the rendered note (code
    spans included; code blocks left out, as the check leaves them) is one the check reads (a unit it does not
    know compares with nothing)."""
    import html

    from scorecard.site.markup import markdown_block

    shown_text = re.sub("[\ue000-\ue01f]", "", text)  # as the site takes it
    page = re.sub(r"<pre[^>]*>.*?</pre>", " ", str(markdown_block(shown_text)), flags=re.S)  # code blocks: alone
    page = re.sub(r"</(?:p|pre|li|h[1-6]|blockquote|td|th)>", " ¶ ", page)  # a number and a unit in two blocks
    page = html.unescape(re.sub(r"<[^>]+>", "", page))
    shown = {(w.value, w.unit) for w in typed.written_numbers(page, plain=True) if units.parse(w.unit).known}
    read = {(w.value, w.unit) for w in typed.written_numbers(text)}
    assert shown <= read, (page, shown - read)


@pytest.mark.parametrize("text, warns", [
    ("at least 50 ms faster than the bar", ["50 ms"]),  # the value is over 50 ms; the difference is not
    ("at least 30 ms faster than the bar", []), ("38.9 ms faster than the bar", []),
    ("81 ms faster than the bar", ["81 ms"]),  # the value, said as a difference
    ("81 ms, faster than the bar", []), ("75–88 ms faster", ["75 ms", "88 ms"]),
])
def test_a_number_before_faster_or_more_is_a_difference(text, warns):
    known = [_VALUE, Known(120, "ms", "the bar"), Known(38.9, "ms", typed.DIFFERENCE)]
    assert warned(text, *known) == warns


# --- what a second hostile pass found --------------------------------------------------------------------------

_KNOWN = [_VALUE, Known(120, "ms", "the bar"), Known(78.2, "ms", "the lowest run"),
          Known(84.1, "ms", "the highest run"),
          Known(38.9, "ms", typed.DIFFERENCE), Known(32.4, "%", typed.GAP), Known(1.48, "x", typed.GAP)]


@pytest.mark.parametrize("text", [
    "Median [95][r] ms.\n\n[r]: https://example.org", "Median [95] ms.\n\n[95]: https://example.org",
    "[95](<#x y>) ms", "[95](#a(b)) ms", "[95]( #x ) ms",  # link forms
    "Median 1\ue01081.1 ms.", "Median 1\u034f81.1 ms.", "Median 1\ufe0081.1 ms.",  # invisible between digits
    "no more than 40 ms", "not less than 500 ms", "never more than 50 ms",  # negated bounds
    "p99 and median: 95 and 81.1 ms.", "between 85 and 90 ms",  # lists
    "Median 95,5 ms.", "95 RPS", "95 msecs", "95 mSec", "95 millis", "95 µsecs",  # spellings
    "Median start-up is 38.9 ms.",  # the difference said as the value
    "We are 95% faster than the bar.", "10× faster than the bar", "50% ahead of the bar",  # the gap in words
    "- 1\n\n    95 ms",  # indented under a list item: a paragraph, not code
])
def test_a_false_number_found_by_the_second_pass_warns(text):
    known = [Known(12, "req/s", "the value")] if "RPS" in text else _KNOWN
    assert warned(text, *known) != [], text


@pytest.mark.parametrize("text", [
    "Median 81.1 ms under load.", "Start-up takes 81 ms over SSH.", "Median 81.1 ms ± 1.2 ms.",
    "All runs fell between 75 and 90 ms.", "Median 81,1 ms.", "no more than 90 ms", "not less than 80 ms",
    "38.9 ms faster than the bar", "32% ahead of the bar", "1.5× faster than the bar", "4.1x faster than naive",
    "Run it:\n\n    hyperfine --runs 12 'fak --version'  # 95 ms on a laptop\n\nthen read the median.",
])
def test_honest_forms_found_by_the_second_pass_do_not_warn(text):
    assert warned(text, *_KNOWN) == [], text


def test_a_spread_beside_a_placeholder_is_not_a_claim():
    assert typed.check("${value} ± 1.2 ms", _KNOWN, {"value": "81.1 ms"}) == []


def test_many_numbers_are_read_in_near_linear_time():
    assert len(typed.written_numbers(" ".join(f"{i} ms" for i in range(20_000)))) == 20_000


@pytest.mark.parametrize("note, marked", [
    ("Median *${quote \u200b* 200} ms, measured by us.", ["* 200"]),  # its Markdown shown as typed, inside
    ('See [the paper](https://example.org "rival ${quote 95 ms}") for theirs.', []),  # in a title: no mark there
    ("```${quote 95 ms}\ncode\n```", []),  # in a fence's info string
    ("**the rival's ${quote 95 ms}** and [link ${quote 96 ms}](https://example.org)", ["95 ms", "96 ms"]),
    ("a typed \ue010 mark and ${quote 97 ms}", ["97 ms"]),
])
def test_a_quoted_number_is_marked_on_the_page_and_never_breaks_it(tmp_path, note, marked):
    from html.parser import HTMLParser

    root = copy_ledger(LEDGERS / "good" / "prose", tmp_path / "ledger")
    path = root / "claims/core/start.yaml"
    text = path.read_text()
    start = text.index("note: >-")
    path.write_text(text[:start] + "note: " + json.dumps(note) + "\n")
    assert not pipeline.build(root, tmp_path / "site").refused
    page = (tmp_path / "site/core/index.html").read_text()
    assert "\ue010" not in page and "\ue011" not in page

    class Check(HTMLParser):
        depth, quoted, bad = 0, [], []

        def handle_starttag(self, tag, attrs):
            self.bad += [v for _, v in attrs if v and "<span" in v]
            if tag == "span" and "quoted" in (dict(attrs).get("class") or "").split() or self.depth:
                self.depth += 1

        def handle_endtag(self, tag):
            if self.depth:
                self.depth -= 1

        def handle_data(self, data):
            if self.depth:
                self.quoted.append(data)

    check = Check()
    check.feed(page)
    assert check.bad == []
    assert [q for q in check.quoted if q.strip() and "quoted from elsewhere" not in q] == [
        m if m != "* 200" else "\u200b* 200" for m in marked]


# --- the rule in a ledger: what fills, what it is checked against, what it says ------------------------------

def _validated(tmp_path, base: str, files: dict[str, dict[str, str]]):
    root = copy_ledger(LEDGERS / base, tmp_path / "ledger")
    for rel, edits in files.items():
        path = root / rel
        text = path.read_text()
        for old, new in edits.items():
            assert old in text, old
            text = text.replace(old, new)
        path.write_text(text)
    result, _ = pipeline.validate(root)
    return [(f.code, f.message) for f in result.findings]


_ALPHA = "claims/core/alpha.yaml"


@pytest.mark.parametrize("bar, rps, fills", [("10", "12", True), ("20", "12", True), ("0.5", "12", True),
                                             ("0", "12", False), ("-10", "12", False), ("10", "0", False)])
def test_ratio_fills_only_between_two_positive_numbers_and_gap_always(tmp_path, bar, rps, fills):
    found = _validated(tmp_path, "base", {"evidence/run.json": {'"rps": 12': f'"rps": {rps}'}, _ALPHA: {
        "claim: 12 req/s": "claim: ${value}, ${ratio} the bar, ${gap}", "value: 10": f"value: {bar}"}})
    ratio = [m for code, m in found if code == "SC211" and "${ratio}" in m]
    assert bool(ratio) != fills, found
    assert not [m for code, m in found if code == "SC211" and "${gap}" in m], found


def test_an_x_result_may_quote_its_ratio_and_a_formula_its_inputs(tmp_path):
    rel = "claims/tool-output/peak-decode-vs-sglang.yaml"
    note = "note: fak's 1,380 tok/s against sglang's 1,840 tok/s, a ratio of 0.75x\n"
    assert _validated(tmp_path / "a", "good/measurements", {rel: {"result:": note + "result:"}}) == []
    drifted = note.replace("1,840", "1,700")
    found = _validated(tmp_path / "b", "good/measurements", {rel: {"result:": drifted + "result:"}})
    assert [m for code, m in found if code == "SC513"] == [
        "note says 1,700 tok/s; the nearest number the claim rests on, input 'sglang' is 1,840 tok/s"]


def test_a_typed_number_names_the_value_alone_when_it_is_the_nearest_and_shows_one_more_figure(tmp_path):
    run = {"evidence/run.json": {'"rps": 12': '"rps": 12.3456789'}}
    found = _validated(tmp_path, "base", {**run, _ALPHA: {"claim: 12 req/s": "claim: 12.5 req/s"}})
    assert found == [("SC513", "claim says 12.5 req/s; the artifact gives 12.35 req/s")]
    found = _validated(tmp_path / "2", "base", {**run, _ALPHA: {"claim: 12 req/s": "claim: 10.5 req/s"}})
    assert found == [("SC513", "claim says 10.5 req/s; the artifact gives 12.35 req/s (the nearest number it rests "
                               "on: the bar is 10 req/s)")]


@pytest.mark.parametrize("quoted, warns", [
    ("ours 9.95–10.05 ms, the rival's 11.95–12.1 ms", []),  # both intervals' ends: numbers the claim rests on
    ("ours 9.8–10.05 ms", ["9.8 ms"]), ("the rival's 11.95–12.2 ms", ["12.2 ms"]),
])
def test_the_interval_ends_ours_and_a_measured_bars_may_be_quoted(tmp_path, quoted, warns):
    found = _validated(tmp_path, "good/reproduced-bar", {"claims/core/alpha.yaml": {
        "claim: ahead of the rival's whole interval": f"claim: ahead of the rival's whole interval, {quoted}"}})
    assert [code for code, _ in found if code != "SC513"] == []
    assert [m.split(";")[0].removeprefix("claim says ") for code, m in found if code == "SC513"] == warns


# --- pinned by the mutation run of measure.prose and measure.typed ---------------------------------

@pytest.mark.parametrize("text, literal", [
    ("a ${value", "a ${value"),  # not closed: the rest is kept as written
    ("a ${nope} b", "a ${nope} b"),  # not a placeholder: kept as written, around it too
    ("${value 3} ms", "${value 3} ms"),
])
def test_a_placeholder_that_cannot_be_read_stays_in_the_text_as_written(text, literal):
    pieces, slips = prose.split(text)
    assert slips and "".join(p.text for p in pieces if p.name is None) == literal
    assert prose.fill(text, {"value": "9 ms"}) == text


@pytest.mark.parametrize("text", ["15 per cent of runs", "15 per cent", "a 15 per cent, then"])
def test_per_cent_is_a_percentage_wherever_it_stands(text):
    assert [(w.text, w.unit) for w in typed.written_numbers(text)] == [("15 per cent", "%")]


def test_per_a_word_that_is_no_unit_is_not_part_of_the_unit():
    assert [(w.text, w.unit) for w in typed.written_numbers("13 ms per flurb")] == [("13 ms", "ms")]
    assert [(w.text, w.unit) for w in typed.written_numbers("13 ms per request")] == [("13 ms per request",
                                                                                        "ms/request")]
    assert warned("13 ms per flurb", Known(12, "ms", "the value")) == ["13 ms"]


def test_a_ratio_result_may_type_its_ratio_to_the_bar_and_the_nearest_number_is_named():
    """Pinned by the mutation run of ledger.prose: a result in x against a bar in x may say the ratio between them
    as a plain number (1.25x), and a number nothing gives names the nearest one the claim rests on."""
    from scorecard.ledger.prose import known_numbers
    from scorecard.measure import compare
    from scorecard.measure.measured import Bar
    from scorecard.measure.reading import Measurement

    m = Measurement(2.0, "x", ())
    bar = Bar(1.6, "x", "higher", None)
    c = compare.compare(m, bar, 0.05)
    known = known_numbers(m, bar, c)
    assert typed.check("a 1.25x ratio", known) == []
    [miss] = typed.check("a 1.4x ratio", known)
    assert miss.nearest.what in ("the ratio to the bar", "the bar")


@pytest.mark.parametrize(("difference", "gives"), [
    (10, "the artifact gives 10 ms"),  # the nearest number is the value's own: said once
    (9, "the artifact gives 10 ms (the nearest number it rests on: the difference from the bar is 9 ms)"),
])
def test_a_mismatch_names_the_nearest_number_only_where_it_is_not_the_value(difference, gives):
    known = [Known(10, "ms", "the value"), Known(20, "ms", "the bar"), Known(difference, "ms", typed.DIFFERENCE)]
    assert [_gives(miss) for miss in typed.check("12 ms faster than the bar", known)] == [gives]


def test_a_closing_bracket_with_nothing_to_close_shows_and_parts_the_digits():
    """Found by the differential test above: '95]95-**ms**' shows '95]95-ms', 95 ms on the page, but the check read
    9595 ms (each ] read as a mark that shows nothing or a space): a number it did not read is a number it could not
    refuse."""
    assert [(str(w.value), w.unit) for w in typed.written_numbers("95]95-**ms**")] == [("95", "ms")]


def test_brackets_and_emphasis_are_read_apart():
    """'[95]95-**ms**' shows '[95]95-ms' (no link closes the [, the ** are emphasis): 95 ms is on the page and is
    read, beside the 9595 ms of the reading where the brackets are marks (a number the check refuses)."""
    read = [(str(w.value), w.unit) for w in typed.written_numbers("[95]95-**ms**")]
    assert ("95", "ms") in read and ("9595", "ms") in read
