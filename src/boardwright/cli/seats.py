"""How the terminal names the seats of a game: colours, labels ("you", "random") and whose
eyes the move lines are written for."""

from __future__ import annotations

from typing import Any, Sequence

from rich.text import Text

from boardwright.agents import HUMAN
from boardwright.render.safe_text import visible

def seat_labels(seats: Sequence[str]) -> list[str]:
    """What sits in each seat, as shown beside its colour: "you" for the one human ("human"
    when several share the terminal), else the agent string, its control characters made
    visible (it comes from the command line or a record)."""
    humans = sum(1 for s in seats if s == HUMAN)
    return [("you" if humans == 1 else HUMAN) if s == HUMAN else visible(s) for s in seats]


def screen_reader(seats: Sequence[str]) -> int | None:
    """Whom the move lines of a terminal game are written for: the human's seat when one
    human plays (their own secret choices are shown whole, the bots' are not), else a
    spectator. Several humans share one screen, so a line one of them may not read is shown
    to none of them in full; a demo between bots shows what a spectator would see."""
    humans = [seat for seat, kind in enumerate(seats) if kind == HUMAN]
    return humans[0] if len(humans) == 1 else None


def describe_seats(labels: Sequence[str], name: Any) -> Text:
    text = Text()
    for seat, label in enumerate(labels):
        if seat:
            text.append(" vs ")
        text.append_text(name(seat))
        text.append(f" ({visible(label)})")
    return text


def seat_namer(renderer: Any) -> Any:
    """How a game names its seats: its renderer's `seat_text` (the game's `info.seats`)."""
    return renderer.seat_text
