"""ExplicitChanceState: chance nodes, refusals that change nothing, replay of its steps."""

from __future__ import annotations

import random

import pytest
from chance_helpers import tiles_left

import boardwright as bw
from boardwright.core.chance import CHANCE, ExplicitChanceState, replay_steps
from boardwright.core.errors import IllegalActionError, InvalidOptionError


def random_steps(state: ExplicitChanceState, rng: random.Random, count: int) -> None:
    for _ in range(count):
        if state.is_terminal:
            return
        if state.current_player == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_chance(rng.choices(outcomes, weights)[0])
        else:
            state.apply(rng.choice(state.legal_actions()))


def test_chance_nodes_refuse_decisions_and_bad_outcomes_without_changing() -> None:
    game = bw.load("carcassonne", 2, {}, engine="python")
    state = game.new_chance_game()
    assert state.current_player == CHANCE and state.legal_actions() == []
    assert not state.has_position  # the first tile is drawn before any position exists
    with pytest.raises(IllegalActionError, match="chance event is pending"):
        state.apply({"type": "pass"})
    with pytest.raises(IllegalActionError, match="not possible here"):
        state.apply_chance(10_000)
    assert state.steps == [] and state.current_player == CHANCE
    state.apply_chance(state.chance_outcomes()[0][0])
    assert state.current_player == 0 and state.chance_outcomes() == []
    before = state.inner.signature()
    with pytest.raises(IllegalActionError, match="no chance event"):
        state.apply_chance(0)
    with pytest.raises(IllegalActionError):
        state.apply({"type": "place", "x": 40, "y": 0, "rotation": 0})
    assert state.inner.signature() == before and len(state.steps) == 1


def test_steps_replay_and_the_same_steps_give_the_same_state() -> None:
    game = bw.load("carcassonne", 3, {"expansions": ["abbey_mayor"]}, engine="python")
    state = game.new_chance_game()
    random_steps(state, random.Random(8), 150)
    again = replay_steps(game, state.steps)
    assert again.inner == state.inner and again.steps == state.steps
    assert again.chance_outcomes() == state.chance_outcomes()


def test_a_chance_state_has_no_seeded_record_and_determinizes_only_at_decisions() -> None:
    game = bw.load("shogun", 2, {"max_rounds": 2})
    state = game.new_chance_game()
    with pytest.raises(InvalidOptionError, match="no seed"):
        state.record
    with pytest.raises(IllegalActionError, match="chance node"):
        state.determinize(0, random.Random(0))
    random_steps(state, random.Random(1), 30)
    while state.current_player == CHANCE:
        random_steps(state, random.Random(2), 1)
    other = state.determinize(state.current_player, random.Random(0))
    assert other.steps == state.steps
    assert other.view(state.current_player) == state.view(state.current_player)


def test_a_tile_that_fits_nowhere_is_discarded_and_drawn_again_as_a_new_chance_node() -> None:
    """Seed 12 of this random play draws a tile with no place (CAR-BASE rules: discarded, draw
    again): the re-draw is a chance node over the tiles left without the discarded one."""
    game = bw.load("carcassonne", 2, {}, engine="python")
    rng = random.Random(12)
    state = game.new_chance_game()
    redraws = 0
    while not state.is_terminal:
        if state.current_player == CHANCE:
            if state.has_position and state.steps[-1][0] == "chance":
                left = tiles_left(state)
                names = game._tile_names
                assert dict(state.chance_outcomes()) == pytest.approx(
                    {names.index(t): n / sum(left.values()) for t, n in left.items()})
                redraws += 1
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_chance(rng.choices(outcomes, weights)[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert state.inner.discarded == ["B"] and redraws == 1
