"""Gymnasium vector environments (`make_vec`, sync and async) and the declared render modes."""

import time

import pytest
from carcassonne_engines import over_games

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.vector import AutoresetMode

import boardwright.rl.gymnasium  # noqa: F401
from boardwright.core.errors import InvalidOptionError
from boardwright.rl.gymnasium import BoardwrightEnv

IDS = ["boardwright/Carcassonne-v0", "boardwright/Queens-v0", "boardwright/Shogun-v0"]
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def pick(info, rng, num_envs):
    """A random legal action per environment, from the merged info (any id for an ended env)."""
    ids = info["legal_action_ids"]
    assert ids.dtype == object and ids.shape == (num_envs,)
    return np.array([int(rng.choice(ids[i])) if ids[i] else 0 for i in range(num_envs)])


def check_batch(venv, obs, info, num_envs):
    """Shapes and dtypes of a batch, and the info entries merged as Gymnasium merges them."""
    single = venv.single_observation_space
    assert set(obs) == set(single.spaces)
    for name, space in single.spaces.items():  # Carcassonne: board, scalars; else observation
        assert obs[name].shape == (num_envs, *space.shape) and obs[name].dtype == space.dtype
    assert obs["action_mask"].shape == (num_envs, venv.single_action_space.n)
    assert obs["action_mask"].dtype == np.int8
    assert info["_legal_action_ids"].dtype == bool and info["_legal_action_ids"].all()
    assert info["_action_mask"].all()
    assert info["action_mask"].shape == obs["action_mask"].shape
    assert (info["action_mask"] == obs["action_mask"]).all()
    for i in range(num_envs):
        ids = info["legal_action_ids"][i]
        assert isinstance(ids, tuple) and list(ids) == sorted(ids)
        assert all(type(a) is int for a in ids)
        assert ids == tuple(np.flatnonzero(obs["action_mask"][i]))


def play_until_every_env_restarted(venv, num_envs, seed):
    """Random legal play with the default (next-step) autoreset until every environment has
    finished an episode and started the next; returns the final rewards seen."""
    rng = np.random.default_rng(seed)
    obs, info = venv.reset(seed=seed)
    check_batch(venv, obs, info, num_envs)
    ended = np.zeros(num_envs, dtype=bool)
    restarted = np.zeros(num_envs, dtype=bool)
    finals = []
    for _ in range(5000):
        actions = pick(info, rng, num_envs)
        obs, rewards, terminated, truncated, info = venv.step(actions)
        check_batch(venv, obs, info, num_envs)
        assert rewards.shape == terminated.shape == truncated.shape == (num_envs,)
        assert terminated.dtype == truncated.dtype == bool
        assert "illegal_action" not in info
        done = terminated | truncated
        for i in np.flatnonzero(ended & ~restarted):
            # The step after an episode's end reset that environment: a fresh position.
            restarted[i] = True
            assert not done[i] and rewards[i] == 0.0 and info["legal_action_ids"][i]
        for i in np.flatnonzero(done):
            assert info["legal_action_ids"][i] == () and not obs["action_mask"][i].any()
            finals.append(float(rewards[i]))
        ended |= done
        if restarted.all():
            return finals
    raise AssertionError("episodes did not end within 5000 steps")


@over_games("env_id", IDS)
def test_rl_gymnasium_make_vec_sync_plays_episodes_with_autoreset(env_id):
    venv = gymnasium.make_vec(env_id, num_envs=3, vectorization_mode="sync")
    assert venv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    finals = play_until_every_env_restarted(venv, 3, seed=5)
    assert len(finals) >= 3 and all(-1.0 <= r <= 1.0 for r in finals)
    venv.close()


@over_games("env_id", IDS)
def test_rl_gymnasium_make_vec_async_plays_episodes_with_autoreset(env_id):
    venv = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="async")
    try:
        finals = play_until_every_env_restarted(venv, 2, seed=8)
    except BaseException:
        venv.close(terminate=True)  # a plain close would wait forever for the failed call
        raise
    venv.close()
    assert len(finals) >= 2 and all(-1.0 <= r <= 1.0 for r in finals)


def test_rl_gymnasium_make_vec_same_step_autoreset_keeps_the_final_info():
    venv = gymnasium.make_vec("boardwright/Queens-v0", num_envs=2, vectorization_mode="sync",
                              vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP})
    rng = np.random.default_rng(2)
    _obs, info = venv.reset(seed=2)
    for _ in range(2000):
        obs, _rewards, terminated, truncated, info = venv.step(pick(info, rng, 2))
        done = terminated | truncated
        if done.any():
            break
    else:
        raise AssertionError("no episode ended")
    # The ended env's last info went to `final_info` (merged the same way); the step's own info
    # and observation are those of the new episode.
    assert (info["_final_info"] == done).all() and (info["_final_obs"] == done).all()
    for i in np.flatnonzero(done):
        assert info["final_info"]["legal_action_ids"][i] == ()
        assert info["legal_action_ids"][i] == tuple(np.flatnonzero(obs["action_mask"][i]))
        assert info["legal_action_ids"][i]
    venv.close()


def test_rl_gymnasium_vector_env_renders_every_sub_env():
    venv = gymnasium.make_vec("boardwright/Queens-v0", num_envs=2, vectorization_mode="sync",
                              render_mode="ansi")
    venv.reset(seed=0)
    frames = venv.render()
    assert len(frames) == 2 and all(isinstance(f, str) and f.strip() for f in frames)
    venv.close()


def test_rl_gymnasium_metadata_declares_modes_and_fps():
    meta = BoardwrightEnv.metadata
    assert meta["render_modes"] == ["ansi", "human"]
    assert meta["render_fps"] > 0
    with pytest.raises(InvalidOptionError, match="render_mode 'rgb_array'"):
        gymnasium.make("boardwright/Queens-v0", render_mode="rgb_array")


@pytest.mark.parametrize("env_id", IDS)
def test_rl_gymnasium_render_ansi_returns_the_position(env_id):
    env = gymnasium.make(env_id, render_mode="ansi")
    assert env.unwrapped.render() is None  # nothing to show before the first reset
    _obs, info = env.reset(seed=1)
    before = env.render()
    assert isinstance(before, str) and before.strip()
    env.step(info["legal_action_ids"][0])
    assert env.render() != before


def test_rl_gymnasium_render_human_prints_frames_at_render_fps(capsys):
    env = gymnasium.make("boardwright/Queens-v0", render_mode="human")
    start = time.monotonic()
    _obs, info = env.reset(seed=1)
    first = capsys.readouterr().out
    assert first.strip()
    env.step(info["legal_action_ids"][0])
    assert time.monotonic() - start >= 1.0 / BoardwrightEnv.metadata["render_fps"]
    second = capsys.readouterr().out
    assert second.strip() and second != first
    assert env.render() is None
