"""History from git: each dimension's status and measured value at every commit that touched the ledger.

The walk follows first-parent commits that change files under the ledger root, oldest first,
replaying each commit's changes onto a tree of blob ids. Only the dimensions a commit touches
(their record, or the evidence file their result reads) are recomputed, and every file version
is parsed once, keyed by its blob id, so hundreds of commits cost little more than the distinct
file versions they hold. A record that does not validate at some commit keeps its last good state.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import field
from datetime import UTC

from ..core.structs import slotted
from ..core import git
from ..measure import reading as measure
from . import bound, wording
from .parsed import Parsed
from .state import State, differences, measured
from ..measure.evidence import Artifact
from ..core.git import Commit
from ..core.place import LedgerPlace
from ..ledger.load import SLUG_RE
from ..ledger.model import Dimension
from ..ledger.placeholders import example_fields
from ..ledger.prose import rendered
from ..measure.measured import Bar
from ..core.statuses import MEASURED


# What a dimension's state is read from: its record, and the evidence its result cites (always under evidence/).
LEDGER_PATHS = ["claims", "evidence"]


class HistoryUnavailable(Exception):
    """No git, not a repository, no commits: a sentence for the user, never a traceback."""


@slotted
class Event:
    """What changed in one dimension in one commit, in a reader's words."""

    commit: Commit
    dim: str  # the id the dimension has now (or had when it was removed)
    category: str
    kinds: list[str]  # added, removed, renamed, moved, status, value, bar, claim, note
    parts: list[str]
    target: str = ""  # the id the dimension has at the end of the history (its permalink)

    @property
    def text(self) -> str:
        """The change as one sentence."""
        return "; ".join(self.parts)

    @property
    def date(self) -> str:
        """YYYY-MM-DD of the commit (UTC)."""
        return self.commit.when.date().isoformat()

    @property
    def when(self) -> str:
        """RFC 3339 time of the commit (UTC), for <time> and the feed."""
        return self.commit.when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    @property
    def short(self) -> str:
        """The commit's short id."""
        return self.commit.short

    @property
    def subject(self) -> str:
        """The commit's subject line."""
        return self.commit.subject

    @property
    def uid(self) -> str:
        """A stable id for the feed (a name-based UUID of commit and dimension)."""
        return f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'scorecard:{self.commit.sha}:{self.dim}')}"


@slotted
class DimensionHistory:
    """One dimension's states over time, oldest first, and the events between them."""

    id: str
    points: list[tuple[Commit, State]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    renamed_from: list[str] = field(default_factory=list)
    removed: bool = False
    unread: int = 0  # versions of its record older than the version limit let the walk read


@slotted
class History:
    """The ledger's history: commits oldest first, each dimension's history, events newest first."""

    commits: list[Commit]
    dimensions: dict[str, DimensionHistory]
    events: list[Event]
    notes: list[str]

    @property
    def head(self) -> Commit:
        """The newest commit walked."""
        return self.commits[-1]


def _dimension_path(path: str) -> tuple[str, str] | None:
    """(category, id) of a dimension file path, or None for anything else.

    Only slugs count, as the format requires: a file named otherwise in some old commit was
    never a valid dimension, and its name (untrusted text) never reaches a page or the feed.
    """
    parts = path.split("/")
    if (len(parts) == 3 and parts[0] == "claims" and parts[2].endswith(".yaml") and parts[2] != "_category.yaml"
            and SLUG_RE.fullmatch(parts[1]) and SLUG_RE.fullmatch(parts[2][:-5])):
        return parts[1], parts[2][:-5]
    return None


def _known(path: str) -> tuple[str, str]:
    """(category, id) of a path already known to be a dimension's file."""
    where = _dimension_path(path)
    if where is None:
        raise ValueError(f"not a dimension file: {path!r}")
    return where


def _getter(tree: dict[str, str], parsed: Parsed) -> Callable[[str], Artifact]:
    def get(rel: str) -> Artifact:
        blob = tree.get(rel)
        return parsed.artifact(blob, rel) if blob else Artifact(rel, error="missing")
    return get


def _state(category: str, model: Dimension, tree: dict[str, str], parsed: Parsed) -> State:
    value = unit = None
    m = bm = None
    if model.status in MEASURED and model.result is not None:
        unit = model.result.unit
        m = measure.read(model.result, _getter(tree, parsed)).measurement
        value = m.value if m is not None else None
        unit = m.unit if m is not None else unit  # a format: states the unit where the record does not
    sota = model.sota
    bar, bar_unit = sota.value, sota.unit
    if sota.result is not None:  # a bar read from an artifact: read at this commit, as ours is
        bm = measure.read(sota.result, _getter(tree, parsed)).measurement
        bar, bar_unit = (bm.value, bm.unit) if bm is not None else (None, None)
    typed = " ".join(model.claim.split())
    claim = rendered(typed, m, Bar.of(sota, bm), model.share)  # as the page showed it
    return State(category, model.status, value, unit, bar, bar_unit, claim, sota.better,
                 " ".join((model.note or "").split()), typed)


def walk(place: LedgerPlace) -> History:
    """The history of the ledger at its place; HistoryUnavailable with the reason when there is none."""
    try:
        top, prefix = place.repo()
        git.run(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], top)
    except git.GitError as exc:
        text = str(exc)
        if "not inside a git repository" in text or "not installed" in text:
            raise HistoryUnavailable(f"{text}, so there is no history to show") from None
        raise HistoryUnavailable("the repository has no commits yet, so there is no history to show") from None
    try:
        commits = git.first_parent_log(top, prefix, LEDGER_PATHS)
        shallow = git.is_shallow(top)
    except git.GitError as exc:
        raise HistoryUnavailable(f"git could not list the history: {exc}") from None
    if not commits:
        raise HistoryUnavailable("no commit touches the ledger yet: commit it, then build the history")
    notes = [f"Commit {c.short} has a date git cannot read; its changes are dated as the commit before it."
             for c in commits if c.undated]
    if shallow:
        notes.append(f"This is a shallow clone: the history starts at {commits[0].short} "
                     f"({commits[0].when.date().isoformat()}); run `git fetch --unshallow` for all of it.")
    limit = git.version_limit()
    first = bound.start(commits, limit)
    if first.index > 1:
        notes.append(f"Older versions not read: the history starts at {commits[first.index - 1].short} "
                     f"({commits[first.index - 1].when.date().isoformat()}); the {first.index - 1} older commits "
                     f"are left out, as reading them would parse more than {limit} past file versions "
                     "(SCORECARD_MAX_VERSIONS sets the limit).")
    with git.BlobReader(top) as reader:
        parsed = Parsed(reader)
        history = _replay(commits, parsed, first)
        if parsed.missing:
            notes.append(f"{parsed.missing} file versions were not in the repository and were skipped.")
        if reader.oversized:  # never read, never a value: a gap in the timeline
            notes.append(f"{len(set(reader.oversized))} file versions were over the size cap (records 1 MiB, "
                         "artifacts 16 MiB) and were not read: their values are gaps.")
    history.notes = notes + history.notes
    return history


def _replay(commits: list[Commit], parsed: Parsed, first: bound.Start) -> History:
    """The commits from first replayed, the ledger before it read as the first states (without events)."""
    replay = _Replay(parsed)
    watched: dict[str, list[DimensionHistory]] = {}
    if first.index:
        watched = replay.seed(commits[first.index - 1], first.tree)
    for commit in commits[first.index:]:
        replay.apply(commit)
    for commit in commits[:max(first.index - 1, 0)]:  # left out: counted on the timelines whose files they touched
        touched = {p for ch in commit.changes for p in (ch.path, ch.old_path) if p in watched}
        for hist in {id(h): h for p in touched for h in watched[p]}.values():
            hist.unread += 1
    return replay.history(commits[max(first.index - 1, 0):])


class _Replay:
    """The ledger's commits applied one at a time: the tree, who reads what, each dimension's history."""

    def __init__(self, parsed: Parsed):
        self.parsed = parsed
        self.tree: dict[str, str] = {}  # ledger path -> blob id
        self.holders: Counter[str] = Counter()  # blob id -> how many paths of the tree hold it
        self.users: dict[str, set[str]] = {}  # evidence path -> dimension paths whose result reads it
        self.reads: dict[str, list[str]] = {}  # dimension path -> the evidence paths its result reads
        self.current: dict[str, DimensionHistory] = {}  # id -> the history of the dimension with that id now
        self.gone: dict[str, DimensionHistory] = {}  # id -> a removed dimension's history (resumed if it returns)
        self.last: dict[str, State] = {}  # id -> its latest state
        self.events: list[Event] = []
        self.skipped = 0  # record versions that did not validate
        self.examples = 0  # record versions that still held the scaffold's example text
        # ids in the tree where a cut history starts whose record there did not validate: their first state read is
        # not an addition (what they were before is unread), so it is recorded without an event
        self.unread_at_start: set[str] = set()
        self.commit: Commit | None = None
        self.per_dim: dict[str, Event] = {}  # this commit's event of each dimension

    def apply(self, commit: Commit) -> None:
        """Replay one commit: renames first (so a renamed dimension keeps its history), then every
        dimension whose record or evidence it changed."""
        self.commit, self.per_dim = commit, {}
        touched, renames = self._update_tree(commit)
        affected = {p for p in touched if _dimension_path(p)}
        for p in touched:
            affected |= self.users.get(p, set())
        for new_path, old_path in sorted(renames.items()):
            self._rename(old_path, new_path)
        for path in sorted(affected):
            self._revisit(path)
        for dim_id, ev in sorted(self.per_dim.items()):
            hist = self.current.get(dim_id) or self.gone.get(dim_id)
            if hist is not None:
                hist.events.append(ev)
            self.events.append(ev)

    def seed(self, commit: Commit, tree: dict[str, str]) -> dict[str, list[DimensionHistory]]:
        """Start from the ledger as it was after commit: each dimension's state there, no event.
        Returns, for each file a dimension's state was read from, the histories that read it."""
        self.commit, self.per_dim = commit, {}
        for path, blob in tree.items():
            self._set(path, blob)
        watched: dict[str, list[DimensionHistory]] = {}
        for path in sorted(p for p in tree if _dimension_path(p)):
            self._revisit(path)
            if _known(path)[1] not in self.current:  # its record there does not validate: what it was is unread
                self.unread_at_start.add(_known(path)[1])
            hist = self.current.get(_known(path)[1])
            if hist is not None:
                for file in [path, *self.reads.get(path, [])]:
                    watched.setdefault(file, []).append(hist)
        self.per_dim = {}
        return watched

    def _update_tree(self, commit: Commit) -> tuple[set[str], dict[str, str]]:
        """The paths the commit touched, and its renames of dimension files (new path -> old)."""
        emptied, filled = bound.emptied_and_filled(commit)
        for path in emptied:
            self._set(path, None)
        for path, blob in filled:
            self._set(path, blob)
        renames = {ch.path: ch.old_path for ch in commit.changes if ch.status == "R" and ch.old_path is not None
                   and _dimension_path(ch.old_path) and _dimension_path(ch.path)}
        return set(emptied) | {path for path, _ in filled}, renames

    def _set(self, path: str, blob: str | None) -> None:
        old = self.tree.pop(path, None)
        if blob is not None:
            self.tree[path] = blob
            self.holders[blob] += 1
        if old is not None:
            self.holders[old] -= 1
            if self.holders[old] <= 0:
                del self.holders[old]
                self.parsed.release(old)

    def _note(self, dim_id: str, category: str, kind: str, text: str) -> None:
        ev = self.per_dim.get(dim_id)
        if ev is None:
            assert self.commit is not None
            ev = self.per_dim[dim_id] = Event(self.commit, dim_id, category, [], [])
        ev.kinds.append(kind)
        ev.parts.append(text)

    def _rename(self, old_path: str, new_path: str) -> None:
        old_id = _known(old_path)[1]
        new_cat, new_id = _known(new_path)
        if new_id in self.unread_at_start:  # what the new id was is unread: no rename can be told
            return
        if old_id in self.unread_at_start and old_id != new_id:  # renamed before anything of it was read
            if new_id not in self.current:  # as the rename would carry its history: its first state is no addition
                self.unread_at_start.discard(old_id)
                self.unread_at_start.add(new_id)
            return
        if old_id in self.current and old_id != new_id and new_id not in self.current:
            hist = self.current.pop(old_id)
            hist.renamed_from.append(old_id)
            hist.id = new_id
            self.current[new_id] = hist
            if old_id in self.last:
                self.last[new_id] = self.last.pop(old_id)
            self._note(new_id, new_cat, "renamed", f"renamed from {old_id} to {new_id}")

    def _revisit(self, path: str) -> None:
        """Recompute the state of the dimension at path (its record or its evidence changed)."""
        category, dim_id = _known(path)
        for old_read in self.reads.pop(path, []):
            self.users.get(old_read, set()).discard(path)
        if path not in self.tree:
            self._maybe_removed(category, dim_id)
            return
        model = self._readable(path)
        if model is None:
            return
        if model.result is not None:
            self.reads[path] = [rel for _, rel in measure.evidence_files(model.result)]
            for rel in self.reads[path]:
                self.users.setdefault(rel, set()).add(path)
        state = _state(category, model, self.tree, self.parsed)
        before = self.last.get(dim_id)
        if state == before:
            return
        hist = self.current.get(dim_id)
        if hist is None or before is None:
            hist = hist or self.gone.pop(dim_id, None) or DimensionHistory(dim_id)
            hist.removed = False
            self.current[dim_id] = hist
            if dim_id in self.unread_at_start:
                self.unread_at_start.discard(dim_id)
            else:
                self._note(dim_id, category, "added", wording.added(state.status, measured(state),
                                                                    again=bool(hist.points)))
        else:
            for kind, text in differences(before, state):
                self._note(dim_id, category, kind, text)
        assert self.commit is not None
        hist.points.append((self.commit, state))
        self.last[dim_id] = state

    def _readable(self, path: str) -> Dimension | None:
        """The record at path as a state of the ledger: None (counted) where it does not validate, or where it still
        holds scorecard new's example text, which no one published (the last good state stands)."""
        model = self.parsed.model(self.tree[path], path)
        if model is None:
            self.skipped += 1
        elif example_fields(model):
            self.examples += 1
            return None
        return model

    def _maybe_removed(self, category: str, dim_id: str) -> None:
        """A dimension file left the tree: the dimension is removed unless another file still has its id."""
        if dim_id in self.current and not any(where[1] == dim_id for where in map(_dimension_path, self.tree)
                                              if where):
            hist = self.current.pop(dim_id)
            hist.removed = True
            self.gone[dim_id] = hist
            self.last.pop(dim_id, None)
            self._note(dim_id, category, "removed", "removed from the ledger")

    def history(self, commits: list[Commit]) -> History:
        """The whole history: dimensions by id, events newest first."""
        dimensions = {**self.gone, **self.current}
        for hist in dimensions.values():
            for ev in hist.events:
                ev.target = hist.id
        position = {c.sha: i for i, c in enumerate(commits)}
        self.events.sort(key=lambda e: (-e.commit.time, -position[e.commit.sha], e.dim))
        notes = [f"{self.skipped} record versions did not validate and were skipped."] if self.skipped else []
        if self.examples:
            notes.append(f"{self.examples} record versions still held the example text of scorecard init or new "
                         "and are left out.")
        return History(commits, dict(sorted(dimensions.items())), self.events, notes)
