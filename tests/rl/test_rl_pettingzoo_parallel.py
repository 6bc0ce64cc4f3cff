"""PettingZoo's parallel API over the AEC environments (a turn-based game: each step applies
the mover's action only)."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

from boardwright.core.errors import IllegalActionError
from boardwright.rl.pettingzoo import parallel_env


@pytest.mark.parametrize("game, options", [("carcassonne", {}), ("queens", {}),
                                           ("shogun", {"max_rounds": 2})])
def test_the_parallel_api_test_passes(game, options):
    parallel_api_test(parallel_env(game, **options), num_cycles=60)


def test_a_game_played_to_the_end_through_the_parallel_api():
    env = parallel_env("carcassonne", players=3)
    observations, infos = env.reset(seed=5)
    rng = np.random.default_rng(5)
    steps = 0
    while env.agents:
        movers = [a for a, o in observations.items() if o["action_mask"].any()]
        assert len(movers) == 1, movers  # one seat decides at a time
        actions = {}
        for agent, obs in observations.items():
            legal = np.flatnonzero(obs["action_mask"])
            # the mover plays a legal id; the others send anything: it is ignored
            actions[agent] = int(rng.choice(legal)) if legal.size else 10**9
        assert set(infos[movers[0]]["legal_action_ids"]) == set(
            np.flatnonzero(observations[movers[0]]["action_mask"]).tolist())
        observations, rewards, terminations, truncations, infos = env.step(actions)
        steps += 1
        if all(terminations.values()):
            assert sorted(rewards.values()) != [0.0, 0.0, 0.0]
            assert abs(sum(rewards.values())) < 1e-9  # zero-sum
    assert steps > 100


def test_an_illegal_action_of_the_mover_is_refused_and_changes_nothing():
    env = parallel_env("carcassonne")
    observations, _ = env.reset(seed=1)
    mover = next(a for a, o in observations.items() if o["action_mask"].any())
    illegal = int(np.flatnonzero(observations[mover]["action_mask"] == 0)[0])
    before = env.unwrapped.state.public_signature()
    with pytest.raises(IllegalActionError):
        env.step({agent: illegal for agent in env.agents})
    assert env.unwrapped.state.public_signature() == before
