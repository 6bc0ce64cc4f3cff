"""Queens actions and their JSON form (QUE-TURN-01).

    MOVE(a→b)      {"type": "move", "from": [q, r], "to": [q, r]}
    JOINT(a,b→t)   {"type": "joint", "from": [[q, r], [q, r]], "to": [q, r]}
    FOUND          {"type": "found"}
    SOW(x)         {"type": "sow", "at": [q, r]}
    PASS           {"type": "pass"}

A JOINT names its two starting spaces in a canonical order (smaller (q, r) first), so
`Joint(a, b, t) == Joint(b, a, t)`. Parsing checks only the shape; whether the spaces are on
the board is checked by the game (it knows the map) and legality by the state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from boardwright.core.errors import MalformedActionError
from boardwright.core.inputs import short_repr
from boardwright.games.queens.board import Coord

MOVE, JOINT, FOUND, SOW, PASS_TYPE = "move", "joint", "found", "sow", "pass"
ACTION_TYPES = (MOVE, JOINT, FOUND, SOW, PASS_TYPE)


def _xy(coord: Coord) -> list[int]:
    return [coord[0], coord[1]]


@dataclass(frozen=True, slots=True)
class Move:
    """One Queen or Prince moves from `src` to `dst` (an attack if `dst` holds an enemy)."""

    src: Coord
    dst: Coord

    def to_json(self) -> dict[str, Any]:
        return {"type": MOVE, "from": _xy(self.src), "to": _xy(self.dst)}


@dataclass(frozen=True, slots=True)
class Joint:
    """Two Princes, from two different spaces, attack `target` together (QUE-DUO-01)."""

    first: Coord
    second: Coord
    target: Coord

    def __post_init__(self) -> None:
        try:
            swap = self.second < self.first
        except TypeError:  # not comparable: left for validation to reject
            swap = False
        if swap:
            first = self.first
            object.__setattr__(self, "first", self.second)
            object.__setattr__(self, "second", first)

    def to_json(self) -> dict[str, Any]:
        return {"type": JOINT, "from": [_xy(self.first), _xy(self.second)],
                "to": _xy(self.target)}


@dataclass(frozen=True, slots=True)
class Found:
    """The active player's Queen founds a City on her space (QUE-CITY-01)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": FOUND}


@dataclass(frozen=True, slots=True)
class Sow:
    """A Field from supply is sown on `at` (QUE-FIELD-01)."""

    at: Coord

    def to_json(self) -> dict[str, Any]:
        return {"type": SOW, "at": _xy(self.at)}


@dataclass(frozen=True, slots=True)
class Pass:
    """The turn passes; legal only when nothing else is (QUE-TURN-02)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": PASS_TYPE}


QueensAction = Union[Move, Joint, Found, Sow, Pass]
FOUND_ACTION = Found()
PASS_ACTION = Pass()
ACTION_CLASSES = (Move, Joint, Found, Sow, Pass)


def is_coord(value: Any) -> bool:
    """A pair of plain integers (booleans are not coordinates)."""
    return (type(value) is tuple and len(value) == 2
            and type(value[0]) is int and type(value[1]) is int)


def coords_of(action: Any) -> tuple[Coord, ...]:
    """The spaces an action names, in order."""
    cls = type(action)
    if cls is Move:
        return (action.src, action.dst)
    if cls is Joint:
        return (action.first, action.second, action.target)
    if cls is Sow:
        return (action.at,)
    return ()


_FIELD = object()


def _coord(data: dict, key: str, value: Any = _FIELD) -> Coord:
    raw = data[key] if value is _FIELD else value
    if (not isinstance(raw, list) or len(raw) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)):
        raise MalformedActionError(f"action field {key!r} must be a pair of integers [q, r], "
                                   f"not {short_repr(raw)}")
    return (raw[0], raw[1])


def _check_keys(data: dict, kind: str, keys: frozenset[str]) -> None:
    extra = sorted(set(data) - keys - {"type"})
    if extra:
        raise MalformedActionError(f"unknown {kind} field(s) {extra}")
    missing = sorted(keys - set(data))
    if missing:
        raise MalformedActionError(f"{kind} needs the field(s) {missing}")


def parse_action(data: Any) -> QueensAction:
    """Parse the JSON form of an action (shape only)."""
    if not isinstance(data, dict):
        raise MalformedActionError(f"an action must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if kind == MOVE:
        _check_keys(data, kind, frozenset(("from", "to")))
        return Move(_coord(data, "from"), _coord(data, "to"))
    if kind == JOINT:
        _check_keys(data, kind, frozenset(("from", "to")))
        starts = data["from"]
        if (not isinstance(starts, list) or len(starts) != 2
                or not all(isinstance(start, list) for start in starts)):
            raise MalformedActionError(f"joint field 'from' must list two spaces [[q, r], [q, r]], "
                                       f"not {short_repr(starts)}")
        return Joint(_coord(data, "from", starts[0]), _coord(data, "from", starts[1]),
                     _coord(data, "to"))
    if kind == SOW:
        _check_keys(data, kind, frozenset(("at",)))
        return Sow(_coord(data, "at"))
    if kind == FOUND:
        _check_keys(data, kind, frozenset())
        return FOUND_ACTION
    if kind == PASS_TYPE:
        _check_keys(data, kind, frozenset())
        return PASS_ACTION
    raise MalformedActionError(f"unknown action type {short_repr(kind)}; expected "
                               f"{', '.join(ACTION_TYPES)}")
