"""Carcassonne actions, their JSON form, and the board-position encoding.

Positions are packed into one int (`x * 1024 + y`) so the hot paths hash ints, not tuples;
the packing is private to the engine and never appears in JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardwright.core.errors import MalformedActionError
from boardwright.core.inputs import short_repr

STRIDE = 1024
HALF_STRIDE = 512
MAX_COORD = HALF_STRIDE - 1
FIGURES = ("follower", "mayor", "wagon", "barn")


def pack(x: int, y: int) -> int:
    return x * STRIDE + y


def unpack(pos: int) -> tuple[int, int]:
    x, y = divmod(pos + HALF_STRIDE, STRIDE)
    return x, y - HALF_STRIDE


@dataclass(frozen=True, slots=True)
class Place:
    """Put the current tile at (x, y), turned `rotation` degrees clockwise."""

    x: int
    y: int
    rotation: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "place", "x": self.x, "y": self.y, "rotation": self.rotation}


@dataclass(frozen=True, slots=True)
class Deploy:
    """Put a figure from supply on the feature part at `location` of the tile at (x, y)."""

    x: int
    y: int
    location: str
    figure: str = "follower"

    def to_json(self) -> dict[str, Any]:
        return {"type": "deploy", "x": self.x, "y": self.y, "location": self.location,
                "figure": self.figure}


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline the optional figure placement."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "pass"}


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw the next landscape tile (offered when an abbey could be played instead)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "draw"}


@dataclass(frozen=True, slots=True)
class PlaceAbbey:
    """Place one's abbey tile into the hole at (x, y) instead of drawing."""

    x: int
    y: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "abbey", "x": self.x, "y": self.y}


PASS = Pass()
DRAW = Draw()
ROTATIONS = (0, 90, 180, 270)


def _is_coord(value: object) -> bool:
    return type(value) is int and -MAX_COORD <= value <= MAX_COORD  # type: ignore[operator]


def check_place(action: Place) -> None:
    """Reject a Place built in code with values its JSON form could never carry."""
    if not (_is_coord(action.x) and _is_coord(action.y)):
        raise MalformedActionError(
            f"place coordinates must be integers within ±{MAX_COORD}: {short_repr(action)}")
    if type(action.rotation) is not int or action.rotation not in ROTATIONS:
        raise MalformedActionError(
            f"rotation must be 0, 90, 180 or 270, not {short_repr(action.rotation)}")


def check_abbey(action: PlaceAbbey) -> None:
    """Reject a PlaceAbbey built in code with coordinates its JSON form could never carry."""
    if not (_is_coord(action.x) and _is_coord(action.y)):
        raise MalformedActionError(
            f"abbey coordinates must be integers within ±{MAX_COORD}: {short_repr(action)}")


def check_deploy(action: Deploy) -> None:
    """Reject a Deploy built in code with values of the wrong type or off the board."""
    if not (_is_coord(action.x) and _is_coord(action.y)):
        raise MalformedActionError(
            f"deploy coordinates must be integers within ±{MAX_COORD}: {short_repr(action)}")
    if type(action.location) is not str or type(action.figure) is not str:
        raise MalformedActionError(f"location and figure must be strings: {short_repr(action)}")
_PLACE_CACHE: dict[int, Place] = {}


def place_action(pos: int, quarter: int) -> Place:
    """An interned Place for a packed position and quarter turn (legal-move lists reuse them)."""
    key = pos * 4 + quarter
    action = _PLACE_CACHE.get(key)
    if action is None:
        x, y = unpack(pos)
        action = _PLACE_CACHE[key] = Place(x, y, 90 * quarter)
    return action


def _int_field(data: dict, key: str) -> int:
    if key not in data:
        raise MalformedActionError(f"action field {key!r} is missing")
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedActionError(f"action field {key!r} must be an integer, not {value!r}")
    return value


def _coord(data: dict, key: str) -> int:
    value = _int_field(data, key)
    if abs(value) > MAX_COORD:
        raise MalformedActionError(f"action field {key!r} = {value} is off the board")
    return value


def canonical_location(text: Any, names: frozenset[str], special: frozenset[str]) -> str:
    """Validate a location string and write its parts in the canonical (sorted) order."""
    if not isinstance(text, str) or not text:
        raise MalformedActionError(f"location must be a non-empty string, not {text!r}")
    if text in special:
        return text
    parts = text.split(".")
    for part in parts:
        if part not in names:
            raise MalformedActionError(f"unknown location part {part!r} in {text!r}")
    if len(set(parts)) != len(parts):
        raise MalformedActionError(f"location {text!r} repeats a part")
    return ".".join(sorted(parts))


def parse_action(data: Any, figures: tuple[str, ...], location_names: frozenset[str],
                 special_locations: frozenset[str]) -> Place | Deploy | Pass | Draw | PlaceAbbey:
    """Parse the JSON form of a Carcassonne action."""
    if not isinstance(data, dict):
        raise MalformedActionError(f"an action must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if kind == "pass":
        extra = set(data) - {"type"}
        if extra:
            raise MalformedActionError(f"pass takes no fields, got {sorted(extra)}")
        return PASS
    if kind == "draw":
        extra = set(data) - {"type"}
        if extra:
            raise MalformedActionError(f"draw takes no fields, got {sorted(extra)}")
        return DRAW
    if kind == "abbey":
        extra = set(data) - {"type", "x", "y"}
        if extra:
            raise MalformedActionError(f"unknown abbey fields {sorted(extra)}")
        return PlaceAbbey(_coord(data, "x"), _coord(data, "y"))
    if kind == "place":
        extra = set(data) - {"type", "x", "y", "rotation"}
        if extra:
            raise MalformedActionError(f"unknown place fields {sorted(extra)}")
        rotation = _int_field(data, "rotation")
        if rotation not in (0, 90, 180, 270):
            raise MalformedActionError(f"rotation must be 0, 90, 180 or 270, not {rotation}")
        return Place(_coord(data, "x"), _coord(data, "y"), rotation)
    if kind == "deploy":
        extra = set(data) - {"type", "x", "y", "location", "figure"}
        if extra:
            raise MalformedActionError(f"unknown deploy fields {sorted(extra)}")
        figure = data.get("figure", "follower")
        if figure not in figures:
            raise MalformedActionError(f"unknown figure {figure!r}; known: {', '.join(figures)}")
        if "location" not in data:
            raise MalformedActionError("action field 'location' is missing")
        location = canonical_location(data["location"], location_names, special_locations)
        return Deploy(_coord(data, "x"), _coord(data, "y"), location, figure)
    raise MalformedActionError(
        f"unknown action type {kind!r}; expected place, deploy, pass, draw or abbey")
