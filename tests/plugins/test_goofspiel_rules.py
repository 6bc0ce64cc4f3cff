"""The example game of examples/goofspiel: its rules, its hidden bids and its determinization
(what the walkthrough in docs/adding-a-game.md builds)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardwright as bw


def bid(card: int) -> dict:
    return {"type": "bid", "card": card}


def test_the_highest_bid_wins_the_prize_and_a_tie_loses_it() -> None:
    state = bw.load("goofspiel", 3, {"cards": 5}).new_game(7)
    first, second = state.prizes[0], state.prizes[1]
    for card in (2, 5, 3):
        state.apply(bid(card))
    assert state.scores == [0, first, 0]
    for card in (4, 4, 1):  # seats 0 and 1 tie on top: nobody scores
        state.apply(bid(card))
    assert state.scores == [0, first, 0]
    assert state.view(None)["rounds"] == [
        {"prize": first, "bids": [2, 5, 3], "winner": 1},
        {"prize": second, "bids": [4, 4, 1], "winner": None}]


def test_the_game_ends_after_one_round_per_card() -> None:
    state = bw.load("goofspiel", 2, {"cards": 3}).new_game(1)
    for card in (1, 1, 2, 3, 3, 2):
        state.apply(bid(card))
    assert state.is_terminal and state.current_player == -1 and state.legal_actions() == []
    assert sum(state.scores) <= 6 and state.view(0)["winners"]
    with pytest.raises(bw.GameOverError):
        state.apply(bid(1))


@pytest.mark.parametrize("action, error", [
    (bid(9), bw.MalformedActionError), ({"type": "bid"}, bw.MalformedActionError),
    ({"type": "bid", "card": True}, bw.MalformedActionError),
    ({"type": "pass"}, bw.MalformedActionError), ("bid 2", bw.MalformedActionError),
    (bid(2), bw.IllegalActionError),  # spent in the first round
])
def test_bad_bids_are_refused_and_change_nothing(action, error) -> None:
    state = bw.load("goofspiel", 2, {"cards": 5}).new_game(3)
    state.apply(bid(2))
    state.apply(bid(1))
    before = state.view(0)
    with pytest.raises(error):
        state.apply(action)
    assert state.view(0) == before


@pytest.mark.parametrize("players, options, message", [
    (1, {}, "2 to 4 players"), (5, {}, "2 to 4 players"), (2, {"cards": 2}, "from 3 to 20"),
    (2, {"cards": "5"}, "from 3 to 20"), (2, {"deck": 5}, "unknown Goofspiel option"),
])
def test_bad_set_ups_are_refused(players, options, message) -> None:
    with pytest.raises(bw.InvalidOptionError, match=message):
        bw.load("goofspiel", players, options)


def test_a_bid_is_secret_until_the_round_is_over() -> None:
    game = bw.load("goofspiel", 2, {"cards": 5})
    state = game.new_game(2)
    state.apply(bid(4))
    theirs = state.view(1)
    assert theirs["has_bid"] == [True, False] and theirs["my_bid"] is None
    assert theirs["unplayed"][0] == [1, 2, 3, 4, 5]  # the bid is still among seat 0's cards
    assert 4 not in state.view(0)["hand"] and state.view(0)["my_bid"] == 4
    action = game.action_from_json(bid(4))
    assert game.public_action(action, 0, 1) == {"type": "bid"}
    assert game.describe_action(action, 1, 0) == "bid a card (face down)"
    assert game.describe_action(action, 0, 0) == "bid 4"


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 20), players=st.integers(2, 4))
def test_a_determinization_looks_the_same_to_its_player(seed: int, plies: int,
                                                        players: int) -> None:
    """Whatever the position, a determinized copy shows the same view to the seat it was made
    for, keeps every seat's unplayed cards, and plays on to a legal end."""
    rng = random.Random(seed)
    state = bw.load("goofspiel", players, {"cards": 6}).new_game(seed)
    for _ in range(plies):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    seat = max(state.current_player, 0)
    copy = state.determinize(seat, rng)
    assert copy.view(seat) == state.view(seat)
    assert copy.view(None)["unplayed"] == state.view(None)["unplayed"]
    while not copy.is_terminal:
        copy.apply(rng.choice(copy.legal_actions()))
    assert state.view(seat) == state.view(seat)  # the original is untouched


def test_action_ids_round_trip() -> None:
    game = bw.load("goofspiel", 2, {"cards": 7})
    assert game.num_distinct_actions == 7
    for action_id in range(7):
        assert game.action_id(game.action_from_id(action_id)) == action_id
    with pytest.raises(bw.MalformedActionError):
        game.action_from_id(7)
