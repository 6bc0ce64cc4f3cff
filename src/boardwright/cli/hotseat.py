"""Several humans at one terminal (hot seat) in a game with secrets.

Each human decides on a screen that shows their own view, their secrets included (their hand,
their dice). Before the next human's screen is drawn, the terminal is cleared and handed over:
"Blue's turn: pass the terminal to Blue", and nothing more is shown until Blue presses Enter,
so neither sees the other's secrets. The public lines printed since Blue last decided (the
moves, worded for a spectator) are printed again after the hand-over, as the clearing took them
away. A game of perfect information (its `info`: Carcassonne, Queens) has no secrets to keep,
and its hot seat is played without hand-overs. Otherwise a screen holds secrets unless the
renderer says it does not (`shows_secrets(state, seat)`: the generic renderer compares the
seat's view with a spectator's); Rise of the Shogun's always show the seat's hand and mission.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from boardwright.agents import HUMAN
from boardwright.cli.common import emit
from boardwright.cli.prompt import Prompter

QUIT = ("q", "quit", "exit")
CLEAR_SCROLLBACK = "\x1b[3J"


@dataclass
class HotSeat:
    """Hands the terminal over between the humans of one game (nothing to do with fewer than
    two humans)."""

    console: Console
    prompter: Prompter
    renderer: Any
    seats: Sequence[str]
    name: Callable[..., Text]
    log: list[RenderableType] = field(default_factory=list)  # the public lines of the game
    seen: dict[int, int] = field(default_factory=dict)  # human seat -> lines of log it saw
    shown: int | None = None  # the human whose screen is on the terminal
    secret: bool = False  # whether that screen holds secrets

    @property
    def active(self) -> bool:
        return sum(1 for kind in self.seats if kind == HUMAN) > 1

    def say(self, renderable: RenderableType) -> None:
        """Print a public line (a move, an event) and keep it for the humans who will not have
        seen it."""
        emit(self.console, renderable)
        if self.active:
            self.log.append(renderable)

    def before_decision(self, state: Any) -> bool:
        """Called before a human's decision screen is drawn: hands the terminal over when
        another human's secrets are on it or this one's will be. False when they typed q."""
        if not self.active:
            return True
        seat = state.current_player
        secret = self._secrets(state, seat)
        if self.shown is not None and self.shown != seat and (self.secret or secret):
            self._clear()
            who = self.name(seat)
            self.console.print(Rule(who.copy().append("'s turn", style="")))
            prompt = who.copy()
            prompt.append(", press Enter when only you can see the screen (q quits): ",
                          style="")
            emit(self.console, Text.assemble("Pass the terminal to ", who, "."))
            if self.prompter.ask(prompt).lower() in QUIT:
                return False
            self._clear()
            missed = self.log[self.seen.get(seat, 0):]
            if missed:
                emit(self.console, Text("Since your last turn:" if seat in self.seen
                                        else "So far:", style="bold"))
                for line in missed:
                    emit(self.console, line)
        self.shown, self.secret = seat, secret
        self.seen[seat] = len(self.log)
        return True

    def _clear(self) -> None:
        """Clear the screen, and on a terminal its scrollback too (ESC [3J, which xterm-like
        terminals honour), so that scrolling up shows nothing of the other human's screen."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write(CLEAR_SCROLLBACK)
            self.console.file.flush()

    def _secrets(self, state: Any, seat: int) -> bool:
        """Whether `seat`'s screen shows what the others may not see."""
        if state.game.info.perfect_information:
            return False
        shows = getattr(self.renderer, "shows_secrets", None)
        return True if shows is None else bool(shows(state, seat))


__all__ = ["HotSeat"]
