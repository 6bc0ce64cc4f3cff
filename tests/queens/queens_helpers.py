"""Helpers shared by the Queens tests: custom positions, action shorthands, checks.

A "custom position" (rule catalogue conventions) is the default map with every piece and
building removed, then only what the scenario lists; supplies as at set-up (2 Cities, 10
Fields) unless given, Red to play, and a Queen the scenario does not place stands on her
set-up space. Positions are built through the public `position` option, so their games have
records that replay.
"""

from __future__ import annotations

from typing import Any

import pytest

import boardwright as bw
from boardwright.games.queens import Found, Joint, Move, Pass, Sow
from boardwright.games.queens.battle import attack_value, defence_value
from boardwright.games.queens.state import QueensState

RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3
Coord = tuple[int, int]


def new_game(players: int = 2, seed: int = 0, **options: Any) -> QueensState:
    state = bw.load("queens", players, options).new_game(seed)
    assert isinstance(state, QueensState)
    return state


def seat(queen: Coord | None | str = "setup", princes: list[Coord] = (), cities: list[Coord] = (),
         fields: list[Coord] = (), **extra: Any) -> dict[str, Any]:
    """One seat of a custom position (queen="setup": on her set-up space)."""
    entry: dict[str, Any] = {"princes": [list(p) for p in princes],
                             "cities": [list(c) for c in cities],
                             "fields": [list(f) for f in fields], **extra}
    if queen != "setup":
        entry["queen"] = None if queen is None else list(queen)  # type: ignore[arg-type]
    return entry


def custom(*seats: dict[str, Any], to_play: int = RED, round: int = 1,
           final_round: bool = False) -> QueensState:
    """A game starting from a custom position with one entry per seat."""
    position = {"seats": list(seats), "to_play": to_play, "round": round,
                "final_round": final_round}
    return new_game(len(seats), position=position)


def move(a: Coord, b: Coord) -> Move:
    return Move(a, b)


def joint(a: Coord, b: Coord, t: Coord) -> Joint:
    return Joint(a, b, t)


def sow(x: Coord) -> Sow:
    return Sow(x)


FOUND = Found()
PASS = Pass()


def pos(state: QueensState, coord: Coord) -> int:
    return state.game.board.pos(coord)


def defence(state: QueensState, coord: Coord) -> int:
    return defence_value(state, pos(state, coord))


def attack(state: QueensState, seat_: int, coord: Coord) -> int:
    return attack_value(state, seat_, pos(state, coord))


def legal(state: QueensState) -> list[Any]:
    return state.legal_actions()


def destinations(state: QueensState, src: Coord) -> set[Coord]:
    """Where the piece on `src` may MOVE (attacks included)."""
    return {a.dst for a in state.legal_actions() if isinstance(a, Move) and a.src == src}


def ending_on(state: QueensState, target: Coord) -> list[Any]:
    """Every legal MOVE or JOINT of the player to move that ends on `target`."""
    return [a for a in state.legal_actions()
            if (isinstance(a, Move) and a.dst == target)
            or (isinstance(a, Joint) and a.target == target)]


def sow_targets(state: QueensState) -> set[Coord]:
    return {a.at for a in state.legal_actions() if isinstance(a, Sow)}


def princes(state: QueensState, seat_: int) -> list[Coord]:
    """A seat's Princes as coordinates (a stack appears twice), sorted."""
    return sorted(state.seat_position(seat_).princes)


def queen(state: QueensState, seat_: int) -> Coord | None:
    return state.seat_position(seat_).queen


def city_owner(state: QueensState, coord: Coord) -> int:
    return state.city[pos(state, coord)]


def field_owner(state: QueensState, coord: Coord) -> int:
    return state.field[pos(state, coord)]


def assert_illegal(state: QueensState, action: Any, match: str | None = None) -> None:
    """The action is not offered, raises IllegalActionError, and changes nothing."""
    assert action not in state.legal_actions()
    before = state.signature()
    with pytest.raises(bw.IllegalActionError, match=match):
        state.apply(action)
    assert state.signature() == before


def assert_legal(state: QueensState, action: Any) -> None:
    assert action in state.legal_actions()
