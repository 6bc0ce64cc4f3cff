"""What every command shares: the consoles, the exit codes, and the one red line an engine error
ends as (never a traceback), plus the `--engine` option. Text from outside (names, records,
options, plug-ins) is printed through `render.safe_text`: never raw, never read as markup."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Annotated, Iterator, NoReturn

import typer
from rich.console import Console, RenderableType
from rich.text import Text

import boardwright as bw
from boardwright.render.safe_text import guarded, visible

USAGE = 2  # exit code of usage errors, as Typer uses for bad arguments
FAILURE = 1
INTERRUPTED = 130  # a simulation stopped by Ctrl-C (it still reports what finished)


def new_console() -> Console:
    """A console on the *current* stdout (test runners swap it), without auto-highlighting."""
    return Console(highlight=False)


def error_console() -> Console:
    """A console on the current stderr, where errors go."""
    return Console(stderr=True, highlight=False)


def fail(message: str, code: int) -> NoReturn:
    """One red line on stderr, then exit: what the user sees instead of a traceback."""
    error_console().print(Text(f"Error: {visible(message)}", style="bold red"), soft_wrap=True)
    raise typer.Exit(code)


class UsageError(bw.BoardwrightError):
    """A bad command-line argument (exit code 2)."""


USAGE_ERRORS = (bw.UnknownGameError, bw.InvalidOptionError, UsageError)


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Turn engine errors into a red message and the right exit code."""
    try:
        yield
    except USAGE_ERRORS as exc:
        fail(str(exc), USAGE)
    except bw.BoardwrightError as exc:
        fail(str(exc), FAILURE)


def emit(console: Console, renderable: RenderableType) -> None:
    """Print without wrapping boards: a board wider than the terminal is cut, never folded. No
    control character reaches the terminal raw (`safe_text.guarded`)."""
    console.print(guarded(renderable), soft_wrap=isinstance(renderable, Text))


ENGINE_HELP = ("The engine that plays the rules: python (the reference) or, for a game that has "
               "one, native (compiled at install time). Default: the game's default; "
               "`boardwright games` lists the engines.")
EngineOption = Annotated[str | None, typer.Option("--engine", metavar="NAME", help=ENGINE_HELP)]
