"""Named players in Chromium: choosing and changing a name in the lobby, the HTTP-only cookie,
"my games", rejoining a seat from a new tab with the cookie alone (and not from another
browser), the rating change at the end of a rated game, and the leaderboard page."""

from __future__ import annotations

import random

import pytest

from browser_helpers import (
    SHORT_PILE, body_data, carcassonne_turn, choose_name, join_url, screenshot, unique,
    wait_rendered, wait_turn_or_end,
)

pytestmark = pytest.mark.browser


def test_choose_and_change_a_name_kept_in_an_http_only_cookie(site, page) -> None:
    page.goto(site.url("/"))
    page.wait_for_function("() => document.getElementById('me').dataset.ready === 'true'")
    # a name that is not allowed is refused with the server's reason, shown as text
    page.get_by_test_id("name-input").fill("<b>x</b>")
    page.get_by_test_id("name-save").click()
    error = page.get_by_test_id("name-error")
    error.wait_for()
    assert "not '<'" in error.inner_text()
    assert page.locator("#me b").count() == 0  # nothing of the input became markup
    name = unique("Ann")
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("name-save").click()
    page.get_by_test_id("my-name").wait_for()
    assert page.get_by_test_id("my-name").inner_text() == name
    # the key is a cookie the page's scripts cannot read
    cookies = {c["name"]: c for c in page.context.cookies()}
    cookie = cookies["boardwright_identity"]
    assert cookie["httpOnly"] is True and cookie["sameSite"] == "Lax"
    assert "boardwright_identity" not in page.evaluate("() => document.cookie")
    # the name comes back after a reload, and can be changed
    page.reload()
    page.get_by_test_id("my-name").wait_for()
    assert page.get_by_test_id("my-name").inner_text() == name
    page.get_by_test_id("name-change").click()
    renamed = unique("Ann Lee")
    page.get_by_test_id("name-input").fill(renamed)
    page.get_by_test_id("name-save").click()
    page.wait_for_function("(n) => document.getElementById('me').dataset.name === n", arg=renamed)
    assert page.get_by_test_id("my-name").inner_text() == renamed


def test_my_games_and_rejoining_a_seat_from_a_new_tab_with_the_cookie(site, new_page) -> None:
    page = new_page()
    name = unique("Bea")
    choose_name(page, site, name)
    created = site.create("carcassonne", ["human", "random"], {"draw_order": SHORT_PILE}, seed=21)
    game_id = created["id"]
    # the invitation link, opened by a named player, makes the seat hers
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    assert name in page.get_by_test_id("seat-label").inner_text()
    assert name in page.get_by_test_id("player-0").inner_text()
    assert wait_turn_or_end(page) == "turn"
    carcassonne_turn(page, random.Random(3))
    step = body_data(page, "step")
    # the lobby lists it under "My games", with a link that needs no token
    page.goto(site.url("/"))
    row = page.get_by_test_id(f"my-game-{game_id}")
    row.wait_for()
    assert name in row.inner_text() and "random" in row.inner_text()
    assert page.get_by_test_id(f"game-row-{game_id}").get_by_text(name).count() == 1  # lobby list
    link = page.get_by_test_id(f"my-game-link-{game_id}")
    assert link.get_attribute("href") == f"/play/{game_id}?seat=0"
    # a new tab of the same browser: the cookie alone seats her, at the same position
    tab = page.context.new_page()
    tab.goto(site.url(link.get_attribute("href")))
    wait_rendered(tab)
    assert body_data(tab, "seat") == "0" and body_data(tab, "step") == step
    assert name in tab.get_by_test_id("seat-label").inner_text()
    assert wait_turn_or_end(tab) == "turn"
    carcassonne_turn(tab, random.Random(4))  # and she can play from it
    # another browser, at the same address, only watches
    other = new_page()
    other.goto(site.url(f"/play/{game_id}?seat=0"))
    wait_rendered(other)
    assert other.get_by_test_id("seat-label").inner_text() == "Spectator"
    assert name in other.get_by_test_id("player-0").inner_text()  # names shown to everyone
    tab.close()


def test_rating_change_at_the_end_and_the_leaderboard(site, new_page, artifacts) -> None:
    page = new_page()
    name = unique("Cy")
    choose_name(page, site, name)
    created = site.create("carcassonne", ["human", "greedy"], {"draw_order": SHORT_PILE}, seed=22)
    assert created["rated"] is True
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    rng = random.Random(8)
    while wait_turn_or_end(page) == "turn":
        carcassonne_turn(page, rng)
    final = page.get_by_test_id("final-scores")
    final.wait_for()
    mine = page.get_by_test_id("final-rating-0")
    bot = page.get_by_test_id("final-rating-1")
    summary = site.summary(created["id"])
    for seat, cell in ((0, mine), (1, bot)):
        rating = summary["seats"][seat]["rating"]
        text = cell.inner_text()
        assert f"{rating['before']['ordinal']:.1f} → {rating['after']['ordinal']:.1f}" in text
        assert f"{abs(rating['change']):.1f}" in text
    assert "Rated game" in page.get_by_test_id("rated-note").inner_text()
    screenshot(page, "players_rating_change")
    # the leaderboard: both players, the named one under her name
    page.get_by_test_id("final-leaderboard-link").click()
    page.wait_for_url("**/leaderboard/carcassonne")
    page.wait_for_function("() => document.body?.dataset.ready === 'true'")
    board = site.request("GET", "/api/leaderboard/carcassonne")["players"]
    rank = next(p["rank"] for p in board if p["name"] == name)
    assert page.get_by_test_id(f"leaderboard-name-{rank}").inner_text() == name
    assert page.get_by_test_id(f"leaderboard-games-{rank}").inner_text() == "1"
    expected = next(p["rating"] for p in board if p["name"] == name)
    assert page.get_by_test_id(f"leaderboard-rating-{rank}").inner_text() == f"{expected:.1f}"
    assert page.locator("tr[data-player='bot:greedy']").count() == 1
    screenshot(page, "players_leaderboard")
    # the replay names her too
    page.goto(site.url(f"/replay/{created['id']}"))
    page.get_by_test_id("player-name-0").wait_for()
    assert name in page.get_by_test_id("player-name-0").inner_text()


def test_taking_a_move_back_makes_a_rated_game_unrated(site, new_page) -> None:
    page = new_page()
    choose_name(page, site, unique("Dee"))
    created = site.create("carcassonne", ["human", "random"], {"draw_order": SHORT_PILE}, seed=23)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    assert body_data(page, "rated") == "true"
    assert page.get_by_test_id("game-title").inner_text().endswith("· rated")
    assert "unrated" in page.get_by_test_id("undo").get_attribute("title")
    assert wait_turn_or_end(page) == "turn"
    carcassonne_turn(page, random.Random(5))
    page.get_by_test_id("undo").click()
    page.wait_for_function("() => document.body.dataset.rated === 'false'")
    assert "rated" not in page.get_by_test_id("game-title").inner_text()
    assert site.summary(created["id"])["rated"] is False
