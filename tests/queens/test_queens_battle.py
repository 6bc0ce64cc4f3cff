"""Battle values and attacks: QUE-VAL-01..10 and QUE-ATK-01..09.

The fragment the game comes from gives three worked examples; each is reproduced with its
exact numbers: example 1 (a Prince attacking a plain 3 spaces from its Queen is worth
5 - 3 = 2) in QUE-VAL-02, example 2 (a Prince on a mountain 1 space from its Queen defends with
(5 - 1) x 2 = 8) in QUE-VAL-04, and example 3 (an attack worth 5 - 2 = 3 on a mountain Prince
worth (5 - 3) x 2 = 4 cannot take place) in QUE-ATK-03.
"""

from __future__ import annotations

import pytest
from queens_helpers import (
    BLUE, RED, assert_illegal, assert_legal, attack, city_owner, custom, defence, ending_on,
    field_owner, joint, legal, move, princes, queen, seat,
)

from boardwright.games.queens import Found, Move
from boardwright.games.queens.battle import prince_value


# -- battle values -------------------------------------------------------------------------------

@pytest.mark.rule("QUE-VAL-01")
def test_prince_value_is_measured_on_the_attacked_space() -> None:
    state = custom(seat((0, 4), princes=[(0, 3)]), seat((3, -4), princes=[(2, 0)]))
    assert attack(state, RED, (0, 3)) == 4  # where it stands: distance 1
    assert attack(state, RED, (2, 0)) == 1  # where it attacks: distance 4
    assert defence(state, (2, 0)) == 1
    assert_illegal(state, move((0, 3), (2, 0)), match="worth 1 there and the defence is 1")
    state = custom(seat((0, 4), princes=[(0, 3)]), seat((2, -5), princes=[(2, 0)]))
    assert defence(state, (2, 0)) == 0
    assert_legal(state, move((0, 3), (2, 0)))


@pytest.mark.rule("QUE-VAL-02")
def test_example_1_prince_value_five_minus_distance() -> None:
    """Fragment example 1: attacking a plain 3 spaces from its Queen, a Prince is worth 2."""
    state = custom(seat((0, 4), princes=[(0, 2)]), seat((0, -3), princes=[(0, 1)]))
    assert not state.game.board.is_mountain[state.game.board.pos((0, 1))]
    assert attack(state, RED, (0, 1)) == 5 - 3 == 2
    assert defence(state, (0, 1)) == 5 - 4 == 1
    state.apply(move((0, 2), (0, 1)))
    assert princes(state, BLUE) == []
    assert princes(state, RED) == [(0, 1)]


@pytest.mark.rule("QUE-VAL-02")
def test_prince_value_table() -> None:
    assert [prince_value(d) for d in range(1, 8)] == [4, 3, 2, 1, 0, 0, 0]


@pytest.mark.rule("QUE-VAL-03")
def test_value_never_below_zero() -> None:
    state = custom(seat((0, 4), princes=[(0, -3)]), seat((0, 1), princes=[(1, -3)]),
                   to_play=BLUE)
    assert defence(state, (0, -3)) == 0
    assert attack(state, BLUE, (0, -3)) == 1
    assert_legal(state, move((1, -3), (0, -3)))
    state.apply(move((1, -3), (0, -3)))
    assert princes(state, RED) == [] and princes(state, BLUE) == [(0, -3)]


@pytest.mark.rule("QUE-VAL-03")
def test_a_prince_worth_zero_still_moves_but_cannot_attack_alone() -> None:
    state = custom(seat((0, 4), princes=[(0, -3)]), seat((0, 1), princes=[(1, -4)]))
    assert attack(state, RED, (1, -4)) == 0
    moves = [a for a in legal(state) if isinstance(a, Move) and a.src == (0, -3)]
    assert moves and all(a.dst != (1, -4) for a in moves)
    assert defence(state, (1, -4)) == 0  # 0 against 0: still no attack (QUE-ATK-04)
    assert_illegal(state, move((0, -3), (1, -4)))


@pytest.mark.rule("QUE-VAL-04")
def test_example_2_mountain_doubles_a_defending_prince() -> None:
    """Fragment example 2: on a mountain 1 space from its Queen, a Prince defends with 8."""
    state = custom(seat((1, 3), princes=[(1, 2)]), seat((1, 0), princes=[(1, 1)]))
    assert state.game.board.is_mountain[state.game.board.pos((1, 1))]
    assert defence(state, (1, 1)) == (5 - 1) * 2 == 8
    assert attack(state, RED, (1, 1)) == 3
    assert ending_on(state, (1, 1)) == []
    assert_illegal(state, move((1, 2), (1, 1)), match="worth 3 there and the defence is 8")


@pytest.mark.rule("QUE-VAL-05")
def test_no_doubling_in_attack() -> None:
    state = custom(seat((-1, 4), princes=[(-1, 3)]), seat((2, 0), princes=[(-1, 2)]))
    assert attack(state, RED, (-1, 2)) == 3
    # setting off from a mountain does not double either
    state = custom(seat((0, 1), princes=[(0, 0)]), seat((0, -4), princes=[(1, -1)]))
    assert attack(state, RED, (1, -1)) == 3
    assert defence(state, (1, -1)) == 1
    state.apply(move((0, 0), (1, -1)))
    assert princes(state, RED) == [(1, -1)]


@pytest.mark.rule("QUE-VAL-06")
def test_queen_values() -> None:
    assert defence(custom(seat((0, 4)), seat((0, -4))), (0, -4)) == 4
    assert defence(custom(seat((0, 4)), seat((2, -4))), (2, -4)) == 7


@pytest.mark.rule("QUE-VAL-07")
def test_city_values() -> None:
    assert defence(custom(seat((0, 4)), seat((0, -4), cities=[(3, -3)])), (3, -3)) == 3
    assert defence(custom(seat((0, 4)), seat((0, -4), cities=[(4, -2)])), (4, -2)) == 5


@pytest.mark.rule("QUE-VAL-08")
def test_occupied_city_on_a_plain() -> None:
    state = custom(seat((0, 4)), seat((0, -4), princes=[(1, -3)], cities=[(1, -3)]))
    assert defence(state, (1, -3)) == 3 + 3 == 6
    state = custom(seat((0, 4)), seat((0, -4), cities=[(0, -4)]))
    assert defence(state, (0, -4)) == 4 + 3 == 7


@pytest.mark.rule("QUE-VAL-09")
def test_occupied_city_on_a_mountain() -> None:
    state = custom(seat((0, 4)), seat((0, -4), princes=[(2, -4)]))
    assert defence(state, (2, -4)) == 6
    state = custom(seat((0, 4)), seat((0, -4), princes=[(2, -4)], cities=[(2, -4)]))
    assert defence(state, (2, -4)) == 3 + 5 == 8
    state = custom(seat((0, 4)), seat((2, -4), cities=[(2, -4)]))
    assert defence(state, (2, -4)) == 4 + 5 == 9


@pytest.mark.rule("QUE-VAL-10")
def test_stack_defence() -> None:
    state = custom(seat((0, 4)), seat((0, -4), princes=[(0, -3), (0, -3)]))
    assert defence(state, (0, -3)) == 4 + 4 == 8
    state = custom(seat((0, 4)), seat((1, 0), princes=[(1, 1), (1, 1)]))
    assert defence(state, (1, 1)) == 8 + 8 == 16


# -- attacks -----------------------------------------------------------------------------------

@pytest.mark.rule("QUE-ATK-01")
def test_only_princes_attack() -> None:
    state = custom(seat((3, 1)), seat((0, -4), princes=[(3, 0)]))
    assert defence(state, (3, 0)) == 0
    assert ending_on(state, (3, 0)) == []
    assert_illegal(state, move((3, 1), (3, 0)), match="Queen never attacks")


@pytest.mark.rule("QUE-ATK-01")
def test_fields_are_never_attacked() -> None:
    """A Blue Field alone has no value: ending on it is a plain move that captures it."""
    state = custom(seat((0, 4), princes=[(3, 1)]), seat((0, -4), fields=[(3, 0)]))
    assert defence(state, (3, 0)) == 0
    state.apply(move((3, 1), (3, 0)))
    assert field_owner(state, (3, 0)) == RED
    assert [e["event"] for e in state.log] == ["field_captured"]


@pytest.mark.rule("QUE-ATK-02")
def test_attack_on_an_empty_city() -> None:
    state = custom(seat((3, -2), princes=[(4, -3)]), seat((0, -4), cities=[(3, -3)]))
    assert attack(state, RED, (3, -3)) == 4
    assert defence(state, (3, -3)) == 3
    state.apply(move((4, -3), (3, -3)))
    assert city_owner(state, (3, -3)) == -1
    assert princes(state, RED) == [(3, -3)]


@pytest.mark.rule("QUE-ATK-03")
def test_example_3_attack_needs_the_higher_value() -> None:
    """Fragment example 3: attacker 5 - 2 = 3 against a mountain defender (5 - 3) x 2 = 4."""
    state = custom(seat((-1, 4), princes=[(-1, 3)]), seat((2, 0), princes=[(-1, 2)]))
    assert attack(state, RED, (-1, 2)) == 5 - 2 == 3
    assert defence(state, (-1, 2)) == (5 - 3) * 2 == 4
    assert move((-1, 3), (-1, 2)) not in legal(state)
    assert_illegal(state, move((-1, 3), (-1, 2)), match="worth 3 there and the defence is 4")
    assert princes(state, RED) == [(-1, 3)] and princes(state, BLUE) == [(-1, 2)]


@pytest.mark.rule("QUE-ATK-04")
def test_ties_favour_the_defender() -> None:
    state = custom(seat((3, -1), princes=[(3, -2)]), seat((3, -5), princes=[(3, -3)]))
    assert attack(state, RED, (3, -3)) == defence(state, (3, -3)) == 3
    assert_illegal(state, move((3, -2), (3, -3)), match="worth 3 there and the defence is 3")
    state = custom(seat((4, -3), princes=[(3, -2)]), seat((3, -5), princes=[(3, -3)]))
    assert attack(state, RED, (3, -3)) == 4
    assert_legal(state, move((3, -2), (3, -3)))


@pytest.mark.rule("QUE-ATK-04")
def test_one_prince_never_takes_a_queen() -> None:
    state = custom(seat((0, -3), princes=[(1, -4)]), seat((0, -4)))
    assert attack(state, RED, (0, -4)) == defence(state, (0, -4)) == 4
    assert_illegal(state, move((1, -4), (0, -4)))


@pytest.mark.rule("QUE-ATK-05")
def test_a_legal_attack_always_succeeds() -> None:
    state = custom(seat((0, 4), princes=[(0, 2)]), seat((0, -3), princes=[(0, 1)]))
    state.apply(move((0, 2), (0, 1)))
    board = state.game.board
    assert princes(state, BLUE) == []
    assert princes(state, RED) == [(0, 1)]
    assert state.occupant[board.pos((0, 2))] == -1
    assert state.log[0]["event"] == "princes_defeated"


@pytest.mark.rule("QUE-ATK-05")
def test_a_stack_is_defeated_whole() -> None:
    state = custom(seat((0, 4), princes=[(0, 2), (1, 1)]),
                   seat((0, -4), princes=[(0, 1), (0, 1)]))
    # two Princes worth 0 each: Red's joint 2 + 2 = 4 > 0, and a single 2 > 0 as well
    state.apply(move((0, 2), (0, 1)))
    assert princes(state, BLUE) == []
    assert state.log[0]["count"] == 2


@pytest.mark.rule("QUE-ATK-06")
def test_defeated_princes_leave_the_game() -> None:
    state = custom(seat((0, 4), princes=[(0, 2)]), seat((0, -3), princes=[(0, 1)]))
    state.apply(move((0, 2), (0, 1)))
    assert state.prince_count[BLUE] == 0
    actions = legal(state)
    assert {type(a) for a in actions} == {Move, Found}
    assert all(a.src == (0, -3) for a in actions if isinstance(a, Move))
    for action in actions:
        after = state.clone()
        after.apply(action)
        assert after.prince_count[BLUE] == 0


@pytest.mark.rule("QUE-ATK-07")
def test_destroyed_cities_return_to_supply() -> None:
    state = custom(seat((3, -2), princes=[(4, -3)]),
                   seat((0, -4), cities=[(3, -3)], city_supply=1))
    assert state.city_supply[BLUE] == 1
    state.apply(move((4, -3), (3, -3)))
    assert state.city_supply[BLUE] == 2
    assert state.log[0]["event"] == "city_destroyed"


@pytest.mark.rule("QUE-ATK-07")
def test_a_destroyed_city_can_be_founded_again() -> None:
    state = custom(seat((3, -2), princes=[(4, -3)]),
                   seat((0, -4), cities=[(3, -3)], city_supply=0))
    state.apply(move((4, -3), (3, -3)))
    assert Found() in legal(state)  # Blue's Queen stands on a building-free space
    state.apply(Found())
    assert city_owner(state, (0, -4)) == BLUE and state.city_supply[BLUE] == 0


@pytest.mark.rule("QUE-ATK-08")
def test_defeated_queens_are_captured() -> None:
    state = custom(seat((0, -3), princes=[(1, -4), (-1, -3)]), seat((0, -4)))
    state.apply(joint((-1, -3), (1, -4), (0, -4)))
    assert queen(state, BLUE) is None
    assert state.is_terminal
    assert state.log[0]["event"] == "queen_captured"


@pytest.mark.rule("QUE-ATK-09")
def test_winning_an_attack_on_a_field() -> None:
    state = custom(seat((0, 4), princes=[(3, 1)], field_supply=5),
                   seat((0, -4), princes=[(3, 0)], fields=[(3, 0)], field_supply=3))
    assert attack(state, RED, (3, 0)) == 1 and defence(state, (3, 0)) == 0
    state.apply(move((3, 1), (3, 0)))
    assert princes(state, BLUE) == []
    assert field_owner(state, (3, 0)) == RED
    assert (state.field_supply[RED], state.field_supply[BLUE]) == (4, 4)
