"""Tile geometry: loading tile data and precomputing every rotation once per process.

Everything here is static and shared by all states: a state refers to `TileVariant` objects
and never copies them. Sides are indexed N=0 E=1 S=2 W=3 and field half-edges
NL=0 NR=1 EL=2 ER=3 SL=4 SR=5 WL=6 WR=7, so a clockwise quarter turn adds 1 to a side index
and 2 to a half-edge index.
"""

from __future__ import annotations

import tomllib
from itertools import combinations
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

SIDES = ("N", "E", "S", "W")
HALVES = ("NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR")
INTERNAL = ("IN1", "IN2")
CORNERS = ("NW", "NE", "SE", "SW")
# A corner is where two half-edges meet: NW = WR + NL, NE = NR + EL, SE = ER + SL, SW = SR + WL.
CORNER_HALVES = ((7, 0), (1, 2), (3, 4), (5, 6))
MONASTERY_LOCATION = "MONASTERY"

CITY, ROAD, FIELD, MONASTERY = 0, 1, 2, 3
KIND_NAMES = ("city", "road", "field", "monastery")
KIND_BY_NAME = {name: index for index, name in enumerate(KIND_NAMES)}

# Side types used for matching; 0 means "no tile there" in frontier patterns.
NO_SIDE, CITY_SIDE, ROAD_SIDE, FIELD_SIDE = 0, 1, 2, 3
SIDE_TYPE_NAMES = ("none", "city", "road", "field")


@dataclass(frozen=True)
class Feature:
    """One feature part of a tile variant, in board orientation."""

    index: int
    kind: int
    sides: tuple[int, ...]  # city/road: side indexes
    halves: tuple[int, ...]  # field: half-edge indexes
    internal: tuple[str, ...]  # field touching no edge: IN1 / IN2
    pennants: int
    borders: tuple[int, ...]  # field: indexes of bordered city features of the same tile
    location: str


@dataclass(frozen=True)
class TileVariant:
    """A tile type turned by `rotation` degrees clockwise; all lookups precomputed."""

    tile: str
    rotation: int
    features: tuple[Feature, ...]
    side_types: tuple[int, int, int, int]
    side_feature: tuple[int, int, int, int]  # local feature on each side, -1 for fields
    half_feature: tuple[int, ...]  # local field on each half-edge, -1 if none
    monastery: int  # local index of the monastery, -1 if none
    field_corners: frozenset[str]
    links: tuple[tuple[int, int], ...]  # first-edition within-tile links between features
    abbey: bool  # an abbey: its edges close what faces them and it has no field
    location_index: dict[str, int] = field(hash=False, compare=False)


@dataclass(frozen=True)
class TileType:
    """A tile letter with its count and its four variants."""

    name: str
    abbey: bool
    count: int
    description: str
    variants: tuple[TileVariant, TileVariant, TileVariant, TileVariant]
    canonical: tuple[int, int, int, int]  # quarter turn -> first equivalent quarter turn
    distinct: tuple[int, ...]  # quarter turns offered to players
    fits: tuple[tuple[int, ...], ...]  # frontier pattern (0..255) -> fitting distinct quarter turns


def location_name(kind: int, sides: tuple[int, ...], halves: tuple[int, ...],
                  internal: tuple[str, ...]) -> str:
    if kind == MONASTERY:
        return MONASTERY_LOCATION
    names = [SIDES[s] for s in sides] + [HALVES[h] for h in halves] + list(internal)
    return ".".join(sorted(names))


def _variant(name: str, spec: dict, quarter: int) -> TileVariant:
    raw_features: list[dict] = spec["features"]
    abbey = bool(spec.get("abbey", False))
    ids = [f["id"] for f in raw_features]
    features: list[Feature] = []
    side_feature = [-1, -1, -1, -1]
    side_types = [NO_SIDE if abbey else FIELD_SIDE] * 4
    half_feature = [-1] * 8
    monastery = -1
    for index, raw in enumerate(raw_features):
        kind = KIND_BY_NAME[raw["kind"]]
        sides: tuple[int, ...] = ()
        halves: tuple[int, ...] = ()
        internal: tuple[str, ...] = ()
        if kind in (CITY, ROAD):
            sides = tuple(sorted((SIDES.index(e) + quarter) % 4 for e in raw["edges"]))
            for s in sides:
                side_feature[s] = index
                side_types[s] = CITY_SIDE if kind == CITY else ROAD_SIDE
        elif kind == FIELD:
            edges = raw["edges"]
            internal = tuple(e for e in edges if e in INTERNAL)
            halves = tuple(sorted((HALVES.index(e) + 2 * quarter) % 8
                                  for e in edges if e not in INTERNAL))
            for h in halves:
                half_feature[h] = index
        else:
            monastery = index
        borders = tuple(ids.index(b) for b in raw.get("borders", ()))
        features.append(Feature(index, kind, sides, halves, internal, raw.get("pennants", 0),
                                borders, location_name(kind, sides, halves, internal)))
    corners = frozenset(
        CORNERS[c] for c, (a, b) in enumerate(CORNER_HALVES)
        if half_feature[a] >= 0 and half_feature[a] == half_feature[b]
    )
    return TileVariant(
        tile=name, rotation=90 * quarter, features=tuple(features),
        side_types=tuple(side_types), side_feature=tuple(side_feature),  # type: ignore[arg-type]
        half_feature=tuple(half_feature), monastery=monastery, field_corners=corners,
        links=tuple((ids.index(a), ids.index(b)) for group in spec.get("links", ())
                    for a, b in combinations(group, 2)), abbey=abbey,
        location_index={f.location: f.index for f in features},
    )


def _signature(variant: TileVariant) -> tuple:
    return tuple(sorted(
        (f.kind, f.location, f.pennants, tuple(sorted(variant.features[b].location for b in f.borders)))
        for f in variant.features
    ))


def _fits(variant: TileVariant, pattern: int) -> bool:
    for s in range(4):
        need = (pattern >> (2 * s)) & 3
        if need and variant.side_types[s] != need:
            return False
    return True


def build_tile_type(name: str, raw: dict) -> TileType:
    variants = tuple(_variant(name, raw, q) for q in range(4))
    signatures = [_signature(v) for v in variants]
    canonical = tuple(signatures.index(sig) for sig in signatures)
    distinct = tuple(sorted(set(canonical)))
    fits = tuple(
        tuple(q for q in distinct if _fits(variants[q], pattern)) for pattern in range(256)
    )
    return TileType(name, variants[0].abbey, raw["count"], raw.get("description", ""),
                    variants,  # type: ignore[arg-type]
                    canonical, distinct, fits)


@dataclass(frozen=True)
class TileSet:
    """The tile types of one data file, in file order."""

    name: str
    start_tile: str | None
    types: dict[str, TileType]


@lru_cache(maxsize=None)
def load_tile_set(filename: str) -> TileSet:
    """Read a tile data file shipped in `data/` (cached: tiles are immutable)."""
    text = resources.files("boardwright.games.carcassonne").joinpath("data").joinpath(filename).read_bytes()
    raw = tomllib.loads(text.decode("utf-8"))
    types = {name: build_tile_type(name, spec) for name, spec in raw["tiles"].items()}
    return TileSet(raw.get("set", filename), raw.get("start_tile"), types)
