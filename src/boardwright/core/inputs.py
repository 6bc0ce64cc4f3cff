"""Checks and copies of everything that reaches the engine from outside: option mappings, action
objects and their JSON form, record fields, seeds, and the text of saved records.

Every game goes through these helpers, so a value that could make Python itself fail (an
integer too long to print, a list nested deeper than the interpreter recurses, an object whose
methods raise) is refused in one place with a `BoardwrightError`, before any game code formats
or inspects it. Error messages show values through `short_repr`, which never fails and never
grows past a few dozen characters.
"""

from __future__ import annotations

import codecs
import dataclasses
import random
import reprlib
from dataclasses import dataclass
from typing import Any, Collection

from boardwright.core.errors import (
    BoardwrightError,
    CorruptRecordError,
    InvalidOptionError,
    MalformedActionError,
)

SHORT_REPR = 60  # characters of a value shown in an error message
MAX_INT = 2**64  # no option, action field or record field needs a larger magnitude
MAX_SEED = 2**64 - 1


@dataclass(frozen=True)
class JsonLimits:
    """How large a JSON value from outside may be: nesting depth, longest string, value count.

    The bounds are far above anything a real option set, action or record holds, and far
    below what would make copying, printing or `json.dumps` fail or crawl."""

    depth: int
    string: int
    values: int


ACTION_LIMITS = JsonLimits(depth=6, string=200, values=64)
OPTION_LIMITS = JsonLimits(depth=32, string=100_000, values=200_000)
META_LIMITS = OPTION_LIMITS


# -- messages -------------------------------------------------------------------------------------

class _ShortRepr(reprlib.Repr):
    """`reprlib` with integers shown by size when long, and dataclasses shown field by field
    (their own `repr` would format a huge or deeply nested field in full)."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = SHORT_REPR
        self.maxother = SHORT_REPR
        self.maxlong = SHORT_REPR
        self.maxdict = self.maxlist = self.maxtuple = self.maxset = 6

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 200:
            return f"<an integer of {x.bit_length()} bits>"
        return super().repr_int(x, level)

    def repr_instance(self, x: Any, level: int) -> str:
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            if level <= 0:
                return f"{type(x).__name__}(...)"
            parts = ", ".join(f"{f.name}={self.repr1(getattr(x, f.name, None), level - 1)}"
                              for f in dataclasses.fields(x))
            return f"{type(x).__name__}({parts})"
        return super().repr_instance(x, level)


_REPR = _ShortRepr()


def short_repr(value: Any, limit: int = SHORT_REPR) -> str:
    """A repr of `value` for an error message: never raises, at most `limit` characters."""
    try:
        text = _REPR.repr(value)
    except Exception:  # noqa: BLE001 - a foreign object's repr may fail in any way
        text = f"<{type(value).__name__} object>"
    return text if len(text) <= limit else text[:limit - 1] + "…"


# -- JSON values ----------------------------------------------------------------------------------

def _is_unicode(text: str) -> bool:
    """Whether `text` can be written as UTF-8: JSON's "\\ud800" escapes decode to lone
    surrogates, which no terminal, file or web page can print."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def json_copy(value: Any, limits: JsonLimits, what: str,
              error: type[BoardwrightError] = InvalidOptionError) -> Any:
    """A deep copy of a JSON value (dicts with string keys, lists, strings, finite-size numbers,
    booleans, None), refusing anything else with `error` naming `what`.

    Tuples are copied as lists and integer keys as strings, as JSON would write them, so a copy
    reads back from a saved record exactly as it was given."""
    budget = [limits.values]

    def copy(item: Any, path: str, depth: int) -> Any:
        budget[0] -= 1
        if budget[0] < 0:
            raise error(f"{what} holds more than {limits.values} values")
        if item is None or isinstance(item, (bool, float)):
            return item
        if isinstance(item, int):
            if not -MAX_INT < item < MAX_INT:
                raise error(f"{path} is a number too large ({short_repr(item)})")
            return int(item)
        if isinstance(item, str):
            if len(item) > limits.string:
                raise error(f"{path} is a text longer than {limits.string} characters")
            if not item.isascii() and not _is_unicode(item):
                raise error(f"{path} is not Unicode text (it holds a lone surrogate)")
            return str(item)
        if depth >= limits.depth:
            raise error(f"{path} is nested deeper than {limits.depth} levels")
        if isinstance(item, (list, tuple)):
            return [copy(v, f"{path}[{i}]", depth + 1) for i, v in enumerate(item)]
        if isinstance(item, dict):
            flat = _flat_copy(item, limits)
            if flat is not None:  # the common case (an action): no path is needed
                budget[0] -= len(flat)
                if budget[0] < 0:
                    raise error(f"{what} holds more than {limits.values} values")
                return flat
            out: dict[str, Any] = {}
            for key, v in item.items():
                if isinstance(key, int) and not isinstance(key, bool) and -MAX_INT < key < MAX_INT:
                    key = str(key)
                if not isinstance(key, str) or len(key) > limits.string:
                    raise error(f"{path} has a key that is not a short text: {short_repr(key)}")
                if not key.isascii() and not _is_unicode(key):
                    raise error(f"{path} has a key that is not Unicode text (a lone surrogate)")
                if key in out:
                    raise error(f"{path} has the key {short_repr(key)} twice")
                out[str(key)] = copy(v, f"{path}.{key}" if len(key) <= 40 else f"{path}.…",
                                     depth + 1)
            return out
        raise error(f"{path} is not a JSON value: {short_repr(item)}")

    return copy(value, what, 0)


def _flat_copy(item: dict[Any, Any], limits: JsonLimits) -> dict[str, Any] | None:
    """A copy of a dict whose keys are short ASCII texts and whose values are all plain
    scalars that `json_copy` would keep as they are (None, booleans, floats, integers in range,
    short ASCII texts); None when any is not, for the general path to copy or refuse. Most
    inputs (an action, a record's action) are such a dict; this is `json_copy`'s result for
    them without building a path per value."""
    longest = limits.string
    for key, value in item.items():
        if type(key) is not str or len(key) > longest or not key.isascii():
            return None
        kind = type(value)
        if value is None or kind is bool or kind is float:
            continue
        if kind is int:
            if -MAX_INT < value < MAX_INT:
                continue
            return None
        if kind is str and len(value) <= longest and value.isascii():
            continue
        return None
    return dict(item)


def check_action_json(data: Any) -> dict[str, Any]:
    """The JSON form of an action, checked for shape and size before a game parses it: an
    object with string keys and small values (MalformedActionError otherwise)."""
    if not isinstance(data, dict):
        raise MalformedActionError(f"an action must be a JSON object, not {type(data).__name__}")
    json_copy(data, ACTION_LIMITS, "action", MalformedActionError)
    return data


def copy_options(options: Any) -> dict[str, Any]:
    """The caller's options, deep-copied and checked to be JSON: the game keeps its own copy,
    so a caller that edits its dict later changes nothing that was played or recorded."""
    if not isinstance(options, dict):
        raise InvalidOptionError("options must be a mapping of option names to values")
    return json_copy(options, OPTION_LIMITS, "options", InvalidOptionError)


# -- actions --------------------------------------------------------------------------------------

_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _small(value: Any, depth: int = 0) -> bool:
    """A value an action field may be checked for by its game: None, a bool, a float, a
    bounded int, a short string, or a short tuple of those (coordinates)."""
    if value is None or type(value) is bool or type(value) is float:
        return True
    if type(value) is int:
        return -MAX_INT < value < MAX_INT
    if type(value) is str:
        return len(value) <= ACTION_LIMITS.string
    if type(value) is tuple and depth < 2 and len(value) <= 8:
        return all(_small(v, depth + 1) for v in value)
    return False


def coerce_action(game: Any, action: Any, classes: Collection[type]) -> Any:
    """What a game's `apply` was given, as one of its own actions: an instance of `classes`
    as it is (once its fields are plain, small values), a dict through the game's
    `action_from_json`, anything else refused. A foreign object's methods are never called:
    an object with its own `to_json` or `__eq__` could raise or lie."""
    cls = type(action)
    if cls in classes:
        for name in _field_names(cls):
            value = getattr(action, name)
            if not _small(value):
                raise MalformedActionError(
                    f"{cls.__name__} field {name!r} holds {short_repr(value)}, not a small "
                    "number, text or pair")
        return action
    if isinstance(action, dict):
        return game.action_from_json(action)
    raise MalformedActionError(
        f"not a {str(game.name).capitalize()} action: {short_repr(action)}")


def check_action_id(action_id: Any, size: int) -> int:
    """An action id: a plain int in [0, size) (MalformedActionError otherwise)."""
    if type(action_id) is not int or not 0 <= action_id < size:
        raise MalformedActionError(f"action id {short_repr(action_id)} is outside 0..{size - 1}")
    return action_id


# -- seeds ----------------------------------------------------------------------------------------

def check_seed(seed: Any) -> int:
    """The seed of a new game: a whole number from 0 to 2**64 - 1, or None for a random one.

    Negative seeds are refused rather than folded onto positive ones: Python's `Random` seeds
    with the absolute value, so `n` and `-n` would deal the same game under two names."""
    if seed is None:
        return random.SystemRandom().randrange(2**63)
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise InvalidOptionError(f"seed must be a whole number from 0 to 2**64 - 1, "
                                 f"not {short_repr(seed)}")
    return seed


# -- record text ----------------------------------------------------------------------------------

def decode_record_bytes(data: bytes, source: str) -> str:
    """The text of a saved record: UTF-8 with or without a byte-order mark, or UTF-16 with one
    (what common Windows tools write). Anything else is a CorruptRecordError naming `source`."""
    if data.startswith(codecs.BOM_UTF8):
        encoding = "utf-8-sig"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    else:
        encoding = "utf-8"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise CorruptRecordError(
            f"{source} is not UTF-8 or UTF-16 text ({exc.reason} at byte {exc.start})") from None
