"""Render stage, pure: a resolved ledger -> {site path: bytes}. Touches no disk but templates (and the
warm cache it is given, whose hits are the very bytes a render makes).

Output layout (category slugs cannot start with "_", so nothing here can clash with one):
  index.html, data.json, search.json, .nojekyll
  <category>/index.html, <category>/data.json
  _assets/style.css, _assets/site.js
  _files/<ledger path>        every cited evidence file and trace document, as committed
  _files/<ledger path>.html   a readable page of each JSON (cited pointers highlighted) and Markdown file
  _badges/<id>.svg, _badges/<category>.svg

Lazy import: sandbox, only where a ledger has templates of its own (its record types import the history walk,
which a build without them does not need).
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Iterator
from dataclasses import field
from functools import partial
from typing import TYPE_CHECKING, Any

from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, TemplateError
from markupsafe import Markup

from ..core.structs import slotted
from .. import __version__
from ..measure.numfmt import fmt_exact, fmt_number, fmt_percent, fmt_ratio, fmt_value
from ..core.statuses import GLYPHS, STATUSES
from .resolve import ResolvedCategory, ResolvedDimension, ResolvedLedger
from .charts import bullet_chart, chart, counts_chart
from .overview import gap_rank, overview_chart
from .links import bar_href, evidence_href, file_href, value_href
from .headline import headline, status_table
from .exports import (SCHEMA_VERSION, Sections, Spool, category_data, compact_bytes, json_bytes, ledger_csv,
                      ledger_json_chunks, search_index, sitemap)
from ..core.parallel import WORKER_TASKS, run_tasks
from .markup import brief, markdown_block, markdown_inline, markup_bytes, title_html, title_text
from ..ledger.cache import key_bytes
from ..core.paths import builtin_templates
from .themes import LedgerTemplates, keep_location, template_cache
from .trusted import TrustedEnvironment, speed_up
from .jsonview import MAX_VIEW_BYTES, MAX_VIEW_LINES, cited_values, json_lines, json_or_none, lines_html
from .once import forget
from .views import (STATUS_LABELS, bar_kind, bar_text, exact_text, category_badge_text, prose, prose_text, carried_as,
                    measured_detail, measured_text, review_counts, standing_text, status_marks, status_words,
                    computed_from, provenance_facts, bar_evidence)
from ..history.timeline import as_data

if TYPE_CHECKING:
    from ..ledger.cache import RenderedPages
    from ..history.walk import DimensionHistory, History

ASSETS = ("style.css", "site.js", "favicon.svg")


class Site:
    """The renderer: a Jinja environment over the ledger's templates, then the built-in theme.

    When the ledger overrides any template, every template renders in Jinja's immutable
    sandbox: a pull request's template cannot reach Python's internals or change the data.
    The built-in theme alone is trusted code and renders unsandboxed (faster).
    """

    def __init__(self, resolved: ResolvedLedger, sandboxed: bool | None = None, reuse: RenderedPages | None = None):
        self.ledger = resolved
        self._by_id: dict[str, ResolvedDimension] | None = None  # citing(): the dimensions by id, made once
        self.theme = builtin_templates()
        self.overrides = resolved.place.root / "templates"
        self.ledger_templates = LedgerTemplates(self.overrides)
        self.sandboxed = self.ledger_templates.overrides_any() if sandboxed is None else sandboxed
        # A ledger's own templates see data, never objects (sandbox.py); the built-in theme may keep objects.
        kind: type[Environment] = TrustedEnvironment  # trusted.py: the same bytes, faster
        finalize: Callable[[Any], Any] | None = None
        if self.sandboxed:
            from .sandbox import LedgerSandbox, refuse_objects  # here: its record types cost a build without it
            kind, finalize = LedgerSandbox, refuse_objects
        self.env = kind(loader=ChoiceLoader([self.ledger_templates, FileSystemLoader(str(self.theme))]),
                        autoescape=True, undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                        keep_trailing_newline=True, auto_reload=False, bytecode_cache=template_cache(self.sandboxed),
                        finalize=finalize)
        self.env.filters.update(md=markdown_block, mdi=markdown_inline, brief=brief, num=fmt_number, pct=fmt_percent,
                                ratio=fmt_ratio, title=title_html, plain=title_text)
        self.env.globals.update(fmt_value=fmt_value, bullet_chart=bullet_chart, measured_text=measured_text,
                                bar_text=bar_text, bar_kind=bar_kind, fmt_exact=fmt_exact, exact_text=exact_text,
                                measured_detail=measured_detail, counts_chart=counts_chart,
                                standing_text=standing_text, prose=prose, prose_text=prose_text, glyphs=GLYPHS,
                                statuses=STATUSES, overview_chart=overview_chart, headline=headline,
                                status_table=status_table, value_href=value_href, bar_href=bar_href,
                                gap_rank=gap_rank, computed_from=computed_from,
                                provenance_facts=provenance_facts, bar_evidence=bar_evidence,
                                status_labels=STATUS_LABELS, file_href=file_href, trace_href=self.trace_href,
                                evidence_href=evidence_href, version=__version__, json_lines_html=lines_html,
                                history_chart=self.history_chart, review_counts=review_counts,
                                parity_band=fmt_percent(resolved.settings.parity_tolerance),
                                dims=self.dimension_links())
        # Rendered categories are reused only with the built-in theme, which reads nothing of the
        # ledger on a category's pages but the settings (in the key); a ledger's own templates may
        # read any of it. With history, pages show git's history, which is not in the key either.
        self.reuse = reuse if reuse is not None and not self.sandboxed and resolved.history is None else None
        self.scope = key_bytes((resolved.settings, resolved.as_of)) if self.reuse is not None else b""
        self.reused = 0  # categories and cited files taken from the cache by the last render
        self.parts = 0  # and how many there were (0 without the cache)

    # Links are relative to the page: `base` is "" at the root and "../" one level down (links.py).
    def trace_href(self, trace, base: str) -> str:
        """Where a trace entry links."""
        if trace.kind == "url":
            return trace.target
        if trace.pointer:
            return evidence_href(trace.path, trace.pointer, base)
        return file_href(trace.path, base)

    def dimension_links(self) -> dict[str, dict[str, str]]:
        """Each dimension's title and permalink (from the site root), by id: history events link through it."""
        return {d.id: {"title": d.record.model.title, "url": f"{c.slug}/index.html#{d.id}"}
                for c in self.ledger.categories for d in c.dimensions}

    def history_chart(self, h: DimensionHistory) -> dict | None:
        """The over-time chart of one dimension's history (drawn by the macros template)."""
        assert self.ledger.history is not None, "only a site built with its history draws one"
        return chart(h, self.ledger.history.head, self.ledger.settings.parity_tolerance)

    def history_pages(self, hist: History) -> Iterator[tuple[str, bytes]]:
        """changes.html, feed.xml and history.json, when the site is built with its history."""
        led = self.ledger
        yield "changes.html", self.page("changes.html", "", "changes.html", history=hist)
        base = (led.settings.base_url.rstrip("/") + "/") if led.settings.base_url else ""
        feed_name = f"scorecard-feed:{led.settings.title}"
        feed_id = base + "feed.xml" if base else "urn:uuid:" + str(uuid.uuid5(uuid.NAMESPACE_URL, feed_name))
        yield "feed.xml", markup_bytes(self.env.get_template("feed.xml").render(
            site={"title": led.settings.title, "subject": led.settings.subject, "base": base},
            feed_id=feed_id, history=hist, entries=hist.events[:FEED_ENTRIES],
            parity_band=fmt_percent(led.settings.parity_tolerance),
            updated=hist.events[0].when if hist.events else hist.head.when.strftime("%Y-%m-%dT%H:%M:%SZ"),
            version=__version__))
        yield "history.json", json_bytes(as_data(hist))

    def page(self, template: str, base: str, path: str, **context) -> bytes:
        """One page rendered with the common context."""
        return markup_bytes(self.render_text(template, base, path, **context))

    def render_text(self, template: str, base: str, path: str, **context) -> str:
        """A template rendered with the common context of the page at path."""
        return self.env.get_template(template).render(site=self.site_context(base, path), ledger=self.ledger,
                                                      **context)

    def page_stream(self, template: str, base: str, path: str, **context) -> Iterator[bytes]:
        """One page as chunks of about 64 KiB, never joined whole: the index of a large ledger is tens of MB."""
        pieces: list[str] = []
        size = 0
        for piece in self.env.get_template(template).generate(site=self.site_context(base, path), ledger=self.ledger,
                                                               **context):
            pieces.append(piece)
            size += len(piece)
            if size >= 1 << 16:
                yield markup_bytes("".join(pieces))  # character by character: chunks make the same bytes
                pieces, size = [], 0
        if pieces:
            yield markup_bytes("".join(pieces))

    def site_context(self, base: str, path: str) -> dict:
        """The `site` of every page's context."""
        s = self.ledger.settings
        canonical = (s.base_url.rstrip("/") + "/" + path.removesuffix("index.html")) if s.base_url else None
        return {"title": s.title, "subject": s.subject, "description": s.description, "base": base,
                "as_of": self.ledger.as_of.isoformat(), "canonical": canonical, "path": path}

    def category_pages(self, cats: list[ResolvedCategory]) -> Made:
        """The page, cards, export and badges of each category in cats; each one's part of data.json and its
        section of index.html (rendered here, in a worker on a large ledger, not by the index's one task)."""
        pages: dict[str, bytes] = {}
        parts: list[bytes] = []
        sections: dict[str, str] = {}
        for cat in cats:
            sections[cat.slug] = Markup(self.render_text("index-category.html", "", "index.html", cat=cat))
            pages[f"{cat.slug}/index.html"] = self.page("category.html", "../", f"{cat.slug}/index.html", category=cat)
            pages[f"_badges/{cat.slug}.svg"] = self.badge(title_text(cat.record.model.short or cat.record.model.title),
                                                          category_badge_text(cat), "summary")
            data = category_data(cat)  # built once, written twice: the category's data.json and the ledger's
            pages[f"{cat.slug}/data.json"] = json_bytes({"schema_version": SCHEMA_VERSION, **data})
            parts.append(compact_bytes(data))
            for d in cat.dimensions:
                # A flat file beside the category page ("card-" keeps any id clear of index.html and
                # data.json): a folder per card would cost a directory per dimension, ten times a file.
                if self.ledger.settings.cards:
                    card = f"{cat.slug}/card-{d.id}.html"
                    pages[card] = self.page("card.html", "../", card, category=cat, d=d)
                value = f" {measured_text(d)}" if d.measured is not None and not d.measured.measurement.unbounded \
                    else ""  # the value as the pages show it, and the dimension's title in its accessible name
                said = f"{d.glyph} {STATUS_LABELS[d.status]}{value}" + "".join(f" · {m}" for m in status_marks(d))
                pages[f"_badges/{d.id}.svg"] = self.badge(self.ledger.settings.subject, said, d.status,
                                                          status_words(d.status, self.ledger.settings.parity_tolerance),
                                                          title_text(d.record.model.title))
            forget()  # the category's page, cards, section and export have shared them: memory for the next
        return Made(pages, parts, sections)

    def render(self) -> dict[str, bytes]:
        """Every file of the site, by path."""
        return {rel: data if isinstance(data, bytes) else b"".join(data) for rel, data in sorted(self.iter_pages())}

    def iter_pages(self) -> Iterator[tuple[str, bytes | Iterator[bytes]]]:
        """Every file of the site as (path, content), made as it is consumed (the writer streams them).

        Content is bytes, or for data.json an iterator of byte chunks, so that the export of
        the whole ledger is never joined in memory. The index, the categories and the cited
        files are rendered as tasks, by forked workers on a large ledger (core/parallel.py).
        """
        led = self.ledger
        yield ".nojekyll", b""
        forget()  # what an earlier build's pages worked out (serve renders many builds)
        self.preload()
        parts = Spool()  # each category's part of data.json, kept on disk until all are made
        size = sum(len(c.dimensions) for c in led.categories)
        keys: set[str] = set()
        self.reused = 0
        self.parts = len(led.categories) + len(led.files) if self.reuse is not None else 0
        sections = Sections()  # each category's section of the index, on disk too
        for index, made in run_tasks(self.run_task, self.tasks(), size, recycle=WORKER_TASKS):
            parts.add(index, made.parts)
            sections.add(made.sections)
            keys.update(made.keys)
            self.reused += made.reused
            yield from made.pages.items()
        if self.reuse is not None:
            self.reuse.prune(keys)
        # A ledger's own index template reads a plain dict (the sandbox's data): its sections come back whole here.
        yield "index.html", self.page_stream("index.html", "", "index.html", categories=led.categories,
                                             counts=led.counts, sections=dict(sections) if self.sandboxed else sections)
        yield "data.json", ledger_json_chunks(led, parts.drain())
        yield "search.json", json_bytes(search_index(led))
        yield "data.csv", ledger_csv(led)
        if led.settings.base_url:
            yield "sitemap.xml", sitemap(led)
        if led.history is not None:
            yield from self.history_pages(led.history)
        for asset in ASSETS:
            override = self.ledger_templates.read(asset)
            yield f"_assets/{asset}", override if override is not None else (self.theme / asset).read_bytes()

    def tasks(self) -> list[tuple[str, list]]:
        """The independent parts of the site: runs of categories, runs of cited files.

        The index is made of its categories' sections, which the category tasks render; it is put
        together once they are done.
        """
        tasks: list[tuple[str, list]] = []
        run: list[int] = []
        size = 0
        for i, cat in enumerate(self.ledger.categories):
            run.append(i)
            size += len(cat.dimensions) + 1
            if size >= TASK_DIMENSIONS:
                tasks.append(("categories", run))
                run, size = [], 0
        if run:
            tasks.append(("categories", run))
        files = sorted(self.ledger.files)
        tasks += [("files", files[i:i + TASK_FILES]) for i in range(0, len(files), TASK_FILES)]
        return tasks

    def run_task(self, task: tuple[str, list]) -> Made:
        """One task's files, and its categories' parts of data.json."""
        try:
            return self._run_task(*task)
        except TemplateError as exc:  # may be raised in a worker: keep where, for the finding
            keep_location(exc)
            raise

    def _run_task(self, kind: str, items: list) -> Made:
        led = self.ledger
        if kind == "categories":
            cats = [led.categories[i] for i in items]
            if self.reuse is None:
                return self.category_pages(cats)
            # The key of a category is the category as resolved, pickled: every value its pages show
            # comes from it (and the settings and as-of date, in self.scope; the cache adds the code).
            return self.cached([(key_bytes(cat), partial(self.category_pages, [cat])) for cat in cats])
        if self.reuse is None:
            return Made({rel: data for name in items for rel, data in self.file_pages(name, led.files[name])})
        return self.cached([(key_bytes((name, hashlib.blake2b(led.files[name]).digest(), led.citations.get(name),
                                        [(d.id, d.record.category, d.record.model.title, d.conditions,
                                          computed_from(d, name))
                                         for d in self.citing(name)])),
                             partial(self.file_piece, name)) for name in items])

    def citing(self, rel: str) -> list[ResolvedDimension]:
        """The dimensions that cite rel, in id order: its viewer links back to each, with what its page computed
        from the cited values, and shows the two sides of each that states conditions."""
        if self._by_id is None:
            self._by_id = self.dimensions_by_id()
        ids = sorted({i for cited in self.ledger.citations.get(rel, {}).values() for i in cited})
        return [d for i in ids if (d := self._by_id.get(i)) is not None]

    def file_piece(self, rel: str) -> Made:
        """A cited file's outputs."""
        return Made(dict(self.file_pages(rel, self.ledger.files[rel])))

    def cached(self, pieces: list[tuple[bytes, Callable[[], Made]]]) -> Made:
        """Each piece's files, data.json parts and index sections: from the cache when its key was rendered
        before, else made."""
        assert self.reuse is not None
        made = Made({})
        for what, make in pieces:
            key = self.reuse.key(self.scope, what)
            kept = self.reuse.get(key)
            if kept is None:
                piece = make()
                kept = piece.pages, piece.parts, piece.sections
                self.reuse.put(key, *kept)
            else:
                made.reused += 1
            made.pages.update(kept[0])
            made.parts.extend(kept[1])
            made.sections.update((slug, Markup(text)) for slug, text in kept[2].items())
            made.keys.append(key)
        return made

    def preload(self) -> None:
        """Compile the page templates here, once: a forked worker inherits them, and an error in one is raised here."""
        for name in (*PAGE_TEMPLATES, "base.html", "macros.html"):
            template = self.env.get_template(name)
            # Jinja layers a template's globals over the environment's in a ChainMap, and copies them
            # key by key for every page rendered; they are fixed by now, so a plain dict copies at C speed.
            template.globals = dict(template.globals)
            speed_up(template)  # the built-in theme's, unsandboxed (trusted.py)
        # Made here, before the workers fork: a worker that made it would write the reference count of every
        # dimension, and so copy the pages that hold them (77 MB more for a worker's first cited files at 20,000).
        self._by_id = self.dimensions_by_id()

    def dimensions_by_id(self) -> dict[str, ResolvedDimension]:
        """Every dimension of the ledger by id."""
        return {d.id: d for cat in self.ledger.categories for d in cat.dimensions}

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
        data = json_or_none(raw) if rel.endswith(".json") else None
        if data is not None:
            cited = led.citations.get(rel, {})
            lines = json_lines(data, cited) if len(raw) <= MAX_VIEW_BYTES else None
            if lines is not None and len(lines) > MAX_VIEW_LINES:
                lines = None
            yield f"_files/{rel}.html", self.page(
                "evidence.html", base, f"_files/{rel}.html", rel=rel, lines=lines,
                cited=None if lines is not None else cited_values(data, cited), size=len(raw),
                sha256=hashlib.sha256(raw).hexdigest(), meta=data.get("meta") if isinstance(data, dict) else None,
                citing=self.citing(rel))
        elif rel.endswith(".json"):  # a trace to a file that is not JSON after all: shown as text
            yield f"_files/{rel}.html", self.page("document.html", base, f"_files/{rel}.html", rel=rel, raw_copy=True,
                                                  body=Markup("<pre>") + raw.decode("utf-8", "replace")
                                                  + Markup("</pre>"))
        else:
            yield f"_files/{rel}.html", self.page("document.html", base, f"_files/{rel}.html", rel=rel, raw_copy=True,
                                                  body=markdown_block(raw.decode("utf-8-sig", "replace")))

    def badge(self, label: str, text: str, status: str, words: str = "", name: str = "") -> bytes:
        """A flat SVG badge, widths estimated from the text (deterministic); words: its title's (parity's band);
        name: what it is the badge of (a dimension's title), first in its accessible name."""
        lw, tw = 12 + 7 * len(label), 12 + 7 * len(text)
        template = self.env.get_template("badge.svg")
        return markup_bytes(template.render(label=label, text=text, status=status, lw=lw, tw=tw, words=words,
                                            name=name))


@slotted
class Made:
    """What one render task made: files by path, data.json parts, and the cache keys it used or wrote."""

    pages: dict[str, bytes]
    parts: list[bytes] = field(default_factory=list)
    sections: dict[str, str] = field(default_factory=dict)  # index.html's section of each category (Markup), by slug
    keys: list[str] = field(default_factory=list)
    reused: int = 0  # categories and cited files taken from the cache


FEED_ENTRIES = 100
TASK_DIMENSIONS = 200  # about this many dimensions' pages per task
TASK_FILES = 100  # cited files per task
PAGE_TEMPLATES = ("index.html", "index-category.html", "category.html", "card.html", "evidence.html", "document.html",
                  "badge.svg")
