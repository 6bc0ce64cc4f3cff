"""Which evaluation judges the search's leaves (`mcts:evaluation=NAME`): Carcassonne's
"learned" (the current weights plus the shipped 2-player network) when asked, on both engines;
"current" by default for every player count; a version the game does not offer refused by
name when the agent meets the game; the named baselines keep their kept versions."""

from __future__ import annotations

from typing import Any

import pytest

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.agents.baselines import MCTSv1Agent, MCTSv2Agent
from boardwright.agents.mcts import MCTSAgent
from boardwright.games.carcassonne import native

from carcassonne_engines import played_position as position

AM = {"expansions": ["abbey_mayor"]}
ENGINES = ["python", pytest.param("native", marks=pytest.mark.skipif(
    not native.AVAILABLE, reason="the native extension is not built"))]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_search_judged_by_the_learned_value_plays_on_both_engines(
        engine: str, monkeypatch: pytest.MonkeyPatch) -> None:
    state = position(engine, plies=6)  # (a small board: cheap greedy playouts)
    game = state.game
    assert "learned" in game.evaluation_versions  # (the shipped 2-player network)
    judged: list[str] = []
    evaluation_of, playout = game.evaluation_of, game.playout

    def judge(version: str, leaf: Any) -> list[float]:
        judged.append(version)
        return evaluation_of(version, leaf)

    def play_out(*args: Any, evaluation: str = "current") -> Any:
        judged.append(evaluation)
        return playout(*args, evaluation=evaluation)

    monkeypatch.setattr(game, "evaluation_of", judge)
    monkeypatch.setattr(game, "playout", play_out)
    agent = make_agent("mcts:iterations=20,evaluation=learned", seed=1)
    action = agent.act(state.clone())
    assert action in state.legal_actions()
    assert agent.total_iterations >= 20  # (paired rounds of every candidate)
    assert len(judged) > 20 and set(judged) == {"learned"}  # the root and every leaf
    linear = make_agent("mcts:iterations=20", seed=1)
    assert agent.evaluate(state) == pytest.approx(evaluation_of("learned", state))
    assert agent.evaluate(state) != pytest.approx(linear.evaluate(state))
    assert linear.evaluate(state) == pytest.approx(game.evaluation(state))


@pytest.mark.parametrize(("players", "version", "offered"), [
    (2, "v9", "current, v1, v2, learned"), (3, "learned", "current, v1, v2")])
def test_an_evaluation_the_game_does_not_offer_is_refused_by_name(
        players: int, version: str, offered: str) -> None:
    state = position("python", players, plies=4)
    agent = make_agent(f"mcts:iterations=20,evaluation={version}", seed=1)
    config = agent.config
    with pytest.raises(bw.InvalidOptionError,
                       match=f"mcts evaluation '{version}' is not offered by carcassonne with "
                             f"{players} players; offered: {offered}$"):
        agent.act(state)
    assert agent.config is config and agent.decisions == 0 and agent.total_iterations == 0
    assert len(state.history) == 4


def test_a_game_with_one_evaluation_offers_only_it() -> None:
    state = bw.load("queens", 2, {}).new_game(3)
    with pytest.raises(bw.InvalidOptionError, match="offered: current$"):
        make_agent("mcts:iterations=4,evaluation=learned").act(state)


@pytest.mark.parametrize("players", range(1, 7))
def test_the_default_is_the_linear_evaluation_for_every_player_count(players: int) -> None:
    game = bw.load("carcassonne", players, AM, engine="python")
    assert game.search_defaults.get("evaluation", "current") == "current"
    agent = MCTSAgent(seed=0, iterations=4)
    agent.adopt(game)
    assert agent.evaluation_version(game) == "current"


def test_search_defaults_may_name_it_and_the_baselines_keep_theirs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from boardwright.games.carcassonne import game as carcassonne

    settings = carcassonne.search_settings
    monkeypatch.setattr(carcassonne, "search_settings",
                        lambda players: {**settings(players), "evaluation": "learned"})
    game = bw.load("carcassonne", 2, AM, engine="python")
    agents = {"learned": MCTSAgent(seed=0, iterations=4),
              "current": make_agent("mcts:iterations=4,evaluation=current"),
              "v2": MCTSv2Agent(seed=0, iterations=4), "v1": MCTSv1Agent(seed=0)}
    for version, agent in agents.items():
        agent.adopt(game)
        assert agent.evaluation_version(game) == version
