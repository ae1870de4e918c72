"""Clean checks kept for the next validate or build (issue 46: the pre-commit hook's case, where one record changed).

A dimension's rules read its record, the settings, the day and, through the artifact store, files: the artifacts
and trace targets it cites (their bytes, their kind, the date git last changed them). Each dimension is checked
through a recording store that notes every question asked of the store and its answer, in order. A dimension whose
rules found nothing is kept under a key of its record's bytes, its category, the settings' bytes and the day (the
cache file itself is keyed by the code). On the next validate, a record under a kept key is not checked again when
every recorded question, asked again of this run's store in the same order, gives the same answer; the store is
then left as the check would have left it (the same artifacts read, the same spellings located, the same share of
the path queries' budget spent), so what the other records and the artifact warnings see does not change. A record
whose path queries would not fit in what is left of the run's budget is checked again (KEEP_QUERY_SECONDS). A
dimension with a finding of any kind, a suspect review, or a changed answer is checked as usual.

The promise (tests/test_checkmemo.py): validate and build with the memo give exactly the findings (and a build the
bytes) they give without it, whatever changed in any file between two runs. `validate` passes a kept record on as
it is (it reports findings alone); a build still works out what the site reads of it (its measurement, its bar,
its evidence's date, its review), skipping only the rules that could add findings.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from ..core.paths import PathProblem
from ..measure import budget
from ..measure.evidence import Artifact, ArtifactStore
from .cache import digest, read_entry, write_entry
from .rules import check_dimension

if TYPE_CHECKING:
    from ..core.findings import Finding
    from .model import Settings
    from .records import DimensionRecord

Answer = tuple  # what a question to the store gave, as plain data (marshal-able)
# A path query's time is the one answer that is not exact: a record is kept only where its queries took under a
# quarter of one query's limit (jsonquery.TIME_BUDGET, 2 s), and reused only while the run has QUERY_MARGIN times
# that left (the hostile pass: records made to spend the run's budget turned a kept record's query into SC311).
KEEP_QUERY_SECONDS = 0.5
QUERY_MARGIN = 4.0


def _problem(exc: PathProblem) -> Answer:
    return "problem", exc.code, exc.message


def _artifact(art: Artifact) -> Answer:
    raw = art.raw if isinstance(art.raw, bytes) else b""
    return "artifact", digest(raw), art.raw is None, art.error or ""


def ask(store: ArtifactStore, op: str, rel: str) -> tuple[Answer, object]:
    """(the answer as data, what the store gave: a value or the PathProblem it raised) to one question."""
    try:
        if op == "get":
            art = store.get(rel)
            return _artifact(art), art
        if op == "locate":
            path, kind = store.locate(rel)
            return ("kind", kind), (path, kind)
        if op == "raw":
            data = store.raw(rel)
            return ("bytes", digest(data)), data
        when = store.git_date(rel)
        return ("date", when.isoformat() if when is not None else None), when
    except PathProblem as exc:
        return _problem(exc), exc


class Recording(ArtifactStore):
    """The run's store, as one dimension's rules see it: every question passed on and noted with its answer. Its
    `sides` are the dimension's own, so that no answer reaches it unrecorded through another record's check."""

    def __init__(self, store: ArtifactStore):  # not ArtifactStore.__init__: every read goes to store
        self.store = store
        self.place = store.place
        self.sides = {}
        self.asked: list[tuple[str, str, Answer]] = []

    def _ask(self, op: str, rel: str) -> object:
        answer, given = ask(self.store, op, rel)
        self.asked.append((op, rel, answer))
        if isinstance(given, PathProblem):
            raise given
        return given

    def get(self, rel: str) -> Artifact:
        return self._ask("get", rel)  # type: ignore[return-value]

    def locate(self, rel: str) -> tuple[Path, str]:
        return self._ask("locate", rel)  # type: ignore[return-value]

    def raw(self, rel: str) -> bytes:
        return self._ask("raw", rel)  # type: ignore[return-value]

    def git_date(self, rel: str) -> date | None:
        return self._ask("git_date", rel)  # type: ignore[return-value]

    def loaded(self) -> dict[str, Artifact]:
        raise AssertionError("a dimension's rules never list the run's artifacts")


class CheckMemo:
    """The clean checks of the last validate, in the ledger's cache folder (checked.bin)."""

    def __init__(self, path: Path, settings_digest: str, today: date, records: bool = False):
        self.path = path
        self.records = records  # a build's: a clean check that holds still works out what the site reads
        self.context = f"{settings_digest}\0{today.isoformat()}"
        kept = read_entry(path)
        self.kept: dict[str, tuple] = kept if isinstance(kept, dict) else {}
        self.used: dict[str, tuple] = {}
        self.reused = 0

    def key(self, rec: DimensionRecord) -> str:
        return digest(*(part.encode("utf-8", "surrogatepass") for part in (self.context, rec.category, rec.doc.file,
                                                                           rec.doc.digest)))

    def check(self, rec: DimensionRecord, settings: Settings, store: ArtifactStore, today: date,
              findings: list[Finding]) -> DimensionRecord:
        """rec checked by its rules (findings appended), or, when its clean check still holds, passed as it is
        (validate's), or with only what the site reads worked out (a build's: rules.check_dimension known_clean)."""
        key = self.key(rec)
        kept = self.kept.get(key)
        if rec.doc.digest and kept is not None and _holds(store, kept):
            self.used[key] = kept
            self.reused += 1
            return check_dimension(rec, settings, store, today, findings, known_clean=True) if self.records else rec
        recording = Recording(store)
        before, work, seconds = len(findings), budget.spent["work"], budget.spent["seconds"]
        checked = check_dimension(rec, settings, recording, today, findings)
        suspect = checked.review is not None and checked.review.state == "suspect"
        took = budget.spent["seconds"] - seconds
        if rec.doc.digest and len(findings) == before and not suspect and took <= KEEP_QUERY_SECONDS:
            self.used[key] = (tuple(recording.asked), budget.spent["work"] - work, took)
        return checked

    def save(self) -> None:
        """Keep this run's clean checks (and only those), if they changed."""
        if self.used.keys() != self.kept.keys():
            write_entry(self.path, self.used)


def _holds(store: ArtifactStore, kept: tuple) -> bool:
    """Whether every question a clean check asked gets the same answer now (asked of store, in order, as the
    check would ask them; each question asked once a run, its answer kept in store.answers), and its path queries
    would run again within what is left of the run's budget (all of their work, and QUERY_MARGIN times their
    time); then that share of the budget is spent again."""
    try:
        asked, work, seconds = kept
        if work and (budget.spent["work"] + work >= budget.RUN_WORK_BUDGET or
                     budget.spent["seconds"] + QUERY_MARGIN * seconds >= budget.RUN_TIME_BUDGET):
            return False
        answers = store.answers  # each question answered once a run: many records cite the same files
        for op, rel, answer in asked:
            now = answers.get((op, rel))
            if now is None:
                now = answers[(op, rel)] = ask(store, op, rel)[0]
            if now != answer:
                return False
    except (TypeError, ValueError):  # an entry of another shape: not a hit
        return False
    budget.spent["work"] += work
    budget.spent["seconds"] += seconds
    return True
