"""Cities and Fields: QUE-CITY-01..05 and QUE-FIELD-01..08.

Each test reproduces the `test:` scenario of its rule in the rule catalogue with its exact
outcome. The property parts of QUE-FIELD-03/04 play at least 1,000 random legal turns from
the initial position.
"""

from __future__ import annotations

import random

import pytest
from queens_helpers import (
    BLUE, FOUND, RED, assert_illegal, assert_legal, city_owner, custom, defence, ending_on,
    field_owner, joint, legal, move, new_game, queen, seat, sow, sow_targets,
)

from boardwright.games.queens.actions import ACTION_CLASSES, ACTION_TYPES


# -- Cities --------------------------------------------------------------------------------------

@pytest.mark.rule("QUE-CITY-01")
def test_founding_a_city() -> None:
    state = custom(seat((0, 2), city_supply=2), seat((0, -4)))
    assert_legal(state, FOUND)
    state.apply(FOUND)
    assert city_owner(state, (0, 2)) == RED
    assert state.city_supply[RED] == 1
    assert queen(state, RED) == (0, 2)  # the Queen does not move
    state = custom(seat((2, 2)), seat((0, -4)))  # a mountain
    assert_legal(state, FOUND)
    state = custom(seat((0, 2), city_supply=0), seat((0, -4)))
    assert_illegal(state, FOUND, match="no City left in supply")
    state = custom(seat((0, 2), fields=[(0, 2)]), seat((0, -4)))
    assert_illegal(state, FOUND, match="already holds a building")


@pytest.mark.rule("QUE-CITY-02")
def test_cities_are_static_strongholds() -> None:
    state = custom(seat((0, 4), princes=[(3, 1)], cities=[(3, 0)]), seat((0, -4)))
    assert_legal(state, move((3, 1), (3, 0)))
    assert_legal(state, move((3, 1), (3, -1)))
    state = custom(seat((0, 4), princes=[(3, 1)]), seat((0, -4), cities=[(3, 0)]))
    assert_illegal(state, move((3, 1), (3, 0)))
    assert_illegal(state, move((3, 1), (3, -1)), match="blocked")


@pytest.mark.rule("QUE-CITY-02")
def test_a_city_never_moves() -> None:
    state = custom(seat((0, 4), princes=[(0, 3)], cities=[(0, 4)]), seat((0, -4)))
    state.apply(move((0, 4), (1, 2)))  # the Queen leaves her City
    assert city_owner(state, (0, 4)) == RED and queen(state, RED) == (1, 2)


@pytest.mark.rule("QUE-CITY-03")
def test_attacking_an_occupied_city() -> None:
    state = custom(seat((0, -3), princes=[(1, -4), (-1, -3)]), seat((0, -4), cities=[(0, -4)]))
    assert defence(state, (0, -4)) == 4 + 3 == 7
    assert_illegal(state, move((1, -4), (0, -4)), match="worth 4 there and the defence is 7")
    assert_illegal(state, move((-1, -3), (0, -4)))
    action = joint((-1, -3), (1, -4), (0, -4))
    assert_legal(state, action)
    state.apply(action)
    assert queen(state, BLUE) is None
    assert city_owner(state, (0, -4)) == -1
    assert state.is_terminal and state.winners == [RED]


@pytest.mark.rule("QUE-CITY-04")
def test_city_limit() -> None:
    state = custom(seat((0, 2), cities=[(0, 4), (3, 0), (-3, 3)], city_supply=0), seat((0, -4)))
    assert FOUND not in legal(state)
    assert_illegal(state, FOUND)


@pytest.mark.rule("QUE-CITY-04")
def test_more_than_three_cities_is_not_a_position() -> None:
    import boardwright as bw

    with pytest.raises(bw.InvalidOptionError, match="a player owns 3"):
        custom(seat((0, 2), cities=[(0, 4), (3, 0), (-3, 3)], city_supply=1), seat((0, -4)))


@pytest.mark.rule("QUE-CITY-05")
def test_mountain_city_with_a_queen_cannot_be_attacked() -> None:
    state = custom(seat((1, -3), princes=[(2, -3), (1, -4)]), seat((2, -4), cities=[(2, -4)]))
    assert defence(state, (2, -4)) == 9
    assert ending_on(state, (2, -4)) == []
    assert_illegal(state, joint((1, -4), (2, -3), (2, -4)), match="worth 8 there and the defence is 9")


# -- Fields --------------------------------------------------------------------------------------

@pytest.mark.rule("QUE-FIELD-01")
def test_sowing_a_field() -> None:
    state = custom(seat((0, 4), princes=[(1, 3)], cities=[(0, 4)]),
                   seat((0, -4), princes=[(-1, 4)], fields=[(0, 5)]))
    assert sow_targets(state) == {(-1, 5), (0, 3), (1, 3), (1, 4)}
    assert_illegal(state, sow((-1, 4)), match="cannot sow")
    assert_illegal(state, sow((0, 5)))
    assert_illegal(state, sow((0, 2)))  # not next to a Red City
    state.apply(sow((1, 3)))  # under Red's own Prince
    assert field_owner(state, (1, 3)) == RED
    assert state.field_count[RED] == 1 and state.field_supply[RED] == 9


@pytest.mark.rule("QUE-FIELD-01")
def test_no_sowing_without_a_field_in_supply() -> None:
    state = custom(seat((0, 4), cities=[(0, 4)], field_supply=0), seat((0, -4)))
    assert sow_targets(state) == set()
    assert_illegal(state, sow((0, 3)), match="no Field left")


@pytest.mark.rule("QUE-FIELD-02")
def test_fields_only_on_plains() -> None:
    state = custom(seat((0, 4), cities=[(2, 3)]), seat((0, -4)))
    assert sow_targets(state) == {(1, 3), (1, 4), (3, 2)}
    assert_illegal(state, sow((2, 2)))


def random_turns(total: int, seed: int):
    """Yield (state before, state after) for `total` random legal turns over several games."""
    rng = random.Random(seed)
    played = 0
    game_seed = 0
    while played < total:
        state = new_game(2, seed=game_seed)
        game_seed += 1
        while not state.is_terminal and played < total:
            before = state.clone()
            state.apply(rng.choice(state.legal_actions()))
            played += 1
            yield before, state


@pytest.mark.rule("QUE-FIELD-03")
def test_fields_cannot_be_destroyed() -> None:
    state = custom(seat((0, 4), princes=[(3, 1)], field_supply=5),
                   seat((0, -4), princes=[(3, 0)], fields=[(3, 0)], field_supply=3))
    state.apply(move((3, 1), (3, 0)))
    assert field_owner(state, (3, 0)) == RED
    turns = 0
    for before, after in random_turns(1_000, seed=3):
        assert sum(after.field_count) >= sum(before.field_count)
        # and a Field once on a space stays there, whatever its colour
        assert all(after.field[p] >= 0 for p in before.game.board.spaces if before.field[p] >= 0)
        turns += 1
    assert turns == 1_000


@pytest.mark.rule("QUE-FIELD-04")
def test_no_removing_your_own_fields() -> None:
    assert ACTION_TYPES == ("move", "joint", "found", "sow", "pass")
    assert [c.__name__ for c in ACTION_CLASSES] == ["Move", "Joint", "Found", "Sow", "Pass"]
    for before, after in random_turns(1_000, seed=4):
        mover = before.current_player
        assert after.field_count[mover] >= before.field_count[mover]


@pytest.mark.rule("QUE-FIELD-05")
def test_capture_by_ending_a_move() -> None:
    state = custom(seat((0, 4), princes=[(3, 1)]), seat((0, -4), fields=[(3, 0), (3, -1)]))
    state.apply(move((3, 1), (3, -1)))
    assert field_owner(state, (3, -1)) == RED
    assert field_owner(state, (3, 0)) == BLUE  # passed over, not captured
    state = custom(seat((3, 2)), seat((0, -4), fields=[(3, 0)]))
    state.apply(move((3, 2), (3, 0)))
    assert field_owner(state, (3, 0)) == RED


@pytest.mark.rule("QUE-FIELD-05")
def test_a_joint_captures_the_field_it_ends_on() -> None:
    state = custom(seat((0, -3), princes=[(1, -4), (-1, -3)]),
                   seat((0, -4), princes=[(3, -5)], fields=[(0, -4)]), to_play=RED)
    state.apply(joint((-1, -3), (1, -4), (0, -4)))
    assert field_owner(state, (0, -4)) == RED


@pytest.mark.rule("QUE-FIELD-06")
def test_swapping_tokens_on_capture() -> None:
    state = custom(seat((0, 4), princes=[(3, 1)], field_supply=5),
                   seat((0, -4), fields=[(3, 0), (3, -1)], field_supply=3))
    state.apply(move((3, 1), (3, -1)))
    assert (state.field_supply[RED], state.field_supply[BLUE]) == (4, 4)
    assert (state.field_count[RED], state.field_count[BLUE]) == (1, 1)


@pytest.mark.rule("QUE-FIELD-07")
def test_capturing_with_an_empty_supply() -> None:
    state = custom(seat((0, 4), princes=[(3, 1)], field_supply=0),
                   seat((0, -4), fields=[(3, 0)], field_supply=3))
    state.apply(move((3, 1), (3, 0)))
    assert field_owner(state, (3, 0)) == BLUE
    assert (state.field_supply[RED], state.field_supply[BLUE]) == (0, 3)
    assert state.log[0]["event"] == "field_kept"


@pytest.mark.rule("QUE-FIELD-08")
def test_fields_and_pieces_share_spaces() -> None:
    state = custom(seat((0, 4), princes=[(3, 1)]), seat((0, -4), fields=[(3, 0)]))
    assert_legal(state, move((3, 1), (3, -1)))
    state = custom(seat((0, 4), princes=[(3, 1)]),
                   seat((0, -4), princes=[(3, 0)], fields=[(3, 0)]))
    assert defence(state, (3, 0)) == 0
    # a Prince protects its own Field: the enemy must win an attack there first
    state = custom(seat((0, 4), princes=[(3, 1)]),
                   seat((3, -2), princes=[(3, 0)], fields=[(3, 0)]))
    assert defence(state, (3, 0)) == 3
    assert_illegal(state, move((3, 1), (3, 0)))
