"""Validation of Carcassonne options: every key checked, every error names the option."""

from __future__ import annotations

import functools

from dataclasses import dataclass
from typing import Any

from boardwright.core.errors import InvalidOptionError
from boardwright.core.options import OptionSpec, check_options, check_unknown
from boardwright.games.carcassonne.capabilities.abbey import END_MANDATORY, END_OPTIONS
from boardwright.games.carcassonne.capabilities.wagon import ADJACENCY_OPTIONS, NEARBY
from boardwright.games.carcassonne.scoring import SMALL_CITY_FIRST_EDITION, SMALL_CITY_STANDARD

ABBEY_MAYOR = "abbey_mayor"
EXPANSION_ALIASES = {"abbey_mayor": ABBEY_MAYOR, "abbey_and_mayor": ABBEY_MAYOR}
KNOWN_EXPANSIONS: tuple[str, ...] = (ABBEY_MAYOR,)
MAX_PLAYERS = {False: 5, True: 6}  # without / with Abbey & Mayor (its sixth colour)
MAX_DRAW_ORDER = 500  # keeps every reachable coordinate inside the packed-position range
MAX_PIECES = 20
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


def option_specs(players: int) -> list[OptionSpec]:
    """The options of Carcassonne with `players` seats (docs/rules/carcassonne.md, section 3):
    the one description the options are validated with and the lobby and CLI show."""
    return list(_specs(players))


@functools.lru_cache(maxsize=16)
def _specs(players: int) -> tuple[OptionSpec, ...]:
    """The specs, built once per player count (they are immutable)."""
    am = (("expansions", ABBEY_MAYOR),)

    def count(name: str, what: str) -> OptionSpec:
        return OptionSpec(name, "int", 1, min=0, max=MAX_PIECES, requires=am,
                          label=f"{what.capitalize()} per player",
                          help=f"{what} per player (0 removes them; more than 1 is a variant)")

    return (
        OptionSpec("expansions", "list", (), choices=KNOWN_EXPANSIONS,
                   labels=((ABBEY_MAYOR, "Abbey & Mayor"),), label="Expansions",
                   help="expansions to play with: Abbey & Mayor adds abbeys, mayors, wagons, "
                        "barns, 12 landscape tiles and a sixth colour"),
        OptionSpec("farmers", "bool", True, label="Farmers",
                   help="followers may be laid in fields as farmers, who score at the end"),
        OptionSpec("small_city_scoring", "str", SMALL_CITY_STANDARD,
                   choices=(SMALL_CITY_STANDARD, SMALL_CITY_FIRST_EDITION),
                   labels=((SMALL_CITY_STANDARD, "standard: a 2-tile city scores 4"),
                           (SMALL_CITY_FIRST_EDITION, "first edition: a 2-tile city scores 2")),
                   label="Two-tile cities", help="what a completed city of two tiles scores"),
        OptionSpec("starting_seat", "int", 0, min=0, max=max(players - 1, 0), seat=True,
                   label="First player", help="the seat that takes the first turn"),
        OptionSpec("start_tile", "str", "D", label="Starting tile", advanced=True,
                   help="the name of the tile placed first, at (0, 0): D is the rulebook's"),
        OptionSpec("draw_order", "list", None, max=MAX_DRAW_ORDER, advanced=True,
                   label="Fixed draw pile (tile names)",
                   help="tile names: a fixed draw pile, drawn from the front, instead of a "
                        "shuffled one (puzzles, tests; everyone can read it in the lobby)"),
        OptionSpec("abbey_mayor_tiles", "bool", True, requires=am,
                   label="Abbey & Mayor landscape tiles",
                   help="shuffle the 12 Abbey & Mayor landscape tiles into the pile"),
        count("abbeys", "abbey tiles"),
        count("mayors", "mayors"),
        count("wagons", "wagons"),
        count("barns", "barns"),
        OptionSpec("abbey_end_of_game", "str", END_MANDATORY, choices=END_OPTIONS, requires=am,
                   labels=((END_MANDATORY, "a final round: a placeable abbey must be placed"),
                           ("none", "no final round"),
                           ("voluntary_round", "a final round: each player may pass")),
                   label="Abbeys at the end",
                   help="what happens to abbeys still held when the last tile is down"),
        OptionSpec("wagon_adjacency", "str", NEARBY, choices=ADJACENCY_OPTIONS, requires=am,
                   labels=((NEARBY, "nearby: on its tile or a surrounding one (2nd edition)"),
                           ("connected", "connected: linked to the scored feature (1st edition)")),
                   label="Wagon moves", help="where a wagon may move after its feature scores"),
        OptionSpec("wagon_traverse", "bool", False, requires=am,
                   label="Wagons travel through linked features",
                   help="variant: a wagon may travel through a chain of linked features "
                        "(needs connected wagon adjacency)"),
        OptionSpec("mayor_lies_flat", "bool", False, requires=am, label="Mayor lies flat",
                   help="variant, display only: a mayor in a city without pennants lies flat"),
    )


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
    """Validate raw options against `option_specs`; then what the specs cannot say: the
    expansions' other spelling, the player count they allow, and the tile names a draw order
    may use (base tiles, and expansion tiles when on)."""
    specs = option_specs(players)
    check_unknown(specs, raw, "Carcassonne")
    expansions = _expansions(raw)
    with_am = ABBEY_MAYOR in expansions
    if not 1 <= players <= MAX_PLAYERS[with_am]:
        raise InvalidOptionError(
            f"Carcassonne takes 1 to {MAX_PLAYERS[with_am]} players"
            f"{' with Abbey & Mayor' if with_am else ' (6 with Abbey & Mayor)'}, not {players}")
    for key in EXPANSION_OPTIONS:
        if key in raw and not with_am:
            raise InvalidOptionError(f"option {key!r} needs the {ABBEY_MAYOR!r} expansion "
                                     "(options={'expansions': ['abbey_mayor'], ...})")
    values = check_options(specs, {**raw, "expansions": list(expansions)}, "Carcassonne",
                           own=("start_tile", "draw_order"))
    values["expansions"] = expansions
    if with_am and values["wagon_traverse"] and values["wagon_adjacency"] != "connected":
        raise InvalidOptionError(
            "option 'wagon_traverse' only works with wagon_adjacency = 'connected'")
    tile_names = base_tiles | (expansion_tiles if values.get("abbey_mayor_tiles") else set())
    tile = values["start_tile"]
    if not isinstance(tile, str) or tile not in tile_names:
        raise InvalidOptionError(f"option 'start_tile': unknown tile {tile!r}")
    if values.get("draw_order") is not None:
        order = values["draw_order"]
        if not isinstance(order, (list, tuple)):
            raise InvalidOptionError("option 'draw_order' must be a list of tile names")
        if len(order) > MAX_DRAW_ORDER:
            raise InvalidOptionError(f"option 'draw_order' is longer than {MAX_DRAW_ORDER} tiles")
        for index, tile in enumerate(order):
            if not isinstance(tile, str) or tile not in tile_names:
                raise InvalidOptionError(f"option 'draw_order': unknown tile {tile!r} at #{index}")
        values["draw_order"] = tuple(order)
    return CarcassonneOptions(**values)


# Options that only exist with Abbey & Mayor, with their defaults when it is on (from the specs).
EXPANSION_OPTIONS: dict[str, Any] = {spec.name: spec.default for spec in option_specs(2)
                                     if spec.requires}
