"""Carcassonne's linear policy: a softmax over features of the legal actions, read off the
lossless observation's planes.

A legal id of the learning action space is a placement (cell, quarter turns), a deploy (figure,
anchor on the tile just placed) or pass (and, with the expansions, abbey, wagon, draw and
overflow ids). Each is described by the features below, computed from the board planes and
scalars of `boardwright.rl.observations.carcassonne` (docs/research/carcassonne-observation.md)
and the static geometry of the tiles (which side of which tile turned how shows what, which
parts a feature has). The policy scores an id as `theta . phi(obs, id)` and plays the softmax
over the legal ids; the baseline of the training is a linear value of a few scalars.

Why features and not a convolution over the planes: whether a placement is good depends on the
tile in hand, turned, against what its neighbours show and who holds the features it joins; a
convolution has to learn that product of the tile's identity (a scalar) with every cell's
neighbourhood from results alone, which takes far more games than a CPU plays in minutes. The
features spell it out (the side of the tile against the side it meets, the holders of the
feature there, whether the part closes), so the weights only learn what each is worth.

Placement features (sums over the tile's four sides and its parts, "mine" and "theirs" by the
`holders` planes: which relative seat has more figures in the feature):

* `neighbours`: sides that touch a tile; `<kind>_<status>` for kind city, road, field and
  status mine, theirs, tied, free (a feature nobody holds) or open (no tile on that side);
* `closes_<kind>_<status>` (city, road): a part of the tile whose every side touches a tile
  and whose joined neighbouring parts have no side left open either (a feature completed by the
  placement when it spans this tile and its neighbours: exact for two-tile cities and roads);
  `extends_<kind>_<status>`: a part that joins a held feature without closing it;
* `new_city`, `new_road`: parts that join no held feature (a figure may go there next);
* `monastery`, `monastery_neighbours` (the tile's monastery and the tiles around it),
  `my_monasteries`, `their_monasteries` (held monasteries among the eight cells around).

Deploy features (the part of the tile just placed at the anchor): its kind; `complete` per kind
(it scores now and the figure comes back), the part's sides open and joined, a city's pennant,
a monastery's neighbours, a field's bordering complete cities and the game's progress, and
`supply` (figures in hand). Pass: its own bias, supply and progress. Ids of other kinds (the
expansions, a move outside the window) get one bias feature each kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardwright.games.carcassonne.segments import MONASTERY_SEGMENT, SEGMENTS
from boardwright.rl.policies.linear import linear_weights, read_linear

ARCHITECTURE = "carcassonne-linear"
GAME = "carcassonne"

KINDS = ("city", "road", "field")
STATUS = ("mine", "theirs", "tied", "free", "open")
HELD = ("mine", "theirs", "free")
PLACE_FEATURES = (
    "place", "neighbours",
    *(f"{kind}_{status}" for kind in KINDS for status in STATUS),
    *(f"closes_{kind}_{status}" for kind in ("city", "road") for status in HELD),
    *(f"extends_{kind}_{status}" for kind in ("city", "road") for status in ("mine", "theirs")),
    "new_city", "new_road", "monastery", "monastery_neighbours", "my_monasteries",
    "their_monasteries",
)
DEPLOY_FEATURES = (
    "deploy_city", "deploy_road", "deploy_field", "deploy_monastery",
    "deploy_city_complete", "deploy_road_complete", "deploy_monastery_complete",
    "deploy_city_open", "deploy_road_open", "deploy_city_joined", "deploy_road_joined",
    "deploy_city_pennant", "deploy_monastery_neighbours", "deploy_field_progress",
    "deploy_field_cities", "deploy_supply", "deploy_last_figure",
)
PASS_FEATURES = ("pass", "pass_supply", "pass_progress")
OTHER_FEATURES = ("abbey", "wagon", "draw", "overflow")
ACTION_FEATURES = (*PLACE_FEATURES, *DEPLOY_FEATURES, *PASS_FEATURES, *OTHER_FEATURES)
COLUMN = {name: k for k, name in enumerate(ACTION_FEATURES)}
STATE_FEATURES = ("bias", "lead", "my_score", "their_score", "my_supply", "their_supply",
                  "progress")

# Sides N E S W: the neighbour's offset (x grows east, y south).
DX, DY = np.array([0, 1, 0, -1]), np.array([-1, 0, 1, 0])
AROUND = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
CITY, ROAD, FIELD, MONASTERY = 0, 1, 2, 3  # feature kinds of the tile data
CORNER_ANCHORS = (14, 15, 16, 17)  # NW NE SE SW: barns, no segment


@dataclass
class Tables:
    """Static geometry of a configured game's tiles, per variant v = tile * 4 + quarter turns
    (one more row, the last, for "no tile"), as the observation numbers tiles and segments."""

    side_kind: np.ndarray  # (V+1, 4) kind index (KINDS) of what each side shows, -1 none
    side_part: np.ndarray  # (V+1, 4) local part on each side's middle (city, road), -1
    part_kind: np.ndarray  # (V+1, P) feature kind of each local part, -1 none
    part_sides: np.ndarray  # (V+1, P, 4) the sides a city or road part covers
    part_pennant: np.ndarray  # (V+1, P)
    part_borders: np.ndarray  # (V+1, P, P) field part -> the city parts it borders
    segment_part: np.ndarray  # (V+1, 15) local part covering each segment, -1
    monastery: np.ndarray  # (V+1,) the variant holds a monastery (or an abbey)

    @classmethod
    def of(cls, game: Any, names: list[str]) -> Tables:
        """The tables of `game`'s tile types `names`, in the observation's order."""
        from boardwright.rl.observations.carcassonne import covered_segments

        variants = [v for name in names for v in game.tile_types[name].variants]
        V = len(variants)
        P = max(len(v.features) for v in variants)
        side_kind = np.full((V + 1, 4), -1, np.int64)
        side_part = np.full((V + 1, 4), -1, np.int64)
        part_kind = np.full((V + 1, P), -1, np.int64)
        part_sides = np.zeros((V + 1, P, 4), bool)
        part_pennant = np.zeros((V + 1, P), np.float32)
        part_borders = np.zeros((V + 1, P, P), bool)
        segment_part = np.full((V + 1, SEGMENTS), -1, np.int64)
        monastery = np.zeros(V + 1, np.float32)
        for v, variant in enumerate(variants):
            for s, side_type in enumerate(variant.side_types):
                side_kind[v, s] = side_type - 1  # 1 city, 2 road, 3 field; 0 none
            monastery[v] = variant.monastery >= 0
            for local, feature in enumerate(variant.features):
                part_kind[v, local] = feature.kind
                part_pennant[v, local] = feature.pennants
                for s in feature.sides:
                    part_sides[v, local, s] = True
                    side_part[v, s] = local
                for city in feature.borders:
                    part_borders[v, local, city] = True
                for g in covered_segments(variant, local):
                    segment_part[v, g] = local
        return cls(side_kind, side_part, part_kind, part_sides, part_pennant, part_borders,
                   segment_part, monastery)


@dataclass
class Batch:
    """Per-step data of N observations the features read (built once per batch)."""

    board: np.ndarray  # (N, C, W, W) uint8
    scalars: np.ndarray  # (N, S) int16
    cell: np.ndarray  # (N, W + 4, W + 4) variant of each cell (padded by 2), the sentinel V
    holders: int  # first `holders` plane
    players: int
    supply: np.ndarray  # (N,) figures (followers) in the observer's hand
    progress: np.ndarray  # (N,) share of the pile drawn, 0 at the start, 1 at the end
    tile: np.ndarray  # (N,) tile type to place, -1 none
    last: np.ndarray  # (N, 2) padded cell of the tile just placed, (0, 0) none

    def locate(self, px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, ...]:
        """Board coordinates of padded cells (clamped), and whether each is in the window."""
        W = self.board.shape[-1]
        inside = (px >= 2) & (px < W + 2) & (py >= 2) & (py < W + 2)
        return (np.minimum(np.maximum(px - 2, 0), W - 1),
                np.minimum(np.maximum(py - 2, 0), W - 1), inside)

    def held(self, e: np.ndarray, g: Any, where: tuple[np.ndarray, ...]
             ) -> tuple[np.ndarray, np.ndarray]:
        """Figures of the observer, and the most of any other seat, in the feature of the part
        covering segment `g` of the tiles at `where` (`locate`; none outside the window)."""
        x, y, inside = where
        mine = self.board[e, self.holders + g, x, y] * inside
        theirs = np.zeros_like(mine)
        for k in range(1, self.players):
            np.maximum(theirs, self.board[e, self.holders + SEGMENTS * k + g, x, y] * inside,
                       out=theirs)
        return mine, theirs


class Featurizer:
    """Features of Carcassonne observations and of their legal ids (module docstring)."""

    def __init__(self, game: Any, encoder: Any = None, space: Any = None) -> None:
        from boardwright.rl.action_spaces import action_space_for
        from boardwright.rl.observations import encoder_for

        self.encoder = encoder if encoder is not None else encoder_for(game)
        self.space = space if space is not None else action_space_for(game)
        self.n = game.num_players
        names = list(self.encoder.tiles)  # the observation's order of tile types
        self.tables = Tables.of(game, names)
        self.sentinel = self.tables.monastery.size - 1
        self.T = len(names)
        self.width = self.encoder.width
        b, s = self.encoder.board_blocks, self.encoder.scalar_blocks
        self.board_at = {name: first for name, (first, _) in b.items()}
        self.scalar_at = {name: first for name, (first, _) in s.items()}
        self.pieces = s["supply"][1] // self.n  # pieces per seat; the follower first
        # the pile at the first decision: all tiles but the start tile and the one in hand
        self.pile_total = max(1, sum(game.tile_types[name].count for name in names) - 2)
        self.blocks = {name: (block.start, block.stop, block.shape)
                       for name, block in self.space.blocks.items()}

    # -- per batch -----------------------------------------------------------------------------

    def batch(self, board: np.ndarray, scalars: np.ndarray) -> Batch:
        """What every feature of these observations reads, computed once."""
        N, W, T = board.shape[0], self.width, self.T
        at = self.board_at
        tiles = board[:, at["tile"]:at["tile"] + T]
        n, x, y = np.nonzero(tiles.any(axis=1))  # the tiles on the board
        variant = 4 * tiles[n, :, x, y].argmax(axis=1) + board[
            n, at["rotation"]:at["rotation"] + 4, x, y].argmax(axis=1)
        cell = np.full((N, W + 4, W + 4), self.sentinel, np.int64)
        cell[n, x + 2, y + 2] = variant
        sa = self.scalar_at
        supply = scalars[:, sa["supply"]].astype(np.float32)
        pile = scalars[:, sa["pile"]].astype(np.float32)
        progress = np.clip(1.0 - pile / self.pile_total, 0.0, 1.0)
        hand = scalars[:, sa["tile"]:sa["tile"] + T + 1]
        tile = np.where(hand[:, :T].any(axis=1), hand[:, :T].argmax(axis=1), -1)
        lastplane = board[:, at["last"]].reshape(N, -1)
        where = lastplane.argmax(axis=1)
        last = np.stack([where // W + 2, where % W + 2], axis=1)
        last[~lastplane.any(axis=1)] = 0
        return Batch(board, scalars, cell, at["holders"], self.n, supply, progress, tile, last)

    def state_features(self, b: Batch) -> np.ndarray:
        """(N, len(STATE_FEATURES)): the inputs of the baseline."""
        sa = self.scalar_at
        scores = b.scalars[:, sa["scores"]:sa["scores"] + self.n].astype(np.float32)
        other = scores[:, 1:].max(axis=1) if self.n > 1 else np.zeros(len(scores), np.float32)
        supply = b.scalars[:, sa["supply"]:sa["supply"] + self.n * self.pieces:self.pieces]
        their_supply = supply[:, 1:].mean(axis=1) if self.n > 1 else np.zeros(len(scores))
        return np.stack([np.ones(len(scores), np.float32), (scores[:, 0] - other) / 50,
                         scores[:, 0] / 100, other / 100, supply[:, 0] / 7,
                         their_supply / 7, b.progress], axis=1).astype(np.float32)

    # -- per legal id --------------------------------------------------------------------------

    def features(self, b: Batch, env: np.ndarray, ids: np.ndarray) -> np.ndarray:
        """(M, len(ACTION_FEATURES)) for the ids `ids` of the observations `env` (M each)."""
        env, ids = np.asarray(env, np.int64), np.asarray(ids, np.int64)
        out = np.zeros((ids.size, len(ACTION_FEATURES)), np.float32)
        for name, (start, stop, shape) in self.blocks.items():
            chosen = np.flatnonzero((ids >= start) & (ids < stop))
            if not chosen.size:
                continue
            if name == "place":
                self._place(b, env[chosen], ids[chosen] - start, out, chosen)
            elif name == "deploy":
                self._deploy(b, env[chosen], ids[chosen] - start, shape, out, chosen)
            elif name == "pass":
                e = env[chosen]
                out[chosen, COLUMN["pass"]] = 1
                out[chosen, COLUMN["pass_supply"]] = b.supply[e] / 7
                out[chosen, COLUMN["pass_progress"]] = b.progress[e]
            else:
                out[chosen, COLUMN[name]] = 1
        return out

    def _place(self, b: Batch, e: np.ndarray, local: np.ndarray, out: np.ndarray,
               rows: np.ndarray) -> None:
        t = self.tables
        W = self.width
        cell, q = local // 4, local % 4
        x, y = cell // W + 2, cell % W + 2
        v = np.where(b.tile[e] >= 0, 4 * b.tile[e] + q, self.sentinel)
        M = e.size
        f = np.zeros((M, len(ACTION_FEATURES)), np.float32)
        col = COLUMN
        f[:, col["place"]] = 1
        P = t.part_kind.shape[1]
        # per side: the neighbour, what it shows, who holds the feature met there
        joined = np.zeros((M, 4), bool)
        side_mine = np.zeros((M, 4), np.int16)
        side_theirs = np.zeros((M, 4), np.int16)
        neighbour_closed = np.ones((M, 4), bool)  # the neighbour's part has no other open side
        for s in range(4):
            nx, ny = x + DX[s], y + DY[s]
            nv = b.cell[e, nx, ny]
            present = nv != self.sentinel
            joined[:, s] = present
            o = (s + 2) % 4
            kind = t.side_kind[v, s]
            where = b.locate(nx, ny)
            middle = b.held(e, o, where)
            left, right = b.held(e, 4 + 2 * o, where), b.held(e, 5 + 2 * o, where)
            halves = np.maximum(left[0], right[0]), np.maximum(left[1], right[1])
            is_field = kind == 2
            mine = np.where(is_field, halves[0], middle[0])
            theirs = np.where(is_field, halves[1], middle[1])
            side_mine[:, s], side_theirs[:, s] = mine, theirs
            status = np.select([~present, mine > theirs, theirs > mine, mine > 0],
                               [4, 0, 1, 2], 3)
            valid = np.flatnonzero(kind >= 0)  # each row once: += is safe
            f[valid, col["city_mine"] + 5 * kind[valid] + status[valid]] += 1
            # the neighbour's part on the side met: are its other sides all against tiles?
            npart = t.side_part[nv, o]
            has = present & (npart >= 0)
            sides = t.part_sides[nv, np.maximum(npart, 0)]  # (M, 4)
            for s2 in range(4):
                if s2 == o:
                    continue
                beyond = b.cell[e, nx + DX[s2], ny + DY[s2]] != self.sentinel
                neighbour_closed[:, s] &= ~(has & sides[:, s2] & ~beyond)
        f[:, col["neighbours"]] = joined.sum(axis=1) / 4
        for k in range(len(KINDS)):
            for status in range(len(STATUS)):
                f[:, col["city_mine"] + 5 * k + status] /= 2
        # per part of the tile: closes, extends, new
        for p in range(P):
            kind = t.part_kind[v, p]
            sides = t.part_sides[v, p]  # (M, 4)
            road_or_city = (kind == CITY) | (kind == ROAD)
            if not road_or_city.any():
                continue
            covered = sides.any(axis=1)
            touches = sides & joined
            closed = covered & ~(sides & ~joined).any(axis=1) & \
                ~(touches & ~neighbour_closed).any(axis=1)
            mine = (side_mine * touches).sum(axis=1)
            theirs = (side_theirs * touches).sum(axis=1)
            held = (mine > 0) | (theirs > 0)
            for kname, kvalue in (("city", CITY), ("road", ROAD)):
                this = road_or_city & (kind == kvalue) & covered
                f[:, col[f"closes_{kname}_mine"]] += this & closed & (mine > theirs)
                f[:, col[f"closes_{kname}_theirs"]] += this & closed & (theirs > mine)
                f[:, col[f"closes_{kname}_free"]] += this & closed & ~held
                f[:, col[f"extends_{kname}_mine"]] += this & ~closed & (mine > theirs)
                f[:, col[f"extends_{kname}_theirs"]] += this & ~closed & (theirs > mine)
                f[:, col[f"new_{kname}"]] += this & ~held
        # monasteries: the tile's own, and held ones around the cell
        around_tiles = np.zeros(M, np.float32)
        mine_around = np.zeros(M, np.float32)
        theirs_around = np.zeros(M, np.float32)
        for dx, dy in AROUND:
            cx, cy = x + dx, y + dy
            around_tiles += b.cell[e, cx, cy] != self.sentinel
            mine, theirs = b.held(e, MONASTERY_SEGMENT, b.locate(cx, cy))
            mine_around += mine > 0
            theirs_around += theirs > 0
        f[:, col["monastery"]] = t.monastery[v]
        f[:, col["monastery_neighbours"]] = t.monastery[v] * around_tiles / 8
        f[:, col["my_monasteries"]] = mine_around
        f[:, col["their_monasteries"]] = theirs_around
        out[rows] = f

    def _deploy(self, b: Batch, e: np.ndarray, local: np.ndarray, shape: tuple[int, ...],
                out: np.ndarray, rows: np.ndarray) -> None:
        t = self.tables
        col = COLUMN
        anchors = shape[1]
        figure, anchor = local // anchors, local % anchors
        segment = np.where(anchor == anchors - 1, MONASTERY_SEGMENT, anchor)
        barn = np.isin(anchor, CORNER_ANCHORS)
        segment = np.where(barn, 0, segment)
        lx, ly = b.last[e, 0], b.last[e, 1]
        v = b.cell[e, lx, ly]
        part = np.where(barn, -1, t.segment_part[v, segment])
        kind = np.where(part >= 0, t.part_kind[v, np.maximum(part, 0)], -1)
        M = e.size
        f = np.zeros((M, len(ACTION_FEATURES)), np.float32)
        for name, value in (("city", CITY), ("road", ROAD), ("field", FIELD),
                            ("monastery", MONASTERY)):
            f[:, col[f"deploy_{name}"]] = kind == value
        at = self.board_at["complete"]
        W = self.width
        inside = (lx >= 2) & (ly >= 2)
        gx, gy = np.clip(lx - 2, 0, W - 1), np.clip(ly - 2, 0, W - 1)
        complete = b.board[e, at + segment, gx, gy] * inside
        f[:, col["deploy_city_complete"]] = (kind == CITY) * complete
        f[:, col["deploy_road_complete"]] = (kind == ROAD) * complete
        f[:, col["deploy_monastery_complete"]] = (kind == MONASTERY) * complete
        sides = t.part_sides[v, np.maximum(part, 0)] & (part >= 0)[:, None]
        joined = np.zeros((M, 4), bool)
        for s in range(4):
            joined[:, s] = b.cell[e, lx + DX[s], ly + DY[s]] != self.sentinel
        open_sides = (sides & ~joined).sum(axis=1) / 4
        joined_sides = (sides & joined).sum(axis=1) / 4
        f[:, col["deploy_city_open"]] = (kind == CITY) * open_sides
        f[:, col["deploy_road_open"]] = (kind == ROAD) * open_sides
        f[:, col["deploy_city_joined"]] = (kind == CITY) * joined_sides
        f[:, col["deploy_road_joined"]] = (kind == ROAD) * joined_sides
        f[:, col["deploy_city_pennant"]] = (kind == CITY) * t.part_pennant[
            v, np.maximum(part, 0)]
        around = np.zeros(M, np.float32)
        for dx, dy in AROUND:
            around += b.cell[e, lx + dx, ly + dy] != self.sentinel
        f[:, col["deploy_monastery_neighbours"]] = (kind == MONASTERY) * around / 8
        f[:, col["deploy_field_progress"]] = (kind == FIELD) * b.progress[e]
        # cities of this tile the field borders that are complete already
        borders = t.part_borders[v, np.maximum(part, 0)] & (kind == FIELD)[:, None]
        cities = np.zeros(M, np.float32)
        for city in range(borders.shape[1]):
            has = borders[:, city]
            if not has.any():
                continue
            segs = t.segment_part[v] == city  # (M, 15)
            first = np.where(segs.any(axis=1), segs.argmax(axis=1), 0)
            cities += has * b.board[e, at + first, gx, gy] * inside
        f[:, col["deploy_field_cities"]] = cities
        supply = b.supply[e]
        f[:, col["deploy_supply"]] = (kind >= 0) * supply / 7
        f[:, col["deploy_last_figure"]] = (kind >= 0) * (supply <= 1)
        out[rows] = f

    # -- one position (the agent) --------------------------------------------------------------

    def position_features(self, state: Any, seat: int, ids: np.ndarray) -> np.ndarray:
        obs = self.encoder.encode_state(state, seat)
        b = self.batch(obs["board"][None], obs["scalars"][None])
        return self.features(b, np.zeros(len(ids), np.int64), ids)


@dataclass
class Model:
    """Weights of the policy (`theta`, one per ACTION_FEATURES) and of its baseline (`value`,
    one per STATE_FEATURES)."""

    theta: np.ndarray = field(default_factory=lambda: np.zeros(len(ACTION_FEATURES)))
    value: np.ndarray = field(default_factory=lambda: np.zeros(len(STATE_FEATURES)))

    @classmethod
    def from_weights(cls, weights: dict[str, np.ndarray]) -> Model:
        for key, names in (("action_features", ACTION_FEATURES),
                           ("state_features", STATE_FEATURES)):
            if tuple(str(n) for n in np.asarray(weights[key]).reshape(-1)) != names:
                raise ValueError(f"{key} are not this version's ({len(names)} named features)")
        theta, value = read_linear(weights, ACTION_FEATURES, STATE_FEATURES)
        return cls(theta, value)

    def weights(self) -> dict[str, np.ndarray]:
        return linear_weights(self.theta, self.value, ACTION_FEATURES, STATE_FEATURES)

    def player(self, game: Any) -> Player:
        return Player(self, Featurizer(game))


@dataclass
class Player:
    """The model bound to a configured game: logits of a position's legal ids."""

    model: Model
    featurizer: Featurizer

    def logits(self, state: Any, seat: int, ids: np.ndarray) -> np.ndarray:
        return self.featurizer.position_features(state, seat, ids) @ self.model.theta


def signature(game: Any) -> dict[str, Any]:
    """What the features read of a game: its action blocks and observation blocks (options
    that add pieces or tiles change them)."""
    from boardwright.rl.action_spaces import action_space_for
    from boardwright.rl.observations import encoder_for

    encoder = encoder_for(game)
    space = action_space_for(game)
    return {"actions": {name: [b.start, list(b.shape)] for name, b in space.blocks.items()},
            "board": {name: list(v) for name, v in encoder.board_blocks.items()},
            "scalars": {name: list(v) for name, v in encoder.scalar_blocks.items()},
            "tiles": list(encoder.tiles)}
