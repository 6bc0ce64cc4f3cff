"""Validation of Queens options: every key checked, every error names the option.

Options (docs/rules/queens.md, Options):
- `map`: `"default"` (the map of QUE-BOARD-04, shipped as data) or a map given inline as an
  object with the keys of the data file (`radius`, `mountains`, `setup`, optional `name`);
- `position`: a starting position to play from instead of the set-up (puzzles, studies, tests).

The player count (2 standard, 3-4 optional: QUE-COMP-01, QUE-SETUP-04) is checked against the
set-ups the map defines.
"""

from __future__ import annotations

import functools

from dataclasses import dataclass
from typing import Any

from boardwright.core.errors import InvalidOptionError
from boardwright.core.options import OptionSpec, check_unknown
from boardwright.games.queens.maps import DEFAULT_MAP, MAP_FILES, MapSpec, load_map, parse_map
from boardwright.games.queens.position import Position, parse_position, standard_position



def option_specs(players: int) -> list[OptionSpec]:
    """The options of Queens & Princes (the module's docstring): the one description the
    options are validated with and the lobby and CLI show. A map may also be given inline as
    an object, and a position is an object: the game checks their content."""
    return list(_specs(players))


@functools.lru_cache(maxsize=16)
def _specs(players: int) -> tuple[OptionSpec, ...]:
    """The specs, built once per player count (they are immutable)."""
    return (
        OptionSpec("map", "str", DEFAULT_MAP, choices=tuple(MAP_FILES), label="Map",
                   labels=((DEFAULT_MAP, "standard map"),),
                   help="the map: a shipped one by name (the standard hex map), or through the "
                        "API or CLI a map object (radius, mountains, setup)"),
        OptionSpec("position", "object", None, advanced=True, label="Starting position",
                   help="a starting position to play from instead of the set-up (puzzles, "
                        "studies, tests)"),
    )


KNOWN_OPTIONS = tuple(spec.name for spec in option_specs(2))


@dataclass(frozen=True)
class QueensOptions:
    """Validated options: the map (by name or inline) and the starting position."""

    map: MapSpec
    map_name: str | None  # the data file's name, or None for an inline map
    position: Position
    custom_position: bool

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"map": self.map_name if self.map_name else self.map.to_json()}
        if self.custom_position:
            data["position"] = self.position.to_json()
        return data


def parse_options(raw: dict[str, Any], players: int) -> QueensOptions:
    check_unknown(option_specs(players), raw, "Queens")
    map_raw = raw.get("map", DEFAULT_MAP)
    if isinstance(map_raw, str):
        spec, name = load_map(map_raw), map_raw
    elif isinstance(map_raw, dict):
        spec, name = parse_map(map_raw), None
    else:
        raise InvalidOptionError(f"option 'map' must be a map name ({DEFAULT_MAP!r}) or a map "
                                 f"object, not {map_raw!r}")
    if players not in spec.player_counts:
        counts = ", ".join(map(str, spec.player_counts))
        raise InvalidOptionError(f"Queens takes {counts} players on map {spec.name!r}, "
                                 f"not {players!r}")
    position_raw = raw.get("position")
    if position_raw is None:
        return QueensOptions(spec, name, standard_position(spec, players), False)
    return QueensOptions(spec, name, parse_position(position_raw, spec, players), True)
