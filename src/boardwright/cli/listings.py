"""`boardwright games`, `options` and `agents`: what this installation can play and with what."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

import boardwright as bw
from boardwright.cli.apps import app
from boardwright.cli.common import friendly_errors, new_console
from boardwright.render.safe_text import safe_text

@app.command()
def games() -> None:
    """List the games this installation can play, and the engines each can run here."""
    console = new_console()
    table = Table(show_edge=False, box=None, header_style="bold")
    table.add_column("Game")
    table.add_column("Engines")
    table.add_column("Description")
    for name in bw.available_games():
        try:
            doc = [bw.game_info(name).description]  # from the class: no game is created
            engines = ", ".join(bw.available_engines(name))
        except bw.PluginError as exc:  # an installed game that does not load: say why
            doc, engines = [f"(cannot be loaded) {exc}"], ""
        except bw.BoardwrightError:
            doc, engines = [], ""
        table.add_row(safe_text(name), safe_text(engines), safe_text(doc[0]) if doc else "")
    console.print(table)


@app.command("options")
def options_command(
    game: Annotated[str, typer.Argument(help="The game, e.g. carcassonne.")],
    players: Annotated[int, typer.Option(
        "--players", "-p", min=1, max=8,
        help="Seats: some ranges and defaults depend on them.")] = 2,
) -> None:
    """List a game's options (`Game.option_specs`): type and range, what each does, its default.
    They go to `play`, `simulate` and `serve`'s lobby as --option key=value."""
    from boardwright.core.options import describe_specs

    console = new_console()
    with friendly_errors():
        specs = bw.option_specs(game, players)
    if not specs:
        console.print(safe_text(f"{game} has no options."))
        return
    table = Table(show_edge=False, box=None, header_style="bold")
    table.add_column("Option", no_wrap=True)
    table.add_column("Values")
    table.add_column("What it does")
    for name, kind, text in describe_specs(specs):
        table.add_row(safe_text(name), safe_text(kind), safe_text(text))
    console.print(table)


@app.command("agents")
def agents_command() -> None:
    """List the agents agent strings may name: built-in ones, installed plugins (the
    `boardwright.agents` entry points) and their parameters, and the levels."""
    from boardwright.agents import AGENTS, LEVELS, PARAMETERS, available_agents
    from boardwright.agents.registry import lookup

    console = new_console()
    table = Table(show_edge=False, box=None, header_style="bold")
    table.add_column("Agent")
    table.add_column("Parameters")
    table.add_column("From")
    for name in available_agents():
        if name in AGENTS:
            table.add_row(safe_text(name), safe_text(", ".join(sorted(PARAMETERS[name]))),
                          "built in")
            continue
        try:
            entry = lookup(name)
        except bw.BoardwrightError as exc:
            table.add_row(safe_text(name), "", safe_text(f"(cannot be loaded) {exc}"))
            continue
        if entry is not None:
            table.add_row(safe_text(name), safe_text(", ".join(sorted(entry.parameters))),
                          safe_text(entry.origin))
    console.print(table)
    console.print(Text("Levels: " + ", ".join(f"{level.name} ({level.agent})"
                                                for level in LEVELS.values())))
