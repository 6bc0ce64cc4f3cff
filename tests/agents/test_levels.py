"""Named bot levels: each name stands for one agent string, everywhere an agent string is read."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import boardwright as bw
from boardwright.agents import LEVELS, GreedyAgent, MCTSAgent, make_agent
from boardwright.agents.levels import level_agent, level_of
from boardwright.cli import app

SHORT_PILE = ["E", "U", "V", "J", "D", "K"]


def test_the_levels_are_easy_medium_hard_with_their_documented_agent_strings() -> None:
    assert {name: level.agent for name, level in LEVELS.items()} == {
        "easy": "greedy:depth=1", "medium": "mcts:seconds=0.25", "hard": "mcts:seconds=1"}
    assert all(level.why for level in LEVELS.values())


@pytest.mark.parametrize("name", ["easy", "medium", "hard"])
def test_every_level_agent_string_is_itself_a_valid_agent(name: str) -> None:
    agent = make_agent(LEVELS[name].agent, seed=0)
    assert type(agent) is type(make_agent(name, seed=0))


def test_make_agent_builds_the_level_settings() -> None:
    easy = make_agent("easy", seed=1)
    assert isinstance(easy, GreedyAgent) and easy.depth == 1
    medium = make_agent("medium", seed=1)
    assert isinstance(medium, MCTSAgent) and medium.config.seconds == 0.25
    hard = make_agent(" Hard ", seed=1)
    assert isinstance(hard, MCTSAgent) and hard.config.seconds == 1.0
    assert hard.config.iterations is None


def test_level_lookups_both_ways() -> None:
    assert level_agent("hard") == "mcts:seconds=1"
    assert level_agent("MEDIUM") == "mcts:seconds=0.25"
    assert level_agent("mcts:seconds=3") == "mcts:seconds=3"  # not a level: unchanged
    assert level_of("greedy:depth=1") == "easy"
    assert level_of("hard") == "hard"
    assert level_of("greedy") is None


def test_unknown_names_are_still_refused_and_the_message_lists_the_levels() -> None:
    with pytest.raises(bw.InvalidOptionError, match="unknown agent 'expert'") as caught:
        make_agent("expert")
    assert "easy, medium, hard" in str(caught.value)


def test_a_level_with_parameters_is_refused_with_the_string_to_write_instead() -> None:
    with pytest.raises(bw.InvalidOptionError, match="mcts:seconds=1") as caught:
        make_agent("hard:seconds=5")
    assert "takes no parameters" in str(caught.value)


def test_an_easy_bot_plays_a_game_legally() -> None:
    game = bw.load("carcassonne", 2, {"draw_order": SHORT_PILE})
    state = game.new_game(3)
    bots = [make_agent("easy", seed=1), make_agent("random", seed=2)]
    while not state.is_terminal:
        action = bots[state.current_player].act(state)
        assert action in state.legal_actions()
        state.apply(action)


def test_the_cli_accepts_a_level_in_players_and_refuses_an_unknown_one() -> None:
    runner = CliRunner()
    pile = '["' + '","'.join(SHORT_PILE) + '"]'
    result = runner.invoke(app, ["play", "carcassonne", "--players", "easy,random", "--seed", "3",
                                 "--option", f"draw_order={pile}"])
    assert result.exit_code == 0, result.output
    assert "Final scores" in result.output
    refused = runner.invoke(app, ["play", "carcassonne", "--players", "human,expert"])
    assert refused.exit_code != 0
    assert "expert" in refused.output and "Traceback" not in refused.output
