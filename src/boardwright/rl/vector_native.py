"""The compiled vector kernel: N Carcassonne games stepped by the native engine in one call.

Same interface as `PythonVectorKernel` (`boardwright.rl.vector_kernel`, where it is described);
the work of a step is done in compiled code (`native/cpp/vecenv.cpp`) with the interpreter's
lock released: the chosen actions applied, the other seats played (uniformly at random or by the
greedy choice of the native engine), the observation planes updated in place from what the step
changed (`obs.cpp`), the mask, rewards, terminations and the seat to move written into the
arrays. Only the checks of the actions are made here, with numpy, before anything is applied.

Its games are dealt by the native engine's own generator from each env's seed, so they are not
the games `game.new_game(seed)` deals (the Python kernel's), but they are reproducible from the
seeds; `start(i, pile)` lays a given pile, which is how the two kernels are compared.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardwright.core.errors import IllegalActionError, InvalidOptionError
from boardwright.core.game import State
from boardwright.rl.observations.carcassonne_native import obs_spec
from boardwright.rl.vector_kernel import (
    KernelBase, check_actions, check_kernel_args, check_seeds, validate_actions,
)

MODES = {"self": 0, "random": 1, "greedy": 2}
INT64 = np.dtype(np.int64)  # (a batch of this dtype object is passed as it is)


def available(game: Any) -> bool:
    """Whether the compiled kernel can run `game` (it runs on the native engine)."""
    if getattr(game, "engine", None) != "native":
        return False
    from boardwright.games.carcassonne.native import _engine
    return hasattr(_engine, "VecEnv")


class NativeVectorKernel(KernelBase):
    """The vector kernel of the native engine (see the module docstring)."""

    def __init__(self, game: Any, num_envs: int, opponent: str = "random", seat: int = 0) -> None:
        check_kernel_args(game, num_envs, opponent, seat)
        if not available(game):
            raise InvalidOptionError("the compiled vector kernel needs the native engine, and "
                                     "this game runs on the Python engine (no compiled engine "
                                     "was built, or engine='python' was asked for)")
        from boardwright.games.carcassonne.native import _engine
        super().__init__(game, num_envs, opponent, seat)
        N = num_envs
        self._core = self.make_core(_engine, game._native_spec,
                                    obs_spec(self.encoder, self.space, channels_last=True))
        self._running = np.zeros(N, dtype=bool)
        self._all_running = False  # self._running.all(), kept (a reduction costs microseconds)
        self._batch = (N,)  # the shape of a batch of actions

    def make_core(self, engine: Any, spec: Any, layout: Any) -> Any:
        """A compiled `VecEnv` of `engine` (the extension module, or another build of it:
        `benchmarks/kernel_pair.py`) over this kernel's arrays, with `spec` and `layout` made by
        that module."""
        return engine.VecEnv(
            spec, layout, self.num_envs, MODES[self.opponent], self.seat,
            self.board_memory.reshape(-1), self.scalars.reshape(-1), self.mask.reshape(-1),
            self.reward, self.terminated, self.truncated, self.to_move, self.returns.reshape(-1))

    def reset(self, seeds: np.ndarray) -> None:
        self._core.reset(np.ascontiguousarray(check_seeds(seeds, self.num_envs)))
        self._running[:] = True
        self._all_running = True

    def step(self, actions: np.ndarray) -> int:
        if not self._all_running:
            raise IllegalActionError("no game is running: call reset(seeds) before step")
        if (type(actions) is not np.ndarray or actions.dtype is not INT64
                or actions.shape != self._batch or not actions.flags.c_contiguous):
            actions = np.ascontiguousarray(check_actions(actions, self.num_envs), dtype=np.int64)
        ended = self._core.step(actions)
        if type(ended) is not int:  # nothing applied: say which action is bad
            validate_actions(actions, self.mask, self.terminated, self.space.describe)
            raise AssertionError("the compiled kernel refused actions the checks accept")
        return ended

    def start(self, i: int, pile: list[int]) -> None:
        if type(i) is not int or not 0 <= i < self.num_envs:
            raise InvalidOptionError(f"env index must be 0..{self.num_envs - 1}, not {i!r}")
        names = self.game._tile_names
        if not all(type(t) is int and 0 <= t < len(names) for t in pile):
            raise InvalidOptionError(f"a pile holds tile indexes 0..{len(names) - 1}")
        self._core.start(i, list(pile))
        self._running[i] = True
        self._all_running = bool(self._running.all())

    def state(self, i: int) -> State:
        """A copy of env i's position (a native state of the game)."""
        state = self.game.new_game(0)
        self._core.copy_into(i, state)
        return state
