"""Agents of the plugin tests, at the top level of an importable module: what a spawned worker
needs to rebuild a registration it receives (agents/registry.py)."""

from __future__ import annotations

from typing import Any


class FirstLegalAgent:
    """Plays the first legal action, or the `pick`-th from the end when `last` is on."""

    name = "first"

    def __init__(self, seed: int | None = None, last: bool = False) -> None:
        self.last = last

    def act(self, state: Any) -> Any:
        actions = state.legal_actions()
        return actions[-1] if self.last else actions[0]
