"""Validation of Carcassonne options: every key checked, every error names the option."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardwright.core.errors import InvalidOptionError
from boardwright.games.carcassonne.scoring import SMALL_CITY_FIRST_EDITION, SMALL_CITY_STANDARD

KNOWN_EXPANSIONS: tuple[str, ...] = ()
MIN_PLAYERS, MAX_PLAYERS = 1, 5
MAX_DRAW_ORDER = 500  # keeps every reachable coordinate inside the packed-position range


@dataclass(frozen=True)
class CarcassonneOptions:
    """Validated options with their defaults (see docs/rules/carcassonne.md, Options)."""

    farmers: bool = True
    small_city_scoring: str = SMALL_CITY_STANDARD
    starting_seat: int = 0
    draw_order: tuple[str, ...] | None = None
    start_tile: str = "D"
    expansions: tuple[str, ...] = ()

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
        return data


def parse_options(raw: dict[str, Any], players: int, tile_names: set[str]) -> CarcassonneOptions:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidOptionError(
            f"Carcassonne takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    known = set(CarcassonneOptions.__dataclass_fields__)
    unknown = sorted(set(raw) - known)
    if unknown:
        raise InvalidOptionError(
            f"unknown Carcassonne option(s) {', '.join(map(repr, unknown))}; "
            f"known: {', '.join(sorted(known))}")
    values: dict[str, Any] = {}
    if "farmers" in raw:
        if not isinstance(raw["farmers"], bool):
            raise InvalidOptionError(f"option 'farmers' must be true or false, not {raw['farmers']!r}")
        values["farmers"] = raw["farmers"]
    if "small_city_scoring" in raw:
        value = raw["small_city_scoring"]
        if value not in (SMALL_CITY_STANDARD, SMALL_CITY_FIRST_EDITION):
            raise InvalidOptionError(
                f"option 'small_city_scoring' must be {SMALL_CITY_STANDARD!r} or "
                f"{SMALL_CITY_FIRST_EDITION!r}, not {value!r}")
        values["small_city_scoring"] = value
    if "starting_seat" in raw:
        seat = raw["starting_seat"]
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise InvalidOptionError(
                f"option 'starting_seat' must be a seat from 0 to {players - 1}, not {seat!r}")
        values["starting_seat"] = seat
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
    if "expansions" in raw:
        expansions = raw["expansions"]
        if not isinstance(expansions, (list, tuple)) or not all(isinstance(e, str) for e in expansions):
            raise InvalidOptionError("option 'expansions' must be a list of expansion names")
        for name in expansions:
            if name not in KNOWN_EXPANSIONS:
                raise InvalidOptionError(
                    f"option 'expansions': unknown expansion {name!r}"
                    + (f"; known: {', '.join(KNOWN_EXPANSIONS)}" if KNOWN_EXPANSIONS else
                       "; none is available yet"))
        values["expansions"] = tuple(expansions)
    return CarcassonneOptions(**values)
