"""The `boardwright` command line (Typer + Rich), one module per command.

    boardwright play carcassonne --players human,random --seed 3 --save game.json
    boardwright play carcassonne --players random,random --expansion abbey_mayor
    boardwright show game.json [--step N | --to-end] [--engine native]
    boardwright analyse game.json [--workers 2] [--iterations 480] [--seed 0] [--out FILE]
    boardwright simulate carcassonne --agents mcts:iters=200,random -n 100 --workers 2 --seed 1
    boardwright simulate carcassonne --agents random -n 1000 --engine native
    boardwright rules coverage [GAME] [--root PATH]
    boardwright games
    boardwright serve [--host 127.0.0.1] [--port 8000] [--db URL]

Every error the engine raises on purpose (`BoardwrightError`) ends as one red line and an exit
code, never a traceback: 2 for usage errors (unknown game, bad option, bad agent, bad
argument), 1 for everything else (a corrupt record, input that ran out). Input is read line by
line from stdin, so games can be scripted or tested by piping answers in.

The modules: `apps` (the Typer applications), `common` (consoles, exit codes, errors),
`prompt` (a human's answers), `arguments` and `seats` (what commands share), then one module
per command: `play`, `show`, `analyse`, `rules`, `simulate` (with `results_table`), `serve`
and `listings` (`games`, `options`, `agents`). Importing this package registers them all.
"""

from __future__ import annotations

# Each command module registers its command on `app` when imported, in the order of `--help`.
from boardwright.cli import play, show, analyse, rules, simulate, serve, listings  # noqa: F401
from boardwright.cli.apps import app


def main() -> None:
    """Entry point of the `boardwright` script."""
    app()


__all__ = ["app", "main"]
