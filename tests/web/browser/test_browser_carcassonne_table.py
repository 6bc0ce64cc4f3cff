"""The Carcassonne table in Chromium: a figure spot lights up its whole feature and says what it
is worth now, the players panel shows the scores if the game ended now, the final board keeps
its figures and shows each scoring (labels on the board, an account with a chart), tile
placements wait for a confirmation that can be switched off, and a page without its connection
never claims a turn."""

from __future__ import annotations

import random

import pytest

from browser_helpers import (
    SHORT_PILE, body_data, carcassonne_turn, click_and_wait, join_url, rendered, screenshot,
    turn_to, two_seated_pages, wait_rendered, wait_turn_or_end,
)

pytestmark = pytest.mark.browser

E_FIELD = "EL.ER.NL.NR.WL.WR"  # E turned 180° (its city facing S): the field north of it



def test_hover_lights_up_the_feature_and_the_final_board_keeps_its_figures(site, new_page, artifacts):
    red, blue, created = two_seated_pages(site, new_page, seed=21)
    # Red lays E north of the start tile, its city facing S: it closes the start tile's city
    assert wait_turn_or_end(red) == "turn"
    turn_to(red, 180)
    click_and_wait(red, red.get_by_test_id("spot-0--1"))
    # the knight's spot: the closed city of two tiles, 4 points now
    red.get_by_test_id("deploy-S").hover()
    highlight = red.get_by_test_id("feature-highlight")
    assert highlight.get_attribute("data-kind") == "city"
    assert highlight.get_attribute("data-segments") == "2"
    assert highlight.locator(".cc-hl").count() == 2
    assert red.get_by_test_id("feature-points").get_attribute("data-text") == "4 points now (complete)"
    assert red.get_by_test_id("deploy-S").get_attribute("data-points") == "4"
    screenshot(red, "carcassonne_feature_hover")
    # the farmer's spot: a field of one tile beside that city, 3 points now
    red.get_by_test_id(f"deploy-{E_FIELD}").hover()
    assert highlight.get_attribute("data-kind") == "field"
    assert highlight.get_attribute("data-segments") == "1"
    assert red.get_by_test_id("feature-points").get_attribute("data-text") == "3 points now"
    red.mouse.move(5, 5)
    assert red.get_by_test_id("feature-highlight").count() == 0
    # the farmer goes there: no point yet, 3 if the game ended now, on both players' pages
    click_and_wait(red, red.get_by_test_id(f"deploy-{E_FIELD}"))
    for page in (red, blue):
        page.wait_for_function("() => document.querySelector('[data-testid=projected-0]')"
                               " && document.querySelector('[data-testid=projected-0]').textContent === '→ 3'")
        assert page.get_by_test_id("player-score-0").inner_text() == "0"
        assert page.get_by_test_id("projected-1").inner_text() == "→ 0"
    # the rest of the game, by clicking on both pages
    rng = random.Random(5)
    pages = [red, blue]
    for _ in range(60):
        if body_data(red, "status") == "finished":
            break
        mover = next((p for p in pages if body_data(p, "myTurn") == "true"), None)
        if mover is None:
            red.wait_for_timeout(50)
            continue
        carcassonne_turn(mover, rng)
    for page in pages:
        page.get_by_test_id("final-scores").wait_for()
    summary = site.summary(created["id"])
    final = red.evaluate("() => window.boardwright.table.frame.table.final")
    # the final board: Red's farmer and every other figure as before the final scoring
    figures = red.locator(".cc-layer-figures [data-testid^=figure-]")
    assert figures.count() == len(final["figures"]) >= 1
    assert red.get_by_test_id(f"figure-0--1-{E_FIELD}").count() == 1
    assert red.get_by_test_id("projected-0").count() == 0  # nothing left to project
    # the account: per player and kind, adding up to the final scores; bars as long as them
    assert red.get_by_test_id("final-account").is_visible()
    for seat, score in enumerate(summary["scores"]):
        assert red.get_by_test_id(f"account-total-{seat}").inner_text() == str(score)
        assert red.get_by_test_id(f"chart-bar-{seat}").get_attribute("data-total") == str(score)
    field = next(i for i, s in enumerate(final["scorings"]) if s["end"] and s["feature"] == "field"
                 and {"x": 0, "y": -1, "location": E_FIELD} in s["segments"])
    label = red.get_by_test_id(f"final-label-{field}")
    assert label.get_attribute("data-feature") == "field"
    assert int(label.get_attribute("data-points")) == final["scorings"][field]["points"] >= 3
    assert red.locator("[data-testid^=final-label-]").count() == sum(s["end"] for s in final["scorings"])
    label.hover()
    assert red.get_by_test_id("feature-highlight").get_attribute("data-kind") == "field"
    assert red.get_by_test_id("account-0-field").inner_text() == str(
        sum(s["points"] for s in final["scorings"] if s["feature"] == "field" and 0 in s["players"]))
    red.get_by_test_id(f"scoring-entry-{field}").hover()
    assert red.get_by_test_id("feature-highlight").count() == 1
    screenshot(red, "carcassonne_final_board")


def test_a_placement_waits_for_its_confirmation_unless_switched_off(site, new_page):
    created = site.create("carcassonne", ["human", "random"], {"draw_order": SHORT_PILE}, seed=22)
    page = new_page(confirm_placement=True)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    assert wait_turn_or_end(page) == "turn"
    toggle = page.get_by_test_id("confirm-toggle")
    assert toggle.is_checked()
    step = body_data(page, "step")
    spot = page.locator(".cc-spot.legal").first
    x, y = spot.get_attribute("data-x"), spot.get_attribute("data-y")
    spot.click()
    # shown where it would go, not sent
    pending = page.get_by_test_id("pending-tile")
    assert (pending.get_attribute("data-x"), pending.get_attribute("data-y")) == (x, y)
    assert page.get_by_test_id("confirm-box").is_visible()
    screenshot(page, "carcassonne_confirm_placement")
    page.wait_for_timeout(200)
    assert body_data(page, "step") == step and body_data(page, "phase") == "place_tile"
    page.get_by_test_id("cancel-place").click()
    assert page.get_by_test_id("pending-tile").count() == 0
    # a second click on the same space confirms, as the button does
    page.get_by_test_id(f"spot-{x}-{y}").click()
    click_and_wait(page, page.get_by_test_id(f"spot-{x}-{y}"))
    assert body_data(page, "phase") == "deploy"
    click_and_wait(page, page.get_by_test_id("pass"))
    # switched off: kept in localStorage, and one click places
    toggle.uncheck()
    assert page.evaluate("() => localStorage.getItem('boardwright.carcassonne.confirmPlacement')") == "off"
    page.reload()
    wait_rendered(page)
    assert not page.get_by_test_id("confirm-toggle").is_checked()
    assert wait_turn_or_end(page) == "turn"
    click_and_wait(page, page.locator(".cc-spot.legal").first)
    assert body_data(page, "phase") == "deploy"


def test_the_status_never_claims_a_turn_while_disconnected(site, new_page):
    created = site.create("carcassonne", ["human", "random"], {"draw_order": SHORT_PILE}, seed=23)
    page = new_page()
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    assert wait_turn_or_end(page) == "turn"
    status = page.get_by_test_id("status")
    assert status.inner_text().startswith("Your turn")
    # the connection drops and cannot come back (every new socket fails at once)
    page.evaluate("""() => {
        window.RealWebSocket = window.WebSocket;
        window.WebSocket = function () { throw new Error('offline'); };
        window.boardwright.table.socket.ws.close();
    }""")
    page.wait_for_function("() => document.body.dataset.connection === 'reconnecting'")
    assert status.inner_text() == "Reconnecting…"
    assert "Your turn" not in status.inner_text()
    assert "offline" in (status.get_attribute("class") or "")
    screenshot(page, "carcassonne_reconnecting")
    # back online: the server sends the position again, and the turn is shown again
    page.evaluate("""() => {
        window.WebSocket = window.RealWebSocket;
        window.boardwright.table.socket.reconnectNow();
    }""")
    page.wait_for_function("() => document.body.dataset.connection === 'connected'")
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('Your turn')")
    before = rendered(page)
    page.locator(".cc-spot.legal").first.click()
    page.wait_for_function("(b) => document.body.dataset.rendered !== b", arg=before)
