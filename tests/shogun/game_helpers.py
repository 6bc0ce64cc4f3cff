"""Helpers for the tests of the Shogun rules of play: positions from a description, actions by
their JSON form, and duels driven to their end.

Seats have the game's colours: seat 0 green, 1 red, 2 blue, 3 yellow (SHO-COMP-07).
"""

from __future__ import annotations

from typing import Any

import pytest

import boardwright as bw
from boardwright.duel import PASS
from boardwright.games.shogun.scenario import build
from boardwright.games.shogun.state import ShogunState

GREEN, RED, BLUE, YELLOW = 0, 1, 2, 3
KATANA = "sam_katana_cut"
SWIFT = "sam_swift_draw"
PARRY = "sam_sword_parry"
IRON = "sam_iron_guard"
SHURIKEN = "nin_shuriken"
TANTO = "nin_tanto_thrust"
VANISH = "nin_vanish"


def scene(**kwargs: Any) -> ShogunState:
    """`scenario.build` with the samurai and the ninja by default."""
    return build(**kwargs)


def act(state: ShogunState, *actions: dict[str, Any] | Any) -> ShogunState:
    for action in actions:
        state.apply(action)
    return state


def refused(state: ShogunState, action: dict[str, Any]) -> None:
    """The action is refused with IllegalActionError and the state does not change."""
    before = state.signature()
    with pytest.raises(bw.IllegalActionError):
        state.apply(action)
    assert state.signature() == before


def types(state: ShogunState) -> list[str]:
    return [a.to_json()["type"] for a in state.legal_actions()]


def legal_json(state: ShogunState) -> list[dict[str, Any]]:
    return [a.to_json() for a in state.legal_actions()]


def passes(state: ShogunState) -> ShogunState:
    """Both sides pass until the running duel is over."""
    guard = 0
    while state.duel is not None:
        state.apply(PASS)
        guard += 1
        assert guard < 20
    return state


def attack(state: ShogunState, space: str, opening: str, block: str | None = None) -> ShogunState:
    """Declare an attack, let the defender block with `block` (or decline), then pass it out."""
    state.apply({"type": "attack", "space": space, "opening": opening})
    if block is not None:
        state.apply({"type": "duel_play", "card": block})
    return passes(state)


def space(state: ShogunState, space_id: str) -> int:
    return state.game.board.index[space_id]


def peasant_at(state: ShogunState, space_id: str) -> int:
    return state.peasant[space(state, space_id)]


def castle(state: ShogunState, space_id: str) -> int:
    return state.castle_at[space(state, space_id)]


def controller(state: ShogunState, space_id: str) -> int:
    return state.roof[castle(state, space_id)]


def courted_by(state: ShogunState, space_id: str) -> int:
    return state.court[castle(state, space_id)]


def total_peasants(state: ShogunState, seat: int) -> int:
    return state.reserve[seat] + state.board_count(seat) + state.held_count(seat)


DONE = {"type": "done"}


def reorg(source: str, target: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The two decisions that move one peasant in a reorganisation."""
    return ({"type": "reorganise", "source": source}, {"type": "place_peasant", "space": target})
