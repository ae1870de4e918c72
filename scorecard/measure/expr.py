"""Derived values: `+ - * /`, parentheses, names and mean()/geomean(), with units carried through. Never eval.

The expression is parsed by Python's `ast` in eval mode, and every node must be one of
Expression, BinOp (+ - * /), UnaryOp (+ -), a Name, or a call of mean or geomean over two or more
distinct names; anything else is refused before any evaluation happens. A number is refused too:
a typed factor in a formula rescales the evidence (LiteralError says which unit does the job).
"""

from __future__ import annotations

import ast
import math

from ..core.structs import frozen
from .units import Dims, Unit

MAX_LENGTH = 500
_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


class ExprError(ValueError):
    """An expression that cannot be evaluated: bad syntax, an unknown name, division by zero, mixed units."""


class LiteralError(ExprError):
    """An expression that holds a number: a typed factor or constant no evidence backs."""


FUNCTIONS = ("mean", "geomean")


@frozen
class Quantity:
    """A number in base units, with its dimensions (() is dimensionless)."""

    value: float
    dims: Dims

    @staticmethod
    def of(value: float, unit: Unit | None) -> Quantity:
        """value in unit, as a quantity in base units (no unit: a plain number)."""
        return Quantity(value, ()) if unit is None else Quantity(value * unit.factor, unit.dims)


def parse(text: str) -> ast.Expression:
    """The checked syntax tree of an expression; ExprError saying what is not allowed."""
    if len(text) > MAX_LENGTH:
        raise ExprError(f"the expression is longer than {MAX_LENGTH} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise ExprError(f"'{text.strip()}' is not an arithmetic expression ({exc.msg})") from None
    except (ValueError, RecursionError, MemoryError):
        raise ExprError("the expression is nested too deeply or is not text") from None
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    for call in calls:
        _check_call(call)
    functions = {id(call.func) for call in calls}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Load, ast.UAdd, ast.USub, ast.Call)):
            continue
        if isinstance(node, ast.Name) and (node.id not in FUNCTIONS or id(node) in functions):
            continue
        if isinstance(node, tuple(_OPS)):
            continue
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            raise LiteralError(f"the number {ast.unparse(node)} is typed into the formula: a formula holds input "
                               "names only")
        raise ExprError(f"{_describe(node)} is not allowed: use + - * /, parentheses, input names and "
                        "mean(a, b) or geomean(a, b)")
    return tree


def _check_call(call: ast.Call) -> None:
    name = call.func.id if isinstance(call.func, ast.Name) else None
    if name not in FUNCTIONS or call.keywords:
        raise ExprError(f"a call ({ast.unparse(call)}) is not allowed: the only functions are mean(a, b, ...) and "
                        "geomean(a, b, ...)")
    args = [a.id for a in call.args if isinstance(a, ast.Name)]
    if len(args) != len(call.args) or len(args) < 2 or len(set(args)) != len(args):
        raise ExprError(f"{ast.unparse(call)} must take two or more different input names, nothing else")


def _describe(node: ast.AST) -> str:
    if isinstance(node, ast.Constant):
        return f"the constant {node.value!r}"
    if isinstance(node, (ast.operator, ast.unaryop)):
        return f"the operator {type(node).__name__}"
    return f"a {type(node).__name__} ({ast.unparse(node)})" if isinstance(node, ast.expr) else type(node).__name__


def names(tree: ast.Expression) -> list[str]:
    """The input names an expression uses, in order of first use (not the functions it calls)."""
    functions = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return list(dict.fromkeys(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in functions))


def evaluate(tree: ast.Expression, inputs: dict[str, Quantity]) -> Quantity:
    """The expression's value over the named quantities."""
    try:
        result = _eval(tree.body, inputs)
    except RecursionError:
        raise ExprError("the expression is nested too deeply") from None
    if not math.isfinite(result.value):
        raise ExprError("the expression's value is not a finite number")
    return result


def _eval(node: ast.expr, inputs: dict[str, Quantity]) -> Quantity:
    if isinstance(node, ast.Name):
        if node.id not in inputs:
            known = ", ".join(sorted(inputs)) or "none"
            raise ExprError(f"'{node.id}' is not one of the inputs (inputs: {known})")
        return inputs[node.id]
    if isinstance(node, ast.Call):
        return _aggregate(node, [_eval(arg, inputs) for arg in node.args])
    if isinstance(node, ast.UnaryOp):
        inner = _eval(node.operand, inputs)
        return Quantity(-inner.value, inner.dims) if isinstance(node.op, ast.USub) else inner
    assert isinstance(node, ast.BinOp)
    a, b = _eval(node.left, inputs), _eval(node.right, inputs)
    op = _OPS[type(node.op)]
    if op in "+-":
        if a.dims != b.dims:
            raise ExprError(f"'{ast.unparse(node)}' adds or subtracts values in units that cannot be converted "
                            "into each other")
        return Quantity(a.value + b.value if op == "+" else a.value - b.value, a.dims)
    if op == "*":
        return Quantity(a.value * b.value, _combine(a.dims, b.dims, 1))
    if b.value == 0:
        raise ExprError(f"'{ast.unparse(node)}' divides by zero ({ast.unparse(node.right)} is 0)")
    return Quantity(a.value / b.value, _combine(a.dims, b.dims, -1))


def _aggregate(node: ast.Call, args: list[Quantity]) -> Quantity:
    """mean() or geomean() of quantities in one unit."""
    if any(a.dims != args[0].dims for a in args):
        raise ExprError(f"{ast.unparse(node)} takes inputs in one unit; these cannot be converted into each other")
    n = len(args)
    scale = max(abs(a.value) for a in args) or 1.0
    if isinstance(node.func, ast.Name) and node.func.id == "mean":
        return Quantity(scale * (math.fsum(a.value / scale for a in args) / n), args[0].dims)  # no overflow
    if any(a.value <= 0 for a in args):
        raise ExprError(f"{ast.unparse(node)}: a geometric mean needs values above zero")
    return Quantity(math.exp(math.fsum(math.log(a.value) for a in args) / n), args[0].dims)


def _combine(a: Dims, b: Dims, sign: int) -> Dims:
    out = dict(a)
    for base, exp in b:
        out[base] = out.get(base, 0) + sign * exp
    return tuple(sorted((k, v) for k, v in out.items() if v))


Interval = tuple[float, float]  # (low, high) in base units; -inf or inf where an end does not exist


def evaluate_interval(tree: ast.Expression, inputs: dict[str, Interval]) -> Interval:
    """The formula's interval from its inputs' intervals: the natural interval extension, each step rounded
    outward, so that it contains the formula's value at every point inside the inputs' intervals (a name that
    repeats may make it wider than the exact range, never narrower). A divisor whose interval holds 0 gives
    an unbounded interval."""
    return _interval(tree.body, inputs)


def _out(low: float, high: float) -> Interval:
    if math.isnan(low) or math.isnan(high):
        return -math.inf, math.inf
    return math.nextafter(low, -math.inf), math.nextafter(high, math.inf)


def _interval(node: ast.expr, inputs: dict[str, Interval]) -> Interval:
    if isinstance(node, ast.Name):
        return inputs[node.id]
    if isinstance(node, ast.Call):
        args = [_interval(arg, inputs) for arg in node.args]
        n = len(args)
        if isinstance(node.func, ast.Name) and node.func.id == "mean":
            return _out(math.fsum(a for a, _ in args) / n, math.fsum(b for _, b in args) / n)
        # exp and log are each within an ulp or two, not exact: widen by a relative 1e-12 beyond rounding outward.
        low, high = _geomean([max(a, 0.0) for a, _ in args]), _geomean([b for _, b in args])
        return _out(low * (1 - 1e-12), high * (1 + 1e-12))
    if isinstance(node, ast.UnaryOp):
        low, high = _interval(node.operand, inputs)
        return (-high, -low) if isinstance(node.op, ast.USub) else (low, high)
    assert isinstance(node, ast.BinOp)
    (a, b), (c, d) = _interval(node.left, inputs), _interval(node.right, inputs)
    if isinstance(node.op, ast.Add):
        return _out(a + c, b + d)
    if isinstance(node.op, ast.Sub):
        return _out(a - d, b - c)
    if isinstance(node.op, ast.Div):
        if c <= 0 <= d:
            return -math.inf, math.inf
        c, d = 1 / d, 1 / c
    products = [x * y for x in (a, b) for y in (c, d)]
    return _out(min(products), max(products))


def _geomean(values: list[float]) -> float:
    if any(v == 0 for v in values):
        return 0.0
    if any(math.isinf(v) for v in values):
        return math.inf
    return math.exp(math.fsum(math.log(v) for v in values) / len(values))
