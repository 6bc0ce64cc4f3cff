"""The layout of Carcassonne's lossless observation (docs/research/carcassonne-observation.md):
its constants, the blocks of board planes and of scalars of a configured game in their order,
the segments a feature part covers, and the static tables per tile variant the writer reads.
The compiled writer is handed the same layout (`carcassonne_native.native_layout`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from boardwright.games.carcassonne.actions import HALF_STRIDE, STRIDE
from boardwright.games.carcassonne.capabilities.abbey import IS_HOLE
from boardwright.games.carcassonne.learning_space import DEFAULT_RADIUS
from boardwright.games.carcassonne.segments import (  # noqa: F401 (re-exported)
    IN1, IN2, MONASTERY_SEGMENT, SEGMENTS, covered_segments,
)

#: Cells each way from the start tile: the learning action space's window.
WINDOW = DEFAULT_RADIUS
#: Phases in the order of the `phase` scalars (the native engine's numbering).
PHASES = ("place_tile", "deploy", "game_over", "choose_tile", "final_abbey_round", "wagon_move")
ABBEY_PHASES = ("choose_tile", "final_abbey_round")
#: Scale of each scalar block in the float view.
SCALES = {"scores": 0.01, "supply": 0.1, "tile": 1.0, "remaining": 0.1, "pile": 0.01,
          "phase": 1.0, "turn_player": 1.0, "to_move": 1.0, "final_round": 1.0, "outside": 1.0,
          "options": 1.0}
#: The options scalars, in order (values: see `options_values`).
OPTIONS = ("players", "farmers", "abbeys", "mayors", "wagons", "barns", "wagon_adjacency",
           "wagon_traverse", "abbey_end_of_game", "small_city_scoring", "mayor_lies_flat")
WAGON_ADJACENCY = ("nearby", "connected")
ABBEY_END = ("mandatory_round", "none", "voluntary_round")
SMALL_CITY = ("standard", "first_edition")
INT16_MAX = int(np.iinfo(np.int16).max)


def board_layout(config: Any, n: int, tile_types: int, figure_kinds: int) -> list[tuple[str, int]]:
    """The board's blocks of planes, (name, count) in order, of a game with these options,
    players, tile types and kinds of figure."""
    board: list[tuple[str, int]] = [
        ("tile", tile_types), ("rotation", 4), ("edge", 12), ("monastery", 1), ("abbey", 1),
        ("pennant", 1), ("figure", SEGMENTS * n)]
    if figure_kinds > 1:
        board.append(("figure_kind", SEGMENTS * figure_kinds))
    if config.barns:
        board.append(("barn", n))
    board += [("complete", SEGMENTS), ("holders", SEGMENTS * n)]
    if config.wagons:
        board.append(("wagon_left", SEGMENTS * n))
    board += [("last", 1), ("place", 4)]
    if config.abbeys:
        board.append(("hole", 1))
    return board


def scalar_layout(n: int, tile_types: int, pieces: int) -> list[tuple[str, int]]:
    """The scalars' blocks, (name, count) in order, of a game with these players, tile types
    and pieces per seat."""
    return [("scores", n), ("supply", n * pieces), ("tile", tile_types + 1),
            ("remaining", tile_types), ("pile", 1), ("phase", len(PHASES)), ("turn_player", n),
            ("to_move", n), ("final_round", n + 1), ("outside", 1), ("options", len(OPTIONS))]


def options_values(config: Any, n: int) -> tuple[int, ...]:
    """The `options` scalars of a game with these options and players."""
    return (n, int(config.farmers), config.abbeys, config.mayors, config.wagons, config.barns,
            WAGON_ADJACENCY.index(config.wagon_adjacency), int(config.wagon_traverse),
            ABBEY_END.index(config.abbey_end_of_game),
            SMALL_CITY.index(config.small_city_scoring), int(config.mayor_lies_flat))


def block_offsets(blocks: list[tuple[str, int]]) -> dict[str, tuple[int, int]]:
    """name -> (first, count) of blocks laid one after the other."""
    out, at = {}, 0
    for name, count in blocks:
        out[name] = (at, count)
        at += count
    return out


def unpack(pos: Any) -> tuple[Any, Any]:
    """`actions.unpack`, on ints or numpy arrays."""
    x, y = divmod(pos + HALF_STRIDE, STRIDE)
    return x, y - HALF_STRIDE


@dataclass(frozen=True)
class StaticTables:
    """What the writer looks up per tile variant (tile index * 4 + quarter turns) and per
    figure of one configured game."""

    static_planes: np.ndarray  # (V, k): the static planes set on each variant, padded with -1
    segment_part: np.ndarray  # (V, SEGMENTS): the local part on each segment, -1: none
    segment_kind: np.ndarray  # (V, SEGMENTS): the kind of that part
    part_segments: list[list[tuple[int, ...]]]  # per variant, per local part: its segments
    fits: np.ndarray  # (tile types, 256, 4): the quarters a type fits in, by frontier pattern
    is_hole: np.ndarray  # (256,): whether a frontier pattern is an abbey's hole
    segment_offsets: np.ndarray  # (1, SEGMENTS): each segment's offset in a block of planes
    kind_of_figure: np.ndarray  # per figure of `game.figures`: its `figure_kind`, -1: none
    supply_piece: list[int]  # per piece of the supply: its index in `game.figures`, -1: abbey


def static_tables(game: Any, tiles: list[str], board_blocks: dict[str, tuple[int, int]],
                  width: int, figure_kinds: tuple[str, ...],
                  supply_order: tuple[str, ...]) -> StaticTables:
    """Per variant (tile index * 4 + quarter): the static planes, the local part on each
    segment, and the kind of that part; per tile type the placements by frontier pattern."""
    types = [game.tile_types[name] for name in tiles]
    V = 4 * len(types)
    first = board_blocks["tile"][0]
    static_count = board_blocks["pennant"][0] + 1 - first
    static = np.zeros((V, static_count), dtype=np.uint8)
    segment_part = np.full((V, SEGMENTS), -1, dtype=np.int64)
    segment_kind = np.full((V, SEGMENTS), -1, dtype=np.int64)
    part_segments: list[list[tuple[int, ...]]] = []
    fits = np.zeros((len(types), 256, 4), dtype=np.uint8)
    rotation, edge = board_blocks["rotation"][0], board_blocks["edge"][0]
    monastery, abbey = board_blocks["monastery"][0], board_blocks["abbey"][0]
    pennant = board_blocks["pennant"][0]
    for t, tile_type in enumerate(types):
        for pattern, quarters in enumerate(tile_type.fits):
            for q in quarters:
                fits[t, pattern, q] = 1
        for q, variant in enumerate(tile_type.variants):
            v = 4 * t + q
            row = static[v]
            row[t] = 1
            row[rotation + q] = 1
            for side, side_type in enumerate(variant.side_types):
                if side_type:
                    row[edge + 3 * side + side_type - 1] = 1
            row[monastery] = variant.monastery >= 0 and not variant.abbey
            row[abbey] = variant.abbey
            row[pennant] = any(f.pennants for f in variant.features)
            segments = []
            for local, feature in enumerate(variant.features):
                covered = covered_segments(variant, local)
                segments.append(covered)
                for g in covered:
                    if segment_part[v, g] >= 0:
                        raise AssertionError(f"tile {variant.tile}: parts share segment {g}")
                    segment_part[v, g] = local
                    segment_kind[v, g] = feature.kind
            part_segments.append(segments)
    # The static planes set on each variant (padded with -1), and each segment's plane offset.
    nonzero = [np.flatnonzero(row) + first for row in static]
    static_planes = np.full((V, max(len(z) for z in nonzero)), -1, dtype=np.int64)
    for v, z in enumerate(nonzero):
        static_planes[v, :len(z)] = z
    figures = tuple(game.figures)
    return StaticTables(
        static_planes=static_planes, segment_part=segment_part, segment_kind=segment_kind,
        part_segments=part_segments, fits=fits, is_hole=np.array(IS_HOLE, dtype=np.uint8),
        segment_offsets=np.arange(SEGMENTS, dtype=np.int64)[None, :] * width ** 2,
        kind_of_figure=np.array(
            [figure_kinds.index(f) if f in figure_kinds else -1 for f in figures],
            dtype=np.int64),
        supply_piece=[figures.index(p) if p in figures else -1 for p in supply_order])
