"""A revision's ledger as git lists it, written out for `scorecard diff` only where it means to be.

Every entry of the revision's tree is known by path (below the ledger's prefix) before anything is
written. Crafted entries (two of one name, names that differ only in case, one name both a file and a
folder, `..` or `.git` in a path) are set aside and reported. A committed symlink is resolved inside the
tree, one component at a time as the system would, and never created: its target's bytes are written in
its place as a new regular file (O_EXCL, O_NOFOLLOW) in the diff's own temporary folder.
"""

from __future__ import annotations

import os
import posixpath
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..core import git
from ..core.paths import MAX_ARTIFACT_BYTES


def _leave_out(entries: dict[str, tuple[str, str, int]], crafted: dict[str, str]) -> dict[str, tuple[str, str, int]]:
    """entries without the crafted ones (one name both a file and a folder is added to crafted), nor any file
    below a crafted name."""
    folders = {"/".join(p.split("/")[:i]) for p in entries for i in range(1, p.count("/") + 1)}
    for rel in sorted(set(entries) & folders):
        crafted[rel] = "a file and a folder of one name"
    return {rel: e for rel, e in entries.items()
            if rel not in crafted and not any(rel.startswith(c + "/") for c in crafted)}


_LINK = "120000"
_MAX_LINKS = 40  # as the system's own limit on symlinks followed in one lookup
_MAX_TARGET = 4096  # the longest link target read (PATH_MAX): a 200 MB "link" is never read


@dataclass
class Tree:
    """A revision's ledger as git lists it: entries by path (below the ledger's prefix), and what is crafted."""

    entries: dict[str, tuple[str, str, int]]  # path -> (mode, blob id, size)
    crafted: list[tuple[str, str]]  # (path, why) of entries left out
    blobs: git.BlobReader | None = None
    written: set[str] = field(default_factory=set)

    @classmethod
    def parse(cls, listing: bytes, prefix: str) -> Tree:
        entries: dict[str, tuple[str, str, int]] = {}
        crafted: dict[str, str] = {}
        folded: dict[str, str] = {}  # every name (file or folder), case folded -> as written
        seen: set[str] = set()
        for entry in listing.split(b"\0"):  # `ls-tree -r -t`: folders are listed too, so theirs are checked alike
            head, _, raw = entry.partition(b"\t")
            parts = head.split()
            if len(parts) != 4 or parts[1] not in (b"blob", b"tree"):
                continue
            path = raw.decode("utf-8", "surrogateescape")
            if prefix and not path.startswith(prefix):
                continue
            rel = path[len(prefix):]
            if not rel:
                continue
            if any(p in ("", ".", "..") or p.casefold().rstrip(". ") == ".git" for p in rel.split("/")):
                crafted[rel] = "a path git itself refuses ('..', '.git' or an empty name)"
                continue
            if rel in seen:  # two files, two folders, or a file and a folder of one name
                crafted[rel] = "two entries of one name"
                continue
            seen.add(rel)
            key = rel.casefold()
            if key in folded and folded[key] != rel:
                crafted[rel] = crafted[folded[key]] = f"names that differ only in case ({folded[key]})"
                continue
            folded[key] = rel
            if parts[1] == b"blob":
                size = int(parts[3]) if parts[3].isdigit() else 0
                entries[rel] = (parts[0].decode(), parts[2].decode(), size)
        return cls(_leave_out(entries, crafted), sorted(crafted.items()))

    def resolve(self, rel: str) -> str | None:
        """The entry rel names once every symlink on the way is followed inside the tree, as the system would
        (a link's `..` from where the link's target is, not from where the link is); None when it leaves the
        ledger, loops, or names no file."""
        stack: list[str] = []
        todo = deque(rel.split("/"))
        links = 0
        while todo:
            piece = todo.popleft()
            if piece in ("", "."):
                continue
            if piece == "..":
                if not stack:
                    return None  # above the ledger's root
                stack.pop()
                continue
            stack.append(piece)
            here = "/".join(stack)
            entry = self.entries.get(here)
            if entry is None or entry[0] != _LINK:
                continue
            links += 1
            if links > _MAX_LINKS or self.blobs is None or entry[2] > _MAX_TARGET:
                return None
            target = self.blobs.read(entry[1])
            if target is None or len(target) > _MAX_TARGET or target.startswith(b"/") or b"\0" in target:
                return None
            stack.pop()
            todo.extendleft(reversed(target.decode("utf-8", "surrogateescape").split("/")))
        found = "/".join(stack)
        entry = self.entries.get(found)
        return found if entry is not None and entry[0] != _LINK else None

    def materialise(self, rel: str, dest: Path) -> bool:
        """Write the file rel names (its link resolved here) as a regular file at dest/rel; whether it was."""
        if rel in self.written:
            return True
        if rel not in self.entries:
            return False
        real = self.resolve(rel)
        if real is None or self.blobs is None:
            return False
        _mode, sha, size = self.entries[real]
        data = None
        if size <= MAX_ARTIFACT_BYTES:
            data = self.blobs.read(sha)
            if data is None:  # not in the repository (a shallow or partial clone): read as missing
                return False
        target = dest.joinpath(*rel.split("/"))
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        except OSError:
            return False
        with os.fdopen(fd, "wb") as out:
            if data is None:
                out.truncate(size)  # over the cap: its size, not its bytes (the check refuses it, SC408)
            else:
                out.write(data)
        self.written.add(rel)
        return True

    def named_in(self, record: Path) -> list[str]:
        """The tree's files a record's YAML names anywhere (a result's evidence, an input, a trace)."""
        try:
            data = yaml.load(record.read_bytes(), Loader=_LOADER)  # noqa: S506 - the C safe loader
        except (yaml.YAMLError, OSError, ValueError, RecursionError):
            return []
        found: list[str] = []
        todo = [data]
        seen = 0
        while todo and seen < 100_000:
            value = todo.pop()
            seen += 1
            if isinstance(value, dict):
                todo += list(value.values())
            elif isinstance(value, list):
                todo += value
            elif isinstance(value, str) and len(value) < 4096:
                name = posixpath.normpath(value.partition("#")[0]) if value and not value.startswith("/") else ""
                if name in self.entries:
                    found.append(name)
        return found


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
