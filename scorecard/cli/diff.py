"""`scorecard diff`: what a change does to the ledger, in a reviewer's words.

Each side is a revision of the git repository holding the ledger (or the working tree). A
revision's ledger is written out from its committed blobs' exact bytes, read by object id (no
attributes, filters, textconv or export rules apply, and no program from any git config runs),
and checked by the same pipeline as `validate`, so values that change only through an evidence
file are seen too.
"""

from __future__ import annotations

import posixpath
import tempfile
from pathlib import Path

from ..core.structs import slotted
from ..core.findings import UserError
from ..core import git
from .gittree import Tree
from ..ledger.records import CheckResult, DimensionRecord
from .pipeline import validate
from ..measure import reading as measure
from ..history import wording
from ..ledger.prose import rendered
from ..core.statuses import value_word
from ..ledger.load import SETTINGS_FILE
from ..measure.numfmt import fmt_value
from .diffout import CRAFTED, Change, as_json, as_markdown, as_text
from ..ledger import conditioned
from ..measure import compare as comparing
from ..measure.compare import in_unit

# as_text, as_markdown and as_json (diffout.py) are this module's outputs, read as diff.as_markdown ...
__all__ = ["CRAFTED", "Change", "as_json", "as_markdown", "as_text", "changes_between", "merge_base", "run"]


class DiffError(UserError):
    """Not a git repository, an unknown revision, or git itself failing."""


def _git(args: list[str], cwd: Path) -> bytes:
    try:
        return git.run(args, cwd)
    except git.GitError as exc:
        raise DiffError(str(exc)) from None


def _work_tree_prefix(root: Path) -> tuple[Path, str]:
    """(top of the git work tree, the ledger root relative to it with a trailing / or '')."""
    try:
        return git.repo_prefix(root)
    except git.GitError as exc:
        raise DiffError(f"{exc}; scorecard diff compares git revisions") from None


def _checkout(top: Path, prefix: str, rev: str, dest: Path) -> tuple[Path, list[tuple[str, str]]]:
    """The ledger as it was at rev, written into dest from the committed blobs' exact bytes; and the crafted tree
    entries left out, each (path, why).

    Read by object id (`git ls-tree`, `git cat-file --batch`), never through `git archive` or a
    checkout: those apply the revision's own .gitattributes (export-ignore, export-subst) and run
    the filters its config names, so a pull request could hide a file from the diff or run a program.
    Only the files the ledger reads are written (scorecard.yaml, claims/, evidence/, and every file a
    record names), each a regular file created here (never through a link): a committed symlink is
    resolved inside the tree, component by component as the system would, and its target's bytes are
    written in its place; one that leaves the ledger or loops is left out. A file over the artifact cap
    is written as an empty file of its size (sparse, not read), so the check refuses it as validate does.
    """
    try:
        commit = _git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], top).decode().strip()
    except DiffError:
        raise DiffError(f"unknown revision '{rev}'") from None
    listing = _git(["ls-tree", "-r", "-t", "-l", "-z", "--full-tree", commit, "--", prefix or "."], top)
    tree = Tree.parse(listing, prefix)
    with git.BlobReader(top) as blobs:
        tree.blobs = blobs
        wanted = [p for p in tree.entries if p == SETTINGS_FILE or p.startswith(("claims/", "evidence/"))]
        written = {p for p in wanted if tree.materialise(p, dest)}
        for rel in sorted(written):  # every file a record or the settings name, and asv's benchmarks.json beside
            if rel.endswith((".yaml", ".yml")):
                for named in tree.named_in(dest / rel):
                    tree.materialise(named, dest)
        for rel in sorted(tree.written):
            up = posixpath.join(posixpath.dirname(posixpath.dirname(rel)), "benchmarks.json")
            if rel.endswith(".json") and up in tree.entries:
                tree.materialise(up, dest)
    if not (dest / SETTINGS_FILE).is_file():
        raise DiffError(f"revision '{rev}' has no ledger at {prefix or 'the repository root'}")
    return dest, tree.crafted


@slotted
class Side:
    """One side of the comparison: its check result and the measured value of each dimension."""

    label: str
    result: CheckResult
    dims: dict[str, DimensionRecord]
    values: dict[str, measure.Measurement | None]
    errors: dict[str, list[str]]
    unlike: dict[str, list[str]]  # a measured dimension's listed conditions that differ (conditions_must_match)


def _side(label: str, root: Path) -> Side:
    result, store = validate(root)
    dims = {d.id: d for d in result.ledger.dimensions()}
    values = {i: measure.read(d.model.result, store.get).measurement if d.model.result else None
              for i, d in dims.items()}
    errors: dict[str, list[str]] = {}
    for f in result.findings:
        if f.severity == "error":
            errors.setdefault(f.file, []).append(f"{f.code} {f.message}")
    settings = result.ledger.settings
    unlike = {i: [d.key for d in conditioned.unlike(dims[i], m, dims[i].bar_of, settings, store)]
              for i, m in values.items() if m is not None}
    return Side(label, result, dims, values, errors, unlike)


def changes_between(old: Side, new: Side) -> list[Change]:
    """The changes from old to new, one per dimension that changed, sorted by id."""
    changes = []
    for dim_id in sorted(old.dims.keys() | new.dims.keys()):
        a, b = old.dims.get(dim_id), new.dims.get(dim_id)
        if a is None:
            assert b is not None
            changes.append(Change(dim_id, b.file, "added", _added(new, b)))
        elif b is None and (why := _errors_over(new, a.file)):  # still there, but no longer a valid record
            changes.append(Change(dim_id, a.file, "invalid", [f"now invalid: {e}" for e in why]))
        elif b is None:
            changes.append(Change(dim_id, a.file, "removed", [f"was {a.model.status}: {a.model.claim}"]))
        else:
            lines = _changed(old, new, a, b)
            if lines:
                changes.append(Change(dim_id, b.file, "changed", lines))
    sa, sb = old.result.ledger.settings, new.result.ledger.settings
    said = [f"parity_tolerance: {sa.parity_tolerance:g} → {sb.parity_tolerance:g}"] \
        if sa.parity_tolerance != sb.parity_tolerance else []
    said += [f"{key}: {_listed(getattr(sa, key))} → {_listed(getattr(sb, key))}"
             for key in ("conditions_must_match", "condition_equivalents") if getattr(sa, key) != getattr(sb, key)]
    if said:
        changes.append(Change(SETTINGS_FILE, SETTINGS_FILE, "changed", [
            f"typed choice changed: {line} (every verdict it flips is listed with its dimension)" for line in said]))
    for file in sorted(new.errors.keys() - {c.file for c in changes} - {d.file for d in new.dims.values()}):
        if file not in old.errors:
            changes.append(Change(Path(file).stem, file, "invalid", [f"now invalid: {e}" for e in new.errors[file]]))
    return changes


def _listed(value: list) -> str:
    return "[" + ", ".join(_listed(v) if isinstance(v, list) else str(v) for v in value) + "]"


def _errors_over(side: Side, file: str) -> list[str]:
    """The errors that keep a record out of a side: its own, or its category folder's (a _category.yaml deleted),
    so it reads as invalid, never as removed."""
    found = list(side.errors.get(file, []))
    for where, errors in sorted(side.errors.items()):
        if where != file and file.startswith(where.rstrip("/") + "/"):
            found += errors
    return found


def _added(new: Side, b: DimensionRecord) -> list[str]:
    added = new.values.get(b.id)
    lines = [f"status {b.model.status}: {rendered(b.model.claim, added, b.bar_of, b.model.share)}"]
    if added is not None:
        lines.append(f"{value_word(b.model.status)} {fmt_value(added.value, added.unit)}")
    return lines + _invalid(new, b, None)


def _changed(old: Side, new: Side, a: DimensionRecord, b: DimensionRecord) -> list[str]:
    """What changed in a dimension both sides have, one line each (none when nothing did)."""
    ma, mb = a.model, b.model
    lines = []
    if a.category != b.category:
        lines.append(wording.moved(a.category, b.category))
    if ma.status != mb.status:
        lines.append(wording.status_changed(ma.status, mb.status))
    va, vb = old.values.get(a.id), new.values.get(b.id)
    value = wording.value_changed(ma.status, None if va is None else (va.value, va.unit), mb.status,
                                  None if vb is None else (vb.value, vb.unit), mb.sota.better)
    if value is not None:
        only_evidence = va is not None and vb is not None and a.doc.digest == b.doc.digest
        lines.append(value + (" (from the evidence file only)" if only_evidence else "")
                     + _noise_and_context(va, vb, ma.status, b))
    elif va is not None and vb is not None and va.value != vb.value and va.has_interval != vb.has_interval:
        lines.append(f"measured value {va.value!r} → {vb.value!r} {vb.unit} (the same at the precision shown), and "
                     f"its interval {'now exists' if vb.has_interval else 'no longer exists'}")
    said_a, said_b = rendered(ma.claim, va, a.bar_of, ma.share), rendered(mb.claim, vb, b.bar_of, mb.share)
    if ma.claim != mb.claim and said_a != said_b:  # as a reader sees it: placeholders filled
        lines.append(f"claim “{said_a}” → “{said_b}”")
    lines += _sota(a, b)
    lines += _typed_choices(old, new, a, b)
    other = [k for k in ("title", "why", "leaders", "note", "trace", "order") if getattr(ma, k) != getattr(mb, k)]
    if other:
        lines.append("also changed: " + ", ".join(other))
    return lines + _review(a, b) + _invalid(new, b, a, old)


def _noise_and_context(va: measure.Measurement | None, vb: measure.Measurement | None, old_status: str,
                       b: DimensionRecord) -> str:
    """Whether a changed value moved beyond its runs' noise, and where it stands: '; within the runs' noise
    (intervals overlap); still trails; bar 0.5 ms'."""
    parts = []
    if va is not None and vb is not None and None not in (va.low, va.high, vb.low, vb.high):
        low, high = in_unit(vb.low, vb.unit, va.unit), in_unit(vb.high, vb.unit, va.unit)  # type: ignore[arg-type]
        if low is not None and high is not None and va.low is not None and va.high is not None:
            apart = high < va.low or va.high < low
            parts.append("the intervals do not overlap" if apart else "within the runs' noise (the intervals overlap)")
    if vb is not None and old_status == b.model.status:
        parts.append(f"still {b.model.status}")
    bar = b.bar_of
    if vb is not None and bar.value is not None:
        parts.append(f"bar {fmt_value(bar.value, bar.unit)}")
    return "; " + "; ".join(parts) if parts else ""


def _sota(a: DimensionRecord, b: DimensionRecord) -> list[str]:
    """What changed in the bar: its number (typed, or read again from sota.result: a re-run of the rival), its
    kind, its words and its source."""
    sa, sb = a.model.sota, b.model.sota
    lines = []
    bar_a, bar_b = a.bar_of, b.bar_of
    bar = wording.bar_changed((bar_a.value, bar_a.unit), (bar_b.value, bar_b.unit))
    if bar is not None:
        lines.append(bar + (" (read from sota.result)" if sb.result is not None else ""))
    if sa.source_kind != sb.source_kind:
        lines.append(f"SOTA bar's kind {sa.source_kind} → {sb.source_kind}")
    if sa.bar != sb.bar:
        lines.append("SOTA bar reworded")
    if sa.source != sb.source or sa.date != sb.date:
        lines.append(f"SOTA source {sa.source} ({sa.date}) → {sb.source} ({sb.date})")
    return lines


def typed_choices(dim) -> dict[str, str]:
    """Every choice typed into a record that can change its verdict: units, selections, statistics, the formula,
    better, and the bar's statistic (parity_tolerance is the ledger's, in scorecard.yaml)."""
    out = {"sota.better": dim.sota.better or "", "sota.stat": dim.sota.stat or ""}
    result = dim.result
    if result is not None:
        out.update(measure.described(result))
        for rel, kind, selector in measure.selections(result):
            out[f"selection {rel}#{kind}"] = selector
    if dim.sota.result is not None:  # a bar read from an artifact: its selection, unit and statistic are typed too
        out.update({f"sota.{key}": value for key, value in measure.described(dim.sota.result).items()})
        for rel, kind, selector in measure.selections(dim.sota.result):
            out[f"sota selection {rel}#{kind}"] = selector
    out.update({f"sota.conditions.{key}": str(value) for key, value in (dim.sota.conditions or {}).items()})
    out["conditions_must_match"] = ", ".join(sorted(set(dim.conditions_must_match)))
    return {k: v for k, v in out.items() if v}


def _typed_choices(old: Side, new: Side, a: DimensionRecord, b: DimensionRecord) -> list[str]:
    """Each typed choice that changed, and the verdict it flips (where the bar and the value can be compared)."""
    ca, cb = typed_choices(a.model), typed_choices(b.model)
    if a.model.result is None or b.model.result is None:  # a result that came or went: the status line says it
        ca, cb = ({k: v for k, v in c.items() if k.startswith("sota.")} for c in (ca, cb))
    tol_a, tol_b = old.result.ledger.settings.parity_tolerance, new.result.ledger.settings.parity_tolerance
    lines = [f"typed choice changed: {key}: {ca.get(key, '(none)')} → {cb.get(key, '(none)')}"
             for key in sorted(ca.keys() | cb.keys()) if ca.get(key) != cb.get(key)]
    if not lines and tol_a == tol_b and old.unlike.get(a.id) == new.unlike.get(b.id):
        return []
    before, after = _verdict(old, a, tol_a), _verdict(new, b, tol_b)
    if before is not None and after is not None and before != after:
        why = "" if lines else f" (parity_tolerance {tol_a:g} → {tol_b:g})" if tol_a != tol_b else \
            " (conditions_must_match)"
        lines.append(f"verdict flips: {before} → {after} against the bar{why}")
    return lines


def _verdict(side: Side, d: DimensionRecord, tolerance: float) -> str | None:
    """Where the measured value stands against the bar (ahead, level, behind), or None when it cannot be said."""
    m = side.values.get(d.id)
    if m is None or d.bar_of.value is None or d.model.status == "simulated":  # a modelled number has no verdict
        return None
    if side.unlike.get(d.id):
        return f"not placed (measured on other conditions: {', '.join(side.unlike[d.id])})"
    c = comparing.compare(m, d.bar_of, tolerance, d.model.share)
    return None if c is None or c.not_finite() else c.standing


def _review(a: DimensionRecord, b: DimensionRecord) -> list[str]:
    """What a reviewer should know of the review stamps: one recorded, dropped, or a claim turned suspect."""
    if a.model.reviewed != b.model.reviewed:
        if b.model.reviewed is None:
            return ["review stamp removed"]
        if b.review is not None and b.review.state == "current":
            return ["reviewed: a person checked the claim against what it rests on now"]
        return ["review stamp changed, but it does not match what the claim rests on (suspect)"]
    if a.review is not None and b.review is not None and (a.review.state, b.review.state) == ("current", "suspect"):
        what = f": {'; '.join(b.review.changes)}" if b.review.changes else ""
        return [f"now suspect: what it rests on changed since its review{what}"]
    return []


def _invalid(new: Side, b: DimensionRecord, a: DimensionRecord | None, old: Side | None = None) -> list[str]:
    now = new.errors.get(b.file, [])
    before = set(old.errors.get(a.file, [])) if (old and a) else set()
    return [f"now invalid: {e}" for e in now if e not in before]


def merge_base(top: Path, rev: str, rev2: str) -> str:
    """The commit where rev2 branched from rev (git merge-base), as a full id."""
    try:
        return _git(["merge-base", rev, rev2], top).decode().strip()
    except DiffError as exc:
        raise DiffError(f"no merge base of '{rev}' and '{rev2}' ({exc}); with a shallow clone, fetch more "
                        "history (actions/checkout: fetch-depth: 0)") from None


def run(root: Path, rev: str, rev2: str | None, from_merge_base: bool = False) -> tuple[str, str, list[Change]]:
    """Compare the ledger at rev with rev2 (or the working tree).

    With from_merge_base (or rev written as A...B, as git does), the old side is where rev2
    (HEAD for the working tree) branched from rev: a pull request is compared with the commit it
    started from, not with whatever has landed on the base branch since.
    """
    top, prefix = _work_tree_prefix(root)
    if "..." in rev and rev2 is None:
        rev, _, after = rev.partition("...")
        rev2, from_merge_base = after or None, True
    label = _named(rev)
    if from_merge_base:
        base = merge_base(top, rev, rev2 or "HEAD")
        other = _named(rev2) if rev2 not in (None, "HEAD") else "this branch"
        rev, label = base, f"merge base of {label} and {other} ({base[:7]})"
    with tempfile.TemporaryDirectory(prefix="scorecard-diff-") as tmp:
        old_root, crafted = _checkout(top, prefix, rev, Path(tmp) / "old")
        old = _side(label, old_root)
        if rev2 is None:
            new = _side("working tree", root)
        else:
            new_root, crafted_new = _checkout(top, prefix, rev2, Path(tmp) / "new")
            new = _side(_named(rev2), new_root)
            crafted = sorted(set(crafted) | set(crafted_new))
        # A crafted tree entry is shown first: the reviewer sees it before the changes it may hide.
        top_lines = [Change(path, path, CRAFTED, [f"crafted tree: {path}: {why}; left out of the comparison"])
                     for path, why in crafted]
        left_out = {path for path, _ in crafted}
        changes = changes_between(old, new)
        for c in changes:  # a record left out for its crafted entry was not removed by the change
            if c.kind in ("removed", "added") and c.file in left_out:
                c.kind, c.lines = "left out", [f"its entry is crafted ({c.file}); not compared"]
        return old.label, new.label, top_lines + changes




def _named(rev: str | None) -> str:
    """A revision as a reader wants it: the name given, or a commit id shortened to 7 characters."""
    if rev is None:
        return "the working tree"
    return rev[:7] if len(rev) >= 12 and all(c in "0123456789abcdef" for c in rev.lower()) else rev
