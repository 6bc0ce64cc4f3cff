"""PettingZoo AEC adapter: PettingZoo's own API and seed tests for every game."""

import random

import pytest
from carcassonne_engines import over_games

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test, seed_test

from boardwright.core.errors import IllegalActionError
from boardwright.rl.pettingzoo import env

GAMES = ["carcassonne", "queens", "shogun"]
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@over_games("name", GAMES)
def test_rl_pettingzoo_api_test(name):
    api_test(env(name), num_cycles=300)


@over_games("name", GAMES)
def test_rl_pettingzoo_seed_test(name):
    seed_test(lambda: env(name), num_cycles=50)


@over_games("name", GAMES)
def test_rl_pettingzoo_full_episode_rewards_are_the_returns(name):
    e = env(name)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter(max_iter=5000):
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
    assert not e.agents
    assert sum(totals.values()) == pytest.approx(0.0)


def test_rl_pettingzoo_illegal_action_raises():
    e = env("queens")
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)


@pytest.mark.usefixtures("carcassonne_engine")
def test_rl_pettingzoo_mask_only_for_the_agent_to_move():
    e = env("carcassonne")
    e.reset(seed=2)
    mover = e.agent_selection
    for agent in e.agents:
        assert e.observe(agent)["action_mask"].any() == (agent == mover)


@pytest.mark.usefixtures("carcassonne_engine")
def test_rl_pettingzoo_three_players_and_game_options():
    api_test(env("queens", players=3), num_cycles=100)
    e = env("carcassonne", farmers=False)
    assert e.game.options["farmers"] is False
    assert env("shogun").game.options["max_rounds"] == 30
    assert env("shogun", max_rounds=3).game.options["max_rounds"] == 3


def test_rl_pettingzoo_max_steps_truncates():
    e = env("shogun", max_steps=10)
    e.reset(seed=0)
    for agent in e.agent_iter(max_iter=1000):
        _obs, _, term, trunc, info = e.last()
        e.step(None if term or trunc else int(info["legal_action_ids"][0]))
    assert e.steps == 10 and not e.agents


def _carcassonne_test_support():
    """The shared Carcassonne legality checks and random-game configurations (tests/carcassonne)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "carcassonne"))
    import legality
    import randomgames

    return legality, randomgames


# A&M configurations (tests/carcassonne/randomgames.am_config), 2-6 players: every end rule,
# every wagon range (nearby; connected; connected with traversal), farmers on and off, two barns
# each (25, 41).
LEGALITY_CONFIGS = [41, 57]  # 6 players with traversal; 4 with A&M tiles, no farmers


@pytest.mark.usefixtures("carcassonne_engine")
@pytest.mark.parametrize("index", LEGALITY_CONFIGS)
def test_rl_pettingzoo_mask_is_exactly_what_apply_accepts(index):
    """At every step of a random Carcassonne game, each legal action and each plausible variant
    (every rotation, location, figure, wagon part): in the adapter's mask and in
    `legal_action_ids` exactly when the engine lists it, `is_legal` says so and `apply`
    accepts it; an id outside the mask is refused by `step` with the state unchanged."""
    legality, randomgames = _carcassonne_test_support()
    cfg = randomgames.am_config(index)
    e = env("carcassonne", players=cfg.players, **cfg.options())
    e.reset(seed=cfg.seed)
    rng = random.Random(cfg.seed)
    steps = 0
    while not e.terminations[e.agent_selection]:
        agent = e.agent_selection
        mask = e.observe(agent)["action_mask"]
        ids = set(np.flatnonzero(mask).tolist())
        assert tuple(sorted(ids)) == e.infos[agent]["legal_action_ids"]
        legal = e.legal()
        stable = {e.game.action_id(legal.action(i)) for i in ids}
        legality.check_legality_agrees(e.state, rng, masks=[("pettingzoo", stable)],
                                       is_legal_share=0.1)
        refused = next(i for i in range(e.space.size) if i not in ids)
        before = legality.fingerprint(e.state)
        with pytest.raises(IllegalActionError):
            e.step(refused)
        assert legality.fingerprint(e.state) == before
        e.step(rng.choice(sorted(ids)))
        steps += 1
    assert steps > 50
