"""Carcassonne's learning action space: board planes around the start tile, a slot table for the
tile just placed, and an overflow list that guarantees every legal action an id.

The stable ids (`CarcassonneGame.action_id`) give every cell within the reach of the whole pile
its own rotations, features and figures: 1.55 million ids in the base game, 10 million with
Abbey & Mayor, 57 million with 20 of every piece for 6 players. This space numbers the same
legal actions with `size` ids: 4,448 in the base game, 10,416 with Abbey & Mayor for 6 players,
11,328 with 20 of every piece, 14,664 at most (that and a `draw_order` of 500 tiles, the longest
allowed). The price is one part whose meaning depends on the position (the overflow list).

Layout (R = `radius`, 15 by default; W = 2R + 1 = 31; x grows east, y south; a *cell* is
(x + R, y + R), indexed like the observation's board planes [plane, x + 15, y + 15] of
`boardwright.rl.observations.carcassonne`, whose window is this one). Blocks follow each other in
this order, each laid out in C order of its shape; `blocks` gives each one's start and shape,
and a block the options rule out is left out (the base game has place, deploy, pass, overflow):

* `place` (W, W, 4): put the tile at (x, y) turned `q` quarter turns clockwise: id =
  ((x + R) * W + (y + R)) * 4 + q. A convolutional head with 4 output planes of W x W gives
  these logits after `logits.permute(1, 2, 0).reshape(-1)` (planes last).
* `abbey` (W, W): put one's abbey into the hole at (x, y) (with abbeys only).
* `wagon` (W, W, 5): move the waiting wagon to the feature of the tile at (x, y) whose anchor
  is N, E, S, W or MONASTERY (`WAGON_ANCHORS`, last index; with wagons only).
* `deploy` (F, 19): put figure f (`game.figures` order: follower, then mayor, wagon, barn when
  the options have them) on the feature of the tile just placed whose anchor is `ANCHORS[a]`
  (for a barn: the corner): id = start + f * 19 + a.
* `draw` (1): draw a tile instead of playing an abbey (with abbeys only).
* `pass` (1): keep the figure / take the wagon back / end one's final abbey turn.
* `overflow` (K): a place, abbey or wagon move at a cell outside the window: slot k is the
  position's k-th such legal action in ascending stable id (x, then y, then rotation or
  feature). K = 4 * (2N + 2) with N the most tiles the board can hold (`game.radius` + 1).

`meaning(id)` / `describe(id)` say what an id names without a position; `legal(state)` gives the
position's ids (`ids`, sorted), the action of an id (`action`) and the id of an action (`id_of`).

The *anchor* of a feature on a tile is its first part in `ANCHORS` order (N, E, S, W, then the
half sides NL .. WR, IN1, IN2, the corners NW, NE, SE, SW, MONASTERY): a side for a city or a
road, a half side (or IN1/IN2) for a field, MONASTERY, a corner for a barn point. Features of one
tile share no part, so anchors tell them apart, and they turn with the tile: the policy sees "the
north side", not an index into the tile's feature list.

Why this design: a spatial window is what a convolutional policy reads best, and one fixed to
the start tile keeps a tile's cell for the whole game (a window that follows the bounding box
shifts every cell whenever the board grows west or north) and matches the observation planes.
No window within the budget covers every reachable position: the board can grow far in one
direction (72 tiles in a line in the base game; a `draw_order` may hold 500 tiles), so a
window proven to contain every placement would need 2 * 72 + 3 cells a side for the base game
alone (86,436 place ids). Games stay inside 15 cells (over 1,000 random games per option set,
the furthest tile was 14 cells from the start in the base game and 15 with 20 abbeys each,
when 11 positions of 191,174 offered a move beyond: `benchmarks/action_mask.py --coverage`), so
the rare placement beyond gets an overflow slot instead: no legal move is ever unencodable, the
common case keeps a fixed spatial meaning, and the size stays small.

Why K slots are enough: at most one kind of positional action is legal at a time (places,
abbey holes or wagon moves: separate phases). Placements are at most 4 per frontier cell, and
the frontier (empty cells touching the board along a side) of a connected board of n tiles has
at most 2n + 2 cells: one tile has 4; each tile added takes one frontier cell and adds at most 3
(its other neighbours), and play and `scenario.build` only ever add a tile next to the board.
Holes are frontier cells; wagon moves are features of tiles on the board, at most 5 per tile
besides fields (`WAGON_ANCHORS`), and 5N <= 4(2N + 2). Deploys on the tile just placed never
need the overflow.

The stable ids stay what records, searches and `State.legal_action_ids` use: this space only
renumbers them, from each position's stable ids (`legal`), with numpy (the `rl` extra), on
either engine.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from boardwright.core.errors import IllegalActionError, InvalidOptionError, MalformedActionError
from boardwright.core.inputs import short_repr
from boardwright.games.carcassonne.capabilities.wagon import MOVE
from boardwright.games.carcassonne.tiles import (
    CORNERS, HALVES, INTERNAL, MONASTERY_LOCATION, SIDES,
)

if TYPE_CHECKING:
    from boardwright.games.carcassonne.game import CarcassonneGame

#: The default window: 15 cells each way from the start tile, the observation's window.
DEFAULT_RADIUS = 15
MAX_RADIUS = 200  # 401 x 401 cells, 643,204 place ids: past any use, and past the budget
#: Order in which a feature's parts are tried for its anchor (all 19 part names).
ANCHORS: tuple[str, ...] = (*SIDES, *HALVES, *INTERNAL, *CORNERS, MONASTERY_LOCATION)
#: Anchors of the features a wagon may move to (roads, cities, monasteries).
WAGON_ANCHORS: tuple[str, ...] = (*SIDES, MONASTERY_LOCATION)
_EMPTY = np.empty(0, dtype=np.int64)
BLOCKS = ("place", "abbey", "wagon", "deploy", "draw", "pass", "overflow")


def anchor(location: str) -> str:
    """The anchor of a feature location (`"E.N"` -> `"N"`, `"EL.ER.SL"` -> `"EL"`)."""
    return min(location.split("."), key=ANCHORS.index)


class EncodingError(AssertionError):
    """The encoding broke an assumption it is built on (one kind of move per position, no more
    moves outside the window than the K overflow slots): a bug, never an input error."""


@dataclass(frozen=True)
class Block:
    """One block of ids: they run from `start` to `start + size - 1`, in C order of `shape`."""

    name: str
    start: int
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    @property
    def stop(self) -> int:
        return self.start + self.size


@dataclass(frozen=True)
class IdMeaning:
    """What an id names, without a position: the block and the indexes within it, with the
    board cell for the spatial blocks and the names for the slot tables."""

    block: str
    index: tuple[int, ...]  # position within the block's shape
    x: int | None = None
    y: int | None = None
    rotation: int | None = None  # place: degrees clockwise
    anchor: str | None = None  # wagon, deploy
    figure: str | None = None  # deploy

    def text(self) -> str:
        if self.block == "place":
            return f"place at ({self.x}, {self.y}) turned {self.rotation}°"
        if self.block == "abbey":
            return f"abbey into the hole at ({self.x}, {self.y})"
        if self.block == "wagon":
            return f"wagon to the feature anchored {self.anchor} of ({self.x}, {self.y})"
        if self.block == "deploy":
            return f"{self.figure} on the feature anchored {self.anchor} of the tile just placed"
        if self.block == "overflow":
            return f"overflow slot {self.index[0]} (a move outside the window)"
        return self.block


class CarcassonneActionSpace:
    """The learning action space of one configured game (see the module docstring)."""

    def __init__(self, game: CarcassonneGame, radius: int = DEFAULT_RADIUS) -> None:
        if type(radius) is not int or not 0 <= radius <= MAX_RADIUS:
            raise InvalidOptionError(
                f"radius must be a whole number from 0 to {MAX_RADIUS}, not {short_repr(radius)}")
        self.game = game
        self.radius = radius
        self.width = W = 2 * radius + 1
        config = game.config
        self.tiles = game.radius + 1  # the most tiles the board can hold
        shapes: dict[str, tuple[int, ...]] = {"place": (W, W, 4)}
        if config.abbeys:
            shapes["abbey"] = (W, W)
        if config.wagons:
            shapes["wagon"] = (W, W, len(WAGON_ANCHORS))
        shapes["deploy"] = (len(game.figures), len(ANCHORS))
        if config.abbeys:
            shapes["draw"] = (1,)
        shapes["pass"] = (1,)
        shapes["overflow"] = (4 * (2 * self.tiles + 2),)
        self.blocks: dict[str, Block] = {}
        start = 0
        for name in BLOCKS:
            if name in shapes:
                self.blocks[name] = block = Block(name, start, shapes[name])
                start = block.stop
        self.size = start
        # The stable layout (`ActionDecoder`), read once.
        decoder = game._decoder
        self._stable_width = decoder.width
        self._shift = decoder.radius - radius  # stable x index - window x index
        self._deploy_base = decoder.deploy_base
        self._abbey_base = decoder.abbey_base
        self._draw_id = decoder.draw_id
        self._pass_id = decoder.pass_id
        self._figures = len(decoder.figures)
        self._locations = len(decoder.locations)
        self._location_anchor = np.array([ANCHORS.index(anchor(loc)) for loc in decoder.locations],
                                         dtype=np.int64)
        self._location_wagon = np.array(
            [WAGON_ANCHORS.index(anchor(loc)) if anchor(loc) in WAGON_ANCHORS else -1
             for loc in decoder.locations], dtype=np.int64)
        self._figure_names = decoder.figures
        self._start = {name: block.start for name, block in self.blocks.items()}
        self._draw = self._start.get("draw", -1)
        # stable cell index -> window cell index ((x + R) * W + y + R), or -1 outside the window
        sw, shift = decoder.width, self._shift
        x = np.arange(sw * sw, dtype=np.int64) // sw - shift
        y = np.arange(sw * sw, dtype=np.int64) % sw - shift
        inside = (x >= 0) & (x < W) & (y >= 0) & (y < W)
        self._window_cell = np.where(inside, x * W + y, -1).astype(np.int32)  # 4 bytes a cell
        self._overflow_slots = self.blocks["overflow"].size
        native = game.engine == "native"
        self._action_of = game._native_spec.action_object if native else game._decoder

    # -- numbering the legal actions of a position -------------------------------------------------

    def legal(self, state: Any) -> CarcassonneLegalIds:
        """The legal actions of `state` (a position of this space's game, either engine)."""
        if state.is_terminal:
            return CarcassonneLegalIds(self, _EMPTY, _EMPTY)
        return self.from_stable(state.legal_action_ids(), state.phase == MOVE)

    def from_stable(self, stable: Any, wagon_move: bool) -> CarcassonneLegalIds:
        """Renumber a position's legal stable ids (a list or array; `wagon_move`: the position
        decides a wagon's move, where a deploy names any tile, not the one just placed). This is
        the whole cost of the encoding beside the engine's own legal-move generation.

        The stable ids are sorted first; places and abbeys then come out already in learning
        order (the spatial blocks are cell-major, like the stable ids), so only deploys, wagon
        moves and positions with overflow need a second sort."""
        s = np.array(stable, dtype=np.int64)
        s.sort()
        n = s.size
        moves = n
        while moves and s[moves - 1] >= self._draw_id:  # draw and pass: the largest ids
            moves -= 1
        ids = np.empty(n, dtype=np.int64)
        for k in range(moves, n):
            ids[k] = self._start["pass"] if s[k] == self._pass_id else self._draw
        in_order = True
        if moves:
            ids[:moves], in_order = self._moves(s[:moves], wagon_move)
        if not in_order:
            order = np.argsort(ids, kind="stable")
            ids, s = ids[order], s[order]
        return CarcassonneLegalIds(self, ids, s)

    def _moves(self, s: np.ndarray, wagon_move: bool) -> tuple[np.ndarray, bool]:
        """Learning ids of sorted stable ids that are all of one kind (the phase's: places,
        deploys or abbeys), and whether they came out sorted."""
        first, last = int(s[0]), int(s[-1])
        if first < self._deploy_base:  # places: cell * 4 + quarter
            if last >= self._deploy_base:
                raise EncodingError(f"stable ids {s.tolist()} mix kinds of action")
            return self._spatial(s, s >> 2, s & 3, self._start["place"], 4)
        if first < self._abbey_base:
            if last >= self._abbey_base:
                raise EncodingError(f"stable ids {s.tolist()} mix kinds of action")
            cell_location, figure = np.divmod(s - self._deploy_base, self._figures)
            cell, location = np.divmod(cell_location, self._locations)
            if wagon_move:  # a wagon may go to any tile: spatial
                channel = self._location_wagon[location]
                ids, _ = self._spatial(s, cell, channel, self._start["wagon"],
                                       len(WAGON_ANCHORS), channel >= 0)
                return ids, False
            # the tile just placed: figure x anchor
            return (self._start["deploy"] + figure * len(ANCHORS)
                    + self._location_anchor[location]), False
        return self._spatial(s, s - self._abbey_base, 0, self._start.get("abbey", 0), 1)

    def _spatial(self, s: np.ndarray, cell: np.ndarray, channel: Any, start: int,
                 channels: int, usable: np.ndarray | None = None) -> tuple[np.ndarray, bool]:
        """Ids in a spatial block of shape (W, W, channels) for stable cells, and overflow
        slots (ranked by stable id: `s` is sorted) for cells outside the window or unusable
        channels; whether the ids are in the order of `s` (no overflow)."""
        window = self._window_cell[cell]  # -1 outside the window
        ids = start + window * channels + channel
        outside = window < 0
        if usable is not None:
            outside |= ~usable
        if not outside.any():
            return ids, True
        out = np.flatnonzero(outside)
        if out.size > self._overflow_slots:
            raise EncodingError(f"{out.size} moves outside the window, more than the "
                                f"{self._overflow_slots} overflow slots")
        ids[out] = self._start["overflow"] + np.arange(out.size)
        return ids, False

    # -- what ids mean -------------------------------------------------------------------------------

    def check_id(self, action_id: Any) -> int:
        """An id as a plain int: MalformedActionError for a non-integer or one outside the space."""
        if isinstance(action_id, (bool, np.bool_)):
            raise MalformedActionError(f"action id {short_repr(action_id)} is not an integer")
        try:
            value = operator.index(action_id)
        except TypeError:
            raise MalformedActionError(
                f"action id {short_repr(action_id)} is not an integer") from None
        if not 0 <= value < self.size:
            raise MalformedActionError(f"action id {value} is outside 0..{self.size - 1}")
        return value

    def meaning(self, action_id: Any) -> IdMeaning:
        """What an id names (block, indexes, cell, rotation, anchor, figure)."""
        value = self.check_id(action_id)
        block = next(b for b in self.blocks.values() if b.start <= value < b.stop)
        index = tuple(int(i) for i in np.unravel_index(value - block.start, block.shape))
        r = self.radius
        if block.name == "place":
            return IdMeaning("place", index, index[0] - r, index[1] - r, 90 * index[2])
        if block.name == "abbey":
            return IdMeaning("abbey", index, index[0] - r, index[1] - r)
        if block.name == "wagon":
            return IdMeaning("wagon", index, index[0] - r, index[1] - r,
                             anchor=WAGON_ANCHORS[index[2]])
        if block.name == "deploy":
            return IdMeaning("deploy", index, anchor=ANCHORS[index[1]],
                             figure=self._figure_names[index[0]])
        return IdMeaning(block.name, index)

    def describe(self, action_id: Any) -> str:
        return self.meaning(action_id).text()


class CarcassonneLegalIds:
    """The legal actions of one position: sorted learning ids and the stable id of each."""

    __slots__ = ("ids", "space", "stable")

    def __init__(self, space: CarcassonneActionSpace, ids: np.ndarray, stable: np.ndarray) -> None:
        self.space = space
        self.ids = ids
        self.stable = stable

    def __len__(self) -> int:
        return int(self.ids.size)

    def action(self, action_id: Any) -> Any:
        return self.space._action_of(self.stable_id(action_id))

    def stable_id(self, action_id: Any) -> int:
        """The stable id of a legal learning id (MalformedActionError / IllegalActionError,
        naming the id, for any other)."""
        value = self.space.check_id(action_id)
        k = int(np.searchsorted(self.ids, value))
        if k == self.ids.size or self.ids[k] != value:
            raise IllegalActionError(f"action id {value} ({self.space.describe(value)}) is not "
                                     "legal in this position")
        return int(self.stable[k])

    def id_of(self, action: Any) -> int:
        stable = self.space.game.action_id(action)
        found = np.flatnonzero(self.stable == stable)
        if not found.size:
            raise IllegalActionError(f"{short_repr(action)} is not legal in this position")
        return int(self.ids[found[0]])
