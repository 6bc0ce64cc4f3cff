"""Shogun with explicit chance (`ShogunGame.new_chance_game`): what is a chance event and what
is not."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import boardwright as bw
from boardwright.core.chance import CHANCE, ChanceNeeded, ChanceScript, SampledOutcomes
from boardwright.core.errors import InvalidOptionError
from boardwright.games.shogun.chance import ShogunChance


def test_treasures_put_under_the_deck_come_out_in_order_after_the_unseen_ones() -> None:
    game = bw.load("shogun", 2, {})
    rng = ShogunChance(game)
    deck = list(game.treasure_order)
    rng.treasure_unseen = 2  # two set-up cards left unseen; the rest went under in order
    with pytest.raises(ChanceNeeded) as need:
        rng.take_treasure(deck)
    ids = rng.treasure_ids
    assert dict(need.value.outcomes) == {ids[deck[0]]: 0.5, ids[deck[1]]: 0.5}
    rng.script = ChanceScript((ids[deck[1]],))
    second = deck[1]
    assert rng.take_treasure(deck) == second and rng.treasure_unseen == 1
    assert rng.take_treasure(deck) == game.treasure_order[0]  # one unseen left: no chance
    rng.script = ChanceScript()
    assert rng.take_treasure(deck) == game.treasure_order[2]  # the known order now


def test_a_chance_game_deals_each_card_by_its_copies_left_and_keeps_every_card() -> None:
    game = bw.load("shogun", 2, {"max_rounds": 2, "heroes": ["ninja", "prince"]})
    state = game.new_chance_game()
    first_deal = dict(state.chance_outcomes())
    seats = game.chance_outcome_count - 2
    assert set(first_deal) == {seats, seats + 1}  # the first player is the first event
    state.apply_chance(seats)
    outcomes = dict(state.chance_outcomes())  # seat 0's first card: its whole deck
    deck = Counter(game.card_rank[c] for c in game.decks_for([None])[0].action_cards())
    assert outcomes == pytest.approx({i: n / 30 for i, n in deck.items()})
    rng = random.Random(3)
    while not state.is_terminal:
        if state.current_player == CHANCE:
            out, weights = zip(*state.chance_outcomes())
            state.apply_chance(rng.choices(out, weights)[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
        if state.has_position:
            for seat in range(2):
                assert sum(state.inner.table[seat].card_counts().values()) == 30


def test_fixed_deck_orders_are_refused_in_the_chance_game() -> None:
    order = bw.load("shogun", 2, {}).decks_for(["ninja"])[0].action_cards()
    game = bw.load("shogun", 2, {"heroes": ["ninja", "prince"],
                                 "fixed_order": {"decks": {"0": order}}})
    with pytest.raises(InvalidOptionError, match="fixed_order.decks"):
        game.new_chance_game()


def test_a_chance_state_played_on_directly_with_sampled_outcomes() -> None:
    game = bw.load("shogun", 2, {"max_rounds": 1})
    state = game.new_chance_game()
    while state.current_player == CHANCE:
        state.apply_chance(state.chance_outcomes()[0][0])
    inner = state.inner.clone()
    inner.attach_chance(SampledOutcomes(random.Random(0)))
    while not inner.is_terminal:
        inner.apply(inner.legal_actions()[0])
    assert inner.end_reason == "max_rounds"
