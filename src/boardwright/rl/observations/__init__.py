"""Numeric observation encoders: one per game, fixed shape, showing only what a seat may see.

`encoder_for(game)` returns the encoder of a configured `Game`. Every encoder speaks two forms:

* the observation proper, a dict of named arrays: `encoder.spaces()` gives each array's
  `(shape, dtype, low, high)`, `encoder.encode_state(state, seat)` builds it and
  `encoder.encode_into(state, seat, out)` writes it into preallocated arrays (a vectorised
  environment's batch rows). Most games have one array, `{"observation": float32 vector}`;
  Carcassonne has `{"board": uint8 planes, "scalars": int16 counts}` (lossless, see
  `boardwright.rl.observations.carcassonne`);
* its float view, one flat float32 vector of `encoder.size` values: `encoder.to_float(obs)`,
  or `encoder.encode(view, seat)` straight from the JSON view of one seat. `encoder.layout`
  lists the named slices `(name, start, stop, shape)` of that vector and `encoder.tensor(obs)`
  gives the float view in the shape a convolutional network reads (flat for most games).

Seats are *relative*: block k describes the seat k places after the observer (k = 0 is the
observer). The layout of each game is documented in its module
(`boardwright.rl.observations.<game>`). Other games (plugins) bring their own encoder through a
hook, or get the generic encoder (`generic.py`); the base class here gives every encoder the
dict form on top of its `encode(view, seat)`.
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
        # Named planes of a board array and named slices of a scalar array (first, count), in
        # layout order; empty for an encoder whose observation is one float vector.
        self.board_blocks: dict[str, tuple[int, int]] = {}
        self.scalar_blocks: dict[str, tuple[int, int]] = {}

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

    # -- the observation as a dict of arrays (the default: the float vector alone) -----------

    def spaces(self) -> dict[str, tuple[tuple[int, ...], Any, float, float]]:
        """Each array of the observation: name -> (shape, dtype, low, high)."""
        return {"observation": ((self.size,), np.float32, LOW, HIGH)}

    def encode_state(self, state: Any, seat: int) -> dict[str, np.ndarray]:
        """The observation of `seat` in `state`, built from what that seat may see."""
        return {"observation": self.encode(state.view(seat), seat)}

    def encode_into(self, state: Any, seat: int, out: dict[str, np.ndarray]) -> None:
        """`encode_state` written into preallocated arrays of `spaces()`' shapes."""
        for name, array in self.encode_state(state, seat).items():
            out[name][...] = array

    def observe(self, state: Any, seat: int, space: Any,
                track: bool = False) -> tuple[dict[str, np.ndarray], Any]:
        """`encode_state` and the legal actions of the position in `space` (`space.legal`):
        what an environment needs after every step, which an encoder may compute together.
        `track`: the state is observed again after each step (an encoder may keep work
        with it)."""
        return self.encode_state(state, seat), space.legal(state)

    @property
    def scales(self) -> np.ndarray:
        """What each scalar is multiplied by in the float view (none here: no scalar array)."""
        return np.zeros(0, dtype=np.float32)

    def to_float(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        """The float view of an observation: one flat float32 vector of `size` values."""
        return np.asarray(obs["observation"], dtype=np.float32).reshape(self.size)

    def tensor(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        """The float view shaped for a network (flat unless the game lays out planes)."""
        return self.to_float(obs)

    def _finish(self, out: np.ndarray) -> np.ndarray:
        np.clip(out, LOW, HIGH, out=out)
        return out


def encoder_for(game: Game) -> Encoder:
    """The observation encoder of a configured game: a built-in game's own; else the one the
    game gives through its hook `observation_encoder()` (an `Encoder`: `size`, `layout` and
    `encode(view, seat)`, best a subclass of the one here; any other object with those three
    is given the base class's dict form), else the generic one, which hashes the view's JSON
    into a fixed vector (generic.py)."""
    if game.name == "carcassonne":
        from boardwright.rl.observations.carcassonne import CarcassonneEncoder
        return CarcassonneEncoder(game)
    if game.name == "queens":
        from boardwright.rl.observations.queens import QueensEncoder
        return QueensEncoder(game)
    if game.name == "shogun":
        from boardwright.rl.observations.shogun import ShogunEncoder
        return ShogunEncoder(game)
    encoder = game.observation_encoder()  # the hook's default: None
    if encoder is not None:
        return encoder if isinstance(encoder, Encoder) else _Borrowed(game, encoder)
    from boardwright.rl.observations.generic import GenericEncoder
    return GenericEncoder(game)


class _Borrowed(Encoder):
    """A game's own encoder that is not an `Encoder` (it has `size`, `layout` and `encode`):
    given the dict form of the base class around its float vector."""

    def __init__(self, game: Game, inner: Any) -> None:
        super().__init__(game)
        self.inner = inner
        self.game_name = getattr(inner, "game_name", game.name)
        self.size = inner.size
        self.layout = list(inner.layout)

    def encode(self, view: dict[str, Any], viewer: int) -> np.ndarray:
        return self.inner.encode(view, viewer)


def one_hot(out: np.ndarray, start: int, index: int | None) -> None:
    if index is not None and index >= 0:
        out[start + index] = 1.0


def observation_dict_space(encoder: Encoder, num_actions: int) -> Any:
    """The Gymnasium space of an adapter's observation: a Box per array of `encoder.spaces()`
    and the `action_mask` (int8, one per action id). Needs Gymnasium (imported here)."""
    from gymnasium import spaces

    boxes = {name: spaces.Box(low, high, shape, dtype)
             for name, (shape, dtype, low, high) in encoder.spaces().items()}
    boxes["action_mask"] = spaces.Box(0, 1, (num_actions,), np.int8)
    return spaces.Dict(boxes)
