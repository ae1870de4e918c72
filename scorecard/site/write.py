"""Write stage: put a rendered site on disk atomically, or not at all.

The site is written into a temporary folder beside the output folder, then swapped in:
on Linux with one renameat2(RENAME_EXCHANGE) call, elsewhere with two renames. A failed
or interrupted build removes its temporary folder and leaves the previous site as it was.
"""

from __future__ import annotations

import ctypes
import errno
import ctypes.util
import hashlib
import os
import shutil
import stat
import tempfile
from pathlib import Path

from ..core.findings import UserError
from ..core.paths import EditRefused, check_editable  # noqa: F401 - EditRefused: re-exported
from ..core.place import LedgerPlace

MARKER = ".scorecard-site"
# How a previous site's file is opened to be compared: never through a symlink (where the open cannot refuse one,
# an lstat does first), never blocking (a FIFO).
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_OPEN_OLD = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) \
    | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
_TMP_PREFIXES = ("-tmp-", "-old-")


class OutputRefused(UserError):
    """The output folder is one scorecard must not replace."""


def check_output(place: LedgerPlace, out: Path) -> None:
    """Refuse an output folder that is the ledger, holds it, is one of its sources, or is foreign; and the default
    site/ when the ledger makes it a symlink (a pull request could point it at any folder on the machine). An
    explicit --out arrives resolved: where it leads is the user's choice."""
    if out.is_symlink():
        raise OutputRefused(f"refusing to write the site through {out}: it is a symlink (to "
                            f"{os.readlink(out)}); the output folder must be a real folder, or give --out")
    root, out = place.real, out.resolve()
    if out == root or root.is_relative_to(out):
        raise OutputRefused(f"refusing to write the site to {out}: it is (or holds) the ledger root")
    for source in ("claims", "evidence", "templates", "schema", "docs", ".git"):
        if out == root / source or out.is_relative_to(root / source):
            raise OutputRefused(f"refusing to write the site into the ledger's {source}/ folder")
    if out.exists() and not out.is_dir():
        raise OutputRefused(f"refusing to replace {out}: it is a file, not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise OutputRefused(f"refusing to replace {out}: it is not empty and was not made by scorecard "
                            f"(no {MARKER} marker); choose another --out or empty it yourself")


def _safe_relpath(path: str) -> str:
    """path, when it is a plain relative path (no leading /, no empty, . or .. part)."""
    if not path or path.startswith("/") or any(part in ("", ".", "..") for part in path.split("/")):
        raise ValueError(f"render produced an unsafe path: {path!r}")
    return path


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux renameat2); False where unsupported."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    rc = renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    return rc == 0


def clean_leftovers(out: Path) -> None:
    """Remove temporary folders a killed build left beside out.

    Each build names its folders with its process id; a folder whose process still runs belongs
    to a build running now (two builds at once) and is left alone.
    """
    parent = out.parent
    if not parent.is_dir():
        return
    for entry in parent.iterdir():
        name = entry.name
        if not (name.startswith(f".{out.name}-") and any(p in name for p in _TMP_PREFIXES)) or entry.is_symlink():
            continue
        owner = name[len(out.name) + 1:].split("-")[2:3]
        if owner and owner[0].isdigit() and _alive(int(owner[0])):
            continue
        if entry.is_dir():
            shutil.rmtree(entry, ignore_errors=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False  # a folder this process left earlier (serve rebuilds) is stale
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def write_site(place: LedgerPlace, out: Path, pages, guard=None) -> int:
    """Write pages ((path, bytes or an iterator of byte chunks) pairs, or a dict) under out atomically.

    Returns how many files were written.

    guard(path) is called before each file (tests use it to fail mid-way).
    """
    check_output(place, out)
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    clean_leftovers(out)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-tmp-{os.getpid()}-", dir=out.parent))
    try:
        files = _Files(tmp, out if out.is_dir() else None)
        count = files.write_all(pages.items() if isinstance(pages, dict) else pages, guard)
        (tmp / MARKER).write_text("This folder is generated by scorecard build; it is replaced on every build.\n")
        os.chmod(tmp, 0o755)
        previous = _swap_in(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    if previous is not None:
        shutil.rmtree(previous, ignore_errors=True)  # after the swap, tmp holds the previous site
    return count


def _swap_in(tmp: Path, out: Path) -> Path | None:
    """Put the finished tmp folder at out in one step; returns the folder holding the previous site, if any."""
    if not out.exists():
        os.rename(tmp, out)
        return None
    if _exchange(tmp, out):
        return tmp
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-{os.getpid()}-", dir=out.parent))
    old.rmdir()
    os.rename(out, old)
    os.rename(tmp, out)
    return old


class _Files:
    """The files of one build written under a temporary folder.

    Identical small outputs (a status badge is the same for every dimension of that status) are
    written once and hard-linked: creating a file costs far more than linking one. They are known
    by a digest of their bytes, not the bytes: at 20,000 dimensions the small outputs (cards,
    badges) are 65 MB, which the build's process held to the end. For the same
    reason, an output whose bytes are those of the same file in the site being replaced is linked
    from there (see _unchanged).
    """

    SHARED_MAX = 8192  # bytes: outputs up to this size are linked when repeated

    def __init__(self, tmp: Path, previous: Path | None = None):
        # Paths are plain strings here: pathlib's parsing was a third of writing a site.
        self.tmp = str(tmp)
        self.previous = str(previous) if previous is not None else None
        self.seen: set[str] = set()
        self.made: set[str] = {""}  # folders made under tmp, relative
        self.written: dict[bytes, str] = {}  # digest of a small output's bytes -> where it was first written
        self.folders: dict[str, bool] = {"": True}  # folders of the previous site: real folders, not links?
        self.uid = os.getuid() if hasattr(os, "getuid") else None  # None: no owners to compare (Windows)
        umask = os.umask(0o022)
        os.umask(umask)
        self.mode = 0o666 & ~umask  # what open() gives a new file

    def write_all(self, items, guard) -> int:
        for rel, data in items:
            key = _safe_relpath(rel).casefold()
            if key in self.seen:
                raise ValueError(f"two outputs would be written to {rel}")
            self.seen.add(key)
            if guard:
                guard(rel)
            self.write(rel, data)
        return len(self.seen)

    def write(self, rel: str, data) -> None:
        folder = rel.rpartition("/")[0]
        if folder not in self.made:
            os.makedirs(f"{self.tmp}/{folder}", exist_ok=True)
            self.made.add(folder)
        target = f"{self.tmp}/{rel}"
        if not isinstance(data, bytes):  # a stream of chunks
            with open(target, "wb") as fh:
                for chunk in data:
                    fh.write(chunk)
            return
        small = len(data) <= self.SHARED_MAX
        key = hashlib.blake2b(data, digest_size=20).digest() if small else b""
        first = self.written.get(key) if small else None
        if first is None:
            first = self._unchanged(rel, folder, data)
        if first is not None:
            try:
                os.link(first, target)
                if small:
                    self.written.setdefault(key, target)
                return
            except OSError:
                pass  # no hard links here: write a copy
        with open(target, "wb") as fh:
            fh.write(data)
        if small:
            self.written.setdefault(key, target)

    def _unchanged(self, rel: str, folder: str, data: bytes) -> str | None:
        """The previous site's file at rel, when it holds exactly data and is safe to link; else None.

        Safe: a regular file in real folders of the previous site (no symlink on the way: the
        output folder may sit in the ledger, where a pull request could commit one), with no other
        link to it, owned by this user, with the mode a new file would get. Its bytes are read and
        compared, so a file edited since it was written is written afresh.
        """
        if self.previous is None or not self._real_folder(folder):
            return None
        old = f"{self.previous}/{rel}"
        try:  # one open, checked on its descriptor: a symlink is refused by the open itself (O_NOFOLLOW)
            if not _NOFOLLOW and stat.S_ISLNK(os.lstat(old).st_mode):
                return None
            fd = os.open(old, _OPEN_OLD)
        except OSError:
            return None
        try:
            info = os.fstat(fd)
            if not (stat.S_ISREG(info.st_mode) and info.st_size == len(data) and info.st_nlink == 1
                    and self.uid in (None, info.st_uid)
                    and stat.S_IMODE(info.st_mode) == self.mode):
                return None
            # A regular file's read gives all it asks for but at its end: one byte more shows a file that grew.
            if os.read(fd, len(data) + 1) != data:
                return None
        except OSError:
            return None
        finally:
            os.close(fd)
        return old

    def _real_folder(self, folder: str) -> bool:
        """Whether folder (relative) and each folder above it in the previous site is a real folder."""
        known = self.folders.get(folder)
        if known is None:
            try:
                real = stat.S_ISDIR(os.lstat(f"{self.previous}/{folder}").st_mode)
            except OSError:
                real = False
            known = real and self._real_folder(folder.rpartition("/")[0])
            self.folders[folder] = known
        return known


REVIEW_TMP = ".scorecard-review-"


def replace_files(edits: dict[Path, bytes], temp_dir: Path, originals: dict[Path, bytes] | None = None) -> None:
    """Write each file's new bytes atomically, all or none, keeping each file's mode.

    Every new content is first written and synced to a temporary file in temp_dir (the ledger
    root: where validate never looks, so a killed run leaves nothing it reports); only when all
    are written are they renamed over their files. A failure before that leaves every file as
    it was. Temporary files a killed run left are removed first. With originals (the bytes each
    file was read with), each file is first checked to be a regular file below temp_dir reached
    through no symlink and unchanged since it was read (EditRefused, nothing written, else).
    """
    for path, original in (originals or {}).items():
        check_editable(path, temp_dir, original)
    for stale in temp_dir.glob(REVIEW_TMP + "*.tmp"):
        owner = stale.name[len(REVIEW_TMP):].split("-")[0]
        if not (owner.isdigit() and _alive(int(owner))) and stale.is_file() and not stale.is_symlink():
            stale.unlink(missing_ok=True)
    staged: list[tuple[str, Path]] = []
    try:
        for path, data in edits.items():
            mode = path.stat().st_mode & 0o7777
            fd, tmp = tempfile.mkstemp(dir=temp_dir, prefix=f"{REVIEW_TMP}{os.getpid()}-", suffix=".tmp")
            staged.append((tmp, path))
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, mode)
        for tmp, path in staged:
            try:
                os.replace(tmp, path)
            except OSError as exc:
                if exc.errno != errno.EXDEV:
                    raise
                shutil.move(tmp, path)  # temp_dir on another file system (a mount under the ledger)
    except BaseException:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)
        raise
