"""The named baseline `mcts-v2`: every game's settings of its time written out, Carcassonne's
"v2" evaluation per player count, a search on the engine the game runs on (compiled playouts
judged by the kept weights)."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

import boardwright as bw
from boardwright.agents import AGENTS, make_agent
from boardwright.agents.baselines import V2_GAMES, V2_SETTINGS, MCTSv2Agent
from boardwright.agents.greedy import GreedyAgent
from boardwright.agents.mcts import MCTSAgent, MCTSConfig
from boardwright.core.game import PlayoutStop
from boardwright.games.carcassonne import evaluation, native
from boardwright.games.carcassonne.evaluation import (
    EvaluationWeights, evaluate, read_weights,
)
from boardwright.games.carcassonne.game import CarcassonneGame

from carcassonne_engines import played_position as position

AM = {"expansions": ["abbey_mayor"]}
ENGINES = ["python", pytest.param("native", marks=pytest.mark.skipif(
    not native.AVAILABLE, reason="the native extension is not built"))]
native_only = pytest.mark.skipif(not native.AVAILABLE, reason="the native extension is not built")


def on_python(state: bw.State) -> bw.State:
    return state.to_python() if hasattr(state, "to_python") else state


def v2_file_weights(players: int) -> EvaluationWeights:
    """The "v2" weights as the data files hold them: each count of 3 to 6 players its own file,
    else the 2-player file."""
    name = f"evaluation-v2-{players}p.toml" if 3 <= players <= 6 else "evaluation-v2.toml"
    return read_weights(evaluation._data_folder().joinpath(name))


def refitted(players: int = 2) -> EvaluationWeights:
    """Other current weights, as a refit would bring: every weight changed."""
    kept = v2_file_weights(players)
    return EvaluationWeights(tuple((2 * a + 1, 2 * b, 2 * c) for a, b, c in kept.features),
                             (kept.to_move[0] + 5, kept.to_move[1], kept.to_move[2]))


def test_the_name_builds_the_baseline_and_takes_no_parameters() -> None:
    agent = make_agent("mcts-v2", seed=3)
    assert type(agent) is MCTSv2Agent and AGENTS["mcts-v2"] is MCTSv2Agent
    assert agent.config.seconds == 0.25 and agent.config.iterations is None
    for spec in ("mcts-v2:seconds=1", "mcts-v2:iterations=5"):
        with pytest.raises(bw.InvalidOptionError, match="has no parameter"):
            make_agent(spec)
    fixed = MCTSv2Agent(seed=3, iterations=7)  # (a test's fixed budget, not an agent string's)
    assert fixed.config.iterations == 7 and fixed.config.seconds is None


def test_every_setting_is_written_out() -> None:
    assert set(V2_SETTINGS) == {f.name for f in fields(MCTSConfig)} - {"iterations"}


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_carcassonne_settings_are_those_of_its_time_whatever_the_game_says_now(
        players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    game = bw.load("carcassonne", players, AM, engine="python")
    monkeypatch.setattr(CarcassonneGame, "search_defaults",
                        property(lambda self: {"paired": 0, "horizon": 9, "race": 0.5}))
    agent = MCTSv2Agent(seed=1)
    agent.adopt(game)
    expected = {**V2_SETTINGS, **V2_GAMES["carcassonne"](players)}
    for key, value in expected.items():
        assert getattr(agent.config, key) == value, key
    assert (agent.config.paired, agent.config.greedy_playouts) == ((4 if players <= 2 else 6), True)
    assert agent.config.horizon == (3 if players <= 4 else 2)
    assert (agent.config.race, agent.config.objective) == (
        (0.0, "mean") if players <= 2 else (2.0, "first"))
    plain = MCTSAgent(seed=1, seconds=0.25)
    plain.adopt(game)
    assert plain.config.horizon == 9  # (the game's defaults do reach an ordinary agent)


@pytest.mark.parametrize("name, expected", [
    ("queens", {"paired": 8, "greedy_playouts": True, "horizon": 2, "distinct_priors": False}),
    ("shogun", {"turn_leaves": False, "paired": 0, "horizon": 1}),
])
def test_the_other_games_settings_are_those_of_their_time(
        name: str, expected: dict, monkeypatch: pytest.MonkeyPatch) -> None:
    game = bw.load(name, 2, {})
    monkeypatch.setattr(type(game), "search_defaults", property(lambda self: {"paired": 3}))
    agent = MCTSv2Agent(seed=1)
    agent.adopt(game)
    for key, value in expected.items():
        assert getattr(agent.config, key) == value, key
    assert agent.config.seconds == 0.25


def test_a_game_it_has_no_settings_for_brings_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    game = bw.load("goofspiel", 2, {"cards": 4})
    assert game.name not in V2_GAMES
    agent = MCTSv2Agent(seed=1)
    agent.adopt(game)
    assert agent.config == MCTSConfig(seconds=0.25)  # (goofspiel has no defaults of its own)
    monkeypatch.setattr(type(game), "search_defaults", property(lambda self: {"paired": 3}))
    agent = MCTSv2Agent(seed=1)
    agent.adopt(game)
    assert agent.config.paired == 3


@pytest.mark.parametrize("engine", ENGINES)
def test_the_v2_evaluation_is_the_kept_weights_of_each_player_count(
        engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for players in (2, 3, 4, 6):
        before = position(engine, players, plies=12)
        kept = evaluate(on_python(before), v2_file_weights(players))
        assert before.game.evaluation_of("v2", before) == pytest.approx(kept)
        if players > 2:  # each count its own fit, not the 2-player weights
            assert kept != pytest.approx(evaluate(on_python(before), v2_file_weights(2)))
    monkeypatch.setattr(evaluation, "default_weights", refitted)
    for players in (2, 4):
        state = position(engine, players, plies=12)  # a game made with the refitted weights
        kept = evaluate(on_python(state), v2_file_weights(players))
        assert state.game.evaluation_of("v2", state) == pytest.approx(kept)
        assert state.game.evaluation(state) != pytest.approx(kept)
        assert MCTSv2Agent(seed=1).evaluate(state) == pytest.approx(kept)
        assert MCTSAgent(seed=1).evaluate(state) == pytest.approx(state.game.evaluation(state))


@native_only
def test_native_and_python_agree_on_the_v2_evaluation() -> None:
    for players in (2, 5):
        state = position("native", players, plies=30)
        assert state.game.evaluation_of("v2", state) == pytest.approx(
            state.game.evaluation_of("v2", state.to_python()))
    with pytest.raises(bw.InvalidOptionError, match="no evaluation weights named 'v9'"):
        state.game.evaluation_of("v9", state)


@native_only
def test_native_playouts_judge_by_the_kept_weights_after_a_refit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def leaves() -> tuple[dict[str, list[float]], bw.State]:
        state = position("native")  # a new game: it reads the current weights anew
        stop = PlayoutStop(state.current_player, 0, True, 600, 3)
        values = {}
        for version in ("v2", "current"):
            leaf = state.clone()
            values[version], terminal = state.game.playout(leaf, "greedy", random.Random(7),
                                                           stop, evaluation=version)
            assert not terminal
        return values, leaf

    before, leaf = leaves()
    assert before["v2"] == pytest.approx(evaluate(leaf.to_python(), v2_file_weights(2)))
    monkeypatch.setattr(evaluation, "default_weights", refitted)
    after, same_leaf = leaves()
    assert same_leaf.history == leaf.history  # (greedy playouts follow the heuristic)
    assert after["v2"] == before["v2"]
    assert after["current"] != pytest.approx(before["current"])
    assert after["current"] == pytest.approx(evaluate(leaf.to_python()))  # (its network too)
    with pytest.raises(bw.InvalidOptionError, match="no evaluation named 'v9'"):
        leaf.game.playout(leaf.clone(), "greedy", random.Random(7), PlayoutStop(0),
                          evaluation="v9")


@native_only
def test_it_searches_a_native_position_with_native_playouts_and_the_kept_weights(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    original = CarcassonneGame.playout

    def spy(self, state, policy, rng, stop, evaluation="current"):
        result = original(self, state, policy, rng, stop, evaluation)
        calls.append((type(state).__name__, policy, evaluation, result is not None))
        return result

    monkeypatch.setattr(CarcassonneGame, "playout", spy)

    def search() -> dict:
        state = position("native")
        agent = MCTSv2Agent(seed=2, iterations=8)
        agent.adopt(state.game)
        root = agent.search(state, state.legal_actions())
        return {action: (child.visits, child.totals) for action, child in root.children.items()}

    before = search()
    assert set(calls) == {("NativeCarcassonneState", "greedy", "v2", True)}
    monkeypatch.setattr(evaluation, "default_weights", refitted)
    assert search() == before  # a refit of the current weights leaves its search alone


@pytest.mark.parametrize("engine", ENGINES)
def test_a_short_game_against_greedy(engine: str) -> None:
    options = {"draw_order": ["E", "U", "B", "K", "V", "L"]}
    for players in (2, 3):
        if engine == "python" and players == 3:
            continue  # (the Python engine's greedy playouts are slow; the 2-player game shows it)
        state = bw.load("carcassonne", players, options, engine=engine).new_game(1)
        agents = [MCTSv2Agent(seed=1, iterations=8)] + [GreedyAgent(seed=s) for s in
                                                        range(2, players + 1)]
        while not state.is_terminal:
            action = agents[state.current_player].act(state)
            assert action in state.legal_actions()
            state.apply(action)
        assert agents[0].decisions > 0


@pytest.mark.parametrize("name, options", [("queens", {}), ("shogun", {}),
                                           ("goofspiel", {"cards": 4})])
def test_it_decides_in_the_other_games(name: str, options: dict) -> None:
    state = bw.load(name, 2, options).new_game(3)
    agent = MCTSv2Agent(seed=1, iterations=16)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    action = agent.act(state)
    assert action in state.legal_actions() and agent.decisions == 1
    state.apply(action)
