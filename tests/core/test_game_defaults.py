"""What the base classes give a game of one's own (core/game.py, core/action_list.py): action
conversions from `all_actions`, a checked `apply` around `play`, `clone`, `record`, equality,
`determinize` around `redeal`, and chance through `State.draw`, seeded in play and explicit in
`new_chance_game`. Goofspiel (examples/goofspiel, through its entry point) and Liar's Dice
(examples/liars_dice.py) rely on them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest
from example_games import registered_example

import boardwright as bw
from boardwright.core.action_list import ActionData, ActionList
from boardwright.core.chance import CHANCE
from boardwright.core.game import Game, State


@pytest.fixture
def liars_dice() -> Iterator[ModuleType]:
    with registered_example("liars_dice", "LiarsDiceGame") as module:
        yield module


def bid(card: int) -> dict:
    return {"type": "bid", "card": card}


def test_a_replayed_record_equals_the_state_it_came_from() -> None:
    state = bw.load("goofspiel", 3, {"cards": 4}).new_game(9)
    for card in (2, 3, 1, 4):
        state.apply(bid(card))
    state.meta["names"] = ["a", "b", "c"]  # meta travels in the record, not in equality
    again = bw.replay(state.record)
    assert again == state and again is not state
    again.apply(bid(1))
    assert again != state
    assert bw.load("goofspiel", 3, {"cards": 4}).new_game(10) != \
        bw.load("goofspiel", 3, {"cards": 4}).new_game(9)  # another prize order
    with pytest.raises(TypeError, match="unhashable"):
        hash(state)


def test_actions_convert_from_the_listed_actions_alone() -> None:
    game = bw.load("goofspiel", 2, {"cards": 5})
    assert game.num_distinct_actions == 5
    assert [game.action_id(game.action_from_id(i)) for i in range(5)] == list(range(5))
    bid3 = game.action_from_json(bid(3))
    assert bid3.to_json() == bid(3) and game.action_id(bid3) == 2
    assert game.action_from_json(bid(3)) is game.action_from_id(2)  # the listed object
    for data, message in ((bid(6), "is no goofspiel action \\(kinds: bid\\)"),
                          ({"type": "bid", "card": True}, "is no goofspiel action"),
                          ({"type": "bid", "card": 3.0}, "is no goofspiel action"),
                          ("bid 3", "must be a JSON object")):
        with pytest.raises(bw.MalformedActionError, match=message):
            game.action_from_json(data)
    with pytest.raises(bw.MalformedActionError, match="not a goofspiel action"):
        game.action_id(("bid", 3))
    with pytest.raises(bw.MalformedActionError, match="is no goofspiel action of this"):
        game.action_id(type(bid3)(True))  # equal to Bid(1) in Python, not in JSON
    with pytest.raises(bw.MalformedActionError, match="outside 0..4"):
        game.action_from_id(5)


@dataclass(frozen=True)
class RaiseBid(ActionData):
    quantity: int
    faces: tuple[int, ...] = ()


@dataclass(frozen=True)
class Named(ActionData):
    kind = "pass"


def test_a_dataclass_action_has_its_json_form_and_a_list_refuses_duplicates() -> None:
    assert RaiseBid(2, (1, 5)).to_json() == {"type": "raise_bid", "quantity": 2, "faces": [1, 5]}
    assert Named().to_json() == {"type": "pass"}
    with pytest.raises(ValueError, match="lists .* twice"):
        ActionList("mine", [Named(), Named()])


class Bare(Game):
    name = "bare"

    def new_game(self, seed: int | None = None) -> Any:
        return BareState(self, seed)


class BareState(State):
    current_player = 0
    is_terminal = False
    scores = [0]

    def legal_actions(self) -> list:
        return []

    def view(self, player: int | None) -> dict:
        return {}


def test_a_game_that_declares_nothing_is_told_what_to_write() -> None:
    game = Bare(1, {})
    with pytest.raises(NotImplementedError, match="Bare must implement action_id or list"):
        game.action_id(Named())
    state = game.new_game(3)
    assert state.seed == 3 and state.history == [] and state.record.seed == 3
    with pytest.raises(NotImplementedError, match="hides information: implement redeal"):
        state.determinize(0, random.Random(1))
    game.perfect_information = True  # nothing hidden: a determinization is a copy
    copy = state.determinize(0, random.Random(1))
    assert copy is not state and copy.view(0) == state.view(0)


def test_the_checked_apply_refuses_and_changes_nothing() -> None:
    state = bw.load("goofspiel", 2, {"cards": 3}).new_game(1)
    state.apply(bid(2))
    before = state.clone()
    with pytest.raises(bw.MalformedActionError):
        state.apply(bid(4))
    state.apply(bid(2))
    with pytest.raises(bw.IllegalActionError, match="bid 2 is not legal now \\(seat 0\\)"):
        state.apply(bid(2))
    for card in (1, 1, 3, 3):
        state.apply(bid(card))
    with pytest.raises(bw.GameOverError):
        state.apply(bid(1))
    assert [a.to_json() for a in state.history] == [bid(c) for c in (2, 2, 1, 1, 3, 3)]
    assert before.history == state.history[:1]  # the clone kept its own history


def test_chance_is_drawn_from_the_seed_in_play(liars_dice: ModuleType) -> None:
    game = bw.load("liars_dice", 3, {"dice": 3})
    cups = [game.new_game(seed).cups for seed in (4, 4, 5)]
    assert cups[0] == cups[1] != cups[2]
    state = game.new_game(4)
    state.apply({"type": "bid", "quantity": 9, "face": 6})
    state.apply({"type": "call"})  # a new roll, in the middle of an action
    again = bw.replay(state.record)
    assert again == state and again.cups == state.cups and sum(state.left) == 8


def test_a_determinization_rolls_the_unseen_dice_and_the_future_anew(
        liars_dice: ModuleType) -> None:
    state = bw.load("liars_dice", 2, {"dice": 5}).new_game(2)
    copies = [state.determinize(0, random.Random(seed)) for seed in range(4)]
    assert all(c.view(0) == state.view(0) and c.cups[0] == state.cups[0] for c in copies)
    assert any(c.cups[1] != state.cups[1] for c in copies)
    # the rolls after a call differ too: the copies' draws are not the real ones
    for c in [state, *copies]:
        c.apply({"type": "bid", "quantity": 10, "face": 6})
        c.apply({"type": "call"})
    assert any(c.cups[0] != state.cups[0] for c in copies)


def test_explicit_chance_for_a_game_that_draws(liars_dice: ModuleType) -> None:
    game = bw.load("liars_dice", 2, {"dice": 1, "faces": 3})
    assert game.draws_chance and not bw.load("goofspiel", 2).draws_chance
    state = game.new_chance_game()
    assert state.current_player == CHANCE
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_chance(2)
    state.apply_chance(0)
    assert not state.is_chance_node and state.inner.cups == [[3], [1]]
    state.apply({"type": "bid", "quantity": 1, "face": 3})
    state.apply({"type": "call"})  # the bid holds: seat 1 loses its die, and the game ends
    assert state.is_terminal and state.inner.scores == [1, 0]
    with pytest.raises(bw.InvalidOptionError, match="goofspiel has no explicit-chance mode"):
        bw.load("goofspiel", 2).new_chance_game()
