"""Render stage, pure: a resolved ledger -> {site path: bytes}. Touches no disk but templates.

Output layout (category slugs cannot start with "_", so nothing here can clash with one):
  index.html, data.json, search.json, .nojekyll
  <category>/index.html, <category>/data.json
  _assets/style.css, _assets/site.js
  _files/<ledger path>        every cited evidence file and trace document, as committed
  _files/<ledger path>.html   a readable page of each JSON (cited pointers highlighted) and Markdown file
  _badges/<id>.svg, _badges/<category>.svg
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from jinja2 import (BaseLoader, BytecodeCache, ChoiceLoader, Environment, FileSystemBytecodeCache, FileSystemLoader,
                    StrictUndefined, TemplateError, TemplateNotFound)
from jinja2.loaders import split_template_path
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup

from . import __version__
from .evidence import escape_token
from .paths import PathProblem, inside_root, name_suffix, read_regular, user_cache_dir
from .numfmt import fmt_number, fmt_percent, fmt_range, fmt_ratio, fmt_value
from .model import GLYPHS, STATUSES
from .resolve import ResolvedCategory, ResolvedDimension, ResolvedLedger

SCHEMA_VERSION = 1
# The only files copied raw into the site: data, plain text and images that cannot script, by
# their (case-insensitive) suffix. Anything else a trace cites (HTML, SVG, XHTML, scripts, PDFs,
# archives...) gets a page showing it as escaped text, or saying it is not shown: a browser must
# never run or style with a file a pull request added, on the site's own origin.
RAW_SUFFIXES = frozenset({".json", ".md", ".txt", ".text", ".log", ".csv", ".tsv", ".yaml", ".yml", ".toml",
                          ".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif"})
VIEWED_SUFFIXES = frozenset({".json", ".md"})  # a readable page beside the raw copy
ASSETS = ("style.css", "site.js", "favicon.svg")
_SAFE_SCHEMES = ("http", "https", "mailto")
_SCHEME = re.compile(r"^\s*([a-zA-Z][a-zA-Z0-9+.\-]*):")
STATUS_LABELS = {"leads": "leads", "parity": "parity", "trails": "trails", "simulated": "simulated",
                 "no-claim": "no claim", "out-of-scope": "out of scope"}


# Characters XML 1.0 forbids, and the C1 controls HTML treats as parse errors: a ledger's text
# holding one is shown with U+FFFD, so every page and the feed stay well-formed whatever the input.
_NOT_MARKUP = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def markup_bytes(text: str) -> bytes:
    """A rendered page or feed as UTF-8, with characters markup cannot hold replaced."""
    return _NOT_MARKUP.sub("\ufffd", text).encode("utf-8")


def carried_as(rel: str) -> str:
    """How the site carries a cited file: 'viewed' (raw copy and a page), 'raw' (copy only) or 'text' (page only)."""
    suffix = name_suffix(rel)
    if suffix in VIEWED_SUFFIXES:  # the JSON viewer shows only what was read as JSON: a lowercase .json
        return "viewed" if suffix != ".json" or rel.endswith(".json") else "raw"
    return "raw" if suffix in RAW_SUFFIXES else "text"


def builtin_templates() -> Path:
    """The theme shipped in the wheel (scorecard/templates), or templates/ in a source checkout."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "templates", here.parent / "templates"):
        if (candidate / "base.html").is_file():
            return candidate
    raise FileNotFoundError("the built-in templates are missing from the installation")


# --- untrusted Markdown ---------------------------------------------------------------------

def _safe_link(url: str) -> bool:
    # Relative links and the allowlisted schemes only; javascript:, data:, vbscript:, file: are dropped.
    m = _SCHEME.match(url)
    return m is None or m.group(1).lower() in _SAFE_SCHEMES


@functools.lru_cache(maxsize=1)
def _markdown():
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.disable("image")  # an image would be an external request from the reader's browser
    md.validateLink = _safe_link
    return md


# Text with none of these characters, and no line starting like a block (list, heading, rule...),
# is a plain paragraph in CommonMark: it is escaped without running the parser.
_MARKDOWN_CHARS = frozenset("\\`*_[]<>&!#|~=\n\r\t")
_BLOCK_START = frozenset("-+0123456789")


def _plain(text: str) -> bool:
    return text == text.strip() and bool(text) and text[0] not in _BLOCK_START and _MARKDOWN_CHARS.isdisjoint(text)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


@functools.lru_cache(maxsize=65536)
def markdown_block(text: str | None) -> Markup:
    """Markdown rendered as block HTML, raw HTML off, links allowlisted; cached by content."""
    if text and _plain(text):
        return Markup(f"<p>{_escape(text)}</p>\n")
    return Markup(_markdown().render(text or ""))


@functools.lru_cache(maxsize=65536)
def markdown_inline(text: str | None) -> Markup:
    """Markdown rendered inline (no paragraph), with the same safety as markdown_block."""
    if text and _plain(text):
        return Markup(_escape(text))
    return Markup(_markdown().renderInline(text or ""))


@functools.lru_cache(maxsize=1)
def _title_markdown():
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).disable(["link", "image", "autolink"])


_TITLE_MARKUP = re.compile(r"[`*_\\&<]")


def title_html(text: str | None) -> Markup:
    """A title's inline Markdown (code, emphasis) as HTML; never a link, so it can sit inside one."""
    if not text or not _TITLE_MARKUP.search(text):
        return Markup(_escape(text or ""))
    return Markup(_title_markdown().renderInline(text))


def title_text(text: str | None) -> str:
    """A title as plain text (Markdown marks removed), for <title>, labels, badges and the feed."""
    if not text or not _TITLE_MARKUP.search(text):
        return text or ""
    import html

    return html.unescape(re.sub(r"<[^>]+>", "", _title_markdown().renderInline(text)))


def brief(text: str, limit: int = 180) -> str:
    """The first sentence of text (at most about limit characters), for the index."""
    flat = " ".join(text.split())
    m = re.search(r"(?<=[.;])\s", flat)
    first = flat[: m.start()] if m else flat
    if len(first) > limit:
        cut = first.rfind(" ", 0, limit)
        first = first[: cut if cut > 0 else limit]
    if first != flat:
        first = first.rstrip(",;: ") + " …"
    return first


# --- numbers ---------------------------------------------------------------------------------

def measured_text(d: ResolvedDimension) -> str:
    """The claimed value as a reader wants it: 81.2 ms, with its interval and n where it has them."""
    m = d.measured.measurement
    return fmt_value(m.value, m.unit)


def measured_detail(d: ResolvedDimension) -> str:
    """What qualifies the value: '95% CI 29.9–30.4 ms, n = 10', 'median of n = 10 runs, range …', or ''."""
    m = d.measured.measurement
    s = m.summary
    if m.interval_from == "artifact":
        return f"interval {fmt_range(m.low, m.high, m.unit, m.value)} reported by the artifact"
    if s is None:
        return ""
    runs = f"{s.stat} of n = {s.n} runs"
    if m.interval_from == "ci":
        return f"{runs}; {fmt_percent(m.coverage or 0)} CI {fmt_range(m.low, m.high, m.unit, m.value)}"
    return f"{runs}; range {fmt_range(s.lowest, s.highest, m.unit, m.value)}"


def pointer_anchor(pointer: str) -> str:
    """The element id (and fragment) for a JSON pointer on an evidence page: no spaces, URL-safe."""
    return "p" + quote(pointer, safe="/~-._!$'()*+,;=:@")


# --- charts -----------------------------------------------------------------------------------

def bullet_chart(d: ResolvedDimension) -> dict | None:
    """Geometry of the result-against-bar chart (drawn by the macros template), or None.

    Everything is in the bar's unit; an interval is drawn as a whisker across the result's end.
    """
    c = d.comparison
    if c is None or d.measured is None:
        return None
    ends = [abs(c.bar), abs(c.value)] + ([abs(c.low), abs(c.high)] if c.low is not None else [])
    top = max(ends) * 1.15 or 1.0
    width = 240

    def x(v: float) -> float:
        return round(max(v, 0) / top * width, 1)

    interval = None
    if c.low is not None and c.high is not None:
        interval = {"low_x": x(c.low), "high_x": x(c.high)}
    detail = measured_detail(d)
    return {"width": width, "value_x": x(c.value), "bar_x": x(c.bar), "interval": interval,
            "label": f"{fmt_value(c.value, c.unit)}{f' ({detail})' if detail else ''} against the bar of "
                     f"{fmt_value(c.bar, c.unit)}; {c.better} is better; {standing_text(d)}"}


def standing_text(d: ResolvedDimension) -> str:
    """'37% ahead of the bar', 'level with the bar (2.4% behind, within tolerance)', '23.3% behind the bar'."""
    c = d.comparison
    if c is None:
        return ""
    side = "ahead" if c.margin > 0 else "behind"
    if c.standing == "level":
        inside = c.low is not None and abs(c.margin) > c.tolerance
        why = "the interval reaches the bar" if inside else "within tolerance"
        return f"level with the bar ({fmt_percent(c.margin)} {side}, {why})"
    return f"{fmt_percent(c.margin)} {side} the bar" if c.standing == "behind" else f"{fmt_percent(c.margin)} ahead of the bar"


def counts_chart(counts: dict[str, int]) -> dict:
    """Geometry of the stacked status bar for counts."""
    total = sum(counts.values()) or 1
    width, x, parts = 300, 0.0, []
    for status in STATUSES:
        n = counts.get(status, 0)
        if n:
            w = round(n / total * width, 1)
            parts.append({"status": status, "x": round(x, 1), "width": w, "count": n})
            x += w
    label = ", ".join(f"{counts[s]} {STATUS_LABELS[s]}" for s in STATUSES if counts.get(s))
    return {"width": width, "parts": parts, "label": label or "no dimensions"}


def overview_chart(led: ResolvedLedger) -> dict | None:
    """Where we stand in one picture: per category, its status bar and each compared dimension's
    position against its bar on one shared, direction-aware log axis (1 = the bar; ahead is to
    the right whatever `better` is). None when no dimension is compared with a bar."""
    points = [(cat, d, 1 + d.comparison.margin) for cat in led.categories for d in cat.dimensions
              if d.comparison is not None]
    if not points:
        return None
    lows = [max(p, 1e-9) for _, _, p in points]
    span = max(2.0, *(max(p, 1 / p) for p in lows))  # symmetric about the bar, at least 2x either way
    span = 2 ** math.ceil(math.log2(span))
    width, left, right, row_h = 640, 150, 16, 28
    plot = width - left - right

    def x(position: float) -> float:
        clamped = min(max(position, 1 / span), span)
        return round(left + (math.log2(clamped) / math.log2(span) + 1) / 2 * plot, 1)

    rows = []
    for i, cat in enumerate(led.categories):
        y = 24 + i * row_h
        dots = []
        for j, d in enumerate(dd for c, dd, _ in points if c is cat):
            pos = 1 + d.comparison.margin
            title, standing = title_text(d.record.model.title), standing_text(d)
            dots.append({"x": x(max(pos, 1e-9)), "y": y + (j % 3 - 1) * 5, "id": d.id, "status": d.status,
                         "href": f"{cat.slug}/index.html#{d.id}", "title": title, "standing": standing,
                         "label": f"{title}: {STATUS_LABELS[d.status]}, {standing}", "position": fmt_ratio(pos)})
        total, at, parts = sum(cat.counts.values()) or 1, left - 64.0, []
        for status in STATUSES:  # the category's status distribution, a small stacked bar before its row
            n = cat.counts.get(status, 0)
            if n:
                parts.append({"status": status, "x": round(at, 1), "width": round(n / total * 56, 1)})
                at += n / total * 56
        rows.append({"slug": cat.slug, "title": title_text(cat.record.model.short or cat.record.model.title),
                     "y": y, "dots": dots, "parts": parts, "counts": counts_chart(cat.counts)["label"]})
    ticks = []
    k = span
    while k >= 1 / span:
        ticks.append({"x": x(k), "label": ("×" if k >= 1 else "÷") + fmt_number(k if k >= 1 else 1 / k)
                      if k != 1 else "the bar"})
        k /= 2
    height = 24 + len(rows) * row_h
    ahead = sum(1 for _, d, p in points if d.comparison.standing == "ahead")
    behind = sum(1 for _, d, p in points if d.comparison.standing == "behind")
    label = (f"{len(points)} dimensions compared with their bars: {ahead} ahead, {behind} behind, "
             f"{len(points) - ahead - behind} level; ahead is to the right, the bar is the middle line")
    return {"width": width, "height": height + 20, "left": left, "plot_right": width - right, "rows": rows,
            "ticks": ticks, "bar_x": x(1), "axis_y": height, "label": label}


# --- JSON views -------------------------------------------------------------------------------

# An artifact larger than this (bytes, or pretty-printed lines) gets a summary page: its cited
# values, meta, size and digest, and the download link; not a page of hundreds of megabytes.
MAX_VIEW_BYTES = 1024 * 1024
MAX_VIEW_LINES = 20000


def _json_or_none(raw: bytes) -> object:
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except (ValueError, RecursionError):
        return None


def cited_values(data: object, cited: dict[str, list[str]]) -> list[dict]:
    """Each cited pointer of a large artifact with its value (shortened) and who cites it."""
    from .evidence import PointerError, resolve_pointer

    out = []
    for pointer, by in sorted(cited.items()):
        try:
            value = json.dumps(resolve_pointer(data, pointer), ensure_ascii=False)
        except (PointerError, ValueError, RecursionError):
            continue
        out.append({"id": pointer_anchor(pointer), "pointer": pointer or "/", "cited_by": by,
                    "value": value if len(value) <= 200 else value[:199] + "…"})
    return out


def json_lines(data: object, cited: dict[str, list[str]]) -> list[dict]:
    """Pretty-printed JSON as lines, each value's first line carrying its pointer's anchor."""
    lines: list[dict] = []

    def emit(value, pointer: str, indent: int, key: str | None, last: bool) -> None:
        prefix = "  " * indent + (json.dumps(key, ensure_ascii=False) + ": " if key is not None else "")
        comma = "" if last else ","
        anchor = {"id": pointer_anchor(pointer), "pointer": pointer or "/", "cited_by": cited.get(pointer, [])}
        if isinstance(value, dict) and value:
            lines.append({"text": prefix + "{", **anchor})
            items = list(value.items())
            for i, (k, v) in enumerate(items):
                emit(v, f"{pointer}/{escape_token(k)}", indent + 1, k, i == len(items) - 1)
            lines.append({"text": "  " * indent + "}" + comma, "id": None, "pointer": None, "cited_by": []})
        elif isinstance(value, list) and value:
            lines.append({"text": prefix + "[", **anchor})
            for i, v in enumerate(value):
                emit(v, f"{pointer}/{i}", indent + 1, None, i == len(value) - 1)
            lines.append({"text": "  " * indent + "]" + comma, "id": None, "pointer": None, "cited_by": []})
        else:
            lines.append({"text": prefix + json.dumps(value, ensure_ascii=False) + comma, **anchor})

    emit(data, "", 0, None, True)
    return lines


# --- the site ---------------------------------------------------------------------------------

class _QuietCache(FileSystemBytecodeCache):
    """Compiled templates in the user's cache folder; a cache that cannot be read or written is skipped."""

    def load_bytecode(self, bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, EOFError, ValueError):
            bucket.reset()

    def dump_bytecode(self, bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def template_cache(sandboxed: bool = False) -> BytecodeCache | None:
    """Jinja's bytecode cache (keyed by template source) in the user's own cache folder, or None.

    Compiling the theme costs about a fifth of a small build, so the compiled code is kept, but
    only in a folder no one else can write (see paths.user_cache_dir): it is loaded as code.
    Sandboxed and plain compilations differ (the sandbox's checks are compiled in), so each has
    its own folder: code compiled without the sandbox is never loaded into it.
    """
    folder = user_cache_dir(f"templates-{__version__}{'-sandboxed' if sandboxed else ''}")
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


class Site:
    """The renderer: a Jinja environment over the ledger's templates, then the built-in theme.

    When the ledger overrides any template, every template renders in Jinja's immutable
    sandbox: a pull request's template cannot reach Python's internals or change the data.
    The built-in theme alone is trusted code and renders unsandboxed (faster).
    """

    def __init__(self, resolved: ResolvedLedger, sandboxed: bool | None = None):
        self.ledger = resolved
        self.theme = builtin_templates()
        self.overrides = resolved.root / "templates"
        self.ledger_templates = LedgerTemplates(self.overrides)
        self.sandboxed = self.ledger_templates.overrides_any() if sandboxed is None else sandboxed
        kind = ImmutableSandboxedEnvironment if self.sandboxed else Environment
        self.env = kind(loader=ChoiceLoader([self.ledger_templates, FileSystemLoader(str(self.theme))]),
                        autoescape=True, undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                        keep_trailing_newline=True, auto_reload=False, bytecode_cache=template_cache(self.sandboxed))
        self.env.filters.update(md=markdown_block, mdi=markdown_inline, brief=brief, num=fmt_number, pct=fmt_percent,
                                ratio=fmt_ratio, title=title_html, plain=title_text)
        self.env.globals.update(fmt_value=fmt_value, bullet_chart=bullet_chart, measured_text=measured_text,
                                measured_detail=measured_detail, counts_chart=counts_chart,
                                standing_text=standing_text, glyphs=GLYPHS, statuses=STATUSES, overview_chart=overview_chart,
                                status_labels=STATUS_LABELS, file_href=self.file_href, trace_href=self.trace_href,
                                evidence_href=self.evidence_href, version=__version__,
                                history_chart=self.history_chart, review_counts=review_counts,
                                dims=self.dimension_links())

    # Links are relative to the page: `base` is "" at the root and "../" one level down.
    def file_href(self, rel: str, base: str) -> str:
        """Link to a carried file: its readable page where there is one, else the file itself."""
        return base + "_files/" + quote(rel) + (".html" if carried_as(rel) != "raw" else "")

    def evidence_href(self, rel: str, pointer: str, base: str) -> str:
        """Link to a pointer's line on an artifact's page."""
        return self.file_href(rel, base) + "#" + pointer_anchor(pointer)

    def trace_href(self, trace, base: str) -> str:
        """Where a trace entry links."""
        if trace.kind == "url":
            return trace.target
        if trace.pointer:
            return self.evidence_href(trace.path, trace.pointer, base)
        return self.file_href(trace.path, base)

    def dimension_links(self) -> dict[str, dict[str, str]]:
        """Each dimension's title and permalink (from the site root), by id: history events link through it."""
        return {d.id: {"title": d.record.model.title, "url": f"{c.slug}/index.html#{d.id}"}
                for c in self.ledger.categories for d in c.dimensions}

    def history_chart(self, h) -> dict | None:
        """The over-time chart of one dimension's history (drawn by the macros template)."""
        from .history import chart

        return chart(h, self.ledger.history.head)

    def history_pages(self) -> Iterator[tuple[str, bytes]]:
        """changes.html, feed.xml and history.json, when the site is built with its history."""
        from .history import as_data

        led = self.ledger
        hist = led.history
        yield "changes.html", self.page("changes.html", "", "changes.html", history=hist)
        base = (led.settings.base_url.rstrip("/") + "/") if led.settings.base_url else ""
        feed_id = base + "feed.xml" if base else "urn:uuid:" + str(uuid.uuid5(uuid.NAMESPACE_URL, f"scorecard-feed:{led.settings.title}"))
        yield "feed.xml", markup_bytes(self.env.get_template("feed.xml").render(
            site={"title": led.settings.title, "subject": led.settings.subject, "base": base},
            feed_id=feed_id, history=hist, entries=hist.events[:FEED_ENTRIES],
            updated=hist.events[0].when if hist.events else hist.head.when.strftime("%Y-%m-%dT%H:%M:%SZ"),
            version=__version__))
        yield "history.json", _json(as_data(hist))

    def page(self, template: str, base: str, path: str, **context) -> bytes:
        """One page rendered with the common context."""
        s = self.ledger.settings
        canonical = (s.base_url.rstrip("/") + "/" + path.removesuffix("index.html")) if s.base_url else None
        site = {"title": s.title, "subject": s.subject, "description": s.description, "base": base,
                "as_of": self.ledger.as_of.isoformat(), "canonical": canonical, "path": path}
        return markup_bytes(self.env.get_template(template).render(site=site, ledger=self.ledger, **context))

    def category_pages(self, cats: list[ResolvedCategory]) -> dict[str, bytes]:
        """The page, export and badges of each category in cats."""
        pages: dict[str, bytes] = {}
        badges: dict[str, bytes] = {}
        for cat in cats:
            pages[f"{cat.slug}/index.html"] = self.page("category.html", "../", f"{cat.slug}/index.html", category=cat)
            pages[f"_badges/{cat.slug}.svg"] = self.badge(title_text(cat.record.model.short or cat.record.model.title),
                                                          _category_badge_text(cat), "summary")
            for d in cat.dimensions:
                # A flat file beside the category page ("card-" keeps any id clear of index.html and
                # data.json): a folder per card would cost a directory per dimension, ten times a file.
                if self.ledger.settings.cards:
                    card = f"{cat.slug}/card-{d.id}.html"
                    pages[card] = self.page("card.html", "../", card, category=cat, d=d)
                if d.status not in badges:  # a dimension badge depends only on the subject and the status
                    badges[d.status] = self.badge(self.ledger.settings.subject, f"{d.glyph} {STATUS_LABELS[d.status]}", d.status)
                pages[f"_badges/{d.id}.svg"] = badges[d.status]
        return pages

    def render(self) -> dict[str, bytes]:
        """Every file of the site, by path."""
        return {rel: data if isinstance(data, bytes) else b"".join(data) for rel, data in sorted(self.iter_pages())}

    def iter_pages(self) -> Iterator[tuple[str, bytes | Iterator[bytes]]]:
        """Every file of the site as (path, content), made as it is consumed (the writer streams them).

        Content is bytes, or for data.json an iterator of byte chunks, so that the export of
        the whole ledger is never held in memory at once.
        """
        led = self.ledger
        yield ".nojekyll", b""
        yield "index.html", self.page("index.html", "", "index.html", categories=led.categories, counts=led.counts)
        yield from _in_parallel(self, led.categories)
        for cat in led.categories:
            yield f"{cat.slug}/data.json", _json({"schema_version": SCHEMA_VERSION, **category_data(cat)})
        yield "data.json", _ledger_json(led)
        yield "search.json", _json(search_index(led))
        yield "data.csv", ledger_csv(led)
        if led.settings.base_url:
            yield "sitemap.xml", sitemap(led)
        if led.history is not None:
            yield from self.history_pages()
        for asset in ASSETS:
            override = self.ledger_templates.read(asset)
            yield f"_assets/{asset}", override if override is not None else (self.theme / asset).read_bytes()
        for rel, raw in led.files.items():
            yield from self.file_pages(rel, raw)

    def file_pages(self, rel: str, raw: bytes) -> Iterator[tuple[str, bytes]]:
        """A cited file as committed, and its readable page (active formats: the page only)."""
        led = self.ledger
        base = "../" * (rel.count("/") + 1)
        how = carried_as(rel)
        if how == "text":
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                text = None
            body = (Markup("<pre>") + text + Markup("</pre>") if text is not None and "\x00" not in text else
                    Markup("<p>") + f"This file ({len(raw):,} bytes, SHA-256 {hashlib.sha256(raw).hexdigest()}) is not "
                    "text, and its type is not one the site publishes; it is kept in the ledger's repository."
                    + Markup("</p>"))
            yield f"_files/{rel}.html", self.page("document.html", base, f"_files/{rel}.html", rel=rel, raw_copy=False,
                                                  body=body)
            return
        yield f"_files/{rel}", raw
        if how == "raw":
            return
        data = _json_or_none(raw) if rel.endswith(".json") else None
        if data is not None:
            cited = led.citations.get(rel, {})
            lines = json_lines(data, cited) if len(raw) <= MAX_VIEW_BYTES else None
            if lines is not None and len(lines) > MAX_VIEW_LINES:
                lines = None
            yield f"_files/{rel}.html", self.page(
                "evidence.html", base, f"_files/{rel}.html", rel=rel, lines=lines,
                cited=None if lines is not None else cited_values(data, cited), size=len(raw),
                sha256=hashlib.sha256(raw).hexdigest(), meta=data.get("meta") if isinstance(data, dict) else None)
        elif rel.endswith(".json"):  # a trace to a file that is not JSON after all: shown as text
            yield f"_files/{rel}.html", self.page("document.html", base, f"_files/{rel}.html", rel=rel, raw_copy=True,
                                                  body=Markup("<pre>") + raw.decode("utf-8", "replace") + Markup("</pre>"))
        else:
            yield f"_files/{rel}.html", self.page("document.html", base, f"_files/{rel}.html", rel=rel, raw_copy=True,
                                                  body=markdown_block(raw.decode("utf-8-sig", "replace")))

    def badge(self, label: str, text: str, status: str) -> bytes:
        """A flat SVG badge; widths estimated from the text length (deterministic)."""
        lw, tw = 12 + 7 * len(label), 12 + 7 * len(text)
        return markup_bytes(self.env.get_template("badge.svg").render(label=label, text=text, status=status, lw=lw, tw=tw))


FEED_ENTRIES = 100


def review_counts(dimensions) -> dict[str, int]:
    """How many dimensions are reviewed and current, suspect, and measured but never reviewed."""
    counts = {"current": 0, "suspect": 0, "never": 0}
    for d in dimensions:
        if d.review in counts:
            counts[d.review] += 1
    return counts


def _category_badge_text(cat: ResolvedCategory) -> str:
    parts = [f"{n} {STATUS_LABELS[s]}" for s, n in cat.counts.items() if n]
    return ", ".join(parts) or "empty"


def _compact(doc: object) -> str:
    # indent= would make json use its pure-Python encoder (5x slower), so exports are compact.
    return json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _json(doc: object) -> bytes:
    return (_compact(doc) + "\n").encode("utf-8")


def _ledger_json(led: ResolvedLedger) -> Iterator[bytes]:
    """data.json in chunks, one category at a time, byte for byte what _json(ledger_data(led)) gives."""
    head = _ledger_head(led)
    yield ('{"as_of":' + _compact(head.pop("as_of")) + ',"categories":[').encode("utf-8")
    for i, cat in enumerate(led.categories):
        yield (("," if i else "") + _compact(category_data(cat))).encode("utf-8")
    rest = ",".join(_compact(k) + ":" + _compact(v) for k, v in sorted(head.items()))
    yield ("]," + rest + "}\n").encode("utf-8")


def dimension_data(d: ResolvedDimension) -> dict:
    """One dimension in the machine-readable export."""
    rec = d.record
    m, c = d.measured, d.comparison
    return {
        "id": d.id, "category": rec.category, "file": rec.file, "url": f"{rec.category}/#{d.id}",
        **rec.model.model_dump(mode="json", exclude={"order"}), "glyph": d.glyph,
        "measured": None if m is None else measured_data(m),
        "comparison": None if c is None else {"ratio": c.ratio, "margin": c.margin, "standing": c.standing, "better": c.better,
                                              "value": c.value, "unit": c.unit, "low": c.low, "high": c.high},
        "not_compared": d.not_compared or None,
        "source_age_months": d.source_age_months, "source_stale": d.source_stale,
        "review": d.review, "review_changes": d.review_changes,
        "evidence_date": d.evidence_date.isoformat() if d.evidence_date else None,
        "evidence_date_from": d.evidence_date_from or None, "evidence_age_months": d.evidence_age_months,
        "evidence_stale": d.evidence_stale,
    }


def measured_data(m) -> dict:
    """The measured value in the export: the number, its interval and runs, and every source."""
    mm = m.measurement
    s = mm.summary
    first = mm.sources[0]
    out = {"value": mm.value, "unit": mm.unit, "evidence": None if mm.expr else first.evidence,
           "pointer": first.selector if not mm.expr and first.kind == "pointer" else None,
           "path": first.selector if not mm.expr and first.kind == "path" else None,
           "meta": first.meta, "simulated": m.simulated, "sample": m.sample,
           "n": mm.n, "stat": s.stat if s else None, "low": mm.low, "high": mm.high,
           "interval": mm.interval_from or None, "coverage": mm.coverage, "expr": mm.expr}
    if mm.expr:
        out["inputs"] = {src.name: {"value": src.value, "unit": src.unit, "evidence": src.evidence, src.kind: src.selector,
                                    "n": src.summary.n if src.summary else 1, "meta": src.meta} for src in mm.sources}
    return out


def category_data(cat: ResolvedCategory) -> dict:
    """One category in the machine-readable export."""
    rec = cat.record
    return {"slug": cat.slug, "file": rec.doc.file if rec.doc else None, **rec.model.model_dump(mode="json"),
            "counts": cat.counts, "dimensions": [dimension_data(d) for d in cat.dimensions]}


def _ledger_head(led: ResolvedLedger) -> dict:
    return {"schema_version": SCHEMA_VERSION, "generator": f"scorecard {__version__}", "as_of": led.as_of.isoformat(),
            "settings": led.settings.model_dump(mode="json"), "counts": led.counts}


def ledger_data(led: ResolvedLedger) -> dict:
    """The whole ledger with resolved values (the content of site/data.json)."""
    return {**_ledger_head(led), "categories": [category_data(c) for c in led.categories]}


# Below this many dimensions a worker process costs more than it saves.
PARALLEL_MIN_DIMENSIONS = 600
_WORKER_SITE: Site | None = None


def _render_chunk(indexes: list[int]) -> dict[str, bytes]:
    site = _WORKER_SITE
    return site.category_pages([site.ledger.categories[i] for i in indexes])


def _in_parallel(site: Site, cats: list[ResolvedCategory]) -> Iterator[tuple[str, bytes]]:
    """Category pages, rendered by forked workers on large ledgers (the output is the same either way)."""
    import multiprocessing
    import os

    workers = min(os.cpu_count() or 1, 4)
    total = sum(len(c.dimensions) for c in cats)
    if workers < 2 or total < PARALLEL_MIN_DIMENSIONS or "fork" not in multiprocessing.get_all_start_methods():
        yield from site.category_pages(cats).items()
        return
    global _WORKER_SITE
    _WORKER_SITE = site  # inherited by the forked workers, never pickled
    try:
        chunks = [list(range(i, min(i + 8, len(cats)))) for i in range(0, len(cats), 8)]
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for part in pool.imap(_render_chunk, chunks):
                yield from part.items()
    finally:
        _WORKER_SITE = None


CSV_COLUMNS = ("id", "category", "title", "status", "claim", "value", "unit", "bar", "bar_unit", "better", "ratio",
               "margin", "source", "source_date", "bar_checked", "evidence", "pointer", "path", "artifact_commit",
               "artifact_date", "url")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _csv_text(value: object) -> str:
    """A text cell a spreadsheet will not run: one starting like a formula gets a leading apostrophe."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(_FORMULA_START) else text


def _csv_number(value: float | None) -> str:
    return "" if value is None else repr(float(value)) if not float(value).is_integer() else str(int(value))


def csv_row(cat_slug: str, d: ResolvedDimension) -> list[str]:
    """One dimension as a data.csv row (columns: CSV_COLUMNS; docs/site.md)."""
    model = d.record.model
    sota, m, c = model.sota, d.measured, d.comparison
    mm = m.measurement if m else None
    first = mm.sources[0] if mm and mm.sources and not mm.expr else None
    meta = first.meta if first else {}
    return [_csv_text(d.id), _csv_text(cat_slug), _csv_text(model.title), d.status, _csv_text(model.claim),
            _csv_number(mm.value if mm else None), _csv_text(mm.unit if mm else None), _csv_number(sota.value),
            _csv_text(sota.unit), sota.better or "", _csv_number(c.ratio if c else None),
            _csv_number(c.margin if c else None), _csv_text(sota.source), sota.date, sota.checked or "",
            _csv_text(first.evidence if first else None),
            _csv_text(first.selector if first and first.kind == "pointer" else None),
            _csv_text(first.selector if first and first.kind == "path" else None),
            _csv_text(meta.get("commit") if isinstance(meta.get("commit"), str) else None),
            d.evidence_date.isoformat() if d.evidence_date else "", f"{cat_slug}/index.html#{d.id}"]


def ledger_csv(led: ResolvedLedger) -> bytes:
    """data.csv: one row per dimension (RFC 4180, UTF-8, CRLF line ends), in the index's order."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for cat in led.categories:
        writer.writerows(csv_row(cat.slug, d) for d in cat.dimensions)
    return out.getvalue().encode("utf-8")


def sitemap(led: ResolvedLedger) -> bytes:
    """sitemap.xml (with base_url: a sitemap needs absolute addresses): the index, every category
    page and every dimension's card, with the ledger's "as of" date."""
    from xml.sax.saxutils import escape

    base = led.settings.base_url.rstrip("/") + "/"
    paths = [""] + [p for c in led.categories for p in [f"{c.slug}/", *(f"{c.slug}/card-{d.id}.html" for d in c.dimensions if led.settings.cards)]]
    if led.history is not None:
        paths.append("changes.html")
    day = led.as_of.isoformat()
    body = "".join(f"<url><loc>{escape(base + quote(p))}</loc><lastmod>{day}</lastmod></url>\n" for p in paths)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
            + body + "</urlset>\n").encode("utf-8")


def search_index(led: ResolvedLedger) -> list[dict]:
    """A small index for tools: id, title, category, status, claim, url."""
    return [{"id": d.id, "title": d.record.model.title, "category": c.slug, "status": d.status,
             "claim": d.record.model.claim, "url": f"{c.slug}/#{d.id}"} for c in led.categories for d in c.dimensions]


def render_site(resolved: ResolvedLedger) -> dict[str, bytes]:
    """Every file of the site, by path."""
    return Site(resolved).render()
