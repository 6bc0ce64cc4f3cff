"""The pages show the games' words and share one pan and zoom: Carcassonne's scoring list is
the server's lines (games/carcassonne/texts.py, their seats named by who held them), and every board (Carcassonne, Queens, Rise of
the Shogun) pans and zooms through panzoom.js."""

from __future__ import annotations

import pytest

import boardwright as bw
from browser_helpers import SHORT_PILE, join_url, screenshot, wait_rendered

pytestmark = pytest.mark.browser


def bot_words(entry) -> str:
    """A scoring line as a page shows it when bots playing "random" hold every seat."""
    if "words" not in entry:
        return entry["text"]
    return "".join(p if isinstance(p, str) else "bot: random" for p in entry["words"])


def test_carcassonne_shows_the_servers_scoring_lines(site, page, artifacts):
    created = site.create("carcassonne", ["random", "random"], {"draw_order": SHORT_PILE},
                          seed=7)
    site.wait_finished(created["id"])
    # what the server words: the game's final account of the same game
    replay = site.request("GET", f"/api/games/{created['id']}/replay")
    state = bw.load("carcassonne", 2, {"draw_order": SHORT_PILE}).new_game(7)
    for data in replay["actions"]:
        state.apply(data)
    # the game's words, each seat it names as who held it (both bots: "bot: random")
    scorings = state.game.table_data(state)["final"]["scorings"]
    expected = [bot_words(s) for s in scorings]
    assert expected and all(" +" in line for line in expected)
    page.goto(site.url(f"/play/{created['id']}"))
    wait_rendered(page)
    shown = page.locator("[data-testid^=scoring-entry-]").all_inner_texts()
    assert [line.strip() for line in shown] == expected[::-1]  # the newest first
    # the replay's last step ends on the same final scoring as the table (its table data)
    page.goto(site.url(f"/replay/{created['id']}"))
    page.get_by_test_id("board").wait_for()
    page.keyboard.press("End")
    page.wait_for_function("(n) => document.querySelectorAll("
                           "'[data-testid^=scoring-entry-]').length === n", arg=len(expected))
    lines = page.locator("[data-testid^=scoring-entry-]").all_inner_texts()
    assert [line.strip() for line in lines] == expected[::-1]
    screenshot(page, "carcassonne_scoring_lines")


def view_box(page) -> list[float]:
    return [float(n) for n in page.get_by_test_id("board").get_attribute("viewBox").split()]


@pytest.mark.parametrize("game, options", [("carcassonne", {"draw_order": SHORT_PILE}),
                                           ("queens", {}), ("shogun", {"max_rounds": 2})])
def test_every_board_pans_and_zooms_with_the_shared_module(site, page, game, options):
    created = site.create(game, ["human", "random"], options, seed=3)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    board = page.get_by_test_id("board")
    assert board.locator("xpath=..").locator(".board-zoom").count() == 1  # panzoom.js's buttons
    page.get_by_test_id("zoom-fit").click()
    fitted = view_box(page)
    assert board.get_attribute("data-zoom") == "1.00"
    page.get_by_test_id("zoom-in").click()
    zoomed = view_box(page)
    assert zoomed[2] == pytest.approx(fitted[2] / 1.4, rel=1e-3)
    assert float(board.get_attribute("data-zoom")) == pytest.approx(1.4, abs=0.01)
    # a drag pans (the width stays), the wheel zooms around the pointer
    box = board.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 50, y + 30, steps=5)
    page.mouse.up()
    panned = view_box(page)
    assert panned[2] == pytest.approx(zoomed[2]) and panned[:2] != zoomed[:2]
    page.mouse.wheel(0, -200)
    assert view_box(page)[2] < panned[2]
    page.get_by_test_id("zoom-out").click()
    page.get_by_test_id("zoom-fit").click()
    assert view_box(page) == fitted
