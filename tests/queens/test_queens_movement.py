"""Movement: QUE-MOVE-01..08.

Each test reproduces the `test:` scenario of its rule in the rule catalogue with its exact
outcome, mostly in custom positions (default map, only the listed pieces, Red to play).
"""

from __future__ import annotations

import pytest
from queens_helpers import (
    BLUE, RED, assert_illegal, assert_legal, attack, custom, destinations, ending_on, move,
    princes, seat,
)

from boardwright.games.queens.battle import movement_value
from boardwright.games.queens.board import hex_distance, spaces_of


@pytest.mark.rule("QUE-MOVE-01")
def test_queen_destinations_are_every_space_within_two_steps() -> None:
    state = custom(seat((0, 4)), seat((0, -4)))
    expected = {c for c in spaces_of(5) if 1 <= hex_distance(c, (0, 4)) <= 2}
    assert len(expected) == 13
    assert destinations(state, (0, 4)) == expected


@pytest.mark.rule("QUE-MOVE-01")
def test_a_move_must_end_elsewhere() -> None:
    state = custom(seat((0, 4), princes=[(0, 3)]), seat((0, -4)))
    assert (0, 3) not in destinations(state, (0, 3))
    assert_illegal(state, move((0, 3), (0, 3)), match="different space")


@pytest.mark.rule("QUE-MOVE-01")
def test_only_start_and_end_are_recorded() -> None:
    state = custom(seat((0, 4), princes=[(0, 3)]), seat((0, -4)))
    action = move((0, 3), (2, 0))
    state.apply(action)
    assert state.record.actions == [{"type": "move", "from": [0, 3], "to": [2, 0]}]
    assert princes(state, RED) == [(2, 0)]


@pytest.mark.rule("QUE-MOVE-02")
def test_queen_moves_two() -> None:
    state = custom(seat((0, 4)), seat((0, -4)))
    assert_legal(state, move((0, 4), (0, 2)))
    assert_legal(state, move((0, 4), (2, 2)))
    assert_illegal(state, move((0, 4), (0, 1)), match="3 steps away and its movement value is 2")


@pytest.mark.rule("QUE-MOVE-03")
def test_movement_value_is_fixed_at_departure() -> None:
    state = custom(seat((0, 4), princes=[(0, 3)]), seat((0, -4)))
    assert (1, -1) in destinations(state, (0, 3))
    assert hex_distance((1, -1), (0, 4)) == 5
    assert attack(state, RED, (1, -1)) == 0
    state.apply(move((0, 3), (1, -1)))
    assert princes(state, RED) == [(1, -1)]


@pytest.mark.rule("QUE-MOVE-04")
def test_prince_movement_value() -> None:
    state = custom(seat((0, 4), princes=[(0, 3), (3, 1), (1, 0), (3, -2)]), seat((0, -4)))
    board = state.game.board
    queen = board.pos((0, 4))
    values = {p: movement_value(board.distance[board.pos(p)][queen])
              for p in [(0, 3), (3, 1), (1, 0), (3, -2)]}
    assert values == {(0, 3): 4, (3, 1): 2, (1, 0): 1, (3, -2): 1}
    assert [hex_distance(p, (0, 4)) for p in values] == [1, 3, 4, 6]
    for prince, mv in values.items():
        assert max(hex_distance(prince, d) for d in destinations(state, prince)) == mv
    assert (0, 1) in destinations(state, (1, 0))
    assert_illegal(state, move((1, 0), (0, 2)))
    neighbours = {c for c in spaces_of(5) if hex_distance(c, (3, -2)) == 1}
    assert destinations(state, (3, -2)) == neighbours
    assert len(neighbours) == 6


@pytest.mark.rule("QUE-MOVE-05")
def test_mountains_end_movement() -> None:
    state = custom(seat((0, 4), princes=[(0, 3)]), seat((0, -4)))
    assert_legal(state, move((0, 3), (0, 0)))
    assert hex_distance((0, 3), (0, -1)) == 4
    assert_illegal(state, move((0, 3), (0, -1)), match="blocked")


@pytest.mark.rule("QUE-MOVE-05")
def test_leaving_a_mountain_is_free() -> None:
    state = custom(seat((0, 4), princes=[(0, 3)]), seat((0, -4)))
    state.apply(move((0, 3), (0, 0)))
    state.apply(move((0, -4), (0, -3)))
    # from the mountain (0,0) (4 from the Queen: MV 1) every neighbour is open
    assert destinations(state, (0, 0)) == {c for c in spaces_of(5) if hex_distance(c, (0, 0)) == 1}


def _through_three_zero(**at_three_zero: list) -> tuple:
    """QUE-MOVE-06 position with something on (3,0)."""
    red = {"princes": [(3, 1)], "cities": []}
    blue = {"princes": [], "cities": [], "fields": []}
    for key, value in at_three_zero.items():
        owner, kind = key.split("_")
        (red if owner == "red" else blue)[kind] += value
    return custom(seat((0, 4), **red), seat((0, -4), **blue))


@pytest.mark.rule("QUE-MOVE-06")
@pytest.mark.parametrize("on_three_zero", [
    {}, {"red_princes": [(3, 0)]}, {"red_cities": [(3, 0)]}, {"blue_fields": [(3, 0)]},
], ids=["empty", "red-prince", "red-city", "blue-field"])
def test_passable_spaces(on_three_zero: dict) -> None:
    state = _through_three_zero(**on_three_zero)
    assert_legal(state, move((3, 1), (3, -1)))
    state.apply(move((3, 1), (3, -1)))
    assert (3, -1) in princes(state, RED)


@pytest.mark.rule("QUE-MOVE-06")
@pytest.mark.parametrize("on_three_zero", [
    {"blue_princes": [(3, 0)]}, {"blue_cities": [(3, 0)]},
], ids=["blue-prince", "blue-city"])
def test_blocked_spaces(on_three_zero: dict) -> None:
    state = _through_three_zero(**on_three_zero)
    assert_illegal(state, move((3, 1), (3, -1)), match="blocked")


@pytest.mark.rule("QUE-MOVE-07")
def test_where_a_move_may_end() -> None:
    state = _through_three_zero(red_princes=[(3, 0)])
    assert_illegal(state, move((3, 1), (3, 0)), match="already holds a piece of Red")
    state = _through_three_zero(red_cities=[(3, 0)])
    state.apply(move((3, 1), (3, 0)))
    assert princes(state, RED) == [(3, 0)]
    assert state.city[state.game.board.pos((3, 0))] == RED
    state = _through_three_zero(blue_cities=[(3, 0)])
    assert attack(state, RED, (3, 0)) == 1
    assert_illegal(state, move((3, 1), (3, 0)), match="worth 1 there and the defence is 3")


@pytest.mark.rule("QUE-MOVE-08")
def test_queens_do_not_enter_enemy_spaces() -> None:
    state = custom(seat((3, 1)), seat((0, -4), princes=[(3, 0)]))
    assert ending_on(state, (3, 0)) == []
    assert_illegal(state, move((3, 1), (3, 0)), match="Queen never attacks")


@pytest.mark.rule("QUE-MOVE-08")
def test_queen_cannot_end_on_an_empty_enemy_city_either() -> None:
    state = custom(seat((3, 1)), seat((0, -4), cities=[(3, 0)]))
    assert ending_on(state, (3, 0)) == []
    assert_illegal(state, move((3, 1), (3, 0)), match="Queen never attacks")
    assert state.current_player == RED and BLUE == 1
