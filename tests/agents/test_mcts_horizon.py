"""The playout horizon: leaves judged at the searcher's n-th next turn, on both engines."""

from __future__ import annotations

import random

import pytest

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.agents.mcts import MCTSAgent
from boardwright.core.game import PlayoutStop
from boardwright.games.carcassonne import native

AM = {"expansions": ["abbey_mayor"]}


def midgame(engine: str, seed: int) -> bw.State:
    state = bw.load("carcassonne", 2, AM, engine=engine).new_game(seed)
    rng = random.Random(seed)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    while not state.at_turn_start:
        state.apply(rng.choice(state.legal_actions()))
    return state


def turn_starts_of(state: bw.State, seat: int, start: int) -> int:
    """How many times `seat` was about to begin a turn after ply `start` of the history."""
    replay = bw.replay(state.record, steps=start, engine=state.game.engine)
    count = 0
    for action in state.history[start:]:
        replay.apply(action)
        if replay.current_player == seat and replay.at_turn_start:
            count += 1
    return count


@pytest.mark.parametrize("horizon", [1, 2, 3])
def test_playouts_stop_at_the_searchers_nth_turn(carcassonne_engine: str, horizon: int) -> None:
    state = midgame(carcassonne_engine, 11)
    me = state.current_player
    start = len(state.history)
    state.apply(state.legal_actions()[0])  # the searcher's move; the playout goes on from here
    agent = MCTSAgent(seed=3, iterations=1, greedy_playouts=True, horizon=horizon)
    agent._me = me
    agent._rollout(state, random.Random(5))
    assert state.current_player == me and state.at_turn_start
    assert turn_starts_of(state, me, start) == horizon


@pytest.mark.skipif(not native.AVAILABLE, reason="the native engine is not built")
def test_compiled_playouts_count_turns_after_the_fixed_plies() -> None:
    state = midgame("native", 12)
    game = state.game
    me = state.current_player
    start = len(state.history)
    state.apply(state.legal_actions()[0])
    result = game.playout(state, "random", random.Random(2), PlayoutStop(me, 3, True, 400, 2))
    assert result is not None and not result[1]
    assert state.current_player == me and state.at_turn_start
    assert len(state.history) - start >= 4
    # Turn starts met during the three fixed plies do not count: the stop is the second one
    # among the positions from the fourth ply on (history length start + 1 + 3).
    assert turn_starts_of(state, me, start + 3) == 2


def test_horizon_is_an_agent_parameter() -> None:
    agent = make_agent("mcts:horizon=3,iters=10")
    assert agent.config.horizon == 3
    with pytest.raises(bw.InvalidOptionError, match="horizon must be positive"):
        make_agent("mcts:horizon=0")


@pytest.mark.parametrize("name", ["queens", "shogun"])
def test_a_finished_game_is_judged_on_the_evaluations_scale(name: str) -> None:
    """A playout that ends the game is compared with leaves judged by the evaluation: its value
    is the game's final value on that scale (a win as the evaluation counts it), not the
    standings or points of `scores`."""
    state = bw.load(name, 2, {}).new_game(4)
    rng = random.Random(4)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    agent = MCTSAgent(seed=1, iterations=1)
    agent._me = 0
    agent._base = [0.0, 0.0]
    agent._rollout(state, random.Random(1))
    final = state.game.final_values(state)
    assert agent._leaf_values == final == state.game.evaluation(state)
    assert max(final) >= 1000.0  # the winner's value is the evaluation's win, whatever its score


def test_carcassonne_finishes_on_its_scores(carcassonne_engine: str) -> None:
    state = bw.load("carcassonne", 2, {}).new_game(4)
    rng = random.Random(4)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    assert state.game.final_values(state) == [float(s) for s in state.scores]
