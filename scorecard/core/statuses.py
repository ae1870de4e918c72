"""The status vocabulary, with no dependency: the CLI's choices, the schema and the site all read it here."""

from __future__ import annotations

from typing import Literal, get_args

Status = Literal["leads", "parity", "trails", "simulated", "no-claim", "out-of-scope"]  # the schema's, in display order
STATUSES: tuple[str, ...] = get_args(Status)
MEASURED = frozenset({"leads", "parity", "trails", "simulated"})  # statuses that state a number
HONEST = frozenset({"leads", "parity", "trails"})  # measured statuses the numbers must agree with
GLYPHS = {"leads": "●", "parity": "◐", "trails": "◑", "simulated": "◌", "no-claim": "○", "out-of-scope": "–"}


def value_word(status: str) -> str:
    """How a status's number is spoken of: a simulated value is never called measured."""
    return "simulated" if status == "simulated" else "measured"


def display_key(order: int | None, name: str) -> tuple[bool, int, str]:
    """Where a category or dimension is listed: by its order:, those without one after, then by name."""
    return order is None, order or 0, name
