"""The game API: registry, options, actions and their ids, errors, cloning, hidden information
and determinization, agents (SHO-DUEL-26 for what is public)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from game_helpers import GREEN, KATANA, RED, act, scene

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.games.shogun.setup import SETUP_PHASES
from boardwright.games.shogun.state import ShogunState


def random_states(players: int, games: int, every: int = 7, rounds: int = 4) -> list[Any]:
    """Positions met in random games (one in `every` decisions)."""
    game = bw.load("shogun", players, {"max_rounds": rounds})
    out = []
    for seed in range(games):
        state = game.new_game(seed)
        rng = random.Random(seed)
        step = 0
        while not state.is_terminal:
            if step % every == 0:
                out.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
            step += 1
    return out


def test_registered_and_options_validated() -> None:
    assert "shogun" in bw.available_games()
    game = bw.load("shogun", 3, {"max_rounds": 5})
    assert game.options == {"max_rounds": 5} and game.num_players == 3
    for players in (1, 5):
        with pytest.raises(bw.InvalidOptionError):
            bw.load("shogun", players)
    for bad in ({"bogus": 1}, {"max_rounds": "x"}, {"own_peasant_step_cost": 2},
                {"custom_decks": "yes"}, {"heroes": ["samurai"]},
                {"heroes": ["samurai", "samurai"]}, {"heroes": ["samurai", "wizard"]},
                {"fixed_order": {"first_player": 7}}, {"fixed_order": {"nope": 1}},
                {"vp_threshold_4p": -1}):
        with pytest.raises(bw.InvalidOptionError):
            bw.load("shogun", 2, bad)


def test_new_game_is_reproducible_and_replays() -> None:
    game = bw.load("shogun", 2, {"max_rounds": 3})
    a, b = game.new_game(11), game.new_game(11)
    rng = random.Random(2)
    while not a.is_terminal:
        action = rng.choice(a.legal_actions())
        a.apply(action)
        b.apply(action.to_json())
    assert a == b
    record = json.loads(a.record.dumps())
    assert bw.replay(record) == a


def test_actions_round_trip_through_json_and_ids() -> None:
    game = bw.load("shogun", 3, {"max_rounds": 3})
    size = game.num_distinct_actions
    seen = 0
    for state in random_states(3, 6, every=1, rounds=3):
        for action in state.legal_actions():
            assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action
            action_id = game.action_id(action)
            assert 0 <= action_id < size
            assert game.action_from_id(action_id) == action
            seen += 1
    assert seen > 1000
    assert bw.load("shogun", 3, {"max_rounds": 9}).num_distinct_actions == size
    with pytest.raises(bw.MalformedActionError):
        game.action_from_id(size)


def test_take_treasure_has_the_last_id() -> None:
    """A later action type goes at the end of the id space: older ids keep their values."""
    game = bw.load("shogun", 2, {})
    take = game.action_from_json({"type": "take_treasure"})
    assert game.action_id(take) == game.num_distinct_actions - 1
    assert game.action_from_id(game.num_distinct_actions - 1) == take
    assert game.action_id(game.action_from_json({"type": "duel_recall", "card": KATANA})) \
        < game.num_distinct_actions - 1


@pytest.mark.parametrize("data", [
    "move", {"type": "warp"}, {"type": "move"}, {"type": "move", "space": 3},
    {"type": "move", "space": "lake_biwa"}, {"type": "move", "space": "atlantis"},
    {"type": "exchange", "opponent": -1, "colour": "red"}, {"type": "done", "extra": 1},
    {"type": "duel_play"},
])
def test_malformed_actions(data: Any) -> None:
    state = scene(hero_at={GREEN: "kai"})
    with pytest.raises(bw.MalformedActionError):
        state.apply(data)


def test_refused_actions_change_nothing() -> None:
    for state in random_states(2, 3, every=11):
        if state.is_terminal:
            continue
        before = state.signature()
        legal = state.legal_actions()
        game = state.game
        rng = random.Random(len(legal))
        for _ in range(25):
            action = game.action_from_id(rng.randrange(game.num_distinct_actions))
            if action in legal:
                continue
            with pytest.raises(bw.IllegalActionError):
                state.apply(action)
            assert state.signature() == before


def test_clone_is_independent() -> None:
    state = scene(castles={"satsuma": RED}, peasants={"higo": RED}, hero_at={GREEN: "hyuga"},
                  hands={GREEN: [KATANA]})
    copy = state.clone()
    act(copy, {"type": "attack", "space": "higo", "opening": KATANA})
    assert state.duel is None and state.table[GREEN].hand == [KATANA]
    assert copy.table[GREEN].hand == []


def test_returns_rank_the_winner_first() -> None:
    game = bw.load("shogun", 3, {"max_rounds": 2})
    state = game.new_game(1)
    assert state.returns() == [0.0, 0.0, 0.0]
    rng = random.Random(1)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9
    assert all(returns[w] == max(returns) for w in state.winners)


# -- hidden information ------------------------------------------------------------------------

@pytest.mark.rule("SHO-DUEL-26")
def test_views_hide_hands_decks_missions_and_treasures() -> None:
    state = scene(missions={RED: "m3"}, courts={"kaga": RED}, treasures={RED: ["t_an_heir"]},
                  hands={RED: [KATANA]}, hero_at={GREEN: "kai"})
    view = state.view(GREEN)
    red = view["seats"][RED]
    assert red["mission"] is None and red["has_mission"]
    assert red["treasures"] is None and red["treasure_count"] == 1
    assert view["cards"][RED]["hand"] is None and view["cards"][RED]["hand_size"] == 1
    assert view["cards"][GREEN]["hand"] == []
    text = json.dumps(view)
    assert "m3" not in text and "t_an_heir" not in text and KATANA not in text
    assert "draw_pile" not in text
    own = state.view(RED)
    assert own["seats"][RED]["mission"] == "m3" and own["cards"][RED]["hand"] == [KATANA]
    assert json.dumps(state.view(None)).count(KATANA) == 0


def test_determinized_copies_look_the_same_to_the_viewer() -> None:
    """Nothing hidden leaks: resampling every hidden part leaves the viewer's view unchanged,
    and the copy keeps the viewer's own cards, treasures and mission."""
    rng = random.Random(5)
    checked = 0
    for players in (2, 3, 4):
        for state in random_states(players, 6, every=5, rounds=6):
            if state.is_terminal:
                continue
            for seat in range(players):
                copy = state.determinize(seat, rng)
                assert copy.view(seat) == state.view(seat)
                if state.table is not None:
                    assert sorted(copy.table[seat].hand) == sorted(state.table[seat].hand)
                assert copy.treasures[seat] == state.treasures[seat]
                assert copy.mission[seat] == state.mission[seat]
                assert copy.peasant == state.peasant and copy.roof == state.roof
                assert copy.legal_actions() == state.legal_actions() \
                    or copy.current_player != seat
                checked += 1
    assert checked > 100


def test_determinize_really_resamples() -> None:
    state = scene(hands={RED: ["nin_vanish"] * 5}, heroes=("samurai", "ninja"),
                  treasures={RED: ["t_an_heir"]}, missions={RED: "m3"}, courts={"kaga": RED})
    hands = {tuple(sorted(state.determinize(GREEN, random.Random(k)).table[RED].hand))
             for k in range(10)}
    held = {tuple(state.determinize(GREEN, random.Random(k)).treasures[RED]) for k in range(10)}
    assert len(hands) > 1 and len(held) > 1


class PoisonedState(ShogunState):
    """A position whose hidden parts are garbage; only `determinize` gives a sound copy."""

    __slots__ = ("truth", "determinized")

    def determinize(self, player: int, rng: random.Random) -> ShogunState:
        self.determinized += 1
        return self.truth.determinize(player, rng)


def poisoned_copy(state: ShogunState) -> PoisonedState:
    poisoned = PoisonedState.__new__(PoisonedState)
    source = state.clone()
    for slot in ShogunState.__slots__:
        setattr(poisoned, slot, getattr(source, slot))
    me = state.current_player
    for seat in range(state.game.num_players):
        if seat != me:
            poisoned.treasures[seat] = ["POISON"] * max(1, len(state.treasures[seat]))
            cards = poisoned.table[seat]
            cards.hand = ["POISON"] * len(cards.hand)
            cards.draw_pile = ["POISON"] * len(cards.draw_pile)
    poisoned.treasure_deck = ["POISON"] * len(state.treasure_deck)
    poisoned.legal_cache = None
    poisoned.truth = state
    poisoned.determinized = 0
    return poisoned


@pytest.mark.parametrize("spec", ["greedy:depth=1", "greedy", "mcts:iters=20"])
def test_agents_search_determinized_copies(spec: str) -> None:
    state = scene(castles={"satsuma": RED, "mutsu": GREEN}, peasants={"higo": RED},
                  hero_at={GREEN: "hyuga", RED: "kai"}, hands={GREEN: [KATANA, "sam_swift_draw"],
                                                              RED: ["sam_sword_parry"]},
                  treasures={RED: ["t_great_armor"]})
    poisoned = poisoned_copy(state)
    with pytest.raises(KeyError):  # the poison is real: counting the points crashes
        poisoned.scores
    action = make_agent(spec, seed=1).act(poisoned)
    assert action in state.legal_actions()
    assert poisoned.determinized >= 1


@pytest.mark.parametrize("players", [2, 3])
def test_greedy_and_random_finish_games(players: int) -> None:
    game = bw.load("shogun", players, {"max_rounds": 3})
    state = game.new_game(7)
    agents = [make_agent("greedy:depth=1" if s == 0 else "random", seed=s) for s in range(players)]
    while not state.is_terminal:
        action = agents[state.current_player].act(state)
        assert action in state.legal_actions()
        state.apply(action)
    assert state.end_reason in ("max_rounds", "threshold")


def test_heuristic_values_each_seat() -> None:
    state = scene(castles={"satsuma": GREEN, "chikuzen": GREEN},
                  peasants={"higo": GREEN, "chikugo": GREEN}, hero_at={GREEN: "kai"})
    values = state.game.heuristic(state)
    assert len(values) == 2 and values[GREEN] > values[RED]


@pytest.mark.rule("SHO-COMP-08")
def test_a_custom_deck_plays_a_whole_game() -> None:
    import copy

    from boardwright.games.shogun.datafile import read_data
    text = json.dumps(copy.deepcopy(read_data("samurai.toml")))
    raw = json.loads(text.replace('"sam_', '"ron_').replace('"samurai"', '"ronin"'))
    raw["prefix"] = "ron"
    with pytest.raises(bw.InvalidOptionError):
        bw.load("shogun", 2, {"heroes": [raw, "ninja"]})
    game = bw.load("shogun", 2, {"custom_decks": True, "heroes": [raw, "ninja"],
                                 "max_rounds": 4})
    state = game.new_game(1)
    rng = random.Random(1)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    assert state.heroes == ["ronin", "ninja"] and bw.replay(state.record) == state


def test_greedy_beats_random() -> None:
    """Not a strength benchmark: a sanity check over 2 short games, one per seat."""
    game = bw.load("shogun", 2, {"max_rounds": 12})
    for seed in range(2):
        specs = ["greedy", "random"] if seed == 0 else ["random", "greedy"]
        agents = [make_agent(spec, seed=seed) for spec in specs]
        state = game.new_game(seed)
        while not state.is_terminal:
            state.apply(agents[state.current_player].act(state))
        greedy = specs.index("greedy")
        assert state.scores[greedy] > state.scores[1 - greedy]


def test_a_turn_starts_once_before_its_first_decision() -> None:
    """`at_turn_start` holds at most once per turn, at its first decision, for the active player
    outside duels; a set-up placement is a turn of its own; and clones keep it."""
    game = bw.load("shogun", 3, {"max_rounds": 4})
    for seed in range(3):
        state = game.new_game(seed)
        rng = random.Random(seed)
        starts_per_turn: dict[int, list[int]] = {}
        decisions_per_turn: dict[int, int] = {}
        setup_starts = 0
        while not state.is_terminal:
            start = state.at_turn_start
            assert state.clone().at_turn_start == start
            if start:
                assert state.current_player == state.active and state.duel is None
            if state.phase in SETUP_PHASES:
                setup_starts += start
            else:
                index = decisions_per_turn.get(state.turn, 0)
                if start:
                    starts_per_turn.setdefault(state.turn, []).append(index)
                decisions_per_turn[state.turn] = index + 1
            state.apply(rng.choice(state.legal_actions()))
        assert setup_starts > 0
        assert all(starts == [0] for starts in starts_per_turn.values())
        assert len(starts_per_turn) >= len(decisions_per_turn) - 1 > 5
