"""Clocks, undo by agreement and chat at the table, in Chromium: the clock of the seat to move
counts down on both players' pages, a seat lost on time is shown, an undo asked in one browser
context is accepted in another, and two players chat while a spectator reads (text shown as
text, never as HTML)."""

from __future__ import annotations

import random
import time
from datetime import datetime, timedelta

import pytest

from browser_helpers import (
    SHORT_PILE, body_data, carcassonne_turn, join_url, screenshot, wait_rendered,
)

pytestmark = pytest.mark.browser


def create(site, game, seats, **body):
    return site.request("POST", "/api/games", {"game": game, "seats": seats, "seed": 3, **body})


def seconds(page, seat: int) -> float:
    return float(page.get_by_test_id(f"clock-{seat}").get_attribute("data-seconds"))


def test_the_clock_of_the_seat_to_move_counts_down_on_both_pages(manual_clock_site, new_page):
    """Exact figures, however slow the machine: the server's game clocks run on a manual
    clock the test moves, and each page's clock is Playwright's, paused and moved by the test."""
    site, server_clock = manual_clock_site
    created = create(site, "queens", ["human", "human"], clock={"minutes": 5, "increment": 2})
    pages = [new_page(), new_page()]
    for seat, page in enumerate(pages):
        page.clock.install()
        page.clock.pause_at(datetime.now() + timedelta(seconds=1))
        page.goto(join_url(site, created, seat))
        wait_rendered(page)
    for page in pages:
        page.wait_for_function("() => document.querySelector('[data-testid=clock-0][data-running=true],"
                               " [data-testid=clock-1][data-running=true]') !== null")
    running = 0 if pages[0].get_by_test_id("clock-0").get_attribute("data-running") == "true" else 1
    waiting = 1 - running
    page = pages[waiting]
    assert "5 min + 2 s" in page.get_by_test_id("clocks").inner_text()
    assert seconds(page, running) == 300.0  # no time has passed on either clock
    page.clock.run_for(1200)  # 1.2 s on the page: it counts down from the server's figure
    assert seconds(page, running) == 298.8
    assert page.get_by_test_id(f"clock-time-{running}").inner_text() == "4:59"  # whole seconds, rounded up
    assert seconds(page, waiting) == 300.0  # the other clock stands still
    assert page.get_by_test_id(f"clock-time-{waiting}").inner_text() == "5:00"
    # the player to move thinks 7 s on the server's clock, then moves: its clock stops with
    # its increment added, and the other one starts
    server_clock.advance(7)
    mover = pages[running]
    mover.get_by_test_id("all-actions-toggle").click()
    mover.get_by_test_id("action-0").click()
    page.wait_for_function(f"() => document.querySelector('[data-testid=clock-{waiting}]')"
                           ".dataset.running === 'true'")
    assert seconds(page, running) == 300.0 - 7 + 2
    assert seconds(page, waiting) == 300.0
    screenshot(page, "table_clocks")


def test_a_seat_out_of_time_loses_and_the_page_says_so(site, new_page):
    created = create(site, "queens", ["human", "greedy"], clock={"per_move": 1},
                     on_timeout="lose")
    page = new_page()
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    page.wait_for_function("() => document.body.dataset.status === 'finished'", timeout=15000)
    assert page.get_by_test_id("clock-time-0").inner_text() == "lost on time"
    assert page.get_by_test_id("clock-time-1").inner_text() == "bot"
    # the final table ranks the seat that lost on time last, whatever the scores
    assert "winner" in page.get_by_test_id("final-row-1").inner_text()
    assert page.get_by_test_id("final-row-0").inner_text().count("winner") == 0


def test_an_undo_asked_in_one_context_is_accepted_in_another(site, new_page):
    created = create(site, "carcassonne", ["human", "human"], options={"draw_order": SHORT_PILE})
    red, blue = new_page(), new_page()
    red.goto(join_url(site, created, 0))
    blue.goto(join_url(site, created, 1))
    wait_rendered(red)
    wait_rendered(blue)
    red.wait_for_function("() => document.body.dataset.myTurn !== undefined")
    mover, other = (red, blue) if body_data(red, "myTurn") == "true" else (blue, red)
    tiles = mover.locator("[data-testid^=tile-]").count()
    assert carcassonne_turn(mover, random.Random(4)) == "place"  # the tile is laid
    assert mover.locator("[data-testid^=tile-]").count() == tiles + 1
    assert mover.get_by_test_id("undo").is_visible()
    mover.get_by_test_id("undo").click()
    other.wait_for_function("() => document.querySelector('[data-testid=undo-request]').dataset.state === 'asking'")
    assert "asks to take back their last move" in other.get_by_test_id("undo-request").inner_text()
    assert "waiting for" in mover.get_by_test_id("undo-request").inner_text()
    screenshot(other, "table_undo_request")
    other.get_by_test_id("undo-accept").click()
    for page in (mover, other):
        page.wait_for_function("() => document.body.dataset.step === '0'")
    assert mover.locator("[data-testid^=tile-]").count() == tiles
    assert body_data(mover, "phase") == "place_tile" and body_data(mover, "myTurn") == "true"
    assert other.get_by_test_id("undo-request").is_hidden()


def test_two_players_chat_and_a_spectator_reads(site, new_page):
    created = create(site, "queens", ["human", "human"])
    red, blue, watcher = new_page(), new_page(), new_page()
    red.goto(join_url(site, created, 0))
    blue.goto(join_url(site, created, 1))
    watcher.goto(site.url(created["spectate_url"]))
    for page in (red, blue, watcher):
        wait_rendered(page)
    assert watcher.get_by_test_id("chat-form").is_hidden()
    assert "Spectators read the chat" in watcher.get_by_test_id("chat-note").inner_text()
    sneaky = '<img src=x onerror="document.body.dataset.pwned=1"><b>hello</b>'
    red.get_by_test_id("chat-input").fill(sneaky)
    red.get_by_test_id("chat-input").press("Enter")
    for page in (red, blue, watcher):
        page.wait_for_function("() => document.querySelectorAll('[data-testid^=chat-message-]').length === 1")
        assert page.get_by_test_id("chat-text").inner_text() == sneaky  # shown as text
        assert page.locator("[data-testid=chat-list] img, [data-testid=chat-list] b").count() == 0
        assert body_data(page, "pwned") is None
    assert red.get_by_test_id("chat-input").input_value() == ""
    blue.get_by_test_id("chat-input").fill("good luck")
    blue.get_by_test_id("chat-send").click()
    watcher.wait_for_function("() => document.querySelectorAll('[data-testid^=chat-message-]').length === 2")
    texts = watcher.locator(".chat-message").all_inner_texts()
    assert texts[1].endswith("good luck")
    assert watcher.locator(".chat-message").nth(1).get_attribute("data-seat") == "1"
    # a reload shows the history
    watcher.reload()
    wait_rendered(watcher)
    watcher.wait_for_function("() => document.querySelectorAll('[data-testid^=chat-message-]').length === 2")
    screenshot(watcher, "table_chat_spectator")
