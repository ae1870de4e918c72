"""Work once per build (issue 46): what the pages say of a dimension (its numbers in words, its bullet chart, its
prose) is worked out the first time a page asks and shared by the card, the category page, the index, the
exports and the feed, which asked for it two to six times each.

A value is kept with the dimension it was made from, and given back only for that very object (not one that
merely has its id), so a value never outlives its dimension's build; the renderer forgets them all when a
render starts (serve renders many builds in one process).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_KEPT: dict[tuple, tuple[object, object]] = {}


def once(fn: F) -> F:
    """fn(d, ...) worked out once per dimension object and arguments."""
    name = fn.__qualname__

    @functools.wraps(fn)
    def kept(d, *args, **kwargs):
        key = (name, id(d), args, tuple(sorted(kwargs.items())))
        hit = _KEPT.get(key)
        if hit is not None and hit[0] is d:
            return hit[1]
        value = fn(d, *args, **kwargs)
        _KEPT[key] = (d, value)
        return value

    return kept  # type: ignore[return-value]


def forget() -> None:
    """Let go of every value kept (a render starts)."""
    _KEPT.clear()
