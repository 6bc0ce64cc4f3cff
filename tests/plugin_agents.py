"""Agents of the plugin tests, at the top level of an importable module: what a spawned worker
needs to rebuild a registration it receives (agents/registry.py)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any


class FirstLegalAgent:
    """Plays the first legal action, or the `pick`-th from the end when `last` is on."""

    name = "first"

    def __init__(self, seed: int | None = None, last: bool = False) -> None:
        self.last = last

    def act(self, state: Any) -> Any:
        actions = state.legal_actions()
        return actions[-1] if self.last else actions[0]


GATE_ENV = "BOARDWRIGHT_TEST_GATE"  # the file whose creation lets a gated bot decide


class GatedAgent:
    """Decides (the first legal action) only once the file named by $BOARDWRIGHT_TEST_GATE
    exists: a bot that is certainly still thinking until the test says otherwise, in whatever
    process it runs (spawned workers inherit the environment)."""

    name = "gated"
    WAIT = 60.0  # seconds before it gives up, so that a test that forgets the gate fails

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, state: Any) -> Any:
        gate = Path(os.environ[GATE_ENV])
        deadline = time.monotonic() + self.WAIT
        while not gate.exists():
            if time.monotonic() > deadline:
                raise RuntimeError(f"the gate {gate} was never opened")
            time.sleep(0.01)
        return state.legal_actions()[0]
