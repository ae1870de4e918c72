"""Where a page links for a carried file, a cited value, and a dimension's two numbers (issue 45: every measured
value one click from its evidence). Links are relative to the page: `base` is "" at the site's root and "../" one
level down. Pure: paths in, relative addresses out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import quote

from .jsonview import pointer_anchor
from .views import carried_as, single_source

if TYPE_CHECKING:
    from ..measure.reading import Measurement
    from .resolve import ResolvedDimension


def file_href(rel: str, base: str) -> str:
    """A carried file: its readable page where there is one, else the file itself."""
    return base + "_files/" + quote(rel) + (".html" if carried_as(rel) != "raw" else "")


def evidence_href(rel: str, pointer: str, base: str) -> str:
    """A pointer's line on an artifact's page."""
    return file_href(rel, base) + "#" + pointer_anchor(pointer)


def value_href(d: ResolvedDimension, base: str, section: str) -> str:
    """Our value's evidence: the cited line of its one artifact, or a formula's block on the category page (which
    lists each input's link); section is the category page's address from this page ("" on that page)."""
    m = d.measured.measurement if d.measured is not None else None
    return _measured_href(m, base, f"{section}#{d.id}-formula")


def bar_href(d: ResolvedDimension, base: str, section: str) -> str:
    """The bar's evidence: a bar read from sota.result links to its cited line (a formula, to the bar's block on
    the category page); a typed bar, to its source."""
    bar = d.record.bar_of
    if bar.measured is None:
        return d.record.model.sota.source
    return _measured_href(bar.measured, base, f"{section}#{d.id}-bar")


def _measured_href(m: Measurement | None, base: str, block: str) -> str:
    if m is None:
        return ""
    one = single_source(m)
    return block if one is None else evidence_href(one.evidence, one.at, base)
