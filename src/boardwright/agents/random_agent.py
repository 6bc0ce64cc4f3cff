"""The uniform random agent: the baseline every other agent must beat."""

from __future__ import annotations

import random

from boardwright.core.actions import Action
from boardwright.core.game import State


class RandomAgent:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, state: State) -> Action:
        return self.rng.choice(state.legal_actions())
