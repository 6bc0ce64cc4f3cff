"""Queens moves as the terminal lists them and a player types them, in the board's names of
the spaces (the names are the game's: `games/queens/texts.py`).

The board is drawn row by row, each row shifted by half a cell, so the spaces of every other
row stand in the same character columns. Rows are lettered from the top (a, b, ..., k on the
board of radius 5) and the half-cell columns numbered from the left (1 to 21), the numbers
printed above and below the board: a space is its row letter and the column number over it,
`f11` the centre. Every space has one such name and every name one space (a row holds only
the columns of one parity).

A move reads as the screen lists it: `f11-e10` (a piece moves; `x` instead of `-` marks an
attack, and either is accepted), `e10+g10xf9` (two Princes attack together), `sow e4`,
`found` (a City where the Queen stands) and `pass`. Axial coordinates `(q,r)`, the rule
document's names, are read wherever a label is.
"""

from __future__ import annotations

import re
from typing import Sequence

from boardwright.core.actions import Action
from boardwright.games.queens.actions import Found, Joint, Move, Pass, Sow
from boardwright.games.queens.texts import ROW_LETTERS, column, columns, label, row_letter

Coord = tuple[int, int]
SPACE = r"(?:[a-z]\d{1,2}|\(\s*-?\d+\s*,\s*-?\d+\s*\))"
MOVE = re.compile(rf"^({SPACE})\s*([-x])\s*({SPACE})$")
JOINT = re.compile(rf"^({SPACE})\s*\+\s*({SPACE})\s*[-x]\s*({SPACE})$")
SOW = re.compile(rf"^sow\s+({SPACE})$")
AXIAL = re.compile(r"^\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)$")


def parse_space(text: str, radius: int) -> Coord | None:
    """The space a board name (`f11`) or axial pair (`(0,0)`) names, None if none does."""
    text = text.strip().lower()
    axial = AXIAL.match(text)
    if axial:
        coord = int(axial.group(1)), int(axial.group(2))
    else:
        if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
            return None
        r = ROW_LETTERS.find(text[0]) - radius
        h = int(text[1:]) - 1 - r
        if h % 2:
            return None
        coord = h // 2 - radius, r
    q, r = coord
    return coord if max(abs(q), abs(r), abs(q + r)) <= radius else None


def move_label(action: Action, radius: int, attack: bool = False) -> str:
    """An action as the screen lists it and a player may type it (`attack` marks a move onto
    an enemy piece or City with `x`)."""
    name = lambda coord: label(coord, radius)  # noqa: E731
    if isinstance(action, Move):
        return f"{name(action.src)}{'x' if attack else '-'}{name(action.dst)}"
    if isinstance(action, Joint):
        return f"{name(action.first)}+{name(action.second)}x{name(action.target)}"
    if isinstance(action, Sow):
        return f"sow {name(action.at)}"
    if isinstance(action, Found):
        return "found"
    if isinstance(action, Pass):
        return "pass"
    raise ValueError(f"no label for {action!r}")


def parse_move(text: str, radius: int) -> Action | None:
    """The action a typed move names (legal or not: the caller checks), None if the text is
    no move."""
    text = " ".join(text.strip().lower().split())
    if text in ("found", "found a city", "city"):
        return Found()
    if text == "pass":
        return Pass()
    spaces = lambda *groups: [parse_space(g, radius) for g in groups]  # noqa: E731
    match = SOW.match(text)
    if match:
        (at,) = spaces(match.group(1))
        return None if at is None else Sow(at)
    match = MOVE.match(text)
    if match:
        src, dst = spaces(match.group(1), match.group(3))
        return None if src is None or dst is None else Move(src, dst)
    match = JOINT.match(text)
    if match:
        first, second, target = spaces(*match.groups())
        if first is None or second is None or target is None:
            return None
        return Joint(first, second, target)
    return None


def looks_like_a_move(text: str) -> bool:
    """Whether the text has the shape of a move (so a wrong one is explained, not taken for
    a number)."""
    text = " ".join(text.strip().lower().split())
    return bool(text in ("found", "pass") or SOW.match(text) or MOVE.match(text)
                or JOINT.match(text))


def find_legal(action: Action, legal: Sequence[Action]) -> Action | None:
    """The legal action equal to `action`, None if it is not legal."""
    for candidate in legal:
        if candidate == action:
            return candidate
    return None


__all__ = ["column", "columns", "find_legal", "label", "looks_like_a_move", "move_label",
           "parse_move", "parse_space", "row_letter"]
