"""The known names nearest a mistyped one, for a finding's "did you mean".

Lazy import: difflib, when a name is not known: only an error needs it (1 ms of every hook run otherwise).
"""

from __future__ import annotations

from collections.abc import Sequence


def close_matches(word: str, possibilities: Sequence[str], n: int = 3, cutoff: float = 0.6) -> list[str]:
    """difflib.get_close_matches, imported when first asked."""
    import difflib

    return difflib.get_close_matches(word, possibilities, n=n, cutoff=cutoff)
