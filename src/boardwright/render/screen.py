"""The screen of a human's decision in the terminal: what a renderer draws for the terminal
size, the commands a game adds to the prompt, and the help each game prints.

A decision screen is the heading rule, the position, the numbered menu, then the prompt. A
renderer that knows how to fit its drawing to the terminal (Carcassonne's board viewport) has a
`screen(state, size)` method; any other renderer's screen is its position followed by its menu.
Games may also read their own commands at the prompt (`command`): panning the board, a move
typed by the labels the board shows. The command line owns the prompt and the keys every game
shares (a number, `?` hint, `h` help, `q` quit); this module only describes them.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from typing import Any, Sequence

from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from boardwright.core.actions import Action
from boardwright.core.game import State
from boardwright.render.safe_text import guarded

PROMPT_LINES = 1  # the prompt under the menu
HELP_KEYS = ("h", "help")


@dataclass(frozen=True)
class Size:
    """The room a drawing may take, in character cells."""

    width: int
    height: int


@dataclass
class Reply:
    """What a game's own command typed at the prompt does: name the move to play (`action`),
    ask for the decision screen to be drawn again (`redraw`, after the view moved), or print
    some lines (`lines`: an explanation, an error)."""

    action: Action | None = None
    redraw: bool = False
    lines: list[RenderableType] = field(default_factory=list)


def shared_keys(hint: bool = True) -> list[tuple[str, str]]:
    """The keys every game's prompt reads, as (key, what it does)."""
    keys = [("a number", "play the move of that number in the list")]
    if hint:
        keys.append(("?", "a hint: the bot's three best moves, by their numbers"))
    keys += [("h, help", "this help"), ("q", "leave the game (you may save its record)")]
    return keys


def help_lines(title: str, keys: Sequence[tuple[str, str]], notes: Sequence[str] = ()
               ) -> list[Text]:
    """A short "how to play here": a title, one line per key, then a few notes."""
    out = [Text(f"How to play {title} here", style="bold")]
    width = max(len(key) for key, _ in keys) + 2
    for key, meaning in keys:
        line = Text("  ")
        line.append(key.ljust(width), style="bold cyan")
        line.append(meaning)
        out.append(line)
    out.extend(Text("  " + note, style="dim") for note in notes)
    return out


def decision_screen(renderer: Any, state: State, size: Size | None = None
                    ) -> list[RenderableType]:
    """Everything drawn above the prompt of a human's decision: the heading rule, then the
    renderer's screen for `size` (the whole terminal: the rule and the prompt line are taken
    off before the renderer sees it), or its position and menu when it does not fit drawings
    to a size."""
    out: list[RenderableType] = [Rule(renderer.heading(state))]
    inner = None if size is None else Size(size.width, max(1, size.height - 1 - PROMPT_LINES))
    screen = getattr(renderer, "screen", None)
    if screen is not None:
        out.extend(screen(state, inner))
    else:
        out.extend(renderer.position(state, marks=True))
        out.extend(renderer.menu(state)[1])
    return out


def print_screen(console: Console, renderables: Sequence[RenderableType]) -> None:
    """Print a decision screen: text wraps at the terminal's width, boards (texts that never
    wrap) are cut at its edge, so every line the screen takes is one line of the terminal.
    No control character of the drawings reaches the terminal raw (`safe_text.guarded`)."""
    for renderable in renderables:
        console.print(guarded(renderable), crop=True)


def render_lines(renderables: Sequence[RenderableType], width: int) -> list[str]:
    """The plain lines `renderables` take when `print_screen` prints them `width` columns
    wide."""
    console = Console(width=width, no_color=True, record=True, file=io.StringIO(),
                      highlight=False, legacy_windows=False)
    print_screen(console, renderables)
    return console.export_text().splitlines()


def height_of(renderables: Sequence[RenderableType], width: int) -> int:
    return len(render_lines(renderables, width))


__all__ = ["HELP_KEYS", "PROMPT_LINES", "Reply", "Size", "decision_screen", "height_of",
           "help_lines", "print_screen", "render_lines", "shared_keys"]
