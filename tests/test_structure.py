"""The codebase's shape, checked: imports point one way (no circle), modules and functions stay small.

Complexity (at most 10 per function) is ruff's C90 rule, run by .ci/run; these are the limits
ruff does not check. Each failure names the module or function and the limit it passes.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scorecard"
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60


def _runtime_imports(tree: ast.Module) -> set[str]:
    """The package's modules a module imports when it runs (imports under `if TYPE_CHECKING:` are types only)."""
    typing_only = {id(n) for node in ast.walk(tree)
                   if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and id(node) not in typing_only:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(alias.name for alias in node.names if (PACKAGE / f"{alias.name}.py").exists())
    return out


def _graph() -> dict[str, set[str]]:
    return {path.stem: _runtime_imports(ast.parse(path.read_text())) - {path.stem, "__init__"}
            for path in sorted(PACKAGE.glob("*.py"))}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the modules around it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_circle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_imports_point_one_way():
    assert _cycle(_graph()) is None


def test_the_pipeline_stages_do_not_import_the_commands():
    """load, check, resolve and render never reach into a command's module (review, diff, serve, cli)."""
    graph = _graph()
    commands = {"cli", "review", "diff", "serve", "scaffold", "pipeline"}
    for stage in ("load", "yamldoc", "check", "rules", "resolve", "render", "write"):
        seen, todo = set(), [stage]
        while todo:
            for nxt in graph[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        assert not seen & commands, (stage, sorted(seen & commands))


def test_modules_stay_small():
    long = {p.name: n for p in PACKAGE.glob("*.py") if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES}
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_functions_stay_short():
    long = []
    for path in sorted(PACKAGE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long.append(f"{path.name}:{node.lineno} {node.name} ({length} lines)")
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"
