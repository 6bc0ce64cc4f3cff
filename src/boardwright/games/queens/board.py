"""Hex geometry of a Queens board: axial coordinates, bitboards and precomputed tables.

Spaces are named by axial coordinates `(q, r)` (QUE-BOARD-01). Inside the engine each space is
a *bit position* in a Python int, so that a set of spaces is one int and the neighbours of a
whole set are six shifts (movement explores all paths of a piece at once this way). Rows of
constant r are laid out `width = 2 * radius + 2` bits apart: one spare bit per row and one spare
row above and below keep every shift from wrapping onto a real space, and `full` masks the
spares away. Everything here is static and shared by every state of a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

Coord = tuple[int, int]

# The six axial directions (QUE-BOARD-02), in the order the rules list them.
DIRECTIONS: tuple[Coord, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
MAX_PRINCE_MOVE = 4  # a Prince is at least 1 from its Queen, so it moves at most 5 - 1 steps


def hex_distance(a: Coord, b: Coord) -> int:
    """Fewest steps from a to b (QUE-BOARD-03), ignoring terrain and pieces."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def rotate(coord: Coord, steps: int = 1) -> Coord:
    """Turn a space by `steps` times 60 degrees about (0, 0): rot(q, r) = (-r, q + r)."""
    q, r = coord
    for _ in range(steps % 6):
        q, r = -r, q + r
    return q, r


def mirror(coord: Coord) -> Coord:
    """The mirror image used to check a map's symmetry (QUE-BOARD-05): (q, r) -> (-q, q + r)."""
    q, r = coord
    return -q, q + r


def on_board(coord: Coord, radius: int) -> bool:
    q, r = coord
    return max(abs(q), abs(r), abs(q + r)) <= radius


def spaces_of(radius: int) -> list[Coord]:
    """Every space of a board of that radius, row by row (r, then q, ascending)."""
    return [(q, r) for r in range(-radius, radius + 1) for q in range(-radius, radius + 1)
            if on_board((q, r), radius)]


def bit_positions(mask: int) -> list[int]:
    """The set bits of a mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Board:
    """The precomputed geometry of one map: positions, neighbours, distances, terrain masks."""

    def __init__(self, radius: int, mountains: Iterable[Coord]) -> None:
        self.radius = radius
        self.width = width = 2 * radius + 2
        self.size = (2 * radius + 3) * width  # number of bit positions, spares included
        self.coords: list[Coord | None] = [None] * self.size
        self.spaces: tuple[int, ...] = tuple(self.pos(c) for c in spaces_of(radius))
        for pos, coord in zip(self.spaces, spaces_of(radius)):
            self.coords[pos] = coord
        # Compact index 0..n-1 of each space (row by row), for action ids.
        self.index: dict[int, int] = {pos: i for i, pos in enumerate(self.spaces)}
        self.full = sum(1 << pos for pos in self.spaces)
        mountain_set = {self.pos(c) for c in mountains}
        self.is_mountain: list[bool] = [pos in mountain_set for pos in range(self.size)]
        self.mountains = sum(1 << pos for pos in mountain_set)
        self.plains = self.full & ~self.mountains
        self.neighbours: list[tuple[int, ...]] = [() for _ in range(self.size)]
        self.neighbour_mask: list[int] = [0] * self.size
        for pos in self.spaces:
            q, r = self.coords[pos]  # type: ignore[misc]
            near = tuple(self.pos((q + dq, r + dr)) for dq, dr in DIRECTIONS
                         if on_board((q + dq, r + dr), radius))
            self.neighbours[pos] = near
            self.neighbour_mask[pos] = sum(1 << n for n in near)
        # distance[a][b] for spaces a, b (rows of spare positions stay empty).
        self.distance: list[list[int]] = [[] for _ in range(self.size)]
        for a in self.spaces:
            row = [0] * self.size
            ca = self.coords[a]
            for b in self.spaces:
                row[b] = hex_distance(ca, self.coords[b])  # type: ignore[arg-type]
            self.distance[a] = row
        # Spaces 1..4 steps from each space: the furthest any single move or JOINT can go.
        self.near: list[tuple[int, ...]] = [() for _ in range(self.size)]
        for a in self.spaces:
            self.near[a] = tuple(b for b in self.spaces
                                 if 1 <= self.distance[a][b] <= MAX_PRINCE_MOVE)

    # -- conversions ---------------------------------------------------------------------------

    def pos(self, coord: Coord) -> int:
        """The bit position of an on-board coordinate (no check: callers check `contains`)."""
        q, r = coord
        return (r + self.radius + 1) * self.width + q + self.radius

    def contains(self, coord: Coord) -> bool:
        return on_board(coord, self.radius)

    def coord(self, pos: int) -> Coord:
        return self.coords[pos]  # type: ignore[return-value]

    def mask_of(self, coords: Iterable[Coord]) -> int:
        return sum(1 << self.pos(c) for c in coords)

    def coords_of(self, mask: int) -> list[Coord]:
        return [self.coords[p] for p in bit_positions(mask)]  # type: ignore[misc]

    # -- sets of spaces ----------------------------------------------------------------------

    def expand(self, mask: int) -> int:
        """Every on-board space adjacent to a space of `mask`."""
        w = self.width
        return ((mask << 1) | (mask >> 1) | (mask << w) | (mask >> w)
                | (mask << (w - 1)) | (mask >> (w - 1))) & self.full

    def is_plain(self, pos: int) -> bool:
        return not self.is_mountain[pos]


@dataclass(frozen=True)
class SeatLayout:
    """Where one seat's pieces stand at set-up: its Queen on its City, and its Princes."""

    queen: Coord
    princes: tuple[Coord, ...]
