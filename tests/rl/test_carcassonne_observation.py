"""Carcassonne's lossless observation (docs/research/carcassonne-observation.md).

Its layout per option set; the exact planes of small positions (figures on the segments of
their part, complete features, holders after a merge, barns, waiting wagons, the legal
placements and abbey holes); and over random games that it tells two positions apart exactly
when their futures can differ (`public_signature`), on both engines, with transpositions.
"""

from __future__ import annotations

import hashlib
import os
import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

import boardwright as bw
from boardwright.core.errors import IllegalActionError
from boardwright.games.carcassonne import Deploy, Pass, Place, PlaceAbbey, native
from boardwright.games.carcassonne.native.convert import PHASES as NATIVE_PHASES
from boardwright.games.carcassonne.scenario import build
from boardwright.rl.observations import encoder_for
from boardwright.rl.observations.carcassonne import (
    PHASES, SEGMENTS, WINDOW, CarcassonneEncoder, covered_segments,
)
from carcassonne_engines import ENGINES

R = WINDOW
W = 2 * R + 1
AM: dict[str, Any] = {"expansions": ["abbey_mayor"]}  # every piece, one of each per player
BASE_BOARD = ["tile", "rotation", "edge", "monastery", "abbey", "pennant", "figure", "complete",
              "holders", "last", "place"]
AM_BOARD = ["tile", "rotation", "edge", "monastery", "abbey", "pennant", "figure", "figure_kind",
            "barn", "complete", "holders", "wagon_left", "last", "place", "hole"]
SCALARS = ["scores", "supply", "tile", "remaining", "pile", "phase", "turn_player", "to_move",
           "final_round", "outside", "options"]
# Segments covered by a part: N E S W = 0..3, half sides NL..WR = 4..11, IN1 IN2, MONASTERY.
ROAD_EW = {1, 3}
U_NORTH_FIELD = {4, 5, 6, 11}  # U@/0: EL.NL.NR.WR
U_SOUTH_FIELD = {7, 8, 9, 10}  # U@/0: ER.SL.SR.WL


def encoder(players: int = 2, options: dict[str, Any] | None = None,
            engine: str | None = None) -> CarcassonneEncoder:
    return encoder_for(bw.load("carcassonne", players, options or {}, engine=engine))


def plane(enc: CarcassonneEncoder, obs: dict[str, np.ndarray], block: str,
          index: int = 0) -> np.ndarray:
    first, count = enc.board_blocks[block]
    assert 0 <= index < count
    return obs["board"][first + index]


def block(enc: CarcassonneEncoder, obs: dict[str, np.ndarray], name: str) -> np.ndarray:
    first, count = enc.board_blocks[name]
    return obs["board"][first:first + count]


def scalars(enc: CarcassonneEncoder, obs: dict[str, np.ndarray], name: str) -> list[int]:
    first, count = enc.scalar_blocks[name]
    return obs["scalars"][first:first + count].tolist()


def cells(array: np.ndarray) -> set[tuple[int, ...]]:
    """The nonzero cells of a plane or block, in board coordinates ((x, y) or (k, x, y))."""
    found = np.argwhere(array)
    return {(*row[:-2], row[-2] - R, row[-1] - R) for row in found.tolist()}


def segments_at(enc: CarcassonneEncoder, obs: dict[str, np.ndarray], name: str, rel: int,
                x: int, y: int) -> set[int]:
    """The segments g whose plane of relative seat `rel` in block `name` is set at (x, y)."""
    first = enc.board_blocks[name][0] + SEGMENTS * rel
    return {g for g in range(SEGMENTS) if obs["board"][first + g, x + R, y + R]}


def digest(obs: dict[str, np.ndarray]) -> bytes:
    return hashlib.blake2b(obs["board"].tobytes() + obs["scalars"].tobytes()).digest()


def same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return np.array_equal(a["board"], b["board"]) and np.array_equal(a["scalars"], b["scalars"])


# -- layout -------------------------------------------------------------------------------------

def test_layout_of_the_base_game_for_two_players():
    enc = encoder(2)
    assert enc.board_blocks == {
        "tile": (0, 24), "rotation": (24, 4), "edge": (28, 12), "monastery": (40, 1),
        "abbey": (41, 1), "pennant": (42, 1), "figure": (43, 30), "complete": (73, 15),
        "holders": (88, 30), "last": (118, 1), "place": (119, 4)}
    assert enc.scalar_blocks == {
        "scores": (0, 2), "supply": (2, 2), "tile": (4, 25), "remaining": (29, 24),
        "pile": (53, 1), "phase": (54, 6), "turn_player": (60, 2), "to_move": (62, 2),
        "final_round": (64, 3), "outside": (67, 1), "options": (68, 11)}
    assert enc.spaces() == {"board": ((123, W, W), np.uint8, 0, 255),
                            "scalars": ((79,), np.int16, 0, 32767)}
    assert enc.size == 123 * W * W + 79
    assert [name for name, *_ in enc.layout] == ["board", *SCALARS]
    assert enc.supply_order == ("follower",) and enc.figure_kinds == ("follower",)
    # players, farmers, abbeys, mayors, wagons, barns, adjacency, traverse, abbey end,
    # small cities, mayor lies flat
    assert enc.options_values == (2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0)


def test_layout_of_abbey_and_mayor_with_every_piece_for_six_players():
    enc = encoder(6, AM)
    assert enc.board_blocks == {
        "tile": (0, 37), "rotation": (37, 4), "edge": (41, 12), "monastery": (53, 1),
        "abbey": (54, 1), "pennant": (55, 1), "figure": (56, 90), "figure_kind": (146, 45),
        "barn": (191, 6), "complete": (197, 15), "holders": (212, 90), "wagon_left": (302, 90),
        "last": (392, 1), "place": (393, 4), "hole": (397, 1)}
    assert enc.planes == 398 and enc.num_scalars == 149
    assert enc.scalar_blocks["supply"] == (6, 30) and enc.scalar_blocks["options"] == (138, 11)
    assert enc.supply_order == ("follower", "mayor", "wagon", "barn", "abbey")
    assert enc.figure_kinds == ("follower", "mayor", "wagon")
    assert enc.options_values == (6, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0)


def test_options_scalars_name_every_option_value():
    options = {**AM, "farmers": False, "abbeys": 2, "mayors": 3, "wagons": 4, "barns": 5,
               "wagon_adjacency": "connected", "wagon_traverse": True,
               "abbey_end_of_game": "voluntary_round", "small_city_scoring": "first_edition",
               "mayor_lies_flat": True}
    enc = encoder(3, options)
    assert enc.options_values == (3, 0, 2, 3, 4, 5, 1, 1, 2, 1, 1)
    obs = enc.encode_state(enc.game.new_game(1), 0)
    assert scalars(enc, obs, "options") == list(enc.options_values)
    assert encoder(2, {**AM, "abbey_end_of_game": "none"}).options_values[8] == 1


@pytest.mark.parametrize("options, names", [
    ({**AM, "abbeys": 0}, [b for b in AM_BOARD if b != "hole"]),
    ({**AM, "barns": 0, "wagons": 0}, [b for b in AM_BOARD if b not in ("barn", "wagon_left")]),
    ({**AM, "mayors": 0, "wagons": 0}, [b for b in AM_BOARD
                                        if b not in ("figure_kind", "wagon_left")]),
])
def test_blocks_of_pieces_not_in_the_game_are_left_out(options, names):
    assert list(encoder(3, options).board_blocks) == names


@pytest.mark.parametrize("players, options", [
    *((n, {}) for n in range(2, 6)), *((n, AM) for n in range(2, 7))])
def test_shapes_dtypes_and_float_views_per_player_count(players, options):
    enc = encoder(players, options)
    names = AM_BOARD if options else BASE_BOARD
    assert list(enc.board_blocks) == names and list(enc.scalar_blocks) == SCALARS
    at = 0
    for name, (first, count) in enc.board_blocks.items():  # contiguous, in the document's order
        assert first == at
        at += count
    assert at == enc.planes
    n, T, K = players, len(enc.game._tile_names), len(enc.figure_kinds)
    expected = {"tile": T, "figure": 15 * n, "holders": 15 * n, "figure_kind": 15 * K,
                "barn": n, "wagon_left": 15 * n}
    for name, count in expected.items():
        if name in enc.board_blocks:
            assert enc.board_blocks[name][1] == count, name
    assert enc.scalar_blocks["supply"][1] == n * len(enc.supply_order)
    assert enc.scalar_blocks["final_round"][1] == n + 1
    state = enc.game.new_game(3)
    for seat in range(players):
        obs = enc.encode_state(state, seat)
        for name, (shape, dtype, _low, _high) in enc.spaces().items():
            assert obs[name].shape == shape and obs[name].dtype == dtype
        flat = enc.to_float(obs)
        assert flat.shape == (enc.size,) and flat.dtype == np.float32
        cut = enc.planes * W * W
        assert np.array_equal(flat[:cut], obs["board"].reshape(-1))
        assert np.allclose(flat[cut:], obs["scalars"] * enc.scales)
        tensor = enc.tensor(obs)
        assert tensor.shape == (enc.planes + 1, W, W) and tensor.dtype == np.float32
        assert np.array_equal(tensor[:enc.planes], obs["board"])
        last = tensor[enc.planes].reshape(-1)
        assert np.allclose(last[:enc.num_scalars], flat[cut:]) and not last[enc.num_scalars:].any()
        blocks = enc.split(flat)
        assert blocks["board"].shape == (enc.planes, W, W)
        assert blocks["supply"].shape == (players, len(enc.supply_order))


def test_scales_of_the_float_view():
    enc = encoder(3, AM)
    expected = {"scores": 0.01, "supply": 0.1, "tile": 1, "remaining": 0.1, "pile": 0.01,
                "phase": 1, "turn_player": 1, "to_move": 1, "final_round": 1, "outside": 1,
                "options": 1}
    for name, (first, count) in enc.scalar_blocks.items():
        assert np.allclose(enc.scales[first:first + count], expected[name]), name


def test_phases_are_numbered_as_the_native_engine_numbers_them():
    assert PHASES == NATIVE_PHASES


# -- exact positions ----------------------------------------------------------------------------

def test_the_start_of_a_game(carcassonne_engine):
    enc = encoder(2)
    state = enc.game.new_game(4)
    obs = enc.encode_state(state, 1)
    d = enc.game._tile_index["D"]
    assert cells(plane(enc, obs, "tile", d)) == {(0, 0)}
    assert block(enc, obs, "tile").sum() == 1 and cells(plane(enc, obs, "rotation", 0)) == {(0, 0)}
    # D/0: city N, road E and W, field S
    assert {e for e in range(12) if plane(enc, obs, "edge", e)[R, R]} == {0, 4, 8, 10}
    assert not block(enc, obs, "figure").any() and not block(enc, obs, "last").any()
    assert scalars(enc, obs, "scores") == [0, 0] and scalars(enc, obs, "supply") == [7, 7]
    assert scalars(enc, obs, "phase") == [1, 0, 0, 0, 0, 0]
    assert scalars(enc, obs, "turn_player") == [0, 1] and scalars(enc, obs, "to_move") == [0, 1]
    tile = scalars(enc, obs, "tile")
    assert tile.index(1) == enc.game._tile_index[state.tile] and sum(tile) == 1
    assert sum(scalars(enc, obs, "remaining")) == scalars(enc, obs, "pile")[0] == 70
    assert scalars(enc, obs, "final_round") == [0, 0, 0] and scalars(enc, obs, "outside") == [0]


def test_a_follower_on_the_road_or_either_field_gives_three_boards(carcassonne_engine):
    state = build("D@(0,0)/0", pile=["U", "U"], players=2)
    enc = encoder_for(state.game)
    state.apply(Place(1, 0, 0))
    placed = {"E.W": ROAD_EW, "EL.NL.NR.WR": U_NORTH_FIELD, "ER.SL.SR.WL": U_SOUTH_FIELD}
    boards = []
    for location, segments in placed.items():
        child = state.clone()
        child.apply(Deploy(1, 0, location, "follower"))
        for viewer in (0, 1):
            obs = enc.encode_state(child, viewer)
            rel = (0 - viewer) % 2
            assert segments_at(enc, obs, "figure", rel, 1, 0) == segments
            assert cells(block(enc, obs, "figure")) == {(SEGMENTS * rel + g, 1, 0)
                                                        for g in segments}
            if viewer == 0:
                boards.append(obs["board"])
    assert not any(np.array_equal(a, b) for i, a in enumerate(boards) for b in boards[i + 1:])


def test_a_closed_city_is_complete_and_nothing_else(carcassonne_engine):
    state = build("D@(0,0)/0 E@(0,-1)/180", pile=["U"], players=2)
    enc = encoder_for(state.game)
    obs = enc.encode_state(state, 0)
    # D/0's city covers N, NL, NR; E/180's covers S, SL, SR; D's road is still open.
    assert cells(block(enc, obs, "complete")) == {
        (0, 0, 0), (4, 0, 0), (5, 0, 0), (2, 0, -1), (8, 0, -1), (9, 0, -1)}


def test_holders_count_the_figures_of_a_feature_after_a_merge(carcassonne_engine):
    # D's road at (0,0) holds a follower of seat 0; the road U(2,0)-U(3,0) one of seat 1 and
    # one of seat 0; U(1,0) joins them. B tiles only link the board.
    tiles = "D@(0,0)/0 E@(0,-1)/180 B@(1,-1)/0 B@(2,-1)/0 U@(2,0)/0 U@(3,0)/0"
    followers = [(0, 0, 0, "E.W"), (1, 2, 0, "E.W"), (0, 3, 0, "E.W")]
    state = build(tiles, followers=followers, pile=["U", "U"], players=2)
    enc = encoder_for(state.game)
    before = enc.encode_state(state, 0)
    assert cells(block(enc, before, "holders")) == (
        {(g, 0, 0) for g in ROAD_EW} | {(g, x, 0) for g in ROAD_EW for x in (2, 3)}
        | {(SEGMENTS + g, x, 0) for g in ROAD_EW for x in (2, 3)})
    state.apply(Place(1, 0, 0))
    for viewer in (0, 1):
        obs = enc.encode_state(state, viewer)
        mine, theirs = (0, 1) if viewer == 0 else (1, 0)
        holders = block(enc, obs, "holders")
        for x in range(4):
            for g in ROAD_EW:
                assert holders[SEGMENTS * mine + g, x + R, R] == 2
                assert holders[SEGMENTS * theirs + g, x + R, R] == 1
        assert np.count_nonzero(holders) == 2 * 4 * len(ROAD_EW)
        assert cells(plane(enc, obs, "last")) == {(1, 0)}


def test_barn_plane_marks_the_cell_whose_nw_corner_holds_it(carcassonne_engine):
    # FX-BARN: E@(1,1)/90 closes a city and makes corner(0,0), the NW corner of (1,1), a barn point.
    tiles = "D@(0,0)/0 U@(1,0)/0 U@(2,0)/0 B@(0,1)/0 E@(0,2)/180 E@(0,3)/0 E@(2,1)/270"
    state = build(tiles, pile=["E", "U"], players=3, options=AM)
    enc = encoder_for(state.game)
    state.apply(Place(1, 1, 90))
    assert not block(enc, enc.encode_state(state, 0), "barn").any()
    state.apply(Deploy(1, 1, "NW", "barn"))
    for viewer in range(3):
        obs = enc.encode_state(state, viewer)
        assert cells(block(enc, obs, "barn")) == {((0 - viewer) % 3, 1, 1)}
        assert scalars(enc, obs, "supply")[(0 - viewer) % 3 * 5 + 3] == 0  # seat 0's barn


def test_a_waiting_wagon_marks_the_part_it_left(carcassonne_engine):
    # Red puts a wagon on G@(0,-1)/90's city (N.S); Blue closes the city: Red's wagon waits.
    state = build("D@(0,0)/0", pile=["G", "E", "U", "U"], players=3, options=AM)
    enc = encoder_for(state.game)
    state.apply(Place(0, -1, 90))
    state.apply(Deploy(0, -1, "N.S", "wagon"))
    obs = enc.encode_state(state, 1)
    assert segments_at(enc, obs, "figure", 2, 0, -1) == {0, 2, 4, 5, 8, 9}
    assert segments_at(enc, obs, "figure_kind", 2, 0, -1) == {0, 2, 4, 5, 8, 9}  # kind 2: wagon
    state.apply(Place(0, -2, 180))
    state.apply(Pass())
    assert state.phase == "wagon_move"
    for viewer in range(3):
        obs = enc.encode_state(state, viewer)
        rel = (0 - viewer) % 3
        assert cells(block(enc, obs, "wagon_left")) == {
            (SEGMENTS * rel + g, 0, -1) for g in (0, 2, 4, 5, 8, 9)}
        assert not block(enc, obs, "figure").any()
        assert scalars(enc, obs, "phase") == [0, 0, 0, 0, 0, 1]
        assert scalars(enc, obs, "to_move")[rel] == 1
        assert scalars(enc, obs, "turn_player")[(1 - viewer) % 3] == 1
    state.apply(Pass())
    assert not block(enc, enc.encode_state(state, 0), "wagon_left").any()


def test_bad_seats_are_refused_naming_the_seat():
    enc = encoder(2)
    state = enc.game.new_game(0)
    for seat in (2, -1, "0", None):
        with pytest.raises(IllegalActionError, match="no seat"):
            enc.encode_state(state, seat)


# -- random games -------------------------------------------------------------------------------

def random_positions(game: Any, seeds: range, rng_seed: int = 0):
    """Every position of random games (the start, after each action, the end)."""
    rng = random.Random(rng_seed)
    for seed in seeds:
        state = game.new_game(seed)
        yield state
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            yield state


def test_place_planes_are_the_legal_placements(carcassonne_engine):
    enc = encoder(2)
    checked = 0
    for state in random_positions(enc.game, range(3)):
        obs = enc.encode_state(state, state.current_player % 2)
        found = cells(block(enc, obs, "place"))
        legal = {(a.rotation // 90, a.x, a.y) for a in state.legal_actions() if type(a) is Place}
        assert found == {(q, x, y) for q, x, y in legal if abs(x) <= R and abs(y) <= R}
        checked += bool(legal)
    assert checked >= 200


def test_hole_plane_is_the_legal_abbey_placements(carcassonne_engine):
    enc = encoder(2, {**AM, "abbeys": 3})
    holes = 0
    for state in random_positions(enc.game, range(3)):
        obs = enc.encode_state(state, 0)
        legal = {(a.x, a.y) for a in state.legal_actions() if type(a) is PlaceAbbey}
        assert cells(plane(enc, obs, "hole")) == legal
        holes += len(legal)
    assert holes >= 20


def test_encode_into_overwrites_preallocated_rows(carcassonne_engine):
    enc = encoder(3, AM)
    spaces = enc.spaces()
    batch = {name: np.full((2, *shape), 7, dtype=dtype)
             for name, (shape, dtype, _low, _high) in spaces.items()}
    for i, state in enumerate(random_positions(enc.game, range(1))):
        if i % 17:
            continue
        for seat in range(3):
            enc.encode_into(state, seat, {name: array[1] for name, array in batch.items()})
            assert same({name: array[1] for name, array in batch.items()},
                        enc.encode_state(state, seat))
            assert (batch["board"][0] == 7).all()


def test_encode_from_a_view_matches_encode_state(carcassonne_engine):
    # Connected wagons: the wagon's feature (rebuilt from the view) decides its moves.
    for players, options in ((2, {}), (3, {**AM, "wagon_adjacency": "connected"})):
        enc = encoder(players, options)
        for i, state in enumerate(random_positions(enc.game, range(2))):
            if i % 3 and not state.wagon_queue:
                continue
            for seat in range(players):
                assert np.array_equal(enc.encode(state.view(seat), seat),
                                      enc.to_float(enc.encode_state(state, seat)))


def check_lossless(enc: CarcassonneEncoder, seeds: range, children: float) -> tuple[int, int]:
    """Along random games, every position and (for a `children` share of them, drawn from a
    seeded generator, so every phase gets its turn) every position one action away:
    observations are equal exactly when public signatures are, for every seat. Returns
    (positions checked, positions skipped for a tile outside the window)."""
    n = enc.game.num_players
    by_signature: dict[tuple, list[bytes]] = {}
    by_observation: dict[bytes, tuple] = {}
    checked = skipped = 0
    outside = enc.scalar_blocks["outside"][0]
    pick = random.Random(1)
    for state in random_positions(enc.game, seeds):
        family = [state]
        if pick.random() < children:
            for action in state.legal_actions():
                child = state.clone()
                child.apply(action)
                family.append(child)
        for position in family:
            signature = position.public_signature()
            observations = [enc.encode_state(position, seat) for seat in range(n)]
            if observations[0]["scalars"][outside]:
                skipped += 1
                continue
            keys = [digest(obs) for obs in observations]
            assert by_signature.setdefault(signature, keys) == keys, "same signature"
            for seat, key in enumerate(keys):
                assert by_observation.setdefault(key, (seat, signature)) == (seat, signature)
            checked += 1
    return checked, skipped


def decode(enc: CarcassonneEncoder, obs: dict[str, np.ndarray], viewer: int) -> tuple:
    """The public signature read back from one seat's observation alone: the observation loses
    nothing if this gives the position's `public_signature` (every tile in the window)."""
    game, n = enc.game, enc.game.num_players
    seat = lambda rel: (viewer + rel) % n  # noqa: E731
    names = enc.tiles
    board = {}
    for t, x, y in cells(block(enc, obs, "tile")):
        (quarter,) = [q for q in range(4) if plane(enc, obs, "rotation", q)[x + R, y + R]]
        board[(x, y)] = game.tile_types[names[t]].variants[quarter]

    def parts_on(name: str, groups: int) -> list[tuple[tuple[int, int], str, int]]:
        """(cell, location, group) of every part whose segments are all set in a block of
        15-plane groups."""
        found = []
        first = enc.board_blocks[name][0]
        for (x, y), variant in board.items():
            column = obs["board"][first:first + SEGMENTS * groups, x + R, y + R]
            if not column.any():
                continue
            for group in range(groups):
                on = set(np.flatnonzero(column[SEGMENTS * group:SEGMENTS * (group + 1)]))
                for local, feature in enumerate(variant.features):
                    covered = set(covered_segments(variant, local))
                    if covered <= on:
                        found.append(((x, y), feature.location, group))
                        on -= covered
                assert not on, (name, x, y, on)
        return found

    kinds = enc.figure_kinds
    kind_of = ({(cell, loc): kinds[k] for cell, loc, k in parts_on("figure_kind", len(kinds))}
               if "figure_kind" in enc.board_blocks else {})
    figures = sorted((cell, loc, seat(rel), kind_of.get((cell, loc), "follower"))
                     for cell, loc, rel in parts_on("figure", n))
    barns = (sorted(((x - 1, y - 1), seat(rel)) for rel, x, y in cells(block(enc, obs, "barn")))
             if "barn" in enc.board_blocks else [])
    P = len(enc.supply_order)
    supply = scalars(enc, obs, "supply")
    by_seat = {seat(rel): supply[P * rel:P * (rel + 1)] for rel in range(n)}
    (phase,) = [PHASES[i] for i, on in enumerate(scalars(enc, obs, "phase")) if on]
    (turn,) = [seat(rel) for rel, on in enumerate(scalars(enc, obs, "turn_player")) if on]
    to_move = [seat(rel) for rel, on in enumerate(scalars(enc, obs, "to_move")) if on] or [-1]
    tile = scalars(enc, obs, "tile").index(1)
    last = cells(plane(enc, obs, "last"))
    waiting = []
    if "wagon_left" in enc.board_blocks:  # in the queue's order: clockwise from the turn player
        for cell, loc, rel in parts_on("wagon_left", n):
            waiting.append((seat(rel), cell, loc))
    wagons: dict[tuple, list[str]] = {}
    for owner, cell, loc in waiting:
        wagons.setdefault((owner, cell), []).append(loc)
    final = scalars(enc, obs, "final_round")
    final_round = (tuple(sorted((seat(rel) for rel in range(n) if final[1 + rel]),
                                key=lambda s: (s - turn) % n)) if final[0] else None)
    return (
        tuple(sorted((cell, v.tile, v.rotation) for cell, v in board.items())),
        tuple(figures), tuple(barns),
        tuple(scalars(enc, obs, "scores")[(s - viewer) % n] for s in range(n)),
        tuple(tuple(sorted(zip(enc.supply_order, by_seat[s]))) for s in range(n)),
        tuple(sorted((names[t], c) for t, c in enumerate(scalars(enc, obs, "remaining")) if c)),
        None if tile == len(names) else names[tile], phase, turn, to_move[0],
        min(last) if last else None,
        tuple(sorted(((owner, cell, tuple(sorted(locs))) for (owner, cell), locs in wagons.items()),
                     key=lambda w: (w[0] - turn) % n)),
        final_round,
    )


# Each option set on one engine (the engines' observations are compared below): base game,
# Abbey & Mayor with every piece (two abbeys each), and connected wagons with a voluntary final
# abbey round.
@pytest.mark.parametrize("carcassonne_engine, players, options, seeds, children", [
    pytest.param("native", 2, {}, range(2), 0.5, id="base-native"),
    pytest.param("python", 3, {**AM, "abbeys": 2}, range(2), 0.3, id="abbey-mayor-python"),
    pytest.param("native", 2, {**AM, "wagon_adjacency": "connected",
                               "abbey_end_of_game": "voluntary_round"}, range(2, 3), 0.5,
                 id="connected-wagons-native"),
], indirect=["carcassonne_engine"])
def test_observation_differs_exactly_when_the_future_can(carcassonne_engine, players, options,
                                                         seeds, children):
    checked, skipped = check_lossless(encoder(players, options), seeds, children)
    assert checked >= 1500 and skipped <= checked // 100


@pytest.mark.parametrize("players, options, seed", [
    (2, {}, 0),
    (3, {**AM, "abbeys": 2, "wagons": 3, "wagon_adjacency": "connected",
         "abbey_end_of_game": "voluntary_round"}, 2),
])
def test_the_public_signature_reads_back_from_the_observation(carcassonne_engine, players,
                                                              options, seed):
    """Every position of a random game, seen by each seat in turn: what can change its future
    is all in the observation (`decode` reads it back). The Abbey & Mayor game has waiting
    wagons, barns, mayors and a final abbey round."""
    enc = encoder(players, options)
    seen = {"wagon": 0, "barn": 0, "final round": 0}
    for i, state in enumerate(random_positions(enc.game, range(seed, seed + 1))):
        seat = i % players
        assert decode(enc, enc.encode_state(state, seat), seat) == state.public_signature()
        seen["wagon"] += bool(state.wagon_queue)
        seen["barn"] += bool(state.barn_owner)
        seen["final round"] += state.final_round is not None
    if options:
        assert min(seen.values()) > 0, seen


def test_the_same_board_laid_in_another_order_gives_the_same_observation(carcassonne_engine):
    """A transposition: twelve tiles laid in a random order of play, then again in another
    order ending with the same tile (figures passed): part ids and history differ, the public
    signature and the observation do not."""
    first = bw.load("carcassonne", 2)
    state = first.new_game(5)
    rng = random.Random(5)
    laid: list[tuple[str, Place]] = []
    while len(laid) < 12 or state.phase != "place_tile":
        if state.phase == "place_tile":
            action = rng.choice(state.legal_actions())
            laid.append((state.tile, action))
            state.apply(action)
        else:
            state.apply(Pass())
    order = shuffled_order(laid[:-1], rng) + [laid[-1]]
    assert order != laid
    second = bw.load("carcassonne", 2, {"draw_order": [tile for tile, _ in order]
                                        + [state.tile, *reversed(state.pile)]})
    other = second.new_game(0)
    for _, action in order:
        other.apply(action)
        other.apply(Pass())
    assert other.public_signature() == state.public_signature()
    assert other.signature() != state.signature()
    enc = encoder_for(first)
    for seat in (0, 1):
        assert same(enc.encode_state(state, seat), enc.encode_state(other, seat))


def shuffled_order(laid: list[tuple[str, Place]], rng: random.Random) -> list[tuple[str, Place]]:
    """The same placements in another order of play: each tile touches one laid before it."""
    todo, board, order = list(laid), {(0, 0)}, []
    while todo:
        touching = [item for item in todo if any(
            (item[1].x + dx, item[1].y + dy) in board
            for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0)))]
        item = rng.choice(touching)
        todo.remove(item)
        board.add((item[1].x, item[1].y))
        order.append(item)
    return order


def test_the_hidden_order_of_the_pile_is_not_observed(carcassonne_engine):
    enc = encoder(3, AM)
    for i, state in enumerate(random_positions(enc.game, range(1))):
        if i % 10 or state.is_terminal:
            continue
        other = state.determinize(0, random.Random(i))
        assert other.public_signature() == state.public_signature()
        for seat in range(3):
            assert same(enc.encode_state(state, seat), enc.encode_state(other, seat))


# -- both engines -------------------------------------------------------------------------------

@pytest.mark.skipif(os.environ.get("BOARDWRIGHT_NATIVE") == "0" and not native.AVAILABLE,
                    reason="BOARDWRIGHT_NATIVE=0: the native engine is not built")
@pytest.mark.parametrize("players, options", [(2, {}), (4, AM)])
def test_both_engines_observe_the_same_game_alike(players, options):
    """The same seed and choices on the two engines, and each native position against its
    Python twin: the same observation for every seat, the same public signature."""
    games = {engine: bw.load("carcassonne", players, options, engine=engine)
             for engine in ENGINES}
    encoders = {engine: encoder_for(game) for engine, game in games.items()}
    states = {engine: game.new_game(11) for engine, game in games.items()}
    rng = random.Random(11)
    while True:
        python, native = states["python"], states["native"]
        twin = native.to_python()
        assert native.public_signature() == python.public_signature() == twin.public_signature()
        for seat in range(players):
            expected = encoders["python"].encode_state(python, seat)
            assert same(encoders["native"].encode_state(native, seat), expected)
            assert same(encoders["native"].encode_state(twin, seat), expected)
        if python.is_terminal:
            break
        action = rng.choice(python.legal_actions())
        assert native.legal_actions() == python.legal_actions()
        for state in states.values():
            state.apply(action)


def test_a_state_with_explicit_chance_nodes_is_observed_as_its_view_says(carcassonne_engine):
    """OpenSpiel's states: at a chance node (a tile to draw) nobody is to move."""
    enc = encoder(3, AM)
    state = enc.game.new_chance_game()
    rng = random.Random(2)
    chance_nodes = 0
    with pytest.raises(IllegalActionError, match="first chance outcome"):
        enc.encode_state(state, 0)  # no position before the first tile is drawn
    for _ in range(60):
        if state.has_position:
            for seat in range(3):
                assert np.array_equal(enc.to_float(enc.encode_state(state, seat)),
                                      enc.encode(state.view(seat), seat))
        if state.is_chance_node:
            chance_nodes += state.has_position
            if state.has_position:
                assert not any(scalars(enc, enc.encode_state(state, 0), "to_move"))
            outcomes = [outcome for outcome, _ in state.chance_outcomes()]
            state.apply_chance(rng.choice(outcomes))
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert chance_nodes >= 15
