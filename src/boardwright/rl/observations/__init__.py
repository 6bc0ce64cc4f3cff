"""Numeric observation encoders: one per game, fixed shape, built only from `state.view(seat)`.

`encoder_for(game)` returns the encoder of a configured `Game`; `encoder.encode(view, seat)`
turns the JSON view of one seat into a flat float32 vector of `encoder.size` values. Seats are
*relative*: block k describes the seat k places after the observer (k = 0 is the observer).
The layout of each game is documented in its module (`boardwright.rl.observations.<game>`);
`encoder.layout` lists the named slices `(name, start, stop, shape)` of the vector. Other games
(plugins) bring their own through a hook, or get the generic encoder (`generic.py`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardwright.core.game import Game

#: All features lie in [LOW, HIGH] (counts are scaled; values beyond are clipped).
LOW, HIGH = -1.0, 1.0e3


class Encoder:
    """Base class: subclasses declare blocks in `__init__` with `_block` and fill `encode`."""

    game_name = ""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.n = game.num_players
        self.layout: list[tuple[str, int, int, tuple[int, ...]]] = []
        self.size = 0

    def _block(self, name: str, *shape: int) -> None:
        count = int(np.prod(shape))
        self.layout.append((name, self.size, self.size + count, tuple(shape)))
        self.size += count

    def slices(self) -> dict[str, tuple[int, int, tuple[int, ...]]]:
        return {name: (a, b, shape) for name, a, b, shape in self.layout}

    def split(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The named blocks of an encoded vector, reshaped (e.g. board planes as C x H x W)."""
        return {name: vector[a:b].reshape(shape) for name, a, b, shape in self.layout}

    def rel(self, seat: int, viewer: int) -> int:
        return (seat - viewer) % self.n

    def encode(self, view: dict[str, Any], viewer: int) -> np.ndarray:
        raise NotImplementedError

    def _finish(self, out: np.ndarray) -> np.ndarray:
        np.clip(out, LOW, HIGH, out=out)
        return out


def encoder_for(game: Game) -> Encoder:
    """The observation encoder of a configured game: a built-in game's own; else the one the
    game gives through its hook `observation_encoder()` (an `Encoder`: `size`, `layout` and
    `encode(view, seat)`, e.g. a subclass of the one here), else the generic one, which hashes
    the view's JSON into a fixed vector (generic.py)."""
    if game.name == "carcassonne":
        from boardwright.rl.observations.carcassonne import CarcassonneEncoder
        return CarcassonneEncoder(game)
    if game.name == "queens":
        from boardwright.rl.observations.queens import QueensEncoder
        return QueensEncoder(game)
    if game.name == "shogun":
        from boardwright.rl.observations.shogun import ShogunEncoder
        return ShogunEncoder(game)
    hook = getattr(game, "observation_encoder", None)
    if callable(hook):
        return hook()
    from boardwright.rl.observations.generic import GenericEncoder
    return GenericEncoder(game)


def one_hot(out: np.ndarray, start: int, index: int | None) -> None:
    if index is not None and index >= 0:
        out[start + index] = 1.0
