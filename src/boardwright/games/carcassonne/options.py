"""Validation of Carcassonne options: every key checked, every error names the option."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from boardwright.core.errors import InvalidOptionError
from boardwright.games.carcassonne.capabilities.abbey import END_MANDATORY, END_OPTIONS
from boardwright.games.carcassonne.capabilities.wagon import ADJACENCY_OPTIONS, NEARBY
from boardwright.games.carcassonne.scoring import SMALL_CITY_FIRST_EDITION, SMALL_CITY_STANDARD

ABBEY_MAYOR = "abbey_mayor"
EXPANSION_ALIASES = {"abbey_mayor": ABBEY_MAYOR, "abbey_and_mayor": ABBEY_MAYOR}
KNOWN_EXPANSIONS: tuple[str, ...] = (ABBEY_MAYOR,)
MAX_PLAYERS = {False: 5, True: 6}  # without / with Abbey & Mayor (its sixth colour)
MAX_DRAW_ORDER = 500  # keeps every reachable coordinate inside the packed-position range
MAX_PIECES = 20
# Options that only exist with Abbey & Mayor, with their defaults when it is on.
EXPANSION_OPTIONS: dict[str, Any] = {
    "abbey_mayor_tiles": True, "abbeys": 1, "mayors": 1, "wagons": 1, "barns": 1,
    "abbey_end_of_game": END_MANDATORY, "wagon_adjacency": NEARBY, "wagon_traverse": False,
    "mayor_lies_flat": False,
}


@dataclass(frozen=True)
class CarcassonneOptions:
    """Validated options with their defaults (see docs/rules/carcassonne.md, Options)."""

    farmers: bool = True
    small_city_scoring: str = SMALL_CITY_STANDARD
    starting_seat: int = 0
    draw_order: tuple[str, ...] | None = None
    start_tile: str = "D"
    expansions: tuple[str, ...] = ()
    # Abbey & Mayor (zero / off unless the expansion is on)
    abbey_mayor_tiles: bool = False
    abbeys: int = 0
    mayors: int = 0
    wagons: int = 0
    barns: int = 0
    abbey_end_of_game: str = END_MANDATORY
    wagon_adjacency: str = NEARBY
    wagon_traverse: bool = False
    mayor_lies_flat: bool = False

    @property
    def abbey_mayor(self) -> bool:
        return ABBEY_MAYOR in self.expansions

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "farmers": self.farmers,
            "small_city_scoring": self.small_city_scoring,
            "starting_seat": self.starting_seat,
            "start_tile": self.start_tile,
            "expansions": list(self.expansions),
        }
        if self.draw_order is not None:
            data["draw_order"] = list(self.draw_order)
        if self.abbey_mayor:
            data.update({key: getattr(self, key) for key in EXPANSION_OPTIONS})
        return data


def _bool(raw: dict[str, Any], key: str) -> bool:
    if not isinstance(raw[key], bool):
        raise InvalidOptionError(f"option {key!r} must be true or false, not {raw[key]!r}")
    return raw[key]


def _choice(raw: dict[str, Any], key: str, choices: tuple[str, ...]) -> str:
    if raw[key] not in choices:
        raise InvalidOptionError(
            f"option {key!r} must be one of {', '.join(map(repr, choices))}, not {raw[key]!r}")
    return raw[key]


def _count(raw: dict[str, Any], key: str) -> int:
    value = raw[key]
    if type(value) is not int or not 0 <= value <= MAX_PIECES:
        raise InvalidOptionError(f"option {key!r} must be a whole number from 0 to {MAX_PIECES}, "
                                 f"not {value!r}")
    return value


def _expansions(raw: dict[str, Any]) -> tuple[str, ...]:
    expansions = raw.get("expansions", [])
    if not isinstance(expansions, (list, tuple)) or not all(isinstance(e, str) for e in expansions):
        raise InvalidOptionError("option 'expansions' must be a list of expansion names")
    names = []
    for name in expansions:
        if name not in EXPANSION_ALIASES:
            raise InvalidOptionError(f"option 'expansions': unknown expansion {name!r}; "
                                     f"known: {', '.join(KNOWN_EXPANSIONS)}")
        if EXPANSION_ALIASES[name] not in names:
            names.append(EXPANSION_ALIASES[name])
    return tuple(names)


def parse_options(raw: dict[str, Any], players: int, base_tiles: set[str],
                  expansion_tiles: set[str]) -> CarcassonneOptions:
    """Validate raw options; a draw order may name base tiles, and expansion tiles when on."""
    known = {f.name for f in fields(CarcassonneOptions)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise InvalidOptionError(
            f"unknown Carcassonne option(s) {', '.join(map(repr, unknown))}; "
            f"known: {', '.join(sorted(known))}")
    expansions = _expansions(raw)
    with_am = ABBEY_MAYOR in expansions
    if not 1 <= players <= MAX_PLAYERS[with_am]:
        raise InvalidOptionError(
            f"Carcassonne takes 1 to {MAX_PLAYERS[with_am]} players"
            f"{' with Abbey & Mayor' if with_am else ' (6 with Abbey & Mayor)'}, not {players}")
    values: dict[str, Any] = {"expansions": expansions}
    if "farmers" in raw:
        values["farmers"] = _bool(raw, "farmers")
    if "small_city_scoring" in raw:
        values["small_city_scoring"] = _choice(
            raw, "small_city_scoring", (SMALL_CITY_STANDARD, SMALL_CITY_FIRST_EDITION))
    if "starting_seat" in raw:
        seat = raw["starting_seat"]
        if type(seat) is not int or not 0 <= seat < players:
            raise InvalidOptionError(
                f"option 'starting_seat' must be a seat from 0 to {players - 1}, not {seat!r}")
        values["starting_seat"] = seat
    for key, default in EXPANSION_OPTIONS.items():
        if key in raw and not with_am:
            raise InvalidOptionError(f"option {key!r} needs the {ABBEY_MAYOR!r} expansion "
                                     "(options={'expansions': ['abbey_mayor'], ...})")
        if not with_am:
            continue
        if key not in raw:
            values[key] = default
        elif isinstance(default, bool):
            values[key] = _bool(raw, key)
        elif isinstance(default, int):
            values[key] = _count(raw, key)
    if with_am:
        if "abbey_end_of_game" in raw:
            values["abbey_end_of_game"] = _choice(raw, "abbey_end_of_game", END_OPTIONS)
        if "wagon_adjacency" in raw:
            values["wagon_adjacency"] = _choice(raw, "wagon_adjacency", ADJACENCY_OPTIONS)
        if values["wagon_traverse"] and values["wagon_adjacency"] != "connected":
            raise InvalidOptionError(
                "option 'wagon_traverse' only works with wagon_adjacency = 'connected'")
    tile_names = base_tiles | (expansion_tiles if values.get("abbey_mayor_tiles") else set())
    if "start_tile" in raw:
        tile = raw["start_tile"]
        if not isinstance(tile, str) or tile not in tile_names:
            raise InvalidOptionError(f"option 'start_tile': unknown tile {tile!r}")
        values["start_tile"] = tile
    if raw.get("draw_order") is not None:
        order = raw["draw_order"]
        if not isinstance(order, (list, tuple)):
            raise InvalidOptionError("option 'draw_order' must be a list of tile names")
        if len(order) > MAX_DRAW_ORDER:
            raise InvalidOptionError(f"option 'draw_order' is longer than {MAX_DRAW_ORDER} tiles")
        for index, tile in enumerate(order):
            if not isinstance(tile, str) or tile not in tile_names:
                raise InvalidOptionError(f"option 'draw_order': unknown tile {tile!r} at #{index}")
        values["draw_order"] = tuple(order)
    return CarcassonneOptions(**values)
