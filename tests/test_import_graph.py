"""The layering of the packages, read from the source: every `import` of src/boardwright (lazy
ones inside functions included) is parsed with `ast`, so a forbidden or circular dependency
fails here before it shows as an import error in one entry point only. Below the parts, the
imports each module runs when it is imported must form no cycle between modules."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "boardwright"
ROOT = "boardwright"  # the package's __init__: it re-exports the core
# What each top-level part may not import (besides the cycle rule, which holds for all).
FORBIDDEN = {
    "core": {"games", "duel", "agents", "render", "rl", "sim", "web", "cli"},
    "duel": {"games", "agents", "render", "rl", "sim", "web", "cli"},
    "games": {"agents", "render", "rl", "sim", "web", "cli"},
    "agents": {"games", "render", "rl", "sim", "web", "cli"},
    "sim": {"web", "cli", "render", "rl"},
    "render": {"web", "cli", "sim", "rl"},
    "web": {"cli", "sim", "rl"},
    "rl": {"web", "cli", "sim"},
}


def part_of_file(path: Path) -> str:
    """The top-level part a source file belongs to: its package, or its module's name."""
    first = path.relative_to(SRC).parts[0]
    if first == "__init__.py":
        return "core"
    return first.removesuffix(".py")


def part_of_module(module: str) -> str | None:
    """The top-level part of a dotted module name inside boardwright (None: outside)."""
    names = module.split(".")
    if names[0] != ROOT:
        return None
    if len(names) == 1:
        return "core"
    return names[1]


def imports(path: Path) -> set[str]:
    """The top-level parts of boardwright a file imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                part = part_of_module(alias.name)
                if part is not None:
                    found.add(part)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == ROOT:  # from boardwright import rules_coverage / Game
                for alias in node.names:
                    sub = SRC / alias.name
                    found.add(alias.name if sub.is_dir() or sub.with_suffix(".py").is_file()
                              else "core")
            else:
                part = part_of_module(node.module)
                if part is not None:
                    found.add(part)
        elif isinstance(node, ast.ImportFrom) and node.level > 0:
            raise AssertionError(f"{path}: relative import; the project imports absolutely")
    return found


def graph() -> dict[str, dict[str, list[str]]]:
    """part -> imported part -> the files that import it."""
    edges: dict[str, dict[str, list[str]]] = {}
    for path in sorted(SRC.rglob("*.py")):
        part = part_of_file(path)
        for other in imports(path):
            if other != part:
                edges.setdefault(part, {}).setdefault(other, []).append(
                    str(path.relative_to(SRC)))
    return edges


def test_the_graph_is_read_from_every_part() -> None:
    edges = graph()
    assert {"cli", "web", "render", "games", "agents", "sim", "rl"} <= set(edges)
    assert "core" in edges["games"] and "agents" in edges["cli"]


def test_no_part_imports_what_sits_above_it() -> None:
    edges = graph()
    wrong = [f"{part} imports {other} in {', '.join(files)}"
             for part, targets in edges.items() for other, files in targets.items()
             if other in FORBIDDEN.get(part, set())]
    assert not wrong, "\n".join(wrong)


def test_no_cycle_between_top_level_parts() -> None:
    edges = {part: set(targets) for part, targets in graph().items()}

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            node = todo.pop()
            if node == goal:
                return True
            if node not in seen:
                seen.add(node)
                todo.extend(edges.get(node, ()))
        return False

    cycles = sorted(f"{a} -> {b} -> ... -> {a}" for a, targets in edges.items()
                    for b in targets if reaches(b, a))
    assert not cycles, "\n".join(cycles)


# -- module-level cycles ----------------------------------------------------------------------------
#
# A cycle between two modules of one part passes the layering above but can still fail at import
# time, in whichever order the modules happen to be imported first. So the imports that run when
# a module is imported (its top-level statements, including those under `if`, `try`, `with` and
# in class bodies)
# must form no cycle between any two modules of src/boardwright. Imports under `if
# TYPE_CHECKING:` never run, and imports inside functions run only when the function is called,
# once every module is loaded: neither counts here (a module may name its caller's types, or
# import a heavy dependency late, without making a cycle at import time).


def module_name(path: Path) -> str:
    """The dotted name of a source file ("boardwright.web.live"; a package's __init__ is the
    package)."""
    names = (ROOT, *path.relative_to(SRC).with_suffix("").parts)
    return ".".join(names[:-1] if names[-1] == "__init__" else names)


def _type_checking(test: ast.expr) -> bool:
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def run_time_imports(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """The import statements that run when a module with this body is imported."""
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If):
            if not _type_checking(node.test):
                found.extend(run_time_imports(node.body))
            found.extend(run_time_imports(node.orelse))
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody,
                          *(handler.body for handler in node.handlers)):
                found.extend(run_time_imports(block))
        elif isinstance(node, (ast.With, ast.ClassDef)):  # a class body runs at import too
            found.extend(run_time_imports(node.body))
    return found


def imported_modules(node: ast.Import | ast.ImportFrom, known: set[str]) -> set[str]:
    """The boardwright modules an import statement names: `from package import module` names
    the module, `from module import name` the module."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in known}
    if node.level or not node.module:
        return set()
    out = set()
    for alias in node.names:
        sub = f"{node.module}.{alias.name}"
        out.add(sub if sub in known else node.module)
    return out & known


def module_graph() -> dict[str, set[str]]:
    """module -> the boardwright modules it imports when it is imported."""
    files = {module_name(path): path for path in sorted(SRC.rglob("*.py"))}
    known = set(files)
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        graph[name] = {target for node in run_time_imports(tree.body)
                       for target in imported_modules(node, known)} - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without
    recursion): each is a set of modules that import one another, directly or not."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def test_cycles_are_found_however_long() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"d", "f"}, "f": {"e"}}
    assert cycles(graph) == [["a", "b", "c"], ["e", "f"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_the_module_graph_reads_run_time_imports_only() -> None:
    graph = module_graph()
    assert "boardwright.web.authority" in graph["boardwright.web.manager"]  # from ... import
    assert "boardwright.web.clocks" in graph["boardwright.web.app"]  # from package import module
    assert "boardwright.core" in graph[ROOT]
    # named under `if TYPE_CHECKING:` only: the manager's services name it, never import it
    assert "boardwright.web.manager" not in graph["boardwright.web.authority"]


def test_imports_inside_functions_and_for_type_checking_do_not_run_at_import() -> None:
    tree = ast.parse(
        "import a\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import b\nelse:\n    import c\n"
        "try:\n    import d\nexcept ImportError:\n    import e\n"
        "def late():\n    import f\n"
        "class Late:\n    import g\n")
    names = {alias.name for node in run_time_imports(tree.body)
             for alias in node.names}
    assert names == {"a", "TYPE_CHECKING", "c", "d", "e", "g"}


def test_no_import_cycle_between_modules() -> None:
    found = cycles(module_graph())
    assert not found, "modules that import one another when imported:\n" + "\n".join(
        " <-> ".join(component) for component in found)
