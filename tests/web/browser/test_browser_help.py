""""How to play here" from the table's top bar: each built-in game opens its own help, a plugin
game the general one, each followed by what every table shares; the dialog closes again."""

from __future__ import annotations

import pytest

from browser_helpers import join_url, screenshot, wait_rendered

pytestmark = pytest.mark.browser

HEADINGS = {"carcassonne": "Carcassonne — how to play here",
            "queens": "Queens & Princes — how to play here",
            "shogun": "Rise of the Shogun — how to play here",
            "goofspiel": "How to play here"}


@pytest.mark.parametrize("game, options", [("carcassonne", {}), ("queens", {}),
                                           ("shogun", {"max_rounds": 2}), ("goofspiel", {})])
def test_how_to_play_here_opens_from_the_table(site, page, game, options):
    created = site.create(game, ["human", "random"], options, seed=2)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    dialog = page.get_by_test_id("help-dialog")
    assert not dialog.is_visible()
    page.get_by_test_id("help-button").click()
    dialog.wait_for(state="visible")
    content = page.get_by_test_id("help-content")
    assert content.locator("h2").first.inner_text() == HEADINGS[game]
    assert "At every table" in content.text_content()
    if game == "carcassonne":
        screenshot(page, "help_carcassonne")
    page.get_by_test_id("help-close").click()
    dialog.wait_for(state="hidden")
