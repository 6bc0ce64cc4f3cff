"""Hints: the bot's best moves with their expected margins, for every game."""

from __future__ import annotations

import random

import pytest

import boardwright as bw
from boardwright.agents.advice import suggest
from boardwright.agents.search_returns import lead

GAMES = [("carcassonne", {"expansions": ["abbey_mayor"]}), ("queens", {}), ("shogun", {})]


def position(name: str, options: dict, plies: int = 30) -> bw.State:
    state = bw.load(name, 2, options).new_game(3)
    rng = random.Random(1)
    for _ in range(plies):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.usefixtures("carcassonne_engine")
@pytest.mark.parametrize("name, options", GAMES, ids=[g for g, _ in GAMES])
def test_suggestions_are_legal_best_first_and_compared_on_the_same_samples(
        name: str, options: dict) -> None:
    state = position(name, options)
    before = state.signature()
    hints = suggest(state, count=3, iterations=96, seed=7)
    legal = state.legal_actions()
    assert 1 <= len(hints) <= 3 and len({h.action for h in hints}) == len(hints)
    assert all(h.action in legal for h in hints)
    margins = [h.margin for h in hints]
    assert margins == sorted(margins, reverse=True)
    assert len({h.samples for h in hints}) == 1 and hints[0].samples > 0  # paired rounds
    assert suggest(state, count=3, iterations=96, seed=7) == hints  # reproducible
    assert state.signature() == before  # the position is not touched


def test_a_forced_move_is_the_only_suggestion() -> None:
    state = bw.load("shogun", 2, {}).new_game(1)
    rng = random.Random(4)
    while len(state.legal_actions()) != 1:  # (Shogun often leaves one thing to do)
        assert not state.is_terminal
        state.apply(rng.choice(state.legal_actions()))
    hints = suggest(state, iterations=8, seed=1)
    assert [h.action for h in hints] == state.legal_actions()


def test_the_margin_is_the_movers_lead_over_the_best_other_seat() -> None:
    assert lead([30.0, 41.0, 12.0], 1) == 11.0
    assert lead([30.0, 41.0, 12.0], 0) == -11.0
    assert lead([25.0], 0) == 25.0


def test_bad_requests_are_refused() -> None:
    state = position("queens", {})
    with pytest.raises(bw.InvalidOptionError):
        suggest(state, count=0)
    over = bw.load("carcassonne", 2, {}).new_game(2)
    rng = random.Random(2)
    while not over.is_terminal:
        over.apply(rng.choice(over.legal_actions()))
    with pytest.raises(bw.InvalidOptionError, match="game is over"):
        suggest(over)


def test_hints_with_four_players_compare_every_move_on_all_samples() -> None:
    """Carcassonne races its candidates with more than 2 players; a hint does not, so the
    margins it shows are each measured on the same rounds."""
    state = bw.load("carcassonne", 4, {"expansions": ["abbey_mayor"]}).new_game(3)
    rng = random.Random(2)
    while len(state.legal_actions()) < 8:
        state.apply(rng.choice(state.legal_actions()))
    hints = suggest(state, count=3, iterations=320, seed=7)
    assert len(hints) == 3 and len({h.samples for h in hints}) == 1
