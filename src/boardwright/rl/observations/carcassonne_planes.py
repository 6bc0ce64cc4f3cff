"""The reference writer of Carcassonne's observation: a `Position` written into board planes
and integer scalars for one seat (seats relative to it), as the layout says. The compiled
writer gives the same bytes (the tests compare them); this one writes any position, on either
engine, and is what the compiled one is tested against."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardwright.games.carcassonne.tiles import FIELD
from boardwright.rl.observations.carcassonne_layout import (
    ABBEY_PHASES, INT16_MAX, PHASES, SEGMENTS, unpack,
)
from boardwright.rl.observations.carcassonne_position import Position

if TYPE_CHECKING:
    from boardwright.rl.observations.carcassonne import CarcassonneEncoder


def write_planes(enc: CarcassonneEncoder, p: Position, viewer: int, board: np.ndarray,
                 scalars: np.ndarray) -> None:
    """Write `viewer`'s observation of position `p` into zeroed `board` planes and `scalars`."""
    if not board.flags.c_contiguous:  # (a strided row of a batch: written through a copy)
        whole = np.zeros(board.shape, dtype=np.uint8)
        write_planes(enc, p, viewer, whole, scalars)
        board[...] = whole
        return
    n, R, W = enc.n, enc.radius, enc.width
    WW = W * W
    flat = board.reshape(-1)
    blocks = enc.board_blocks
    tiles = p.tiles
    xs, ys = tiles[:, 0] + R, tiles[:, 1] + R
    inside = (xs >= 0) & (xs < W) & (ys >= 0) & (ys < W)
    outside = int(tiles.shape[0] - np.count_nonzero(inside))
    if outside:
        tiles, xs, ys = tiles[inside], xs[inside], ys[inside]
    variants, bases = tiles[:, 2], tiles[:, 3]
    cell = (xs * W + ys)[:, None]
    # tile, rotation, edge, monastery, abbey, pennant: the static planes set on each tile
    planes = enc.tables.static_planes[variants]
    flat[(planes * WW + cell)[planes >= 0]] = 1
    # by segment: the part on each segment of each tile, its root
    local = enc.tables.segment_part[variants]
    valid = local >= 0
    parts = np.where(valid, bases[:, None] + local, 0)
    roots = p.roots[parts]
    segment_cell = enc.tables.segment_offsets + cell  # (tile, segment) -> g * WW + cell
    complete = valid & (enc.tables.segment_kind[variants] != FIELD) & (p.open[roots] == 0)
    flat[blocks["complete"][0] * WW + segment_cell[complete]] = 1
    if p.occupants:
        _write_figures(enc, p, viewer, flat, segment_cell, parts, roots, valid)
    if "barn" in blocks:
        for point, seat in p.barns:
            bx, by = unpack(point)
            cx, cy = bx + 1 + R, by + 1 + R  # the point is the NW corner of (x + 1, y + 1)
            if 0 <= cx < W and 0 <= cy < W:
                board[blocks["barn"][0] + (seat - viewer) % n, cx, cy] = 1
    if "wagon_left" in blocks and p.wagon_queue:
        _write_wagons(enc, p, viewer, board)
    if p.last_pos is not None:
        lx, ly = unpack(p.last_pos)
        if 0 <= lx + R < W and 0 <= ly + R < W:
            board[blocks["last"][0], lx + R, ly + R] = 1
    phase = PHASES[p.phase]
    if phase == "place_tile" or (phase in ABBEY_PHASES and "hole" in blocks):
        fx, fy = unpack(p.frontier[:, 0])
        fx, fy = fx + R, fy + R
        keep = (fx >= 0) & (fx < W) & (fy >= 0) & (fy < W)
        fx, fy, patterns = fx[keep], fy[keep], p.frontier[keep, 1]
        if phase == "place_tile":
            start = blocks["place"][0]
            board[start:start + 4, fx, fy] = enc.tables.fits[p.tile][patterns].T
        else:
            board[blocks["hole"][0], fx, fy] = enc.tables.is_hole[patterns]
    _write_scalars(enc, p, viewer, outside, scalars)


def _write_figures(enc: CarcassonneEncoder, p: Position, viewer: int, flat: np.ndarray,
                   segment_cell: np.ndarray, parts: np.ndarray, roots: np.ndarray,
                   valid: np.ndarray) -> None:
    """figure, figure_kind and holders (`flat`: the board as one vector)."""
    n, blocks, WW = enc.n, enc.board_blocks, enc.width * enc.width
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
        kind_of[occupied_parts] = enc.tables.kind_of_figure[occupied[:, 2]]
        kinds = kind_of[parts[on]]
        flat[(blocks["figure_kind"][0] + SEGMENTS * kinds) * WW + segment_cell[on]] = 1
    # holders: figures per feature root and relative seat, read back on every segment
    key = p.roots[occupied_parts] * n + rel
    holders = np.bincount(key, minlength=size * n).reshape(size, n)
    i, g = np.nonzero(valid & holders.any(axis=1)[roots])
    counts = holders[roots[i, g]]
    j, k = np.nonzero(counts)
    flat[(blocks["holders"][0] + SEGMENTS * k) * WW + segment_cell[i[j], g[j]]] = counts[j, k]


def _write_wagons(enc: CarcassonneEncoder, p: Position, viewer: int, board: np.ndarray) -> None:
    """Each waiting wagon: the segments of the parts of its tile in the feature it left."""
    R, W = enc.radius, enc.width
    start = enc.board_blocks["wagon_left"][0]
    where = {(int(x), int(y)): (int(v), int(base)) for x, y, v, base in p.tiles}
    for seat, pos, root in p.wagon_queue:
        x, y = unpack(pos)
        if not (0 <= x + R < W and 0 <= y + R < W):
            continue
        v, base = where[(x, y)]
        plane = start + SEGMENTS * ((seat - viewer) % enc.n)
        for local, segments in enumerate(enc.tables.part_segments[v]):
            if p.roots[base + local] == root:
                for g in segments:
                    board[plane + g, x + R, y + R] += 1


def _write_scalars(enc: CarcassonneEncoder, p: Position, viewer: int, outside: int,
                   out: np.ndarray) -> None:
    """The scalars (`outside`: the tiles beyond the window)."""
    n, blocks = enc.n, enc.scalar_blocks
    order = [(viewer + k) % n for k in range(n)]  # relative seat k -> seat
    start = blocks["scores"][0]
    out[start:start + n] = [min(p.scores[s], INT16_MAX) for s in order]
    start, count = blocks["supply"]
    out[start:start + count] = [c for s in order for c in p.supply[s]]
    start = blocks["tile"][0]
    out[start + (p.tile if p.tile >= 0 else len(enc.tiles))] = 1
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
    out[start:start + count] = enc.options_values
