"""Small helpers shared by the Carcassonne rule tests."""

from __future__ import annotations

from typing import Any, Callable

import pytest

import boardwright as bw
from boardwright.games.carcassonne import Deploy, Pass, Place
from boardwright.games.carcassonne.actions import pack
from boardwright.games.carcassonne.state import CarcassonneState


def turn(state: CarcassonneState, x: int, y: int, rotation: int,
         location: str | None = None) -> list[int]:
    """Play one whole turn for the current player and return the score change per seat
    (including any final scoring the turn triggers). `location` (board orientation) puts a
    follower on the tile just placed; None passes."""
    before = state.scores
    state.apply(Place(x, y, rotation))
    state.apply(Pass() if location is None else Deploy(x, y, location))
    return [after - was for after, was in zip(state.scores, before)]


def events(state: CarcassonneState) -> list[tuple[str, bool, int, list[int]]]:
    """The score log without turn numbers: (feature, complete, points, winners)."""
    return [(e["feature"], e["complete"], e["points"], e["players"]) for e in state.log]


def feature_root(state: CarcassonneState, x: int, y: int, location: str) -> int:
    """Union-find root of the feature holding the part `location` of the tile at (x, y)."""
    graph = state.graph
    variant, base = graph.board[pack(x, y)]
    return graph.find(base + variant.location_index[location])


def assert_illegal(state: CarcassonneState, action: Any) -> None:
    """The action raises IllegalActionError and leaves the position exactly as it was."""
    before = state.signature()
    with pytest.raises(bw.IllegalActionError):
        state.apply(action)
    assert state.signature() == before


def place_options(state: CarcassonneState) -> set[tuple[int, int, int]]:
    """The legal placements as (x, y, rotation); fails if anything else is offered."""
    actions = state.legal_actions()
    assert all(isinstance(a, Place) for a in actions), actions
    return {(a.x, a.y, a.rotation) for a in actions}


def on_python(state: Any) -> CarcassonneState:
    """The position on the Python engine (itself, or a native state's `to_python`): for the
    heuristic's internals, which only the Python engine has."""
    return state if isinstance(state, CarcassonneState) else state.to_python()


def edited(state: Any, change: Callable[[CarcassonneState], None]) -> Any:
    """The position after `change` edits the Python engine's internals (scores, say, which
    have no public setter), on the state's own engine."""
    if isinstance(state, CarcassonneState):
        change(state)
        return state
    python = state.to_python()
    change(python)
    return type(state).from_python(python)
