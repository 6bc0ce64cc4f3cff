"""Every page on a phone (390×844, touch): nothing wider than the screen, the board on screen,
and a screenshot of each at that size (tests/web/browser/artifacts/phone_*.png)."""

from __future__ import annotations

from typing import Any

import pytest

from browser_helpers import join_url, screenshot, wait_rendered

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}


@pytest.fixture
def phone(browser: Any) -> Any:
    context = browser.new_context(**PHONE)
    context.set_default_timeout(15000)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors


def assert_fits_the_screen(page: Any) -> None:
    widths = page.evaluate("""() => ({page: document.documentElement.scrollWidth,
                                      screen: document.documentElement.clientWidth})""")
    wide = page.evaluate("""() => {
      // inside a box that scrolls sideways (a long table) is fine: the page itself does not
      const scrolls = (e) => { for (let p = e.parentElement; p; p = p.parentElement) {
        if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)
            && p.getBoundingClientRect().right <= 391) return true; } return false; };
      return [...document.querySelectorAll('body *')]
        .filter((e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
                         return r.width > 0 && s.visibility !== 'hidden' && r.right > 391
                                && !e.closest('svg, dialog:not([open]), .hidden')
                                && !scrolls(e); })
        .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)
        .slice(0, 5); }""")
    assert not wide, wide
    assert widths["page"] <= widths["screen"] + 1, widths


def test_the_lobby_on_a_phone(site, phone) -> None:
    phone.goto(site.url("/"))
    phone.wait_for_function("() => document.body?.dataset.ready === 'true'")
    assert_fits_the_screen(phone)
    screenshot(phone, "phone_lobby")


@pytest.mark.parametrize("game, options", [("carcassonne", {"expansions": ["abbey_mayor"]}),
                                           ("queens", {}), ("shogun", {"max_rounds": 2})])
def test_a_table_on_a_phone(site, phone, game: str, options: dict) -> None:
    created = site.create(game, ["human", "random"], options, seed=3)
    phone.goto(join_url(site, created, 0))
    wait_rendered(phone)
    assert_fits_the_screen(phone)
    board = phone.get_by_test_id("board").bounding_box()
    assert board is not None and board["width"] >= 300 and board["x"] >= -1
    assert board["x"] + board["width"] <= 391 and board["y"] < 844
    screenshot(phone, f"phone_{game}")


def test_a_replay_and_a_leaderboard_on_a_phone(site, phone) -> None:
    created = site.create("queens", ["random", "random"], {}, seed=4)
    site.wait_finished(created["id"])
    phone.goto(site.url(f"/replay/{created['id']}"))
    phone.get_by_test_id("board").wait_for()
    assert_fits_the_screen(phone)
    phone.get_by_test_id("zoom-in").click()  # the replay's board zooms too
    assert float(phone.locator("[data-zoom]").first.get_attribute("data-zoom")) > 1.3
    screenshot(phone, "phone_replay")
    phone.goto(site.url("/leaderboard/queens"))
    phone.wait_for_load_state("networkidle")
    assert_fits_the_screen(phone)
    screenshot(phone, "phone_leaderboard")


def touch(cdp: Any, kind: str, points: list[tuple[float, float]]) -> None:
    cdp.send("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": i} for i, (x, y) in enumerate(points)]})


# A piece of each board whose size on screen shows the zoom: the centre space, Heian, the
# start tile (every board's "show it all" button is panzoom.js's zoom-fit).
MARK = {"queens": "hex-0-0", "shogun": "space-heian", "carcassonne": "tile-0-0"}


@pytest.mark.parametrize("game, options", [("queens", {}), ("shogun", {"max_rounds": 2}),
                                           ("carcassonne", {"expansions": ["abbey_mayor"]})])
def test_a_board_pans_and_zooms_by_touch_and_a_press_still_plays(site, phone, game,
                                                                  options) -> None:
    created = site.create(game, ["human", "random"], options, seed=3)
    phone.goto(join_url(site, created, 0))
    wait_rendered(phone)
    cdp = phone.context.new_cdp_session(phone)
    box = phone.get_by_test_id("board").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, min(box["y"] + box["height"] / 2, 420)
    mark = phone.get_by_test_id(MARK[game])
    start = mark.bounding_box()
    touch(cdp, "touchStart", [(cx - 30, cy), (cx + 30, cy)])  # pinch out: zoom in
    for step in range(1, 9):
        touch(cdp, "touchMove", [(cx - 30 - 10 * step, cy), (cx + 30 + 10 * step, cy)])
    touch(cdp, "touchEnd", [])
    zoomed = mark.bounding_box()
    assert zoomed["width"] > 1.6 * start["width"], (start, zoomed)
    touch(cdp, "touchStart", [(cx, cy)])  # one finger: pan
    for step in range(1, 6):
        touch(cdp, "touchMove", [(cx - 10 * step, cy - 8 * step)])
    touch(cdp, "touchEnd", [])
    panned = mark.bounding_box()
    assert (panned["x"], panned["y"]) != (zoomed["x"], zoomed["y"])
    assert panned["width"] == pytest.approx(zoomed["width"], rel=0.01)  # a pan keeps the zoom
    screenshot(phone, f"phone_{game}_zoomed")
    phone.get_by_test_id("zoom-fit").click()
    phone.wait_for_function("([id, w]) => document.querySelector(`[data-testid='${id}']`)"
                            ".getBoundingClientRect().width < w", arg=[MARK[game], zoomed["width"]])
    if game == "queens":  # after the gestures a press on a piece of mine still selects it
        phone.locator(".qp-cell.movable").first.click()
        phone.locator(".qp-cell.selected").wait_for()
