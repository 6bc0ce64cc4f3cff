"""Game records: everything needed to rebuild a game exactly (seed + options + actions).

A record is plain JSON so it can be saved, shared, stored in a database and replayed by any
version that knows the game. Making one, however it is made, validates the shape and raises
CorruptRecordError with the name of the faulty field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from boardwright.core.errors import CorruptRecordError
from boardwright.core.inputs import (
    ACTION_LIMITS, MAX_INT, MAX_SEED, META_LIMITS, OPTION_LIMITS, decode_record_bytes,
    json_copy, short_repr,
)

JsonDict = dict[str, Any]


FIELD_TYPES: dict[str, type] = {
    "game": str, "version": str, "options": dict, "seed": int, "players": int, "actions": list,
    "meta": dict,
}


@dataclass
class GameRecord:
    """The replayable history of one game.

    Every way a record is made (`from_json`, `loads`, `load`, the constructor,
    `dataclasses.replace`) runs `__post_init__`, which checks each field and keeps its own deep
    copy of the options, actions and meta: a record is valid JSON from the moment it exists,
    and editing it never reaches the game it came from."""

    game: str
    version: str
    options: JsonDict
    seed: int
    players: int
    actions: list[JsonDict] = field(default_factory=list)
    meta: JsonDict = field(default_factory=dict)

    def __post_init__(self) -> None:
        for key, kind in FIELD_TYPES.items():
            value = getattr(self, key)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise CorruptRecordError(f"record field {key!r} has the wrong type: "
                                         f"{type(value).__name__}, not {kind.__name__}")
        if not 0 <= self.seed <= MAX_SEED:
            raise CorruptRecordError(f"record field 'seed' must be from 0 to 2**64 - 1, "
                                     f"not {short_repr(self.seed)}")
        if not -MAX_INT < self.players < MAX_INT:
            raise CorruptRecordError(f"record field 'players' is {short_repr(self.players)}")
        for key in ("game", "version"):
            if len(getattr(self, key)) > ACTION_LIMITS.string:
                raise CorruptRecordError(f"record field {key!r} is too long")
        self.options = json_copy(self.options, OPTION_LIMITS, "record field 'options'",
                                 CorruptRecordError)
        self.meta = json_copy(self.meta, META_LIMITS, "record field 'meta'", CorruptRecordError)
        actions = []
        for index, action in enumerate(self.actions):
            if not isinstance(action, dict):
                raise CorruptRecordError(f"record action #{index} is not an object")
            actions.append(json_copy(action, ACTION_LIMITS, f"record action #{index}",
                                     CorruptRecordError))
        self.actions = actions

    def check(self) -> GameRecord:
        """Check the fields again (a record's attributes can be reassigned after it was made)."""
        self.__post_init__()
        return self

    def to_json(self) -> JsonDict:
        return {
            "game": self.game,
            "version": self.version,
            "options": self.options,
            "seed": self.seed,
            "players": self.players,
            "actions": list(self.actions),
            "meta": self.meta,
        }

    def dumps(self, indent: int | None = None) -> str:
        return json.dumps(self.to_json(), indent=indent)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps(indent=1) + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise CorruptRecordError("a record must be a JSON object")
        for key in FIELD_TYPES:
            if key not in data and key != "meta":
                raise CorruptRecordError(f"record field {key!r} is missing")
        return cls(game=data["game"], version=data["version"], options=data["options"],
                   seed=data["seed"], players=data["players"], actions=data["actions"],
                   meta=data.get("meta", {}))

    @classmethod
    def loads(cls, text: str | bytes) -> GameRecord:
        """A record from its JSON text (or the bytes of a saved file, see `load`)."""
        if isinstance(text, (bytes, bytearray)):
            text = decode_record_bytes(bytes(text), "the record")
        if not isinstance(text, str):
            raise CorruptRecordError(f"a record is JSON text, not {type(text).__name__}")
        try:
            data = json.loads(text.removeprefix("\ufeff"))
        except json.JSONDecodeError as exc:
            raise CorruptRecordError(f"record is not valid JSON: {exc}") from None
        except RecursionError:
            raise CorruptRecordError("record is not valid JSON: it is nested too deeply") \
                from None
        except ValueError as exc:  # a number with more digits than Python converts
            raise CorruptRecordError(f"record is not valid JSON: {str(exc)[:120]}") from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """A record from a file: UTF-8 with or without a byte-order mark, or UTF-16 with one.
        Every error names the file."""
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise CorruptRecordError(f"cannot read record {path}: {exc.strerror}") from None
        except (TypeError, ValueError) as exc:  # not a path, a NUL in the name
            raise CorruptRecordError(f"cannot read record {short_repr(path)}: {exc}") from None
        try:
            return cls.loads(decode_record_bytes(data, f"record {path}"))
        except CorruptRecordError as exc:
            if str(path) in str(exc):
                raise
            raise CorruptRecordError(f"{exc} (file {path})") from None


def record_of(game: Any, seed: int | None, history: Iterable[Any], meta: dict[str, Any]) -> GameRecord:
    """The record of a game played from `seed` with the actions of `history` (objects with
    `to_json`): what every game's `State.record` returns."""
    return GameRecord(game=game.name, version=game.version, options=game.option_summary(),
                      seed=seed, players=game.num_players,
                      actions=[a.to_json() for a in history], meta=dict(meta))
