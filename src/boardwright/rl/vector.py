"""Carcassonne as a Gymnasium vector environment: N games stepped by one kernel call.

    from boardwright.rl import make_vector_env
    venv = make_vector_env(num_envs=64, players=2, opponent="random")
    obs, info = venv.reset(seed=0)
    obs, reward, terminated, truncated, info = venv.step(actions)   # actions: int (num_envs,)

or through Gymnasium's registry (`import boardwright.rl.gymnasium` registers it):

    gymnasium.make_vec("boardwright/Carcassonne-v0", num_envs=64,
                       vectorization_mode="vector_entry_point", opponent="self")

Unlike `make_vec(..., vectorization_mode="sync")`, which steps 64 copies of the single-agent
environment one after the other and stacks their results, this environment keeps the N games
in a kernel (`boardwright.rl.vector_kernel`) that writes every result straight into arrays
allocated once: the compiled kernel (`boardwright.rl.vector_native`) when it is built and the
game runs on the native engine, else the Python one (`kernel="python"` forces it,
`kernel="native"` insists on the compiled one).

Spaces (`single_*` for one game, the others batched with `gymnasium.vector.utils.batch_space`):

* observation: `Dict(board=Box(uint8, (C, 31, 31)), scalars=Box(int16, (S,)),
  action_mask=Box(int8 0/1, (A,)))`: the board planes and scalars of
  `boardwright.rl.observations.carcassonne` (docs/research/carcassonne-observation.md), from
  the point of view of the seat the row is for, and the legal ids of the seat to move (all zero
  when the game has just ended).
* action: `Discrete(A)` per game (A = the learning action space's size,
  `boardwright.rl.action_spaces`); batched, `MultiDiscrete([A] * num_envs)`.

**The arrays are the kernel's own, returned without copying**: the next `step` or `reset`
overwrites them in place (the same objects every time). Keep what you need with `.copy()`, or
make the environment with `copy=True` (every returned array is then a fresh copy).

The board batch is indexed (N, C, 31, 31) and lies in memory channels last, (N, 31, 31, C):
a step writes the planes of the few cells it changes, each cell's in a cache line or two.
`torch.from_numpy(obs["board"])` is a tensor in `torch.channels_last` format, which a
convolution reads as it is; `np.ascontiguousarray(obs["board"])` is a C-order copy.

Opponents: `opponent="self"` (self-play: every decision of every seat comes back; `info["to_move"]`
says whose, and the observation is that seat's) or "random" / "greedy" (the kernel plays the
other seats; the caller plays `seat`, and every observation is `seat`'s).

Rewards: 0 until a game ends, then `state.returns()` of the seat that made the last move
(self-play) or of `seat`. `terminated` marks that step; `truncated` is always False
(Carcassonne always ends). Autoreset is `AutoresetMode.NEXT_STEP`: the step after an env's
game ends starts its next game, ignores its action (any id will do), returns reward 0 and not
terminated.

Infos: `to_move` (int32 (num_envs,): the seat to decide, -1 at a terminal) with `_to_move`
(all True), and at steps where some game ended `returns` (float32 (num_envs, players):
`state.returns()` of the games that ended, zeros in the other rows) with `_returns` (the envs
whose game ended), as Gymnasium merges infos.

Bad actions raise before anything moves: a batch that is not `num_envs` integers, or an id
outside 0..A-1, raises `MalformedActionError`; a masked-out id `IllegalActionError`; each names
the env and the id, and every game is left as it was. (The single-agent environment ends the
episode with reward -1 instead; a vector of fixed arrays cannot end one game early.)

Seeding (as Gymnasium's sync vector env): `reset(seed=s)` gives env i the seed s + i; a list
gives each env its own (None: drawn from `np_random`); `reset()` draws every seed from
`np_random` (seeded by the last int seed, else from the operating system). Each env's later
games come from its own stream, so the same seeds and the same actions replay the same games.

`action_masks()` is the current mask as a bool array (num_envs, A), a view of the kernel's
int8 mask (sb3-contrib's `MaskablePPO` convention: one row per env, True = allowed).
`render()` ("ansi") returns one text per env, like Gymnasium's sync vector env.
"""

from __future__ import annotations

import importlib
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.error import ClosedEnvironmentError
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from boardwright.core.errors import InvalidOptionError, MalformedActionError
from boardwright.core.inputs import short_repr
from boardwright.rl import make_game
from boardwright.rl.observations import encoder_for, observation_dict_space
from boardwright.rl.vector_kernel import PythonVectorKernel, check_actions

KERNELS = ("auto", "native", "python")
MAX_SEED = 2**63 - 1


def native_kernel_class(game: Any) -> tuple[type | None, str]:
    """The compiled kernel's class if it can run `game`, else None and why not."""
    if game.engine != "native":
        return None, "the game runs on the Python engine (the compiled engine is not built or " \
                     "not chosen)"
    try:
        module = importlib.import_module("boardwright.rl.vector_native")
    except ImportError as exc:
        return None, f"boardwright.rl.vector_native does not import ({exc})"
    if not module.available(game):
        return None, "the compiled engine was built without the vector kernel (rebuild it)"
    return module.NativeVectorKernel, ""


def make_kernel(game: Any, num_envs: int, opponent: str, seat: int, kernel: str) -> Any:
    """The kernel asked for: "native", "python", or "auto" (native when it can run the game)."""
    if kernel not in KERNELS:
        raise InvalidOptionError(f"kernel must be one of {', '.join(KERNELS)}, "
                                 f"not {short_repr(kernel)}")
    if kernel != "python":
        native, why = native_kernel_class(game)
        if native is not None:
            return native(game, num_envs, opponent=opponent, seat=seat)
        if kernel == "native":
            raise InvalidOptionError(f"kernel 'native' is not available: {why}")
    return PythonVectorKernel(game, num_envs, opponent=opponent, seat=seat)


class CarcassonneVectorEnv(VectorEnv):
    """N Carcassonne games as one Gymnasium vector environment (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(self, num_envs: int = 64, players: int = 2,
                 options: dict[str, Any] | None = None, opponent: str = "random", seat: int = 0,
                 kernel: str = "auto", render_mode: str | None = None, copy: bool = False,
                 game: str = "carcassonne", actions: str = "learning") -> None:
        # `game` and `actions` are what the registry's spec passes (`boardwright/Carcassonne-v0`).
        if game != "carcassonne":
            raise InvalidOptionError(f"the vector environment plays Carcassonne, not "
                                     f"{short_repr(game)}")
        if actions != "learning":
            raise InvalidOptionError("the vector environment speaks the learning action ids "
                                     f"only, not actions={short_repr(actions)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidOptionError(f"render_mode {render_mode!r} is not one of "
                                     f"{', '.join(self.metadata['render_modes'])}")
        if type(copy) is not bool:
            raise InvalidOptionError(f"copy must be True or False, not {short_repr(copy)}")
        self.game = make_game("carcassonne", players, options)
        self.kernel = make_kernel(self.game, num_envs, opponent, seat, kernel)
        self.kernel_name = "python" if isinstance(self.kernel, PythonVectorKernel) else "native"
        self.num_envs = num_envs
        self.opponent = opponent
        self.seat = seat
        self.render_mode = render_mode
        self.copy = copy
        self.metadata = dict(self.metadata)
        k = self.kernel
        num_actions = k.mask.shape[1]
        # the single-agent environment's space: the same observation, batched
        self.single_observation_space = observation_dict_space(encoder_for(self.game),
                                                                num_actions)
        self.single_action_space = spaces.Discrete(num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._mask_bool = k.mask.view(np.bool_)  # int8 0/1 read as bool: no copy
        self._all_true = np.ones(num_envs, dtype=bool)
        self._running = False

    # -- Gymnasium API -----------------------------------------------------------------------------

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict]:
        """Start a new game in every env (see the module docstring for the seeds)."""
        self._check_open()
        if options:
            raise InvalidOptionError(f"reset takes no options, not {short_repr(options)}")
        seeds = self._seeds(seed)
        self.kernel.reset(seeds)
        self._running = True
        return self._obs(), self._info(0)

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray, dict[str, Any]]:
        """Play one action per env (ignored for an env whose game ended at the last step)."""
        if not self._running:  # (also once closed)
            self._check_open()
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        if type(actions) is not np.ndarray:
            if isinstance(actions, (list, tuple)):  # a list of ints is fine; of floats, not
                for i, a in enumerate(actions):
                    if not isinstance(a, (int, np.integer)) or isinstance(a, (bool, np.bool_)):
                        raise MalformedActionError(f"env {i}: action {short_repr(a)} is not an "
                                                   "integer id")
            actions = check_actions(actions, self.num_envs)
        ended = self.kernel.step(actions)  # (it checks the batch's shape and kind too)
        k = self.kernel
        if self.copy:
            return (self._obs(), k.reward.copy(), k.terminated.copy(), k.truncated.copy(),
                    self._info(ended))
        return self._obs(), k.reward, k.terminated, k.truncated, self._info(ended)

    def action_masks(self) -> np.ndarray:
        """The legal ids of every env as bool (num_envs, A): a view of the kernel's mask
        (a copy with `copy=True`)."""
        return self._mask_bool.copy() if self.copy else self._mask_bool

    def render(self) -> tuple[str, ...] | None:
        """Every env's position as text ("ansi"), env 0 first; None without a render mode or
        before the first reset."""
        if self.render_mode is None or not self._running:
            return None
        from boardwright.rl.pettingzoo import render_text
        return tuple(render_text(self.game, self.kernel.state(i)) for i in range(self.num_envs))

    def close_extras(self, **kwargs: Any) -> None:
        """Let the kernel go (and its games); a closed environment refuses reset and step."""
        close = getattr(self.kernel, "close", None)
        if callable(close):
            close()
        self.kernel = None
        self._mask_bool = None
        self._running = False

    def state(self, i: int) -> Any:
        """Env i's current position (a `State`: read it, do not change it)."""
        self._check_open()
        return self.kernel.state(i)

    # -- helpers -----------------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self.closed:
            raise ClosedEnvironmentError("the vector environment is closed")

    def _seeds(self, seed: Any) -> np.ndarray:
        n = self.num_envs
        if seed is None:
            return self.np_random.integers(0, MAX_SEED, size=n, dtype=np.int64)
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, (bool, np.bool_)):
            seed = int(seed)
            if not 0 <= seed <= MAX_SEED - n:
                raise InvalidOptionError(f"seed must be a whole number from 0 to "
                                         f"{MAX_SEED - n}, not {seed}")
            super().reset(seed=seed)  # np_random follows the seed, as Gymnasium's envs do
            return np.arange(seed, seed + n, dtype=np.int64)
        if isinstance(seed, (list, tuple, np.ndarray)) and len(seed) == n:
            out = np.empty(n, dtype=np.int64)
            for i, s in enumerate(seed):
                if s is None:
                    out[i] = self.np_random.integers(0, MAX_SEED)
                elif (isinstance(s, (int, np.integer)) and not isinstance(s, (bool, np.bool_))
                      and 0 <= s <= MAX_SEED):
                    out[i] = s
                else:
                    raise InvalidOptionError(f"seed of env {i} must be a whole number from 0 "
                                             f"to {MAX_SEED} or None, not {short_repr(s)}")
            return out
        raise InvalidOptionError(f"seed must be None, an int or a list of {n} seeds, "
                                 f"not {short_repr(seed)}")

    def _obs(self) -> dict[str, np.ndarray]:
        k = self.kernel
        if self.copy:  # (the board's copy keeps its memory order: channels last)
            return {"board": k.board.copy(order="K"), "scalars": k.scalars.copy(),
                    "action_mask": k.mask.copy()}
        return {"board": k.board, "scalars": k.scalars, "action_mask": k.mask}

    def _info(self, ended: int) -> dict[str, Any]:
        """The infos of a step in which `ended` games ended (the kernel's count)."""
        k = self.kernel
        info: dict[str, Any] = {"to_move": k.to_move.copy() if self.copy else k.to_move,
                                "_to_move": self._all_true.copy() if self.copy else self._all_true}
        if ended:
            info["returns"] = k.returns.copy() if self.copy else k.returns
            info["_returns"] = k.terminated.copy()
        return info

