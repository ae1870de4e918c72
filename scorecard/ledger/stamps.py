"""Reviewed stamps: a fingerprint of what a claim rests on, and what changed since one was written.

The fingerprint covers the dimension's status and claim text, the resolved result value and
its unit, and every value a `file.json#/pointer` trace cites — nothing else of the artifact
files, so regenerating an artifact with the same cited numbers keeps the review valid.
When a stamp no longer matches, git is asked for the version of the ledger in which the stamp
was written, so the finding can name what changed (`evidence/x.json#/p50_ms: 33 → 35.5`).

Lazy imports: core.git and ledger.versions, when a suspect claim is explained (validate of a ledger with no
suspect never runs git); hashlib, for a stamp's fingerprint (a ledger without reviews never computes one).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from ..measure import reading as measure
from ..measure.evidence import Artifact, PointerError
from ..measure.toolread import cited_value
from .model import Dimension
from ..core.statuses import MEASURED
from ..core.paths import PathProblem, is_url, normalise
from .stampwords import describe

if TYPE_CHECKING:
    from ..core import git
    from ..core.place import LedgerPlace
    from .records import CheckResult, DimensionRecord

PREFIX = "fp2-"
# What an fp2- stamp covers beyond an fp1- one: the comparison itself (issue 41). A reviewed lead stayed current
# when the typed bar moved from 900 to 700 ms, or `better` flipped. An fp1- stamp is checked without these keys,
# so it stays valid until a field it covered changes.
VERDICT = "verdict."  # the prefix of those keys
DEFAULT_TOLERANCE = 0.05


def _numbers(value: object, convert: Callable[[float], object]) -> object:
    """A JSON value with convert applied to every number in it (booleans are not numbers)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return convert(value)
    if isinstance(value, list):
        return [_numbers(v, convert) for v in value]
    if isinstance(value, dict):
        return {k: _numbers(v, convert) for k, v in value.items()}
    return value


def _norm(value: object) -> object:
    """JSON values with every number as a float, so 33 and 33.0 fingerprint alike."""
    return _numbers(value, float)


def _as_written(number: float) -> object:
    return int(number) if isinstance(number, float) and number.is_integer() and abs(number) < 1e15 else number


def inputs(model: Dimension, get: Callable[[str], Artifact],
           tolerance: float = DEFAULT_TOLERANCE) -> dict[str, object] | None:
    """What the fingerprint covers, by label; None when a cited value cannot be read (the rules say why). A query
    stopped by its budget raises its PointerError (spent): the stamp then cannot be checked, and must say so.

    The typed bar (value, unit, better, stat, kind), each side's stated level, and for a parity claim the tolerance
    it is level within (the words it is shown with; a tolerance change that flips another verdict is an error, not
    a suspect review) are covered by fp2- stamps."""
    out: dict[str, object] = {"status": model.status, "claim": " ".join(model.claim.split())}
    sota = model.sota
    out.update({f"{VERDICT}{k}": v for k, v in (
        ("bar value", None if sota.value is None else float(sota.value)), ("bar unit", sota.unit),
        ("better", sota.better), ("bar stat", sota.stat), ("bar kind", sota.source_kind),
        ("our level", model.result.level if model.result is not None else None),
        ("bar level", sota.result.level if sota.result is not None else None),
        ("parity tolerance", float(tolerance) if model.status == "parity" else None), ("share", model.share))})
    out.update(_conditions(model))
    cited: list[tuple[str, str, str]] = []
    if model.result is not None and model.status in MEASURED:
        out.update(measure.described(_shown_in(model.result, model.display_unit)))
        cited += measure.selections(model.result)
    if model.sota.result is not None:  # a bar read from an artifact: a re-run of the rival turns the claim suspect
        out["sota.kind"] = model.sota.source_kind
        out.update({f"sota.{k}": v for k, v in measure.described(_shown_in(model.sota.result,
                                                                           model.display_unit)).items()})
        cited += measure.selections(model.sota.result)
    for entry in model.trace:
        target = entry if isinstance(entry, str) else entry.target
        if is_url(target):
            continue
        rel, _, fragment = target.partition("#")
        if fragment.startswith("/") and rel.endswith(".json"):
            cited.append((normalise(rel), "pointer", fragment))
    return out if _read_cited(cited, get, out) else None


def _read_cited(cited: list[tuple[str, str, str]], get: Callable[[str], Artifact], out: dict[str, object]) -> bool:
    """Each cited value into out, by its file and selector; False where one cannot be read (a query stopped by its
    budget raises: the stamp cannot be checked)."""
    for rel, kind, selector in cited:
        try:
            art = get(rel)
            if art.error:
                return False
            out[f"{rel}#{selector}"] = _norm(cited_value(art.data, kind, selector))
        except PointerError as exc:
            if exc.spent:
                raise
            return False
        except (PathProblem, OSError, ValueError, RecursionError):
            return False
    return True


def _conditions(model: Dimension) -> dict[str, object]:
    """What the bar was measured on, and the keys that must match (issue 44): covered only where given, so a stamp
    made before they existed still holds."""
    out: dict[str, object] = {}
    if model.sota.conditions:
        out["sota.conditions"] = {k: model.sota.conditions[k] for k in sorted(model.sota.conditions)}
    if model.conditions_must_match:
        out["conditions must match"] = sorted(set(model.conditions_must_match))
    return out


def _shown_in(result, display_unit: str | None):
    """A format: result as its stamp covers it: the unit it is shown in, whether written unit: (before issue 43
    item 5) or display_unit: (since), so moving a unit from one to the other keeps a review current."""
    if getattr(result, "format", None) is not None and result.unit is None and display_unit is not None:
        return result.model_copy(update={"unit": display_unit})
    return result


def fingerprint(covered: dict[str, object], prefix: str = PREFIX) -> str:
    """The stamp for covered: fp2- (or, to check an older stamp, fp1-: without the bar's keys) and 16 hex digits of
    a SHA-256 over canonical JSON."""
    if prefix == "fp1-":
        covered = {k: v for k, v in covered.items() if not k.startswith(VERDICT)}
    import hashlib

    text = json.dumps(covered, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return prefix + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def matches(stamp: str | None, covered: dict[str, object]) -> bool:
    """Whether stamp is covered's fingerprint, in the stamp's own version (fp1- or fp2-)."""
    return stamp is not None and stamp[:4] in ("fp1-", "fp2-") and fingerprint(covered, stamp[:4]) == stamp


# --- what changed since the review, from git -----------------------------------------------------

def reviewed_versions(place: LedgerPlace, stamps: dict[str, str]) -> tuple[dict[str, dict[str, object]], set[str]]:
    """For each record file -> stamp, the covered values of the committed version the stamp was written for;
    and the files not explained because the run's limit of past versions read was reached first.

    A version qualifies when its record carries the stamp and its fingerprint, with the cited
    artifacts as committed at that commit, is the stamp. The newest such version is taken.
    Three git processes in all, however many records: one `git log` naming the commits that
    changed each record, then one `git cat-file --batch` reading records and artifacts at
    those commits, at most git.version_limit() of them in all. A record stamped but never
    committed so has no entry; neither has any record outside git.
    """
    from ..core import git

    if not stamps:
        return {}, set()
    try:
        top, prefix = place.repo()
        log = git.log_names(top, [prefix + "claims"])
    except git.GitError:
        return {}, set()
    commits: dict[str, list[str]] = {}  # record file -> commits that changed it, newest first
    for sha, names in log:
        for name in names:
            if name.startswith(prefix) and name[len(prefix):] in stamps:
                commits.setdefault(name[len(prefix):], []).append(sha)
    found: dict[str, dict[str, object]] = {}
    limited: set[str] = set()
    with git.BlobReader(top) as reader:
        budget = _Budget(reader, git.version_limit())
        for file, stamp in sorted(stamps.items()):
            try:
                for sha in commits.get(file, []):
                    covered = _covered_at(functools.partial(budget.read, f"{sha}:{prefix}"), file, stamp)
                    if covered is not None:
                        found[file] = covered
                        break
            except _LimitReached:
                limited.add(file)
    return found, limited


class _LimitReached(Exception):
    """The run has read as many past versions as it may."""


class _Budget:
    """Past versions read through one reader, at most limit of them (issue 40 item 4)."""

    def __init__(self, reader: git.BlobReader, limit: int):
        self.reader, self.left = reader, limit

    def read(self, at: str, rel: str) -> bytes | None:
        """The file rel (a path a past record names: untrusted) as committed at at; None for a path no ledger file
        could have (absolute, climbing out, not normalised), which git is never asked for."""
        if rel != normalise(rel) or rel.startswith("/") or ".." in rel.split("/"):
            return None
        if self.left <= 0:
            raise _LimitReached
        self.left -= 1
        return self.reader.read(at + rel)


VERSION_LIMIT = ("not explained: version limit (this run read as many past file versions as it may; "
                 "SCORECARD_MAX_VERSIONS raises the limit)")


def _covered_at(read: Callable[[str], bytes | None], file: str, stamp: str) -> dict[str, object] | None:
    """The covered values of one committed version of a record (read gives its files), if its stamp holds."""
    from .versions import artifact_at, record_at

    raw = read(file)
    if raw is None or stamp.encode() not in raw:
        return None
    model = record_at(raw, file)
    if model is None or model.reviewed != stamp:
        return None
    cache: dict[str, Artifact] = {}

    def get(rel: str) -> Artifact:
        if rel not in cache:
            cache[rel] = artifact_at(read(rel), rel)
        return cache[rel]

    try:
        covered = inputs(model, get, _tolerance_at(read))
    except PointerError:  # a query stopped by its budget: this version says nothing
        return None
    return covered if covered is not None and matches(stamp, covered) else None


def _tolerance_at(read: Callable[[str], bytes | None]) -> float:
    """The parity tolerance of a committed version of the ledger (its scorecard.yaml), or the default."""
    import yaml

    try:
        data = yaml.safe_load(read("scorecard.yaml") or b"")
    except yaml.YAMLError:
        return DEFAULT_TOLERANCE
    value = data.get("parity_tolerance") if isinstance(data, dict) else None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else DEFAULT_TOLERANCE



def suspect_message(dim_id: str, changes: list[str] | None) -> str:
    """SC801's sentence, naming what changed when it is known."""
    what = "; ".join(changes) if changes else ("its status, claim or a cited value (git holds no committed "
                                               "version of the review to compare with)")
    return f"suspect: '{dim_id}' changed since it was reviewed: {what}"


def explain_suspects(result: CheckResult) -> CheckResult:
    """result with what changed in each suspect claim named, from the committed version its stamp was written for.

    Only suspect records reach git (a fixed few processes for all of them), so a clean ledger's
    validate (the pre-commit hook) never runs it.
    """
    changes = _suspect_changes(result.ledger.place, result.ledger.dimensions())
    if not changes:
        return result
    categories = [replace(c, dimensions=[_explained(d, changes) for d in c.dimensions])
                  for c in result.ledger.categories]
    ids = {d.file: d.id for d in result.ledger.dimensions()}
    findings = [replace(f, message=suspect_message(ids[f.file], list(changes[f.file])))
                if f.code == "SC801" and f.file in changes else f for f in result.findings]
    return replace(result, ledger=replace(result.ledger, categories=categories), findings=findings)


def explain_records(place: LedgerPlace, records: list[DimensionRecord]) -> list[DimensionRecord]:
    """explain_suspects for a few records alone (serve's rebuild of the dimension files that changed)."""
    changes = _suspect_changes(place, records)
    return [_explained(d, changes) for d in records] if changes else records


def _suspect_changes(place: LedgerPlace, records: list[DimensionRecord]) -> dict[str, tuple[str, ...]]:
    """For each suspect record whose reviewed version git holds, what changed since (by file)."""
    suspects = {d.file: d for d in records
                if d.review is not None and d.review.state == "suspect" and d.model.reviewed is not None}
    if not suspects:
        return {}
    reviewed, limited = reviewed_versions(place, {file: d.model.reviewed for file, d in suspects.items()
                                                  if d.model.reviewed is not None})
    changes = {file: tuple(describe(reviewed[file], d.review.covered)) for file, d in suspects.items()
               if file in reviewed and d.review is not None}
    return changes | {file: (VERSION_LIMIT,) for file in limited}


def _explained(d: DimensionRecord, changes: dict[str, tuple[str, ...]]) -> DimensionRecord:
    if d.file not in changes or d.review is None:
        return d
    return replace(d, review=replace(d.review, changes=changes[d.file]))
