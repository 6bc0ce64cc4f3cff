"""Carcassonne in Chromium: a game against a bot played to the end by clicking, figures of the
Abbey & Mayor expansion, undo, and a refused move's message."""

from __future__ import annotations

import random

import pytest

from browser_helpers import (
    choose_seat,
    open_advanced,
    SHORT_PILE, body_data, carcassonne_turn, click_and_wait, join_url, rendered, screenshot,
    turn_to, wait_rendered, wait_turn_or_end,
)

pytestmark = pytest.mark.browser


def test_lobby_creates_a_game_against_a_bot_and_it_is_played_to_the_end(site, page, artifacts):
    # create the game in the lobby: Carcassonne, two seats (human, random bot), a short pile
    page.goto(site.url("/"))
    page.wait_for_function("() => document.body?.dataset.ready === 'true'")
    page.get_by_test_id("new-game").select_option("carcassonne")
    page.get_by_test_id("new-players").select_option("2")
    page.get_by_test_id("seat-0").select_option("human")
    choose_seat(page, 1, "random")
    open_advanced(page)
    page.get_by_test_id("option-draw_order").fill(" ".join(SHORT_PILE))
    page.get_by_test_id("new-seed").fill("7")
    page.get_by_test_id("create-game").click()
    link = page.get_by_test_id("join-link-0")
    link.wait_for()
    assert page.get_by_test_id("spectate-link").is_visible()
    game_id = page.get_by_test_id("created").get_attribute("data-game-id")
    page.goto(link.evaluate("a => a.href"))  # the absolute address of the link
    wait_rendered(page)
    assert "Red" in page.get_by_test_id("seat-label").inner_text()
    assert page.get_by_test_id("tiles-left").get_attribute("data-count") == str(len(SHORT_PILE) - 1)

    rng = random.Random(3)
    done = []
    while wait_turn_or_end(page) == "turn":
        done.append(carcassonne_turn(page, rng, deploy=not done.count("deploy") >= 3))
        assert len(done) < 80, "the game does not end"
    assert "place" in done and "deploy" in done
    # figures were drawn on the board, and the final scores are shown and agree with the server
    final = page.get_by_test_id("final-scores")
    final.wait_for()
    summary = site.summary(game_id)
    assert summary["status"] == "finished"
    for seat, score in enumerate(summary["scores"]):
        assert page.get_by_test_id(f"final-score-{seat}").inner_text() == str(score)
        assert page.get_by_test_id(f"score-value-{seat}").inner_text() == str(score)
    assert page.locator("[data-testid^=tile-]").count() == len(SHORT_PILE) + 1  # with the start tile
    assert page.get_by_test_id("tiles-left").get_attribute("data-count") == "0"
    assert page.get_by_test_id("move-log").locator("li").count() >= len(done)
    screenshot(page, "carcassonne_board")


def test_abbey_and_mayor_figures_are_clickable(site, page):
    pile = ["E", "R", "B", "U", "V", "D"]
    created = site.create("carcassonne", ["human", "random"],
                          {"expansions": ["abbey_mayor"], "draw_order": pile}, seed=2)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    assert wait_turn_or_end(page) == "turn"
    assert body_data(page, "phase") == "place_tile"
    click_and_wait(page, page.locator(".cc-spot.legal").first)
    # tile E has a city: the mayor may go there; pick the mayor, then its spot on the tile
    assert body_data(page, "phase") == "deploy"
    figures = page.locator(".cc-figures button")
    names = [figures.nth(i).get_attribute("data-testid") for i in range(figures.count())]
    assert "figure-follower" in names and "figure-mayor" in names
    page.get_by_test_id("figure-mayor").click()
    rings = page.locator(".cc-deploy")
    assert rings.count() >= 1
    assert all(rings.nth(i).get_attribute("data-figure") == "mayor" for i in range(rings.count()))
    click_and_wait(page, rings.first)
    page.locator("[data-testid^=figure-] .fig-mayor").first.wait_for(state="attached")
    assert page.get_by_test_id("supply-0-mayor").inner_text() == "0"
    screenshot(page, "carcassonne_abbey_mayor")


def test_undo_takes_back_the_human_move_and_the_bot_reply(site, page):
    created = site.create("carcassonne", ["human", "random"], {"draw_order": SHORT_PILE}, seed=4)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    rng = random.Random(1)
    assert wait_turn_or_end(page) == "turn"
    assert page.get_by_test_id("undo").is_hidden()  # nothing to take back yet
    carcassonne_turn(page, rng)  # place
    carcassonne_turn(page, rng, deploy=False)  # pass
    assert wait_turn_or_end(page) == "turn"  # the bot has played its turn
    tiles_before = page.locator("[data-testid^=tile-]").count()
    assert tiles_before == 3
    undo = page.get_by_test_id("undo")
    assert undo.is_visible()
    before = rendered(page)
    undo.click()
    page.wait_for_function("(b) => document.body.dataset.rendered !== b && document.body.dataset.myTurn === 'true'",
                           arg=before)
    # back to the human's decision: the tile is off the board again (or back in hand)
    assert page.locator("[data-testid^=tile-]").count() < tiles_before
    assert int(body_data(page, "step")) < int(before)


def test_a_refused_move_shows_a_clear_message(site, page):
    created = site.create("carcassonne", ["human", "random"], {"draw_order": SHORT_PILE}, seed=5)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    assert wait_turn_or_end(page) == "turn"
    error = page.get_by_test_id("error-message")
    assert error.is_hidden()
    # a tile put where it does not touch the board: the engine refuses it, with its reason
    page.evaluate("() => window.boardwright.table.sendMove({type: 'place', x: 40, y: 40, rotation: 0})")
    error.wait_for()
    assert error.get_attribute("data-code") == "illegal_action"
    assert "Move refused" in error.inner_text()
    assert "(40, 40)" in error.inner_text()
    # a move built on an old position is refused as stale, and the page says what to do
    page.get_by_test_id("error-close").click()
    page.evaluate("""() => {
        const t = window.boardwright.table;
        t.socket.send({type: 'move', action: {type: 'pass'}, step: t.frame.step + 1});
    }""")
    error.wait_for()
    assert error.get_attribute("data-code") == "stale"
    assert "The game moved on" in error.inner_text()
    # the game goes on: a legal click is still accepted
    click_and_wait(page, page.locator(".cc-spot.legal").first)
    assert body_data(page, "phase") == "deploy"



def test_a_wagon_is_put_on_a_road_and_moved_after_the_road_is_scored(site, new_page, artifacts):
    # Red closes the start tile's road between two monasteries (tile A): the wagon on it is
    # scored and moves on. Start tile D: road W-E at (0, 0).
    pile = ["A", "B", "A", "U", "U", "V"]
    created = site.create("carcassonne", ["human", "human"],
                          {"expansions": ["abbey_mayor"], "draw_order": pile}, seed=1)
    red, blue = new_page(), new_page()
    red.goto(join_url(site, created, 0))
    blue.goto(join_url(site, created, 1))
    wait_rendered(red)
    wait_rendered(blue)
    assert wait_turn_or_end(red) == "turn"
    # Red: A turned 90° (road to the W) at (1, 0), a wagon on its road
    turn_to(red, 90)
    click_and_wait(red, red.get_by_test_id("spot-1-0"))
    red.get_by_test_id("figure-wagon").click()
    click_and_wait(red, red.get_by_test_id("deploy-W"))
    red.get_by_test_id("figure-1-0-W").wait_for(state="attached")
    assert red.get_by_test_id("supply-0-wagon").inner_text() == "0"
    # Blue: the monastery tile anywhere, no figure
    assert wait_turn_or_end(blue) == "turn"
    click_and_wait(blue, blue.locator(".cc-spot.legal").first)
    click_and_wait(blue, blue.get_by_test_id("pass"))
    # Red: A turned 270° (road to the E) at (-1, 0) closes the road; no new figure
    assert wait_turn_or_end(red) == "turn"
    turn_to(red, 270)
    click_and_wait(red, red.get_by_test_id("spot--1-0"))
    click_and_wait(red, red.get_by_test_id("pass"))
    # the road scored; the wagon waits for its move
    assert body_data(red, "phase") == "wagon_move"
    assert body_data(red, "myTurn") == "true"
    targets = red.locator("[data-testid^=wagon-]")
    assert targets.count() >= 1
    assert "wagon" in red.get_by_test_id("status").inner_text()
    screenshot(red, "carcassonne_wagon_move")
    x, y, location = (targets.first.get_attribute(f"data-{k}") for k in ("x", "y", "location"))
    click_and_wait(red, targets.first)
    assert red.get_by_test_id("score-value-0").inner_text() == "3"  # a 3-tile road
    assert red.locator("[data-testid^=figure-] .fig-wagon").count() == 1
    assert red.get_by_test_id(f"figure-{x}-{y}-{location}").locator(".fig-wagon").count() == 1
    assert wait_turn_or_end(blue) == "turn"  # and the turn passes to Blue


def test_the_board_pans_and_zooms_without_moving(site, page):
    created = site.create("carcassonne", ["human", "random"], {"draw_order": SHORT_PILE}, seed=6)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    assert wait_turn_or_end(page) == "turn"
    board = page.get_by_test_id("board")

    def box():
        return [float(n) for n in board.get_attribute("viewBox").split()]

    start = box()
    page.get_by_test_id("zoom-in").click()
    zoomed = box()
    assert zoomed[2] < start[2] and zoomed[3] < start[3]
    page.get_by_test_id("zoom-out").click()
    page.get_by_test_id("zoom-out").click()
    assert box()[2] > start[2]
    # drag the board from a legal spot: it pans, and no tile is placed
    step = body_data(page, "step")
    spot = page.locator(".cc-spot.legal").first.bounding_box()
    x, y = spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2
    before = box()
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 60, y + 40, steps=6)
    page.mouse.up()
    after = box()
    assert after[0] < before[0] and after[1] < before[1]
    page.wait_for_timeout(300)
    assert body_data(page, "step") == step and body_data(page, "myTurn") == "true"
    # the wheel zooms around the pointer; "fit" shows the whole board again
    page.mouse.wheel(0, -300)
    assert box()[2] < after[2]
    page.get_by_test_id("zoom-fit").click()
    assert box() == start
