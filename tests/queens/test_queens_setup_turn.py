"""Components, set-up and turn structure: QUE-COMP-01..06, QUE-SETUP-01..04, QUE-TURN-01..05.

Each test reproduces the `test:` scenario of its rule in the rule catalogue with its exact
outcome. Seats: 0 = Red, 1 = Blue, 2 = Green, 3 = Yellow.
"""

from __future__ import annotations

from collections import Counter

import pytest
from queens_helpers import (
    BLUE, FOUND, GREEN, PASS, RED, YELLOW, assert_illegal, custom, destinations, field_owner,
    joint, legal, move, new_game, princes, queen, seat, sow, sow_targets,
)

import boardwright as bw
from boardwright.games.queens import Found, Joint, Move, Pass, Sow
from boardwright.games.queens.board import hex_distance

RED_SETUP = {"queen": (0, 4), "princes": [(-1, 4), (-1, 5), (1, 3), (1, 4)]}
BLUE_SETUP = {"queen": (0, -4), "princes": [(-1, -3), (-1, -4), (1, -5), (1, -4)]}


# -- components ------------------------------------------------------------------------------------

@pytest.mark.rule("QUE-COMP-01")
def test_standard_game_is_red_against_blue() -> None:
    state = new_game()
    view = state.view(None)
    assert state.game.num_players == 2
    assert view["colours"] == ["Red", "Blue"]
    assert len(view["position"]["seats"]) == 2
    assert state.current_player == RED
    assert queen(state, RED) == (0, 4) and queen(state, BLUE) == (0, -4)
    # no Green or Yellow piece exists: every piece on the board is Red or Blue
    assert {o for o in state.occupant if o >= 0} == {RED, BLUE}
    assert {o for o in state.city if o >= 0} == {RED, BLUE}


@pytest.mark.rule("QUE-COMP-01")
@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_other_player_counts_are_refused(players: int) -> None:
    with pytest.raises(bw.InvalidOptionError, match=f"not {players}"):
        bw.load("queens", players)


@pytest.mark.rule("QUE-COMP-02")
def test_pieces_per_player() -> None:
    state = new_game()
    view = state.view(None)
    for s in (RED, BLUE):
        entry = view["position"]["seats"][s]
        assert entry["queen"] is not None
        assert len(entry["princes"]) == 4
        assert len(entry["cities"]) == 1 and entry["city_supply"] == 2
        assert entry["fields"] == [] and entry["field_supply"] == 10
    assert view["princes_on_board"] == [4, 4]
    assert view["cities_on_board"] == [1, 1]
    assert view["fields_on_board"] == [0, 0]


@pytest.mark.rule("QUE-COMP-03")
def test_one_building_per_space() -> None:
    state = custom(seat((0, 2), fields=[(0, 2)]), seat())
    assert FOUND not in legal(state)
    assert_illegal(state, FOUND, match="already holds a building")
    state = custom(seat((0, 2)), seat())
    assert FOUND in legal(state)


@pytest.mark.rule("QUE-COMP-03")
def test_a_position_with_two_buildings_on_a_space_is_refused() -> None:
    with pytest.raises(bw.InvalidOptionError, match="two buildings"):
        custom(seat((0, 4), cities=[(0, 4)], fields=[(0, 4)]), seat())
    with pytest.raises(bw.InvalidOptionError, match="two buildings"):
        custom(seat((0, 4), fields=[(1, 3)]), seat((0, -4), fields=[(1, 3)]))


@pytest.mark.rule("QUE-COMP-03")
def test_a_mobile_piece_may_stand_on_a_building() -> None:
    state = custom(seat((0, 4), princes=[(1, 3)], cities=[(0, 4)], fields=[(1, 3)]), seat())
    assert queen(state, RED) == (0, 4)
    assert princes(state, RED) == [(1, 3)]
    state.apply(move((1, 3), (1, 2)))  # and leaves its Field where it was
    assert field_owner(state, (1, 3)) == RED


@pytest.mark.rule("QUE-COMP-04")
def test_one_prince_per_space() -> None:
    state = custom(seat((0, 4), princes=[(1, 3), (-1, 4)]), seat((0, -4)))
    assert (-1, 4) not in destinations(state, (1, 3))
    assert not any(isinstance(a, Joint) for a in legal(state))
    assert_illegal(state, move((1, 3), (-1, 4)), match="already holds a piece of Red")


@pytest.mark.rule("QUE-COMP-04")
def test_a_position_with_three_princes_on_a_space_is_refused() -> None:
    with pytest.raises(bw.InvalidOptionError, match="two mobile pieces"):
        custom(seat((0, 4), princes=[(1, 3), (1, 3), (1, 3)]), seat())


@pytest.mark.rule("QUE-COMP-05")
def test_one_mobile_piece_per_space() -> None:
    state = custom(seat((0, 4), princes=[(0, 3)]), seat((0, -4)))
    assert_illegal(state, move((0, 4), (0, 3)))
    assert_illegal(state, move((0, 3), (0, 4)))
    assert (0, 3) not in destinations(state, (0, 4))
    assert (0, 4) not in destinations(state, (0, 3))


@pytest.mark.rule("QUE-COMP-05")
@pytest.mark.parametrize("red, blue", [
    (seat((0, 4), princes=[(0, 4)]), seat()),  # Queen with her own Prince
    (seat((0, 4), princes=[(0, 3)]), seat((0, -4), princes=[(0, 3)])),  # two colours
    (seat((0, 3)), seat((0, 3))),  # two Queens
])
def test_positions_with_forbidden_sharing_are_refused(red: dict, blue: dict) -> None:
    with pytest.raises(bw.InvalidOptionError, match="two mobile pieces"):
        custom(red, blue)


@pytest.mark.rule("QUE-COMP-06")
def test_supplies() -> None:
    state = new_game()
    assert (state.city_supply[RED], state.field_supply[RED]) == (2, 10)
    state.apply(sow((0, 3)))
    assert (state.city_supply[RED], state.field_supply[RED]) == (2, 9)
    view = state.view(BLUE)  # supplies are public: any seat sees them
    assert view["position"]["seats"][RED]["field_supply"] == 9
    assert view["position"]["seats"][RED]["city_supply"] == 2


# -- set-up ----------------------------------------------------------------------------------------

@pytest.mark.rule("QUE-SETUP-01")
def test_two_player_starting_position() -> None:
    state = new_game()
    red, blue = state.seat_position(RED), state.seat_position(BLUE)
    assert red.queen == (0, 4) and red.cities == ((0, 4),)
    assert sorted(red.princes) == sorted([(1, 3), (1, 4), (-1, 4), (-1, 5)])
    assert blue.queen == (0, -4) and blue.cities == ((0, -4),)
    assert sorted(blue.princes) == sorted([(-1, -3), (-1, -4), (1, -4), (1, -5)])
    assert red.fields == () and blue.fields == ()
    # Blue's layout is the 180° rotation of Red's
    assert sorted((-q, -r) for q, r in red.princes) == sorted(blue.princes)
    board = state.game.board
    occupied = [red.queen, blue.queen, *red.princes, *blue.princes]
    assert len(set(occupied)) == 10
    assert not any(board.is_mountain[board.pos(c)] for c in occupied)
    assert hex_distance(red.queen, blue.queen) == 8
    for entry in (red, blue):
        assert all(hex_distance(p, entry.queen) == 1 for p in entry.princes)


@pytest.mark.rule("QUE-SETUP-02")
def test_starting_supplies() -> None:
    state = new_game()
    for s in (RED, BLUE):
        assert state.city_supply[s] == 2
        assert state.field_supply[s] == 10


@pytest.mark.rule("QUE-SETUP-03")
def test_red_starts_and_turns_alternate() -> None:
    state = new_game()
    assert (state.current_player, state.round) == (RED, 1)
    state.apply(legal(state)[0])
    assert (state.current_player, state.round) == (BLUE, 1)
    state.apply(legal(state)[0])
    assert (state.current_player, state.round) == (RED, 2)


@pytest.mark.rule("QUE-SETUP-04")
def test_three_player_seats() -> None:
    state = new_game(3)
    blue, green = state.seat_position(BLUE), state.seat_position(GREEN)
    assert blue.queen == (-4, 0) and blue.cities == ((-4, 0),)
    assert sorted(blue.princes) == sorted([(-4, 1), (-5, 1), (-3, -1), (-4, -1)])
    assert green.queen == (4, -4) and green.cities == ((4, -4),)
    assert sorted(green.princes) == sorted([(3, -4), (4, -5), (4, -3), (5, -4)])
    queens = [queen(state, s) for s in range(3)]
    assert queens == [(0, 4), (-4, 0), (4, -4)]
    assert all(hex_distance(a, b) == 8 for a in queens for b in queens if a != b)
    for s in range(3):
        assert (state.city_supply[s], state.field_supply[s]) == (2, 10)
    order = []
    for _ in range(4):
        order.append(state.current_player)
        state.apply(legal(state)[0])
    assert order == [RED, BLUE, GREEN, RED]


@pytest.mark.rule("QUE-SETUP-04")
def test_four_player_seats() -> None:
    state = new_game(4)
    blue = state.seat_position(BLUE)
    assert blue.queen == (-4, 4)
    assert sorted(blue.princes) == sorted([(-3, 4), (-4, 5), (-4, 3), (-5, 4)])
    assert [queen(state, s) for s in range(4)] == [(0, 4), (-4, 4), (0, -4), (4, -4)]
    assert state.view(None)["colours"] == ["Red", "Blue", "Green", "Yellow"]
    order = []
    for _ in range(5):
        order.append(state.current_player)
        state.apply(legal(state)[0])
    assert order == [RED, BLUE, GREEN, YELLOW, RED]


# -- turn --------------------------------------------------------------------------------------

@pytest.mark.rule("QUE-TURN-01")
def test_one_action_per_turn() -> None:
    state = new_game()
    actions = legal(state)
    assert {type(a) for a in actions} == {Move, Sow}
    for action in actions:
        after = state.clone()
        after.apply(action)
        assert after.current_player == BLUE
        assert after.turn == 1 and after.history == [action]


@pytest.mark.rule("QUE-TURN-02")
def test_pass_only_when_nothing_else_is_legal() -> None:
    state = custom(seat((5, -5), cities=[(5, -5)]),
                   seat((0, -4), princes=[(4, -5), (4, -4), (5, -4)]))
    assert legal(state) == [PASS]
    state.apply(PASS)
    assert state.current_player == BLUE
    assert state.round == 1 and state.history == [PASS]


@pytest.mark.rule("QUE-TURN-02")
def test_pass_is_illegal_while_anything_else_is() -> None:
    state = new_game()
    assert PASS not in legal(state)
    assert_illegal(state, PASS, match="only when no other action")


@pytest.mark.rule("QUE-TURN-02")
def test_a_pass_still_runs_the_end_of_turn() -> None:
    """A kept stack loses a Prince even when its owner passes. Red's Queen and stack are
    boxed in the corner by Blue Princes none of them can beat: two in Blue Cities (defence
    2 + 3 and 3 + 3 against Red's 3) and two next to the Blue Queen (4 against 4)."""
    state = custom(seat((5, -5), princes=[(4, -5), (4, -5)], field_supply=0,
                        cities=[(5, -5)]),
                   seat((4, -3), princes=[(3, -4), (3, -5), (4, -4), (5, -4)],
                        cities=[(3, -4), (3, -5)]))
    assert legal(state) == [PASS]
    state.apply(PASS)
    assert princes(state, RED) == [(4, -5)]
    assert state.final_round  # step (3) ran too: Red's Field supply is 0


@pytest.mark.rule("QUE-TURN-03")
def test_end_of_turn_sequence() -> None:
    state = custom(seat((-1, 4), princes=[(-1, 3), (0, 2)], cities=[(-1, 4)], field_supply=1),
                   seat((2, 0), princes=[(-1, 2), (3, -4)]))
    state.apply(joint((-1, 3), (0, 2), (-1, 2)))
    state.apply(move((3, -4), (3, -3)))
    state.apply(sow((-1, 3)))
    assert princes(state, RED) == [(-1, 2)]
    assert state.field_supply[RED] == 0
    assert state.final_round
    assert not state.is_terminal
    assert state.current_player == BLUE
    kinds = [e["event"] for e in state.log]
    assert kinds == ["princes_defeated", "stack_penalty", "final_round"]


@pytest.mark.rule("QUE-TURN-04")
def test_rounds_two_players() -> None:
    state = new_game()
    seen = []
    for _ in range(3):
        seen.append((state.current_player, state.round))
        state.apply(legal(state)[0])
    assert seen == [(RED, 1), (BLUE, 1), (RED, 2)]


@pytest.mark.rule("QUE-TURN-04")
def test_rounds_skip_an_eliminated_seat() -> None:
    state = custom(seat((0, 4)), seat(None, eliminated=True), seat((4, -4)))
    assert (state.current_player, state.round) == (RED, 1)
    state.apply(legal(state)[0])
    assert (state.current_player, state.round) == (GREEN, 1)
    state.apply(legal(state)[0])
    assert (state.current_player, state.round) == (RED, 2)


@pytest.mark.rule("QUE-TURN-05")
def test_initial_action_count() -> None:
    state = new_game()
    actions = legal(state)
    assert len(actions) == 121
    kinds = Counter(type(a) for a in actions)
    assert kinds == {Move: 115, Sow: 6}
    by_piece = Counter(a.src for a in actions if isinstance(a, Move))
    assert by_piece == {(0, 4): 9, (1, 3): 31, (-1, 4): 31, (1, 4): 22, (-1, 5): 22}
    assert sow_targets(state) == {(1, 4), (1, 3), (0, 3), (-1, 4), (-1, 5), (0, 5)}
    assert not any(isinstance(a, (Joint, Found, Pass)) for a in actions)
    assert len(set(actions)) == len(actions)  # no duplicates
