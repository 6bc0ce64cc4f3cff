"""The table shell in Chromium: two humans in two browser contexts, a spectator, a reload and a
reconnect in the middle of a game, the replay of a finished game, and the lobby's lists."""

from __future__ import annotations

import random

import pytest

from browser_helpers import (
    open_advanced,
    SHORT_PILE, body_data, carcassonne_turn, join_url, rendered, screenshot, two_seated_pages,
    wait_change, wait_rendered, wait_turn_or_end,
)

pytestmark = pytest.mark.browser


def test_two_humans_in_two_browser_contexts_take_turns(site, new_page, artifacts):
    red, blue, created = two_seated_pages(site, new_page, seed=11)
    # each page has its own seat
    assert "Red" in red.get_by_test_id("seat-label").inner_text()
    assert "Blue" in blue.get_by_test_id("seat-label").inner_text()
    # both players are shown connected
    for page in (red, blue):
        page.wait_for_function("() => document.querySelectorAll('[data-testid^=player-] .dot.on').length === 2")
    rng = random.Random(5)
    movers = []
    for _ in range(8):
        red.wait_for_function("() => document.body.dataset.myTurn !== undefined")
        mover, waiter = (red, blue) if body_data(red, "myTurn") == "true" else (blue, red)
        assert body_data(mover, "myTurn") == "true"
        waiter.wait_for_function("(s) => document.body.dataset.step === s", arg=body_data(mover, "step"))
        assert body_data(waiter, "myTurn") == "false"
        # only the player to move sees where the tile may go
        assert waiter.locator(".cc-spot, .cc-deploy").count() == 0
        assert "Waiting for" in waiter.get_by_test_id("status").inner_text()
        seat = 0 if mover is red else 1
        before = rendered(waiter)
        done = carcassonne_turn(mover, rng, deploy=rng.random() < 0.5)
        movers.append((seat, done))
        wait_change(waiter, before)  # the other player's page follows every move
    places = [seat for seat, done in movers if done == "place"]
    assert places == [0, 1, 0, 1], movers  # whole turns alternate: place, then figure or pass
    assert red.locator("[data-testid^=tile-]").count() == blue.locator("[data-testid^=tile-]").count() == 5
    screenshot(blue, "carcassonne_two_humans_blue")


def test_a_spectator_sees_the_board_and_cannot_move(site, new_page):
    created = site.create("carcassonne", ["human", "random"], {"draw_order": SHORT_PILE}, seed=12)
    player = new_page()
    player.goto(join_url(site, created, 0))
    wait_rendered(player)
    watcher = new_page()
    watcher.goto(site.url(created["spectate_url"]))
    wait_rendered(watcher)
    assert watcher.get_by_test_id("seat-label").inner_text() == "Spectator"
    assert body_data(watcher, "myTurn") == "false"
    assert watcher.locator(".cc-spot").count() == 0
    before = rendered(watcher)
    carcassonne_turn(player, random.Random(2))
    wait_change(watcher, before)
    assert watcher.locator("[data-testid^=tile-]").count() == 2


def test_reload_and_reconnect_in_the_middle_of_a_game(site, page):
    created = site.create("carcassonne", ["human", "random"], {"draw_order": SHORT_PILE}, seed=13)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    rng = random.Random(7)
    for _ in range(2):  # one whole turn (place + figure), then the bot's
        assert wait_turn_or_end(page) == "turn"
        carcassonne_turn(page, rng)
    assert wait_turn_or_end(page) == "turn"
    step = body_data(page, "step")
    tiles = page.locator("[data-testid^=tile-]").count()
    figures = page.locator("[data-testid^=figure-]").count()
    page.reload()
    wait_rendered(page)
    assert body_data(page, "step") == step
    assert page.locator("[data-testid^=tile-]").count() == tiles
    assert page.locator("[data-testid^=figure-]").count() == figures
    assert body_data(page, "myTurn") == "true"
    carcassonne_turn(page, rng)  # the game goes on after the reload
    assert page.locator("[data-testid^=tile-]").count() == tiles + 1
    # a dropped connection: the page reconnects, gets the state again and plays on
    page.evaluate("() => window.boardwright.table.socket.reconnectNow()")
    page.wait_for_function("() => document.body.dataset.connection === 'connected'")
    page.wait_for_function("() => document.body.dataset.myTurn === 'true'")
    carcassonne_turn(page, rng)
    assert wait_turn_or_end(page) in ("turn", "finished")


def test_replay_of_a_finished_game_steps_jumps_and_plays(site, page, artifacts):
    created = site.create("carcassonne", ["random", "greedy"], {"draw_order": SHORT_PILE}, seed=21)
    summary = site.wait_finished(created["id"])
    steps = summary["step"]
    assert steps >= 2 * (len(SHORT_PILE) - 1)
    page.goto(site.url(f"/replay/{created['id']}"))
    page.wait_for_function("() => document.body?.dataset.ready === 'true'")
    assert body_data(page, "step") == "0"
    assert body_data(page, "steps") == str(steps)
    assert page.locator("[data-testid^=tile-]").count() == 1  # the start tile
    page.get_by_test_id("replay-next").click()
    page.wait_for_function("() => document.body.dataset.step === '1'")
    assert page.locator("[data-testid^=tile-]").count() == 2
    assert "place" in page.get_by_test_id("replay-last-action").inner_text()
    page.get_by_test_id("replay-prev").click()
    page.wait_for_function("() => document.body.dataset.step === '0'")
    # jump
    middle = steps // 2
    page.get_by_test_id("replay-jump").fill(str(middle))
    page.get_by_test_id("replay-go").click()
    page.wait_for_function("(s) => document.body.dataset.step === s", arg=str(middle))
    page.get_by_test_id("replay-last").click()
    page.wait_for_function("(s) => document.body.dataset.step === s", arg=str(steps))
    assert page.locator("[data-testid^=tile-]").count() == len(SHORT_PILE) + 1  # with the start tile
    for seat, score in enumerate(summary["scores"]):
        assert page.get_by_test_id(f"player-score-{seat}").inner_text() == str(score)
    screenshot(page, "carcassonne_replay_end")
    # play from the start, then pause
    page.get_by_test_id("replay-first").click()
    page.wait_for_function("() => document.body.dataset.step === '0'")
    page.get_by_test_id("replay-speed").select_option("250")
    page.get_by_test_id("replay-play").click()
    page.wait_for_function("() => Number(document.body.dataset.step) >= 3")
    page.get_by_test_id("replay-play").click()  # pause
    page.wait_for_function("() => document.body.dataset.playing === 'false'")
    paused = body_data(page, "step")
    page.wait_for_timeout(800)
    assert body_data(page, "step") == paused


def test_lobby_lists_games_and_reports_refused_creations(site, page):
    finished = site.create("carcassonne", ["random", "random"], {"draw_order": SHORT_PILE[:3]}, seed=3)
    site.wait_finished(finished["id"])
    running = site.create("carcassonne", ["human", "random"], {"draw_order": SHORT_PILE}, seed=3)
    page.goto(site.url("/"))
    page.wait_for_function("() => document.body?.dataset.ready === 'true'")
    page.get_by_test_id(f"replay-{finished['id']}").wait_for()
    assert page.get_by_test_id("games-finished").get_by_test_id(f"game-row-{finished['id']}").count() == 1
    row = page.get_by_test_id(f"game-row-{running['id']}")
    row.wait_for()
    assert row.get_attribute("data-status") in ("open", "running")
    # an option the game refuses, then a seat the server does not offer: clear messages, no game
    page.get_by_test_id("new-game").select_option("carcassonne")
    open_advanced(page)
    page.get_by_test_id("option-draw_order").fill("E U nosuchtile")
    page.get_by_test_id("create-game").click()
    error = page.get_by_test_id("lobby-error")
    error.wait_for()
    page.wait_for_function("() => document.querySelector('[data-testid=lobby-error]').textContent.includes('nosuchtile')")
    assert "draw_order" in error.inner_text()
    page.get_by_test_id("option-draw_order").fill("")
    page.get_by_test_id("seat-1").evaluate(
        "(s) => { s.append(new Option('no-such-bot', 'no-such-bot')); s.value = 'no-such-bot'; }")
    page.get_by_test_id("create-game").click()
    page.wait_for_function("() => document.querySelector('[data-testid=lobby-error]').textContent.includes('no-such-bot')")
    assert page.get_by_test_id("created").is_hidden()
    # the replay link of a finished game opens its replay
    page.get_by_test_id(f"replay-{finished['id']}").click()
    page.wait_for_url(f"**/replay/{finished['id']}")  # the new page, not the lobby still showing
    page.wait_for_function("() => document.body?.dataset.ready === 'true'")


def test_the_seat_token_stays_in_the_browser(site, new_page):
    """A join link keeps the token in its fragment, the websocket offers it in its handshake,
    and an older link with ?token= is rewritten at once so reloads stop sending it."""
    created = site.create("carcassonne", ["human", "human"], {"draw_order": SHORT_PILE}, seed=14)
    token = created["seats"][1]["token"]
    assert created["seats"][1]["join_url"].endswith(f"#token={token}")
    sent = []
    page = new_page()
    page.on("request", lambda request: sent.append(request.url))
    page.on("websocket", lambda ws: sent.append(ws.url))
    page.goto(join_url(site, created, 1))
    wait_rendered(page)
    assert "Blue" in page.get_by_test_id("seat-label").inner_text()
    assert sent and not [url for url in sent if token in url], sent
    older = new_page()
    older.goto(site.url(f"/play/{created['id']}?token={token}"))
    wait_rendered(older)
    assert "Blue" in older.get_by_test_id("seat-label").inner_text()
    assert older.evaluate("() => location.search") == ""
    assert older.evaluate("() => location.hash") == f"#token={token}"
    assert token not in older.evaluate("() => window.boardwright.table.socket.url")
