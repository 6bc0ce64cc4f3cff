"""Maps are data: a radius, the mountain spaces and the set-up layout (QUE-BOARD-04/05).

The default map ships as `data/default_map.toml`; another map can be given inline in the
`map` option with the same keys. Either way it is validated here before any game uses it, and
every error names the map and the faulty entry.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from boardwright.core.errors import InvalidOptionError
from boardwright.games.queens.board import Coord, SeatLayout, on_board, rotate

DEFAULT_MAP = "default"
MAP_FILES = {DEFAULT_MAP: "default_map.toml"}
MIN_RADIUS, MAX_RADIUS = 3, 10
PRINCES_PER_PLAYER = 4
PLAYER_COUNTS = (2, 3, 4)
MAP_KEYS = frozenset(("name", "radius", "mountains", "setup"))
SETUP_KEYS = frozenset(("queen_and_city", "princes", "seat_rotations"))


@dataclass(frozen=True)
class MapSpec:
    """A validated map: terrain, and each seat's set-up layout per player count."""

    name: str
    radius: int
    mountains: tuple[Coord, ...]
    queen_and_city: Coord
    princes: tuple[Coord, ...]
    seat_rotations: tuple[tuple[int, tuple[int, ...]], ...]  # (players, rotation per seat)

    def rotations(self, players: int) -> tuple[int, ...] | None:
        return dict(self.seat_rotations).get(players)

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(n for n, _ in self.seat_rotations)

    def layouts(self, players: int) -> list[SeatLayout]:
        """Each seat's starting layout: seat 0's turned by that seat's rotation (QUE-SETUP-04)."""
        steps = self.rotations(players)
        if steps is None:
            raise InvalidOptionError(f"map {self.name!r} has no set-up for {players} players")
        return [SeatLayout(rotate(self.queen_and_city, k), tuple(rotate(p, k) for p in self.princes))
                for k in steps]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "radius": self.radius,
            "mountains": [list(c) for c in self.mountains],
            "setup": {
                "queen_and_city": list(self.queen_and_city),
                "princes": [list(p) for p in self.princes],
                "seat_rotations": {str(n): list(ks) for n, ks in self.seat_rotations},
            },
        }


def _coord(value: Any, what: str, where: str, radius: int) -> Coord:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(type(v) is int for v in value)):
        raise InvalidOptionError(f"map {where}: {what} must be a pair of integers [q, r], "
                                 f"not {value!r}")
    coord = (value[0], value[1])
    if not on_board(coord, radius):
        raise InvalidOptionError(f"map {where}: {what} {list(coord)} is off a board of radius "
                                 f"{radius}")
    return coord


def parse_map(raw: Any, where: str = "option") -> MapSpec:
    """Validate map data (from a data file or the `map` option); InvalidOptionError if bad."""
    if not isinstance(raw, dict):
        raise InvalidOptionError(f"map {where}: must be a table/object with keys "
                                 f"{', '.join(sorted(MAP_KEYS))}")
    unknown = sorted(set(raw) - MAP_KEYS)
    if unknown:
        raise InvalidOptionError(f"map {where}: unknown key(s) {', '.join(map(repr, unknown))}; "
                                 f"known: {', '.join(sorted(MAP_KEYS))}")
    name = raw.get("name", "custom")
    if not isinstance(name, str) or not name:
        raise InvalidOptionError(f"map {where}: 'name' must be a non-empty string")
    where = f"{name!r}" if where == "option" else where
    radius = raw.get("radius")
    if type(radius) is not int or not MIN_RADIUS <= radius <= MAX_RADIUS:
        raise InvalidOptionError(f"map {where}: 'radius' must be a whole number from "
                                 f"{MIN_RADIUS} to {MAX_RADIUS}, not {radius!r}")
    mountains_raw = raw.get("mountains", [])
    if not isinstance(mountains_raw, (list, tuple)):
        raise InvalidOptionError(f"map {where}: 'mountains' must be a list of [q, r] pairs")
    mountains = [_coord(m, "mountain", where, radius) for m in mountains_raw]
    if len(set(mountains)) != len(mountains):
        raise InvalidOptionError(f"map {where}: a mountain is listed twice")
    setup = raw.get("setup")
    if not isinstance(setup, dict):
        raise InvalidOptionError(f"map {where}: 'setup' must be a table with keys "
                                 f"{', '.join(sorted(SETUP_KEYS))}")
    unknown = sorted(set(setup) - SETUP_KEYS)
    if unknown or not SETUP_KEYS <= set(setup):
        raise InvalidOptionError(f"map {where}: 'setup' needs exactly the keys "
                                 f"{', '.join(sorted(SETUP_KEYS))}")
    queen = _coord(setup["queen_and_city"], "setup queen_and_city", where, radius)
    princes_raw = setup["princes"]
    if not isinstance(princes_raw, (list, tuple)) or len(princes_raw) != PRINCES_PER_PLAYER:
        raise InvalidOptionError(f"map {where}: setup 'princes' must list "
                                 f"{PRINCES_PER_PLAYER} spaces")
    princes = tuple(_coord(p, "setup prince", where, radius) for p in princes_raw)
    if len(set(princes) | {queen}) != PRINCES_PER_PLAYER + 1:
        raise InvalidOptionError(f"map {where}: the set-up Queen and Princes need "
                                 f"{PRINCES_PER_PLAYER + 1} different spaces")
    rotations_raw = setup["seat_rotations"]
    if not isinstance(rotations_raw, dict) or not rotations_raw:
        raise InvalidOptionError(f"map {where}: 'seat_rotations' must map player counts to "
                                 "lists of rotations")
    rotations: list[tuple[int, tuple[int, ...]]] = []
    for key, steps in rotations_raw.items():
        try:
            players = int(key)
        except (TypeError, ValueError):
            players = -1
        if players not in PLAYER_COUNTS:
            raise InvalidOptionError(f"map {where}: seat_rotations key {key!r} is not a player "
                                     f"count ({', '.join(map(str, PLAYER_COUNTS))})")
        if (not isinstance(steps, (list, tuple)) or len(steps) != players
                or not all(type(k) is int and 0 <= k <= 5 for k in steps)
                or len(set(steps)) != players):
            raise InvalidOptionError(f"map {where}: seat_rotations for {players} players must "
                                     f"list {players} different rotations from 0 to 5")
        occupied = [rotate(c, k) for k in steps for c in (queen, *princes)]
        if not all(on_board(c, radius) for c in occupied) or len(set(occupied)) != len(occupied):
            raise InvalidOptionError(f"map {where}: the set-up for {players} players puts pieces "
                                     "off the board or two on one space")
        rotations.append((players, tuple(steps)))
    return MapSpec(name=name, radius=radius, mountains=tuple(mountains), queen_and_city=queen,
                   princes=princes, seat_rotations=tuple(sorted(rotations)))


@lru_cache(maxsize=None)
def load_map(name: str) -> MapSpec:
    """A map shipped in `data/` (cached: maps are immutable)."""
    if name not in MAP_FILES:
        raise InvalidOptionError(f"unknown map {name!r}; known: {', '.join(sorted(MAP_FILES))} "
                                 "(or give a map table inline)")
    filename = MAP_FILES[name]
    data = resources.files("boardwright.games.queens").joinpath("data").joinpath(filename)
    try:
        raw = tomllib.loads(data.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise InvalidOptionError(f"map file {filename} cannot be read: {exc}") from None
    return parse_map(raw, where=f"file {filename}")
