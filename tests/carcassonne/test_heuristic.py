"""The Carcassonne heuristic (greedy agent, MCTS leaves): completion odds from the tiles
left, the value of followers in hand, and that its fast path for uncontested features
agrees with full majority scoring."""

from __future__ import annotations

import random

import pytest

import boardwright as bw
from boardwright.games.carcassonne.capabilities.barn import barn_field_part
from boardwright.games.carcassonne.heuristic import (
    DRAW_SHARE,
    FOLLOWER_IN_HAND,
    HAND_HORIZON,
    CompletionOdds,
    closes,
    feature_credit,
    follower_value,
    potential_scores,
)
from boardwright.games.carcassonne.scenario import build
from boardwright.games.carcassonne.scoring import majority
from boardwright.games.carcassonne.tiles import CITY_SIDE

# The Python engine only: unit tests of the heuristic's and the evaluation's internals, which
# read the Python engine's feature graph and scores (the native engine does not run them yet).
pytestmark = pytest.mark.engines(
    "python", reason="white-box tests of the Python heuristic and evaluation; the native ones "
    "are checked against them in test_native_heuristic.py")

SOUTH = 1 << 2  # mask bit of a spot's south side
CITY_TO_THE_SOUTH = CITY_SIDE << 4  # frontier pattern: a city side wanted on the south


def reference_scores(state) -> list[float]:
    """The heuristic spelled out: majority over every occupied feature, no shortcuts."""
    values = [float(s) for s in state.scores]
    graph = state.graph
    odds = CompletionOdds(state)
    hand = follower_value(odds)
    groups: dict[int, list[int]] = {}
    for part in state.occupant:
        groups.setdefault(graph.find(part), []).append(part)
    for root, parts in groups.items():
        points, back = feature_credit(state, odds, root, hand)
        owners = [state.occupant[p][0] for p in parts]
        for seat in majority(owners, state.strengths(root, tuple(parts))):
            values[seat] += points
        for seat in owners:
            values[seat] += back
    for point, seat in state.barn_owner.items():
        values[seat] += 4 * len(graph.completed_cities(graph.find(barn_field_part(graph, point))))
    for seat, supply in enumerate(state.supply):
        values[seat] += hand * supply.get("follower", 0)
    return values


def test_heuristic_agrees_with_full_majority_scoring_in_random_games() -> None:
    rng = random.Random(4)
    game = bw.load("carcassonne", 3, {"expansions": ["abbey_mayor"]})
    checked = 0
    for seed in range(12):
        state = game.new_game(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            assert potential_scores(state) == reference_scores(state)
            checked += 1
    assert checked > 1000


def test_a_tile_closes_a_city_only_if_it_ends_the_city_on_that_side() -> None:
    types = bw.load("carcassonne", 2).tile_types
    assert closes(types["E"], CITY_TO_THE_SOUTH, SOUTH)  # a single cap, turned
    assert closes(types["H"], CITY_TO_THE_SOUTH, SOUTH)  # two separate caps
    assert not closes(types["G"], CITY_TO_THE_SOUTH, SOUTH)  # a band: it extends the city
    assert not closes(types["Q"], CITY_TO_THE_SOUTH, SOUTH)  # three sides: extends it
    assert not closes(types["B"], CITY_TO_THE_SOUTH, SOUTH)  # no city: does not fit


def test_a_city_no_remaining_tile_can_close_is_worth_its_end_value_only() -> None:
    # A one-tile city cap held by Red; only monasteries are left, none can close it.
    state = build("D@(0,0)/0", followers=[(0, 0, 0, "N")], pile=["E", "B", "B", "B"], players=2)
    assert state.pile == ["B", "B", "B"]
    hand = FOLLOWER_IN_HAND * min(1.0, 1.5 / HAND_HORIZON)
    values = potential_scores(state)
    assert values[0] == pytest.approx(1 + 6 * hand)
    assert values[1] == pytest.approx(7 * hand)


def test_an_open_city_is_credited_by_its_odds_of_completion() -> None:
    # One of the four tiles left (an E cap) closes the city; G extends it, B does not fit.
    state = build("D@(0,0)/0", followers=[(0, 0, 0, "N")], pile=["E", "E", "B", "B", "G"],
                  players=2)
    assert sorted(state.pile) == ["B", "B", "E", "G"]
    left, turns = 4, 2.0
    odds = 1 - (1 - 1 / left) ** (DRAW_SHARE * turns / 1)
    hand = FOLLOWER_IN_HAND * min(1.0, turns / HAND_HORIZON)
    values = potential_scores(state)
    # End value 1, completed value 2; the follower comes back with the same odds.
    assert values[0] == pytest.approx(1 + odds * (2 - 1) + odds * hand + 6 * hand)
    assert 0 < odds < 1


def test_more_closing_tiles_left_make_a_city_worth_more() -> None:
    few = build("D@(0,0)/0", followers=[(0, 0, 0, "N")], pile=["E", "E", "B", "B", "B", "B"])
    many = build("D@(0,0)/0", followers=[(0, 0, 0, "N")], pile=["E", "E", "E", "E", "E", "B"])
    assert potential_scores(many)[0] > potential_scores(few)[0]


def test_a_follower_in_hand_loses_its_value_as_the_game_runs_out() -> None:
    long_game = build("D@(0,0)/0", pile=["U"] * 40, players=2)
    last_turn = build("D@(0,0)/0", pile=["U"], players=2)
    assert potential_scores(long_game) == [7 * FOLLOWER_IN_HAND] * 2
    assert potential_scores(last_turn) == [0.0, 0.0]


def test_a_farmer_is_credited_the_odds_of_the_open_city_of_its_field() -> None:
    # Red farms the field below an open one-tile city; one E of the four tiles left closes it.
    state = build("E@(0,0)/0", followers=[(0, 0, 0, "EL.ER.SL.SR.WL.WR")],
                  pile=["E", "E", "B", "B", "G"], players=2)
    left, turns = 4, 2.0
    odds = 1 - (1 - 1 / left) ** (DRAW_SHARE * turns / 1)
    hand = FOLLOWER_IN_HAND * min(1.0, turns / HAND_HORIZON)
    assert potential_scores(state)[0] == pytest.approx(3 * odds + 6 * hand)


def fresh_scores(state) -> list[float]:
    """The heuristic of `state` computed from nothing: a copy whose layout memo is empty."""
    alone = state.clone()
    alone.graph.memo = {}
    return potential_scores(alone)


def test_the_layout_memo_never_changes_a_value() -> None:
    """Positions that share a layout share its memo: every figure choice after a placement, and
    the same move played on differently shuffled piles. Each must get exactly the value it
    would get alone, whichever of them filled the memo first."""
    rng = random.Random(11)
    game = bw.load("carcassonne", 2, {"expansions": ["abbey_mayor"]})
    checked = 0
    for seed in range(6):
        state = game.new_game(seed)
        while not state.is_terminal:
            actions = state.legal_actions()
            samples = [state.determinize(0, random.Random(i)) for i in range(3)]
            for action in rng.sample(actions, min(4, len(actions))):
                for sample in samples:
                    child = sample.clone()
                    child.apply(action)
                    assert potential_scores(child) == fresh_scores(child)
                    checked += 1
            state.apply(rng.choice(actions))
    assert checked > 2000


def test_a_new_tile_gives_the_layout_a_new_memo() -> None:
    game = bw.load("carcassonne", 2)
    state = game.new_game(3)
    potential_scores(state)
    memo = state.graph.memo
    assert memo  # filled by the evaluation
    copy = state.clone()
    assert copy.graph.memo is memo  # copies share it
    copy.apply(copy.legal_actions()[0])  # a tile is laid
    assert copy.graph.memo is not memo and state.graph.memo is memo
