"""Ledger text as safe HTML: Markdown with raw HTML off and a link allowlist, titles, briefs.

Everything a ledger writes reaches a page through these functions (or Jinja's autoescape).
"""

from __future__ import annotations

import functools
import html
import re

from markdown_it import MarkdownIt
from markupsafe import Markup


_SAFE_SCHEMES = ("http", "https", "mailto")


_SCHEME = re.compile(r"^\s*([a-zA-Z][a-zA-Z0-9+.\-]*):")


# Characters XML 1.0 forbids, and the C1 controls HTML treats as parse errors: a ledger's text
# holding one is shown with U+FFFD, so every page and the feed stay well-formed whatever the input.
_NOT_MARKUP = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def markup_bytes(text: str) -> bytes:
    """A rendered page or feed as UTF-8, with characters markup cannot hold replaced."""
    return _NOT_MARKUP.sub("\ufffd", text).encode("utf-8")


def _safe_link(url: str) -> bool:
    # Relative links and the allowlisted schemes only; javascript:, data:, vbscript:, file: are dropped.
    m = _SCHEME.match(url)
    return m is None or m.group(1).lower() in _SAFE_SCHEMES


@functools.lru_cache(maxsize=1)
def _markdown():
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.disable("image")  # an image would be an external request from the reader's browser
    md.validateLink = _safe_link  # type: ignore[method-assign]  # markdown-it's documented hook
    return md


# Text with none of these characters, and no line starting like a block (list, heading, rule...),
# is a plain paragraph in CommonMark: it is escaped without running the parser.
_MARKDOWN_CHARS = frozenset("\\`*_[]<>&!#|~=\n\r\t")


_BLOCK_START = frozenset("-+0123456789")


def _plain(text: str) -> bool:
    return text == text.strip() and bool(text) and text[0] not in _BLOCK_START and _MARKDOWN_CHARS.isdisjoint(text)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


# Cached by content, within bounds: a category's texts render on its page and its cards in one task, and a
# 65,536-entry cache held tens of MB in every process of a 20,000-dimension build (issue 46).
MARKDOWN_CACHE = 4096


@functools.lru_cache(maxsize=MARKDOWN_CACHE)
def markdown_block(text: str | None) -> Markup:
    """Markdown rendered as block HTML, raw HTML off, links allowlisted; cached by content."""
    if text and _plain(text):
        return Markup(f"<p>{_escape(text)}</p>\n")
    return Markup(_markdown().render(text or ""))


@functools.lru_cache(maxsize=MARKDOWN_CACHE)
def markdown_inline(text: str | None) -> Markup:
    """Markdown rendered inline (no paragraph), with the same safety as markdown_block."""
    if text and _plain(text):
        return Markup(_escape(text))
    return Markup(_markdown().renderInline(text or ""))


@functools.lru_cache(maxsize=1)
def _title_markdown():
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
