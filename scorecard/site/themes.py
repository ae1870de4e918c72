"""Templates: the built-in theme, a ledger's own templates (read safely), their bytecode cache,
and template errors turned into findings.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from jinja2 import BaseLoader, BytecodeCache, FileSystemBytecodeCache, TemplateError, TemplateNotFound
from jinja2.loaders import split_template_path

from .. import __version__
from ..core.paths import PathProblem, inside_root, read_regular, user_cache_dir
from ..core.place import LedgerPlace
from ..core.findings import finding


class _QuietCache(FileSystemBytecodeCache):
    """Compiled templates in the user's cache folder; a cache that cannot be read or written is skipped."""

    def load_bytecode(self, bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, EOFError, ValueError):
            bucket.reset()

    def dump_bytecode(self, bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def template_cache(sandboxed: bool = False) -> BytecodeCache | None:
    """Jinja's bytecode cache (keyed by template source) in the user's own cache folder, or None.

    Compiling the theme costs about a fifth of a small build, so the compiled code is kept, but
    only in a folder no one else can write (see paths.user_cache_dir): it is loaded as code.
    Sandboxed and plain compilations differ (the sandbox's checks and its finalize, which refuses to
    print an object, are compiled in), so each has its own folder: code compiled without the sandbox
    is never loaded into it. The folder's name changes with what the sandbox compiles in ("-data":
    templates see data only), so code compiled for an earlier sandbox is never loaded either.
    """
    folder = user_cache_dir(f"templates-{__version__}{'-sandboxed-data' if sandboxed else ''}")
    return _QuietCache(str(folder)) if folder is not None else None


MAX_TEMPLATE_BYTES = 1024 * 1024


class TemplateRefused(TemplateError):
    """A ledger template (or asset) that may not be read: a symlink out, a special file, too large."""

    def __init__(self, code: str, file: str, message: str, hint: str):
        super().__init__(message)
        self.code, self.file, self.hint = code, file, hint

    def __reduce__(self):  # raised in render workers, so it must survive pickling
        return (type(self), (self.code, self.file, self.message, self.hint))


class LedgerTemplates(BaseLoader):
    """The ledger's templates/ folder, read as untrusted input.

    Only regular files whose real path is inside templates/ are read, under a size cap; a
    symlink to /etc/passwd is refused (a finding), never published as a stylesheet.
    """

    def __init__(self, folder: Path):
        self.folder = folder
        self._real: Path | None = None

    def read(self, name: str) -> bytes | None:
        """The bytes of templates/name, None when the ledger does not override it; TemplateRefused if unsafe."""
        pieces = split_template_path(name)
        path = self.folder.joinpath(*pieces)
        if not (path.is_symlink() or path.exists()):
            return None
        rel = "templates/" + "/".join(pieces)
        try:
            if self._real is None:
                self._real = inside_root(self.folder, self.folder.parent.resolve(), "templates")
            inside_root(path, self._real, rel)
            return read_regular(path, rel, MAX_TEMPLATE_BYTES)
        except PathProblem as exc:
            raise TemplateRefused(exc.code, rel, exc.message, exc.hint) from None
        except IsADirectoryError:
            return None
        except OSError as exc:
            raise TemplateRefused("SC701", rel, f"cannot read {rel}: {exc.strerror}", "check the file") from None

    def get_source(self, environment, template):
        raw = self.read(template)
        if raw is None:
            raise TemplateNotFound(template)
        try:
            source = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise TemplateRefused("SC107", "templates/" + template, "the template is not UTF-8 text",
                                  "save it as UTF-8") from None
        return source, str(self.folder.joinpath(*split_template_path(template))), lambda: True

    def overrides_any(self) -> bool:
        """Whether the ledger has a templates/ folder with anything in it; TemplateRefused if it is a link out."""
        if self.folder.is_symlink():
            try:
                self._real = inside_root(self.folder, self.folder.parent.resolve(), "templates")
            except PathProblem as exc:
                raise TemplateRefused(exc.code, "templates", exc.message, exc.hint) from None
        return self.folder.is_dir() and any(True for _ in _iterdir(self.folder))


def _iterdir(folder: Path):
    try:
        yield from folder.iterdir()
    except OSError:
        return


def template_location(exc: BaseException) -> tuple[str | None, int | None]:
    """The template file and line an error was raised at (Jinja maps template frames to them)."""
    name, line = getattr(exc, "filename", None), getattr(exc, "lineno", None)
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        if filename.endswith((".html", ".svg", ".css", ".js", ".xml")):
            name, line = filename, tb.tb_lineno
        tb = tb.tb_next
    return name, line


def keep_location(exc: BaseException) -> None:
    """Pin an error's template and line on it before it crosses to another process (its traceback does not)."""
    exc.filename, exc.lineno = template_location(exc)  # type: ignore[attr-defined]


def template_finding(exc, place: LedgerPlace, theme: Path):
    """A Jinja error as a finding at the template's file and line."""
    if isinstance(exc, TemplateRefused):
        return finding(exc.code, exc.file, (1, 1), exc.message or "", exc.hint)
    name, line = template_location(exc)
    shown = "a template"
    if name:
        path = Path(name)
        for base, prefix in ((place.real, ""), (theme.resolve(), "(built-in theme) templates/")):
            try:
                shown = prefix + path.resolve().relative_to(base).as_posix()
                break
            except ValueError:
                continue
    kind = getattr(exc, "kind", None) or type(exc).__name__  # an error from the limited child keeps its kind
    message = f"{kind}: {exc.message if getattr(exc, 'message', None) else exc}"
    return finding("SC701", shown, (line or 1, 1), message,
                   "fix the template; the templates' context is documented in docs/site.md")
