"""OpenSpiel adapter: registration, OpenSpiel's random-simulation test and its MCTS bot."""

import json
import random

import pytest
from carcassonne_engines import over_games

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import mcts
from open_spiel.python.bots import uniform_random

import boardwright.rl.openspiel  # noqa: F401

GAMES = ["carcassonne", "queens", "shogun"]


def load(name, **params):
    return pyspiel.load_game(f"python_boardwright_{name}", params)


@over_games("name", GAMES)
def test_rl_openspiel_random_sim_test(name):
    pyspiel.random_sim_test(load(name, seed=1), num_sims=2, serialize=False, verbose=False)


@over_games("name", GAMES)
def test_rl_openspiel_game_type(name):
    game = load(name)
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    expected = (pyspiel.GameType.Information.PERFECT_INFORMATION if name == "queens"
                else pyspiel.GameType.Information.IMPERFECT_INFORMATION)
    assert kind.information == expected
    assert game.num_distinct_actions() > 0 and game.num_players() == 2


MCTS_OPTIONS = {"queens": "", "carcassonne": "", "shogun": json.dumps({"max_rounds": 2})}


@over_games("name", MCTS_OPTIONS)
def test_rl_openspiel_mcts_bot_plays_whole_games(name):
    game = load(name, seed=4, options=MCTS_OPTIONS[name])
    rng = np.random.RandomState(4)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    for first in range(2):  # a game with MCTS in each seat
        bots = [mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rng, solve=False),
                uniform_random.UniformRandomBot(1 - first, rng)]
        if first:
            bots.reverse()
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        assert sum(state.returns()) == pytest.approx(0.0)


def test_rl_openspiel_clone_is_independent_and_strings_are_per_seat():
    game = load("shogun", seed=2)
    state = game.new_initial_state()
    for _ in range(10):
        state.apply_action(state.legal_actions()[0])
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[-1])
    assert len(clone.history()) == len(state.history()) + 1
    assert state.bw_state.record.to_json() != clone.bw_state.record.to_json()
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    assert state.information_state_string(0) != state.information_state_string(1)


def _carcassonne_test_support():
    """The shared Carcassonne legality checks and random-game configurations (tests/carcassonne)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "carcassonne"))
    import legality
    import randomgames

    return legality, randomgames


@pytest.mark.parametrize("index", [25, 49])
@pytest.mark.usefixtures("carcassonne_engine")
def test_rl_openspiel_legal_actions_are_exactly_what_apply_accepts(index):
    """At every step of a random Carcassonne game (Abbey & Mayor, `connected` wagons; two barns
    each in game 25), OpenSpiel's legal action ids are exactly the ids of the actions the
    engine lists, `is_legal` accepts and `apply` applies, among every plausible variant (the
    learning ids, each decoded to its action, give the stable id the checks compare)."""
    legality, randomgames = _carcassonne_test_support()
    cfg = randomgames.am_config(index)
    game = load("carcassonne", seed=cfg.seed, players=cfg.players,
                options=json.dumps(cfg.options()))
    state = game.new_initial_state()
    rng = random.Random(cfg.seed)
    steps = 0
    while not state.is_terminal():
        ids = set(state.legal_actions())
        legal = game._shared.space.legal(state.bw_state)
        stable = {state.bw_state.game.action_id(legal.action(i)) for i in ids}
        legality.check_legality_agrees(state.bw_state, rng, masks=[("openspiel", stable)],
                                       is_legal_share=0.1)
        state.apply_action(rng.choice(sorted(ids)))
        steps += 1
    assert steps > 50
