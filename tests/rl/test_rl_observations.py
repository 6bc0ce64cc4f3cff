"""Observation encoders: fixed shapes, bounds, and built only from the seat's own view."""

import random

import pytest
from carcassonne_engines import over_games

np = pytest.importorskip("numpy")

from boardwright.rl import make_game
from boardwright.rl.observations import HIGH, LOW, encoder_for

GAMES = ["carcassonne", "queens", "shogun"]


@over_games("name", GAMES)
def test_rl_fixed_shape_and_bounds_over_a_random_game(name):
    game = make_game(name, 2)
    encoder = encoder_for(game)
    assert encoder.layout[-1][2] == encoder.size
    state, rng, steps = game.new_game(7), random.Random(7), 0
    while not state.is_terminal and steps < 400:
        for seat in range(2):
            vec = encoder.encode(state.view(seat), seat)
            assert vec.shape == (encoder.size,) and vec.dtype == np.float32
            assert vec.min() >= LOW and vec.max() <= HIGH
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
    blocks = encoder.split(vec)
    assert set(blocks) == {name for name, *_ in encoder.layout}


def test_rl_shogun_observation_ignores_the_opponents_hidden_hand():
    game = make_game("shogun", 2)
    encoder = encoder_for(game)
    state, rng = game.new_game(3), random.Random(3)
    for _ in range(60):
        state.apply(rng.choice(state.legal_actions()))
    # a different determinization of seat 0's unknowns gives the same observation for seat 0
    other = state.determinize(0, random.Random(99))
    assert np.array_equal(encoder.encode(state.view(0), 0), encoder.encode(other.view(0), 0))
