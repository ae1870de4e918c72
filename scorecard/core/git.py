"""The little git the ledger needs: where the repository is, first-parent history, blobs, file dates.

Every call is one `git` process with machine-readable (NUL-separated) output; nothing here
touches the network. Problems (no git, not a repository, a bad revision) are GitError with a
sentence a user can act on, never a traceback.

Only read-only plumbing is run, with the options that stop a repository's own configuration
from starting a program (core.fsmonitor, gpg for signatures); `git status`, which runs
fsmonitor hooks and clean filters, is never run: whether a file is committed unchanged is
decided by hashing it here and comparing with the blob in HEAD.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
from dataclasses import field
from datetime import date, datetime
from pathlib import Path

from .structs import slotted
from .dates import clamp_epoch, utc, utc_date
from .paths import env_count


class GitError(Exception):
    """git is missing, the folder is not in a repository, or a git command failed."""


# Global options for every git run: no repository-configured program runs for a read-only query, and
# nothing is fetched. A repository's own .git/config is the pull request's (an archive with .git, a fork's
# branch): it must not start fsmonitor, a pager, a hook, a credential helper, a signature program, or the
# upload-pack command of a promisor remote, which a lazy fetch of a missing object would run. Every transport
# is refused (protocol.allow=never, and GIT_ALLOW_PROTOCOL empty, which a repository's protocol.<name>.allow
# cannot override), replace refs and grafts are ignored (they would change which commits and files are read),
# and the log is UTF-8 whatever i18n.logOutputEncoding says.
SAFE_OPTIONS = ("--no-pager", "--no-replace-objects",
                "-c", "core.quotepath=off", "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false",
                "-c", "log.showSignature=false", "-c", "diff.external=", "-c", "core.pager=cat",
                "-c", f"core.hooksPath={os.devnull}", "-c", "credential.helper=", "-c", "core.askPass=",
                "-c", "core.sshCommand=false", "-c", "protocol.allow=never",
                *(x for name in ("file", "git", "ssh", "http", "https", "ext")
                  for x in ("-c", f"protocol.{name}.allow=never")),
                "-c", "i18n.logOutputEncoding=UTF-8", "-c", "log.mailmap=false", "-c", "gc.auto=0",
                "-c", "maintenance.auto=false")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(GIT_OPTIONAL_LOCKS="0", GIT_TERMINAL_PROMPT="0", GIT_PAGER="cat", GIT_NO_LAZY_FETCH="1",
               GIT_ALLOW_PROTOCOL="", GIT_NO_REPLACE_OBJECTS="1", GIT_GRAFT_FILE=os.devnull, GIT_ASKPASS="",
               SSH_ASKPASS="", GIT_SSH_COMMAND="false", GIT_PROTOCOL_FROM_USER="0")
    for name in ("GIT_EXTERNAL_DIFF", "GIT_DIR", "GIT_WORK_TREE", "GIT_SSH", "GIT_PROXY_COMMAND"):
        env.pop(name, None)
    return env


def run(args: list[str], cwd: Path, stdin: bytes | None = None) -> bytes:
    """The stdout of `git args` in cwd; GitError with git's own message when it fails."""
    try:
        proc = subprocess.run(["git", *SAFE_OPTIONS, *args], cwd=cwd, input=stdin, env=_env(),
                              capture_output=True, timeout=600)
    except FileNotFoundError:
        raise GitError("git is not installed (it is needed for this command)") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git {' '.join(args[:2])} took longer than 10 minutes") from None
    if proc.returncode != 0:
        raise GitError(proc.stderr.decode(errors="replace").strip() or f"git {' '.join(args)} failed")
    return proc.stdout


def repo_prefix(folder: Path) -> tuple[Path, str]:
    """(top of the work tree holding folder, folder relative to it with a trailing '/', or '').

    Below the command line, ask a ledger's place (core.place.LedgerPlace.repo), which asks git once.
    """
    try:
        top = Path(run(["rev-parse", "--show-toplevel"], folder).decode().strip())
    except GitError as exc:
        if "not a git repository" in str(exc).lower():
            raise GitError(f"{folder} is not inside a git repository") from None
        raise
    rel = folder.resolve().relative_to(top.resolve()).as_posix()
    return top, "" if rel == "." else rel + "/"


def is_shallow(top: Path) -> bool:
    """Whether the repository is a shallow clone (its oldest commits are missing)."""
    return run(["rev-parse", "--is-shallow-repository"], top).strip() == b"true"


@slotted
class Change:
    """One file a commit changed, relative to the ledger root: status A/M/D/R/C/T, paths, new blob."""

    status: str
    path: str
    old_path: str | None  # for renames and copies
    blob: str  # the new blob id ('' when deleted)
    old_blob: str = ""  # the blob it replaced ('' when added)


@slotted
class Commit:
    """A first-parent commit that touched the ledger."""

    sha: str
    time: int  # committer time, seconds since the epoch
    subject: str
    changes: list[Change] = field(default_factory=list)
    undated: bool = False  # git could not parse its date: it is dated as the commit before it (walk says so)

    @property
    def short(self) -> str:
        """The abbreviated id shown to readers."""
        return self.sha[:7]

    @property
    def when(self) -> datetime:
        """The commit time in UTC."""
        return utc(self.time)


_NULL_BLOB = "0" * 40
# C0 and C1 control characters: illegal in XML 1.0 (the feed) and escape sequences in a terminal.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean_subject(raw: bytes) -> str:
    """A commit subject as text safe to show anywhere: control characters become U+FFFD."""
    return _CONTROL.sub("\ufffd", raw.decode("utf-8", "replace"))


def first_parent_log(top: Path, prefix: str, paths: list[str], rev: str = "HEAD") -> list[Commit]:
    """Oldest first, the first-parent commits up to rev that change prefix/paths, with their changes.

    Merges are diffed against their first parent, renames are detected (-M), and the first
    commit of a (possibly shallow) history lists every file as added.
    """
    out = run(["log", "--first-parent", "--reverse", "--root", "-M", "--raw", "-z", "--no-abbrev",
               "--diff-merges=first-parent", "--format=%x01%H%x00%ct%x00%s", rev, "--",
               *(prefix + p for p in paths)], top)
    tokens = out.split(b"\0")
    commits: list[Commit] = []
    i = 0
    n = len(tokens)
    while i < n:
        token = tokens[i].lstrip(b"\n")
        if token.startswith(b"\x01"):
            stamp = _epoch(tokens[i + 1])
            when = stamp if stamp is not None else (commits[-1].time if commits else 0)
            commits.append(Commit(token[1:].decode(), when, clean_subject(tokens[i + 2]), undated=stamp is None))
            i += 3
            continue
        if token.startswith(b":"):
            fields = token[1:].split(b" ")
            status = fields[4][:1].decode()
            blob, old_blob = fields[3].decode(), fields[2].decode()
            if status in ("R", "C"):
                old, new = tokens[i + 1].decode("utf-8", "replace"), tokens[i + 2].decode("utf-8", "replace")
                i += 3
            else:
                old, new = None, tokens[i + 1].decode("utf-8", "replace")
                i += 2
            commits[-1].changes.append(Change(status, _strip(new, prefix), old and _strip(old, prefix),
                                              "" if blob == _NULL_BLOB else blob,
                                              "" if old_blob == _NULL_BLOB else old_blob))
            continue
        i += 1  # the empty token after a commit without changes, or the end
    return commits


def _epoch(raw: bytes) -> int | None:
    """A commit time as git prints it (%ct), clamped to the dates a page can show; None when git could not parse
    the commit's date (it prints nothing): a crafted commit must not stop a history or a build."""
    text = raw.strip()
    return clamp_epoch(int(text)) if text.lstrip(b"-").isdigit() else None


def _strip(path: str, prefix: str) -> str:
    return path[len(prefix):] if prefix and path.startswith(prefix) else path


_CONTROL_OR_NEWLINE = re.compile(r"[\x00-\x1f\x7f]")
MAX_BLOB_BYTES = 16 * 1024 * 1024  # the artifact cap (core.paths): no past version is read beyond it
MAX_VERSIONS = 500  # past file versions parsed per run (history, stamp explanations): SCORECARD_MAX_VERSIONS


def version_limit() -> int:
    """How many past file versions one run may parse: SCORECARD_MAX_VERSIONS (a positive whole number), else 500.

    Set by whoever runs scorecard, never by the ledger: a pull request cannot raise it."""
    return env_count("SCORECARD_MAX_VERSIONS", MAX_VERSIONS)


class BlobReader:
    """Blobs read on demand through long-lived `git cat-file` processes: --batch-check asks each blob's size first,
    and --batch reads only one within the cap, so a 150 MB past artifact is never read (issue 40 item 4)."""

    def __init__(self, top: Path):
        self._procs = [self._start(top, "--batch-check"), self._start(top, "--batch")]
        self.oversized: list[str] = []  # what was asked for and not read: over the cap (name or id as asked)

    @staticmethod
    def _start(top: Path, mode: str) -> subprocess.Popen:
        try:
            proc = subprocess.Popen(["git", *SAFE_OPTIONS, "cat-file", mode], cwd=top, env=_env(),
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        except FileNotFoundError:
            raise GitError("git is not installed (it is needed for this command)") from None
        assert proc.stdin is not None and proc.stdout is not None  # both are pipes
        return proc

    def size(self, sha: str) -> int | None:
        """The size of the object sha names, or None when the repository does not have it (or the name could not be
        one: a control character, a line break above all, would be read by git as two requests, and the reader
        would fall a response behind: a deadlock, or a blob read past the cap)."""
        if not sha or _CONTROL_OR_NEWLINE.search(sha):
            return None
        check = self._procs[0]
        assert check.stdin is not None and check.stdout is not None
        check.stdin.write(sha.encode() + b"\n")
        check.stdin.flush()
        header = check.stdout.readline().split()
        return int(header[2]) if len(header) >= 3 and header[2].isdigit() else None

    def read(self, sha: str, limit: int = MAX_BLOB_BYTES) -> bytes | None:
        """The blob's content; None when the repository does not have it (a shallow clone) or it is over limit
        bytes (then named in oversized)."""
        size = self.size(sha)
        if size is None:
            return None
        if size > limit:
            self.oversized.append(sha)
            return None
        batch = self._procs[1]
        assert batch.stdin is not None and batch.stdout is not None
        batch.stdin.write(sha.encode() + b"\n")
        batch.stdin.flush()
        header = batch.stdout.readline().split()
        if len(header) < 3:
            return None
        data = batch.stdout.read(int(header[2]))
        batch.stdout.read(1)  # the newline after the content
        return data

    def close(self) -> None:
        """End the git processes."""
        for proc in self._procs:
            if proc.poll() is None:
                assert proc.stdin is not None
                proc.stdin.close()
                proc.wait(timeout=30)
            if proc.stdout is not None:
                proc.stdout.close()

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def log_names(top: Path, specs: list[str], field: str = "%H") -> list[tuple[str, list[str]]]:
    """Newest first, each commit that changed specs: (the format field's value, the paths it changed)."""
    out = run(["log", f"--format=%x01{field}", "--name-only", "-z", "--", *specs], top)
    commits: list[tuple[str, list[str]]] = []
    for token in out.split(b"\0"):
        token = token.strip(b"\n")
        if token.startswith(b"\x01"):
            head, _, token = token[1:].partition(b"\n")
            commits.append((head.decode(), []))
        if token and commits:
            commits[-1][1].append(token.decode("utf-8", "replace"))
    return commits


def last_commit_date(top: Path, prefix: str, paths: list[str]) -> date | None:
    """The date of the newest commit that changed any of the paths under prefix in the repository at top, or None
    (no commit). GitError when git fails."""
    out = run(["log", "-1", "--format=%ct", "--", *(prefix + p for p in paths)], top).strip()
    epoch = _epoch(out)
    return utc_date(epoch) if epoch is not None else None


def blob_id(data: bytes) -> str:
    """The id git gives a blob of these bytes (SHA-1 of the object header and content)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def last_change_dates(top: Path, prefix: str, folder: str) -> dict[str, tuple[date, str]]:
    """For each file under prefix + folder in HEAD, (the date of the newest commit that changed it, its blob id),
    by its path below prefix.

    One `git ls-tree` and one `git log` for the whole folder, however many files it holds. The
    caller compares the blob id with the file it read (blob_id) to know it is committed
    unchanged. GitError when git fails (core.place.LedgerPlace words that as no dates).
    """
    spec = prefix + folder
    tree = run(["ls-tree", "-r", "-z", "--full-tree", "HEAD", "--", spec], top)
    log = log_names(top, [spec], "%ct")
    blobs: dict[str, str] = {}
    for entry in tree.split(b"\0"):
        head, _, path = entry.partition(b"\t")
        parts = head.split()
        if len(parts) == 3 and parts[1] == b"blob":
            blobs[path.decode("utf-8", "replace")] = parts[2].decode()
    dates: dict[str, tuple[date, str]] = {}
    for stamp, names in log:
        epoch = _epoch(stamp.encode())
        if epoch is None:  # a commit git cannot date: the file's date comes from another commit, or none
            continue
        when = utc_date(epoch)
        for name in names:
            if name not in dates and name in blobs:
                dates[name] = (when, blobs[name])  # the log is newest first: the first date seen is the last change
    return {p[len(prefix):]: d for p, d in dates.items() if p.startswith(prefix)}
