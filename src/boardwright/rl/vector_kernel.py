"""The vector kernel: N Carcassonne games stepped in one call, results written into fixed arrays.

`boardwright.rl.vector.CarcassonneVectorEnv` runs on a kernel. Two implement the same interface:
`PythonVectorKernel` (here: any engine, no compiler needed; the reference) and
`NativeVectorKernel` (`boardwright.rl.vector_native`: the compiled engine steps every game
without a Python frame). The differential tests hold the second to the first, step by step.

The interface (both kernels, exactly)::

    kernel = Kernel(game, num_envs, opponent="random", seat=0)

* `game`: a configured `CarcassonneGame` (`bw.load("carcassonne", players, options)`).
* `opponent`: "self" (self-play: every decision of every seat is returned to the caller;
  `to_move` says whose), or "random" / "greedy" (the other seats are played inside the kernel
  by that agent; the caller plays `seat`, and `seat` must be a seat of the game).

Arrays, allocated once; `reset`, `step` and `start` update them in place (the same objects
every time, so a caller may keep references to them):

* `board`      uint8   (N, C, W, W) observation planes of the seat the row is for (below),
  laid out channels last in memory (a transposed view of `board_memory`, (N, W, W, C), C
  contiguous): `torch.from_numpy` gives a tensor in `torch.channels_last` format, which a
  convolution reads as it is; `np.ascontiguousarray` gives (N, C, W, W) in C order
* `scalars`    int16   (N, S)       observation scalars of that seat
* `mask`       int8    (N, A)       legal learning action ids of the seat to move (A =
  `action_space_for(game).size`); all zero at a terminal
* `reward`     float32 (N,)         `state.returns()[actor]` when this step ended the game, else 0;
  actor = the seat that acted (self-play) or `seat` (opponent mode)
* `terminated` bool    (N,)         this step ended the game
* `truncated`  bool    (N,)         always False (Carcassonne always ends)
* `to_move`    int32   (N,)         the seat whose decision the row's observation is for; -1 at a
  terminal
* `returns`    float32 (N, n)       `state.returns()` of the game that ended at this step (zeros
  in every other row)

Whose observation a row holds: in opponent mode always `seat`'s; in self-play the seat to move,
and at a terminal the seat that made the last move (the one `reward` is for).

Methods:

* `reset(seeds)`: `seeds` int64 (N,), each >= 0. Env i gets its own random stream seeded with
  `seeds[i]` and starts a new game drawn from it; its later automatic resets draw from the same
  stream (game seeds and the opponents' seeds), so a run is reproducible from the seeds alone.
* `step(actions)`: `actions` int64 (N,), learning action ids; returns how many games ended
  at this step (the number of True in `terminated`). Autoreset NEXT_STEP: an env whose
  game ended at the previous step starts its next game in this step; its action is ignored
  (reward 0, not terminated). Every other action is validated before any is applied: an id
  outside 0..A-1 raises `MalformedActionError`, an id whose mask entry is 0
  `IllegalActionError`, each naming the env index and the id; then nothing has changed.
  In opponent mode the step plays the other seats until `seat` must decide or the game ends.
* `start(i, pile)`: start env i's next game now with this draw pile (tile indexes in
  `game._tile_names` order, drawn from the END of the list), for differential tests; the row
  is rewritten as after a reset (reward 0, not terminated, returns zero).
* `state(i)`: env i's current position as a `State` (render, tests); do not modify it.

Before the first `reset`, `step` raises `IllegalActionError` (no game is running).
"""

from __future__ import annotations

import random
from typing import Any, Protocol

import numpy as np

from boardwright.agents import make_agent
from boardwright.core.errors import IllegalActionError, InvalidOptionError, MalformedActionError
from boardwright.core.game import State
from boardwright.rl.action_spaces import action_space_for
from boardwright.rl.observations import encoder_for

OPPONENTS = ("self", "random", "greedy")
SEED_BITS = 63  # game and agent seeds drawn from an env's stream


class VectorKernel(Protocol):
    """What `CarcassonneVectorEnv` needs of a kernel (see the module docstring)."""

    board: np.ndarray
    scalars: np.ndarray
    mask: np.ndarray
    reward: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    to_move: np.ndarray
    returns: np.ndarray

    def reset(self, seeds: np.ndarray) -> None: ...

    def step(self, actions: np.ndarray) -> int: ...

    def start(self, i: int, pile: list[int]) -> None: ...

    def state(self, i: int) -> State: ...


def check_kernel_args(game: Any, num_envs: Any, opponent: Any, seat: Any) -> None:
    """The constructor's arguments, checked the same way by every kernel."""
    if getattr(game, "name", None) != "carcassonne":
        raise InvalidOptionError(f"the vector kernel plays Carcassonne, not "
                                 f"{getattr(game, 'name', type(game).__name__)!r}")
    if type(num_envs) is not int or num_envs < 1:
        raise InvalidOptionError(f"num_envs must be a whole number of at least 1, not {num_envs!r}")
    if opponent not in OPPONENTS:
        raise InvalidOptionError(f"opponent must be one of {', '.join(OPPONENTS)}, "
                                 f"not {opponent!r}")
    if type(seat) is not int or not 0 <= seat < game.num_players:
        raise InvalidOptionError(f"seat must be a seat of the game, 0..{game.num_players - 1}, "
                                 f"not {seat!r}")


def check_seeds(seeds: Any, num_envs: int) -> np.ndarray:
    """`reset`'s seeds as an int64 array of shape (num_envs,), every one >= 0."""
    array = np.asarray(seeds)
    if array.shape != (num_envs,) or array.dtype.kind not in "iu":
        raise InvalidOptionError(f"seeds must be {num_envs} integers (an int64 array of shape "
                                 f"({num_envs},)), not {array.dtype} of shape {array.shape}")
    if array.dtype.kind == "u" and (array > np.iinfo(np.int64).max).any():
        raise InvalidOptionError(f"seeds must be below 2**63, not {int(array.max())}")
    if (array < 0).any():
        raise InvalidOptionError(f"seed {int(array[array < 0][0])} of env "
                                 f"{int(np.flatnonzero(array < 0)[0])} is negative")
    return array.astype(np.int64, copy=False)


def check_actions(actions: Any, num_envs: int) -> np.ndarray:
    """`step`'s actions as an integer array of shape (num_envs,) (values not yet checked)."""
    array = np.asarray(actions)
    if array.shape != (num_envs,) or array.dtype.kind not in "iu":
        raise MalformedActionError(f"actions must be {num_envs} integer ids (shape "
                                   f"({num_envs},)), not {array.dtype} of shape {array.shape}")
    return array


def validate_actions(actions: np.ndarray, mask: np.ndarray, skip: np.ndarray,
                     describe: Any) -> None:
    """Raise if an env not in `skip` has an action out of range (`MalformedActionError`) or
    masked out (`IllegalActionError`), naming the lowest such env and its id.

    Every out-of-range id is reported before any illegal one, so which error a batch gets does
    not depend on the order of its envs."""
    size = mask.shape[1]
    out = ((actions < 0) | (actions >= size)) & ~skip
    if out.any():
        i = int(np.flatnonzero(out)[0])
        raise MalformedActionError(f"env {i}: action id {int(actions[i])} is outside "
                                   f"0..{size - 1}")
    rows = np.arange(actions.size)
    illegal = (mask[rows, np.where(skip, 0, actions)] == 0) & ~skip
    if illegal.any():
        i = int(np.flatnonzero(illegal)[0])
        raise IllegalActionError(f"env {i}: action id {int(actions[i])} "
                                 f"({describe(int(actions[i]))}) is not legal in this position")


def state_from_pile(game: Any, pile: list[int], seed: int = 0) -> State:
    """A new game of `game` (either engine) whose draw pile is `pile`: tile indexes in
    `game._tile_names` order, drawn from the end. (Its record cannot replay: the seed does not
    deal this pile.)"""
    names = game._tile_names
    if not all(type(t) is int and 0 <= t < len(names) for t in pile):
        raise InvalidOptionError(f"a pile holds tile indexes 0..{len(names) - 1}")
    if game.engine == "native":
        from boardwright.games.carcassonne.native.state import NativeCarcassonneState
        return NativeCarcassonneState(game, seed, list(pile), raw_pile=True)
    from boardwright.games.carcassonne.state import CarcassonneState
    return CarcassonneState(game, seed, [names[t] for t in pile], game.config.start_tile)


class KernelBase:
    """What both kernels set up alike: the checked arguments, the game's action space and
    encoder, and the zeroed arrays of the interface."""

    def __init__(self, game: Any, num_envs: int, opponent: str = "random", seat: int = 0) -> None:
        check_kernel_args(game, num_envs, opponent, seat)
        self.game = game
        self.num_envs = N = num_envs
        self.opponent = opponent
        self.seat = seat
        self.space = action_space_for(game)
        self.encoder = encoder_for(game)
        shapes = self.encoder.spaces()
        n = game.num_players
        planes, width, _ = shapes["board"][0]
        # Channels last in memory: a step writes the planes of a few cells, each cell's in
        # one or two cache lines (see `board` in the module docstring).
        self.board_memory = np.zeros((N, width, width, planes), dtype=shapes["board"][1])
        self.board = self.board_memory.transpose(0, 3, 1, 2)
        self.scalars = np.zeros((N, *shapes["scalars"][0]), dtype=shapes["scalars"][1])
        self.mask = np.zeros((N, self.space.size), dtype=np.int8)
        self.reward = np.zeros(N, dtype=np.float32)
        self.terminated = np.zeros(N, dtype=bool)
        self.truncated = np.zeros(N, dtype=bool)
        self.to_move = np.full(N, -1, dtype=np.int32)
        self.returns = np.zeros((N, n), dtype=np.float32)


class PythonVectorKernel(KernelBase):
    """The vector kernel in Python: one engine state per env, stepped in a loop (see the
    module docstring). The reference the compiled kernel is tested against."""

    def __init__(self, game: Any, num_envs: int, opponent: str = "random", seat: int = 0) -> None:
        super().__init__(game, num_envs, opponent, seat)
        N = num_envs
        self._out = [{"board": self.board[i], "scalars": self.scalars[i]} for i in range(N)]
        self._states: list[Any] = [None] * N
        self._legal: list[Any] = [None] * N
        self._streams: list[random.Random | None] = [None] * N
        self._agents: list[dict[int, Any]] = [{} for _ in range(N)]

    # -- the interface -----------------------------------------------------------------------------

    def reset(self, seeds: np.ndarray) -> None:
        seeds = check_seeds(seeds, self.num_envs)
        for i, seed in enumerate(seeds.tolist()):
            self._streams[i] = random.Random(seed)
        for i in range(self.num_envs):
            self._new_game(i, None)

    def step(self, actions: np.ndarray) -> int:
        if any(state is None for state in self._states):
            raise IllegalActionError("no game is running: call reset(seeds) before step")
        actions = check_actions(actions, self.num_envs)
        ended = self.terminated.copy()  # these envs restart now; their actions are ignored
        validate_actions(actions, self.mask, ended, self.space.describe)
        self.reward.fill(0.0)
        self.terminated.fill(False)
        self.returns.fill(0.0)
        for i, action in enumerate(actions.tolist()):
            if ended[i]:
                self._new_game(i, None)
                continue
            state = self._states[i]
            actor = state.current_player
            state.apply(self._legal[i].action(action))
            self._play_opponents(i)
            self._after_move(i, actor if self.opponent == "self" else self.seat)
        return int(np.count_nonzero(self.terminated))

    def start(self, i: int, pile: list[int]) -> None:
        if type(i) is not int or not 0 <= i < self.num_envs:
            raise InvalidOptionError(f"env index must be 0..{self.num_envs - 1}, not {i!r}")
        if self._streams[i] is None:  # never reset: the opponents' seeds come from stream 0
            self._streams[i] = random.Random(0)
        self._new_game(i, list(pile))

    def state(self, i: int) -> State:
        return self._states[i]

    # -- one env -----------------------------------------------------------------------------------

    def _new_game(self, i: int, pile: list[int] | None) -> None:
        """Env i starts its next game (shuffled from its stream, or from `pile`)."""
        stream = self._streams[i]
        if pile is None:
            state = self.game.new_game(stream.getrandbits(SEED_BITS))
        else:
            state = state_from_pile(self.game, pile)
        self._states[i] = state
        if self.opponent != "self":
            self._agents[i] = {s: make_agent(self.opponent, seed=stream.getrandbits(SEED_BITS))
                               for s in range(self.game.num_players) if s != self.seat}
            self._play_opponents(i)
        self.reward[i] = 0.0
        self.terminated[i] = False
        self.returns[i] = 0.0
        self._observe(i, self.seat if self.opponent != "self" else state.current_player)

    def _play_opponents(self, i: int) -> None:
        if self.opponent == "self":
            return
        state, agents = self._states[i], self._agents[i]
        while not state.is_terminal and state.current_player != self.seat:
            state.apply(agents[state.current_player].act(state))

    def _after_move(self, i: int, actor: int) -> None:
        state = self._states[i]
        if state.is_terminal:
            returns = state.returns()
            self.reward[i] = returns[actor]
            self.terminated[i] = True
            self.returns[i] = returns
            self._observe(i, actor)
        else:
            self._observe(i, self.seat if self.opponent != "self" else state.current_player)

    def _observe(self, i: int, viewer: int) -> None:
        """Row i: the observation of `viewer`, the legal ids (none at a terminal), the mover."""
        state = self._states[i]
        self.encoder.encode_into(state, viewer, self._out[i])  # (it clears the row first)
        self.mask[i] = 0
        self._legal[i] = legal = self.space.legal(state)
        self.mask[i, legal.ids] = 1
        self.to_move[i] = -1 if state.is_terminal else state.current_player

