"""Carcassonne's vector environment (`boardwright.rl.vector`) and its kernels.

Every test runs on each kernel: the Python one (on both engines) and the compiled one (native
engine; skipped while `boardwright.rl.vector_native` is not there). The tests read the kernel
only through the environment and the kernel interface, and check it against the engine's own
state (`kernel.state(i)`), the learning action space and the observation encoder; the
differential test at the end holds the compiled kernel to the Python one step by step.
"""

from __future__ import annotations

import functools
import importlib
import random

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.vector import AutoresetMode, SyncVectorEnv

import boardwright as bw
import boardwright.rl.gymnasium  # noqa: F401
from boardwright.core.errors import IllegalActionError, InvalidOptionError, MalformedActionError
from boardwright.rl import make_game, make_vector_env
from boardwright.rl.action_spaces import action_space_for
from boardwright.rl.pettingzoo import render_text
from boardwright.rl.vector import CarcassonneVectorEnv
from boardwright.rl.vector_kernel import PythonVectorKernel
from boardwright.rl.observations import encoder_for

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

AM = {"expansions": ["abbey_mayor"]}
AM_ALL = {"expansions": ["abbey_mayor"], "abbeys": 2, "wagons": 2, "barns": 2, "mayors": 2}


def native_available() -> bool:
    try:
        importlib.import_module("boardwright.rl.vector_native")
    except ImportError:
        return False
    return True


NO_NATIVE = pytest.mark.skipif(not native_available(),
                               reason="boardwright.rl.vector_native is not built yet")
# (kernel, engine): the Python kernel on each engine, the compiled one on the native engine.
KERNELS = [pytest.param("python", "python", id="python-kernel-python-engine"),
           pytest.param("python", "native", id="python-kernel-native-engine"),
           pytest.param("native", "native", id="native-kernel", marks=NO_NATIVE)]


def over_kernels(test):
    """Run `test(kernel, ...)` on each kernel, its games on that case's engine."""
    parametrize = pytest.mark.parametrize("kernel, carcassonne_engine", KERNELS,
                                          indirect=["carcassonne_engine"])
    return parametrize(pytest.mark.usefixtures("carcassonne_engine")(test))


def pick(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal id per env (0 where nothing is legal)."""
    return np.array([int(rng.choice(np.flatnonzero(row))) if row.any() else 0 for row in mask],
                    dtype=np.int64)


# One encoder per game object (games hash by identity): making one builds its static tables,
# milliseconds that each row checked would pay again.
encoder_of = functools.lru_cache(maxsize=8)(encoder_for)


def expected_observation(game, state, seat: int) -> dict[str, np.ndarray]:
    """The encoder's observation of `seat`, in fresh arrays."""
    return encoder_of(game).encode_state(state, int(seat))


def snapshot(venv: CarcassonneVectorEnv) -> tuple:
    """Everything the environment shows and every game's position, copied."""
    k = venv.kernel
    arrays = tuple(a.copy() for a in (k.board, k.scalars, k.mask, k.reward, k.terminated,
                                      k.truncated, k.to_move, k.returns))
    return arrays, tuple(venv.state(i).signature() for i in range(venv.num_envs))


def assert_same(a: tuple, b: tuple) -> None:
    for x, y in zip(a[0], b[0]):
        assert np.array_equal(x, y)
    assert a[1] == b[1]


def check_rows(venv: CarcassonneVectorEnv, observers: list[int]) -> None:
    """Each row against its game: the mask is the space's legal ids, to_move the seat to move,
    the observation the encoder's for `observers[i]`."""
    k, space = venv.kernel, action_space_for(venv.game)
    for i in range(venv.num_envs):
        state = venv.state(i)
        expected_mask = np.zeros(space.size, dtype=np.int8)
        expected_mask[space.legal(state).ids] = 1
        assert np.array_equal(k.mask[i], expected_mask)
        assert k.to_move[i] == (-1 if state.is_terminal else state.current_player)
        expected = expected_observation(venv.game, state, observers[i])
        assert np.array_equal(k.board[i], expected["board"])
        assert np.array_equal(k.scalars[i], expected["scalars"])


# -- spaces, shapes, dtypes ------------------------------------------------------------------------

@over_kernels
@pytest.mark.parametrize("options", [{}, AM_ALL], ids=["base", "abbey_mayor"])
def test_spaces_shapes_and_dtypes(kernel, options):
    venv = make_vector_env(num_envs=3, players=3, options=options, opponent="self", kernel=kernel)
    assert venv.kernel_name == kernel
    game = make_game("carcassonne", 3, options)
    size = action_space_for(game).size
    described = encoder_for(game).spaces()
    single = venv.single_observation_space
    assert single["board"].shape == tuple(described["board"][0])
    assert single["board"].shape[1:] == (31, 31) and single["board"].dtype == np.uint8
    assert single["scalars"].shape == tuple(described["scalars"][0])
    assert single["scalars"].dtype == np.int16
    assert single["action_mask"].shape == (size,) and single["action_mask"].dtype == np.int8
    assert venv.single_action_space == gymnasium.spaces.Discrete(size)
    assert venv.action_space == gymnasium.spaces.MultiDiscrete([size] * 3)
    assert venv.observation_space["board"].shape == (3, *single["board"].shape)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    # the single-agent environment's spaces, so a policy fits both
    single_env = gymnasium.make("boardwright/Carcassonne-v0", players=3, options=options)
    assert single == single_env.observation_space
    assert venv.single_action_space == single_env.action_space
    obs, info = venv.reset(seed=4)
    assert venv.observation_space.contains(obs)
    assert set(obs) == {"board", "scalars", "action_mask"}
    assert info["to_move"].dtype == np.int32 and info["_to_move"].all()
    assert "returns" not in info
    obs2, reward, terminated, truncated, info = venv.step(pick(obs["action_mask"],
                                                               np.random.default_rng(0)))
    assert venv.observation_space.contains(obs2)
    assert reward.dtype == np.float32 and reward.shape == (3,)
    assert terminated.dtype == truncated.dtype == bool and not truncated.any()
    venv.close()


@over_kernels
def test_arrays_are_shared_unless_copy(kernel):
    venv = make_vector_env(num_envs=2, opponent="self", kernel=kernel)
    obs, info = venv.reset(seed=1)
    obs2, reward, terminated, truncated, info2 = venv.step(pick(obs["action_mask"],
                                                                np.random.default_rng(1)))
    for key in obs:
        assert obs2[key] is obs[key]  # the same arrays, overwritten in place
    assert info2["to_move"] is info["to_move"]
    assert reward is venv.kernel.reward and terminated is venv.kernel.terminated
    copying = make_vector_env(num_envs=2, opponent="self", kernel=kernel, copy=True)
    first, _ = copying.reset(seed=1)
    kept = {key: value.copy() for key, value in first.items()}
    second, *_ = copying.step(pick(first["action_mask"], np.random.default_rng(1)))
    for key in first:
        assert second[key] is not first[key]
        assert np.array_equal(first[key], kept[key])  # the first batch did not move
        assert np.array_equal(second[key], obs2[key])  # same seeds, same moves: same games


@over_kernels
def test_board_is_channels_last_in_memory(kernel):
    """The board batch reads as (N, C, W, W) and lies in memory as (N, W, W, C): a cell's
    planes are adjacent bytes, so a step writes a cache line or two per cell it changes."""
    venv = make_vector_env(num_envs=2, opponent="random", kernel=kernel)
    obs, _ = venv.reset(seed=3)
    board, memory = obs["board"], venv.kernel.board_memory
    N, C, W, _ = board.shape
    assert memory.shape == (N, W, W, C) and memory.flags.c_contiguous
    assert board.strides == (W * W * C, 1, W * C, C)
    assert np.shares_memory(board, memory)
    assert np.array_equal(np.ascontiguousarray(board), memory.transpose(0, 3, 1, 2))
    for i in range(N):  # each row is its game's observation, plane by plane
        expected = expected_observation(venv.game, venv.state(i), 0)["board"]
        assert np.array_equal(memory[i], expected.transpose(1, 2, 0))
    venv.close()


# -- what the rows say -----------------------------------------------------------------------------

@over_kernels
@pytest.mark.parametrize("options", [{}, AM_ALL], ids=["base", "abbey_mayor"])
def test_self_play_rows_follow_the_games_to_the_end(kernel, options):
    """Self-play: each row is the seat to move (its observation, its legal ids); a game's last
    step rewards the seat that moved with its `returns()`; the terminal row shows no legal id,
    to_move -1 and the mover's observation."""
    venv = make_vector_env(num_envs=3, players=3, options=options, opponent="self", kernel=kernel)
    rng = np.random.default_rng(7)
    obs, info = venv.reset(seed=7)
    ended = np.zeros(3, dtype=bool)
    observers = [int(s) for s in info["to_move"]]
    check_rows(venv, observers)
    for _ in range(2000):
        movers = info["to_move"].copy()
        obs, reward, terminated, truncated, info = venv.step(pick(obs["action_mask"], rng))
        for i in range(3):
            if ended[i]:  # this step restarted the env
                observers[i] = int(info["to_move"][i])
                continue
            state = venv.state(i)
            if terminated[i]:
                returns = state.returns()
                assert state.is_terminal and reward[i] == np.float32(returns[movers[i]])
                assert np.array_equal(info["returns"][i], np.float32(returns))
                assert info["_returns"][i]
                assert info["to_move"][i] == -1 and not obs["action_mask"][i].any()
                observers[i] = int(movers[i])
            else:
                assert reward[i] == 0 and not state.is_terminal
                assert "returns" not in info or not info["_returns"][i]
                observers[i] = int(info["to_move"][i])
        check_rows(venv, observers)
        ended |= terminated
        if ended.all():
            break
    else:
        raise AssertionError("games did not end")
    venv.close()


@over_kernels
def test_autoreset_next_step_ignores_the_action_and_starts_a_new_game(kernel):
    venv = make_vector_env(num_envs=2, opponent="self", kernel=kernel)
    rng = np.random.default_rng(3)
    obs, _info = venv.reset(seed=3)
    for _ in range(2000):
        obs, _reward, terminated, _truncated, info = venv.step(pick(obs["action_mask"], rng))
        if terminated.any():
            break
    else:
        raise AssertionError("no game ended")
    done = np.flatnonzero(terminated)
    assert np.array_equal(info["_returns"], terminated)
    actions = pick(obs["action_mask"], rng)
    actions[done] = [-5, 10**9][: done.size]  # ignored: even ids outside the space will do
    obs, reward, terminated2, _truncated, info = venv.step(actions)
    for i in done:
        state = venv.state(int(i))
        assert not terminated2[i] and reward[i] == 0
        assert len(state.history) == 0 and not state.is_terminal  # a fresh game
        assert info["to_move"][i] == state.current_player and obs["action_mask"][i].any()
        assert "returns" not in info or not info["_returns"][i]
    check_rows(venv, list(info["to_move"]))


@over_kernels
@pytest.mark.parametrize("opponent, seat", [("random", 0), ("random", 1), ("greedy", 1)])
def test_opponent_modes_return_only_the_seats_decisions(kernel, opponent, seat):
    """The kernel plays the other seats: every row is `seat`'s to decide, observed by `seat`;
    at the end the reward is `seat`'s return."""
    venv = make_vector_env(num_envs=2, players=2, opponent=opponent, seat=seat, kernel=kernel)
    rng = np.random.default_rng(11)
    obs, info = venv.reset(seed=11)
    steps = 60 if opponent == "greedy" else 2000  # greedy opponents are slow: a few turns
    ended = np.zeros(2, dtype=bool)
    for _ in range(steps):
        assert ((info["to_move"] == seat) | ended).all()
        check_rows(venv, [seat, seat])
        before = [len(venv.state(i).history) for i in range(2)]
        obs, reward, terminated, _truncated, info = venv.step(pick(obs["action_mask"], rng))
        for i in range(2):
            state = venv.state(i)
            if ended[i]:
                continue
            if terminated[i]:
                assert reward[i] == np.float32(state.returns()[seat])
                assert np.array_equal(info["returns"][i], np.float32(state.returns()))
            else:
                assert reward[i] == 0 and state.current_player == seat
            assert len(state.history) > before[i]
        check_rows(venv, [seat, seat])
        ended = terminated.copy()
        if opponent != "greedy" and terminated.any():
            return
    if opponent != "greedy":
        raise AssertionError("no game ended")


# -- seeds -----------------------------------------------------------------------------------------

def trajectory(venv: CarcassonneVectorEnv, seed, steps: int, action_seed: int) -> list:
    rng = np.random.default_rng(action_seed)
    obs, info = venv.reset(seed=seed)
    out = [(obs["board"].copy(), obs["scalars"].copy(), obs["action_mask"].copy(),
            info["to_move"].copy())]
    for _ in range(steps):
        obs, reward, terminated, _t, info = venv.step(pick(obs["action_mask"], rng))
        out.append((obs["board"].copy(), obs["scalars"].copy(), obs["action_mask"].copy(),
                    info["to_move"].copy(), reward.copy(), terminated.copy()))
    return out


def same_trajectory(a: list, b: list) -> bool:
    return all(all(np.array_equal(x, y) for x, y in zip(s, t)) for s, t in zip(a, b))


@over_kernels
@pytest.mark.parametrize("opponent", ["self", "random"])
def test_the_same_seed_and_actions_replay_the_same_games(kernel, opponent):
    """Two environments, same seed, same actions: the same arrays at every step, through an
    automatic reset (a whole game and more); another seed deals other games."""
    a = make_vector_env(num_envs=3, opponent=opponent, kernel=kernel)
    b = make_vector_env(num_envs=3, opponent=opponent, kernel=kernel)
    steps = 170 if opponent == "self" else 90
    first = trajectory(a, 5, steps, action_seed=1)
    assert any(t[-1].any() for t in first[1:])  # a game ended and the env went on
    assert same_trajectory(first, trajectory(b, 5, steps, action_seed=1))
    assert same_trajectory(first, trajectory(b, [5, 6, 7], steps, action_seed=1))
    assert not same_trajectory(first[:2], trajectory(b, 6, 1, action_seed=1))


@over_kernels
def test_reset_without_seed_follows_the_last_seed(kernel):
    a = make_vector_env(num_envs=2, opponent="self", kernel=kernel)
    b = make_vector_env(num_envs=2, opponent="self", kernel=kernel)
    a.reset(seed=9)
    b.reset(seed=9)
    assert same_trajectory(trajectory(a, None, 3, 0), trajectory(b, None, 3, 0))
    first = trajectory(a, [None, 4], 0, 0)
    second = trajectory(b, [None, 4], 0, 0)
    assert same_trajectory(first, second)


@pytest.mark.usefixtures("carcassonne_engine")
@pytest.mark.parametrize("seed", [-1, 1.5, "x", [1], [1, -2], [1, True], 2**63])
def test_bad_seeds_are_refused(seed):
    venv = make_vector_env(num_envs=2, kernel="python")
    with pytest.raises(InvalidOptionError, match="seed"):
        venv.reset(seed=seed)


# -- bad actions -----------------------------------------------------------------------------------

@over_kernels
def test_bad_actions_raise_naming_the_env_and_change_nothing(kernel):
    venv = make_vector_env(num_envs=3, opponent="self", kernel=kernel)
    rng = np.random.default_rng(2)
    obs, _info = venv.reset(seed=2)
    obs, *_ = venv.step(pick(obs["action_mask"], rng))
    size = venv.single_action_space.n
    good = pick(obs["action_mask"], rng)
    illegal = [int(np.flatnonzero(obs["action_mask"][i] == 0)[0]) for i in range(3)]
    before = snapshot(venv)
    cases = [
        (good.astype(np.float64), MalformedActionError, "actions must be 3 integer ids"),
        ([int(good[0]), 1.5, int(good[2])], MalformedActionError,
         "env 1: action 1.5 is not an integer"),
        (good.astype(bool), MalformedActionError, "actions must be 3 integer ids"),
        (good[:2], MalformedActionError, "actions must be 3 integer ids"),
        (np.array([good[0], good[1], size]), MalformedActionError,
         f"env 2: action id {size} is outside 0..{size - 1}"),
        (np.array([good[0], -1, good[2]]), MalformedActionError, "env 1: action id -1 "),
        (np.array([good[0], good[1], illegal[2]]), IllegalActionError,
         f"env 2: action id {illegal[2]} .*not legal"),
        (np.array([illegal[0], illegal[1], illegal[2]]), IllegalActionError,
         f"env 0: action id {illegal[0]} "),
        # an id out of range is reported before an illegal one, wherever it is
        (np.array([good[0], illegal[1], -3]), MalformedActionError, "env 2: action id -3 "),
    ]
    for actions, error, text in cases:
        with pytest.raises(error, match=text):
            venv.step(actions)
        assert_same(before, snapshot(venv))
    venv.step(good)  # still playable, from where it was: one move further
    assert [len(venv.state(i).history) for i in range(3)] == [2, 2, 2]


@over_kernels
def test_step_before_reset_and_after_close(kernel):
    venv = make_vector_env(num_envs=2, kernel=kernel)
    with pytest.raises(gymnasium.error.ResetNeeded):
        venv.step(np.zeros(2, dtype=np.int64))
    venv.reset(seed=0)
    venv.close()
    venv.close()  # a second close does nothing
    assert venv.closed
    with pytest.raises(gymnasium.error.ClosedEnvironmentError):
        venv.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(gymnasium.error.ClosedEnvironmentError):
        venv.reset(seed=0)


# -- Gymnasium's entry points, masks, render -------------------------------------------------------

@over_kernels
def test_make_vec_through_the_vector_entry_point(kernel):
    venv = gymnasium.make_vec("boardwright/Carcassonne-v0", num_envs=4,
                              vectorization_mode="vector_entry_point", players=3,
                              opponent="self", kernel=kernel, options=AM)
    assert isinstance(venv, CarcassonneVectorEnv) and venv.num_envs == 4
    assert venv.game.num_players == 3 and venv.game.config.abbey_mayor
    assert venv.spec.id == "boardwright/Carcassonne-v0"
    assert venv.spec.kwargs["vectorization_mode"] == "vector_entry_point"
    obs, info = venv.reset(seed=0)
    assert obs["board"].shape[0] == 4
    # an id with a vector entry point uses it unless told otherwise; sync still stacks copies
    assert isinstance(gymnasium.make_vec("boardwright/Carcassonne-v0", num_envs=2,
                                         kernel=kernel), CarcassonneVectorEnv)
    sync = gymnasium.make_vec("boardwright/Carcassonne-v0", num_envs=2, vectorization_mode="sync")
    assert isinstance(sync, SyncVectorEnv)
    sync.close()


@over_kernels
def test_action_masks_are_the_mask_as_bool(kernel):
    venv = make_vector_env(num_envs=2, opponent="self", kernel=kernel)
    obs, _ = venv.reset(seed=5)
    masks = venv.action_masks()
    assert masks.dtype == np.bool_ and masks.shape == obs["action_mask"].shape
    assert np.array_equal(masks, obs["action_mask"] != 0)
    assert np.shares_memory(masks, obs["action_mask"])  # a view: no copy per step
    obs, *_ = venv.step(pick(obs["action_mask"], np.random.default_rng(0)))
    assert np.array_equal(venv.action_masks(), obs["action_mask"] != 0)


@over_kernels
def test_render_ansi_shows_every_env(kernel):
    venv = make_vector_env(num_envs=2, opponent="self", kernel=kernel, render_mode="ansi")
    assert venv.render() is None  # nothing before the first reset
    obs, _ = venv.reset(seed=3)
    frames = venv.render()
    assert isinstance(frames, tuple) and len(frames) == 2
    assert frames == tuple(render_text(venv.game, venv.state(i)) for i in range(2))
    venv.step(pick(obs["action_mask"], np.random.default_rng(0)))
    assert venv.render()[0] != frames[0]
    assert make_vector_env(num_envs=1, kernel=kernel).render() is None
    with pytest.raises(InvalidOptionError, match="render_mode 'human'"):
        make_vector_env(num_envs=1, kernel=kernel, render_mode="human")


@over_kernels
def test_record_episode_statistics_sees_the_returns(kernel):
    """Gymnasium's own vector wrapper, which relies on the next-step autoreset."""
    from gymnasium.wrappers.vector import RecordEpisodeStatistics
    venv = RecordEpisodeStatistics(make_vector_env(num_envs=2, opponent="random", kernel=kernel))
    rng = np.random.default_rng(4)
    obs, _ = venv.reset(seed=4)
    for _ in range(2000):
        obs, reward, terminated, _t, info = venv.step(pick(obs["action_mask"], rng))
        if terminated.any():
            break
    for i in np.flatnonzero(terminated):
        assert info["_episode"][i] and info["episode"]["r"][i] == reward[i]
        assert info["episode"]["r"][i] == info["returns"][i][0]


# -- options ---------------------------------------------------------------------------------------

@over_kernels
@pytest.mark.parametrize("players, options", [(2, {}), (3, {}), (4, AM), (5, {}), (5, AM_ALL),
                                              (6, AM)])
def test_every_player_count_plays_a_whole_game(kernel, players, options):
    venv = make_vector_env(num_envs=2, players=players, options=options, opponent="self",
                           kernel=kernel)
    rng = np.random.default_rng(players)
    obs, info = venv.reset(seed=players)
    seen = set()
    for _ in range(3000):
        seen.update(int(s) for s in info["to_move"] if s >= 0)
        obs, reward, terminated, _t, info = venv.step(pick(obs["action_mask"], rng))
        if terminated.any():
            i = int(np.flatnonzero(terminated)[0])
            assert info["returns"].shape == (2, players)
            assert np.array_equal(info["returns"][i], np.float32(venv.state(i).returns()))
            assert seen == set(range(players))
            return
    raise AssertionError("no game ended")


@pytest.mark.usefixtures("carcassonne_engine")
@pytest.mark.parametrize("kwargs, text", [
    ({"opponent": "mcts"}, "opponent"), ({"seat": 2}, "seat"), ({"seat": -1}, "seat"),
    ({"num_envs": 0}, "num_envs"), ({"kernel": "gpu"}, "kernel"),
    ({"players": 7}, "players"), ({"options": {"farmers": "no"}}, "farmers"),
    ({"render_mode": "rgb_array"}, "render_mode"), ({"copy": 1}, "copy"),
])
def test_bad_options_are_refused(kwargs, text):
    with pytest.raises(InvalidOptionError, match=text):
        make_vector_env(**{"num_envs": 2, "kernel": "python", **kwargs})


@pytest.mark.parametrize("carcassonne_engine", ["python"], indirect=True)
def test_native_kernel_needs_the_native_engine(carcassonne_engine):
    with pytest.raises(InvalidOptionError, match="kernel 'native' is not available: the game "
                                                 "runs on the Python engine"):
        make_vector_env(num_envs=2, kernel="native")
    assert make_vector_env(num_envs=2).kernel_name == "python"  # auto falls back


@pytest.mark.parametrize("carcassonne_engine", ["native"], indirect=True)
def test_native_kernel_missing_is_named(carcassonne_engine, monkeypatch):
    real = importlib.import_module

    def no_native(name, *args):
        if name == "boardwright.rl.vector_native":
            raise ImportError("no compiled kernel in this build")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", no_native)
    with pytest.raises(InvalidOptionError, match="vector_native does not import "
                                                 r"\(no compiled kernel in this build\)"):
        make_vector_env(num_envs=2, kernel="native")
    assert make_vector_env(num_envs=2).kernel_name == "python"


# -- start(i, pile) and the differential test -----------------------------------------------------

def random_pile(game, rng: random.Random) -> list[int]:
    """A shuffled draw pile of the game's tiles, as tile indexes."""
    pile = [game._tile_index[name] for name in game._tile_bag()]
    rng.shuffle(pile)
    return pile


@over_kernels
def test_start_deals_the_given_pile(kernel):
    venv = make_vector_env(num_envs=2, opponent="self", kernel=kernel)
    venv.reset(seed=0)
    pile = random_pile(venv.game, random.Random(1))
    venv.kernel.start(1, pile)
    state = venv.state(1)
    names = venv.game._tile_names
    assert state.tile == names[pile[-1]]  # drawn from the end
    assert sorted(state.pile) == sorted(names[t] for t in pile[:-1])
    assert len(state.history) == 0 and venv.kernel.to_move[1] == state.current_player
    check_rows(venv, list(venv.kernel.to_move))


def kernel_of(name: str, game, num_envs: int):
    if name == "python":
        return PythonVectorKernel(game, num_envs, opponent="self")
    from boardwright.rl.vector_native import NativeVectorKernel
    return NativeVectorKernel(game, num_envs, opponent="self")


FIELDS = ("board", "scalars", "mask", "reward", "terminated", "truncated", "to_move", "returns")


@NO_NATIVE
@pytest.mark.parametrize("carcassonne_engine", ["native"], indirect=True)
@pytest.mark.parametrize("players, options", [(2, {}), (3, AM_ALL), (6, AM)],
                         ids=["base", "abbey_mayor-3", "abbey_mayor-6"])
def test_native_kernel_matches_the_python_kernel(carcassonne_engine, players, options):
    """Self-play on both kernels from the same piles with the same actions: identical arrays at
    every step, over several whole games per env."""
    game = bw.load("carcassonne", players, options)
    envs, games_per_env = 3, 2
    kernels = [kernel_of("python", game, envs), kernel_of("native", game, envs)]
    piles = random.Random(players)
    rng = np.random.default_rng(players)
    for k in kernels:
        k.reset(np.arange(envs, dtype=np.int64))

    def start(i: int) -> None:
        pile = random_pile(game, piles)
        for k in kernels:
            k.start(i, pile)

    finished = [0] * envs
    for i in range(envs):
        start(i)
    for step in range(100_000):
        py, nat = kernels
        for name in FIELDS:
            assert np.array_equal(getattr(py, name), getattr(nat, name)), (step, name)
        for i in np.flatnonzero(py.terminated):  # a new pile, never the kernels' own streams
            finished[i] += 1
            start(int(i))
        if min(finished) >= games_per_env:
            break
        for name in FIELDS:
            assert np.array_equal(getattr(py, name), getattr(nat, name)), (step, name)
        actions = pick(py.mask, rng)
        for k in kernels:
            k.step(actions)
    else:
        raise AssertionError("games did not end")


def test_boardwright_rl_imports_without_gymnasium_until_asked():
    """`make_vector_env` imports the environment when called: `boardwright.rl` stays light."""
    import subprocess
    import sys
    code = ("import sys, boardwright.rl; "
            "assert 'gymnasium' not in sys.modules and 'numpy' not in sys.modules; "
            "boardwright.rl.make_vector_env(num_envs=1, kernel='python'); "
            "assert 'gymnasium' in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)
