"""The formula rule: a derived value is a definition over its inputs, with no typed factor hidden in it.

In lowest terms (scorecard.algebra), an accepted formula has an overall factor of 1, every
coefficient 1 or -1, and every input still in it; and it is not a bare negation of its inputs
(`-q`, `r - q - r`), which would turn "lower is better" upside down.
"""

from __future__ import annotations

import ast

from . import algebra
from .selection import Problem, refuse

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


def check_shape(result) -> None:
    """Refuse a derived result that also names a selection of its own, or lacks expr: or inputs:."""
    loc = ("result",)
    for key in ("evidence", "pointer", "path", "stat", "low", "high", "level"):
        if getattr(result, key) is not None:
            raise refuse("SC208", loc + (key,), f"a derived value (expr:) takes its numbers from inputs:, so "
                         f"{key}: does not belong here",
                         f"move {key}: into one of the inputs, or remove expr: and inputs:")
    if result.expr is None or not result.inputs:
        raise refuse("SC208", loc + ("inputs" if result.expr is not None else "expr",),
                     "a derived value needs both expr: and at least one input under inputs:",
                     "write expr: a / b and inputs: {a: {evidence: ..., pointer: ...}, b: {...}}")


def check_inputs(result, used: list[str], problems: list[Problem]) -> None:
    """SC315 for an input expr does not use; SC314 for a name that is no input; SC318 for an input with no unit."""
    loc = ("result",)
    for name in sorted(set(result.inputs) - set(used)):
        problems.append(Problem("SC315", loc + ("inputs", name), f"input '{name}' is not used by expr "
                                    f"'{result.expr.strip()}'", "use it in the expression, or remove it"))
    for name in used:
        if name not in result.inputs:
            raise refuse("SC314", loc + ("expr",), f"expr '{result.expr.strip()}' uses '{name}', which is not "
                         f"one of the inputs ({', '.join(sorted(result.inputs))})",
                         f"add {name}: under inputs:, or fix the name in expr:")
    for name in used:
        if result.inputs[name].unit is None and getattr(result.inputs[name], "format", None) is None:
            raise refuse("SC318", loc + ("inputs", name), f"input '{name}' states no unit",
                         "add unit: to the input (the artifact's unit, or x for a plain ratio): units do a formula's "
                         "scaling, so each input's must be known")


LITERAL_HINT = ("let the units do the scaling: (theirs - ours) / theirs with unit: \"%\" is a reduction in percent, "
                "ms to s is a unit; for an average of workloads write mean(a, b) or geomean(a, b)")
