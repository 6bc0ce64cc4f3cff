"""The map: 64 provinces of feudal Japan as a graph (SHO-BOARD-01..06), loaded from
`data/map.toml` and validated when it is read.

Spaces are named by id (`"heian"`, `"satsuma"`); inside the engine each also has an index
0..63 in file order, and the precomputed tables (`neighbours`, `dist`) are indexed by it. The
lake is a drawn feature, not a space: naming it where a space is expected is an unknown space
(SHO-BOARD-03). Distances are shortest-path edge counts over the whole graph, ignoring pieces
(SHO-BOARD-05).
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from math import hypot
from typing import Any, Collection, Mapping

from boardwright.core.errors import MalformedActionError
from boardwright.games.shogun.datafile import (
    check_keys, fail, ident, read_data, rows, text, whole,
)

MAP_FILE = "map.toml"
STRAIT_MARK = "*"
FRAME = 1000  # positions lie in a FRAME x FRAME drawing
MAP_KEYS = frozenset(("name", "heian", "no_castle_distance", "no_castle_zone", "checks",
                      "spaces", "straits", "features"))
SPACE_KEYS = frozenset(("id", "name", "island", "region", "x", "y", "degree", "neighbours"))
STRAIT_KEYS = frozenset(("a", "b", "strait", "why"))
FEATURE_KEYS = frozenset(("id", "name", "x", "y", "inside", "effect"))
CHECK_KEYS = frozenset(("spaces", "edges", "land_borders", "straits", "diameter", "min_degree",
                        "max_degree", "islands"))


@dataclass(frozen=True)
class Space:
    """One province. `x`, `y` are for drawing only; `region` is for colours only."""

    id: str
    name: str
    island: str
    region: str
    x: int
    y: int
    index: int


@dataclass(frozen=True)
class Strait:
    """A sea crossing that counts as an ordinary border (content §1.3)."""

    a: str
    b: str
    strait: str
    why: str


@dataclass(frozen=True)
class MapFeature:
    """Something drawn on the map that is not a space, such as Lake Biwa (SHO-BOARD-03)."""

    id: str
    name: str
    x: int
    y: int
    inside: str
    effect: str


class Board:
    """The validated map graph with its distance table. Immutable and shared by all games."""

    __slots__ = ("name", "spaces", "ids", "index", "neighbours", "neighbour_ids", "straits",
                 "strait_pairs", "features", "heian", "no_castle_distance", "no_castle_zone",
                 "dist")

    def __init__(self, name: str, spaces: tuple[Space, ...],
                 neighbours: tuple[tuple[int, ...], ...], straits: tuple[Strait, ...],
                 features: tuple[MapFeature, ...], heian: str, no_castle_distance: int) -> None:
        self.name = name
        self.spaces = spaces
        self.ids: tuple[str, ...] = tuple(s.id for s in spaces)
        self.index: dict[str, int] = {s.id: s.index for s in spaces}
        self.neighbours = neighbours
        self.neighbour_ids: dict[str, tuple[str, ...]] = {
            s.id: tuple(self.ids[n] for n in neighbours[s.index]) for s in spaces}
        self.straits = straits
        self.strait_pairs: frozenset[frozenset[str]] = frozenset(
            frozenset((s.a, s.b)) for s in straits)
        self.features = features
        self.heian = self.index[heian]
        self.dist: tuple[tuple[int, ...], ...] = tuple(_bfs(neighbours, i)
                                                      for i in range(len(spaces)))
        self.no_castle_distance = no_castle_distance
        self.no_castle_zone: frozenset[int] = frozenset(
            i for i in range(len(spaces)) if self.dist[self.heian][i] <= no_castle_distance)

    # -- looking spaces up ---------------------------------------------------------------------

    def space(self, space_id: Any) -> Space:
        """The space with that id; MalformedActionError naming it if there is none (the lake
        included: it is not a space)."""
        index = self.index.get(space_id) if isinstance(space_id, str) else None
        if index is None:
            feature = next((f for f in self.features if f.id == space_id), None)
            if feature is not None or space_id in ("lake", "biwa"):
                name = feature.name if feature else "the lake"
                raise MalformedActionError(f"unknown space {space_id!r}: {name} is drawn on the "
                                           "map but is not a space (SHO-BOARD-03)")
            raise MalformedActionError(f"unknown space {space_id!r}")
        return self.spaces[index]

    def idx(self, space_id: Any) -> int:
        return self.space(space_id).index

    def __contains__(self, space_id: object) -> bool:
        return space_id in self.index

    def __len__(self) -> int:
        return len(self.spaces)

    # -- the graph -----------------------------------------------------------------------------

    def adjacent(self, a: str, b: str) -> bool:
        """Joined by a land border or a strait link (SHO-BOARD-01)."""
        return self.dist[self.idx(a)][self.idx(b)] == 1

    def distance(self, a: str, b: str) -> int:
        """Edges on a shortest path, ignoring every piece (SHO-BOARD-05)."""
        return self.dist[self.idx(a)][self.idx(b)]

    def neighbours_of(self, space_id: str) -> tuple[str, ...]:
        self.space(space_id)
        return self.neighbour_ids[space_id]

    def is_strait(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.strait_pairs

    def within(self, space_id: str, distance: int) -> list[str]:
        """Every space at most `distance` from `space_id` (itself included), in file order."""
        row = self.dist[self.idx(space_id)]
        return [self.ids[i] for i, d in enumerate(row) if d <= distance]

    def in_no_castle_zone(self, space_id: str) -> bool:
        """Within 2 of Heian: no castle may stand there (SHO-BOARD-06)."""
        return self.idx(space_id) in self.no_castle_zone

    def edges(self) -> list[tuple[str, str, str]]:
        """Every edge once, as (a, b, "land" | "strait"), a before b in file order."""
        out = []
        for i, near in enumerate(self.neighbours):
            for j in near:
                if i < j:
                    a, b = self.ids[i], self.ids[j]
                    out.append((a, b, "strait" if self.is_strait(a, b) else "land"))
        return out

    @property
    def diameter(self) -> int:
        return max(max(row) for row in self.dist)

    def to_json(self) -> dict[str, Any]:
        """The map for renderers: spaces with positions, edges, features."""
        return {
            "name": self.name,
            "heian": self.ids[self.heian],
            "spaces": [{"id": s.id, "name": s.name, "island": s.island, "region": s.region,
                        "x": s.x, "y": s.y} for s in self.spaces],
            "edges": [list(e) for e in self.edges()],
            "features": [{"id": f.id, "name": f.name, "x": f.x, "y": f.y, "inside": f.inside}
                         for f in self.features],
            "no_castle_zone": sorted(self.ids[i] for i in self.no_castle_zone),
        }


def _bfs(neighbours: tuple[tuple[int, ...], ...], start: int) -> tuple[int, ...]:
    far = len(neighbours)  # larger than any distance: marks an unreachable space
    dist = [far] * len(neighbours)
    dist[start] = 0
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for near in neighbours[here]:
            if dist[near] == far:
                dist[near] = dist[here] + 1
                queue.append(near)
    return tuple(dist)


class PieceKind(str, Enum):
    """What can stand on a space (SHO-BOARD-04)."""

    CASTLE = "castle"
    SHRINE = "shrine"
    HERO = "hero"
    PEASANT = "peasant"  # an ordinary peasant
    LORD = "lord"  # a roof lord or a court marker, which sit on their castle's space


def may_share(present: Collection[PieceKind], new: PieceKind,
              hero_searching: bool = False) -> bool:
    """Whether `new` may join the pieces `present` on one space (SHO-BOARD-04).

    A space holds at most one castle, shrine, hero or ordinary peasant. A castle's space also
    carries its one lord marker; a hero may stand on a shrine only when it ends its movement
    there to search it (SHO-MOVE-06), which the caller says with `hero_searching`.
    """
    kinds = Counter(present)
    kinds[new] += 1
    if kinds[PieceKind.LORD]:
        return (kinds[PieceKind.LORD] == 1 and kinds[PieceKind.CASTLE] == 1
                and sum(kinds.values()) == 2)
    if sum(kinds.values()) == 1:
        return kinds[PieceKind.LORD] == 0
    return (hero_searching and sum(kinds.values()) == 2
            and kinds[PieceKind.HERO] == 1 and kinds[PieceKind.SHRINE] == 1)


# -- loading and validation -----------------------------------------------------------------------


def parse_map(raw: Any, where: str = f"map file {MAP_FILE}") -> Board:
    """Build a Board from map data, checking everything content §1.5 promises.

    Raises InvalidOptionError naming the entry at fault: an unknown neighbour (the lake
    included), an asymmetric border, a strait mark without its strait, a wrong degree, a
    disconnected graph, or figures that differ from the [checks] table.
    """
    raw = check_keys(raw, where, frozenset(("name", "heian", "spaces")), MAP_KEYS)
    name = text(raw, "name", where)
    features: list[MapFeature] = []
    for row in raw.get("features", []):
        entry = check_keys(row, f"{where}, feature", FEATURE_KEYS, frozenset())
        fwhere = f"{where}, feature {entry.get('id')!r}"
        features.append(MapFeature(ident(entry, "id", fwhere), text(entry, "name", fwhere),
                                   whole(entry, "x", fwhere, 0, FRAME),
                                   whole(entry, "y", fwhere, 0, FRAME),
                                   ident(entry, "inside", fwhere),
                                   text(entry, "effect", fwhere, empty=True)))
    feature_ids = {f.id for f in features}
    spaces: list[Space] = []
    raw_neighbours: list[list[tuple[str, bool]]] = []
    degrees: list[int] = []
    for row in rows(raw, "spaces", where):
        sid = row.get("id") if isinstance(row, Mapping) else None
        swhere = f"{where}, space {sid!r}"
        entry = check_keys(row, swhere, SPACE_KEYS)
        sid = ident(entry, "id", swhere)
        if sid in feature_ids:
            raise fail(swhere, f"{sid!r} is a map feature, which is not a space (SHO-BOARD-03)")
        if any(s.id == sid for s in spaces):
            raise fail(swhere, "the id is listed twice")
        spaces.append(Space(sid, text(entry, "name", swhere), ident(entry, "island", swhere),
                            text(entry, "region", swhere), whole(entry, "x", swhere, 0, FRAME),
                            whole(entry, "y", swhere, 0, FRAME), len(spaces)))
        degrees.append(whole(entry, "degree", swhere, 1, 99))
        listed = entry["neighbours"]
        if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
            raise fail(swhere, "'neighbours' must be a list of space ids")
        raw_neighbours.append([(n.rstrip(STRAIT_MARK), n.endswith(STRAIT_MARK))
                               for n in listed])
    index = {s.id: s.index for s in spaces}
    neighbours: list[tuple[int, ...]] = []
    marked: set[frozenset[str]] = set()
    for space, listed, degree in zip(spaces, raw_neighbours, degrees, strict=True):
        swhere = f"{where}, space {space.id!r}"
        ids = [n for n, _ in listed]
        for n, strait in listed:
            if n in feature_ids:
                raise fail(swhere, f"neighbour {n!r} is a map feature, not a space "
                           "(SHO-BOARD-03)")
            if n not in index:
                raise fail(swhere, f"unknown neighbour {n!r}")
            if n == space.id:
                raise fail(swhere, "a space cannot neighbour itself")
            if strait:
                marked.add(frozenset((space.id, n)))
        if len(set(ids)) != len(ids):
            raise fail(swhere, "a neighbour is listed twice")
        if degree != len(ids):
            raise fail(swhere, f"'degree' is {degree} but {len(ids)} neighbours are listed")
        neighbours.append(tuple(index[n] for n in ids))
    for space, listed in zip(spaces, raw_neighbours, strict=True):
        for n, strait in listed:
            back = dict(raw_neighbours[index[n]])
            if space.id not in back:
                raise fail(where, f"adjacency is not symmetric: {space.id} lists {n}, but {n} "
                           f"does not list {space.id}")
            if back[space.id] != strait:
                raise fail(where, f"the strait mark of {space.id}-{n} differs between the two "
                           "spaces")
    straits: list[Strait] = []
    for row in raw.get("straits", []):
        entry = check_keys(row, f"{where}, strait", STRAIT_KEYS)
        twhere = f"{where}, strait {entry.get('a')!r}-{entry.get('b')!r}"
        strait = Strait(ident(entry, "a", twhere), ident(entry, "b", twhere),
                        text(entry, "strait", twhere), text(entry, "why", twhere, empty=True))
        pair = frozenset((strait.a, strait.b))
        if pair not in marked:
            raise fail(twhere, "the two spaces are not listed as strait neighbours (with '*')")
        if any(frozenset((s.a, s.b)) == pair for s in straits):
            raise fail(twhere, "the strait is listed twice")
        straits.append(strait)
    missing = marked - {frozenset((s.a, s.b)) for s in straits}
    if missing:
        pairs = ", ".join("-".join(sorted(p)) for p in sorted(missing, key=sorted))
        raise fail(where, f"strait mark(s) without an entry in [[straits]]: {pairs}")
    for feature in features:
        if feature.inside not in index:
            raise fail(f"{where}, feature {feature.id!r}", f"'inside' names unknown space "
                       f"{feature.inside!r}")
    heian = ident(raw, "heian", where)
    if heian not in index:
        raise fail(where, f"'heian' names unknown space {heian!r}")
    zone_distance = whole(raw, "no_castle_distance", where, 0, 99) \
        if "no_castle_distance" in raw else 2
    board = Board(name, tuple(spaces), tuple(neighbours), tuple(straits), tuple(features),
                  heian, zone_distance)
    unreachable = [board.ids[i] for i, d in enumerate(board.dist[0]) if d >= len(spaces)]
    if unreachable:
        raise fail(where, f"the map is not connected: {', '.join(unreachable)} cannot be "
                   f"reached from {board.ids[0]}")
    if "no_castle_zone" in raw:
        listed_zone = raw["no_castle_zone"]
        zone = {board.ids[i] for i in board.no_castle_zone}
        if not isinstance(listed_zone, list) or set(listed_zone) != zone \
                or len(set(listed_zone)) != len(listed_zone):
            raise fail(where, "'no_castle_zone' must list exactly the spaces within "
                       f"{zone_distance} of {heian}: "
                       f"{', '.join(board.ids[i] for i in sorted(board.no_castle_zone))}")
    if "checks" in raw:
        _check_figures(board, raw["checks"], where)
    return board


def _check_figures(board: Board, raw: Any, where: str) -> None:
    """Compare the map with the figures its file states (content §1.5)."""
    checks = check_keys(raw, f"{where}, [checks]", frozenset(), CHECK_KEYS)
    edges = board.edges()
    degrees = [len(n) for n in board.neighbours]
    actual = {
        "spaces": len(board),
        "edges": len(edges),
        "land_borders": sum(1 for e in edges if e[2] == "land"),
        "straits": sum(1 for e in edges if e[2] == "strait"),
        "diameter": board.diameter,
        "min_degree": min(degrees),
        "max_degree": max(degrees),
        "islands": dict(Counter(s.island for s in board.spaces)),
    }
    for key, wanted in checks.items():
        if actual[key] != wanted:
            raise fail(where, f"the map has {key} = {actual[key]}, its [checks] say {wanted}")


def min_separation(board: Board) -> float:
    """The smallest drawing distance between two spaces (content §1.1: at least 31)."""
    return min(hypot(a.x - b.x, a.y - b.y)
               for i, a in enumerate(board.spaces) for b in board.spaces[i + 1:])


@lru_cache(maxsize=None)
def load_board() -> Board:
    """The map shipped in data/map.toml (cached: a Board is immutable)."""
    return parse_map(read_data(MAP_FILE))
