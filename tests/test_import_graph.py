"""The layering of the packages, read from the source: every `import` of src/boardwright (lazy
ones inside functions included) is parsed with `ast`, so a forbidden or circular dependency
fails here before it shows as an import error in one entry point only."""

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
