"""The web reads what a game is from its `Game.info`: the catalog lists each game's title,
player counts and seats without creating a game per player count, and the pages draw seats
from there, so the browser and the terminal call each seat by the same name and colour."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import boardwright as bw
from boardwright.render import renderer_for
from boardwright.web.app import STATIC_DIR, catalog


def test_the_catalog_is_the_games_info_and_loads_no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the catalog loaded a game")

    monkeypatch.setattr(bw, "load", refuse)
    monkeypatch.setattr(bw.core, "load", refuse)
    monkeypatch.setattr(bw.core.registry, "load", refuse)
    games = {g["name"]: g for g in catalog()["games"]}
    assert set(games) == set(bw.available_games())
    for name, entry in games.items():
        info = bw.game_info(name)
        assert entry["title"] == info.title and entry["players"] == list(info.player_counts)
        assert entry["seats"] == [{"name": s.name, "colour": s.colour} for s in info.seats]
        assert (entry["information"], entry["chance"]) == (info.information, info.chance)
        assert sorted(entry["option_specs"]) == sorted(str(n) for n in info.player_counts)
    assert games["carcassonne"]["player_ranges"][1] == {
        "min": 1, "max": 6, "options": {"expansions": ["abbey_mayor"]},
        "note": "with Abbey & Mayor"}


@pytest.mark.parametrize("name", ["carcassonne", "queens", "shogun", "goofspiel"])
def test_the_terminal_names_seats_as_the_catalog_does(name: str) -> None:
    entry = next(g for g in catalog()["games"] if g["name"] == name)
    info = bw.game_info(name)
    renderer = renderer_for(bw.load(name, info.max_players, dict(info.players[-1].options)))
    for seat, shown in enumerate(entry["seats"][:info.max_players]):
        text = renderer.seat_text(seat)
        assert text.plain == shown["name"]
        assert str(text.style) == info.seats[seat].terminal_style


SEAT_WORDS = re.compile(r"""['"](Red|Blue|Yellow|Green|Black|Pink|White|Purple)['"]""",
                        re.IGNORECASE)
SEAT_COLOURS = {seat.colour.lower() for name in ("carcassonne", "queens", "shogun")
                for seat in bw.game_info(name).seats}


@pytest.mark.parametrize("page", ["games/carcassonne.js", "games/queens.js", "games/shogun.js",
                                  "games/generic.js", "table.js", "replay.js", "analysis.js",
                                  "leaderboard.js"])
def test_no_page_keeps_a_seat_table_of_its_own(page: str) -> None:
    """Seat names and colours come from the server (js/gameinfo.js): no script names a seat
    colour, nor holds the colour of any game's seat."""
    source = (Path(STATIC_DIR) / "js" / page).read_text(encoding="utf-8")
    assert SEAT_WORDS.findall(source) == []
    assert sorted(c for c in SEAT_COLOURS if c in source.lower()) == []
