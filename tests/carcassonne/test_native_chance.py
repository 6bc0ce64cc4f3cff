"""The native engine's chance mode (`CarcassonneGame.new_chance_game(native=True)`): a state that
stops at each draw with the tiles left as outcomes, and answers bad input as the Python
engine's `ExplicitChanceState` does. Step-by-step agreement with the Python chance game over
random games is tests/rl/test_rl_openspiel_native.py's."""

from __future__ import annotations

import pickle
import random
from collections import Counter

import numpy as np
import pytest
from native_support import needs_native

from boardwright.core.chance import CHANCE
from boardwright.core.errors import IllegalActionError, InvalidOptionError
from boardwright.core.game import PlayoutStop
from boardwright.games.carcassonne import native
from boardwright.games.carcassonne.actions import DRAW, PASS
from boardwright.games.carcassonne.game import CarcassonneGame

pytestmark = [needs_native,
              pytest.mark.engines(reason="names the native engine itself")]

AM = {"expansions": ["abbey_mayor"], "wagon_adjacency": "connected", "barns": 2}


def native_game(players: int = 2, options: dict | None = None) -> CarcassonneGame:
    return CarcassonneGame(players, options or {}, engine="native")


def to_decision(state, rng: random.Random):
    """Resolve chance nodes by their probabilities until a seat decides (or the game ends)."""
    while state.is_chance_node:
        outcomes, probabilities = zip(*state.chance_outcomes())
        state.apply_chance(rng.choices(outcomes, probabilities)[0])
    return state


def play(state, rng: random.Random, decisions: int):
    for _ in range(decisions):
        to_decision(state, rng)
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_native_chance_state_stops_at_each_draw_over_the_tiles_left():
    game = native_game()
    state = game.new_chance_game(native=True)
    assert state.explicit_chance and state.has_position and state.inner is state
    rng = random.Random(4)
    nodes = 0
    while not state.is_terminal:
        if state.is_chance_node:
            assert state.current_player == CHANCE and state.phase == "chance"
            assert state.legal_actions() == [] and state.legal_action_ids() == []
            assert not state.at_turn_start
            view = state.view(0)
            assert view["chance_node"] and "legal_actions" not in view
            left = Counter(state._pile)
            outcomes = state.chance_outcomes()
            assert [o for o, _ in outcomes] == sorted(left) and len(left) > 1
            assert outcomes == [(t, n / sum(left.values())) for t, n in sorted(left.items())]
            nodes += 1
            to_decision(state, rng)
            continue
        assert state.chance_outcomes() == [] and not state.view(None)["chance_node"]
        state.apply(rng.choice(state.legal_actions()))
    assert 60 < nodes <= game.max_chance_events()


def test_native_chance_state_refuses_what_is_not_possible_and_stays_as_it_was():
    state = native_game(2, AM).new_chance_game(native=True)
    rng = random.Random(1)
    before = state.signature()
    for outcome in (10**30, -1, 255, True, np.int64(state.chance_outcomes()[0][0]), "3", None):
        with pytest.raises(IllegalActionError, match="not possible here; possible"):
            state.apply_chance(outcome)
        assert state.signature() == before
    for action in (PASS, DRAW, {"type": "pass"}):
        with pytest.raises(IllegalActionError, match="a chance event is pending"):
            state.apply(action)
        assert state.signature() == before
    to_decision(state, rng)
    before = state.signature()
    with pytest.raises(IllegalActionError, match="no chance event is pending"):
        state.apply_chance(0)
    assert state.signature() == before


def test_native_chance_state_has_no_seeded_record_and_no_compiled_playout():
    game = native_game()
    state = play(game.new_chance_game(native=True), random.Random(2), 5)
    with pytest.raises(InvalidOptionError, match="no seeded record"):
        state.record
    with pytest.raises(InvalidOptionError, match="no compiled playouts"):
        game.playout(state, "random", random.Random(0), PlayoutStop(me=0))


def test_native_chance_state_pickles_and_clones_in_chance_mode():
    state = play(native_game(3, AM).new_chance_game(native=True), random.Random(6), 40)
    states = [state.clone()]  # at a decision
    while not state.is_chance_node:
        state.apply(state.legal_actions()[-1])
    states.append(state)  # at a chance node
    for original in states:
        for copy in (original.clone(), pickle.loads(pickle.dumps(original))):
            assert copy.explicit_chance and copy.signature() == original.signature()
            assert copy.is_chance_node == original.is_chance_node
            assert copy.chance_outcomes() == original.chance_outcomes()
            a, b = copy, original.clone()
            play(a, random.Random(9), 30)
            play(b, random.Random(9), 30)
            assert a.signature() == b.signature()


def test_native_chance_game_of_a_draw_order_has_no_chance():
    order = ["E", "U", "V", "K", "L"]
    game = native_game(2, {"draw_order": order})
    state = game.new_chance_game(native=True)
    assert not state.explicit_chance and not state.is_chance_node
    reference = game.new_game(0)
    rng = random.Random(3)
    while not state.is_terminal:
        assert not state.is_chance_node and state.signature() == reference.signature()
        index = rng.randrange(len(state.legal_actions()))
        state.apply(state.legal_actions()[index])
        reference.apply(reference.legal_actions()[index])
    assert state.scores == reference.scores


def test_native_chance_game_from_a_python_engine_game():
    python_game = CarcassonneGame(2, {}, engine="python")
    state = python_game.new_chance_game(native=True)
    assert state.game.engine == "native" and state.explicit_chance
    assert state.game is python_game.new_chance_game(native=True).game  # the twin is kept
    # the first draw: the same outcomes (the Python chance game has no position yet)
    reference = python_game.new_chance_game()
    assert not reference.has_position
    assert state.chance_outcomes() == reference.chance_outcomes()


def test_native_chance_game_needs_the_extension(native_missing):
    game = CarcassonneGame(2, {}, engine="python")
    with pytest.raises(InvalidOptionError, match="no native chance game"):
        game.new_chance_game(native=True)
    assert native.UNAVAILABLE_REASON == native_missing
