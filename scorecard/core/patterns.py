"""Regular expressions compiled when first used (issue 46: the hook's start-up).

The prose rules' patterns (stance words, typed numbers, page text: about 60) took 25-30 ms to compile at import, a
tenth of a warm validate, where the records that could use them were all kept clean checks (ledger/checkmemo.py)
and no pattern ran. `lazy` gives an object that compiles its pattern on the first attribute asked of it, then
answers as the compiled pattern does (its methods are kept on it, so a call costs what a compiled pattern's does).
The compiled form itself is kept between runs (regexstore.py).
"""

from __future__ import annotations

import re
from typing import Any, cast

from .regexstore import compile_kept


class _Lazy:
    def __init__(self, pattern: str, flags: int):
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:  # only for what is not on it yet
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(compile_kept(*self._source), name)
        setattr(self, name, value)
        return value

    def __repr__(self) -> str:
        return f"lazy({self._source[0]!r}, {self._source[1]!r})"


def lazy(pattern: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """pattern, compiled with flags when it is first used (to a reader and to the type checker, a compiled pattern)."""
    return cast(re.Pattern[str], _Lazy(pattern, int(flags)))
