"""The lobby in Chromium when the server refuses a new game for a visitor's limit: the form
shows the server's message, which says which limit and when to try again."""

from __future__ import annotations

from typing import Any

import pytest

from browser_helpers import Site, screenshot

pytestmark = pytest.mark.browser


def test_the_lobby_shows_why_a_game_was_not_created(limited_site: Site, page: Any) -> None:
    limited_site.create("queens", ["human", "human"])  # this address's one game of the minute
    page.goto(limited_site.url("/"))
    page.wait_for_function("() => document.body?.dataset.ready === 'true'")
    page.get_by_test_id("new-game").select_option("queens")
    error = page.get_by_test_id("lobby-error")
    assert error.is_hidden()
    page.get_by_test_id("create-game").click()
    error.wait_for(state="visible")
    text = error.inner_text()
    assert ("too many new games: this server allows 1 per 60 seconds for each visitor; try "
            "again in 60 s") in text
    inside = error.evaluate("e => { const r = e.getBoundingClientRect();"
                            " return r.top >= 0 && r.bottom <= innerHeight; }")
    assert inside, "the message is out of sight"
    screenshot(page, "lobby_limit")
    assert page.get_by_test_id("created").is_hidden()
