"""Rule tests for scoring during play: CAR-BASE-SCORE-01 .. CAR-BASE-SCORE-10.

Each test replays the `test:` scenario of its rule in the catalogue
(rule catalogue, section 4.5) on the fixtures of section 2.8 and checks
the exact score deltas per seat, which followers are back in supply and what the log recorded.
Turns are played through `apply` (not built) wherever the scenario says who placed what, so the
scoring step of the real turn flow is what gets tested.
"""

from __future__ import annotations

from typing import Any

import pytest
from fixtures import FX_EAST, FX_RING, FX_START, FX_TWO_WAGONS
from helpers import events, feature_root, turn

from boardwright.games.carcassonne.scenario import build
from boardwright.games.carcassonne.state import CarcassonneState

RED, BLUE, YELLOW = 0, 1, 2
FIRST_EDITION = {"small_city_scoring": "first_edition"}


# -- helpers ----------------------------------------------------------------------------------

def supply(state: CarcassonneState) -> list[int]:
    """Followers in each seat's supply, read from the public view."""
    return [s["follower"] for s in state.view(None)["supply"]]


def on_board(state: CarcassonneState) -> list[tuple[int, int, int, str]]:
    """(seat, x, y, location) of every follower on the board, from the public view."""
    followers = state.view(None)["followers"]
    return sorted((f["player"], f["x"], f["y"], f["location"]) for f in followers)


# -- CAR-BASE-SCORE-01 ------------------------------------------------------------------------

@pytest.mark.rule("CAR-BASE-SCORE-01")
def test_feature_completed_with_a_follower_placed_this_turn_scores_at_once() -> None:
    """The knight put on the closing tile still counts: scoring happens after the deploy step."""
    state = build(FX_START, pile=["E", "U", "U"])
    assert turn(state, 0, -1, 180, "S") == [4, 0, 0]
    assert events(state) == [("city", True, 4, [RED])]
    assert on_board(state) == []
    assert supply(state) == [7, 7, 7]
    assert state.current_player == BLUE and state.view(None)["phase"] == "place_tile"


@pytest.mark.rule("CAR-BASE-SCORE-01")
def test_completed_feature_is_scored_only_once() -> None:
    """Later turns and the final scoring must not score the closed city a second time."""
    state = build(FX_START, pile=["E", "U", "U"])
    turn(state, 0, -1, 180, "S")
    assert turn(state, 1, 0, 0) == [0, 0, 0]
    assert turn(state, -1, 0, 0) == [0, 0, 0]  # last tile: the game ends here
    assert state.is_terminal
    assert state.scores == [4, 0, 0]
    assert events(state) == [("city", True, 4, [RED])]


# -- CAR-BASE-SCORE-02 ------------------------------------------------------------------------

@pytest.mark.rule("CAR-BASE-SCORE-02")
def test_road_ending_in_a_monastery_and_open_at_the_other_end_is_not_complete() -> None:
    """A@(-1,0)/270 closes the west end only; the side of (0,0) facing E is still open."""
    state = build(FX_START, pile=["A", "A", "U"])
    assert turn(state, -1, 0, 270, "E") == [0, 0, 0]
    root = feature_root(state, 0, 0, "E.W")
    assert root == feature_root(state, -1, 0, "E")
    assert state.graph.open[root] == 1 and not state.graph.is_complete(root)
    assert on_board(state) == [(RED, -1, 0, "E")]
    assert state.log == []


@pytest.mark.rule("CAR-BASE-SCORE-02")
def test_road_closed_at_both_ends_is_complete_and_scored() -> None:
    """Blue's A@(1,0)/90 ends the road in a second monastery: complete, Red +3 on Blue's turn."""
    state = build(FX_START, pile=["A", "A", "U"])
    turn(state, -1, 0, 270, "E")
    assert turn(state, 1, 0, 90) == [3, 0, 0]
    assert events(state) == [("road", True, 3, [RED])]
    assert on_board(state) == []
    assert supply(state) == [7, 7, 7]


# -- CAR-BASE-SCORE-03 ------------------------------------------------------------------------

@pytest.mark.rule("CAR-BASE-SCORE-03")
def test_completed_road_is_worth_one_point_per_tile() -> None:
    """Road (-1,0)..(2,0) runs through 4 tiles: exactly 4 points, no bonus for completing it."""
    state = build(FX_START, pile=["U", "A", "A", "U"])
    assert turn(state, 1, 0, 0, "E.W") == [0, 0, 0]
    assert turn(state, 2, 0, 90) == [0, 0, 0]
    assert turn(state, -1, 0, 270) == [4, 0, 0]
    assert events(state) == [("road", True, 4, [RED])]
    assert supply(state) == [7, 7, 7]


# -- CAR-BASE-SCORE-04 / 05 -------------------------------------------------------------------

def knight_on_f_then_closing_e(
        options: dict[str, Any] | None = None,
) -> tuple[CarcassonneState, list[int], list[int]]:
    """FX-START; Red F@(0,-1)/90 with a knight, Blue E@(0,-2)/180.

    Returns the state and the score deltas of both turns.
    """
    state = build(FX_START, pile=["F", "E", "U"], options=options)
    first = turn(state, 0, -1, 90, "N.S")
    second = turn(state, 0, -2, 180)
    return state, first, second


@pytest.mark.rule("CAR-BASE-SCORE-04")
def test_city_with_an_open_side_is_not_complete() -> None:
    """After F@(0,-1)/90 the side of (0,-1) facing N is open: no score, the knight stays."""
    state = build(FX_START, pile=["F", "E", "U"])
    assert turn(state, 0, -1, 90, "N.S") == [0, 0, 0]
    root = feature_root(state, 0, -1, "N.S")
    assert root == feature_root(state, 0, 0, "N")
    assert state.graph.open[root] == 1 and not state.graph.is_complete(root)
    assert on_board(state) == [(RED, 0, -1, "N.S")]
    assert state.log == []


@pytest.mark.rule("CAR-BASE-SCORE-04")
def test_city_with_no_open_side_is_complete() -> None:
    """Blue's E@(0,-2)/180 closes the last open city side: the city is scored as complete."""
    state, _, _ = knight_on_f_then_closing_e()
    root = feature_root(state, 0, -2, "S")
    assert root == feature_root(state, 0, 0, "N")
    assert state.graph.is_complete(root) and state.graph.tile_count(root) == 3
    assert [e[:2] for e in events(state)] == [("city", True)]
    assert on_board(state) == []


@pytest.mark.rule("CAR-BASE-SCORE-05")
def test_three_tile_city_with_one_pennant_is_worth_eight() -> None:
    """2 per tile (3 tiles) + 2 per pennant (F's one) = 8."""
    _, first, second = knight_on_f_then_closing_e()
    assert first == [0, 0, 0]
    assert second == [8, 0, 0]


@pytest.mark.rule("CAR-BASE-SCORE-05")
def test_two_tile_city_without_pennant_is_worth_four() -> None:
    """2nd edition: no reduced value for the smallest city (2 tiles x 2 = 4)."""
    state = build(FX_START, pile=["E", "U"])
    assert turn(state, 0, -1, 180, "S") == [4, 0, 0]


@pytest.mark.rule("CAR-BASE-SCORE-05")
def test_first_edition_two_tile_city_scores_like_an_incomplete_one() -> None:
    """Option `first_edition`: a completed 2-tile city earns 1 per tile + 1 per pennant = 2."""
    state = build(FX_START, pile=["E", "U"], options=FIRST_EDITION)
    assert turn(state, 0, -1, 180, "S") == [2, 0, 0]
    assert events(state) == [("city", True, 2, [RED])]
    assert supply(state) == [7, 7, 7]


@pytest.mark.rule("CAR-BASE-SCORE-05")
def test_first_edition_leaves_larger_cities_at_full_value() -> None:
    """The first-edition reduction is only for exactly 2 tiles: the 3-tile pennant city stays 8."""
    _, _, second = knight_on_f_then_closing_e(FIRST_EDITION)
    assert second == [8, 0, 0]


@pytest.mark.rule("CAR-BASE-SCORE-05")
def test_first_edition_does_not_change_incomplete_city_at_the_end() -> None:
    """At the end F@(0,-1)/90 + D is 2 tiles + 1 pennant = 3 under both options."""
    for options in (None, FIRST_EDITION):
        state = build(FX_START, pile=["F"], options=options)
        assert turn(state, 0, -1, 90, "N.S") == [3, 0, 0]
        assert state.is_terminal
        assert events(state) == [("city", False, 3, [RED])]


# -- CAR-BASE-SCORE-06 ------------------------------------------------------------------------

@pytest.mark.rule("CAR-BASE-SCORE-06")
def test_monastery_surrounded_by_eight_tiles_scores_nine() -> None:
    """B placed into the FX-RING hole has all 8 neighbours at once: 1 + 8 = 9, monk returns."""
    state = build(FX_RING, pile=["B", "U"])
    assert turn(state, 0, 1, 0, "MONASTERY") == [9, 0, 0]
    assert events(state) == [("monastery", True, 9, [RED])]
    assert on_board(state) == []
    assert supply(state) == [7, 7, 7]


@pytest.mark.rule("CAR-BASE-SCORE-06")
def test_monastery_with_a_missing_neighbour_is_not_scored() -> None:
    """Control: without E@(1,2)/90 only 7 of 8 positions hold a tile, so nothing is scored."""
    ring_minus_one = FX_RING.replace(" E@(1,2)/90", "")
    state = build(ring_minus_one, pile=["B", "U"])
    assert turn(state, 0, 1, 0, "MONASTERY") == [0, 0, 0]
    assert on_board(state) == [(RED, 0, 1, "MONASTERY")]


# -- CAR-BASE-SCORE-07 ------------------------------------------------------------------------

@pytest.mark.rule("CAR-BASE-SCORE-07")
def test_loop_through_a_junction_counts_the_junction_tile_once() -> None:
    """Yellow W@(0,1)/0, Red V@(1,1)/0 + highwayman, Blue V@(1,2)/90, Yellow V@(0,2)/180.

    The road leaves W's junction to the E and comes back from the S: 5 parts on 4 tiles -> 4.
    """
    state = build(FX_START, pile=["W", "V", "V", "V", "U", "U"], turn_player=YELLOW)
    assert turn(state, 0, 1, 0) == [0, 0, 0]
    assert turn(state, 1, 1, 0, "S.W") == [0, 0, 0]
    assert turn(state, 1, 2, 90) == [0, 0, 0]
    assert turn(state, 0, 2, 180) == [4, 0, 0]
    assert events(state) == [("road", True, 4, [RED])]
    assert feature_root(state, 0, 1, "E") == feature_root(state, 0, 1, "S")
    assert supply(state) == [7, 7, 7]


# -- CAR-BASE-SCORE-08 / 09 -------------------------------------------------------------------

def four_tile_city_red_two_blue_one() -> tuple[CarcassonneState, list[list[int]]]:
    """SCORE-08 (b): FX-EAST, Red knights on (1,-1) and (3,-1); Red B@(1,-2)/0,
    Blue E@(2,-2)/180 with a knight, Yellow R@(2,-1)/0 closes the city."""
    state = build(FX_EAST, followers=[(RED, 1, -1, "E"), (RED, 3, -1, "W")],
                  pile=["B", "E", "R", "U", "U"])
    deltas = [turn(state, 1, -2, 0), turn(state, 2, -2, 180, "S"), turn(state, 2, -1, 0)]
    return state, deltas


@pytest.mark.rule("CAR-BASE-SCORE-08")
def test_tied_majority_gives_each_tied_player_the_full_value() -> None:
    """Yellow's G joins Red's and Blue's one-tile cities: 1-1 tie, 3 tiles x 2 = 6 each."""
    state = build(FX_EAST, followers=[(RED, 1, -1, "E"), (BLUE, 3, -1, "W")],
                  pile=["G", "U"], turn_player=YELLOW)
    assert turn(state, 2, -1, 0) == [6, 6, 0]
    assert events(state) == [("city", True, 6, [RED, BLUE])]


@pytest.mark.rule("CAR-BASE-SCORE-08")
def test_strict_majority_takes_everything() -> None:
    """Red 2 knights vs Blue 1 in a 4-tile city without pennant: Red +8, Blue +0 (no split)."""
    _, deltas = four_tile_city_red_two_blue_one()
    assert deltas == [[0, 0, 0], [0, 0, 0], [8, 0, 0]]


@pytest.mark.rule("CAR-BASE-SCORE-09")
def test_all_followers_return_including_the_losers() -> None:
    """After SCORE-08 (b) Red gets its 2 knights back and Blue its 1, though Blue scored 0."""
    state, _ = four_tile_city_red_two_blue_one()
    assert events(state) == [("city", True, 8, [RED])]
    assert on_board(state) == []
    assert supply(state) == [7, 7, 7]
    assert state.scores == [8, 0, 0]


@pytest.mark.rule("CAR-BASE-SCORE-09")
def test_completed_feature_without_followers_never_scores() -> None:
    """E@(0,-1)/180 with no follower closes an empty city: nobody scores, then or at the end."""
    state = build(FX_START, pile=["E", "U"])
    assert turn(state, 0, -1, 180) == [0, 0, 0]
    assert state.graph.is_complete(feature_root(state, 0, 0, "N"))
    assert turn(state, 1, 0, 0) == [0, 0, 0]  # the last tile: final scoring follows
    assert state.is_terminal
    assert state.scores == [0, 0, 0]
    assert state.log == []


# -- CAR-BASE-SCORE-10 ------------------------------------------------------------------------

def two_features_closed_by_l() -> tuple[CarcassonneState, list[int]]:
    """FX-TWO-WAGONS with normal followers instead of wagons: Blue highwayman on the road of
    (1,0), Red knight on the city of (2,-1); Blue places L@(2,0)/0. Returns state and deltas."""
    state = build(FX_TWO_WAGONS, followers=[(BLUE, 1, 0, "E.W"), (RED, 2, -1, "S")],
                  pile=["L", "U", "U"], turn_player=BLUE)
    return state, turn(state, 2, 0, 0)


@pytest.mark.rule("CAR-BASE-SCORE-10")
def test_one_tile_completes_a_road_and_a_city_for_different_players() -> None:
    """Each completed feature is scored on its own: road of 4 tiles Blue +4, city of 2 Red +4."""
    state, deltas = two_features_closed_by_l()
    assert deltas == [4, 4, 0]
    assert sorted(events(state)) == [("city", True, 4, [RED]), ("road", True, 4, [BLUE])]
    assert on_board(state) == []
    assert supply(state) == [7, 7, 7]
    assert state.current_player == YELLOW


@pytest.mark.rule("CAR-BASE-SCORE-10")
def test_features_completed_together_are_scored_roads_first_then_cities() -> None:
    """The catalogue (and docs/rules) fix the order for determinism: roads, cities, monasteries.

    The log is the observable trace of that order (wagon moves will depend on it later).
    """
    state, _ = two_features_closed_by_l()
    assert events(state) == [("road", True, 4, [BLUE]), ("city", True, 4, [RED])]
