"""Rule traceability: which rule IDs of a game's rule document have a test.

IDs come from the headings of `docs/rules/<game>.md` (`### CAR-BASE-SETUP-01 — ...`); tests
declare what they cover with `@pytest.mark.rule("ID", ...)`. Points that only matter with an
expansion the engine does not have are listed as bullets (`- **CAR-AM-ABBEY-80** — ...`): they
are documented as out of scope and need no test. Test files are read with `ast`,
not imported, so the check is fast and needs no test dependency.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

RULE_ID = re.compile(r"\b([A-Z]{3}-[A-Z]+(?:-[A-Z0-9]+)*-\d{2})\b")
HEADING = re.compile(r"^#{2,4}\s+([A-Z]{3}-[A-Z]+(?:-[A-Z0-9]+)*-\d{2})\b", re.MULTILINE)
OUT_OF_SCOPE = re.compile(r"^\s*[-*]\s+\*\*([A-Z]{3}-[A-Z]+(?:-[A-Z0-9]+)*-\d{2})\*\*", re.MULTILINE)


@dataclass
class Coverage:
    game: str
    documented: list[str]
    tested: dict[str, list[str]] = field(default_factory=dict)  # id -> test locations
    out_of_scope: list[str] = field(default_factory=list)

    @property
    def missing(self) -> list[str]:
        return [rule for rule in self.documented if rule not in self.tested]

    @property
    def unknown(self) -> list[str]:
        """IDs used in tests that the rule document does not define (typos)."""
        prefixes = {rule.split("-")[0] for rule in self.documented}
        known = set(self.documented) | set(self.out_of_scope)
        return sorted(r for r in self.tested if r not in known and r.split("-")[0] in prefixes)


def find_project_root(start: Path | None = None) -> Path:
    """The nearest folder at or above `start` holding docs/rules and tests."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "docs" / "rules").is_dir() and (folder / "tests").is_dir():
            return folder
    raise FileNotFoundError("no boardwright project (docs/rules and tests) at or above " + str(here))


def documented_ids(doc: Path) -> list[str]:
    seen: dict[str, None] = {}
    for rule in HEADING.findall(doc.read_text(encoding="utf-8")):
        seen.setdefault(rule, None)
    return list(seen)


def out_of_scope_ids(doc: Path) -> list[str]:
    return list(dict.fromkeys(OUT_OF_SCOPE.findall(doc.read_text(encoding="utf-8"))))


def _is_rule_mark(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "rule" and (
        isinstance(node.value, ast.Attribute) and node.value.attr == "mark"
        or isinstance(node.value, ast.Name) and node.value.id == "mark")


def tested_ids(tests: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(tests.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _is_rule_mark(node.func):
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        found.setdefault(arg.value, []).append(f"{path.relative_to(tests.parent)}:{node.lineno}")
    return found


def coverage(game: str, root: Path | None = None) -> Coverage:
    root = root or find_project_root()
    doc = root / "docs" / "rules" / f"{game}.md"
    if not doc.is_file():
        raise FileNotFoundError(f"no rule document {doc}")
    return Coverage(game, documented_ids(doc), tested_ids(root / "tests"), out_of_scope_ids(doc))


def documented_games(root: Path | None = None) -> list[str]:
    root = root or find_project_root()
    return sorted(p.stem for p in (root / "docs" / "rules").glob("*.md"))
