"""The `scorecard review` command: stamp claims a person has checked, by a one-line edit of each record.

The stamp is the fingerprint (ledger/stamps.py) of what the claim rests on now; nothing is written when a
claim named has errors, and each file changes by its `reviewed:` line only, written atomically.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path

import yaml
from yaml._yaml import CParser

from ..core.structs import slotted
from ..ledger.records import CheckResult
from ..core.findings import UserError
from .pipeline import validate
from ..ledger.load import SETTINGS_FILE
from ..ledger.stamps import fingerprint, inputs
from ..measure.evidence import PointerError
from ..ledger.stampwords import summary
from ..core.paths import EditRefused
from ..site.write import replace_files


class StampRefused(Exception):
    """The file's shape does not allow a safe one-line edit."""


def set_stamp(text: str, stamp: str) -> str:
    """text with the top-level `reviewed:` value set to stamp; every other character is kept.

    An existing value is replaced in place (its comment and quoting style around it stay). Without
    one, a `reviewed:` line is inserted after the claim's line, at the claim key's indentation.
    """
    if "\r" in text and "\n" not in text:  # old Mac line ends: stamp as \n, then give the file its own back
        return set_stamp(text.replace("\r", "\n"), stamp).replace("\n", "\r")
    bom = "\ufeff" if text.startswith("\ufeff") else ""
    body = text[len(bom):]
    found = _top_level(body)
    if "reviewed" in found:
        start, end = found["reviewed"]
        if end - start >= 2 and body[start] in "'\"" and body[end - 1] == body[start]:
            start, end = start + 1, end - 1  # keep the quotes the user wrote
        gap = " " if start == end and start > 0 and body[start - 1] == ":" else ""  # an empty `reviewed:`
        return bom + body[:start] + gap + stamp + body[end:]
    if "claim" not in found:
        raise StampRefused("the record has no top-level claim: to put the stamp after")
    newline = "\r\n" if "\r\n" in body else "\n"
    key_col, value_end = found["@claim-key-col"][0], found["claim"][1]
    if value_end > 0 and body[value_end - 1] == "\n":  # a block scalar ends at the start of the next line
        at = value_end
        head = ""
    else:
        eol = body.find("\n", value_end)
        at = len(body) if eol < 0 else eol + 1
        head = newline if eol < 0 else ""
    return bom + body[:at] + head + " " * key_col + f"reviewed: {stamp}" + newline + body[at:]


def stamp_record(text: str, stamp: str) -> str:
    """set_stamp, kept only if the result still parses to the record's data plus the stamp (StampRefused else):
    an edit that changed another value, or wrote YAML that does not parse, is never written."""
    new = set_stamp(text, stamp)
    try:
        before, after = (yaml.load(t.lstrip("\ufeff"), Loader=_LOADER) for t in (text, new))  # noqa: S506 - safe
    except yaml.YAMLError as exc:
        raise StampRefused(f"the stamped file would not parse ({getattr(exc, 'problem', exc)})") from None
    if not isinstance(before, dict) or not isinstance(after, dict) or after != {**before, "reviewed": stamp}:
        raise StampRefused("the one-line edit would change more than the stamp (an unusual layout)")
    return new


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _top_level(text: str) -> dict[str, tuple[int, int]]:
    """Character spans of the top-level scalar values of interest, from libyaml's events."""
    parser = CParser(text)
    spans = _Spans()
    try:
        while True:
            event = parser.get_event()
            if type(event) is yaml.StreamEndEvent:
                break
            spans.feed(event)
    except yaml.YAMLError as exc:
        raise StampRefused(f"the file is not valid YAML: {exc}") from None
    finally:
        parser.dispose()
    return spans.found


class _Spans:
    """Where the top-level `claim:` and `reviewed:` values are, event by event."""

    def __init__(self) -> None:
        self.found: dict[str, tuple[int, int]] = {}
        self.depth = 0
        self.key: str | None = None
        self.expect_key = False

    def feed(self, event) -> None:
        kind = type(event)
        if kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            self._open(event)
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            self.depth -= 1
            self.expect_key = self.expect_key or self.depth == 1
        elif self.depth == 1:
            self._top(event)

    def _open(self, event) -> None:
        if self.depth == 0:
            if type(event) is not yaml.MappingStartEvent or event.flow_style:
                raise StampRefused("the record is not a block mapping of `key: value` lines")
            self.expect_key = True
        elif self.depth == 1 and self.key == "reviewed":
            raise StampRefused("reviewed: holds something other than a stamp")
        self.depth += 1

    def _top(self, event) -> None:
        """An event directly in the top-level mapping: a key, or the scalar (or alias) value of one."""
        scalar = type(event) is yaml.ScalarEvent
        if scalar and self.expect_key:
            self.key = event.value
            if self.key == "claim":
                self.found["@claim-key-col"] = (event.start_mark.column, 0)
            self.expect_key = False
            return
        if scalar and self.key in ("reviewed", "claim"):
            self.found[self.key] = (event.start_mark.index, event.end_mark.index)
        elif self.key == "reviewed":  # an alias
            raise StampRefused("reviewed: holds something other than a stamp")
        self.expect_key = True


@slotted
class Stamped:
    """One dimension `scorecard review` stamped (or would stamp, with --dry-run)."""

    id: str
    file: str
    old: str | None
    new: str
    covered: list[str]  # what the stamp covers, one phrase each
    changes: list[str] | None  # what changed since the old stamp, when git knows


@slotted
class ReviewOutcome:
    """What `scorecard review` did: stamped, already current, or refused with the findings why."""

    checked: CheckResult
    stamped: list[Stamped] = field(default_factory=list)
    current: list[str] = field(default_factory=list)
    blocking: list = field(default_factory=list)  # error findings that refused the review
    refusal: str = ""  # a reason other than findings (a file shape the edit cannot handle)


class UnknownDimension(UserError):
    """An id given to `scorecard review` that names no dimension file."""


def review(root: Path, ids: list[str], every: bool, dry_run: bool = False) -> ReviewOutcome:
    """Stamp the dimensions named (or every one) with the fingerprint of what they rest on now.

    Nothing is written when any of them has errors (or when the ledger's settings do): a stamp
    says a human checked a claim that holds, and a claim with errors does not. Each file changes
    by its `reviewed:` line only, written atomically.
    """
    result, store = validate(root)
    files = {p.stem: p.relative_to(root).as_posix() for p in sorted((root / "claims").glob("*/*.yaml"))
             if p.name != "_category.yaml"}
    unknown = [i for i in ids if i not in files]
    if unknown:
        raise UnknownDimension(f"no dimension named {', '.join(unknown)} "
                               "(ids are the file names in claims/<category>/)")
    wanted = sorted(files) if every else list(dict.fromkeys(ids))
    wanted_files = {files[i] for i in wanted} | {SETTINGS_FILE}
    outcome = ReviewOutcome(result)
    outcome.blocking = [f for f in result.findings if f.severity == "error" and f.file in wanted_files]
    if outcome.blocking:
        return outcome
    originals: dict[Path, bytes] = {}
    try:
        edits = _stamps(root, result, store, [files[i] for i in wanted], outcome, originals)
    except _Refusal as exc:
        outcome.refusal = str(exc)
        return outcome
    if not dry_run:
        try:
            replace_files(edits, root, originals=originals)
        except EditRefused as exc:
            outcome.stamped = []
            outcome.refusal = str(exc)
        except OSError as exc:
            outcome.stamped = []
            outcome.refusal = f"cannot write {exc.filename or 'a stamped file'}: {exc.strerror}"
    return outcome


class _Refusal(Exception):
    """Why the review writes nothing (a file shape the edit cannot handle, an unreadable value)."""


def _stamps(root: Path, result: CheckResult, store, wanted: list[str], outcome: ReviewOutcome,
            originals: dict[Path, bytes]) -> dict[Path, bytes]:
    """The new content of each record file (by path) whose stamp changes (originals: the bytes each was read
    with); the others are noted current."""
    records = {d.file: d for d in result.ledger.dimensions()}
    missing = [file for file in wanted if file not in records]
    if missing:  # e.g. an id used twice, or a category without _category.yaml
        raise _Refusal(f"{missing[0]}: the record is not part of the checked ledger (see validate)")
    edits: dict[Path, bytes] = {}
    for rec in (records[file] for file in wanted):
        # What the review rule covered, when the record is stamped; else computed now.
        try:
            covered = rec.review.covered if rec.review is not None else \
                inputs(rec.model, store.get, result.ledger.settings.parity_tolerance)
        except PointerError as exc:  # a query stopped by its budget: nothing to stamp
            raise _Refusal(f"{rec.file}: {exc.message}") from None
        if covered is None:  # cannot happen without an error finding; refuse rather than stamp a guess
            raise _Refusal(f"{rec.file}: a value the claim cites cannot be read")
        stamp = fingerprint(covered)
        if rec.model.reviewed == stamp:
            outcome.current.append(rec.id)
            continue
        path = root / rec.file
        raw = path.read_bytes()
        try:
            text = stamp_record(raw.decode("utf-8"), stamp)
        except (StampRefused, UnicodeDecodeError) as exc:
            raise _Refusal(f"{rec.file}: {exc}; add `reviewed: {stamp}` by hand") from None
        edits[path] = text.encode("utf-8")
        originals[path] = raw
        outcome.stamped.append(Stamped(rec.id, rec.file, rec.model.reviewed, stamp, summary(covered),
                                       list(rec.review.changes) if rec.review and rec.review.changes else None))
    return edits


def dimension_id(root: Path, given: str) -> str:
    """An id as given, or the id of a dimension file named by its path (from here)."""
    if not given.endswith(".yaml"):
        return given
    path = Path(given).resolve()
    try:
        category, name = path.relative_to(root / "claims").parts
    except ValueError:
        raise UserError(f"{given} is not a dimension file of this ledger "
                               "(claims/<category>/<id>.yaml)") from None
    return Path(name).stem
