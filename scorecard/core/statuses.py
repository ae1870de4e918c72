"""The status vocabulary, with no dependency: the CLI's choices, the schema and the site all read it here."""

from __future__ import annotations

from typing import Literal, get_args

# the schema's, in display order
Status = Literal["leads", "parity", "trails", "inconclusive", "simulated", "no-claim", "out-of-scope"]
STATUSES: tuple[str, ...] = get_args(Status)
MEASURED = frozenset({"leads", "parity", "trails", "inconclusive", "simulated"})  # statuses that state a number
# measured statuses the evidence decides: exactly one of them is the one it gives ("The verdict", docs/format.md)
HONEST = frozenset({"leads", "parity", "trails", "inconclusive"})
VERDICTS = ("leads", "parity", "trails", "inconclusive")
GLYPHS = {"leads": "●", "parity": "◐", "trails": "◑", "inconclusive": "◇", "simulated": "◌", "no-claim": "○",
          "out-of-scope": "–"}


def value_word(status: str) -> str:
    """How a status's number is spoken of: a simulated value is never called measured."""
    return "simulated" if status == "simulated" else "measured"


def display_key(order: int | None, name: str) -> tuple[bool, int, str]:
    """Where a category or dimension is listed: by its order:, those without one after, then by name."""
    return order is None, order or 0, name
