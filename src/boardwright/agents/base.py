"""The agent interface: something that chooses an action for the player to move."""

from __future__ import annotations

from typing import Protocol

from boardwright.core.actions import Action
from boardwright.core.game import State


class Agent(Protocol):
    """Chooses one legal action for `state.current_player`."""

    name: str

    def act(self, state: State) -> Action:
        ...
