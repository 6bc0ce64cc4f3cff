"""The table draws seats as the server declares them (`Game.info`, through the catalog): the
names and colours of the terminal, not a table of the page's own."""

from __future__ import annotations

import pytest

import boardwright as bw
from browser_helpers import SHORT_PILE, join_url, wait_rendered

pytestmark = pytest.mark.browser


def rgb(colour: str) -> str:
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({red}, {green}, {blue})"


def test_the_table_names_and_colours_seats_as_the_server_declares(site, page):
    created = site.create("carcassonne", ["human", "random", "random"],
                          {"draw_order": SHORT_PILE}, seed=3)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    seats = bw.game_info("carcassonne").seats
    for seat in range(3):
        row = page.get_by_test_id(f"player-{seat}")
        assert row.locator(".player-name").inner_text().startswith(seats[seat].name)
        swatch = row.locator(".swatch").evaluate("(e) => getComputedStyle(e).backgroundColor")
        assert swatch == rgb(seats[seat].colour)
        # the game's own panel names who holds the seat (a bot by its label), in its colour
        cell = page.get_by_test_id(f"score-name-{seat}")
        assert cell.inner_text().strip() == (seats[seat].name if seat == 0 else "bot: random") + (
            " ◂" if seat == 0 else "")  # (an unnamed player's seat keeps the game's name)
        assert cell.locator(".person").get_attribute("title") == seats[seat].name
        assert cell.locator(".swatch").evaluate("(e) => getComputedStyle(e).backgroundColor") == rgb(seats[seat].colour)
    assert seats[2].name == "Yellow"  # the rules' third colour (the page once said Green)
    assert page.get_by_test_id("game-title").inner_text().startswith("Carcassonne · game")
