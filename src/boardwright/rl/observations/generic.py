"""The observation of a game without an encoder of its own: its view, hashed into a fixed vector.

A game that does not define `observation_encoder()` (see `encoder_for`) still gets a fixed-shape
observation, built like any other from `state.view(seat)` alone, so it shows only what that seat
may see. The view is walked as JSON; every leaf becomes a feature named by its path
(`scores[1]`, `rounds[3].bids[0]`, `hand[2]`):

* a number (or a bool, as 0/1) adds its value at the slot of its path;
* a string or null adds 1 at the slot of `path=value` (one-hot by value);

a slot being `blake2b(name) mod size` (feature hashing: stable across processes and runs, with
the rare collisions adding up). Vector, in this order:

* `seat` (n): one-hot of the observing seat (seat numbers in the view are absolute);
* `features` (size, 512 by default): the hashed features, clipped to [LOW, HIGH].

It is a baseline that makes every adapter work at once; a game whose learning matters deserves
an encoder that knows its structure (relative seats, board planes), given by the game's hook.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

from boardwright.rl.observations import Encoder

SIZE = 512
MAX_LEAVES = 100_000  # a view larger than this is encoded by its first leaves only
MAX_NAMES = 200_000  # slots remembered per encoder (names repeat from one view to the next)


class GenericEncoder(Encoder):
    """Feature hashing of a JSON view (see the module docstring)."""

    def __init__(self, game: Any, size: int = SIZE) -> None:
        super().__init__(game)
        self.game_name = game.name
        self.features = size
        self._block("seat", self.n)
        self._block("features", size)
        self._slots: dict[str, int] = {}

    def _slot(self, name: str) -> int:
        slot = self._slots.get(name)
        if slot is None:
            digest = hashlib.blake2b(name.encode("utf-8", "replace"), digest_size=8).digest()
            slot = self.n + int.from_bytes(digest, "big") % self.features
            if len(self._slots) < MAX_NAMES:
                self._slots[name] = slot
        return slot

    def encode(self, view: dict[str, Any], viewer: int) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        if 0 <= viewer < self.n:
            out[viewer] = 1.0
        todo: list[tuple[str, Any]] = [("", view)]
        leaves = 0
        while todo and leaves < MAX_LEAVES:
            path, value = todo.pop()
            if isinstance(value, dict):
                todo.extend((f"{path}.{key}" if path else str(key), item)
                            for key, item in value.items())
            elif isinstance(value, (list, tuple)):
                todo.extend((f"{path}[{i}]", item) for i, item in enumerate(value))
            else:
                leaves += 1
                if isinstance(value, (bool, int, float)):
                    if np.isfinite(value):
                        out[self._slot(path)] += float(value)
                else:
                    out[self._slot(f"{path}={value}")] += 1.0
        return self._finish(out)
