"""A Carcassonne position read for the observation: `Position`, the data the writer needs, the
same for both engines, read from the Python engine's feature graph or the native engine's raw
data (or from a state with explicit chance nodes, through its position)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from boardwright.core.chance import CHANCE, ExplicitChanceState
from boardwright.games.carcassonne.state import CarcassonneState
from boardwright.rl.observations.carcassonne_layout import PHASES, unpack

if TYPE_CHECKING:
    from boardwright.rl.observations.carcassonne import CarcassonneEncoder


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


def read_position(encoder: CarcassonneEncoder, state: Any) -> Position:
    """The data of `state` the observation is written from (either engine, or a state with
    explicit chance nodes: its position, nobody to move at a chance node, as in its view)."""
    if isinstance(state, ExplicitChanceState):
        position = read_position(encoder, state.inner)
        if state.current_player == CHANCE:
            position.to_move = -1
        return position
    if isinstance(state, CarcassonneState):
        return from_python(encoder, state)
    return from_native(encoder, state)


def from_python(encoder: CarcassonneEncoder, state: CarcassonneState) -> Position:
    """The data of a Python-engine state."""
    graph = state.graph
    index = encoder.tile_index
    tiles = np.array([(*unpack(pos), 4 * index[v.tile] + v.rotation // 90, base)
                      for pos, (v, base) in graph.board.items()], dtype=np.int64)
    figures = encoder.game.figures
    occupants = [(part, seat, figures.index(figure))
                 for part, (seat, figure) in state.occupant.items()]
    frontier = np.array(list(graph.frontier.items()), dtype=np.int64).reshape(-1, 2)
    pile = np.zeros(len(encoder.tiles), dtype=np.int64)
    for name in state.pile:
        pile[index[name]] += 1
    supply = [[s.get(name, 0) for name in encoder.supply_order] for s in state.supply]
    return Position(
        tiles=tiles, roots=roots_of(graph.parent), open=np.array(graph.open, dtype=np.int64),
        occupants=occupants, barns=list(state.barn_owner.items()),
        wagon_queue=list(state.wagon_queue), frontier=frontier,
        phase=PHASES.index(state.phase),
        tile=-1 if state.tile is None else index[state.tile], turn_player=state.turn_player,
        to_move=state.current_player, last_pos=state.last_pos, scores=list(state._scores),
        supply=supply, pile=pile,
        final_round=None if state.final_round is None else list(state.final_round))


def from_native(encoder: CarcassonneEncoder, state: Any) -> Position:
    """The data of a native-engine state, read from its raw arrays."""
    raw = np.array(state._tiles, dtype=np.int64).reshape(-1, 4)
    x, y = unpack(raw[:, 0])
    tiles = np.stack([x, y, 4 * raw[:, 1] + raw[:, 2], raw[:, 3]], axis=1)
    roots = np.array(state._roots(), dtype=np.int64)
    open_ = np.zeros(roots.size, dtype=np.int64)
    for root, data in state._features().items():
        open_[root] = data[0]
    figures = len(encoder.game.figures)
    flat = state._supply
    abbeys = state._abbeys_left
    supply = [[abbeys[seat] if piece < 0 else flat[seat * figures + piece]
               for piece in encoder.tables.supply_piece] for seat in range(encoder.n)]
    pile = np.bincount(np.array(state._pile, dtype=np.int64), minlength=len(encoder.tiles))
    return Position(
        tiles=tiles, roots=roots, open=open_, occupants=list(state._occupant),
        barns=[(point, seat) for point, seat, _ in state._barns],
        wagon_queue=[tuple(entry) for entry in state._wagon_queue],  # type: ignore[misc]
        frontier=np.array(state._frontier, dtype=np.int64).reshape(-1, 2),
        phase=state._phase, tile=state._tile, turn_player=state.turn_player,
        to_move=state.current_player, last_pos=state._last_pos, scores=list(state.scores),
        supply=supply, pile=pile, final_round=state._final_round)


def roots_of(parent: list[int]) -> np.ndarray:
    """The root of every part of a union-find parent list, without compressing its paths (the
    state is read, not changed)."""
    roots = np.array(parent, dtype=np.int64)
    while True:
        up = roots[roots]
        if np.array_equal(up, roots):
            return roots
        roots = up
