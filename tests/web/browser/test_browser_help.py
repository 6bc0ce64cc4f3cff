""""How to play here" from the table's top bar: each built-in game opens its own help, a plugin
game the general one, each followed by what every table shares; the dialog closes again. The
Shogun and Queens pages teach the rules with figures, which load; the Shogun table's hero
choices show each hero's scores."""

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
    if game in ("shogun", "queens"):  # the rules, illustrated with figures drawn like the board
        figures = content.get_by_test_id("help-figure")
        assert figures.count() == 3
        figures.first.scroll_into_view_if_needed()
        page.wait_for_function("() => [...document.querySelectorAll('[data-testid=help-figure]')]"
                               ".every((img) => img.complete && img.naturalWidth > 0)")
        heading = "A turn: six phases" if game == "shogun" else "A turn: one action"
        assert heading in [h.text_content() for h in content.locator("h3").all()]
    if game == "shogun":
        assert "Discard any cards" in content.locator("ol").nth(1).inner_text()
        screenshot(page, "help_shogun")
    page.get_by_test_id("help-close").click()
    dialog.wait_for(state="hidden")
    if game == "shogun":  # seated first: the hero choices show each hero's scores and deck
        choice = page.get_by_test_id("act-choose_hero").inner_text()
        assert choice.startswith("Choose the Samurai (Body 9, Mind 6, Ki 5): "), choice
