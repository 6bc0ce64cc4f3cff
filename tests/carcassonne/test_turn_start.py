"""`at_turn_start`: True exactly at the first decision of each turn.

Searches stop their playouts there (`MCTSAgent`, `turn_leaves`), so a turn that does not
announce its start (the final abbey round) lets a playout run past it, and a mid-turn decision
that claims to be a start (placing the tile after choosing to draw) stops it too early.
"""

from __future__ import annotations

import random

import pytest
from fixtures import FX_HOLE_CITY
from randomgames import am_configs, configs, new_state, pick_action
from sizes import sized

from boardwright.games.carcassonne import Draw, Pass, PlaceAbbey
from boardwright.games.carcassonne.scenario import build
from boardwright.games.carcassonne.state import CarcassonneState

RED, BLUE, YELLOW = 0, 1, 2
FINAL_ROUND = "final_abbey_round"
# Three separate holes (0,1), (2,1) and (4,1) under a row of roads.
THREE_HOLES = ("U@(0,0)/0 U@(-1,0)/0 U@(1,0)/0 U@(2,0)/0 U@(3,0)/0 U@(4,0)/0 U@(5,0)/0 "
               "B@(-1,1)/0 B@(1,1)/0 B@(3,1)/0 B@(5,1)/0 "
               "B@(-1,2)/0 B@(0,2)/0 B@(1,2)/0 B@(2,2)/0 B@(3,2)/0 B@(4,2)/0")


def am(end: str) -> dict[str, object]:
    return {"expansions": ["abbey_mayor"], "abbey_end_of_game": end}


@pytest.mark.parametrize("end", ["mandatory_round", "voluntary_round"])
def test_every_final_round_turn_starts_a_turn(end: str) -> None:
    """Blue placed the last tile: Yellow, Red and Blue each get a final-round turn, and each
    one starts a turn; the figure step after an abbey does not."""
    state = build(THREE_HOLES, pile=[], options=am(end), turn_player=YELLOW)
    seats = []
    while state.phase == FINAL_ROUND:
        assert state.at_turn_start and state.clone().at_turn_start
        seats.append(state.current_player)
        hole = state.view(None)["holes"][0]
        state.apply(PlaceAbbey(hole["x"], hole["y"]))
        assert state.phase == "deploy" and not state.at_turn_start
        state.apply(Pass())
    assert seats == [YELLOW, RED, BLUE]
    assert state.is_terminal and not state.at_turn_start


def test_the_turn_after_a_pass_in_the_voluntary_round_starts_a_turn() -> None:
    state = build(THREE_HOLES, pile=[], options=am("voluntary_round"), turn_player=YELLOW)
    assert state.current_player == YELLOW and state.at_turn_start
    state.apply(Pass())
    assert state.current_player == RED and state.phase == FINAL_ROUND and state.at_turn_start


def test_placing_after_choosing_to_draw_is_the_same_turn() -> None:
    """With a hole on the board and an abbey in hand, the turn starts at the choice; the tile
    drawn by that choice is placed in the same turn."""
    state = build(FX_HOLE_CITY, pile=["B", "B"], options=am("mandatory_round"))
    assert state.phase == "choose_tile" and state.at_turn_start
    state.apply(Draw())
    assert state.phase == "place_tile" and state.current_player == RED
    assert not state.at_turn_start and not state.clone().at_turn_start


def turn_ends(before: CarcassonneState, action: object, after: CarcassonneState) -> bool:
    """Whether `action`, taken in `before`, ended the turn (recomputed from the turn structure:
    [choose] place deploy wagon-moves*, or final-round abbey deploy wagon-moves*, or a pass in
    the voluntary final round)."""
    if after.phase in ("deploy", "wagon_move"):
        return False  # the figure step and the wagon moves belong to the turn of the tile
    if before.phase in ("deploy", "wagon_move"):
        return True
    if before.phase == FINAL_ROUND:
        return isinstance(action, Pass)
    if before.phase == "choose_tile":
        return isinstance(action, Draw) and after.phase != "place_tile"  # nothing placeable
    return False


def check_turn_starts(state: CarcassonneState, rng: random.Random) -> set[str]:
    """Play the game out; `at_turn_start` must hold exactly where a turn begins. Returns the
    phases seen at turn starts."""
    phases = set()
    starts = True  # the first decision of the game starts the first turn
    while not state.is_terminal:
        assert state.at_turn_start == starts, (state.phase, state.history[-3:])
        if starts:
            assert state.current_player == state.turn_player
            phases.add(state.phase)
        before = state.clone()
        action = pick_action(state, rng)
        state.apply(action)
        starts = turn_ends(before, action, state)
    assert not state.at_turn_start
    return phases


def test_turn_starts_in_random_base_games() -> None:
    for cfg in configs(0, 10):
        assert check_turn_starts(new_state(cfg), random.Random(cfg.seed)) == {"place_tile"}


def test_turn_starts_in_random_abbey_mayor_games() -> None:
    """Random A&M games over every end-of-game rule; the final abbey round is reached in some."""
    seen: set[str] = set()
    for cfg in am_configs(0, 36):
        seen |= check_turn_starts(new_state(cfg), random.Random(cfg.seed))
    assert seen == {"place_tile", "choose_tile", FINAL_ROUND}


@pytest.mark.slow
def test_turn_starts_in_many_random_abbey_mayor_games() -> None:
    for cfg in am_configs(36, sized(60)):  # tests/sizes.py
        check_turn_starts(new_state(cfg), random.Random(cfg.seed))
