"""pytest plugin for the mutation tool's coverage map: empty scorecard's caches before every test.

A function behind functools.lru_cache runs its lines only on the first call with given arguments,
so without this only the first test to call it would be recorded as covering those lines, and a
mutant there would be tried against too few tests.
"""

from __future__ import annotations

import sys


def pytest_runtest_setup(item) -> None:  # noqa: ARG001 - pytest's hook signature
    for name, module in list(sys.modules.items()):
        if name != "scorecard" and not name.startswith("scorecard."):
            continue
        for value in list(vars(module).values()):
            clear = getattr(value, "cache_clear", None)
            if callable(clear) and getattr(value, "__module__", None) == name:
                clear()
