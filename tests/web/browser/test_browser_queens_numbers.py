"""Queens in Chromium: the numbers a player needs are on the board (each piece's strength and
movement from the game's table data, an attack's strengths while choosing it), a stack that
must split is flagged at the start of the turn, spaces are named by their board labels and the
standing is in Fields, Cities and Princes."""

from __future__ import annotations

import pytest

from browser_helpers import join_url, screenshot, wait_rendered

pytestmark = pytest.mark.browser

# Red to play: a stack on the mountain h11 (-1,2) left from a joint attack, a Prince on i16
# (1,3) next to a Blue Prince on i14 (0,3) that it can beat alone.
POSITION = {"seats": [
    {"queen": [-1, 4], "princes": [[-1, 2], [-1, 2], [1, 3]], "cities": [[-1, 4]]},
    {"queen": [2, 0], "princes": [[0, 3], [3, -4]], "cities": [[0, -4]]}], "to_play": 0}


def test_queens_shows_strengths_attacks_and_the_stack_to_split(site, page):
    created = site.create("queens", ["human", "random"], {"position": POSITION}, seed=1)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    split = page.get_by_test_id("must-split")
    assert "Split your stack on h11 this turn" in split.inner_text()
    # a Prince 2 from its Queen: 5 - 2 = 3, moving 3; the stack on the mountain: 2 x 3 x 2
    assert page.get_by_test_id("strength-1-3").text_content() == "3"
    assert page.get_by_test_id("movement-1-3").text_content() == "↦3"
    assert page.get_by_test_id("strength--1-2").text_content() == "12"
    assert page.get_by_test_id("strength--1-4").text_content() == "7"  # Queen 4 + City 3
    assert "strength 3 (Prince 5 − 2 from its Queen = 3)" in \
        page.locator('[data-testid="hex-1-3"] title').text_content()
    page.get_by_test_id("hex-1-3").click()
    assert page.get_by_test_id("odds-0-3").text_content() == "4 v 2"
    assert "your 4 against their 2" in \
        page.locator('[data-testid="hex-0-3"] title').text_content()
    selection = page.get_by_test_id("selection").inner_text()
    assert selection.startswith("Selected i16 (strength 3, moves up to 3)")
    assert "(" not in selection.split(")")[1]  # no axial coordinates after the figures
    assert page.get_by_test_id("player-score-0").inner_text() == "1st"
    assert page.get_by_test_id("standing-row-0").inner_text() == \
        "0 Fields (10 in supply), 1 City (2 in supply), 3 Princes"
    screenshot(page, "queens_numbers")


def test_queens_opens_legible_on_a_phone(site, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True)
    try:
        phone = context.new_page()
        created = site.create("queens", ["human", "random"], seed=3)
        phone.goto(join_url(site, created, 0))
        wait_rendered(phone)
        # zoomed on Red's Queen (j15, (0,4)): her hex wide enough to read, its label too
        queen = phone.get_by_test_id("hex-0-4").bounding_box()
        assert queen["width"] >= 50
        label = phone.get_by_test_id("label-0-4").bounding_box()
        assert label["height"] >= 8
        board = phone.get_by_test_id("board").bounding_box()
        right = board["x"] + board["width"]
        assert board["x"] <= queen["x"] and queen["x"] + queen["width"] <= right
        screenshot(phone, "phone_queens_legible")
        phone.get_by_test_id("zoom-fit").click()  # the whole board on demand
        assert phone.get_by_test_id("hex-0-4").bounding_box()["width"] < queen["width"]
    finally:
        context.close()
