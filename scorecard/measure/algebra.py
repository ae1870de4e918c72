"""A formula in lowest terms: exact rational functions over its inputs, for the rule that no typed factor hides.

A formula (`expr:`) holds input names, + - * / and parentheses, and no number. Written out as
one fraction of polynomials in its inputs and reduced to lowest terms (cancelling the greatest
common divisor, over the rationals), an honest definition has every coefficient 1 or -1 and
still contains every input: `q * q / (q + q)` is `q / 2` and `q / q * r` is `r`, refused;
`(theirs - ours) / theirs` and `(a + b) / b` mean what they say.

Polynomials are dicts from exponent tuples to Fractions; the gcd is the recursive primitive
polynomial remainder sequence (a variable at a time, contents by recursion). Formulas are a few
names long, so this stays a few milliseconds and needs no computer-algebra import (sympy would
cost the hook 0.4 s). Anything larger than MAX_TERMS is refused as too complex, never slow.
"""

from __future__ import annotations

import ast
from fractions import Fraction
from math import gcd as igcd, lcm

Mono = tuple[int, ...]
Poly = dict[Mono, Fraction]
MAX_TERMS = 2000
MAX_ATOMS = 12


class TooComplex(ValueError):
    """A formula whose expansion is too large to check."""


def _clean(p: Poly) -> Poly:
    if len(p) > MAX_TERMS:
        raise TooComplex(f"the formula expands to more than {MAX_TERMS} terms")
    return {m: c for m, c in p.items() if c}


def _add(a: Poly, b: Poly, sign: int = 1) -> Poly:
    out = dict(a)
    for m, c in b.items():
        out[m] = out.get(m, Fraction(0)) + sign * c
    return _clean(out)


def _mul(a: Poly, b: Poly) -> Poly:
    out: Poly = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            m = tuple(x + y for x, y in zip(ma, mb, strict=True))
            out[m] = out.get(m, Fraction(0)) + ca * cb
        if len(out) > MAX_TERMS:
            raise TooComplex(f"the formula expands to more than {MAX_TERMS} terms")
    return _clean(out)


def _const(c: int, n: int) -> Poly:
    return {(0,) * n: Fraction(c)} if c else {}


def _degree(p: Poly, v: int) -> int:
    return max((m[v] for m in p), default=0)


def _coefficients(p: Poly, v: int) -> dict[int, Poly]:
    """p as a polynomial in variable v: degree -> coefficient (a polynomial without v)."""
    out: dict[int, Poly] = {}
    for m, c in p.items():
        out.setdefault(m[v], {})[m[:v] + (0,) + m[v + 1:]] = c
    return out


def _shift(p: Poly, v: int, k: int) -> Poly:
    return {m[:v] + (m[v] + k,) + m[v + 1:]: c for m, c in p.items()}


def _divide(a: Poly, b: Poly) -> Poly:
    """a / b, exact (b divides a); lexicographic division by one polynomial finds the quotient when there is one."""
    quotient: Poly = {}
    rest = dict(a)
    lead_b = max(b)
    while rest:
        lead = max(rest)
        step = tuple(x - y for x, y in zip(lead, lead_b, strict=True))
        if min(step) < 0:
            raise ArithmeticError("not an exact division")
        term = {step: rest[lead] / b[lead_b]}
        quotient = _add(quotient, term)
        rest = _add(rest, _mul(term, b), -1)
    return quotient


def _normal(p: Poly) -> Poly:
    """p scaled so that its leading coefficient is 1 (the gcd is defined up to a constant)."""
    if not p:
        return p
    lead = p[max(p)]
    return {m: c / lead for m, c in p.items()}


def gcd(a: Poly, b: Poly, n: int) -> Poly:
    """The greatest common divisor of a and b over the rationals, with leading coefficient 1."""
    if not a:
        return _normal(b)
    if not b:
        return _normal(a)
    used = [v for v in range(n) if _degree(a, v) or _degree(b, v)]
    if not used:
        return _const(1, n)
    v = used[0]  # variables before v appear in neither, so the contents below have fewer variables
    content_a, content_b = _content(a, v, n), _content(b, v, n)
    common = gcd(content_a, content_b, n)
    pa, pb = _divide(a, content_a), _divide(b, content_b)
    if _degree(pa, v) < _degree(pb, v):
        pa, pb = pb, pa
    while pb and _degree(pb, v) > 0:
        rest = _pseudo_remainder(pa, pb, v)
        pa, pb = pb, (_divide(rest, _content(rest, v, n)) if rest else {})
    g = pa if not pb else _const(1, n)  # a remainder of degree 0 in v: coprime in v
    return _normal(_mul(common, _divide(g, _content(g, v, n))))


def _content(p: Poly, v: int, n: int) -> Poly:
    out: Poly = {}
    for coefficient in _coefficients(p, v).values():
        out = gcd(out, coefficient, n)
    return out


def _pseudo_remainder(a: Poly, b: Poly, v: int) -> Poly:
    db = _degree(b, v)
    lead_b = _coefficients(b, v)[db]
    rest = a
    while rest and _degree(rest, v) >= db:
        dr = _degree(rest, v)
        lead = _coefficients(rest, v)[dr]
        rest = _add(_mul(lead_b, rest), _mul(_shift(lead, v, dr - db), b), -1)
    return rest


def lowest_terms(tree: ast.Expression, atoms: dict[str, int]) -> tuple[Poly, Poly]:
    """The formula as numerator and denominator in lowest terms, each with integer coefficients and no common
    integer factor; atoms maps each input name (or mean(...) call, by its text) to its variable index."""
    n = len(atoms)
    if n > MAX_ATOMS:
        raise TooComplex(f"the formula uses more than {MAX_ATOMS} inputs")
    num, den = _build(tree.body, atoms, n)
    if not den:
        raise ZeroDivisionError("the formula divides by zero")
    common = gcd(num, den, n)
    num, den = _divide(num, common), _divide(den, common)
    return _integral(num), _integral(den)


def _integral(p: Poly) -> Poly:
    """p times the least common multiple of its denominators: integer coefficients (the constant is kept)."""
    scale = lcm(*(c.denominator for c in p.values())) if p else 1
    return {m: c * scale for m, c in p.items()}


def factor_and_terms(num: Poly, den: Poly) -> tuple[Fraction, list[Fraction]]:
    """(k, coefficients) such that the formula is k · N / D with N and D primitive integer polynomials: an honest
    definition has k = ±1 and every coefficient ±1."""
    cn = Fraction(igcd(*(int(c) for c in num.values()))) if num else Fraction(1)
    cd = Fraction(igcd(*(int(c) for c in den.values())))
    return cn / cd, [c / cn for c in num.values()] + [c / cd for c in den.values()]


def _build(node: ast.expr, atoms: dict[str, int], n: int) -> tuple[Poly, Poly]:
    one = _const(1, n)
    key = _atom_key(node)
    if key is not None:
        v = atoms[key]
        return {tuple(1 if i == v else 0 for i in range(n)): Fraction(1)}, one
    if isinstance(node, ast.UnaryOp):
        num, den = _build(node.operand, atoms, n)
        return ({m: -c for m, c in num.items()} if isinstance(node.op, ast.USub) else num), den
    assert isinstance(node, ast.BinOp), "expr.parse admits names, calls, unary and binary operators only"
    an, ad = _build(node.left, atoms, n)
    bn, bd = _build(node.right, atoms, n)
    if isinstance(node.op, (ast.Add, ast.Sub)):
        sign = 1 if isinstance(node.op, ast.Add) else -1
        return _add(_mul(an, bd), _mul(bn, ad), sign), _mul(ad, bd)
    if isinstance(node.op, ast.Mult):
        return _mul(an, bn), _mul(ad, bd)
    if not bn:
        raise ZeroDivisionError(f"'{ast.unparse(node)}' divides by zero ({ast.unparse(node.right)} is 0)")
    return _mul(an, bd), _mul(ad, bn)


def _atom_key(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call):
        return ast.unparse(node)
    return None


def atoms_of(tree: ast.Expression) -> dict[str, int]:
    """Each input name and mean()/geomean() call in the formula, by its text, with a variable index."""
    keys: dict[str, int] = {}

    def visit(node: ast.AST) -> None:
        key = _atom_key(node) if isinstance(node, ast.expr) else None
        if key is not None:
            keys.setdefault(key, len(keys))
            return  # a call's arguments are inside its atom
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return keys
