"""Actions for free: JSON forms, parsing and stable ids from a declaration.

A game of one's own spends a good part of its code converting actions: to JSON, from JSON, to
an id and back. Most games can say once what their actions are and get the conversions:

* `ActionData`, a mixin for a frozen dataclass: `to_json()` is `{"type": kind, **fields}`,
  `kind` being the class's `kind` attribute (default: its name in snake_case);
* `ActionList`, every distinct action of a configured game in id order (what
  `Game.all_actions()` returns): ids are positions in the list, the JSON form of each action
  is looked up exactly (a `true` is not a `1`), anything else is a MalformedActionError.

`Game`'s default `action_from_json`, `action_id`, `action_from_id` and
`num_distinct_actions` use an `ActionList` when the game declares `all_actions()`; a game
whose action space is too large to list (Carcassonne's 1.55 million ids) writes its own.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence
from typing import Any, ClassVar

from boardwright.core.actions import Action, JsonDict
from boardwright.core.errors import MalformedActionError
from boardwright.core.inputs import check_action_id, check_action_json, short_repr


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


_LAYOUTS: dict[type, tuple[str, tuple[str, ...]]] = {}


def _layout(cls: type) -> tuple[str, tuple[str, ...]]:
    """An action class's JSON type and field names (found once per class)."""
    layout = _LAYOUTS.get(cls)
    if layout is None:
        kind = getattr(cls, "kind", "") or _snake(cls.__name__)
        layout = _LAYOUTS[cls] = (kind, tuple(f.name for f in dataclasses.fields(cls)))
    return layout


class ActionData:
    """Mixin for an action declared as a frozen dataclass: its JSON form is its fields under
    a `"type"` naming the kind of action (`kind`, default: the class name in snake_case:
    `RaiseBid` -> "raise_bid")."""

    kind: ClassVar[str] = ""

    def to_json(self) -> JsonDict:
        kind, names = _layout(type(self))
        data: JsonDict = {"type": kind}
        for name in names:
            value = getattr(self, name)
            data[name] = list(value) if isinstance(value, tuple) else value
        return data


def json_key(data: Any) -> str:
    """The canonical text of a JSON value: equal only for the same value of the same JSON
    types (`true` and `1`, `1` and `1.0` differ)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), allow_nan=False)


def _same_types(a: Any, b: Any) -> bool:
    """Whether two equal actions hold values of the same types, field by field (so that
    their JSON forms are equal too)."""
    first, second = getattr(a, "__dict__", None), getattr(b, "__dict__", None)
    if first is None or second is None:
        return False
    return all(type(x) is type(y) and type(x) is not tuple
               for x, y in zip(first.values(), second.values()))


class ActionList:
    """The numbered actions of one configured game (see the module docstring)."""

    __slots__ = ("actions", "game_name", "_by_key", "_by_action", "_types")

    def __init__(self, game_name: str, actions: Sequence[Action]) -> None:
        self.game_name = game_name
        self.actions: tuple[Action, ...] = tuple(actions)
        self._by_key: dict[str, int] = {}
        for index, action in enumerate(self.actions):
            key = json_key(action.to_json())
            if key in self._by_key:  # the game's own mistake, not bad input
                raise ValueError(f"{game_name}: all_actions() lists {key} twice (ids "
                                 f"{self._by_key[key]} and {index})")
            self._by_key[key] = index
        self._types = frozenset(type(a) for a in self.actions)
        # the fast path of `action_id`: by the actions' own equality and hash (an action equal
        # to a listed one under other JSON types, such as True for 1, is told apart below)
        self._by_action: dict[Any, int] = {}
        for index, action in enumerate(self.actions):
            try:
                self._by_action.setdefault(action, index)
            except TypeError:  # an unhashable action: the JSON path alone
                break

    @property
    def types(self) -> frozenset[type]:
        """The classes of the listed actions (what `coerce_action` accepts as they are)."""
        return self._types

    def __len__(self) -> int:
        return len(self.actions)

    def _kinds(self) -> str:
        kinds = sorted({str(a.to_json().get("type")) for a in self.actions})
        return ", ".join(kinds[:8]) + (", ..." if len(kinds) > 8 else "")

    def from_json(self, data: Any) -> Action:
        data = check_action_json(data)
        try:
            index = self._by_key.get(json_key(data))
        except (TypeError, ValueError):
            index = None
        if index is None:
            raise MalformedActionError(
                f"{short_repr(data)} is no {self.game_name} action (kinds: {self._kinds()})")
        return self.actions[index]

    def action_id(self, action: Any) -> int:
        if type(action) not in self._types:
            raise MalformedActionError(f"not a {self.game_name} action: {short_repr(action)}")
        try:
            index = self._by_action.get(action)
        except TypeError:
            index = None
        if index is not None:
            listed = self.actions[index]
            if listed is action or _same_types(listed, action):
                return index
        try:
            index = self._by_key.get(json_key(action.to_json()))
        except (TypeError, ValueError):
            index = None
        if index is None:
            raise MalformedActionError(f"{short_repr(action)} is no {self.game_name} action "
                                       "of this configuration")
        return index

    def from_id(self, action_id: Any) -> Action:
        return self.actions[check_action_id(action_id, len(self.actions))]
