"""`Game.info`: what each game declares of itself agrees with what it does (the player counts it
accepts with each option set, its chance, its seats), a game that declares nothing gets a
default from its class, and reading it creates no game."""

from __future__ import annotations

from typing import Any

import pytest

import boardwright as bw
from boardwright.core.game import OPTIONAL_HOOKS, Game
from boardwright.core.info import DEFAULT_PLAYERS, GameInfo, PlayerRange, Seat

GAMES = ["carcassonne", "queens", "shogun", "goofspiel"]


@pytest.mark.parametrize("name", GAMES)
def test_each_player_range_is_exactly_what_the_game_accepts(name: str) -> None:
    info = bw.game_info(name)
    for players in info.players:
        for count in players.counts:
            assert bw.load(name, count, dict(players.options)).num_players == count
        for outside in (players.low - 1, players.high + 1):
            with pytest.raises(bw.InvalidOptionError):
                bw.load(name, outside, dict(players.options))


def test_carcassonne_takes_a_sixth_player_only_with_abbey_and_mayor() -> None:
    info = bw.game_info("carcassonne")
    assert [(p.low, p.high, p.options) for p in info.players] == [
        (1, 5, {}), (1, 6, {"expansions": ["abbey_mayor"]})]
    assert info.player_counts == (1, 2, 3, 4, 5, 6)
    assert (info.min_players, info.max_players) == (1, 6)


@pytest.mark.parametrize("name, title, information, chance, counts", [
    ("carcassonne", "Carcassonne", "perfect", "explicit", (1, 2, 3, 4, 5, 6)),
    ("queens", "Queens & Princes", "perfect", "deterministic", (2, 3, 4)),
    ("shogun", "Rise of the Shogun", "imperfect", "explicit", (2, 3, 4)),
    ("goofspiel", "Goofspiel", "imperfect", "seeded", (2, 3, 4)),
])
def test_the_declared_facts(name: str, title: str, information: str, chance: str,
                            counts: tuple[int, ...]) -> None:
    info = bw.game_info(name)
    assert (info.title, info.information, info.chance, info.player_counts) == (
        title, information, chance, counts)
    assert info.description  # the first line of the class's docstring


@pytest.mark.parametrize("name", GAMES)
def test_the_chance_kind_is_what_the_game_does(name: str) -> None:
    info = bw.game_info(name)
    game = bw.load(name, info.min_players if info.min_players > 1 else 2)
    if info.chance == "seeded":  # no chance nodes: the seed deals
        assert not info.offers("new_chance_game")
        with pytest.raises(bw.InvalidOptionError, match="no explicit-chance mode"):
            game.new_chance_game()
    else:  # a chance mode: with outcomes when there is chance, none when deterministic
        assert info.offers("new_chance_game")
        assert (game.chance_outcome_count > 0) == (info.chance == "explicit")


@pytest.mark.parametrize("name", GAMES)
def test_every_seat_has_its_own_name_and_colour(name: str) -> None:
    seats = bw.game_info(name).seats
    assert len(seats) >= bw.game_info(name).max_players
    assert len({s.name for s in seats}) == len({s.colour for s in seats}) == len(seats)
    assert all(s.colour.startswith("#") and len(s.colour) == 7 for s in seats)


def test_carcassonne_seats_follow_the_rules_names() -> None:
    """The rules call the first three seats Red, Blue, Yellow (CAR-BASE-SETUP-04)."""
    names = [s.name for s in bw.game_info("carcassonne").seats]
    assert names == ["Red", "Blue", "Yellow", "Green", "Black", "Pink"]


def test_shogun_seats_are_named_by_the_colours_of_the_box() -> None:
    game = bw.load("shogun", 4)
    assert [s.name.lower() for s in game.info.seats] == list(game.colours)


def test_reading_the_info_creates_no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardwright.games.carcassonne.game import CarcassonneGame

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a game was created")

    monkeypatch.setattr(CarcassonneGame, "__init__", refuse)
    assert bw.game_info("carcassonne").max_players == 6
    assert bw.load("queens", 2).info is bw.game_info("queens")  # the class's, from an instance


def test_the_hooks_are_read_from_the_class() -> None:
    assert bw.game_info("carcassonne").offers("learning_action_space")
    assert not bw.game_info("queens").offers("learning_action_space")
    assert bw.game_info("goofspiel").offers("secret_fields")
    assert not bw.game_info("goofspiel").offers("table_data")
    assert bw.game_info("carcassonne").hooks <= set(OPTIONAL_HOOKS)


class _Bare(Game):
    """A bare game: what a plug-in that declares no info gets."""

    name = "liars_dice"

    def new_game(self, seed: int | None = None) -> Any:  # the one method a game must write
        raise NotImplementedError


def test_a_game_that_declares_nothing_gets_a_default_from_its_class() -> None:
    info = _Bare.info
    assert info.title == "Liars dice"
    assert (info.min_players, info.max_players) == DEFAULT_PLAYERS
    assert (info.information, info.chance) == ("imperfect", "seeded")
    assert len(info.seats) >= info.max_players and info.hooks == frozenset()
    assert info.description == "A bare game: what a plug-in that declares no info gets."

    class Titled(_Bare):
        title = "Liar's Dice"
        perfect_information = True

        def new_chance_game(self) -> Any:
            raise NotImplementedError

    assert (Titled.info.title, Titled.info.information, Titled.info.chance) == (
        "Liar's Dice", "perfect", "explicit")
    assert Titled.info.offers("new_chance_game")


def test_a_subclass_keeps_the_declared_info_with_its_own_hooks() -> None:
    from boardwright.games.queens.game import QueensGame

    class Louder(QueensGame):
        def final_values(self, state: Any) -> list[float]:
            return [1.0] * state.game.num_players

    assert Louder.info.title == "Queens & Princes"
    assert Louder.info.players == QueensGame.info.players
    assert Louder.info.offers("final_values") and not QueensGame.info.offers("final_values")


@pytest.mark.parametrize("kwargs, message", [
    ({"title": ""}, "title must be a non-empty string"),
    ({"players": ()}, "players must be one PlayerRange or more"),
    ({"information": "partial"}, "information must be one of perfect, imperfect"),
    ({"chance": "dice"}, "chance must be one of deterministic, seeded, explicit"),
    ({"seats": (Seat("Red", "#ff0000"),)}, "a Seat for each of the 2 seats"),
])
def test_a_bad_declaration_is_named(kwargs: dict[str, Any], message: str) -> None:
    fields: dict[str, Any] = {"title": "Dice", "players": (PlayerRange(2, 2),),
                              "information": "perfect", "chance": "seeded"}
    with pytest.raises(bw.PluginError, match=message):
        GameInfo(**{**fields, **kwargs})


def test_a_bad_player_range_is_named() -> None:
    with pytest.raises(bw.PluginError, match="from a whole number >= 1"):
        PlayerRange(3, 2)
    with pytest.raises(bw.PluginError, match="must be a GameInfo"):
        type("Odd", (_Bare,), {"info": {"title": "odd"}})
