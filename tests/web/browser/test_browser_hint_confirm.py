"""Asking before a hint ends a rating, picking a hint, and previewing on a touch screen, in
Chromium: a rated game asks before a hint (nothing sent on Cancel), an unrated one does not; a
picked hint shows its placement and waits for Confirm; a long press on a figure spot shows the
feature's points (what hovering shows) without placing the figure, while a tap still places it."""

from __future__ import annotations

import pytest

from browser_helpers import SHORT_PILE, join_url, wait_change, wait_rendered

pytestmark = pytest.mark.browser


def open_game(site, page, rated: bool, seed: int):
    created = site.request("POST", "/api/games", {"game": "carcassonne", "seats": ["human", "random"],
                                                   "options": {"draw_order": SHORT_PILE}, "seed": seed,
                                                   "rated": rated})
    assert created["rated"] is rated
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    page.wait_for_function("() => document.body.dataset.myTurn === 'true'")
    return created


def test_a_hint_in_a_rated_game_asks_first_and_a_picked_hint_waits_for_confirm(site, new_page):
    page = new_page(confirm_placement=True)
    created = open_game(site, page, rated=True, seed=41)
    dialog = page.get_by_test_id("hint-unrate-dialog")
    page.get_by_test_id("hint").click()
    assert dialog.is_visible()
    assert "unrated for everyone" in dialog.inner_text()
    page.get_by_test_id("hint-unrate-cancel").click()
    assert dialog.count() == 0
    # nothing was sent: no hint, still rated (the server answers a hint at once with its frame)
    page.keyboard.press("?")  # the key asks the same question
    assert dialog.is_visible()
    page.keyboard.press("Escape")
    assert dialog.count() == 0
    assert page.evaluate("() => document.body.dataset.hintStep") is None
    assert site.summary(created["id"])["rated"] is True
    assert body_rated(page) == "true"
    # Ask: the hints come, and the game is unrated for everyone
    page.get_by_test_id("hint").click()
    page.get_by_test_id("hint-unrate-ask").click()
    page.get_by_test_id("hint-1").wait_for()
    page.wait_for_function("() => document.body.dataset.rated === 'false'")
    assert site.summary(created["id"])["rated"] is False
    # picking a hint shows the placement where it goes and waits for Confirm
    mark = page.get_by_test_id("hint-mark-1")
    x, y, rotation = (mark.get_attribute(f"data-{k}") for k in ("x", "y", "rotation"))
    step = page.evaluate("() => document.body.dataset.rendered")
    page.get_by_test_id("hint-1").click()
    pending = page.get_by_test_id("pending-tile")
    assert (pending.get_attribute("data-x"), pending.get_attribute("data-y"),
            pending.get_attribute("data-rotation")) == (x, y, rotation)
    assert page.get_by_test_id("confirm-box").is_visible()
    assert page.evaluate("() => document.body.dataset.rendered") == step  # nothing sent yet
    page.get_by_test_id("confirm-place").click()
    wait_change(page, step)
    tile = page.get_by_test_id(f"tile-{x}-{y}")
    assert tile.get_attribute("data-rotation") == rotation


def body_rated(page):
    return page.evaluate("() => document.body.dataset.rated")


def test_no_question_before_a_hint_in_an_unrated_game_and_a_pick_waits_even_without_confirmation(site, page):
    open_game(site, page, rated=False, seed=42)  # `page`: the confirmation switched off
    page.get_by_test_id("hint").click()
    page.get_by_test_id("hint-1").wait_for()
    assert page.get_by_test_id("hint-unrate-dialog").count() == 0
    step = page.evaluate("() => document.body.dataset.rendered")
    page.get_by_test_id("hint-2").click()
    page.get_by_test_id("confirm-box").wait_for()
    mark = page.get_by_test_id("hint-mark-2")
    assert page.get_by_test_id("pending-tile").get_attribute("data-x") == mark.get_attribute("data-x")
    page.get_by_test_id("cancel-place").click()  # Cancel: no move, no preview
    assert page.get_by_test_id("pending-tile").count() == 0
    assert page.evaluate("() => document.body.dataset.rendered") == step


def test_a_long_press_previews_a_features_points_and_a_tap_places(site, browser):
    context = browser.new_context(viewport={"width": 900, "height": 800}, has_touch=True)
    context.add_init_script("localStorage.setItem('boardwright.carcassonne.confirmPlacement', 'off')")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.clock.install()
        page.clock.pause_at(1_000_000_000_000)
        open_game(site, page, rated=False, seed=43)
        step = page.evaluate("() => document.body.dataset.rendered")
        page.locator(".cc-spot.legal").first.tap()  # a tap places the tile (no confirmation)
        wait_change(page, step)
        page.wait_for_function("() => document.body.dataset.phase === 'deploy'")
        ring = page.locator(".cc-deploy[data-points]").first
        points = int(ring.get_attribute("data-points"))
        box = ring.bounding_box()
        at = {"pointerType": "touch", "isPrimary": True, "pointerId": 7,
              "clientX": box["x"] + box["width"] / 2, "clientY": box["y"] + box["height"] / 2}
        step = page.evaluate("() => document.body.dataset.rendered")
        ring.dispatch_event("pointerdown", at)
        page.clock.run_for(300)  # not long yet
        assert page.get_by_test_id("feature-points").count() == 0
        page.clock.run_for(300)
        tip = page.get_by_test_id("feature-points")
        assert tip.count() == 1
        assert tip.get_attribute("data-text").startswith(f"{points} point")
        assert page.get_by_test_id("feature-highlight").count() == 1
        # the finger lifts: the click it makes does not place the figure
        ring.dispatch_event("pointerup", at)
        ring.dispatch_event("click", at)
        page.clock.run_for(1000)
        assert page.evaluate("() => document.body.dataset.rendered") == step
        assert page.evaluate("() => document.body.dataset.phase") == "deploy"
        # a tap is a tap: it places the figure
        ring.tap()
        wait_change(page, step)
        assert errors == []
    finally:
        context.close()
