"""The seats of a Queens game as its messages and views name them: the colour table
(QUE-COMP-01, QUE-SETUP-04), the 'nobody' marker of the per-space lists, and a space written
as its coordinate. Kept apart from the state so the rules modules and the state can share it."""

from __future__ import annotations

from boardwright.core.info import Seat
from boardwright.games.queens.board import Coord

# The players' colours in seat order (QUE-COMP-01, QUE-SETUP-04), the one table of them
# (`QueensGame.info`).
SEATS = (Seat("Red", "#d8322a", "bold red"), Seat("Blue", "#2a64d8", "bold blue"),
         Seat("Green", "#2f9e44", "bold green"), Seat("Yellow", "#e5b914", "bold yellow"))
COLOURS = tuple(seat.name for seat in SEATS)
NOBODY = -1


def colour(seat: int) -> str:
    return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"Seat {seat}"


def xy(coord: Coord) -> str:
    return f"({coord[0]},{coord[1]})"
