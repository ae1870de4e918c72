"""Helpers for tests over a built site: parse pages, collect links and ids."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class Page(HTMLParser):
    """Links, ids, script tags and event-handler attributes of one HTML page."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.scripts: list[dict] = []
        self.handlers: list[tuple[str, str]] = []
        self.tags: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.append(tag)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for key in ("href", "src"):
            if attrs.get(key) is not None:
                self.links.append(attrs[key])
        if tag == "script":
            self.scripts.append(attrs)
        for name, value in attrs.items():
            if name.startswith("on"):
                self.handlers.append((name, value or ""))


def pages(site: Path) -> dict[Path, Page]:
    """Every HTML page of a site, parsed."""
    return {p: Page(p.read_text(encoding="utf-8")) for p in sorted(site.rglob("*.html"))}


def broken_links(site: Path) -> list[str]:
    """Local links whose file or #fragment does not exist."""
    parsed = pages(site)
    problems = []
    for path, page in parsed.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file() or not target.resolve().is_relative_to(site.resolve()):
                problems.append(f"{path.relative_to(site)}: {link} -> missing file")
                continue
            if parts.fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else Page(target.read_text()).ids
                if parts.fragment not in ids and unquote(parts.fragment) not in ids:
                    problems.append(f"{path.relative_to(site)}: {link} -> missing #{parts.fragment}")
    return problems
