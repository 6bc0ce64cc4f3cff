"""OpenSpiel's Carcassonne on the compiled engine (`engine="native"`, the native chance game)
against the same game on the Python engine's `new_chance_game()`, the rules reference: the same
chance outcomes with the same probabilities, the same players, legal action ids, positions,
strings and returns at every step of random games (base game and Abbey & Mayor with abbeys,
mayors, wagons and barns; 2 and 4 players), chance outcomes chosen so that unplaceable tiles
come up and are drawn again. Also OpenSpiel's own random-simulation test on the native game,
strings that are the same for every seat, and the observation tensor's shape and values."""

import json
import os
import pickle
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

import boardwright.rl.openspiel  # noqa: E402, F401
from boardwright.core.errors import IllegalActionError, InvalidOptionError  # noqa: E402
from boardwright.games.carcassonne import native  # noqa: E402

# Only an install asked not to build the extension (BOARDWRIGHT_NATIVE=0) runs without it.
pytestmark = pytest.mark.skipif(
    os.environ.get("BOARDWRIGHT_NATIVE") == "0" and not native.AVAILABLE,
    reason="BOARDWRIGHT_NATIVE=0: the native engine is not built")

AM = {"expansions": ["abbey_mayor"], "wagon_adjacency": "connected", "barns": 2}
AM_VOLUNTARY = {"expansions": ["abbey_mayor"], "abbeys": 2, "mayors": 2, "wagons": 2,
                "wagon_adjacency": "connected", "wagon_traverse": True,
                "abbey_end_of_game": "voluntary_round"}
CONFIGS = {  # id -> (players, options, seeds)
    "base-2": (2, {}, (0, 1, 2)),
    "base-4": (4, {}, (3, 4)),
    "am-2": (2, AM, (5, 6, 7)),
    "am-4": (4, AM, (8, 9, 10)),
    "am-voluntary-3": (3, AM_VOLUNTARY, (11, 12)),
}
CHANCE = pyspiel.PlayerId.CHANCE


def load(players, options, engine):
    params = {"players": players, "engine": engine}
    if options:
        params["options"] = json.dumps(options)
    return pyspiel.load_game("python_boardwright_carcassonne", params)


def discards_after(state, outcome):
    """Whether drawing `outcome` at the native state's chance node discards the tile."""
    probe = state.bw_state.clone()
    before = len(probe._discarded)
    probe.apply_chance(outcome)
    return len(probe._discarded) > before


def choose_outcome(state, rng):
    """A chance outcome by its probability, or half the time one that cannot be placed (when
    any), so that discards and the draws after them are played."""
    outcomes = state.chance_outcomes()
    ids = [o for o, _ in outcomes]
    if rng.random() < 0.5:
        unplaceable = [o for o in ids if discards_after(state, o)]
        if unplaceable:
            return rng.choice(unplaceable)
    return rng.choices(ids, [p for _, p in outcomes])[0]


def lockstep(players, options, seed):
    """Play one random game on both engines at once, checking every step; returns how many
    chance nodes followed another (draws after an unplaceable tile)."""
    native_game, python_game = load(players, options, "native"), load(players, options, "python")
    assert native_game.bw_game.engine == "native" and python_game.bw_game.engine == "python"
    a, b = native_game.new_initial_state(), python_game.new_initial_state()
    rng = random.Random(seed)
    redraws, after_chance, step = 0, False, 0
    while True:
        assert a.current_player() == b.current_player()
        assert a.is_terminal() == b.is_terminal() and a.is_chance_node() == b.is_chance_node()
        assert a.history() == b.history()
        for seat in range(players):
            assert a.information_state_string(seat) == b.information_state_string(seat)
        if a.is_terminal():
            break
        if a.is_chance_node():
            assert a.chance_outcomes() == b.chance_outcomes()  # ids and probabilities, exactly
            assert a.legal_actions() == b.legal_actions()
            redraws += after_chance
            outcome = choose_outcome(a, rng)
            assert a.action_to_string(CHANCE, outcome) == b.action_to_string(CHANCE, outcome)
            a.apply_action(outcome)
            b.apply_action(outcome)
            after_chance = True
            continue
        after_chance = False
        assert a.bw_state.signature() == b.bw_state.inner.signature()
        ids = a.legal_actions()
        assert ids == b.legal_actions() and ids
        seat = a.current_player()
        assert a.legal_actions(seat) == ids and a.legal_actions((seat + 1) % players) == []
        if step % 9 == 0:  # the costlier readings, now and then
            assert str(a) == str(b)
            for viewer in range(players):
                assert a.observation_string(viewer) == b.observation_string(viewer)
                assert np.array_equal(a.observation_tensor(viewer), b.observation_tensor(viewer))
            assert [a.action_to_string(seat, i) for i in ids] == [
                b.action_to_string(seat, i) for i in ids]
        action = rng.choice(ids)
        a.apply_action(action)
        b.apply_action(action)
        step += 1
    assert a.bw_state.signature() == b.bw_state.inner.signature()
    assert a.returns() == b.returns() and sum(a.returns()) == pytest.approx(0.0)
    assert a.bw_state.scores == b.bw_state.scores
    return redraws


@pytest.mark.parametrize("config", CONFIGS)
def test_rl_openspiel_native_plays_as_the_python_engine(config):
    players, options, seeds = CONFIGS[config]
    redraws = sum(lockstep(players, options, seed) for seed in seeds)
    if config.startswith("am"):  # these deals do draw unplaceable tiles
        assert redraws > 0


def test_rl_openspiel_native_state_is_the_native_chance_game():
    game = load(2, {}, "native")
    state = game.new_initial_state()
    inner = state.bw_state
    assert type(inner).__name__ == "NativeCarcassonneState" and inner.explicit_chance
    assert state.is_chance_node() and inner.current_player == -2 and inner.phase == "chance"
    assert state.legal_actions() == [o for o, _ in state.chance_outcomes()]
    # a default game plays natively wherever the engine is built
    assert load(2, {}, "").bw_game.engine == "native"


@pytest.mark.parametrize("players, options", [(2, {}), (4, AM)])
def test_rl_openspiel_native_random_sim_test(players, options):
    """OpenSpiel's own checks (clone, serialization, legal actions, chance outcomes, observers,
    the game length) on the native game."""
    pyspiel.random_sim_test(load(players, options, "native"), num_sims=1, serialize=True,
                            verbose=False)


def test_rl_openspiel_native_clone_and_pickle_are_independent_states():
    game = load(2, AM, "native")
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(90):
        if state.is_chance_node():
            state.apply_action(choose_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    for copy in (state.clone(), pickle.loads(pickle.dumps(state)),
                 pyspiel.deserialize_game_and_state(
                     pyspiel.serialize_game_and_state(game, state))[1]):
        assert copy.history() == state.history()
        assert copy.bw_state.signature() == state.bw_state.signature()
        before = state.bw_state.signature()
        while not copy.is_terminal():  # the copy plays on; the state does not move
            if copy.is_chance_node():
                copy.apply_action(choose_outcome(copy, rng))
            else:
                copy.apply_action(rng.choice(copy.legal_actions()))
        assert state.bw_state.signature() == before


@pytest.mark.parametrize("name, options", [("carcassonne", {}), ("carcassonne", AM),
                                           ("queens", {})])
def test_rl_openspiel_perfect_information_strings_are_the_same_for_every_seat(name, options):
    players = 3
    params = {"players": players}
    if options:
        params["options"] = json.dumps(options)
    game = pyspiel.load_game(f"python_boardwright_{name}", params)
    state = game.new_initial_state()
    rng = random.Random(5)
    steps = 0
    while not state.is_terminal() and steps < 60:
        if not state.is_chance_node():
            infos = {state.information_state_string(seat) for seat in range(players)}
            observations = {state.observation_string(seat) for seat in range(players)}
            assert len(infos) == 1 and len(observations) == 1
            assert infos == {",".join(map(str, state.history()))}  # the public history
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1


@pytest.mark.parametrize("engine", ["native", "python"])
def test_rl_openspiel_observation_tensor_is_a_new_array_of_the_observers_values(engine):
    """`observation_tensor(seat)` is a float32 array of `observation_tensor_shape()`, new at
    every call, holding exactly what OpenSpiel's C++ side reads through the observer."""
    game = load(2, AM, engine)
    shape = tuple(game.observation_tensor_shape())
    state = game.new_initial_state()
    rng = random.Random(8)
    decisions = 0
    while decisions < 25:
        if state.is_chance_node():
            tensor = state.observation_tensor(0)
            assert tensor.shape == shape
            if game._shared.tensor_form:  # no seat decides at a chance node: zeros
                assert not tensor.any()
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        for seat in range(2):
            tensor = state.observation_tensor(seat)
            assert tensor.dtype == np.float32 and tensor.shape == shape
            through_cpp = np.asarray(pyspiel.State.observation_tensor(state, seat), np.float32)
            assert np.array_equal(through_cpp.reshape(shape), tensor)
            again = state.observation_tensor(seat)
            assert again is not tensor and not np.shares_memory(again, tensor)
        assert np.array_equal(state.observation_tensor(), state.observation_tensor(
            state.current_player()))
        state.apply_action(rng.choice(state.legal_actions()))
        decisions += 1
    assert np.array_equal(state.observation_tensor(np.int64(1)), state.observation_tensor(1))
    for seat in (2, -1, True, "0"):
        with pytest.raises(IllegalActionError, match="observes this game"):
            state.observation_tensor(seat)


def test_rl_openspiel_carcassonne_observation_is_the_lossless_tensor():
    """With the lossless encoder (`encode_state` and `tensor`), the observation is its float
    view: the board planes and a plane of scalars, 31 x 31 cells each."""
    game = load(2, {}, "native")
    encoder = game._shared.encoder
    if not callable(getattr(encoder, "encode_state", None)):
        pytest.skip("this tree's Carcassonne encoder has no tensor form yet")
    shape = game.observation_tensor_shape()
    assert len(shape) == 3 and shape[1:] == [31, 31]
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    expected = encoder.tensor(encoder.encode_state(state.bw_state, 0))
    assert np.array_equal(state.observation_tensor(0), expected)


def test_rl_openspiel_unknown_engine_is_refused():
    with pytest.raises(InvalidOptionError, match="unknown engine"):
        load(2, {}, "fortran")
    assert str(load(2, {}, "python")).count("engine=python") == 1
    assert "engine" not in str(load(2, {}, ""))  # the default keeps the game string as it was


def test_rl_openspiel_native_refuses_illegal_ids_and_leaves_the_state():
    game = load(2, {}, "native")
    state = game.new_initial_state()
    rarest, probability = min(state.chance_outcomes(), key=lambda item: item[1])
    assert probability == 1 / 71  # the only tile of its type
    state.apply_action(rarest)
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    before = state.bw_state.signature()
    for gone in (rarest, game.max_chance_outcomes(), -5):  # drawn already, no tile type
        with pytest.raises(IllegalActionError, match="not possible here"):
            state.apply_action(gone)
        assert state.bw_state.signature() == before
    state.apply_action(state.chance_outcomes()[0][0])
    legal = set(state.legal_actions())
    illegal = next(i for i in range(game.num_distinct_actions()) if i not in legal)
    before = state.bw_state.signature()
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply_action(illegal)
    assert state.bw_state.signature() == before
