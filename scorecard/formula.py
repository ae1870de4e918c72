"""The formula rule: a derived value is a definition over its inputs, with no typed factor hidden in it.

In lowest terms (scorecard.algebra), an accepted formula has an overall factor of 1, every
coefficient 1 or -1, and every input still in it; and it is not a bare negation of its inputs
(`-q`, `r - q - r`), which would turn "lower is better" upside down.
"""

from __future__ import annotations

import ast

from . import algebra
from .selection import refuse

HINT = ("write the formula that means what it says, with each input once where it counts: a ratio a / b, a reduction "
        "(theirs - ours) / theirs, an average mean(a, b); units do any scaling")


def check_definition(tree: ast.Expression, text: str) -> None:
    """Refuse (SC316) a formula that scales, ignores or negates its inputs; SC314 one too large to check."""
    loc = ("result", "expr")
    atoms = algebra.atoms_of(tree)
    try:
        num, den = algebra.lowest_terms(tree, atoms)
    except algebra.TooComplex as exc:
        raise refuse("SC314", loc, f"expr '{text}': {exc}", "write a shorter formula") from None
    except (ZeroDivisionError, ArithmeticError) as exc:
        raise refuse("SC314", loc, f"expr '{text}': {exc}", "a formula must not divide by zero for every input") \
            from None
    reduced = written(num, den, list(atoms))
    factor, coefficients = algebra.factor_and_terms(num, den)
    used = {v for m in [*num, *den] for v, e in enumerate(m) if e}
    missing = [name for name, v in atoms.items() if v not in used]
    if missing:
        raise refuse("SC316", loc, f"expr '{text}' does not depend on {', '.join(missing)}: in lowest terms it is "
                     f"{reduced}", HINT)
    if abs(factor) != 1 or any(abs(c) != 1 for c in coefficients):
        raise refuse("SC316", loc, f"expr '{text}' hides a factor: in lowest terms it is {reduced}", HINT)
    if len(num) == 1 and len(den) == 1 and factor * next(iter(num.values())) * next(iter(den.values())) < 0:
        raise refuse("SC316", loc, f"expr '{text}' only negates its inputs: in lowest terms it is {reduced}",
                     "a negated measurement turns the direction of the bar around: compare the value itself")


def written(num: algebra.Poly, den: algebra.Poly, names: list[str]) -> str:
    """numerator / denominator as a person writes them: 'q / 2', '(a - b) / a'."""
    top, bottom = _poly(num, names), _poly(den, names)
    if bottom == "1":
        return top
    top, bottom = (f"({top})" if len(num) > 1 else top), (f"({bottom})" if len(den) > 1 else bottom)
    return f"{top} / {bottom}"


def _poly(p: algebra.Poly, names: list[str]) -> str:
    if not p:
        return "0"
    parts = []
    for mono, c in sorted(p.items(), reverse=True):
        factors = [name if e == 1 else f"{name}^{e}" for name, e in zip(names, mono, strict=True) if e]
        size = abs(c)
        term = " * ".join(([str(size)] if size != 1 or not factors else []) + factors)
        parts.append(("- " if c < 0 else "+ ") + term)
    text = " ".join(parts)
    return text[2:] if text.startswith("+ ") else "-" + text[2:]
