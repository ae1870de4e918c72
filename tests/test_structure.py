"""The codebase's shape, checked: modules in layer subpackages, imports pointing one way (down the layers, no
circle, type-only imports included), modules and functions small.

Complexity (at most 10 per function) is ruff's C90 rule, run by .ci/run; these are the limits
ruff does not check. Each failure names the module or function and the limit it passes.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scorecard"
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
# The layers, lowest first: a module imports modules of its own layer or of a layer below, never above.
LAYERS = ["core", "measure", "ledger", "history", "site", "cli"]


@functools.cache
def _modules() -> dict[str, Path]:
    """Every module by its dotted name below scorecard (measure.units), packages' __init__ included."""
    return {".".join(p.relative_to(PACKAGE).with_suffix("").parts): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(name: str, tree: ast.Module, typing_too: bool) -> set[str]:
    """The package's modules a module imports (with typing_too, those under `if TYPE_CHECKING:` as well)."""
    typing_only = {id(n) for node in ast.walk(tree)
                   if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    modules = _modules()
    here = name.split(".")[:-1]  # the module's package (for __init__, the package itself)
    out: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level == 0 or (id(node) in typing_only and not typing_too):
            continue
        base = here[:len(here) - (node.level - 1)] if node.level > 1 else here
        target = [*base, *(node.module.split(".") if node.module else [])]
        for alias in node.names:
            for candidate in (".".join([*target, alias.name]), ".".join(target)):
                if candidate in modules:
                    out.add(candidate)
                    break
    return out


def _graph(typing_too: bool = True) -> dict[str, set[str]]:
    return {name: _imports(name, ast.parse(path.read_text()), typing_too) - {name}
            for name, path in _modules().items() if not name.endswith("__init__") and name != "__main__"}


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


def test_the_import_reader_resolves_relative_imports():
    graph = _graph()
    assert {"measure.units", "measure.stats", "measure.selection"} <= graph["measure.reading"]
    assert "core.findings" in graph["ledger.check"] and "ledger.records" in graph["ledger.check"]
    assert "cli.launch" not in graph["cli.commands"] and "cli.commands" in graph["cli.launch"]


def test_imports_point_one_way_type_only_imports_included():
    assert _cycle(_graph(typing_too=True)) is None


def test_every_module_lives_in_a_layer_and_imports_only_its_own_or_lower_layers():
    upward = []
    for name, deps in _graph(typing_too=True).items():
        layer = name.split(".")[0]
        assert layer in LAYERS, f"{name} is not in a layer's subpackage"
        upward += [f"{name} imports {dep}" for dep in sorted(deps)
                   if dep.split(".")[0] in LAYERS and LAYERS.index(dep.split(".")[0]) > LAYERS.index(layer)]
    assert not upward, upward


def test_each_layer_says_what_it_is_for_and_what_it_may_import():
    for layer in LAYERS:
        doc = ast.get_docstring(ast.parse((PACKAGE / layer / "__init__.py").read_text())) or ""
        assert "May import" in doc and len(doc.split()) > 15, layer


def test_the_pipeline_stages_do_not_import_the_commands():
    """load, check, resolve and render never reach into a command's module (review, diff, serve, cli)."""
    graph = _graph(typing_too=False)
    for stage in ("ledger.load", "ledger.yamldoc", "ledger.check", "ledger.rules", "site.resolve", "site.render",
                  "site.write"):
        seen, todo = set(), [stage]
        while todo:
            for nxt in graph[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        assert not {m for m in seen if m.startswith("cli.")}, (stage, sorted(seen))


# Written by a program, not by hand (tests/test_recordschema.py holds it to what its program gives).
GENERATED = {PACKAGE / "ledger" / "model.py"}


def test_modules_stay_small():
    long = {p.name: n for p in PACKAGE.rglob("*.py")
            if p not in GENERATED and (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES}
    assert not long, f"modules over {MAX_MODULE_LINES} lines: {long}"


def test_functions_stay_short():
    long = []
    for path in sorted(set(PACKAGE.rglob("*.py")) - GENERATED):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long.append(f"{path.name}:{node.lineno} {node.name} ({length} lines)")
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"


def test_no_stage_below_the_command_line_takes_a_bare_root():
    """The ledger's place (core.place.LedgerPlace: its root, safe reads inside it, its git repository, the run's
    dates) is made once and handed down: no function of the measure, ledger, history or site layers takes the root
    as a path of its own (core's path and git primitives, which the place is made of, may)."""
    bare = []
    for name, path in _modules().items():
        if name.split(".")[0] not in ("measure", "ledger", "history", "site"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
                bare += [f"{name}.{node.name}({a.arg})" for a in args if "root" in a.arg.lower()]
    assert not bare, f"take the ledger's place, not its root: {bare}"


def test_a_module_that_imports_inside_functions_says_why():
    """Imports sit at the top, unless the start-up of `--help` or of the hook needs them lazy: a module with an
    import inside a function says which are lazy and why, in its docstring ('Lazy import: ...')."""
    silent = []
    for name, path in _modules().items():
        tree = ast.parse(path.read_text())
        inner = [node for func in ast.walk(tree) if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef))
                 for node in ast.walk(func) if isinstance(node, (ast.Import, ast.ImportFrom))]
        if inner and "Lazy import" not in (ast.get_docstring(tree) or ""):
            silent.append(f"{name} (line {inner[0].lineno})")
    assert not silent, f"imports inside functions with no 'Lazy import' note saying why: {silent}"
