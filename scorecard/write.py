"""Write stage: put a rendered site on disk atomically, or not at all.

The site is written into a temporary folder beside the output folder, then swapped in:
on Linux with one renameat2(RENAME_EXCHANGE) call, elsewhere with two renames. A failed
or interrupted build removes its temporary folder and leaves the previous site as it was.
"""

from __future__ import annotations

import ctypes
import errno
import ctypes.util
import os
import shutil
import tempfile
from pathlib import Path, PurePosixPath

MARKER = ".scorecard-site"
_TMP_PREFIXES = ("-tmp-", "-old-")


class OutputRefused(Exception):
    """The output folder is one scorecard must not replace."""


def check_output(root: Path, out: Path) -> None:
    """Refuse an output folder that is the ledger, holds it, is one of its sources, or is foreign."""
    root, out = root.resolve(), out.resolve()
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


def _safe_relpath(path: str) -> PurePosixPath:
    p = PurePosixPath(path)
    if p.is_absolute() or ".." in p.parts or not p.parts:
        raise ValueError(f"render produced an unsafe path: {path!r}")
    return p


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


def write_site(root: Path, out: Path, pages, guard=None) -> int:
    """Write pages ((path, bytes or an iterator of byte chunks) pairs, or a dict) under out atomically.

    Returns how many files were written.

    guard(path) is called before each file (tests use it to fail mid-way).
    """
    check_output(root, out)
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    clean_leftovers(out)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}-tmp-{os.getpid()}-", dir=out.parent))
    try:
        seen: set[str] = set()
        made: set[Path] = {tmp}
        # Identical small outputs (a status badge is the same for every dimension of that status) are
        # written once and hard-linked: creating a file costs far more than linking one.
        written: dict[bytes, Path] = {}
        items = pages.items() if isinstance(pages, dict) else pages
        for rel, data in items:
            key = str(_safe_relpath(rel)).casefold()
            if key in seen:
                raise ValueError(f"two outputs would be written to {rel}")
            seen.add(key)
            if guard:
                guard(rel)
            target = tmp / rel
            if target.parent not in made:
                target.parent.mkdir(parents=True, exist_ok=True)
                made.add(target.parent)
            if not isinstance(data, bytes):  # a stream of chunks
                with open(target, "wb") as fh:
                    for chunk in data:
                        fh.write(chunk)
                continue
            first = written.get(data) if len(data) <= 8192 else None
            if first is not None:
                try:
                    os.link(first, target)
                    continue
                except OSError:
                    pass  # no hard links here: write a copy
            with open(target, "wb") as fh:
                fh.write(data)
            if len(data) <= 8192:
                written.setdefault(data, target)
        (tmp / MARKER).write_text("This folder is generated by scorecard build; it is replaced on every build.\n")
        os.chmod(tmp, 0o755)
        if out.exists():
            if not _exchange(tmp, out):
                old = Path(tempfile.mkdtemp(prefix=f".{out.name}-old-{os.getpid()}-", dir=out.parent))
                old.rmdir()
                os.rename(out, old)
                os.rename(tmp, out)
                tmp = old
        else:
            os.rename(tmp, out)
            return len(seen)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    shutil.rmtree(tmp, ignore_errors=True)  # after the swap, tmp holds the previous site
    return len(seen)


REVIEW_TMP = ".scorecard-review-"


def replace_files(edits: dict[Path, bytes], temp_dir: Path) -> None:
    """Write each file's new bytes atomically, all or none, keeping each file's mode.

    Every new content is first written and synced to a temporary file in temp_dir (the ledger
    root: where validate never looks, so a killed run leaves nothing it reports); only when all
    are written are they renamed over their files. A failure before that leaves every file as
    it was. Temporary files a killed run left are removed first.
    """
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
