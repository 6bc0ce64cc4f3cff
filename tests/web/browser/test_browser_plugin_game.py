"""A game without a renderer of its own (the Goofspiel example, an installed plugin) in
Chromium: the generic page shows its view as a table of fields and its legal moves as buttons
with the game's descriptions, and a whole game is played by clicking them."""

from __future__ import annotations

import pytest

from browser_helpers import click_and_wait, join_url, screenshot, wait_rendered, wait_turn_or_end

pytestmark = pytest.mark.browser


def test_a_plugin_game_is_played_on_the_generic_page(site, page, artifacts):
    created = site.create("goofspiel", ["human", "random"], {"cards": 4}, seed=2)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    assert page.get_by_test_id("generic-view").is_visible()
    assert page.get_by_test_id("view-prize").inner_text().startswith("prize")
    assert page.get_by_test_id("view-hand").inner_text().endswith("1, 2, 3, 4")
    moves = 0
    while wait_turn_or_end(page) == "turn":
        buttons = page.locator("#action-list button.action")
        assert buttons.count() == 4 - moves
        assert buttons.first.inner_text().startswith("bid ")
        click_and_wait(page, buttons.first)
        moves += 1
    assert moves == 4
    assert page.get_by_test_id("final-row-0").is_visible()
    assert "rounds" in page.get_by_test_id("generic-json").text_content()  # folded away
    screenshot(page, "goofspiel_generic")
