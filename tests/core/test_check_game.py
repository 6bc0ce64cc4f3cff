"""`boardwright.testing.check_game`: every built-in game and every example passes it, and it
catches a game that breaks what front ends, bots and adapters rely on, naming the check and
the seed and moves that show it."""

from __future__ import annotations

import copy
import importlib.util
import itertools
import random
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest
from example_games import registered_example

import boardwright as bw
from boardwright.testing import CHECKS, GameCheckError, check_game


@pytest.fixture
def liars_dice() -> Iterator[ModuleType]:
    """The Liar's Dice example registered for the test only."""
    with registered_example("liars_dice", "LiarsDiceGame") as module:
        yield module


# the adapters' checks need their libraries (the `rl` extra)
MISSING = {check for check, module in (("openspiel", "pyspiel"), ("pettingzoo", "pettingzoo"))
           if importlib.util.find_spec(module) is None}

CASES = [
    pytest.param("carcassonne", 2, {}, None, id="carcassonne"),
    pytest.param("carcassonne", 2, {}, "python", id="carcassonne-python-engine"),
    pytest.param("carcassonne", 3, {"expansions": ["abbey_mayor"]}, None,
                 id="carcassonne-abbey-mayor"),
    pytest.param("queens", 2, {}, None, id="queens"),
    pytest.param("queens", 3, {}, None, id="queens-3"),
    pytest.param("shogun", 2, {"max_rounds": 3}, None, id="shogun"),
    pytest.param("goofspiel", 3, {"cards": 5}, None, id="goofspiel"),
    pytest.param("goofspiel", 2, {}, None, id="goofspiel-13"),
]


@pytest.mark.parametrize("name, players, options, engine", CASES)
def test_every_built_in_game_and_example_passes(name: str, players: int, options: dict,
                                                engine: str | None) -> None:
    game = bw.load(name, players, options, engine=engine)
    report = check_game(game, games=2)
    assert report.games == 2 and report.decisions > 0
    expected = set(CHECKS) - ({"chance"} if name == "goofspiel" else set()) - MISSING
    assert set(report.ran) == expected, report.skipped
    if name == "goofspiel":  # its chance is dealt at new_game: no explicit-chance mode
        assert "no explicit-chance mode" in report.skipped["chance"]


def test_the_liars_dice_example_passes_with_explicit_chance(liars_dice: ModuleType) -> None:
    report = check_game("liars_dice", players=3, games=2)
    assert set(report.ran) == set(CHECKS) - MISSING and report.chance_events > 0


# -- what the harness catches ------------------------------------------------------------------

def goofspiel_class() -> type:
    return type(bw.load("goofspiel", 2))


def broken(overrides: dict[str, Any]) -> bw.Game:
    """A Goofspiel whose state class has `overrides` (a deliberately wrong game)."""
    base = goofspiel_class()
    state_class = type("BrokenState", (goofspiel_state(),), overrides)

    class BrokenGame(base):  # type: ignore[misc, valid-type]
        def new_game(self, seed: int | None = None) -> Any:
            return state_class(self, seed)

    return BrokenGame(2, {"cards": 4})


def shallow_clone(self: Any) -> Any:
    return copy.copy(self)  # the hands and bids lists are shared


def leaky_view(self: Any, player: int | None) -> dict:
    view = goofspiel_state().view(self, player)
    if player is not None:
        view["bids"] = list(self.bids)  # every seat's face-down bid, for every seat
    return view


def goofspiel_state() -> type:
    return type(bw.load("goofspiel", 2).new_game(0))


MADE = itertools.count()


def unseeded_init(self: Any, game: Any, seed: int | None) -> None:
    goofspiel_state().__init__(self, game, seed)
    turn = next(MADE) % len(self.prizes) + 1  # the deck turned by how many games were made:
    self.prizes = self.prizes[turn:] + self.prizes[:turn]  # chance the seed does not fix


def overlooking_redeal(self: Any, player: int, rng: random.Random) -> None:
    rng.shuffle(self.prizes)  # the face-up prize too, which every seat sees


def endless_legal(self: Any) -> list:
    return [] if self.round == 1 else goofspiel_state().legal_actions(self)


@pytest.mark.parametrize("overrides, check, message", [
    ({"clone": shallow_clone}, "clone", "share mutable data"),
    ({"view": leaky_view}, "secrets", "view tells seat 0's secret action"),
    ({"view": leaky_view}, "determinize", "the view of seat 1 differs"),
    ({"__init__": unseeded_init}, "replay", "is not == the one played"),
    ({"redeal": overlooking_redeal}, "determinize", "differs .* in fields 'prize'"),
    ({"legal_actions": endless_legal}, "play", "not over but legal_actions\\(\\) is empty"),
], ids=["clone-shares-state", "view-leaks-secret", "view-leaks-to-determinize",
        "replay-unseeded", "determinize-changes-view", "no-legal-action"])
def test_a_broken_game_is_caught_by_the_check_it_breaks(overrides: dict, check: str,
                                                        message: str) -> None:
    game = broken(overrides)
    with pytest.raises(GameCheckError, match=message) as caught:
        check_game(game, games=3, checks=[check, "play"] if check != "play" else [check])
    error = caught.value
    assert error.check == check
    assert f"check {check!r} failed in the game of seed " in str(error)
    assert error.seed in (0, 1, 2) and isinstance(error.moves, list)
    # the moves reproduce the position: each is legal there
    state = game.new_game(error.seed)
    for data in error.moves:
        state.apply(game.action_from_json(data))


def test_broken_ids_are_caught() -> None:
    class BadIds(goofspiel_class()):  # type: ignore[misc]
        def action_id(self, action: Any) -> int:
            return action.card  # one too many: the highest card has no id

    with pytest.raises(GameCheckError, match=r"check 'ids' failed.*action_from_id\(1\) gives "
                                             r"Bid\(card=2\), not the action Bid\(card=1\)"):
        check_game(BadIds(2, {"cards": 4}), games=2, checks=["ids"])


def test_the_adapters_are_skipped_for_an_unregistered_game_and_bad_arguments_refused() -> None:
    report = check_game(broken({}), games=1, checks=["play", "openspiel", "pettingzoo"])
    assert report.ran == ["play"]
    assert "loads GoofspielGame, not the BrokenGame under test" in report.skipped["openspiel"]
    with pytest.raises(bw.InvalidOptionError, match="unknown checks \\['speed'\\]"):
        check_game("goofspiel", checks=["speed"])
    with pytest.raises(bw.InvalidOptionError, match="games must be a whole number >= 1"):
        check_game("goofspiel", games=0)
    with pytest.raises(bw.InvalidOptionError, match="not with a Game"):
        check_game(bw.load("goofspiel", 2), players=3)
