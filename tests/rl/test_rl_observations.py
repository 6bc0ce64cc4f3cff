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


@pytest.mark.parametrize("name", ["queens", "shogun"])
def test_rl_other_games_observe_one_float_vector_in_the_dict_form(name):
    game = make_game(name, 2)
    encoder = encoder_for(game)
    assert encoder.spaces() == {"observation": ((encoder.size,), np.float32, LOW, HIGH)}
    assert encoder.board_blocks == {} and encoder.scalar_blocks == {}
    state, rng = game.new_game(5), random.Random(5)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    for seat in range(2):
        vector = encoder.encode(state.view(seat), seat)
        obs = encoder.encode_state(state, seat)
        assert set(obs) == {"observation"} and np.array_equal(obs["observation"], vector)
        assert np.array_equal(encoder.to_float(obs), vector)
        assert np.array_equal(encoder.tensor(obs), vector)
        out = {"observation": np.full(encoder.size, 9.0, dtype=np.float32)}
        encoder.encode_into(state, seat, out)
        assert np.array_equal(out["observation"], vector)


def test_rl_an_encoder_that_is_not_an_encoder_subclass_gets_the_dict_form():
    from boardwright.rl.observations import Encoder

    game = make_game("goofspiel", 2)  # the example plugin (tests/example_plugins.py)

    class Mine:  # size, layout and encode, nothing else
        size = 3
        layout = [("all", 0, 3, (3,))]

        def encode(self, view, seat):
            return np.array([seat, len(view["scores"]), 1.0], dtype=np.float32)

    game.observation_encoder = Mine
    encoder = encoder_for(game)
    assert isinstance(encoder, Encoder) and encoder.size == 3
    obs = encoder.encode_state(game.new_game(0), 1)
    assert obs["observation"].tolist() == [1.0, 2.0, 1.0]
