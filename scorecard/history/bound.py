"""How far back the history is read: at most a run's limit of past file versions (issue 40 item 4).

A replay that starts at commit s reads the tree as it was before s and every version the commits
from s on wrote. Versions in the newest tree are read by validate anyway and are not counted; older
ones (past versions) are, each blob once. Counting back from the newest commit, the walk starts at
the oldest commit whose count stays within the limit; the tree before it is read as the first state,
without events, and the older commits are left out ("older versions not read"). No file is read to
decide this: the blob ids of `git log --raw` are enough.
"""

from __future__ import annotations

from collections import Counter

from ..core.structs import frozen
from ..core.git import Commit


@frozen
class Start:
    """Where the replay starts: commits[index] is the first replayed, tree is the ledger before it."""

    index: int
    tree: dict[str, str]  # path -> blob id, as it was after commits[index - 1] ({} when index is 0)


def _undo(tree: dict[str, str], commit: Commit) -> None:
    """tree (as after commit) becomes the tree as it was before commit (the paths it filled emptied first, so two
    files that swapped names both come back)."""
    for ch in commit.changes:
        if ch.status in ("A", "R", "C"):
            tree.pop(ch.path, None)
    for ch in commit.changes:
        if ch.status not in ("A", "R", "C"):  # M, T, D: the path held the old blob
            tree[ch.path] = ch.old_blob
        elif ch.status == "R" and ch.old_path is not None:
            tree[ch.old_path] = ch.old_blob


def emptied_and_filled(commit: Commit) -> tuple[list[str], list[tuple[str, str]]]:
    """The paths a commit empties (a rename's old path, a deletion) and those it fills (path, blob), applied in
    that order by every replay of it (here and the walk): two files that swap names keep both."""
    emptied = [ch.old_path if ch.status == "R" and ch.old_path is not None else ch.path for ch in commit.changes
               if ch.status in ("R", "D")]
    return emptied, [(ch.path, ch.blob) for ch in commit.changes if ch.status != "D"]


def _head(commits: list[Commit]) -> dict[str, str]:
    tree: dict[str, str] = {}
    for commit in commits:
        emptied, filled = emptied_and_filled(commit)
        for path in emptied:
            tree.pop(path, None)
        tree.update(filled)
    return tree


class _Needed:
    """The distinct past blobs a replay from some commit reads: those in its first tree, and those written after."""

    def __init__(self, present: set[str]):
        self.present = present
        self.refs: Counter[str] = Counter()

    def add(self, blob: str, n: int = 1) -> None:
        if blob and blob not in self.present:
            self.refs[blob] += n
            if self.refs[blob] <= 0:
                del self.refs[blob]

    def __len__(self) -> int:
        return len(self.refs)


def start(commits: list[Commit], limit: int) -> Start:
    """The oldest start whose replay reads at most limit past versions (the first commit when all fit)."""
    tree = _head(commits)
    needed = _Needed(set(tree.values()))
    written: set[str] = set()
    for i in range(len(commits) - 1, -1, -1):
        paths = {p for ch in commits[i].changes for p in (ch.path, ch.old_path) if p is not None}
        after = {p: tree[p] for p in paths if p in tree}
        _undo(tree, commits[i])
        for path in paths:  # the first tree is now the one before commit i
            needed.add(after.get(path, ""), -1)
            needed.add(tree.get(path, ""))
        for ch in commits[i].changes:  # and commit i's versions are written during the replay
            if ch.blob and ch.blob not in written:
                written.add(ch.blob)
                needed.add(ch.blob)
        if len(needed) > limit:
            for path in paths:  # back to the tree after commit i: the replay starts from it
                if path in after:
                    tree[path] = after[path]
                else:
                    tree.pop(path, None)
            return Start(i + 1, tree)
    return Start(0, {})
