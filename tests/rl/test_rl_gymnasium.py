"""Gymnasium single-agent wrapper: registration, check_env, bots in the other seats."""

import pytest
from carcassonne_engines import over_games

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env

import boardwright.rl.gymnasium  # noqa: F401
from boardwright.core.errors import InvalidOptionError

IDS = ["boardwright/Carcassonne-v0", "boardwright/Queens-v0", "boardwright/Shogun-v0"]
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("env_id", IDS)
def test_rl_gymnasium_check_env(env_id):
    env = gymnasium.make(env_id, opponent="greedy")
    check_env(env.unwrapped)  # every declared render mode too (made from the spec)


@over_games("env_id", IDS)
def test_rl_gymnasium_episode_against_random(env_id):
    env = gymnasium.make(env_id, opponent="random")
    obs, info = env.reset(seed=11)
    rng = np.random.default_rng(11)
    done, reward = False, 0.0
    while not done:
        assert env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, term, trunc, info = env.step(action)
        done = term or trunc
    assert "illegal_action" not in info
    assert -1.0 <= reward <= 1.0


def test_rl_gymnasium_illegal_action_ends_the_episode():
    env = gymnasium.make("boardwright/Queens-v0")
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, term, _, info = env.step(illegal)
    assert term and reward == -1.0 and info["illegal_action"]


def test_rl_gymnasium_bad_bot_string_is_rejected():
    with pytest.raises(InvalidOptionError):
        gymnasium.make("boardwright/Queens-v0", opponent="nosuchbot")


def test_rl_gymnasium_learner_in_seat_one_with_a_bot_per_seat():
    env = gymnasium.make("boardwright/Queens-v0", seat=1, players=3, opponent=["greedy", "random"])
    obs, info = env.reset(seed=4)
    assert env.unwrapped.state.current_player == 1
    assert set(np.flatnonzero(obs["action_mask"])) == set(info["legal_action_ids"])


def test_rl_gymnasium_same_seed_same_episode():
    def play(seed):
        env = gymnasium.make("boardwright/Carcassonne-v0", opponent="greedy")
        _obs, info = env.reset(seed=seed)
        trace, done = [], False
        while not done:
            action = int(info["legal_action_ids"][0])
            _obs, reward, term, trunc, info = env.step(action)
            trace.append((action, reward))
            done = term or trunc
        return trace
    assert play(3) == play(3)
