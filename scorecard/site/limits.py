"""A ledger's own templates render in a child process under a memory and a CPU-time limit (issue 40, item 1b).

The sandbox (sandbox.py) keeps a pull request's templates to data; it does not bound what they spend:
`{{ ('x' * 1200000000)|length }}` took 1.2 GB, and a loop can run until the job's timeout. So where a ledger
overrides any template, the pages are rendered in a forked child with RLIMIT_AS (1 GiB by default) and RLIMIT_CPU
(60 s) set, and streamed back over a pipe; the parent writes them as before. Hitting either limit is SC701 ("the
templates ran past the memory limit"), never exit 3. The memory limit is the templates' own: it is set above what
the process already maps when it forks. The built-in theme is not limited. Where the platform has no
fork or no resource limits (Windows), the pages are rendered here, unlimited, and the build says so once.

SCORECARD_TEMPLATE_MEMORY_MB and SCORECARD_TEMPLATE_CPU_SECONDS change the limits (never above a limit the process
already has).

Lazy import: resource, in the child and in available() only (a Unix module; Windows has none).
"""

from __future__ import annotations

import os
import signal
import struct
from collections.abc import Callable, Iterator

from jinja2 import TemplateError

from ..core.paths import env_count
from .themes import TemplateRefused, template_location

MEMORY_MB = 1024
CPU_SECONDS = 60
_HEAD = struct.Struct(">cIQ")  # kind, path length, data length


class LimitExceeded(TemplateError):
    """The ledger's templates ran past a limit (memory or CPU time): SC701 at the template folder."""


class ChildTemplateError(TemplateError):
    """A template's error raised in the child, with its kind (TemplateSyntaxError…), file and line."""

    def __init__(self, kind: str, message: str, filename: str | None, lineno: int | None):
        super().__init__(message)
        self.kind, self.filename, self.lineno = kind, filename, lineno


def limits() -> tuple[int, int]:
    """(memory in bytes, CPU seconds), from the environment or the defaults."""
    return env_count("SCORECARD_TEMPLATE_MEMORY_MB", MEMORY_MB) * 1024 * 1024, \
        env_count("SCORECARD_TEMPLATE_CPU_SECONDS", CPU_SECONDS)


def available() -> bool:
    """Whether this platform can fork and set a process's memory and CPU limits."""
    try:
        import resource  # noqa: F401  (Unix only)
    except ImportError:
        return False
    return hasattr(os, "fork")


Pages = Callable[[], Iterator[tuple[str, "bytes | Iterator[bytes]"]]]


def limited(pages: Pages) -> Iterator[tuple[str, bytes | Iterator[bytes]]]:
    """The pages pages() renders, rendered in a child process under the limits; LimitExceeded past one, and a
    template's own error as a TemplateError carrying its file and line."""
    if not available():
        yield from pages()
        return
    memory, cpu = limits()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: render, stream, and leave without running the parent's exit handlers
        code = 5
        try:
            os.close(read_end)
            code = _child(pages, write_end, memory, cpu)
        except BaseException as exc:  # noqa: BLE001 - whatever happens, the child never returns into the parent's code
            code = _failed(write_end, exc)
        finally:
            os._exit(code)
    os.close(write_end)
    finished = False
    try:
        with os.fdopen(read_end, "rb") as stream:
            yield from _frames(stream)
        finished = True
    finally:
        if not finished:  # an error, or the consumer stopped: the child may be blocked on the pipe
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    _verdict(status, memory, cpu)


def _child(pages: Pages, fd: int, memory: int, cpu: int) -> int:
    import resource

    memory += _address_space()  # the templates' own budget, over what the fork already maps (copied on write)
    for kind, value in ((resource.RLIMIT_AS, memory), (resource.RLIMIT_CPU, cpu)):
        _, hard = resource.getrlimit(kind)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)  # never above a limit already set
        resource.setrlimit(kind, (value, value))
    with os.fdopen(fd, "wb") as out:
        try:
            for path, data in pages():
                _send(out, b"P", path, data if isinstance(data, bytes) else b"".join(data))
        except MemoryError:
            _send(out, b"M", "", b"")
            return 4
        except TemplateRefused as exc:  # a template that may not be read: its own code, file and hint
            _send(out, b"R", f"{exc.code}\n{exc.file}\n{exc.hint}", (exc.message or "").encode("utf-8", "replace"))
            return 3
        except TemplateError as exc:
            if _memory(exc):  # the sandbox reports a MemoryError as a template's runtime error
                _send(out, b"M", "", b"")
                return 4
            name, line = template_location(exc)
            _send(out, b"E", f"{name or ''}\n{line or 0}\n{type(exc).__name__}",
                  str(getattr(exc, "message", None) or exc).encode("utf-8", "replace"))
            return 3
    return 0


def _failed(fd: int, exc: BaseException) -> int:
    """Tell the parent what stopped the child (not a template's error: a fault of scorecard's, shown as one)."""
    try:
        with os.fdopen(fd, "wb", closefd=False) as out:
            _send(out, b"X", type(exc).__name__, str(exc).encode("utf-8", "replace"))
    except OSError:
        pass
    return 5


def _memory(exc: BaseException) -> bool:
    """Whether exc is, or was raised from, a MemoryError."""
    seen: BaseException | None = exc
    for _ in range(20):
        if seen is None:
            return False
        if isinstance(seen, MemoryError) or "MemoryError" in str(seen)[:40]:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _address_space() -> int:
    """This process's virtual memory size in bytes (0 where the system does not say)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmSize:"))
    except (OSError, StopIteration, ValueError):
        return 0


def _send(out, kind: bytes, path: str, data: bytes) -> None:
    raw = path.encode("utf-8", "surrogateescape")
    out.write(_HEAD.pack(kind, len(raw), len(data)) + raw + data)
    out.flush()


def _frames(stream) -> Iterator[tuple[str, bytes | Iterator[bytes]]]:
    while head := stream.read(_HEAD.size):
        if len(head) < _HEAD.size:
            return  # the child was stopped mid-frame: _verdict says why
        kind, size, length = _HEAD.unpack(head)
        path, data = stream.read(size).decode("utf-8", "surrogateescape"), stream.read(length)
        if kind == b"P":
            yield path, data
        elif kind == b"M":
            raise LimitExceeded(f"the ledger's templates ran past the memory limit ({limits()[0] // 2 ** 20} MiB)")
        elif kind == b"X":
            raise RuntimeError(f"the template renderer failed: {path}: {data.decode('utf-8', 'replace')}")
        elif kind == b"R":
            code, file, hint = path.split("\n", 2)
            raise TemplateRefused(code, file, data.decode("utf-8", "replace"), hint)
        else:
            name, line, cls = path.split("\n", 2)
            raise ChildTemplateError(cls, data.decode("utf-8", "replace"), name or None, int(line) or None)


def _verdict(status: int, memory: int, cpu: int) -> None:
    """LimitExceeded where the child was stopped by a limit (or died), after every page it sent was read."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig in (signal.SIGXCPU, signal.SIGKILL):
            raise LimitExceeded(f"the ledger's templates ran past the CPU-time limit ({cpu} s)")
        raise LimitExceeded(f"the ledger's templates stopped the renderer (signal {sig}); the memory limit is "
                            f"{memory // 2 ** 20} MiB")
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) not in (0, 3, 4):
        raise LimitExceeded(f"the ledger's templates stopped the renderer (exit {os.WEXITSTATUS(status)})")
