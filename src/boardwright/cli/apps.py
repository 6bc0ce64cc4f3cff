"""The Typer applications the commands register on: `app` (the `boardwright` command) and
`rules_app` (its `rules` group). A module of its own so that every command module can register
on them without importing the others."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="boardwright",
    help="Play, replay and check tabletop board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
rules_app = typer.Typer(help="Rule traceability: which documented rules have tests.",
                        no_args_is_help=True)
app.add_typer(rules_app, name="rules")
