"""`boardwright rules coverage`: each documented rule ID with the tests that mark it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from boardwright.cli.apps import rules_app
from boardwright.cli.common import FAILURE, USAGE, fail, new_console
from boardwright.render.safe_text import safe_markup, safe_text, visible

_TITLE = re.compile(r"^#{2,4}\s+([A-Z]{3}-[A-Z]+(?:-[A-Z0-9]+)*-\d{2})\b\s*[—–:-]*\s*(.*)$",
                    re.MULTILINE)


def _rule_titles(doc: Path) -> dict[str, str]:
    try:
        text = doc.read_text(encoding="utf-8")
    except OSError:
        return {}
    return {rule: title.strip() for rule, title in _TITLE.findall(text)}


@rules_app.command("coverage")
def rules_coverage(
    game: Annotated[str | None, typer.Argument(
        help="The game whose rules to check (all documented games when omitted).")] = None,
    root: Annotated[Path | None, typer.Option(
        help="A boardwright checkout (default: search upward from the current folder).")] = None,
) -> None:
    """List each documented rule ID with its tests; exit 1 if any rule has no test."""
    from boardwright import rules_coverage as rc

    console = new_console()
    if root is not None and not ((root / "docs" / "rules").is_dir() and (root / "tests").is_dir()):
        fail(f"--root {root} is not a boardwright checkout (it needs docs/rules and tests)",
              USAGE)
    try:
        project = root.resolve() if root is not None else rc.find_project_root()
    except FileNotFoundError as exc:
        fail(str(exc), USAGE)
    names = [game] if game else rc.documented_games(project)
    if not names:
        console.print(safe_text(f"No rule documents in {project / 'docs' / 'rules'}."))
        return
    missing_any = False
    for name in names:
        try:
            result = rc.coverage(name, project)
        except FileNotFoundError as exc:
            fail(f"{exc} (documented games: {', '.join(rc.documented_games(project)) or 'none'})",
                  USAGE)
        except SyntaxError as exc:
            fail(f"cannot read test file {exc.filename}: {exc.msg}", FAILURE)
        missing_any |= bool(result.missing)
        _print_coverage(console, result, _rule_titles(project / "docs" / "rules" / f"{name}.md"))
    if missing_any:
        raise typer.Exit(FAILURE)


def _print_coverage(console: Console, result: Any, titles: dict[str, str]) -> None:
    documented, missing = result.documented, result.missing
    tested = len(documented) - len(missing)
    out_of_scope = _out_of_scope_note(result)
    table = Table(title=f"{safe_markup(result.game)}: {tested} of {len(documented)} rule IDs "
                        "tested", title_justify="left", title_style="bold")
    id_width = max((len(rule) for rule in documented), default=7)
    table.add_column("Rule ID", no_wrap=True, min_width=id_width)
    cells = []
    for rule in documented:
        places = result.tested.get(rule, [])
        if places:
            where = Path(places[0]).name + (f" +{len(places) - 1}" if len(places) > 1 else "")
            cells.append(safe_text(where, style="green"))
        else:
            cells.append(Text("missing", style="bold red"))
    tests_width = max([len(c) for c in cells] + [20])
    # Rich crops rather than shrinks no-wrap columns: give the title what the others leave.
    title_width = max(10, min(40, console.width - id_width - tests_width - 10))
    table.add_column("Title", overflow="ellipsis", no_wrap=True, max_width=title_width)
    table.add_column("Tests (first, +more)", no_wrap=True, min_width=tests_width)
    for rule, cell in zip(documented, cells):
        table.add_row(safe_text(rule), safe_markup(titles.get(rule, "")), cell)
    console.print(table)
    if missing:
        console.print(Text(f"{len(missing)} rule ID(s) of {visible(result.game)} have no test:",
                           style="bold red"))
        for rule in missing:
            console.print(safe_text(f"  {rule}"), highlight=False)
    else:
        console.print(Text(f"Every rule ID of {visible(result.game)} has a test.",
                           style="bold green"))
    if out_of_scope:
        console.print(Text(f"{out_of_scope}: documented, no test needed.", style="dim"),
                      soft_wrap=True)
    for rule in result.unknown:
        console.print(Text(f"warning: tests mark {visible(rule)}, which {visible(result.game)}'s "
                           "rule document "
                           "does not define", style="yellow"), soft_wrap=True)


def _out_of_scope_note(result: Any) -> str:
    """E.g. "42 out of scope (other expansions)"; empty when the document lists none.

    Out-of-scope IDs are points of expansions the engine does not have: listed in the rule
    document so nothing is forgotten, but neither tested nor missing.
    """
    ids = [rule for rule in getattr(result, "out_of_scope", ()) if rule not in result.documented]
    return f"{len(ids)} out of scope (other expansions)" if ids else ""
