"""Carcassonne's lossless observation: board planes by segment and integer scalars.

The layout is documented in docs/research/carcassonne-observation.md, and this module's
`CarcassonneEncoder` is its reference writer (the compiled engine's writer reads `board_blocks`,
`scalar_blocks`, `supply_order`, `figure_kinds` and `options_values` from it and must give the
same bytes).
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
view cannot settle, see `carcassonne_view`).

The encoder, here, configures the layout for one game and chooses the writer; the parts live in
`carcassonne_layout` (constants, blocks, static tables), `carcassonne_position` (a position read
from either engine), `carcassonne_planes` (the reference writer) and `carcassonne_view` (a
position rebuilt from a view). Their public names are importable from here too.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardwright.core.errors import IllegalActionError
from boardwright.games.carcassonne.learning_space import CarcassonneLegalIds
from boardwright.rl.observations import Encoder
from boardwright.rl.observations.carcassonne_layout import (
    ABBEY_END, ABBEY_PHASES, IN1, IN2, INT16_MAX, MONASTERY_SEGMENT, OPTIONS, PHASES, SCALES,
    SEGMENTS, SMALL_CITY, WAGON_ADJACENCY, WINDOW, StaticTables, block_offsets, board_layout,
    covered_segments, options_values, scalar_layout, static_tables,
)
from boardwright.rl.observations.carcassonne_planes import write_planes
from boardwright.rl.observations.carcassonne_position import Position, read_position
from boardwright.rl.observations.carcassonne_view import state_from_view

__all__ = [
    "ABBEY_END", "ABBEY_PHASES", "IN1", "IN2", "INT16_MAX", "MONASTERY_SEGMENT", "OPTIONS",
    "PHASES", "SCALES", "SEGMENTS", "SMALL_CITY", "WAGON_ADJACENCY", "WINDOW",
    "CarcassonneEncoder", "Position", "StaticTables", "covered_segments", "state_from_view",
]


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
        board = board_layout(config, n, T, K)
        self.board_blocks = block_offsets(board)
        self.planes = C = sum(count for _, count in board)
        scalars = scalar_layout(n, T, P)
        self.scalar_blocks = block_offsets(scalars)
        self.num_scalars = S = sum(count for _, count in scalars)
        if S > W * W:
            raise AssertionError("the scalars no longer fit in one plane of the tensor")
        self._scales = np.concatenate(
            [np.full(count, SCALES[name], dtype=np.float32) for name, count in scalars])
        #: The `options` scalars of this game.
        self.options_values: tuple[int, ...] = options_values(config, n)
        # The float view's layout: the board whole, then the scalar blocks.
        self._block("board", C, W, W)
        shapes = {"supply": (n, P)}
        for name, count in scalars:
            self._block(name, *shapes.get(name, (count,)))
        #: What the reference writer looks up per tile variant and figure.
        self.tables: StaticTables = static_tables(game, self.tiles, self.board_blocks, W,
                                                  self.figure_kinds, self.supply_order)

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
        compare the two writers), any other by the reference writer (`carcassonne_planes`)."""
        seat = self._viewer(seat)
        board, scalars = out["board"], out["scalars"]
        if self._compiled(state) and board.dtype == np.uint8 and scalars.dtype == np.int16:
            space = self.game.learning_action_space()
            if scalars.flags.c_contiguous:
                if board.flags.c_contiguous:
                    _native().observe(self, space, state, seat, out)
                    return
                cells = board.transpose(1, 2, 0)
                if cells.flags.c_contiguous:  # channels last (a row of the vector env's boards)
                    _native().observe(self, space, state, seat,
                                      {"board": cells, "scalars": scalars}, channels_last=True)
                    return
            whole = self.empty()  # (laid out otherwise: written through a copy)
            _native().observe(self, space, state, seat, whole)
            board[...] = whole["board"]
            scalars[...] = whole["scalars"]
            return
        board[...] = 0
        scalars[...] = 0
        write_planes(self, self.position(state), seat, board, scalars)

    def encode_reference(self, state: Any, seat: int) -> dict[str, np.ndarray]:
        """`encode_state` by the reference writer whatever the engine: the reference the
        compiled writer is tested against."""
        out = self.empty()
        write_planes(self, self.position(state), self._viewer(seat), out["board"],
                     out["scalars"])
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

    def position(self, state: Any) -> Position:
        """The data of `state` the observation is written from (either engine, or a state with
        explicit chance nodes: its position, nobody to move at a chance node, as in its view)."""
        return read_position(self, state)


_NATIVE: list[Any] = []


def _native() -> Any:
    """The compiled writer's module (imported on first use: it imports this one)."""
    if not _NATIVE:
        from boardwright.rl.observations import carcassonne_native
        _NATIVE.append(carcassonne_native)
    return _NATIVE[0]
