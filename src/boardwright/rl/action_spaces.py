"""The action ids the RL adapters speak: a game's learning action space, or its stable ids.

`action_space_for(game)` is the game's `learning_action_space()` when it offers one (Carcassonne:
`boardwright.games.carcassonne.learning_space`) and `StableActionSpace` otherwise (Queens,
Shogun: their stable ids are already practical). `actions="stable"` asks for the stable ids
whatever the game offers (Carcassonne's are then 1.55 million wide). Both kinds follow the
contract of `boardwright.core.action_space`; every adapter goes through it, so a game that adds
a learning space is picked up by all of them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardwright.core.action_space import LearningActionSpace
from boardwright.core.errors import IllegalActionError, InvalidOptionError, MalformedActionError
from boardwright.core.game import Game
from boardwright.core.inputs import short_repr

ENCODINGS = ("learning", "stable")


class StableLegalIds:
    """The legal actions of one position under their stable ids."""

    __slots__ = ("_actions", "game", "ids")

    def __init__(self, game: Game, state: Any) -> None:
        self.game = game
        if state.is_terminal:
            self._actions: dict[int, Any] = {}
        else:
            self._actions = dict(zip(state.legal_action_ids(), state.legal_actions()))
        self.ids = np.array(sorted(self._actions), dtype=np.int64)

    def __len__(self) -> int:
        return len(self._actions)

    def action(self, action_id: Any) -> Any:
        value = check_id(action_id, self.game.num_distinct_actions)
        action = self._actions.get(value)
        if action is None:
            raise IllegalActionError(f"action id {value} is not legal in this position")
        return action

    def id_of(self, action: Any) -> int:
        value = self.game.action_id(action)
        if value not in self._actions:
            raise IllegalActionError(f"{short_repr(action)} is not legal in this position")
        return value


class StableActionSpace:
    """The game's stable ids as a learning action space (the default)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.size = game.num_distinct_actions

    def legal(self, state: Any) -> StableLegalIds:
        return StableLegalIds(self.game, state)

    def describe(self, action_id: Any) -> str:
        value = check_id(action_id, self.size)
        return self.game.action_text(self.game.action_from_id(value))


def check_id(action_id: Any, size: int) -> int:
    """An id as a plain int (numpy integers accepted): MalformedActionError for anything else
    or an id outside [0, size)."""
    if isinstance(action_id, (bool, np.bool_)) or not isinstance(action_id, (int, np.integer)):
        raise MalformedActionError(f"action id {short_repr(action_id)} is not an integer")
    value = int(action_id)
    if not 0 <= value < size:
        raise MalformedActionError(f"action id {value} is outside 0..{size - 1}")
    return value


def action_space_for(game: Game, actions: str = "learning") -> LearningActionSpace:
    """The ids an adapter uses for `game`: "learning" (the game's learning action space, or its
    stable ids when it has none) or "stable" (always the stable ids)."""
    if actions not in ENCODINGS:
        raise InvalidOptionError(f"actions must be one of {', '.join(ENCODINGS)}, "
                                 f"not {short_repr(actions)}")
    space = game.learning_action_space() if actions == "learning" else None
    return StableActionSpace(game) if space is None else space


def mask_of(size: int, ids: np.ndarray) -> np.ndarray:
    """The int8 action mask with ones at `ids`."""
    mask = np.zeros(size, dtype=np.int8)
    mask[ids] = 1
    return mask
