"""Starting positions: the standard set-up, or a position given as data.

A new game starts from a `Position`. Normally it is the set-up of QUE-SETUP-01/02/04, built
from the map's layout; the `position` option can instead give any position that respects the
rules on what may share a space (for puzzles, studies and the rule tests' "custom positions").
Because the position is an option, it is part of the game record, so such games replay too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardwright.core.errors import InvalidOptionError
from boardwright.games.queens.board import Coord, on_board
from boardwright.games.queens.maps import PRINCES_PER_PLAYER, MapSpec

CITIES_PER_PLAYER = 3  # QUE-COMP-02: the starting City plus 2 in supply
FIELDS_PER_PLAYER = 10
START_CITY_SUPPLY = CITIES_PER_PLAYER - 1  # QUE-SETUP-02
MAX_ROUNDS = 50  # QUE-END-03
MAX_STACK = 2  # QUE-COMP-04 / QUE-DUO-01
SEAT_KEYS = frozenset(("queen", "princes", "cities", "fields", "city_supply", "field_supply",
                       "eliminated"))
POSITION_KEYS = frozenset(("seats", "to_play", "round", "final_round"))


@dataclass(frozen=True)
class SeatPosition:
    """One player's pieces on the board and in supply."""

    queen: Coord | None
    princes: tuple[Coord, ...] = ()  # a space listed twice is a stack of two Princes
    cities: tuple[Coord, ...] = ()
    fields: tuple[Coord, ...] = ()
    city_supply: int = START_CITY_SUPPLY
    field_supply: int = FIELDS_PER_PLAYER
    eliminated: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "queen": None if self.queen is None else list(self.queen),
            "princes": [list(c) for c in self.princes],
            "cities": [list(c) for c in self.cities],
            "fields": [list(c) for c in self.fields],
            "city_supply": self.city_supply,
            "field_supply": self.field_supply,
            "eliminated": self.eliminated,
        }


@dataclass(frozen=True)
class Position:
    """A whole position: every seat, who is to play, the round and the final-round flag."""

    seats: tuple[SeatPosition, ...]
    to_play: int = 0
    round: int = 1
    final_round: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"seats": [s.to_json() for s in self.seats], "to_play": self.to_play,
                "round": self.round, "final_round": self.final_round}


def standard_position(spec: MapSpec, players: int) -> Position:
    """The set-up: each Queen on her City, four Princes around her, full supplies."""
    return Position(tuple(
        SeatPosition(queen=layout.queen, princes=layout.princes, cities=(layout.queen,))
        for layout in spec.layouts(players)))


# -- reading a position from the option ---------------------------------------------------------

def _fail(message: str) -> InvalidOptionError:
    return InvalidOptionError(f"option 'position': {message}")


def _coord(value: Any, what: str, radius: int) -> Coord:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(type(v) is int for v in value)):
        raise _fail(f"{what} must be a pair of integers [q, r], not {value!r}")
    coord = (value[0], value[1])
    if not on_board(coord, radius):
        raise _fail(f"{what} {list(coord)} is off the board")
    return coord


def _coords(raw: dict, key: str, what: str, radius: int) -> tuple[Coord, ...]:
    value = raw.get(key, [])
    if not isinstance(value, (list, tuple)):
        raise _fail(f"{what} must be a list of [q, r] pairs")
    return tuple(_coord(v, what, radius) for v in value)


def _count(raw: dict, key: str, default: int, limit: int, seat: str) -> int:
    value = raw.get(key, default)
    if type(value) is not int or not 0 <= value <= limit:
        raise _fail(f"{seat} {key} must be a whole number from 0 to {limit}, not {value!r}")
    return value


def _seat(raw: Any, index: int, default_queen: Coord, spec: MapSpec) -> SeatPosition:
    seat = f"seat {index}"
    if not isinstance(raw, dict):
        raise _fail(f"{seat} must be an object with keys {', '.join(sorted(SEAT_KEYS))}")
    unknown = sorted(set(raw) - SEAT_KEYS)
    if unknown:
        raise _fail(f"{seat} has unknown key(s) {', '.join(map(repr, unknown))}; "
                    f"known: {', '.join(sorted(SEAT_KEYS))}")
    eliminated = raw.get("eliminated", False)
    if not isinstance(eliminated, bool):
        raise _fail(f"{seat} eliminated must be true or false")
    radius = spec.radius
    if "queen" in raw:
        queen = None if raw["queen"] is None else _coord(raw["queen"], f"{seat} queen", radius)
    else:
        queen = None if eliminated else default_queen
    princes = _coords(raw, "princes", f"{seat} prince", radius)
    cities = _coords(raw, "cities", f"{seat} city", radius)
    fields = _coords(raw, "fields", f"{seat} field", radius)
    # A supply not given is as at set-up (2 Cities, 10 Fields), but never more than the player
    # owns and has not built.
    city_supply = _count(raw, "city_supply",
                         max(0, min(START_CITY_SUPPLY, CITIES_PER_PLAYER - len(cities))),
                         CITIES_PER_PLAYER, seat)
    field_supply = _count(raw, "field_supply", max(0, FIELDS_PER_PLAYER - len(fields)),
                          FIELDS_PER_PLAYER, seat)
    if eliminated and (queen is not None or princes or cities):
        raise _fail(f"{seat} is eliminated, so it has no Queen, Princes or Cities (its Fields "
                    "may stay)")
    if not eliminated and queen is None:
        raise _fail(f"{seat} has no Queen; only an eliminated seat may lack one")
    if len(princes) > PRINCES_PER_PLAYER:
        raise _fail(f"{seat} has {len(princes)} Princes; a player owns {PRINCES_PER_PLAYER}")
    if len(cities) + city_supply > CITIES_PER_PLAYER:
        raise _fail(f"{seat} has {len(cities)} Cities on the board and {city_supply} in supply; "
                    f"a player owns {CITIES_PER_PLAYER}")
    if len(fields) + field_supply > FIELDS_PER_PLAYER:
        raise _fail(f"{seat} has {len(fields)} Fields on the board and {field_supply} in supply; "
                    f"a player owns {FIELDS_PER_PLAYER}")
    return SeatPosition(queen, tuple(sorted(princes)), tuple(sorted(cities)),
                        tuple(sorted(fields)), city_supply, field_supply, eliminated)


def check_position(position: Position, spec: MapSpec) -> None:
    """What may share a space (QUE-COMP-03/04/05, QUE-VAL-10), Fields on plains only
    (QUE-FIELD-02) and a sane turn state; InvalidOptionError naming the problem."""
    mobile: dict[Coord, tuple[int, str]] = {}  # space -> (seat, "queen" | "prince" | "stack")
    buildings: dict[Coord, tuple[int, str]] = {}
    mountains = set(spec.mountains)
    for seat, entry in enumerate(position.seats):
        pieces = ([(entry.queen, "queen")] if entry.queen is not None else []) + [
            (p, "prince") for p in entry.princes]
        for coord, kind in pieces:
            if coord in mobile:
                other_seat, other = mobile[coord]
                if kind == other == "prince" and other_seat == seat:
                    mobile[coord] = (seat, "stack")
                    continue
                raise _fail(f"space {list(coord)} holds two mobile pieces that may not share "
                            "it (only two Princes of one player may)")
            mobile[coord] = (seat, kind)
        for coord in entry.cities:
            if coord in buildings:
                raise _fail(f"space {list(coord)} holds two buildings")
            buildings[coord] = (seat, "city")
        for coord in entry.fields:
            if coord in buildings:
                raise _fail(f"space {list(coord)} holds two buildings")
            if coord in mountains:
                raise _fail(f"the Field on {list(coord)} is on a mountain; Fields grow on plains")
            buildings[coord] = (seat, "field")
    for coord, (seat, kind) in mobile.items():
        building = buildings.get(coord)
        if building is None or building[1] != "city":
            continue
        if building[0] != seat:
            raise _fail(f"a piece of seat {seat} stands in an enemy City on {list(coord)}")
        if kind == "stack":
            raise _fail(f"two Princes are stacked in a City on {list(coord)}; a stack never "
                        "stands in a City")
    players = len(position.seats)
    alive = [s for s, entry in enumerate(position.seats) if not entry.eliminated]
    if players == 2 and len(alive) != 2:
        raise _fail("in a 2-player game nobody is eliminated (a captured Queen ends the game)")
    if len(alive) < 2:
        raise _fail("at least two players must still be in the game")
    if position.to_play not in alive:
        raise _fail(f"to_play must be a seat still in the game ({alive}), not {position.to_play}")


def parse_position(raw: Any, spec: MapSpec, players: int) -> Position:
    """Validate the `position` option against the map and the player count."""
    if not isinstance(raw, dict):
        raise _fail("must be an object with keys " + ", ".join(sorted(POSITION_KEYS)))
    unknown = sorted(set(raw) - POSITION_KEYS)
    if unknown:
        raise _fail(f"unknown key(s) {', '.join(map(repr, unknown))}; known: "
                    f"{', '.join(sorted(POSITION_KEYS))}")
    seats_raw = raw.get("seats")
    if not isinstance(seats_raw, (list, tuple)) or len(seats_raw) != players:
        raise _fail(f"'seats' must list one entry per player ({players})")
    layouts = spec.layouts(players)
    seats = tuple(_seat(entry, i, layouts[i].queen, spec) for i, entry in enumerate(seats_raw))
    to_play = raw.get("to_play", 0)
    if type(to_play) is not int or not 0 <= to_play < players:
        raise _fail(f"'to_play' must be a seat from 0 to {players - 1}, not {to_play!r}")
    round_number = raw.get("round", 1)
    if type(round_number) is not int or not 1 <= round_number <= MAX_ROUNDS:
        raise _fail(f"'round' must be a whole number from 1 to {MAX_ROUNDS}, not "
                    f"{round_number!r}")
    final_round = raw.get("final_round", False)
    if not isinstance(final_round, bool):
        raise _fail("'final_round' must be true or false")
    position = Position(seats, to_play, round_number, final_round)
    check_position(position, spec)
    return position
