"""OpenSpiel adapter: explicit chance nodes, serialization, replay, information states, bounds,
clear errors, and OpenSpiel's own random-simulation test, MCTS and ISMCTS bots. Carcassonne runs
on its default engine (the native one where it is built) and, as `carcassonne-python`, on the
Python engine (tests/rl/test_rl_openspiel_native.py compares the two step by step)."""

import json
import pickle
import random
from collections import Counter

import pytest
from chance_helpers import tiles_left
from hypothesis import given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr  # noqa: E402

import boardwright.rl.openspiel as bos  # noqa: E402
from boardwright.rl.action_spaces import action_space_for  # noqa: E402
from boardwright.core.chance import SampledOutcomes  # noqa: E402
from boardwright.core.errors import InvalidOptionError  # noqa: E402

AM = {"expansions": ["abbey_mayor"], "wagon_adjacency": "connected", "barns": 2}
SHORT_SHOGUN = {"max_rounds": 2}
CASES = {  # id -> (game, options): every game, Carcassonne also with Abbey & Mayor
    "carcassonne": ("carcassonne", {}),
    "carcassonne-am": ("carcassonne", AM),
    "carcassonne-python": ("carcassonne", {}),
    "queens": ("queens", {}),
    "shogun": ("shogun", SHORT_SHOGUN),
}
ENGINE = {"carcassonne-python": "python"}  # other cases: the game's default engine
CHANCE = pyspiel.PlayerId.CHANCE


def load(name, players=2, options=None, engine=None):
    params = {"players": players}
    if options:
        params["options"] = json.dumps(options)
    if engine:
        params["engine"] = engine
    return pyspiel.load_game(f"python_boardwright_{name}", params)


def load_case(case, players=2):
    name, options = CASES[case]
    return load(name, players, options, ENGINE.get(case))


def play(state, rng, steps):
    """Apply up to `steps` random steps: chance outcomes by their probabilities, decisions
    uniformly."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


# -- OpenSpiel's own checks ------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES)
def test_rl_openspiel_random_sim_test_with_serialization(case):
    """Clone, serialize/deserialize (at the first steps and every power of two), legal-action
    masks, the chance outcomes and `max_game_length` checked by OpenSpiel itself. Abbey &
    Mayor takes about 10 s (its 10 million action ids make each legal-action mask long)."""
    sims = 1 if case == "carcassonne-am" else 2
    pyspiel.random_sim_test(load_case(case), num_sims=sims, serialize=True, verbose=False)


@pytest.mark.parametrize("case", CASES)
def test_rl_openspiel_game_type_is_truthful(case):
    name, _ = CASES[case]
    game = load_case(case)
    kind = game.get_type()
    assert kind.chance_mode == (pyspiel.GameType.ChanceMode.DETERMINISTIC if name == "queens"
                                else pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC)
    assert kind.information == (pyspiel.GameType.Information.IMPERFECT_INFORMATION
                                if name == "shogun"
                                else pyspiel.GameType.Information.PERFECT_INFORMATION)
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM and kind.min_num_players == 2
    assert game.max_chance_outcomes() == (0 if name == "queens" else
                                          game.bw_game.chance_outcome_count)
    assert game.num_distinct_actions() == action_space_for(game.bw_game).size  # learning ids


# -- determinism, replay, serialization ------------------------------------------------------

@pytest.mark.parametrize("case", CASES)
def test_rl_openspiel_history_replays_on_a_fresh_initial_state(case):
    game = load_case(case)
    assert str(game.new_initial_state()) == str(game.new_initial_state())
    assert game.new_initial_state().chance_outcomes() == game.new_initial_state().chance_outcomes()
    state = play(game.new_initial_state(), random.Random(3), 120)
    again = game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    assert again.history() == state.history()
    assert again.bw_state.inner == state.bw_state.inner  # the engines' full signatures
    assert str(again) == str(state)
    for seat in range(2):
        assert again.information_state_string(seat) == state.information_state_string(seat)
    # and the two go on alike
    rng_a, rng_b = random.Random(9), random.Random(9)
    play(state, rng_a, 40)
    play(again, rng_b, 40)
    assert again.history() == state.history() and str(again) == str(state)


@settings(max_examples=12, deadline=None)
@given(case=st.sampled_from(["carcassonne", "carcassonne-python", "shogun"]),
       seed=st.integers(0, 2**32), steps=st.integers(0, 150))
def test_rl_openspiel_any_history_replays_and_pickles_to_the_same_state(case, seed, steps):
    """Property: whatever the outcomes and decisions, the history replayed on a fresh initial
    state and the pickled state are the state itself (the engines' full signatures)."""
    game = load_case(case)
    state = play(game.new_initial_state(), random.Random(seed), steps)
    again = game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    copy = pickle.loads(pickle.dumps(state))
    for other in (again, copy):
        assert other.history() == state.history()
        assert other.chance_outcomes() == state.chance_outcomes()
        if state.bw_state.has_position:
            assert other.bw_state.inner == state.bw_state.inner


@pytest.mark.parametrize("case", CASES)
def test_rl_openspiel_pickle_and_serialize_round_trip(case):
    game = load_case(case)
    state = play(game.new_initial_state(), random.Random(5), 60)
    game2 = pickle.loads(pickle.dumps(game))
    assert str(game2) == str(game) and game2.max_game_length() == game.max_game_length()
    for copy in (pickle.loads(pickle.dumps(state)),
                 pyspiel.deserialize_game_and_state(
                     pyspiel.serialize_game_and_state(game, state))[1]):
        assert copy.history() == state.history() and str(copy) == str(state)
        assert copy.bw_state.inner == state.bw_state.inner
        play(copy, random.Random(1), 10)  # still a working state
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()


def test_rl_openspiel_options_with_commas_survive_the_game_string():
    """OpenSpiel's game strings use `,` `(` `)` `=` as syntax: options holding them are carried
    as base64, readable ones as they are."""
    game = load("carcassonne", 3, {"small_city_scoring": "first_edition", "farmers": False})
    assert "b64:" in str(game)
    again = pyspiel.load_game(str(game))
    assert again.bw_game.options == game.bw_game.options and again.num_players() == 3
    assert str(load("shogun", 2, SHORT_SHOGUN)).startswith(
        'python_boardwright_shogun(options={"max_rounds":2}')


# -- chance nodes ----------------------------------------------------------------------------

@pytest.mark.parametrize("case", ["carcassonne", "carcassonne-python"])
def test_rl_openspiel_carcassonne_draws_are_chance_nodes_over_the_tiles_left(case):
    game = load_case(case)
    bw_game = game.bw_game
    state = game.new_initial_state()
    assert state.is_chance_node() and state.current_player() == CHANCE
    rng = random.Random(11)
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert state.legal_actions() == [o for o, _ in outcomes]
            bw_state = state.bw_state
            if bw_state.has_position:
                left = tiles_left(bw_state)
                total = sum(left.values())
                expected = {bw_game._tile_index[t]: n / total for t, n in left.items()}
                assert dict(outcomes) == pytest.approx(expected)
                checked += 1
            play(state, rng, 1)
        else:
            play(state, rng, 1)
    chance_nodes = sum(1 for a in state.full_history() if a.player == CHANCE)
    # every draw; on the Python engine, but the first (before any position)
    assert checked == chance_nodes - (case == "carcassonne-python") > 60
    assert chance_nodes <= game.max_chance_nodes_in_history()


def test_rl_openspiel_shogun_chance_nodes_are_the_first_player_and_each_card_drawn():
    game = load("shogun", 3, SHORT_SHOGUN)
    bw_game = game.bw_game
    state = game.new_initial_state()
    seats = bw_game.chance_outcome_count - 3
    assert dict(state.chance_outcomes()) == pytest.approx({seats + k: 1 / 3 for k in range(3)})
    assert state.action_to_string(CHANCE, seats).startswith("first player")
    state.apply_action(seats)  # seat 0 begins
    for _ in range(3):  # the heroes, chosen in turn; then the first opening card is dealt
        assert not state.is_chance_node()
        state.apply_action(state.legal_actions()[0])
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    inner = state.bw_state.inner
    assert inner.first == 0 and inner.heroes[0] is not None  # seat 0's deck is dealt first
    deck = bw_game.decks_for(inner.heroes[:1])[0].action_cards()
    ids = bw_game.card_rank
    counts = Counter(ids[c] for c in deck)
    assert dict(outcomes) == pytest.approx({i: n / len(deck) for i, n in counts.items()})
    assert state.action_to_string(CHANCE, outcomes[0][0]).startswith("card ")


def test_rl_openspiel_queens_has_no_chance_node():
    game = load("queens")
    state = game.new_initial_state()
    while not state.is_terminal():
        assert not state.is_chance_node() and state.chance_outcomes() == []
        play(state, random.Random(len(state.history())), 1)
    assert len(state.history()) <= game.max_game_length()


@pytest.mark.parametrize("case", ["carcassonne", "carcassonne-python"])
def test_rl_openspiel_mcts_does_not_see_the_coming_tiles(case):
    """A clone at a decision holds no future draw: two clones, each dealt its own outcomes,
    draw different tiles from the same position."""
    game = load_case(case)
    state = play(game.new_initial_state(), random.Random(2), 8)
    while state.is_chance_node():
        play(state, random.Random(0), 1)
    drawn = set()
    for seed in range(12):
        clone = state.clone()
        rng = random.Random(seed)
        while not clone.is_chance_node():
            clone.apply_action(rng.choice(clone.legal_actions()))
        outcomes, probs = zip(*clone.chance_outcomes())
        clone.apply_action(rng.choices(outcomes, probs)[0])
        drawn.add(clone.bw_state.inner.tile)
    assert len(drawn) > 1


# -- observations and information states -----------------------------------------------------

@pytest.mark.parametrize("case", ["carcassonne", "carcassonne-python", "shogun"])
def test_rl_openspiel_observing_changes_nothing(case):
    game = load_case(case)
    state = play(game.new_initial_state(), random.Random(7), 50)
    before = (pyspiel.serialize_game_and_state(game, state), str(state), state.history(),
              state.legal_actions(), state.chance_outcomes())
    first = str(game.new_initial_state())
    for _ in range(3):
        for seat in range(2):
            state.observation_string(seat)
            state.observation_tensor(seat)
            state.information_state_string(seat)
            state.information_state_tensor(seat)
    after = (pyspiel.serialize_game_and_state(game, state), str(state), state.history(),
             state.legal_actions(), state.chance_outcomes())
    assert after == before
    assert str(game.new_initial_state()) == first
    assert state.observation_tensor(0).size == game.observation_tensor_size()


def test_rl_openspiel_shogun_information_state_hides_the_other_hand():
    """Resampling another seat's hidden cards (`resample_from_infostate`) keeps the seat's
    information-state string: it does not depend on the other hand or on any deck order."""
    game = load("shogun", 2, SHORT_SHOGUN)
    state = play(game.new_initial_state(), random.Random(4), 40)
    while state.is_chance_node() or state.is_terminal():
        play(state, random.Random(1), 1)
    seat = state.current_player()
    other = 1 - seat
    key = state.information_state_string(seat)
    hands = set()
    for k in range(8):
        sample = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0., 1.))
        assert sample.information_state_string(seat) == key
        assert sample.history() == state.history()
        hands.add(tuple(sorted(sample.bw_state.inner.table[other].hand)))
    assert len(hands) > 1  # the other hand really was re-dealt
    own_hand = state.bw_state.inner.table[seat].hand
    assert all(card in key for card in own_hand)
    other_view = json.loads(state.information_state_string(seat).split("|")[0])
    assert other_view["cards"][other]["hand"] is None


def test_rl_openspiel_information_state_shows_own_actions_and_public_forms():
    game = load("shogun", 2, SHORT_SHOGUN)
    state = play(game.new_initial_state(), random.Random(6), 30)
    text = state.information_state_string(0)
    steps = text.split("|", 1)[1].split(";")
    assert len(steps) == len(state.history())
    hidden_draws = [s for s in steps if s == "c?"]
    assert hidden_draws  # the cards dealt are not named in the history


# -- bounds and errors -----------------------------------------------------------------------

def test_rl_openspiel_max_game_length_bounds_a_long_draw_order():
    """A 500-tile draw order (the longest the option takes): the game ends within the bound."""
    tiles = [t for t in load("carcassonne").bw_game._tile_bag()]
    order = (tiles * 8)[:500]
    game = load("carcassonne", 2, {"draw_order": order})
    assert game.max_game_length() == 1000
    state = game.new_initial_state()
    assert not state.is_chance_node()  # a fixed order leaves no chance
    play(state, random.Random(0), 10_000)
    assert state.is_terminal() and len(state.history()) <= game.max_game_length()


def test_rl_openspiel_shogun_bound_is_the_decision_cap_derived_from_the_round_limit():
    game = load("shogun", 2, {"max_rounds": 1, "max_decisions": 25})
    assert game.max_game_length() == 25
    state = play(game.new_initial_state(), random.Random(0), 10_000)
    assert state.is_terminal() and state.bw_state.inner.end_reason == "max_decisions"
    assert len(state.history()) - sum(1 for a in state.full_history() if a.player == CHANCE) == 25
    derived = load("shogun", 2, SHORT_SHOGUN)
    assert derived.max_game_length() == derived.bw_game.options["max_decisions"] > 2 * 2 * 26
    with pytest.raises(InvalidOptionError, match="no bound on its chance nodes"):
        derived.max_chance_nodes_in_history()  # rather than OpenSpiel's fallback


@pytest.mark.parametrize("name, players", [("carcassonne", 1), ("carcassonne", 7),
                                           ("queens", 1), ("shogun", 1), ("shogun", 5)])
def test_rl_openspiel_player_counts_outside_the_range_are_refused(name, players):
    with pytest.raises(InvalidOptionError, match="players must be a whole number from 2"):
        load(name, players)


@pytest.mark.parametrize("options, message", [
    ("{bad", "not JSON"), ("[1, 2]", "must be a JSON object"), ("b64:!!", "base64"),
    ('{"bogus": 1}', "unknown Carcassonne option"),
])
def test_rl_openspiel_bad_options_name_the_problem(options, message):
    with pytest.raises(InvalidOptionError, match=message):
        pyspiel.load_game("python_boardwright_carcassonne", {"options": options})


def test_rl_openspiel_shogun_without_any_length_limit_is_refused():
    with pytest.raises(InvalidOptionError, match="needs max_rounds or max_decisions"):
        load("shogun", 2, {"max_rounds": None})
    assert load("shogun", 2, {"max_rounds": None, "max_decisions": 500}).max_game_length() == 500


def test_rl_openspiel_returns_add_up_to_zero():
    for case in ("carcassonne", "queens", "shogun"):
        name, options = CASES[case]
        for players in (2, 3):
            state = play(load(name, players, options).new_initial_state(),
                         random.Random(players), 100_000)
            assert state.is_terminal() and sum(state.returns()) == pytest.approx(0.0)


# -- OpenSpiel's search bots -----------------------------------------------------------------

def bot_moves(bot, state, moves: int) -> int:
    """Let an OpenSpiel bot make up to `moves` decisions (chance nodes sampled between them),
    each checked legal; how many it made before the game ended."""
    made = 0
    while made < moves and not state.is_terminal():
        if state.is_chance_node():
            play(state, random.Random(made), 1)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        made += 1
    return made


@pytest.mark.parametrize("case", ["carcassonne", "carcassonne-python"])
def test_rl_openspiel_mcts_with_explicit_chance_plays_carcassonne(case):
    game = load_case(case)
    rng = np.random.RandomState(4)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, 2.0, 12, evaluator, random_state=rng, solve=False)
    assert bot_moves(bot, game.new_initial_state(), 4) == 4


def test_rl_openspiel_ismcts_plays_shogun():
    game = load("shogun", 2, SHORT_SHOGUN)
    rng = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, max_simulations=10, random_state=rng)
    assert bot_moves(bot, game.new_initial_state(), 12) == 12


@pytest.mark.parametrize("case", ["carcassonne", "shogun"])
def test_rl_openspiel_outcome_sampling_mccfr_runs_on_chance_nodes(case):
    """A CFR-family solver (outcome-sampling MCCFR) walks the chance nodes by their
    probabilities and keys its tables by information-state strings."""
    name, options = CASES[case]
    game = load(name, 2, {"max_rounds": 1} if name == "shogun" else options)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(2):
        solver.iteration()
    state = game.new_initial_state()
    while state.is_chance_node():
        play(state, random.Random(0), 1)
    policy = solver.average_policy().action_probabilities(state)
    assert set(policy) == set(state.legal_actions())
    assert sum(policy.values()) == pytest.approx(1.0)


def test_rl_openspiel_ismcts_refuses_carcassonne_as_perfect_information():
    """Carcassonne with explicit chance hides nothing (the tiles left are public), so it is
    declared PERFECT_INFORMATION and OpenSpiel's ISMCTS, which asserts imperfect information,
    does not take it: MCTS with chance nodes is the search for it."""
    game = load("carcassonne")
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1), 2.0, max_simulations=4)
    state = play(game.new_initial_state(), random.Random(0), 1)
    with pytest.raises(AssertionError):
        bot.step(state)


# -- the engines' legality, through OpenSpiel ids ---------------------------------------------

def _carcassonne_test_support():
    """The shared Carcassonne legality checks and random-game configurations (tests/carcassonne)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "carcassonne"))
    import legality
    import randomgames

    return legality, randomgames


@pytest.mark.parametrize("index", [25, 49])
def test_rl_openspiel_legal_actions_are_exactly_what_apply_accepts(index):
    """At every decision of a random Carcassonne game (Abbey & Mayor, `connected` wagons; two
    barns each in game 25), OpenSpiel's legal action ids are exactly the ids of the actions the
    engine lists, `is_legal` accepts and `apply` applies, among every plausible variant (the
    learning ids, each decoded to its action, give the stable id the checks compare)."""
    legality, randomgames = _carcassonne_test_support()
    cfg = randomgames.am_config(index)
    players = max(2, cfg.players)
    game = load("carcassonne", players, cfg.options())
    state = game.new_initial_state()
    rng = random.Random(cfg.seed)
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            play(state, rng, 1)
            continue
        ids = set(state.legal_actions())
        legal = game._shared.space.legal(state.bw_state.inner)
        stable = {state.bw_state.game.action_id(legal.action(i)) for i in ids}
        inner = state.bw_state.inner.clone()
        if not state.bw_state.game.engine == "native":  # a native clone stops at its draws
            inner.attach_chance(SampledOutcomes(random.Random(steps)))  # draws while it checks
        legality.check_legality_agrees(inner, rng, masks=[("openspiel", stable)],
                                       is_legal_share=0.1)
        state.apply_action(rng.choice(sorted(ids)))
        steps += 1
    assert steps > 50
