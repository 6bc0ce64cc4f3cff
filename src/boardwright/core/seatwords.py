"""Sentences that name seats, for front ends that name the seats their own way.

A game words its sentences itself (each game's texts.py), naming seats through a `SeatName`
(seat -> words), by default the seat's name in the game's seat table ("Red"). A terminal or a
log reads that text as it is. A front end that knows who sits at each seat (the web table:
"Ann", "bot: hard", with a swatch of the seat's colour) needs the same sentence with the seats
left open: `words` gives it as pieces, each a piece of the game's text or `{"seat": n}`, and the
front end draws each seat piece its way. The game still chooses every word and where each seat
goes; the front end only supplies who.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SeatName = Callable[[int], str]
Words = list[str | dict[str, int]]

# A seat marked inside a sentence while it is being worded (never left in a text).
_MARK = "\x1f"


def _is_seat(seat: object, seats: int | None) -> bool:
    return type(seat) is int and seat >= 0 and (seats is None or seat < seats)


def words(render: Callable[[SeatName], str], name: SeatName, seats: int | None = None) -> Words:
    """The sentence `render(name)` as pieces: text, and `{"seat": n}` where it names seat n.
    `seats` bounds the seat numbers (a number outside, such as "nobody"'s -1, keeps `name`'s
    words)."""

    def mark(seat: int) -> str:
        return f"{_MARK}{seat}{_MARK}" if _is_seat(seat, seats) else name(seat)

    parts = render(mark).split(_MARK)
    out: Words = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append({"seat": int(part)})
        elif part:
            out.append(part)
    return out


def sentence(render: Callable[[SeatName], str], name: SeatName,
             seats: int | None = None) -> dict[str, Any]:
    """`{"text": render(name)}`, with `"words"` (see `words`) when the sentence names a seat:
    the fields a view's entry carries for its sentence."""
    out: dict[str, Any] = {"text": render(name)}
    pieces = words(render, name, seats)
    if any(isinstance(p, dict) for p in pieces):
        out["words"] = pieces
    return out


__all__ = ["SeatName", "Words", "sentence", "words"]
