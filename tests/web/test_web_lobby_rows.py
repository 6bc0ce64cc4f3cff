"""What a lobby row says, as the server sends it: the game's title, who sits where (names,
levels, open seats), the time control, rated or not, the options that matter in the game's
words, the host, and Queens standings in the rules' words; the filter by game; the words of a
finished game read back from the database; the name limit of the names API."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from players_helpers import as_player, new_player
from web_helpers import client, create, sqlite_url

import boardwright as bw
from boardwright.core.registry import score_words, setup_words
from boardwright.web.listing import control_words, seat_words


@pytest.mark.parametrize("control, words", [
    (None, "no clock"), ({"per_move": 4.0, "on_timeout": "bot"}, "4 s per move"),
    ({"minutes": 5.0, "increment": 3.0, "on_timeout": "lose"}, "5 min + 3 s"),
    ({"minutes": 0.5, "increment": 0.0, "on_timeout": "bot"}, "0.5 min")])
def test_time_controls_in_words(control, words) -> None:
    assert control_words(control) == words


def test_seats_in_words() -> None:
    assert seat_words({"kind": "human", "name": "Ann Lee"}) == "Ann Lee"
    assert seat_words({"kind": "human", "open": True}) == "open seat"
    assert seat_words({"kind": "mcts:seconds=1", "level": "hard"}) == "hard bot"
    assert seat_words({"kind": "random"}) == "bot random"
    assert seat_words({"kind": "human"}) == "guest"


def test_each_game_words_the_options_that_matter() -> None:
    assert setup_words("carcassonne", {"expansions": [], "farmers": True}, 2) == ["base game"]
    assert setup_words("carcassonne", {"expansions": ["abbey_mayor"], "farmers": False,
                                       "barns": 0, "abbeys": 2}, 3) == \
        ["Abbey & Mayor", "no farmers", "2 abbeys each", "no barns"]
    assert setup_words("queens", {"map": "default"}, 2) == ["standard map"]
    assert setup_words("queens", {"map": {"name": "tiny", "radius": 2}}, 2) == ["custom map tiny"]
    assert setup_words("shogun", {"heroes": ["ninja", "miko"], "max_rounds": 6}, 2) == \
        ["heroes Ninja, Miko", "ends after round 6"]
    assert setup_words("shogun", {"vp_threshold": 10}, 3) == \
        ["heroes chosen at the table", "10 VP to win"]
    # a game that says nothing (the plug-in Goofspiel): the options set away from the defaults
    assert setup_words("goofspiel", {"cards": 5}, 2) == ["cards: 5"]
    assert setup_words("goofspiel", {"cards": 13}, 2) == []


def test_queens_standings_in_the_rules_words() -> None:
    assert score_words("queens", [1034, 114, -1]) == \
        ["10 Fields, 3 Cities, 4 Princes", "1 Field, 1 City, 4 Princes", "out"]
    assert score_words("carcassonne", [12, 0]) == ["12", "0"]


def test_a_row_says_what_you_join(tmp_path: Path) -> None:
    with client(sqlite_url(tmp_path)) as api:
        host = new_player(api, "Hostess")
        response = api.post("/api/games", headers=as_player(host), json={
            "game": "carcassonne", "seats": ["human", "open", "hard", "random"],
            "options": {"expansions": ["abbey_mayor"]},
            "clock": {"minutes": 5, "increment": 3}, "rated": True})
        assert response.status_code == 201, response.text
        game_id = response.json()["id"]
        row = next(g for g in api.get("/api/games?status=open").json() if g["id"] == game_id)
        assert row["title"] == "Carcassonne" and row["host"] == "Hostess"
        assert row["time_control"] == "5 min + 3 s" and row["rated"] is True
        assert row["setup"] == ["Abbey & Mayor"]
        assert [s["label"] for s in row["seats"]] == ["guest", "open seat", "hard bot",
                                                      "bot random"]
        seats = bw.game_info("carcassonne").seats_for(4)
        assert [(s["seat_name"], s["colour"]) for s in row["seats"]] == \
            [(seat.name, seat.colour) for seat in seats]
        assert row["score_words"] == ["0", "0", "0", "0"]
        # a visitor without a name hosts nobody; an unrated game with a clock per move
        other = create(api, "queens", ["human", "easy"], clock={"per_move": 4}, rated=False)
        summary = api.get(f"/api/games/{other['id']}").json()
        assert summary["host"] is None and summary["title"] == "Queens & Princes"
        assert summary["time_control"] == "4 s per move" and summary["rated"] is False
        assert summary["setup"] == ["standard map"]
        assert summary["score_words"] == ["0 Fields, 1 City, 4 Princes"] * 2
        assert [s["label"] for s in summary["seats"]] == ["guest", "easy bot"]
        assert summary["seats"][0]["seat_name"] == "Red"


def test_the_filter_by_game_and_a_finished_games_words_from_the_database(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path)
    with client(url) as api:
        queens = create(api, "queens", ["random", "random"], seed=4)
        create(api, "carcassonne", ["human", "random"])
        for _ in range(1200):
            if api.get(f"/api/games/{queens['id']}").json()["status"] == "finished":
                break
            time.sleep(0.05)
        else:
            pytest.fail("the bots' game did not finish")
        only = api.get("/api/games?game=queens").json()
        assert {g["game"] for g in only} == {"queens"} and queens["id"] in {g["id"] for g in only}
        assert {g["game"] for g in api.get("/api/games?game=carcassonne").json()} == \
            {"carcassonne"}
        bad = api.get("/api/games?game=chess")
        assert bad.status_code == 400 and "chess" in bad.json()["error"]
    with client(url) as api:  # a new server: the finished game comes from its row
        row = next(g for g in api.get("/api/games?status=finished&game=queens").json()
                   if g["id"] == queens["id"])
        assert row["title"] == "Queens & Princes" and row["time_control"] == "no clock"
        assert all("Field" in w or w == "out" for w in row["score_words"])
        assert row["score_words"] == score_words("queens", row["scores"])
        assert [s["label"] for s in row["seats"]] == ["bot random", "bot random"]


def test_a_long_name_is_refused_naming_the_limit(tmp_path: Path) -> None:
    with client(sqlite_url(tmp_path)) as api:
        for name in ("x" * 25, "x" * 200):
            response = api.post("/api/me", json={"name": name})
            assert response.status_code == 400
            assert response.json()["error"] == \
                f"a name has at most 24 characters, not {len(name)}"
        huge = api.post("/api/me", json={"name": "é" * 600})
        assert huge.status_code == 413 and "at most 24 characters" in huge.json()["error"]
        assert api.get("/api/me").json() == {"id": None, "name": None}  # nothing was made
        assert api.get("/api/catalog").json()["names"] == {"min_length": 2, "max_length": 24}
