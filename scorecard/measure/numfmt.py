"""Numbers as a person writes them: three significant figures, whole numbers in full, units scaled for reading."""

from __future__ import annotations

import math

from .units import parse, readable, spelled

SIGNIFICANT = 3


def fmt_number(value: float, sig: int = SIGNIFICANT, fixed: bool = False) -> str:
    """1,840 · 33.8 · 0.00031 · 7.4 · 81.2: sig significant figures, but never fewer than the whole digits; fixed keeps
    the trailing zeros (7.40, 0.000310), for a column whose numbers share one precision."""
    trim = (lambda text: text) if fixed else _trim
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    magnitude = abs(value)
    if magnitude >= 1e15 or magnitude < 1e-6:
        mantissa, _, exp = f"{value:.{sig - 1}e}".partition("e")
        return f"{trim(mantissa)}e{int(exp)}"
    decimals = sig - 1 - math.floor(math.log10(magnitude))
    if decimals > 0 and abs(float(f"{value:.{decimals}f}")) >= 10 ** (sig - decimals):
        decimals -= 1  # rounding reached the next power of ten (0.99999 is 1.00, not 1.000)
    if decimals <= 0:
        return f"{round(value):,}"
    text = trim(f"{value:.{decimals}f}")
    if float(text) == 0:  # rounding can reach zero only for tiny values; keep one figure
        text = trim(f"{value:.{decimals + sig}f}")
    whole, dot, frac = text.partition(".")
    if abs(int(whole or "0")) >= 1000:
        whole = f"{int(whole):,}"
    return whole + dot + frac


def _trim(text: str) -> str:
    return text.rstrip("0").rstrip(".") if "." in text else text


def glue(unit: str) -> str:
    """The space between a number and its unit: none before x, × and %."""
    return "" if unit in ("x", "×", "%") else " "


def scaled(value: float, unit: str | None) -> tuple[float, str]:
    """value in the unit a reader expects (0.0812 s -> 81.2 ms); unchanged where the unit has no prefixes."""
    if not unit:
        return value, ""
    return readable(value, parse(unit))


def fmt_value(value: float, unit: str | None, sig: int = SIGNIFICANT, fixed: bool = False) -> str:
    """A number with its unit, scaled for reading: 81.2 ms, 0.75x, 1,840 req/s, 12% (fixed: 0.750x, fmt_number)."""
    if not unit:
        return fmt_number(value, sig, fixed)
    shown, text = scaled(value, unit)
    return f"{fmt_number(shown, sig, fixed)}{glue(text)}{text}"


def fmt_range(low: float, high: float, unit: str | None, like: float | None = None) -> str:
    """low–high in one unit (the one like, or low, would be shown in): 29.9–30.4 ms."""
    shown_unit = unit or ""
    factor = 1.0
    if unit:
        ref, shown_unit = scaled(like if like is not None else high, unit)
        base = like if like is not None else high
        factor = ref / base if base else 1.0
    return f"{fmt_number(low * factor)}–{fmt_number(high * factor)}{glue(shown_unit) if shown_unit else ''}{shown_unit}"


def fmt_ratio(ratio: float) -> str:
    """A ratio to three significant figures: 1.37×."""
    return f"{fmt_number(ratio)}×"


def fmt_percent(fraction: float) -> str:
    """0.374 -> 37.4%; 0.05 -> 5%."""
    return f"{abs(fraction) * 100:.1f}%".replace(".0%", "%")


def fmt_exact(value: float, unit: str | None, shown: str | None = None) -> str:
    """The number exactly as read or computed, every digit (the shortest text that reads back as the same double):
    30.25 ms where fmt_value shows 30.2 ms. In shown (the unit the page shows it in), where that is another unit:
    converted, to the 15 significant digits a double holds (0.081185 s is 81.185 ms, not 81.18500000000001)."""
    if shown and unit and spelled(shown) != spelled(unit):
        have, want = parse(unit), parse(shown)
        if have.problem is None and want.problem is None and have.comparable(want):
            text = format(have.to(float(value), want), ".15g")
            return f"{text}{glue(shown)}{spelled(shown)}"
    text = repr(float(value))
    text = text[:-2] if text.endswith(".0") else text
    return f"{text}{glue(unit)}{spelled(unit)}" if unit else text
