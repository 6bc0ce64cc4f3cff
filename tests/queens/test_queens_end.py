"""End of the game and victory: QUE-END-01..07.

Each test reproduces the `test:` scenario of its rule in the rule catalogue with its exact
outcome, and checks that scores and returns tell the same result (winners have the top score).
"""

from __future__ import annotations

import random

import pytest
from queens_helpers import (
    BLUE, GREEN, RED, assert_illegal, custom, field_owner, joint, legal, move, new_game,
    princes, queen, seat, sow,
)

import boardwright as bw

# Plains away from both Cities and the pieces used below, to hold Fields.
FIELD_SPACES = [(-5, 0), (-4, 0), (-3, 0), (-2, 0), (-1, 0), (1, 0), (2, 0), (3, 0), (4, 0),
                (-5, 1), (-4, 1), (-3, 1), (-1, 1), (0, 1), (2, 1), (3, 1), (4, 1),
                (-4, -1), (-3, -1), (-2, -1), (0, -1), (1, -1), (3, -1), (4, -1), (5, -1)]
RED_PRINCES = [(-3, 5), (-4, 5), (-5, 5), (-2, 5)]
BLUE_PRINCES = [(3, -5), (4, -5), (5, -5), (2, -5)]


def assert_result(state: bw.State, winners: list[int]) -> None:
    """Over, with exactly these winners, and scores/returns agreeing."""
    assert state.is_terminal
    assert state.winners == winners
    scores = state.scores
    assert [s for s, v in enumerate(scores) if v == max(scores)] == winners
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9
    assert all(returns[w] == max(returns) for w in winners)
    assert state.current_player == -1 and state.legal_actions() == []


@pytest.mark.rule("QUE-END-01")
def test_capturing_the_enemy_queen_wins() -> None:
    state = custom(seat((0, -3), princes=[(1, -4), (-1, -3)]), seat((0, -4)))
    assert_illegal(state, move((1, -4), (0, -4)), match="worth 4 there and the defence is 4")
    state.apply(joint((-1, -3), (1, -4), (0, -4)))
    assert_result(state, [RED])
    assert state.returns() == [1.0, -1.0]
    assert state.log[-1]["reason"] == "queen_captured"


@pytest.mark.rule("QUE-END-01")
def test_queen_capture_skips_the_rest_of_the_turn() -> None:
    """Red's stack would lose a Prince and Red's empty Field supply would trigger the final
    round, but the capture ends the game first."""
    state = custom(seat((0, -3), princes=[(1, -4), (-1, -3), (3, 0), (3, 0)], field_supply=0),
                   seat((0, -4), fields=[(2, -2)]))
    state.apply(joint((-1, -3), (1, -4), (0, -4)))
    assert_result(state, [RED])
    assert princes(state, RED).count((3, 0)) == 2
    assert not state.final_round


@pytest.mark.rule("QUE-END-02")
def test_field_race_and_final_round() -> None:
    state = custom(seat((0, 4), cities=[(0, 4)], fields=FIELD_SPACES[:9], field_supply=1),
                   seat((0, -4), cities=[(0, -4)], fields=FIELD_SPACES[9:17], field_supply=2))
    state.apply(sow((0, 3)))
    assert not state.is_terminal and state.final_round
    assert state.current_player == BLUE
    state.apply(sow((0, -3)))
    assert_result(state, [RED])
    assert (state.field_count[RED], state.field_count[BLUE]) == (10, 9)
    assert state.log[-1]["reason"] == "final_round"


@pytest.mark.rule("QUE-END-02")
def test_last_seat_triggering_ends_the_game_at_once() -> None:
    state = custom(seat((0, 4), cities=[(0, 4)], fields=FIELD_SPACES[:3]),
                   seat((0, -4), cities=[(0, -4)], fields=FIELD_SPACES[9:18], field_supply=1))
    state.apply(move((0, 4), (0, 2)))
    state.apply(sow((0, -3)))
    assert_result(state, [BLUE])
    assert state.round == 1


@pytest.mark.rule("QUE-END-03")
def test_round_limit() -> None:
    position = new_game().position().to_json()
    position["round"] = 50
    state = new_game(position=position)
    state.apply(move((0, 4), (0, 2)))
    assert not state.is_terminal
    state.apply(move((0, -4), (0, -2)))
    assert_result(state, [RED, BLUE])
    assert state.scores == [0 * 100 + 1 * 10 + 4] * 2 == [14, 14]
    assert state.returns() == [0.0, 0.0]
    assert state.log[-1]["reason"] == "round_limit"


@pytest.mark.rule("QUE-END-03")
def test_random_games_end_within_100_turns() -> None:
    game = bw.load("queens", 2)
    rng = random.Random(50)
    for seed in range(200):
        state = game.new_game(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        assert state.turn <= 100 and state.round <= 50


def end_at_round_50(red: dict, blue: dict) -> bw.State:
    """A position in round 50; both Queens take a quiet step and the game ends on scoring."""
    state = custom(red, blue, round=50)
    state.apply(move((0, 4), (0, 3)))
    state.apply(move((0, -4), (0, -3)))
    return state


@pytest.mark.rule("QUE-END-04")
def test_most_fields_win() -> None:
    state = end_at_round_50(
        seat((0, 4), cities=[(0, 4)], princes=RED_PRINCES[:1], fields=FIELD_SPACES[:10]),
        seat((0, -4), cities=[(0, -4), (5, -3)], princes=BLUE_PRINCES, fields=FIELD_SPACES[10:19]))
    assert_result(state, [RED])


@pytest.mark.rule("QUE-END-04")
def test_cities_break_a_tie_in_fields() -> None:
    state = end_at_round_50(
        seat((0, 4), cities=[(0, 4), (-5, 3)], princes=RED_PRINCES, fields=FIELD_SPACES[:9]),
        seat((0, -4), cities=[(0, -4), (5, -3), (5, -4)], princes=BLUE_PRINCES[:1],
             fields=FIELD_SPACES[10:19]))
    assert_result(state, [BLUE])
    assert state.scores == [924, 931]


@pytest.mark.rule("QUE-END-04")
def test_princes_break_a_tie_in_fields_and_cities() -> None:
    state = end_at_round_50(
        seat((0, 4), cities=[(0, 4), (-5, 3)], princes=RED_PRINCES[:3], fields=FIELD_SPACES[:9]),
        seat((0, -4), cities=[(0, -4), (5, -3)], princes=BLUE_PRINCES[:2],
             fields=FIELD_SPACES[10:19]))
    assert_result(state, [RED])


@pytest.mark.rule("QUE-END-04")
def test_a_full_tie_is_shared() -> None:
    state = end_at_round_50(
        seat((0, 4), cities=[(0, 4), (-5, 3)], princes=RED_PRINCES[:3], fields=FIELD_SPACES[:9]),
        seat((0, -4), cities=[(0, -4), (5, -3)], princes=BLUE_PRINCES[:3],
             fields=FIELD_SPACES[10:19]))
    assert_result(state, [RED, BLUE])
    assert state.scores == [923, 923]


@pytest.mark.rule("QUE-END-05")
def test_elimination_with_three_players() -> None:
    state = custom(seat((0, -3), princes=[(1, -4), (-1, -3)]),
                   seat((-4, 0), princes=[(-4, 1)]),
                   seat((0, -4), princes=[(4, -4)], cities=[(3, -3)], fields=[(2, -3)]))
    state.apply(joint((-1, -3), (1, -4), (0, -4)))
    assert not state.alive[GREEN] and queen(state, GREEN) is None
    assert princes(state, GREEN) == [] and state.city_bits[GREEN] == 0
    assert field_owner(state, (2, -3)) == GREEN
    assert not state.is_terminal
    assert state.current_player == BLUE
    state.apply(legal(state)[0])
    assert state.current_player == RED
    assert state.scores[GREEN] == -1  # a Field left behind counts for nobody
    # and anyone may capture it
    state.apply(move((0, -4), (2, -3)))
    assert field_owner(state, (2, -3)) == RED
    assert state.field_count[GREEN] == 0


@pytest.mark.rule("QUE-END-06")
def test_last_survivor_wins() -> None:
    state = custom(seat((0, -3), princes=[(1, -4), (-1, -3)]),
                   seat(None, eliminated=True),
                   seat((0, -4)))
    state.apply(joint((-1, -3), (1, -4), (0, -4)))
    assert_result(state, [RED])
    assert state.log[-1]["reason"] == "last_survivor"


@pytest.mark.rule("QUE-END-07")
def test_eliminated_players_are_not_scored() -> None:
    state = custom(seat((0, 4), fields=FIELD_SPACES[:6]),
                   seat((-4, 0), fields=FIELD_SPACES[6:11]),
                   seat(None, eliminated=True, fields=FIELD_SPACES[11:19]),
                   round=50)
    state.apply(move((0, 4), (0, 3)))
    state.apply(move((-4, 0), (-5, 2)))
    assert state.field_count == [6, 5, 8]
    assert_result(state, [RED])
    assert state.scores[GREEN] == -1
