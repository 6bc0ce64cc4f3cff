"""The board and its features, tracked incrementally with a union-find over feature parts.

Every feature part of every placed tile gets an integer id. Connected parts share a root
that carries the feature's data: open sides (for monasteries: empty surrounding positions),
distinct tiles, pennants, bordered cities (fields) and the parts holding figures. Placing a
tile touches only its neighbours, so no operation re-walks the board.

Per-root data that merges (tile sets, city sets, figure tuples) is immutable and replaced on
merge, so `copy()` is a handful of list copies: clones share those objects safely.

`memo` is a scratch dict for values derived from the layout alone (the heuristic's completion
odds): copies share it, and laying a tile gives the graph a fresh one. So the many positions a
search derives from one layout (every figure choice after a placement, every determinization
of the pile) compute such values once, and a value is never read back after the layout changed.
"""

from __future__ import annotations

from boardwright.games.carcassonne.actions import STRIDE
from boardwright.games.carcassonne.tiles import FIELD, MONASTERY, ROAD, TileVariant

# Offsets of the neighbour through side N, E, S, W in packed positions.
SIDE_OFFSET = (-1, STRIDE, 1, -STRIDE)
SURROUNDING = (-STRIDE - 1, -1, STRIDE - 1, -STRIDE, STRIDE, -STRIDE + 1, 1, STRIDE + 1)
EMPTY: tuple = ()


class FeatureGraph:
    """Placed tiles, the frontier of free positions, and the features they form."""

    __slots__ = ("board", "frontier", "monasteries", "parent", "size", "kind", "part_pos",
                 "part_local", "open", "tiles", "pennants", "cities", "figures", "barns", "memo")

    def __init__(self) -> None:
        self.board: dict[int, tuple[TileVariant, int]] = {}  # pos -> (variant, first part id)
        self.frontier: dict[int, int] = {}  # free pos next to a tile -> side-type pattern
        self.monasteries: dict[int, int] = {}  # pos -> monastery part id
        self.parent: list[int] = []
        self.size: list[int] = []
        self.kind: list[int] = []
        self.part_pos: list[int] = []
        self.part_local: list[int] = []
        self.open: list[int] = []
        self.tiles: list[frozenset[int] | None] = []
        self.pennants: list[int] = []
        self.cities: list[frozenset[int] | None] = []
        self.figures: list[tuple[int, ...]] = []  # root -> parts of this feature holding a figure
        self.barns: list[tuple[int, ...]] = []  # field root -> barn points in this field
        self.memo: dict = {}  # values derived from the layout; shared by copies, reset per tile

    def copy(self) -> FeatureGraph:
        other = FeatureGraph.__new__(FeatureGraph)
        other.board = self.board.copy()
        other.frontier = self.frontier.copy()
        other.monasteries = self.monasteries.copy()
        other.parent = self.parent.copy()
        other.size = self.size.copy()
        other.kind = self.kind.copy()
        other.part_pos = self.part_pos.copy()
        other.part_local = self.part_local.copy()
        other.open = self.open.copy()
        other.tiles = self.tiles.copy()
        other.pennants = self.pennants.copy()
        other.cities = self.cities.copy()
        other.figures = self.figures.copy()
        other.barns = self.barns.copy()
        other.memo = self.memo
        return other

    # -- union-find -------------------------------------------------------------------------

    def find(self, part: int) -> int:
        parent = self.parent
        while parent[part] != part:
            parent[part] = parent[parent[part]]
            part = parent[part]
        return part

    def _union(self, a: int, b: int) -> int:
        """Merge the features rooted at a and b (a != b); returns the new root."""
        size = self.size
        if size[a] < size[b]:
            a, b = b, a
        self.parent[b] = a
        size[a] += size[b]
        self.open[a] += self.open[b]
        self.pennants[a] += self.pennants[b]
        tiles_b = self.tiles[b]
        if tiles_b is not None:
            tiles_a = self.tiles[a]
            if not tiles_b <= tiles_a:  # type: ignore[operator]
                self.tiles[a] = tiles_a | tiles_b  # type: ignore[operator]
        cities_b = self.cities[b]
        if cities_b is not None:
            self.cities[a] = self.cities[a] | cities_b  # type: ignore[operator]
        figures_b = self.figures[b]
        if figures_b:
            self.figures[a] = self.figures[a] + figures_b
        barns_b = self.barns[b]
        if barns_b:
            self.barns[a] = self.barns[a] + barns_b
        return a

    # -- placement --------------------------------------------------------------------------

    def add_tile(self, pos: int, variant: TileVariant) -> list[int]:
        """Place a tile (already validated) and return the roots it completed.

        Completed roads and cities come first, then monasteries, each once.
        """
        self.memo = {}
        board = self.board
        base = len(self.parent)
        features = variant.features
        n = len(features)
        self.parent.extend(range(base, base + n))
        self.size.extend([1] * n)
        self.part_pos.extend([pos] * n)
        self.part_local.extend(range(n))
        for feature in features:
            kind = feature.kind
            self.kind.append(kind)
            self.pennants.append(feature.pennants)
            self.figures.append(EMPTY)
            self.barns.append(EMPTY)
            if kind == FIELD:
                self.open.append(0)
                self.tiles.append(None)
                self.cities.append(frozenset([base + b for b in feature.borders]))
            elif kind == MONASTERY:
                self.open.append(8)
                self.tiles.append(None)
                self.cities.append(None)
            else:
                self.open.append(len(feature.sides))
                self.tiles.append(frozenset((pos,)))
                self.cities.append(None)
        board[pos] = (variant, base)
        self.frontier.pop(pos, None)

        find = self.find
        open_ = self.open
        side_feature = variant.side_feature
        half_feature = variant.half_feature
        touched: list[int] = []
        for side in range(4):
            npos = pos + SIDE_OFFSET[side]
            neighbour = board.get(npos)
            opposite = (side + 2) & 3
            if neighbour is None:
                self._constrain(npos, opposite, variant.side_types[side])
                continue
            nvariant, nbase = neighbour
            local = side_feature[side]
            other_local = nvariant.side_feature[opposite]
            if local >= 0:
                a = find(base + local)
                b = find(nbase + other_local)
                if a == b:
                    open_[a] -= 2
                else:
                    open_[a] -= 1
                    open_[b] -= 1
                    a = self._union(a, b)
                touched.append(base + local)
            elif other_local >= 0:
                # An abbey edge: it closes the neighbour's road or city without extending it.
                open_[find(nbase + other_local)] -= 1
                touched.append(nbase + other_local)
            # Field half-edges: sL meets opposite R and sR meets opposite L.
            for half, other in ((2 * side, 2 * opposite + 1), (2 * side + 1, 2 * opposite)):
                local = half_feature[half]
                if local >= 0:
                    other_local = nvariant.half_feature[other]
                    if other_local >= 0:
                        a = find(base + local)
                        b = find(nbase + other_local)
                        if a != b:
                            self._union(a, b)

        completed: list[int] = []
        for part in touched:
            root = find(part)
            if open_[root] == 0 and root not in completed:
                completed.append(root)
        if len(completed) > 1:  # scoring order is roads, then cities, then monasteries
            kind = self.kind
            completed.sort(key=lambda root: kind[root] != ROAD)
        monasteries = self.monasteries
        if variant.monastery >= 0:
            part = base + variant.monastery
            monasteries[pos] = part
            open_[part] = 8 - sum(1 for d in SURROUNDING if pos + d in board)
        for d in SURROUNDING:
            part = monasteries.get(pos + d)
            if part is not None:
                open_[part] -= 1
                if open_[part] == 0:
                    completed.append(part)
        if variant.monastery >= 0 and open_[base + variant.monastery] == 0:
            completed.append(base + variant.monastery)
        return completed

    def _constrain(self, npos: int, side: int, side_type: int) -> None:
        """Record that the free position npos must show `side_type` on its side `side`."""
        frontier = self.frontier
        frontier[npos] = frontier.get(npos, 0) | (side_type << (2 * side))

    # -- queries ----------------------------------------------------------------------------

    def is_complete(self, root: int) -> bool:
        return self.open[root] == 0 and self.kind[root] != FIELD

    def tile_count(self, root: int) -> int:
        tiles = self.tiles[root]
        return len(tiles) if tiles is not None else 0

    def completed_cities(self, field_root: int) -> set[int]:
        """Roots of the completed cities a field borders (each once)."""
        find = self.find
        open_ = self.open
        roots = {find(c) for c in self.cities[field_root] or ()}
        return {r for r in roots if open_[r] == 0}

    def place_figure(self, part: int) -> None:
        root = self.find(part)
        self.figures[root] = self.figures[root] + (part,)

    def clear_figures(self, root: int) -> tuple[int, ...]:
        parts = self.figures[root]
        self.figures[root] = EMPTY
        return parts

    def parts_on(self, pos: int) -> range:
        """Part ids of the tile at pos."""
        variant, base = self.board[pos]
        return range(base, base + len(variant.features))
