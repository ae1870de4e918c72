"""An existing file is edited only where it means to be (issue 40 items 3 and 9).

The promises: `review` writes a record only if the file is a regular file reached through no symlink,
unchanged since it was read, and the edit still parses to the record's data plus the stamp; nothing else
of the file changes, whatever the YAML's layout.
"""

from __future__ import annotations

import os

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from scorecard.cli import review
from scorecard.cli.review import StampRefused, stamp_record
from scorecard.core.paths import EditRefused
from scorecard.site.write import replace_files

STAMP = "fp1-0123456789abcdef"


def test_a_record_reached_through_a_symlink_is_not_edited(base_ledger):
    real = base_ledger / "docs/alpha-real.yaml"
    real.write_bytes((base_ledger / "claims/core/alpha.yaml").read_bytes())
    (base_ledger / "claims/core/alpha.yaml").unlink()
    (base_ledger / "claims/core/alpha.yaml").symlink_to("../../docs/alpha-real.yaml")
    before = real.read_bytes()
    outcome = review.review(base_ledger, ["alpha"], every=False)
    assert "reached through a symlink (claims/core/alpha.yaml)" in outcome.refusal and not outcome.stamped
    assert (base_ledger / "claims/core/alpha.yaml").is_symlink() and real.read_bytes() == before


def test_a_category_folder_that_is_a_link_is_not_written_through(base_ledger):
    (base_ledger / "claims/core").rename(base_ledger / "docs/core")
    (base_ledger / "claims/core").symlink_to("../docs/core")
    before = (base_ledger / "docs/core/alpha.yaml").read_bytes()
    outcome = review.review(base_ledger, ["alpha"], every=False)
    assert "reached through a symlink (claims/core)" in outcome.refusal
    assert (base_ledger / "docs/core/alpha.yaml").read_bytes() == before


def test_a_file_changed_since_it_was_read_is_not_replaced(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_bytes(b"claim: x\n")
    with pytest.raises(EditRefused, match="changed since it was read"):
        replace_files({path: b"claim: x\nreviewed: fp1\n"}, tmp_path, originals={path: b"claim: y\n"})
    assert path.read_bytes() == b"claim: x\n"
    with pytest.raises(EditRefused, match="changed since it was read"):  # one byte more at the end is a change
        replace_files({path: b"claim: x\nreviewed: fp1\n"}, tmp_path, originals={path: b"claim: x"})
    replace_files({path: b"claim: x\nreviewed: fp1\n"}, tmp_path, originals={path: b"claim: x\n"})
    assert path.read_bytes() == b"claim: x\nreviewed: fp1\n"


def test_a_fifo_is_not_a_file_to_edit(tmp_path):
    fifo = tmp_path / "f.yaml"
    os.mkfifo(fifo)
    with pytest.raises(EditRefused, match="not a regular file"):
        replace_files({fifo: b"x"}, tmp_path, originals={fifo: b""})


def test_an_empty_reviewed_gets_its_space():
    text = "claim: x\nreviewed:\ntitle: t\n"
    assert stamp_record(text, STAMP) == f"claim: x\nreviewed: {STAMP}\ntitle: t\n"
    text = "claim: x\nreviewed:   # to be stamped\n"
    assert yaml.safe_load(stamp_record(text, STAMP))["reviewed"] == STAMP


def test_explicit_keys_are_stamped_right_or_refused():
    text = "? claim\n: 12 req/s\n? title\n: T\n"
    try:
        new = stamp_record(text, STAMP)
    except StampRefused:
        return
    assert yaml.safe_load(new) == {"claim": "12 req/s", "title": "T", "reviewed": STAMP}


# --- the property: for any layout, the stamped file is the record plus the stamp, or nothing is written -----

KEYS = st.sampled_from(["title", "why", "status", "note", "order"])
PLAIN = st.text(alphabet="abc xyz019.-", min_size=1, max_size=12).filter(lambda t: t.strip() == t and t)


FORMS = ["plain", "single", "double", "literal", "folded", "flow-list", "multiline"]


def claim_value(text: str, form: str) -> str:
    return {"plain": f" {text!s}", "single": f" '{text}'", "double": f' "{text}"',
            "literal": f" |\n  {text}\n  {text}", "folded": f" >\n  {text}\n  more",
            "flow-list": f" [{text}]", "multiline": f" {text}\n  continued"}[form]


@st.composite
def records(draw):
    lines = []
    keys = draw(st.lists(KEYS, unique=True, max_size=4))
    at = draw(st.integers(0, len(keys)))
    form = draw(st.sampled_from(FORMS))
    claim = "claim:" + claim_value(draw(PLAIN), form)
    for i, key in enumerate(keys):
        if i == at:
            lines.append(claim)
        lines.append(f"{key}: {draw(PLAIN)}" + draw(st.sampled_from(["", "  # note"])))
    if at == len(keys):
        lines.append(claim)
    stamp_form = draw(st.sampled_from([None, "reviewed:", "reviewed: fp1-old", "reviewed: 'fp1-old'",
                                       "reviewed:  # later", "reviewed: ~", "reviewed: [a]"]))
    if stamp_form is not None:
        lines.insert(draw(st.integers(0, len(lines))), stamp_form)
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    end = draw(st.sampled_from(["", newline]))
    text = newline.join(lines) + end
    # A block scalar ending the file without a line break would gain one (its value would change): refused.
    may_refuse = stamp_form == "reviewed: [a]" or form == "flow-list" or (  # a list claim: not a record
        form in ("literal", "folded") and not end and lines[-1] == claim and stamp_form is None)
    return draw(st.sampled_from(["", "\ufeff"])) + text, may_refuse


@given(records())
def test_a_stamp_keeps_the_record_and_adds_only_itself(case):
    text, may_refuse = case
    try:
        before = yaml.safe_load(text.lstrip("\ufeff"))
    except yaml.YAMLError:
        return
    try:
        new = stamp_record(text, STAMP)
    except StampRefused:
        assert may_refuse, text  # only a non-stamp, or a layout the one-line edit would change, is refused
        return
    assert yaml.safe_load(new.lstrip("\ufeff")) == {**before, "reviewed": STAMP}
    assert new.startswith("\ufeff") == text.startswith("\ufeff")
    assert ("\r\n" in new) == ("\r\n" in text)  # the file's line ends kept
