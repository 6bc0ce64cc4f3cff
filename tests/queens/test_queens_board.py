"""Board and coordinates: QUE-BOARD-01..05, plus validation of map data.

Each test reproduces the `test:` scenario of its rule in the rule catalogue with its exact
outcome; further cases check the map data is validated when it is loaded.
"""

from __future__ import annotations

import pytest
from queens_helpers import custom, new_game, pos, seat

import boardwright as bw
from boardwright.games.queens.board import Board, hex_distance, mirror, rotate, spaces_of
from boardwright.games.queens.maps import load_map, parse_map

DEFAULT_MOUNTAINS = {(0, 0), (2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1), (1, -2),
                     (4, -2), (2, 2), (-2, 4), (-4, 2), (-2, -2), (2, -4)}


def board() -> Board:
    return new_game().game.board


@pytest.mark.rule("QUE-BOARD-01")
def test_board_has_91_spaces_in_a_hexagon_of_radius_5() -> None:
    b = board()
    assert len(b.spaces) == 91
    for coord in [(5, -5), (0, 5), (-5, 0)]:
        assert b.contains(coord)
    for coord in [(5, 1), (3, 3)]:
        assert not b.contains(coord)
    assert {b.coord(p) for p in b.spaces} == {
        (q, r) for q in range(-5, 6) for r in range(-5, 6) if max(abs(q), abs(r), abs(q + r)) <= 5}


@pytest.mark.rule("QUE-BOARD-01")
def test_actions_off_the_board_are_malformed() -> None:
    state = new_game()
    with pytest.raises(bw.MalformedActionError, match=r"\(5, 1\)"):
        state.game.action_from_json({"type": "move", "from": [0, 4], "to": [5, 1]})


@pytest.mark.rule("QUE-BOARD-02")
def test_adjacency() -> None:
    b = board()
    assert len(b.neighbours[b.pos((0, 0))]) == 6
    corner = {b.coord(p) for p in b.neighbours[b.pos((5, 0))]}
    assert corner == {(5, -1), (4, 0), (4, 1)}
    # adjacency is symmetric and matches distance 1
    for a in b.spaces:
        for n in b.neighbours[a]:
            assert a in b.neighbours[n]
            assert b.distance[a][n] == 1


@pytest.mark.rule("QUE-BOARD-03")
def test_distance() -> None:
    assert hex_distance((0, 4), (0, -4)) == 8
    assert hex_distance((-1, 2), (2, 0)) == 3
    assert hex_distance((3, -2), (0, 4)) == 6
    assert hex_distance((0, 3), (0, 4)) == 1
    # pieces on (0,3) and (0,2) change nothing: distance ignores the board's contents
    state = custom(seat((0, 4), princes=[(0, 3), (0, 2)]), seat())
    b = state.game.board
    assert b.distance[pos(state, (0, 4))][pos(state, (0, 1))] == 3


@pytest.mark.rule("QUE-BOARD-03")
def test_precomputed_distance_equals_fewest_steps() -> None:
    b = board()
    start = b.pos((0, 4))
    seen, frontier, steps = {start: 0}, [start], 0
    while frontier:
        steps += 1
        frontier = [n for p in frontier for n in b.neighbours[p] if n not in seen]
        for n in frontier:
            seen.setdefault(n, steps)
    assert all(b.distance[start][p] == d for p, d in seen.items())


@pytest.mark.rule("QUE-BOARD-04")
def test_terrain_of_the_default_map() -> None:
    b = board()
    for coord in [(0, 0), (2, 2), (-1, 2), (1, 1)]:
        assert b.is_mountain[b.pos(coord)]
    for coord in [(0, 1), (2, 0), (0, 4), (3, -3)]:
        assert not b.is_mountain[b.pos(coord)]
    mountains = {b.coord(p) for p in b.spaces if b.is_mountain[p]}
    assert len(mountains) == 13
    assert mountains == DEFAULT_MOUNTAINS
    assert b.plains.bit_count() == 78


@pytest.mark.rule("QUE-BOARD-04")
def test_default_map_is_the_data_file() -> None:
    spec = load_map("default")
    assert spec.radius == 5
    assert set(spec.mountains) == DEFAULT_MOUNTAINS
    assert spec.queen_and_city == (0, 4)
    assert spec.princes == ((1, 3), (1, 4), (-1, 4), (-1, 5))
    assert dict(spec.seat_rotations) == {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4)}
    assert new_game().game.option_summary() == {"map": "default"}


@pytest.mark.rule("QUE-BOARD-05")
def test_default_map_is_symmetric() -> None:
    assert {rotate(m) for m in DEFAULT_MOUNTAINS} == DEFAULT_MOUNTAINS
    assert {mirror(m) for m in DEFAULT_MOUNTAINS} == DEFAULT_MOUNTAINS
    for coord in spaces_of(5):
        assert rotate(coord, 6) == coord
        current = coord
        for _ in range(6):
            current = rotate(current)
        assert current == coord


SMALL_MAP = {"name": "small", "radius": 3, "mountains": [[0, 0]],
             "setup": {"queen_and_city": [0, 3], "princes": [[1, 2], [1, 1], [-1, 3], [-2, 3]],
                       "seat_rotations": {"2": [0, 3]}}}


@pytest.mark.rule("QUE-BOARD-05")
def test_another_map_can_be_loaded_from_data() -> None:
    game = bw.load("queens", 2, {"map": SMALL_MAP})
    state = game.new_game(1)
    assert len(game.board.spaces) == 37
    assert game.board.is_mountain[game.board.pos((0, 0))]
    assert state.seat_position(1).queen == (0, -3)
    assert state.seat_position(1).cities == ((0, -3),)
    # the inline map is recorded in full, so the game replays
    assert state.record.options["map"]["radius"] == 3
    rng_actions = 0
    while not state.is_terminal and rng_actions < 40:
        state.apply(state.legal_actions()[rng_actions % len(state.legal_actions())])
        rng_actions += 1
    assert bw.replay(state.record) == state


@pytest.mark.rule("QUE-BOARD-05")
@pytest.mark.parametrize("change, message", [
    ({"radius": 2}, "radius"),
    ({"radius": "5"}, "radius"),
    ({"mountains": [[9, 9]]}, "off a board"),
    ({"mountains": [[0, 0], [0, 0]]}, "twice"),
    ({"mountains": [[0, True]]}, "pair of integers"),
    ({"colour": "red"}, "unknown key"),
    ({"setup": {"queen_and_city": [0, 3], "princes": [[1, 2]], "seat_rotations": {"2": [0, 3]}}},
     "princes"),
    ({"setup": {"queen_and_city": [0, 3], "princes": [[1, 2], [1, 2], [-1, 3], [-2, 3]],
                "seat_rotations": {"2": [0, 3]}}}, "different spaces"),
    ({"setup": {"queen_and_city": [0, 3], "princes": [[1, 2], [1, 1], [-1, 3], [-2, 3]],
                "seat_rotations": {"5": [0, 1, 2, 3, 4]}}}, "player count"),
    ({"setup": {"queen_and_city": [0, 3], "princes": [[1, 2], [1, 1], [-1, 3], [-2, 3]],
                "seat_rotations": {"2": [0, 0]}}}, "different rotations"),
    ({"setup": {"queen_and_city": [0, 1], "princes": [[1, 0], [1, -1], [-1, 1], [0, 0]],
                "seat_rotations": {"2": [0, 3]}}}, "two on one space"),
])
def test_bad_map_data_is_rejected_with_the_reason(change: dict, message: str) -> None:
    with pytest.raises(bw.InvalidOptionError, match=message):
        parse_map({**SMALL_MAP, **change})
    with pytest.raises(bw.InvalidOptionError, match=message):
        bw.load("queens", 2, {"map": {**SMALL_MAP, **change}})


@pytest.mark.rule("QUE-BOARD-05")
def test_unknown_map_name_and_unsupported_player_count() -> None:
    with pytest.raises(bw.InvalidOptionError, match="unknown map 'moon'"):
        bw.load("queens", 2, {"map": "moon"})
    with pytest.raises(bw.InvalidOptionError, match="Queens takes 2 players on map 'small'"):
        bw.load("queens", 3, {"map": SMALL_MAP})
    with pytest.raises(bw.InvalidOptionError, match="map"):
        bw.load("queens", 2, {"map": 5})
