"""`Game.undoable`: whether a step may be taken back by agreement (it drew nothing at random
and revealed nothing). Checked over random games of each game against what the step did:
Queens never draws or hides; Carcassonne's only chance and secret is its draw pile; Shogun's
hidden and random parts are its hands, draw piles, treasures, missions, decks and random
source. A step called undoable must change nothing any seat cannot see, so every seat's view
of it is the same whatever the hidden order (checked by resampling that order)."""

from __future__ import annotations

import random

import pytest

import boardwright as bw
from boardwright.core.game import Game


def steps(name: str, players: int, seed: int, limit: int = 400):
    game = bw.load(name, players, {})
    state = game.new_game(seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_terminal:
            return
        action = rng.choice(state.legal_actions())
        before = state.clone()
        state.apply(action)
        yield game, before, action, state


def test_a_game_that_does_not_say_is_never_undone_by_agreement() -> None:
    assert Game.undoable.__doc__ and "False" in Game.undoable.__doc__
    game = bw.load("queens", 2, {})
    state = game.new_game(0)
    after = state.clone()
    action = after.legal_actions()[0]
    after.apply(action)
    assert Game.undoable(game, state, action, after) is False


def test_every_queens_step_is_undoable() -> None:
    seen = 0
    for game, before, action, after in steps("queens", 3, 1, 150):
        assert game.undoable(before, action, after) is True
        seen += 1
    assert seen > 50


def test_carcassonne_a_laid_tile_is_undoable_the_end_of_a_turn_is_not(carcassonne_engine) -> None:
    kinds: dict[tuple[str, bool], int] = {}
    for game, before, action, after in steps("carcassonne", 3, 2, 120):
        drew = after.view(None)["draw_pile_size"] != before.view(None)["draw_pile_size"]
        undoable = game.undoable(before, action, after)
        assert undoable is (not drew)
        kind = action.to_json()["type"]
        kinds[(kind, undoable)] = kinds.get((kind, undoable), 0) + 1
        if kind == "place":  # laying the tile: the figure is still to be decided, no draw
            assert undoable
    assert kinds.get(("place", True), 0) > 20
    assert not any(undoable for (kind, undoable) in kinds if kind in ("deploy",))


@pytest.mark.parametrize("seed", [3, 4])
def test_shogun_an_undoable_step_reveals_nothing_whatever_the_hidden_order(seed: int) -> None:
    verdicts = {True: 0, False: 0}
    for game, before, action, after in steps("shogun", 3, seed, 250):
        undoable = game.undoable(before, action, after)
        verdicts[undoable] += 1
        if not undoable:
            continue
        # every seat's view after the step is the same in a position where the hidden cards
        # lie otherwise, as that seat sees it: nothing hidden was drawn or shown
        for seat in range(game.num_players):
            other = before.determinize(seat, random.Random(seed * 7 + seat))
            other.apply(action)
            assert other.view(seat) == after.view(seat)
    assert verdicts[True] > 10 and verdicts[False] > 10


def test_shogun_a_draw_is_not_undoable() -> None:
    found = 0
    for game, before, action, after in steps("shogun", 2, 5, 300):
        hands = [len(c.hand) + len(c.draw_pile) for c in before.table.players] \
            if before.table is not None else None
        if before.table is None or after.table is None:
            continue
        drawn = any(len(b.draw_pile) != len(a.draw_pile)
                    for b, a in zip(before.table.players, after.table.players))
        if drawn:
            found += 1
            assert not game.undoable(before, action, after), hands
    assert found > 3
