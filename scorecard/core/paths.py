"""Reading what a ledger names, safely: paths inside the ledger root, regular files, bounded sizes.

A ledger is untrusted input (a pull request controls its files, symlinks and special files), so
every file the tool reads goes through here: its real path must be inside the root, outside any
version-control folder, and it must be a regular file under a size cap. FIFOs and devices are
never opened for reading in a way that could block, and a refusal is a PathProblem (a finding),
never an exception escaping to the user.

Lazy import: shutil, to remove a folder (the pre-commit hook removes none, and shutil costs 2.5 ms of its start).
"""

from __future__ import annotations

import contextlib
import errno
import marshal
import os
import re
import stat
from pathlib import Path
from typing import Any, cast

from .blake import blake2b

_DRIVE = re.compile(r"^[A-Za-z]:")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:")


class PathProblem(Exception):
    """A path that cannot be used: code is the rule, message says why."""

    def __init__(self, code: str, message: str, hint: str):
        super().__init__(message)
        self.code, self.message, self.hint = code, message, hint


# Folders of version-control systems: never read as a trace target, never published.
VCS_FOLDERS = frozenset({".git", ".hg", ".svn", ".bzr", "_darcs", ".fossil", "CVS", ".jj", ".pijul"})
_VCS_FOLDED = frozenset(name.casefold() for name in VCS_FOLDERS)  # .GIT is .git where names fold (macOS, Windows)
# The largest evidence artifact or trace target read (documented in docs/security.md).
MAX_ARTIFACT_BYTES = 16 * 1024 * 1024
CHECK_DIGEST = 16  # bytes of the BLAKE2b digest a checked file carries of its payload
_LINK_HINT = "replace the symlink with the file itself"


def is_url(text: str) -> bool:
    """Whether text has a URL scheme (a drive letter such as C: is not one)."""
    return bool(_SCHEME.match(text))


def resolve_inside(root: Path, rel: str, real_root: Path | None = None) -> Path:
    """The file rel names inside root; raise PathProblem if it is unsafe or leaves the root."""
    escape_hint = "use a path relative to the ledger root, inside it, with forward slashes"
    if not rel or rel != rel.strip():
        raise PathProblem("SC404", f"path '{rel}' is empty or has surrounding spaces", escape_hint)
    if "\\" in rel:
        raise PathProblem("SC404", f"path '{rel}' contains a backslash", escape_hint)
    if rel.startswith("/") or _DRIVE.match(rel):
        raise PathProblem("SC404", f"path '{rel}' is absolute", escape_hint)
    if "\x00" in rel or any(part == ".." for part in rel.split("/")):
        raise PathProblem("SC404", f"path '{rel}' leaves the ledger root", escape_hint)
    if any(part.casefold() in _VCS_FOLDED for part in rel.split("/")):
        raise PathProblem("SC407", f"path '{rel}' is inside a version-control folder",
                          "cite a file of the ledger itself; nothing under .git/ (or .hg/, .svn/) is ever read "
                          "or published")
    path = root / rel
    real = real_path(path, rel)
    inside = real_root or root.resolve()
    if not real.is_relative_to(inside):
        raise PathProblem("SC404", f"path '{rel}' goes through a symlink that leaves the ledger root", _LINK_HINT)
    if any(part.casefold() in _VCS_FOLDED for part in real.relative_to(inside).parts):
        raise PathProblem("SC407", f"path '{rel}' is a symlink into a version-control folder", _LINK_HINT)
    return path


_WINDOWS_DEVICES = frozenset({"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$",
                              *(f"{d}{i}" for d in ("COM", "LPT") for i in [*range(10), "¹", "²", "³"])})
_WINDOWS_RESERVED = set('<>:"\\|?*')


def windows_problem(rel: str) -> str | None:
    """Why a ledger path cannot be checked out (or a site file written) on Windows, or None: a device name (CON,
    PRN, AUX, NUL, COM0-9, LPT0-9, with any extension), one of <>:"\\|?*, or a trailing dot or space."""
    for part in rel.split("/"):
        if part.split(".")[0].strip().upper() in _WINDOWS_DEVICES:
            return f"'{part}' is a Windows device name"
        bad = sorted(_WINDOWS_RESERVED & set(part))
        if bad:
            return f"'{part}' holds {''.join(bad)!r}, which Windows does not allow in a name"
        if part.endswith((".", " ")) and part not in (".", ".."):
            return f"'{part}' ends with a dot or a space, which Windows drops"
    return None


def real_path(path: Path, rel: str) -> Path:
    """path with every symlink resolved (a dangling one's target named, as it would be created); PathProblem on a
    symlink loop."""
    try:
        return path.resolve(strict=True)
    except (RuntimeError, OSError) as exc:  # a loop: RuntimeError before Python 3.13, ELOOP from it
        loop: BaseException = exc
        if isinstance(exc, OSError) and exc.errno != errno.ELOOP:
            try:
                return path.resolve()  # missing (a dangling link), or not to be listed: resolved as far as it goes
            except (RuntimeError, OSError) as again:
                loop = again
    raise PathProblem("SC404", f"path '{rel}' is a symlink loop ({loop})", _LINK_HINT) from None


def inside_root(path: Path, real_root: Path, rel: str) -> Path:
    """The real path of path; PathProblem if it is a symlink that leaves real_root, loops, or leads into a
    version-control folder (a record, a category folder or scorecard.yaml linked into .git/ is never read)."""
    real = real_path(path, rel)
    if not real.is_relative_to(real_root):
        raise PathProblem("SC404", f"'{rel}' is a symlink that leaves the ledger root", _LINK_HINT)
    if any(part.casefold() in _VCS_FOLDED for part in real.relative_to(real_root).parts):
        raise PathProblem("SC407", f"'{rel}' is a symlink into a version-control folder", _LINK_HINT)
    return real


def file_kind(path: Path) -> tuple[str, int]:
    """('file', 'dir', 'missing' or 'special' (a FIFO, device or socket), size), following symlinks, never blocking."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "missing", 0
    except OSError as exc:
        if exc.errno in (errno.ENOTDIR, errno.ENAMETOOLONG):
            return "missing", 0
        raise
    if stat.S_ISREG(info.st_mode):
        return "file", info.st_size
    return ("dir" if stat.S_ISDIR(info.st_mode) else "special"), 0


def read_regular(path: Path | str, rel: str, limit: int) -> bytes:
    """The bytes of a regular file of at most limit bytes; PathProblem for anything else.

    The file is opened non-blocking (a FIFO cannot hang the run) and checked with fstat on the
    open descriptor, so what is read is what was checked. FileNotFoundError and other OSErrors
    (permissions) propagate for the caller to word.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            if stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
            raise PathProblem("SC406", f"'{rel}' is not a regular file (a FIFO, device or socket)",
                              "commit an ordinary file in its place")
        if info.st_size > limit:
            raise PathProblem("SC408", f"'{rel}' is {info.st_size:,} bytes, over the {limit:,}-byte limit",
                              "cite a smaller artifact (summarise the raw output), or keep the large file out of "
                              "the ledger")
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:  # it grew while being read
            raise PathProblem("SC408", f"'{rel}' is over the {limit:,}-byte limit", "cite a smaller artifact")
        return data
    finally:
        os.close(fd)


def read_unlinked(path: Path, limit: int) -> bytes:
    """read_regular for a file a command edits in place (a README, a .gitignore): never one that is itself a
    symlink (PathProblem SC404), so what is read and then replaced is the file named."""
    if stat.S_ISLNK(os.lstat(path).st_mode):
        raise PathProblem("SC404", f"'{path.name}' is a symlink", "name the file it points to")
    return read_regular(path, path.name, limit)


def name_suffix(rel: str) -> str:
    """The lowercase suffix of a path's last name ('.json'), or '' when it has none."""
    name = rel.rsplit("/", 1)[-1]
    return "." + name.rsplit(".", 1)[-1].lower() if "." in name else ""


def normalise(rel: str) -> str:
    """rel with ./ and empty segments removed, for comparing and linking."""
    return "/".join(part for part in rel.split("/") if part not in ("", "."))


def env_count(name: str, default: int) -> int:
    """A limit set by whoever runs scorecard (never by the ledger): the environment's positive whole number, at
    least 1, else default where it is not one."""
    try:
        return max(1, int(os.environ.get(name, default)))
    except ValueError:
        return default


def builtin_templates() -> Path:
    """The theme shipped in the wheel (scorecard/templates), or templates/ in a source checkout."""
    here = Path(__file__).resolve().parents[1]
    for candidate in (here / "templates", here.parent / "templates"):
        if (candidate / "base.html").is_file():
            return candidate
    raise FileNotFoundError("the built-in templates are missing from the installation")


def cache_home() -> Path | None:
    """The folder that holds all of scorecard's caches (made or not), or None where there is no absolute one."""
    home = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(home) if os.path.isabs(home) else Path.home() / ".cache"
    return base / "scorecard" if base.is_absolute() else None


def user_cache_dir(name: str) -> Path | None:
    """A folder of the user's cache only this user can write, or None where that cannot be had.

    What is kept there (compiled templates) is loaded as code, so, as CPython does for its own
    caches, the folder must be an absolute path, a real folder (not a symlink) owned by the
    current user and not writable by group or others, as must the scorecard folder holding it.
    A relative XDG_CACHE_HOME is ignored, as the XDG specification says.
    """
    getuid = getattr(os, "getuid", None)
    base = cache_home()
    if getuid is None or os.environ.get("SCORECARD_NO_CACHE") or base is None:
        return None
    folder = base / name
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        for part in (folder.parent, folder):
            info = os.lstat(part)
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != getuid() or info.st_mode & 0o022:
                return None
    except (OSError, RuntimeError):
        return None
    return folder


class EditRefused(OSError):
    """An existing file that may not be edited: reached through a symlink, not a regular file, or changed since it
    was read."""


def remove_tree(path: str | Path) -> None:
    """Remove the folder at path and what it holds, as far as it can be removed."""
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def new_temporary(folder: Path) -> tuple[int, str]:
    """A new file of this user's alone in folder, open for writing: tempfile.mkstemp's guarantees (a random name,
    created exclusively, a symlink never followed) without importing tempfile and random for one file."""
    for _ in range(100):
        name = os.path.join(folder, f".tmp-{os.urandom(8).hex()}")
        try:
            return os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
                           | getattr(os, "O_BINARY", 0), 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name in {folder}")


def write_atomic(path: Path, *chunks: bytes) -> bool:
    """Write the chunks as the file at path, through a new temporary file renamed over it: readers see the old
    file or the whole new one. False on failure, which leaves no file behind."""
    tmp = None
    try:
        fd, tmp = new_temporary(path.parent)
        with os.fdopen(fd, "wb") as fh:
            for chunk in chunks:
                fh.write(chunk)
        os.replace(tmp, path)
        tmp = None
        return True
    except OSError:
        return False
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def write_checked(path: Path, value: object, head: bytes = b"") -> bool:
    """value marshalled (data only, never code) into the file at path, atomically, after head and a digest of its
    payload; False if it cannot be written. read_checked gives it back only while both check out."""
    try:
        payload = marshal.dumps(cast(Any, value))
    except ValueError:  # a value marshal cannot write
        return False
    return write_atomic(path, head, blake2b(payload, digest_size=CHECK_DIGEST).digest(), payload)


def read_checked(path: Path, limit: int, head: bytes = b"") -> object | None:
    """What write_checked wrote at path with this head, or None when the file is missing, has another head, is
    damaged, is over limit, or is no regular file (read as every file is: non-blocking, bounded)."""
    try:
        data = read_regular(path, path.name, len(head) + CHECK_DIGEST + limit)
    except (OSError, PathProblem):
        return None
    payload = data[len(head) + CHECK_DIGEST:]
    if data[:len(head)] != head or blake2b(payload, digest_size=CHECK_DIGEST).digest() != \
            data[len(head):len(head) + CHECK_DIGEST]:
        return None
    try:
        return marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None


def check_editable(path: Path, root: Path, original: bytes) -> None:
    """EditRefused unless path is a regular file below root, reached through no symlink (root itself is the user's
    choice), and still holds exactly original."""
    rel = path.relative_to(root)
    here = root
    for part in rel.parts:
        here = here / part
        try:
            st = os.lstat(here)
        except OSError as exc:
            raise EditRefused(f"{rel.as_posix()}: cannot be read again ({exc.strerror}); nothing was written") from None
        if stat.S_ISLNK(st.st_mode):
            raise EditRefused(f"{rel.as_posix()}: reached through a symlink ({here.relative_to(root).as_posix()}); "
                              "nothing was written: edit the file the link names by hand")
    if not stat.S_ISREG(st.st_mode):
        raise EditRefused(f"{rel.as_posix()}: not a regular file; nothing was written")
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        now = handle.read(len(original) + 1)
    if now != original:
        raise EditRefused(f"{rel.as_posix()}: changed since it was read; nothing was written: run the command again")
