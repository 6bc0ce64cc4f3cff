"""Reading the TOML files of `data/`, and the small field checks every loader shares.

Every problem raises InvalidOptionError whose message names the file and the entry at fault,
so a corrupted data file fails loudly when it is loaded, never later in a game.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any, Mapping

from boardwright.core.errors import InvalidOptionError

PACKAGE = "boardwright.games.shogun"


def read_data(filename: str) -> dict[str, Any]:
    """The parsed content of `data/<filename>`."""
    path = resources.files(PACKAGE).joinpath("data").joinpath(filename)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise InvalidOptionError(f"data file {filename} cannot be read: {exc}") from None


def fail(where: str, message: str) -> InvalidOptionError:
    return InvalidOptionError(f"{where}: {message}")


def check_keys(raw: Any, where: str, required: frozenset[str],
               optional: frozenset[str] = frozenset()) -> Mapping[str, Any]:
    """`raw` must be a table with all `required` keys and no key outside both sets."""
    if not isinstance(raw, Mapping):
        raise fail(where, "must be a table")
    unknown = sorted(set(raw) - required - optional)
    if unknown:
        raise fail(where, f"unknown key(s) {', '.join(unknown)}")
    missing = sorted(required - set(raw))
    if missing:
        raise fail(where, f"missing key(s) {', '.join(missing)}")
    return raw


def text(raw: Mapping[str, Any], key: str, where: str, empty: bool = False) -> str:
    value = raw.get(key, "" if empty else None)
    if not isinstance(value, str) or (not empty and not value):
        raise fail(where, f"{key!r} must be a {'' if empty else 'non-empty '}string, not {value!r}")
    return value


def ident(raw: Mapping[str, Any], key: str, where: str) -> str:
    """A stable id: lowercase ASCII letters, digits and underscores."""
    value = text(raw, key, where)
    if not (value.isascii() and value.replace("_", "").isalnum() and value == value.lower()):
        raise fail(where, f"{key!r} {value!r} is not a lowercase ASCII id")
    return value


def whole(raw: Mapping[str, Any], key: str, where: str, low: int, high: int) -> int:
    value = raw.get(key)
    if type(value) is not int or not low <= value <= high:
        raise fail(where, f"{key!r} must be a whole number from {low} to {high}, not {value!r}")
    return value


def rows(raw: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = raw.get(key)
    if not isinstance(value, list) or not value:
        raise fail(where, f"{key!r} must be a non-empty list of tables")
    return value
