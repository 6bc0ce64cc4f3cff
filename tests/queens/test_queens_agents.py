"""The bots on Queens: legal play with random, greedy and MCTS, and greedy beating random."""

from __future__ import annotations

import pytest

import boardwright as bw
from boardwright.agents import make_agent
from play_helpers import play_out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_and_random_play_whole_games_legally(players: int) -> None:
    game = bw.load("queens", players)
    state = play_out(game, ["greedy", "random", "greedy", "random"][:players], seed=players)
    assert state.is_terminal
    assert bw.replay(state.record) == state


def test_mcts_plays_a_whole_game_legally() -> None:
    game = bw.load("queens", 2)
    state = play_out(game, ["mcts:iters=12", "random"], seed=1)
    assert state.is_terminal


def test_greedy_beats_random() -> None:
    """Not a strength benchmark: a sanity check that the heuristic means something."""
    game = bw.load("queens", 2)
    for seed in range(6):
        specs = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        state = play_out(game, specs, seed)
        greedy_seat = seed % 2
        assert state.winners == [greedy_seat], (seed, state.scores)
        assert state.returns()[greedy_seat] == 1.0


def test_greedy_takes_a_queen_when_it_can() -> None:
    position = {"seats": [{"queen": [0, -3], "princes": [[1, -4], [-1, -3]]},
                          {"queen": [0, -4]}]}
    game = bw.load("queens", 2, {"position": position})
    state = game.new_game(0)
    action = make_agent("greedy", seed=1).act(state)
    state.apply(action)
    assert state.is_terminal and state.winners == [0]
