"""The lobby's rows in Chromium: each says what one joins (title, seats with names, levels and
open seats, time control, rated or not, the options that matter, the host, Queens standings in
the rules' words); the filter by game, remembered by the browser; titles in "My games" and the
leaderboard links; a name longer than the limit refused with a message, not cut."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from browser_helpers import choose_name, unique

pytestmark = pytest.mark.browser


def lobby(page: Any, site: Any) -> None:
    page.goto(site.url("/"))
    page.wait_for_function("() => document.body?.dataset.ready === 'true'")


def create_as_me(page: Any, site: Any, body: dict) -> dict:
    """Create a game with this browser's cookie (its name becomes the host)."""
    response = page.request.post(site.url("/api/games"), data=body)
    assert response.status == 201, response.text()
    return response.json()


def test_a_row_says_what_you_join(site, new_page) -> None:
    host, taker = new_page(), new_page()
    host_name, taker_name = unique("Hostess"), unique("Taker")
    choose_name(host, site, host_name)
    choose_name(taker, site, taker_name)
    carcassonne = create_as_me(host, site, {
        "game": "carcassonne", "seats": ["human", "open", "open", "hard"],
        "options": {"expansions": ["abbey_mayor"]}, "clock": {"minutes": 5, "increment": 3}})
    queens = create_as_me(host, site, {"game": "queens", "seats": ["human", "easy"],
                                       "clock": {"per_move": 4}, "rated": False})
    taken = taker.request.post(site.url(f"/api/games/{carcassonne['id']}/seats/1/take"))
    assert taken.status == 200, taken.text()
    bots = site.create("queens", ["random", "random"], seed=4)
    for _ in range(600):  # under way: its standings are shown
        if site.summary(bots["id"])["step"] >= 2:
            break
        time.sleep(0.05)
    else:
        pytest.fail("the bots did not move")

    page = new_page()
    lobby(page, site)
    game_id = carcassonne["id"]
    row = page.get_by_test_id(f"game-row-{game_id}")
    row.wait_for()
    assert page.get_by_test_id(f"game-title-{game_id}").inner_text() == "Carcassonne"
    assert page.get_by_test_id(f"game-clock-{game_id}").inner_text() == "5 min + 3 s"
    assert page.get_by_test_id(f"game-rated-{game_id}").inner_text() == "rated"
    assert page.get_by_test_id(f"game-setup-{game_id}").inner_text() == "Abbey & Mayor"
    assert page.get_by_test_id(f"game-host-{game_id}").inner_text() == f"host {host_name}"
    seats = [page.get_by_test_id(f"game-seat-{game_id}-{s}").inner_text() for s in range(4)]
    assert seats[0] == "Red guest"  # the host's own seat, before the host opens the link
    assert seats[1] == f"Blue {taker_name}" and seats[3] == "Green hard bot"
    assert seats[2].startswith("Yellow open seat")
    assert page.get_by_test_id(f"take-seat-{game_id}-2").is_visible()  # the open seat's button
    assert page.get_by_test_id(f"take-seat-{game_id}-1").count() == 0
    other = queens["id"]
    assert page.get_by_test_id(f"game-title-{other}").inner_text() == "Queens & Princes"
    assert page.get_by_test_id(f"game-clock-{other}").inner_text() == "4 s per move"
    assert page.get_by_test_id(f"game-rated-{other}").inner_text() == "unrated"
    assert page.get_by_test_id(f"game-setup-{other}").inner_text() == "standard map"
    assert page.get_by_test_id(f"game-seat-{other}-1").inner_text() == "Blue easy bot"
    # a Queens game under way: each seat's standing in the rules' words, not its number
    standing = re.compile(r" · (\d+ Fields?, \d+ Cit(y|ies), \d+ Princes?|out)")
    for seat in (0, 1):
        score = page.get_by_test_id(f"game-score-{bots['id']}-{seat}").inner_text()
        assert standing.fullmatch(score), score
    assert page.get_by_test_id(f"game-clock-{bots['id']}").inner_text() == "no clock"

    # "My games" and the leaderboard links by title
    taker.goto(site.url("/"))  # the seat the taker holds
    title = taker.get_by_test_id(f"my-game-title-{game_id}")
    title.wait_for()
    assert title.inner_text().startswith("Carcassonne")
    assert taker.get_by_test_id(f"my-game-result-{game_id}").count() == 1  # kept for the result
    assert taker.get_by_test_id("leaderboard-link-queens").inner_text() == "Queens & Princes"


def test_the_filter_shows_one_game_and_is_remembered(site, page) -> None:
    queens = site.create("queens", ["human", "random"])
    carcassonne = site.create("carcassonne", ["human", "random"])
    lobby(page, site)
    page.get_by_test_id(f"game-row-{carcassonne['id']}").wait_for()
    page.get_by_test_id("games-filter").select_option("queens")
    page.wait_for_function(
        "() => ['open', 'running', 'finished'].every((s) => "
        "document.getElementById(`games-${s}`).dataset.filter === 'queens')")
    page.get_by_test_id(f"game-row-{queens['id']}").wait_for()
    assert page.get_by_test_id(f"game-row-{carcassonne['id']}").count() == 0
    listed = page.locator("[data-testid^=game-row-]").evaluate_all(
        "(rows) => rows.map((r) => r.dataset.game)")
    assert listed and set(listed) == {"queens"}
    page.reload()  # remembered by this browser
    page.wait_for_function("() => document.body?.dataset.ready === 'true'")
    assert page.get_by_test_id("games-filter").input_value() == "queens"
    page.get_by_test_id(f"game-row-{queens['id']}").wait_for()
    assert page.get_by_test_id(f"game-row-{carcassonne['id']}").count() == 0
    page.get_by_test_id("games-filter").select_option("")  # all games again
    page.get_by_test_id(f"game-row-{carcassonne['id']}").wait_for()


def test_a_name_longer_than_the_limit_is_refused_not_cut(site, page) -> None:
    page.goto(site.url("/"))
    page.wait_for_function("() => document.getElementById('me').dataset.ready === 'true'")
    field = page.get_by_test_id("name-input")
    assert field.get_attribute("maxlength") == "24"
    assert "up to 24 characters" in page.get_by_test_id("name-hint").inner_text()
    field.fill("Ann")
    field.press("End")
    page.keyboard.insert_text("x" * 200)  # a long text typed or pasted at once
    error = page.get_by_test_id("name-error")
    error.wait_for()
    assert error.inner_text() == "A name has at most 24 characters; this one has 203."
    assert field.input_value() == "Ann"  # left as it was: not cut to 24
    page.keyboard.insert_text("e Lee")  # a name within the limit: the message goes
    assert error.is_hidden() and field.input_value() == "Anne Lee"
    # a longer value set by a script is refused too, and the server says the same
    field.evaluate("(i) => { i.value = 'y'.repeat(30); }")
    page.get_by_test_id("name-save").click()
    assert page.get_by_test_id("name-error").inner_text() == \
        "A name has at most 24 characters; this one has 30."
    assert page.evaluate("() => fetch('/api/me').then((r) => r.json())")["name"] is None
    response = page.request.post(site.url("/api/me"), data={"name": "y" * 30})
    assert response.status == 400
    assert response.json()["error"] == "a name has at most 24 characters, not 30"


def test_a_game_that_ends_between_two_lists_is_shown_once_as_finished(site, page) -> None:
    """The lobby asks for its three lists at once; a game that ends between the answers is in
    the running list and the finished one. The page shows it once, where it now is. The race
    is made certain here: the running list is answered as it was while the game was played."""
    played = site.create("queens", ["random", "random"], seed=4)
    site.wait_finished(played["id"])
    finished = site.request("GET", "/api/games?status=finished")
    ended = next(row for row in finished if row["id"] == played["id"])

    def running_then(route: Any) -> None:  # the running list as it was before the end
        rows = route.fetch().json()
        route.fulfill(status=200, content_type="application/json",
                      body=json.dumps([{**ended, "status": "running"}, *rows]))

    page.route(re.compile(r".*/api/games\?status=running$"), running_then)
    lobby(page, site)
    page.get_by_test_id(f"game-row-{played['id']}").wait_for()
    assert page.get_by_test_id(f"game-row-{played['id']}").count() == 1
    running = page.get_by_test_id("games-running")
    assert running.get_by_test_id(f"game-row-{played['id']}").count() == 0
    assert page.get_by_test_id("games-finished").get_by_test_id(
        f"game-row-{played['id']}").count() == 1
