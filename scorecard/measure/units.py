"""Unit expressions: parse `ms`, `MB/s`, `USD/1M tokens`, `Wh/token`, `%`; convert; scale for reading.

The grammar is the one docs/format.md gives, no more: SI and IEC prefixes on s, B, bit, W, Wh,
J and Hz; min and h; the counting units token and request; the dimensionless x (also ×) and %;
the currencies USD, EUR and $ (each comparable only with itself); products (`*`, `·`, a space),
quotients (`/`, `per`), powers (`^2`, `²`), a count in a denominator (`USD/1M tokens`), and any word
in braces as a count unit of its own (`{documents}`, `{iter}/s`). Long names and plurals are the
same unit. A general units library (pint) was measured at 0.6 s to import and
build its registry, ten times a whole validate, and knows none of token, request, x or the
currency rule, so this small parser is ours.

A unit that is not understood is kept as an opaque dimension named by its exact spelling, so it
compares with a unit spelled the same way and with nothing else.

A unit may not carry a typed factor: a number is allowed only as a power of ten (in ASCII digits)
after `/` or `per`, counting the unit term that follows it. A scale on the numerator (`0.8 ms`),
zero, a power of zero (`s^0`), a bare count in a denominator (`ms/1k`), and a factor that
overflows or underflows are refused (Unit.problem says why): each would rescale the measured
number without any evidence for it.
"""

from __future__ import annotations

import functools
import math
import re

from ..core.patterns import lazy
from ..core.structs import frozen

Dims = tuple[tuple[str, int], ...]

# name -> (factor to the base, dims). Bases: s, bit, J, token, request, USD, EUR.
_BASES: dict[str, tuple[float, Dims]] = {
    "s": (1.0, (("s", 1),)),
    "B": (8.0, (("bit", 1),)),
    "bit": (1.0, (("bit", 1),)),
    "J": (1.0, (("J", 1),)),
    "Wh": (3600.0, (("J", 1),)),
    "W": (1.0, (("J", 1), ("s", -1))),
    "Hz": (1.0, (("s", -1),)),
}
_PLAIN: dict[str, tuple[float, Dims]] = {
    "min": (60.0, (("s", 1),)),
    "h": (3600.0, (("s", 1),)),
    "token": (1.0, (("token", 1),)),
    "tok": (1.0, (("token", 1),)),
    "request": (1.0, (("request", 1),)),
    "req": (1.0, (("request", 1),)),
    "GPU": (1.0, (("GPU", 1),)),
    "x": (1.0, ()),
    "×": (1.0, ()),
    "%": (0.01, ()),
    "USD": (1.0, (("USD", 1),)),
    "$": (1.0, (("USD", 1),)),
    "EUR": (1.0, (("EUR", 1),)),
    "€": (1.0, (("EUR", 1),)),
}
_LONG: dict[str, str] = {
    "second": "s", "sec": "s", "byte": "B", "bit": "bit", "joule": "J", "watt": "W", "watt-hour": "Wh",
    "watthour": "Wh", "hertz": "Hz", "minute": "min", "hour": "h", "token": "token", "tok": "token",
    "request": "request", "req": "request", "percent": "%", "gpu": "GPU",
}
SI = {"p": 1e-12, "n": 1e-9, "u": 1e-6, "µ": 1e-6, "μ": 1e-6, "m": 1e-3, "k": 1e3, "M": 1e6, "G": 1e9,
      "T": 1e12, "P": 1e15}
IEC = {"Ki": 2.0 ** 10, "Mi": 2.0 ** 20, "Gi": 2.0 ** 30, "Ti": 2.0 ** 40, "Pi": 2.0 ** 50}
_LONG_PREFIX = {"pico": "p", "nano": "n", "micro": "µ", "milli": "m", "kilo": "k", "mega": "M", "giga": "G",
                "tera": "T", "peta": "P", "kibi": "Ki", "mebi": "Mi", "gibi": "Gi", "tebi": "Ti", "pebi": "Pi"}
_COUNT = lazy(r"^([0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)([kMGT]?)$")
_NUMERIC = lazy(r"^[+-]?[.0-9]|^\w*\d", re.UNICODE)  # a word that starts like a number, in any script
_POWER = lazy(r"^(.+?)(?:\^([+-]?[0-9])|([²³]))$")
_BRACED = lazy(r"^\{[^{}\s]{1,40}\}$")
_POWERS_OF_TEN = {10.0 ** k: k for k in range(0, 22)}  # exact as doubles
_TOKEN = lazy(r"\s*(/|\*|·|⋅|\bper\b|[^\s/*·⋅]+)\s*")
# The prefixes a reader expects for each family, smallest first.
_READABLE = {"s": ("n", "µ", "m", ""), "B": ("", "k", "M", "G", "T", "P"), "bit": ("", "k", "M", "G", "T"),
             "W": ("m", "", "k", "M", "G"), "Wh": ("m", "", "k", "M", "G"), "J": ("m", "", "k", "M", "G"),
             "Hz": ("", "k", "M", "G")}
_READABLE_IEC = ("", "Ki", "Mi", "Gi", "Ti", "Pi")


@frozen
class Unit:
    """A parsed unit: its text, the factor to the base units, and its dimensions."""

    text: str
    factor: float
    dims: Dims
    known: bool = True
    family: tuple[str, str] | None = None  # (base symbol, "si" | "iec") for a single prefixed unit
    problem: str | None = None  # why the unit is refused (a typed factor, zero, ...); then it compares with nothing

    def comparable(self, other: Unit) -> bool:
        """Whether values in the two units can be converted into each other."""
        return self.dims == other.dims

    def to(self, value: float, other: Unit) -> float:
        """value in this unit, expressed in other (which must be comparable)."""
        return value * self.factor / other.factor


class UnitError(ValueError):
    """A unit expression that is not understood."""


class UnitRefused(UnitError):
    """A unit expression that is understood but not allowed: it carries a factor no evidence backs."""


def _atom(word: str) -> tuple[float, Dims, tuple[str, str] | None]:
    if word in _PLAIN:
        factor, dims = _PLAIN[word]
        return factor, dims, None
    if word in _BASES:
        factor, dims = _BASES[word]
        return factor, dims, (word, "si")
    for prefixes, kind in ((IEC, "iec"), (SI, "si")):
        for p, scale in prefixes.items():
            base = word[len(p):]
            if word.startswith(p) and base in _BASES:
                factor, dims = _BASES[base]
                return factor * scale, dims, (base, kind)
    low = word.lower()
    for name in (low, low[:-1] if low.endswith("s") else ""):
        if name in _LONG:
            return _atom(_LONG[name])
        for long, p in _LONG_PREFIX.items():
            rest = name[len(long):]
            if name.startswith(long) and _LONG.get(rest) in _BASES:
                return _atom(p + _LONG[rest])
    raise UnitError(f"'{word}' is not a unit scorecard knows")


def _multiply(into: dict[str, int], dims: Dims, power: int) -> None:
    for base, exp in dims:
        into[base] = into.get(base, 0) + exp * power


@functools.lru_cache(maxsize=4096)
def parse(text: str) -> Unit:
    """The unit text names; an unknown one is an opaque unit equal only to itself (known=False), and a refused one
    (a typed factor, zero, a power of zero, out of range) an opaque unit with problem set, comparable with nothing."""
    try:
        unit = _parse(text.strip())
    except UnitRefused as exc:
        return Unit(text, 1.0, ((f"!{text.strip()}", 1),), known=True, problem=str(exc))
    except UnitError:
        return Unit(text, 1.0, ((f"?{text.strip()}", 1),), known=False)
    if not math.isfinite(unit.factor) or not 1e-290 < unit.factor < 1e290:
        return Unit(text, 1.0, ((f"!{text.strip()}", 1),), known=True,
                    problem="its scale overflows or underflows a double")
    return unit


def _count(token: str, sign: int, text: str, next_is_term: bool, first: bool) -> float:
    """The factor a count such as 1M stands for; refused unless it is a power of ten counting the term after it
    (or the 1 of 1/s, which scales nothing)."""
    m = _COUNT.match(token)
    assert m is not None
    if sign == 1 and first and float(m[1]) == 1 and not m[2] and not next_is_term:
        return 1.0
    if sign == 1:
        raise UnitRefused(f"the number {token} scales the measured value: a number is allowed only as a power of "
                          "ten after / or per (USD/1M tokens)")
    value = float(m[1]) * (SI[m[2]] if m[2] else 1.0)
    if value not in _POWERS_OF_TEN:
        raise UnitRefused(f"{token} is not a power of ten (1, 10, 1k, 1M, ...)" if value else f"{text} divides by zero")
    if not next_is_term:
        raise UnitRefused(f"the count {token} counts no unit: write what it counts after it (USD/1M tokens)")
    return value


_OPERATORS = ("/", "per", "*", "·", "⋅")


def is_percent(text: str | None) -> bool:
    """Whether text is a unit of percent (%, percent): a share, whose differences are in points."""
    unit = parse(text or "")
    return unit.known and not unit.dims and unit.factor == 0.01


def with_count_words(text: str) -> Unit:
    """text parsed with every word scorecard does not know read as a count unit: ns/iter is ns/{iter}.

    How an artifact's own unit is read when it is not one the tool knows, and how a typed unit is
    compared with it: by the units the tool knows, and by spelling for the rest.
    """
    try:
        tokens = _tokens(text.strip())
    except UnitError:
        return parse(text)
    out = []
    for token in tokens:
        if token not in _OPERATORS and not _COUNT.match(token) and not _BRACED.match(token):
            try:
                _term(token, text)
            except UnitRefused:
                pass
            except UnitError:
                token = "{" + token + "}"
        out.append(token)
    return parse(" ".join(out))


def same(a: Unit, b: Unit) -> bool:
    """Whether two units are one unit: the same dimensions and the same factor (not compared by spelling)."""
    return a.problem is None and b.problem is None and a.dims == b.dims and math.isclose(a.factor, b.factor,
                                                                                          rel_tol=1e-12)


def _tokens(text: str) -> list[str]:
    tokens = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise UnitError(text)
        tokens.append(m.group(1))
        pos = m.end()
    return tokens


def _term(token: str, text: str) -> tuple[float, Dims, tuple[str, str] | None, int]:
    """(factor, dims, family, power) of one unit term such as ms, s^-1, MB² or {iter}."""
    if _NUMERIC.match(token):
        raise UnitRefused(f"'{token}' is a number, not a unit: a unit carries no typed factor")
    power = 1
    pm = _POWER.match(token)
    if pm and (pm[2] or pm[3]):
        token, power = pm[1], int(pm[2]) if pm[2] else (2 if pm[3] == "²" else 3)
        if power == 0:
            raise UnitRefused(f"{text} raises a unit to the power 0, which makes any quantity a plain number")
    if _BRACED.match(token):  # a count unit of the ledger's own: comparable only with the same word
        return 1.0, ((token, 1),), None, power
    return (*_atom(token), power)


def _parse(text: str) -> Unit:
    if not text or len(text) > 100:
        raise UnitError("empty or too long")
    factor, sign, terms = 1.0, 1, 0
    dims: dict[str, int] = {}
    family, counted = None, False
    directions: dict[str, set[int]] = {}  # each base's exponent signs, term by term
    tokens = _tokens(text)
    expect_term = True
    for i, token in enumerate(tokens):
        if token in _OPERATORS:
            if token in ("/", "per"):
                if sign == -1 and expect_term:
                    raise UnitError(text)
                sign = -1
            expect_term = True
            continue
        if _COUNT.match(token):
            following = tokens[i + 1] if i + 1 < len(tokens) else None
            factor /= _count(token, sign, text, following not in (None, *_OPERATORS), i == 0)
            expect_term, counted = False, True
            continue
        f, d, fam, power = _term(token, text)
        try:
            factor *= f ** (power * sign)
        except OverflowError:
            raise UnitRefused("its scale overflows a double") from None
        for base, exp in d:
            directions.setdefault(base, set()).add(1 if exp * power * sign > 0 else -1)
        _multiply(dims, d, power * sign)
        family = fam if terms == 0 and power == 1 and sign == 1 else None
        terms += 1
        expect_term = False
    if expect_term and terms:
        raise UnitError(text)
    _no_hidden_factor(text, directions, factor, terms, counted, dims)
    clean = tuple(sorted((b, e) for b, e in dims.items() if e))
    return Unit(text, factor, clean, True, family if terms == 1 and not counted else None)


def _no_hidden_factor(text: str, directions: dict[str, set[int]], factor: float, terms: int, counted: bool,
                      dims: dict[str, int]) -> None:
    """Refuse a unit whose terms cancel a quantity against itself (kB/B, ks/s, MHz·ms: a typed ×1000 with no digit
    in it), and a plain ratio other than x or % (x/%, %²)."""
    cancelled = sorted(base for base, signs in directions.items() if len(signs) > 1)
    if cancelled:
        raise UnitRefused(f"{text} cancels {', '.join(cancelled)} between its terms, which leaves a bare factor; "
                          "write the unit it reduces to")
    ratio = not any(dims.values())
    if ratio and (factor not in (1.0, 0.01) or ((terms > 1 or counted) and factor != 1.0)):
        raise UnitRefused(f"{text} is a plain ratio scaled by {factor:g}: write it as x or %")


def spelled(text: str) -> str:
    """A unit as a reader expects it spelled: the micro prefix as µ (us and μs are µs); anything else as written."""
    if text[:1] in ("u", "μ") and len(text) > 1:
        unit = parse(text)
        if unit.family is not None and unit.known and unit.problem is None and same(unit, parse("µ" + text[1:])):
            return "µ" + text[1:]
    return text


def readable(value: float, unit: Unit) -> tuple[float, str]:
    """value re-expressed with the prefix a reader expects (0.0812 s -> 81.2 ms); else unchanged."""
    if unit.family is None or value == 0 or not unit.known:
        return value, unit.text
    base, kind = unit.family
    base_value = value * unit.factor / _BASES[base][0]
    prefixes = _READABLE_IEC if kind == "iec" else _READABLE[base]
    table = IEC if kind == "iec" else SI
    step = 1024.0 if kind == "iec" else 1000.0
    chosen = prefixes[0]
    for p in prefixes:
        if abs(base_value) / table.get(p, 1.0) >= 1 - 1e-12:
            chosen = p
    scaled = base_value / table.get(chosen, 1.0)
    if abs(scaled) >= step * 1000:  # beyond the family's largest prefix: keep what was written
        return value, unit.text
    if chosen + base == unit.text or parse(chosen + base).factor == unit.factor:
        return value, spelled(unit.text)  # the unit as written, spelled as a reader expects it (us is µs)
    return scaled, chosen + base
