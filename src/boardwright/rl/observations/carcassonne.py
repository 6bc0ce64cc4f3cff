"""Carcassonne's lossless observation: board planes by segment and integer scalars.

The layout is documented in docs/research/carcassonne-observation.md, and this module is its
reference writer (the compiled engine's writer reads `board_blocks`, `scalar_blocks`,
`supply_order`, `figure_kinds` and `options_values` from here and must give the same bytes).
In short, for one seat:

* `board`, uint8 (C, 31, 31): plane [c, x + 15, y + 15] describes the tile at (x, y) (the
  window of the learning action space): tile type, rotation, edges, monastery, abbey, pennant,
  then by *segment* (the 15 places of a tile a feature part covers: sides, half sides, enclosed
  fields, monastery) the figures of each relative seat and their kinds, barns, complete
  features, the figures of each seat in the whole feature, waiting wagons; the tile placed last,
  the legal placements of the tile to place and the legal abbey holes.
* `scalars`, int16 (S,): scores, supplies, the tile to place, the tiles left by type, the pile
  size, phase, turn player, seat to move, the final abbey round, tiles outside the window and
  the options.

Two positions whose futures can differ give different observations as long as every tile lies
in the window (the order of the draw pile is the only thing hidden, and it is left out);
`CarcassonneState.public_signature` is the key of "what can change the future" the tests
compare the observation with. The float view (`to_float`, `encode`) is the board as it is and
each scalar times `scales`; `tensor` lays it out as (C + 1, 31, 31) planes.

The observation is built from the state (`encode_state`, `encode_into`), on either engine: the
Python engine's feature graph, or the native engine's raw data, read the same way. `encode(view,
seat)` rebuilds the position from a seat's JSON view first (slower; exact except in one case the
view cannot settle, see `_wagon_roots`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardwright.core.chance import CHANCE, ExplicitChanceState
from boardwright.core.errors import IllegalActionError
from boardwright.games.carcassonne.actions import HALF_STRIDE, STRIDE, pack
from boardwright.games.carcassonne.capabilities.abbey import IS_HOLE
from boardwright.games.carcassonne.capabilities.barn import barn_field_part
from boardwright.games.carcassonne.features import FeatureGraph, SURROUNDING
from boardwright.games.carcassonne.learning_space import DEFAULT_RADIUS, CarcassonneLegalIds
from boardwright.games.carcassonne.state import CarcassonneState
from boardwright.games.carcassonne.tiles import CITY, FIELD, MONASTERY, ROAD, TileVariant
from boardwright.rl.observations import Encoder

#: Cells each way from the start tile: the learning action space's window.
WINDOW = DEFAULT_RADIUS
#: Segments of a tile: N E S W, NL NR EL ER SL SR WL WR, IN1 IN2, MONASTERY.
SEGMENTS = 15
IN1, IN2, MONASTERY_SEGMENT = 12, 13, 14
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


def covered_segments(variant: TileVariant, local: int) -> tuple[int, ...]:
    """The segments a feature part of a placed tile covers (the document's "Segments")."""
    feature = variant.features[local]
    if feature.kind == CITY:
        return tuple(sorted(g for s in feature.sides for g in (s, 4 + 2 * s, 5 + 2 * s)))
    if feature.kind == ROAD:
        return tuple(feature.sides)
    if feature.kind == FIELD:
        inner = tuple(IN1 if name == "IN1" else IN2 for name in feature.internal)
        return tuple(4 + h for h in feature.halves) + inner
    return (MONASTERY_SEGMENT,)


@dataclass
class Position:
    """The data of a position the observation is written from, the same for both engines.

    `tiles` rows are (x, y, variant, first part id) in placement order, variant = tile index *
    4 + quarter turns; `roots` and `open` are per part id (`open` is read at roots); figures are
    indexes into `game.figures`; pieces per seat in `supply_order`."""

    tiles: np.ndarray
    roots: np.ndarray
    open: np.ndarray
    occupants: list[tuple[int, int, int]]  # (part, seat, figure)
    barns: list[tuple[int, int]]  # (point, seat)
    wagon_queue: list[tuple[int, int, int]]  # (seat, pos, scored root)
    frontier: np.ndarray  # (M, 2): pos, side-type pattern
    phase: int
    tile: int  # -1: none
    turn_player: int
    to_move: int  # -1: nobody (the game is over)
    last_pos: int | None
    scores: list[int]
    supply: list[list[int]]
    pile: np.ndarray  # tiles left per type
    final_round: list[int] | None


class CarcassonneEncoder(Encoder):
    """The observation of one configured Carcassonne game (see the module docstring)."""

    game_name = "carcassonne"

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        config = game.config
        n = self.n
        self.radius = WINDOW
        self.width = W = 2 * WINDOW + 1
        self.tiles = list(game._tile_names)
        self.tile_index = dict(game._tile_index)
        T = len(self.tiles)
        #: Kinds of figure standing on features (`figure_kind` groups), then the pieces per seat.
        self.figure_kinds: tuple[str, ...] = tuple(rule.name for rule in game.figure_rules)
        self.supply_order: tuple[str, ...] = tuple(game.figures) + (
            ("abbey",) if config.abbeys else ())
        K, P = len(self.figure_kinds), len(self.supply_order)
        board: list[tuple[str, int]] = [
            ("tile", T), ("rotation", 4), ("edge", 12), ("monastery", 1), ("abbey", 1),
            ("pennant", 1), ("figure", SEGMENTS * n)]
        if K > 1:
            board.append(("figure_kind", SEGMENTS * K))
        if config.barns:
            board.append(("barn", n))
        board += [("complete", SEGMENTS), ("holders", SEGMENTS * n)]
        if config.wagons:
            board.append(("wagon_left", SEGMENTS * n))
        board += [("last", 1), ("place", 4)]
        if config.abbeys:
            board.append(("hole", 1))
        self.board_blocks = _offsets(board)
        self.planes = C = sum(count for _, count in board)
        scalars = [("scores", n), ("supply", n * P), ("tile", T + 1), ("remaining", T),
                   ("pile", 1), ("phase", len(PHASES)), ("turn_player", n), ("to_move", n),
                   ("final_round", n + 1), ("outside", 1), ("options", len(OPTIONS))]
        self.scalar_blocks = _offsets(scalars)
        self.num_scalars = S = sum(count for _, count in scalars)
        if S > W * W:
            raise AssertionError("the scalars no longer fit in one plane of the tensor")
        self._scales = np.concatenate(
            [np.full(count, SCALES[name], dtype=np.float32) for name, count in scalars])
        #: The `options` scalars of this game.
        self.options_values: tuple[int, ...] = (
            n, int(config.farmers), config.abbeys, config.mayors, config.wagons, config.barns,
            WAGON_ADJACENCY.index(config.wagon_adjacency), int(config.wagon_traverse),
            ABBEY_END.index(config.abbey_end_of_game),
            SMALL_CITY.index(config.small_city_scoring), int(config.mayor_lies_flat))
        # The float view's layout: the board whole, then the scalar blocks.
        self._block("board", C, W, W)
        shapes = {"supply": (n, P)}
        for name, count in scalars:
            self._block(name, *shapes.get(name, (count,)))
        self._tables(game)

    # -- static tables ---------------------------------------------------------------------------

    def _tables(self, game: Any) -> None:
        """Per variant (tile index * 4 + quarter): the static planes, the local part on each
        segment, and the kind of that part; per tile type the placements by frontier pattern."""
        types = [game.tile_types[name] for name in self.tiles]
        V = 4 * len(types)
        first = self.board_blocks["tile"][0]
        static_count = self.board_blocks["pennant"][0] + 1 - first
        self._static = np.zeros((V, static_count), dtype=np.uint8)
        self._segment_part = np.full((V, SEGMENTS), -1, dtype=np.int64)
        self._segment_kind = np.full((V, SEGMENTS), -1, dtype=np.int64)
        self._part_segments: list[list[tuple[int, ...]]] = []
        self._fits = np.zeros((len(types), 256, 4), dtype=np.uint8)
        rotation, edge = self.board_blocks["rotation"][0], self.board_blocks["edge"][0]
        monastery, abbey = self.board_blocks["monastery"][0], self.board_blocks["abbey"][0]
        pennant = self.board_blocks["pennant"][0]
        for t, tile_type in enumerate(types):
            for pattern, quarters in enumerate(tile_type.fits):
                for q in quarters:
                    self._fits[t, pattern, q] = 1
            for q, variant in enumerate(tile_type.variants):
                v = 4 * t + q
                row = self._static[v]
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
                        if self._segment_part[v, g] >= 0:
                            raise AssertionError(f"tile {variant.tile}: parts share segment {g}")
                        self._segment_part[v, g] = local
                        self._segment_kind[v, g] = feature.kind
                self._part_segments.append(segments)
        self._is_hole = np.array(IS_HOLE, dtype=np.uint8)
        # The static planes set on each variant (padded with -1), and each segment's plane offset.
        nonzero = [np.flatnonzero(row) + first for row in self._static]
        self._static_planes = np.full((V, max(len(z) for z in nonzero)), -1, dtype=np.int64)
        for v, z in enumerate(nonzero):
            self._static_planes[v, :len(z)] = z
        self._segment_offsets = np.arange(SEGMENTS, dtype=np.int64)[None, :] * self.width ** 2
        figures = tuple(game.figures)
        self._kind_of_figure = np.array(
            [self.figure_kinds.index(f) if f in self.figure_kinds else -1 for f in figures],
            dtype=np.int64)
        self._supply_piece = [figures.index(p) if p in figures else -1 for p in self.supply_order]

    # -- the observation's arrays ----------------------------------------------------------------

    def spaces(self) -> dict[str, tuple[tuple[int, ...], Any, float, float]]:
        return {"board": ((self.planes, self.width, self.width), np.uint8, 0, 255),
                "scalars": ((self.num_scalars,), np.int16, 0, INT16_MAX)}

    @property
    def scales(self) -> np.ndarray:
        return self._scales

    def empty(self) -> dict[str, np.ndarray]:
        return {"board": np.zeros((self.planes, self.width, self.width), dtype=np.uint8),
                "scalars": np.zeros(self.num_scalars, dtype=np.int16)}

    def encode_state(self, state: Any, seat: int) -> dict[str, np.ndarray]:
        out = self.empty()
        self.encode_into(state, seat, out)
        return out

    def encode_into(self, state: Any, seat: int, out: dict[str, np.ndarray]) -> None:
        """A native position is written by the compiled writer (the same bytes: the tests
        compare the two writers), any other by this module's."""
        seat = self._viewer(seat)
        board, scalars = out["board"], out["scalars"]
        if (self._compiled(state) and board.dtype == np.uint8 and scalars.dtype == np.int16
                and board.flags.c_contiguous and scalars.flags.c_contiguous):
            _native().observe(self, self.game.learning_action_space(), state, seat, out)
            return
        board[...] = 0
        scalars[...] = 0
        self._write(self.position(state), seat, board, scalars)

    def encode_reference(self, state: Any, seat: int) -> dict[str, np.ndarray]:
        """`encode_state` by this module's writer whatever the engine: the reference the
        compiled writer is tested against."""
        out = self.empty()
        self._write(self.position(state), self._viewer(seat), out["board"], out["scalars"])
        return out

    def observe(self, state: Any, seat: int, space: Any,
                track: bool = False) -> tuple[dict[str, np.ndarray], Any]:
        """The observation of `seat` and the legal actions of the position (`space.legal`),
        from one call of the compiled writer on a native position (`track`: see
        `carcassonne_native.observe`)."""
        seat = self._viewer(seat)
        if self._compiled(state) and space is self.game.learning_action_space():
            out = {"board": np.empty((self.planes, self.width, self.width), dtype=np.uint8),
                   "scalars": np.empty(self.num_scalars, dtype=np.int16)}
            lids, sids = _native().observe(self, space, state, seat, out, track)
            return out, CarcassonneLegalIds(space, lids, sids)
        out = self.empty()
        self.encode_into(state, seat, out)
        return out, space.legal(state)

    def _compiled(self, state: Any) -> bool:
        """Whether the compiled writer takes this state: a native position of this game (or
        of a game made with the same native data)."""
        game = getattr(state, "game", None)
        if game is self.game:
            return game.engine == "native" and hasattr(state, "_observe")
        return (game is not None and self.game.engine == "native"
                and hasattr(state, "_observe") and _native().writes(self, state))

    def to_float(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        out = np.empty(self.size, dtype=np.float32)
        cells = self.planes * self.width * self.width
        out[:cells] = obs["board"].reshape(-1)
        np.multiply(obs["scalars"], self._scales, out=out[cells:], dtype=np.float32)
        return out

    def tensor(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        """The float view as (C + 1, W, W): the board planes, then the scaled scalars in the
        first cells of one more plane (row-major), the rest zero."""
        W = self.width
        out = np.zeros((self.planes + 1, W, W), dtype=np.float32)
        out[:self.planes] = obs["board"]
        last = out[self.planes].reshape(-1)
        np.multiply(obs["scalars"], self._scales, out=last[:self.num_scalars], dtype=np.float32)
        return out

    def encode(self, view: dict[str, Any], viewer: int) -> np.ndarray:
        """The float view of a seat's observation, from its JSON view (the position is rebuilt
        from the view first: prefer `encode_state` when the state is at hand)."""
        state = state_from_view(self.game, view)
        return self.to_float(self.encode_state(state, viewer))

    def _viewer(self, seat: Any) -> int:
        if type(seat) is not int or not 0 <= seat < self.n:
            raise IllegalActionError(f"no seat {seat!r} in this game (0..{self.n - 1})")
        return seat

    # -- reading a position ----------------------------------------------------------------------

    def position(self, state: Any) -> Position:
        """The data of `state` the observation is written from (either engine, or a state with
        explicit chance nodes: its position, nobody to move at a chance node, as in its view)."""
        if isinstance(state, ExplicitChanceState):
            position = self.position(state.inner)
            if state.current_player == CHANCE:
                position.to_move = -1
            return position
        if isinstance(state, CarcassonneState):
            return self._from_python(state)
        return self._from_native(state)

    def _from_python(self, state: CarcassonneState) -> Position:
        graph = state.graph
        index = self.tile_index
        tiles = np.array([(*_unpack(pos), 4 * index[v.tile] + v.rotation // 90, base)
                          for pos, (v, base) in graph.board.items()], dtype=np.int64)
        figures = self.game.figures
        occupants = [(part, seat, figures.index(figure))
                     for part, (seat, figure) in state.occupant.items()]
        frontier = np.array(list(graph.frontier.items()), dtype=np.int64).reshape(-1, 2)
        pile = np.zeros(len(self.tiles), dtype=np.int64)
        for name in state.pile:
            pile[index[name]] += 1
        supply = [[s.get(name, 0) for name in self.supply_order] for s in state.supply]
        return Position(
            tiles=tiles, roots=_roots(graph.parent), open=np.array(graph.open, dtype=np.int64),
            occupants=occupants, barns=list(state.barn_owner.items()),
            wagon_queue=list(state.wagon_queue), frontier=frontier,
            phase=PHASES.index(state.phase),
            tile=-1 if state.tile is None else index[state.tile], turn_player=state.turn_player,
            to_move=state.current_player, last_pos=state.last_pos, scores=list(state._scores),
            supply=supply, pile=pile,
            final_round=None if state.final_round is None else list(state.final_round))

    def _from_native(self, state: Any) -> Position:
        raw = np.array(state._tiles, dtype=np.int64).reshape(-1, 4)
        x, y = _unpack(raw[:, 0])
        tiles = np.stack([x, y, 4 * raw[:, 1] + raw[:, 2], raw[:, 3]], axis=1)
        roots = np.array(state._roots(), dtype=np.int64)
        open_ = np.zeros(roots.size, dtype=np.int64)
        for root, data in state._features().items():
            open_[root] = data[0]
        figures = len(self.game.figures)
        flat = state._supply
        abbeys = state._abbeys_left
        supply = [[abbeys[seat] if piece < 0 else flat[seat * figures + piece]
                   for piece in self._supply_piece] for seat in range(self.n)]
        pile = np.bincount(np.array(state._pile, dtype=np.int64), minlength=len(self.tiles))
        return Position(
            tiles=tiles, roots=roots, open=open_, occupants=list(state._occupant),
            barns=[(point, seat) for point, seat, _ in state._barns],
            wagon_queue=[tuple(entry) for entry in state._wagon_queue],  # type: ignore[misc]
            frontier=np.array(state._frontier, dtype=np.int64).reshape(-1, 2),
            phase=state._phase, tile=state._tile, turn_player=state.turn_player,
            to_move=state.current_player, last_pos=state._last_pos, scores=list(state.scores),
            supply=supply, pile=pile, final_round=state._final_round)

    # -- writing ---------------------------------------------------------------------------------

    def _write(self, p: Position, viewer: int, board: np.ndarray, scalars: np.ndarray) -> None:
        if not board.flags.c_contiguous:  # (a strided row of a batch: written through a copy)
            whole = np.zeros(board.shape, dtype=np.uint8)
            self._write(p, viewer, whole, scalars)
            board[...] = whole
            return
        n, R, W = self.n, self.radius, self.width
        WW = W * W
        flat = board.reshape(-1)
        blocks = self.board_blocks
        tiles = p.tiles
        xs, ys = tiles[:, 0] + R, tiles[:, 1] + R
        inside = (xs >= 0) & (xs < W) & (ys >= 0) & (ys < W)
        outside = int(tiles.shape[0] - np.count_nonzero(inside))
        if outside:
            tiles, xs, ys = tiles[inside], xs[inside], ys[inside]
        variants, bases = tiles[:, 2], tiles[:, 3]
        cell = (xs * W + ys)[:, None]
        # tile, rotation, edge, monastery, abbey, pennant: the static planes set on each tile
        planes = self._static_planes[variants]
        flat[(planes * WW + cell)[planes >= 0]] = 1
        # by segment: the part on each segment of each tile, its root
        local = self._segment_part[variants]
        valid = local >= 0
        parts = np.where(valid, bases[:, None] + local, 0)
        roots = p.roots[parts]
        segment_cell = self._segment_offsets + cell  # (tile, segment) -> g * WW + cell
        complete = valid & (self._segment_kind[variants] != FIELD) & (p.open[roots] == 0)
        flat[blocks["complete"][0] * WW + segment_cell[complete]] = 1
        if p.occupants:
            self._write_figures(p, viewer, flat, segment_cell, parts, roots, valid)
        if "barn" in blocks:
            for point, seat in p.barns:
                bx, by = _unpack(point)
                cx, cy = bx + 1 + R, by + 1 + R  # the point is the NW corner of (x + 1, y + 1)
                if 0 <= cx < W and 0 <= cy < W:
                    board[blocks["barn"][0] + (seat - viewer) % n, cx, cy] = 1
        if "wagon_left" in blocks and p.wagon_queue:
            self._write_wagons(p, viewer, board)
        if p.last_pos is not None:
            lx, ly = _unpack(p.last_pos)
            if 0 <= lx + R < W and 0 <= ly + R < W:
                board[blocks["last"][0], lx + R, ly + R] = 1
        phase = PHASES[p.phase]
        if phase == "place_tile" or (phase in ABBEY_PHASES and "hole" in blocks):
            fx, fy = _unpack(p.frontier[:, 0])
            fx, fy = fx + R, fy + R
            keep = (fx >= 0) & (fx < W) & (fy >= 0) & (fy < W)
            fx, fy, patterns = fx[keep], fy[keep], p.frontier[keep, 1]
            if phase == "place_tile":
                start = blocks["place"][0]
                board[start:start + 4, fx, fy] = self._fits[p.tile][patterns].T
            else:
                board[blocks["hole"][0], fx, fy] = self._is_hole[patterns]
        self._write_scalars(p, viewer, outside, scalars)

    def _write_figures(self, p: Position, viewer: int, flat: np.ndarray,
                       segment_cell: np.ndarray, parts: np.ndarray, roots: np.ndarray,
                       valid: np.ndarray) -> None:
        """figure, figure_kind and holders (`flat`: the board as one vector)."""
        n, blocks, WW = self.n, self.board_blocks, self.width * self.width
        size = p.roots.size
        occupied = np.array(p.occupants, dtype=np.int64).reshape(-1, 3)
        occupied_parts = occupied[:, 0]
        rel = (occupied[:, 1] - viewer) % n
        seat_of = np.full(size, -1, dtype=np.int64)
        seat_of[occupied_parts] = rel
        seats = np.where(valid, seat_of[parts], -1)
        on = seats >= 0
        flat[(blocks["figure"][0] + SEGMENTS * seats[on]) * WW + segment_cell[on]] = 1
        if "figure_kind" in blocks:
            kind_of = np.zeros(size, dtype=np.int64)
            kind_of[occupied_parts] = self._kind_of_figure[occupied[:, 2]]
            kinds = kind_of[parts[on]]
            flat[(blocks["figure_kind"][0] + SEGMENTS * kinds) * WW + segment_cell[on]] = 1
        # holders: figures per feature root and relative seat, read back on every segment
        key = p.roots[occupied_parts] * n + rel
        holders = np.bincount(key, minlength=size * n).reshape(size, n)
        i, g = np.nonzero(valid & holders.any(axis=1)[roots])
        counts = holders[roots[i, g]]
        j, k = np.nonzero(counts)
        flat[(blocks["holders"][0] + SEGMENTS * k) * WW + segment_cell[i[j], g[j]]] = counts[j, k]

    def _write_wagons(self, p: Position, viewer: int, board: np.ndarray) -> None:
        """Each waiting wagon: the segments of the parts of its tile in the feature it left."""
        R, W = self.radius, self.width
        start = self.board_blocks["wagon_left"][0]
        where = {(int(x), int(y)): (int(v), int(base)) for x, y, v, base in p.tiles}
        for seat, pos, root in p.wagon_queue:
            x, y = _unpack(pos)
            if not (0 <= x + R < W and 0 <= y + R < W):
                continue
            v, base = where[(x, y)]
            plane = start + SEGMENTS * ((seat - viewer) % self.n)
            for local, segments in enumerate(self._part_segments[v]):
                if p.roots[base + local] == root:
                    for g in segments:
                        board[plane + g, x + R, y + R] += 1

    def _write_scalars(self, p: Position, viewer: int, outside: int, out: np.ndarray) -> None:
        n, blocks = self.n, self.scalar_blocks
        order = [(viewer + k) % n for k in range(n)]  # relative seat k -> seat
        start = blocks["scores"][0]
        out[start:start + n] = [min(p.scores[s], INT16_MAX) for s in order]
        start, count = blocks["supply"]
        out[start:start + count] = [c for s in order for c in p.supply[s]]
        start = blocks["tile"][0]
        out[start + (p.tile if p.tile >= 0 else len(self.tiles))] = 1
        start, count = blocks["remaining"]
        out[start:start + count] = p.pile
        out[blocks["pile"][0]] = int(p.pile.sum())
        out[blocks["phase"][0] + p.phase] = 1
        out[blocks["turn_player"][0] + (p.turn_player - viewer) % n] = 1
        if p.to_move >= 0:
            out[blocks["to_move"][0] + (p.to_move - viewer) % n] = 1
        if p.final_round is not None:
            start = blocks["final_round"][0]
            out[start] = 1
            for seat in p.final_round:
                out[start + 1 + (seat - viewer) % n] = 1
        out[blocks["outside"][0]] = outside
        start, count = blocks["options"]
        out[start:start + count] = self.options_values


def _offsets(blocks: list[tuple[str, int]]) -> dict[str, tuple[int, int]]:
    """name -> (first, count) of blocks laid one after the other."""
    out, at = {}, 0
    for name, count in blocks:
        out[name] = (at, count)
        at += count
    return out


def _unpack(pos: Any) -> tuple[Any, Any]:
    """`actions.unpack`, on ints or numpy arrays."""
    x, y = divmod(pos + HALF_STRIDE, STRIDE)
    return x, y - HALF_STRIDE


def _roots(parent: list[int]) -> np.ndarray:
    """The root of every part of a union-find parent list, without compressing its paths (the
    state is read, not changed)."""
    roots = np.array(parent, dtype=np.int64)
    while True:
        up = roots[roots]
        if np.array_equal(up, roots):
            return roots
        roots = up


# -- a position rebuilt from a seat's view ------------------------------------------------------

def state_from_view(game: Any, view: dict[str, Any]) -> CarcassonneState:
    """A Python-engine position with everything of `view` the observation shows: tiles (laid
    outward from the start tile, so features join as in play), figures, barns, scores,
    supplies, the tiles left, the tile to place, phase and seats, the final abbey round and the
    waiting wagons. Part ids, history and the pile's order are not the original's (the
    observation does not show them)."""
    twin = game if game.engine == "python" else game._python_twin()
    state = CarcassonneState.__new__(CarcassonneState)
    pile = [name for name, count in view["remaining_tiles"].items() for _ in range(count)]
    state.setup(twin, 0, pile, twin.config.start_tile)
    graph = state.graph = FeatureGraph()
    types = twin.tile_types
    placed = {(t["x"], t["y"]): t for t in view["board"]}
    for x, y in _in_order(placed, types):
        tile = placed[(x, y)]
        graph.add_tile(pack(x, y), types[tile["tile"]].variants[tile["rotation"] // 90])
    for figure in view["followers"]:
        variant, base = graph.board[pack(figure["x"], figure["y"])]
        part = base + variant.location_index[figure["location"]]
        state.occupant[part] = (figure["player"], figure["figure"])
        graph.place_figure(part)
    for barn in view.get("barns", ()):
        point = pack(barn["corner"]["x"], barn["corner"]["y"])
        root = graph.find(barn_field_part(graph, point))  # type: ignore[arg-type]
        graph.barns[root] = graph.barns[root] + (point,)
        state.barn_owner[point] = barn["player"]
    state._scores = list(view["scores"])
    state.supply = [dict(s) for s in view["supply"]]
    state.tile = view["tile"]
    state.phase = view["phase"]
    state.turn_player = view["turn_player"]
    state.actor = view["current_player"]
    last = view["last_placed"]
    state.last_pos = None if last is None else pack(last["x"], last["y"])
    state.turn = view["turn"]
    final_round = view.get("final_round")
    state.final_round = None if final_round is None else list(final_round)
    state.wagon_queue = _wagon_roots(state, view.get("waiting_wagons", ()))
    return state


def _in_order(placed: dict[tuple[int, int], Any], types: dict[str, Any]) -> list[tuple[int, int]]:
    """An order of play of the cells of `placed`: the landscape tiles breadth first from (0, 0)
    (each touches one before it: no tile is ever laid beside an abbey, whose four neighbours
    were there before it), then the abbeys, each into its hole."""
    order, seen, todo = [], {(0, 0)}, deque([(0, 0)])
    abbeys = []
    while todo:
        x, y = todo.popleft()
        order.append((x, y))
        for cell in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if cell in placed and cell not in seen:
                seen.add(cell)
                (abbeys if types[placed[cell]["tile"]].abbey else todo).append(cell)
    return order + abbeys


def _wagon_roots(state: CarcassonneState, waiting: Any) -> list[tuple[int, int, int]]:
    """The wagon queue, from the view's (seat, tile) of each waiting wagon. The view does not
    say which feature of its tile the wagon left: it is a complete, now empty road, city or
    monastery of that tile that the last tile completed (it has a part on the last tile, or is
    a monastery around it, or faces the abbey laid last). When two features of the tile fit
    (the last tile closed both, and the wagon stood on one of them), the first part's is taken:
    the only case where `encode(view)` may differ from `encode_state` (under `nearby` wagon
    rules the wagon's future does not depend on it)."""
    graph = state.graph
    find = graph.find
    last = state.last_pos
    last_parts: set[int] = set()
    if last is not None:
        variant, base = graph.board[last]
        last_roots = {find(base + local) for local in range(len(variant.features))}
        last_parts = last_roots
        if variant.abbey:
            for delta in (-1, STRIDE, 1, -STRIDE):
                neighbour = graph.board.get(last + delta)
                if neighbour is not None:
                    nvariant, nbase = neighbour
                    last_parts |= {find(nbase + local) for local in range(len(nvariant.features))}
    queue = []
    for wagon in waiting:
        pos = pack(wagon["x"], wagon["y"])
        variant, base = graph.board[pos]
        candidates = []
        for local, feature in enumerate(variant.features):
            root = find(base + local)
            if feature.kind == FIELD or graph.open[root] or graph.figures[root]:
                continue
            near = (feature.kind == MONASTERY and last is not None
                    and (pos == last or pos - last in SURROUNDING))
            candidates.append((not (root in last_parts or near), local, root))
        queue.append((wagon["player"], pos, min(candidates)[2]))
    return queue


_NATIVE: list[Any] = []


def _native() -> Any:
    """The compiled writer's module (imported on first use: it imports this one)."""
    if not _NATIVE:
        from boardwright.rl.observations import carcassonne_native
        _NATIVE.append(carcassonne_native)
    return _NATIVE[0]
