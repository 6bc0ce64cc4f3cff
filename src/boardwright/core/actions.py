"""The action protocol shared by every game.

Actions are frozen dataclasses owned by each game. They serialise to plain JSON objects
(`to_json`) carrying a `"type"` key, and each game maps them to a stable integer id in a fixed
space for reinforcement-learning masks.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

JsonDict = dict[str, Any]


@runtime_checkable
class Action(Protocol):
    """What every game action offers."""

    def to_json(self) -> JsonDict:
        """A JSON-able dict with a "type" key; `Game.action_from_json` reverses it."""
        ...
