"""The named baseline `mcts-v1`: fixed settings, a search on the Python engine."""

from __future__ import annotations

import pytest

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.agents.baselines import V1_SETTINGS, MCTSv1Agent
from boardwright.agents.mcts import MCTSAgent
from boardwright.games.carcassonne import native

from carcassonne_engines import played_position

AM = {"expansions": ["abbey_mayor"]}


def position(engine: str, plies: int = 24) -> bw.State:
    return played_position(engine, 2, plies)


def test_the_name_builds_the_baseline_and_takes_no_parameters() -> None:
    agent = make_agent("mcts-v1", seed=3)
    assert isinstance(agent, MCTSv1Agent)
    assert agent.config.seconds == 0.25 and agent.config.iterations is None
    with pytest.raises(bw.InvalidOptionError, match="no parameter 'seconds'"):
        make_agent("mcts-v1:seconds=1")


def test_its_settings_do_not_follow_the_games_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    game = bw.load("carcassonne", 2, AM, engine="python")
    monkeypatch.setattr(type(game), "search_defaults", property(lambda self: {"paired": 0}))
    agent = MCTSv1Agent(seed=1)
    agent.adopt(game)
    for key, value in V1_SETTINGS.items():
        assert getattr(agent.config, key) == value, key
    plain = MCTSAgent(seed=1, seconds=0.25)
    plain.adopt(game)
    assert plain.config.paired == 0  # (the game's defaults do reach an ordinary agent)


@pytest.mark.skipif(not native.AVAILABLE, reason="the native extension is not built")
def test_a_native_position_is_searched_on_the_python_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    searched = []
    original = MCTSAgent.search

    def spy(self, state, *args, **kwargs):
        searched.append(type(state).__name__)
        return original(self, state, *args, **kwargs)

    monkeypatch.setattr(MCTSAgent, "search", spy)
    monkeypatch.setitem(V1_SETTINGS, "seconds", 0.05)
    state = position("native")
    action = MCTSv1Agent(seed=2).act(state)
    assert searched == ["CarcassonneState"]
    assert action in state.legal_actions()
    state.apply(action)  # the choice is legal on the native position itself


def test_it_judges_leaves_by_the_evaluation_of_its_time() -> None:
    from boardwright.games.carcassonne.evaluation import evaluate, shipped_weights

    state = position("python")
    v1 = evaluate(state, shipped_weights("v1"))
    assert MCTSv1Agent(seed=1).evaluate(state) == pytest.approx(v1)
    assert MCTSAgent(seed=1).evaluate(state) == pytest.approx(state.game.evaluation(state))
    assert state.game.evaluation_of("v1", state) == pytest.approx(v1)
    with pytest.raises(bw.InvalidOptionError, match="no evaluation weights named 'v0'"):
        state.game.evaluation_of("v0", state)


def test_games_with_one_evaluation_give_the_baseline_their_only_one() -> None:
    state = bw.load("queens", 2, {}).new_game(3)
    assert state.game.evaluation_versions == ("current",)
    assert MCTSv1Agent(seed=1).evaluate(state) == state.game.evaluation(state)
    with pytest.raises(bw.InvalidOptionError, match="no evaluation named 'v1'"):
        state.game.evaluation_of("v1", state)
