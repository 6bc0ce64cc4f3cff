"""Playouts in compiled code (`Game.playout`): where they stop, what they return, and that their
policies are the Python ones."""

from __future__ import annotations

import random

import pytest

import boardwright as bw
from boardwright.agents.greedy import lookahead_value
from boardwright.agents.mcts import MCTSAgent
from boardwright.core.game import PlayoutStop
from boardwright.games.carcassonne.actions import PASS


from native_support import needs_native  # noqa: E402

pytestmark = [needs_native, pytest.mark.engines(reason="names its engines itself")]
AM = {"expansions": ["abbey_mayor"]}


def positions(game: bw.Game, seed: int, count: int, every: int = 7) -> list[bw.State]:
    """Positions of one random game, every few decisions."""
    state = game.new_game(seed)
    rng = random.Random(seed)
    out = []
    step = 0
    while not state.is_terminal and len(out) < count:
        if step % every == 0:
            out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
        step += 1
    return out


@pytest.mark.parametrize("policy", ["random", "game", "greedy"])
def test_a_playout_stops_where_the_searcher_begins_a_turn(policy: str) -> None:
    game = bw.load("carcassonne", 3, AM, engine="native")
    rng = random.Random(1)
    for state in positions(game, 11, 12):
        me = state.current_player
        before = len(state.history)
        values, terminal = game.playout(state, policy, rng, PlayoutStop(me=me, min_plies=1))
        assert len(state.history) > before
        assert terminal == state.is_terminal
        if terminal:
            assert values == [float(s) for s in state.scores]
        else:
            assert state.current_player == me and state.at_turn_start
            assert values == game.evaluation(state)


def test_a_playout_without_turn_leaves_plays_exactly_its_plies() -> None:
    game = bw.load("carcassonne", 2, AM, engine="native")
    for state in positions(game, 5, 10):
        before = len(state.history)
        _, terminal = game.playout(state, "random", random.Random(2),
                                   PlayoutStop(me=0, min_plies=3, turn_leaves=False))
        assert terminal or len(state.history) == before + 3


def test_the_game_policy_keeps_its_figures() -> None:
    """The game's playout policy passes whenever a figure could be put (rollout_action)."""
    game = bw.load("carcassonne", 2, {}, engine="native")
    checked = 0
    for state in positions(game, 3, 40, every=1):
        actions = state.legal_actions()
        if state.phase != "deploy" or len(actions) < 2:
            continue
        game.playout(state, "game", random.Random(0), PlayoutStop(me=0, turn_leaves=False,
                                                                  min_plies=1))
        assert state.history[-1] == PASS
        checked += 1
    assert checked >= 5


def test_the_greedy_policy_makes_the_greedy_agents_choice() -> None:
    """The native greedy choice is one of the actions the Python greedy agent rates best."""
    game = bw.load("carcassonne", 2, AM, engine="native")
    checked = 0
    for state in positions(game, 21, 14, every=5):
        twin = state.to_python()
        seat = twin.current_player
        values = {}
        for action in twin.legal_actions():
            child = twin.clone()
            child.apply(action)
            values[action] = lookahead_value(child, seat, 1)
        best = max(values.values())
        choice = game.action_from_id(state.greedy_action_id(7))
        assert abs(values[choice] - best) <= 1e-9
        checked += 1
    assert checked >= 10


def test_an_unknown_policy_is_refused() -> None:
    game = bw.load("carcassonne", 2, {}, engine="native")
    state = game.new_game(1)
    with pytest.raises(bw.InvalidOptionError, match="unknown playout policy"):
        game.playout(state, "clever", random.Random(0), PlayoutStop(me=0))


def test_python_states_leave_playouts_to_the_search() -> None:
    game = bw.load("carcassonne", 2, {}, engine="python")
    assert game.playout(game.new_game(1), "random", random.Random(0), PlayoutStop(me=0)) is None


def test_mcts_plays_out_natively(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the native engine every playout of the search goes through the game's hook."""
    game = bw.load("carcassonne", 2, AM, engine="native")
    state = positions(game, 4, 3)[-1]
    calls = []
    hook = type(game).playout

    def counted(self: bw.Game, *args: object) -> object:
        result = hook(self, *args)  # type: ignore[arg-type]
        calls.append(result is not None)
        return result

    monkeypatch.setattr(type(game), "playout", counted)
    agent = MCTSAgent(seed=1, iterations=40)
    assert agent.act(state) in state.legal_actions()
    assert len(calls) >= 40 and all(calls)
