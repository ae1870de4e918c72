"""Load stage: strict YAML with marks, scalar resolution, hostile input."""

from __future__ import annotations

from scorecard.ledger.yamldoc import Document, parse_bytes


def parse(text: str | bytes):
    doc = Document("x.yaml")
    findings = []
    parse_bytes(text.encode() if isinstance(text, str) else text, doc, findings)
    return doc, findings


def test_dates_stay_text_and_numbers_are_numbers():
    doc, findings = parse("a: 2024-01-15\nb: 2024-01\nc: 1e3\nd: 0x10\ne: 12\nf: ~\ng: true\nh: 1.5\ni: '7'\n")
    assert findings == []
    assert doc.data == {"a": "2024-01-15", "b": "2024-01", "c": 1000.0, "d": 16, "e": 12, "f": None,
                        "g": True, "h": 1.5, "i": "7"}
    assert type(doc.data["c"]) is float


def test_yaml11_booleans_are_text_with_a_warning():
    doc, findings = parse("a: yes\nb: Off\nc: 'no'\n")
    assert doc.data == {"a": "yes", "b": "Off", "c": "no"}
    assert [(f.code, f.line, f.col, f.severity) for f in findings] == [("SC111", 1, 4, "warning"),
                                                                      ("SC111", 2, 4, "warning")]


def test_marks_are_one_based_for_keys_and_values():
    doc, _ = parse("title: t\nsota:\n  bar: b\nlist:\n  - one\n  - two\n")
    assert doc.marks[("title",)] == (1, 8)
    assert doc.key_marks[("sota", "bar")] == (3, 3)
    assert doc.marks[("list", 1)] == (6, 5)
    assert doc.pos(("sota", "missing")) == (3, 3)  # falls back to the nearest parent value (the mapping)


def test_duplicate_key_points_at_the_second():
    _, findings = parse("a: 1\nb: 2\na: 3\n")
    assert [(f.code, f.line, f.col) for f in findings] == [("SC102", 3, 1)]
    assert "first at line 1" in findings[0].message


def test_alias_bomb_is_refused_without_expansion():
    levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, cur in zip("abcdefgh", "bcdefghi", strict=True):
        levels.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    text = "\n".join(levels) + "\n"
    assert len(text) < 600
    doc, findings = parse(text)
    assert {f.code for f in findings} == {"SC103"}
    # Nothing was expanded: each alias became a single null.
    assert doc.data["i"] == [None] * 9


def test_recursive_alias_does_not_loop():
    doc, findings = parse("a: &a [1, *a]\n")
    assert [f.code for f in findings] == ["SC103"]
    assert doc.data == {"a": [1, None]}


def test_deep_nesting_is_bounded():
    for depth in (40, 5000):  # ours, then libyaml's own limit
        doc, findings = parse("a: " + "[" * depth + "]" * depth + "\n")
        assert [f.code for f in findings] == ["SC109"]
        assert doc.data is None


def test_bom_is_tolerated_and_bad_utf8_is_located():
    doc, findings = parse(b"\xef\xbb\xbftitle: ok\n")
    assert findings == [] and doc.data == {"title": "ok"}
    _, findings = parse(b"title: ok\nwhy: caf\xe9\n")
    assert [(f.code, f.line, f.col) for f in findings] == [("SC107", 2, 9)]


def test_syntax_error_reports_the_parser_line_and_tabs_get_their_own_message():
    _, findings = parse("a: [1, 2\nb: 3\n")
    assert findings[0].code == "SC101" and findings[0].line == 2
    _, findings = parse("a:\n\tb: 1\n")
    assert findings[0].code == "SC101" and "tab" in findings[0].message and findings[0].line == 2


def test_top_level_shapes():
    assert [f.code for f in parse("- a\n")[1]] == ["SC105"]
    assert [f.code for f in parse("# only a comment\n")[1]] == ["SC106"]
    assert [f.code for f in parse("")[1]] == ["SC106"]
    assert [f.code for f in parse("a: 1\n---\nb: 2\n")[1]] == ["SC104"]
    assert [f.code for f in parse("a: !!binary aGVsbG8=\n")[1]] == ["SC110"]
    assert [f.code for f in parse("? [a]\n: b\n")[1]] == ["SC112"]


def test_explicit_str_tag_and_quotes_force_text():
    doc, findings = parse("a: !!str 12\nb: \"1e3\"\nc: |\n  block\n")
    assert findings == [] and doc.data == {"a": "12", "b": "1e3", "c": "block\n"}
