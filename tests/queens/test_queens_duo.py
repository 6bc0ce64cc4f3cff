"""Two-Prince attacks and stacks: QUE-DUO-01..06.

Each test reproduces the `test:` scenario of its rule in the rule catalogue with its exact
outcome. The shared position is QUE-DUO-01's: Red Queen (-1,4), Red Princes (-1,3) and (0,2),
a Blue Prince on the mountain (-1,2) (defence (5 - 3) x 2 = 4), Blue Queen (2,0).
"""

from __future__ import annotations

import pytest
from queens_helpers import (
    BLUE, RED, assert_illegal, assert_legal, attack, custom, defence, joint, legal, move,
    princes, seat,
)

from boardwright.games.queens import Joint, Move

JOINT_ATTACK = joint((-1, 3), (0, 2), (-1, 2))


def duo_position(extra_blue: list = ()) -> object:
    return custom(seat((-1, 4), princes=[(-1, 3), (0, 2)]),
                  seat((2, 0), princes=[(-1, 2), *extra_blue]))


def stacked() -> object:
    """QUE-DUO-03: after Red's JOINT and Blue's reply, Red to play with a stack on (-1,2)."""
    state = duo_position([(3, -4)])
    state.apply(JOINT_ATTACK)
    state.apply(move((3, -4), (3, -3)))
    assert state.current_player == RED
    return state


@pytest.mark.rule("QUE-DUO-01")
def test_joint_attack() -> None:
    state = duo_position()
    assert defence(state, (-1, 2)) == 4
    assert_illegal(state, move((-1, 3), (-1, 2)))
    assert_illegal(state, move((0, 2), (-1, 2)))
    assert_legal(state, JOINT_ATTACK)
    assert 2 * attack(state, RED, (-1, 2)) == 3 + 3 == 6
    state.apply(JOINT_ATTACK)
    assert princes(state, BLUE) == []
    assert princes(state, RED) == [(-1, 2), (-1, 2)]
    assert state.princes_at[state.game.board.pos((-1, 2))] == 2


@pytest.mark.rule("QUE-DUO-01")
def test_joint_names_its_princes_in_either_order() -> None:
    assert joint((0, 2), (-1, 3), (-1, 2)) == JOINT_ATTACK
    assert JOINT_ATTACK.to_json() == {"type": "joint", "from": [[-1, 3], [0, 2]], "to": [-1, 2]}
    state = duo_position()
    state.apply(joint((0, 2), (-1, 3), (-1, 2)))
    assert state.history == [JOINT_ATTACK]


@pytest.mark.rule("QUE-DUO-02")
def test_joint_value_is_computed_on_the_target() -> None:
    state = duo_position()
    # (-1,3) set off 1 from its Queen (worth 4 there) but both count 3 on (-1,2): 6, not 7
    assert attack(state, RED, (-1, 3)) == 4
    assert 2 * attack(state, RED, (-1, 2)) == 6
    assert_illegal(state, joint((-1, 3), (0, 2), (-2, 3)), match="must be an attack")
    assert not any(isinstance(a, Joint) and a.target == (-2, 3) for a in legal(state))


@pytest.mark.rule("QUE-DUO-02")
def test_joint_conditions() -> None:
    # onto a space holding only an enemy Field: not an attack, so no JOINT
    state = custom(seat((-1, 4), princes=[(-1, 3), (0, 2)]), seat((2, 0), fields=[(0, 3)]))
    assert_illegal(state, joint((-1, 3), (0, 2), (0, 3)), match="must be an attack")
    # each Prince must reach the target: (3,-2) is 5 steps from (-1,2), its MV is 1
    state = custom(seat((-1, 4), princes=[(-1, 3), (3, -2)]), seat((2, 0), princes=[(-1, 2)]))
    assert_illegal(state, joint((-1, 3), (3, -2), (-1, 2)), match="cannot reach h11")
    # the joint value must beat the defence: 2 + 2 = 4 against a mountain Prince worth 4
    state = custom(seat((-1, 5), princes=[(-1, 3), (0, 2)]), seat((2, 0), princes=[(-1, 2)]))
    assert 2 * attack(state, RED, (-1, 2)) == 4 == defence(state, (-1, 2))
    assert_illegal(state, joint((-1, 3), (0, 2), (-1, 2)), match="worth 4 there and the defence is 4")
    # a JOINT needs two Princes: not the Queen
    state = custom(seat((0, 3), princes=[(-1, 3)]), seat((2, 0), princes=[(-1, 2)]))
    assert_illegal(state, joint((-1, 3), (0, 3), (-1, 2)), match="no Prince on i14")


@pytest.mark.rule("QUE-DUO-03")
def test_a_stack_moves_one_prince_at_a_time() -> None:
    state = stacked()
    assert not any(isinstance(a, Joint) and a.first == a.second == (-1, 2) for a in legal(state))
    assert_illegal(state, joint((-1, 2), (-1, 2), (3, -3)), match="different spaces")
    assert_legal(state, move((-1, 2), (-2, 2)))


@pytest.mark.rule("QUE-DUO-03")
def test_one_prince_of_a_stack_may_join_a_joint_from_another_space() -> None:
    # Red stack on (0,3) next to the Queen, another Prince on (1,3); a Blue Prince on (1,2)
    # worth 3 (2 from its Queen on (2,0)) against Red's 3 each: only a JOINT wins.
    state = custom(seat((0, 4), princes=[(0, 3), (0, 3), (1, 3)]),
                   seat((2, 0), princes=[(1, 2)]))
    action = joint((0, 3), (1, 3), (1, 2))
    assert_legal(state, action)
    state.apply(action)
    assert princes(state, RED) == [(0, 3), (1, 2), (1, 2)]
    assert state.log[-1]["event"] == "princes_defeated"  # the split stack lost nothing


@pytest.mark.rule("QUE-DUO-04")
def test_the_stack_is_split_on_the_next_turn() -> None:
    state = stacked()
    state.apply(move((-1, 2), (-2, 2)))
    assert princes(state, RED) == [(-2, 2), (-1, 2)]
    assert state.stack_bits[RED] == 0
    assert not any(e["event"] == "stack_penalty" for e in state.log)


@pytest.mark.rule("QUE-DUO-05")
def test_a_kept_stack_loses_a_prince() -> None:
    state = stacked()
    state.apply(move((-1, 4), (-1, 5)))
    assert princes(state, RED) == [(-1, 2)]
    assert state.log[-1] == {"turn": 3, "round": 2, "event": "stack_penalty", "player": RED,
                             "at": [-1, 2]}


@pytest.mark.rule("QUE-DUO-06")
def test_only_stacks_older_than_the_turn_are_checked() -> None:
    state = custom(seat((-1, 4), princes=[(-1, 3), (0, 2), (0, 3), (1, 3)]),
                   seat((2, 0), princes=[(-1, 2), (1, 2), (3, -4)]))
    state.apply(JOINT_ATTACK)
    state.apply(move((3, -4), (3, -3)))
    assert 2 * attack(state, RED, (1, 2)) == 6 and defence(state, (1, 2)) == 3
    state.apply(joint((0, 3), (1, 3), (1, 2)))
    assert princes(state, RED) == [(-1, 2), (1, 2), (1, 2)]


@pytest.mark.rule("QUE-DUO-06")
def test_a_stack_in_the_starting_position_counts_as_old() -> None:
    state = custom(seat((0, 4), princes=[(0, 3), (0, 3)]), seat((0, -4)))
    state.apply(move((0, 4), (1, 4)))
    assert princes(state, RED) == [(0, 3)]
    assert isinstance(state.history[0], Move)
