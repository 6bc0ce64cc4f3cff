"""People's names wherever the pages name a seat, in Chromium: Carcassonne's score table, its
scoring lines and "How the points were made", the replay and its analysis say the player's
name (a bot's label for a bot's seat, as the players list does) after a swatch of the seat's
colour from the game's seat table, never "Red" or "Blue"; the scoring lines keep the game's
words around them."""

from __future__ import annotations

import random

import pytest

from browser_helpers import (SHORT_PILE, carcassonne_turn, choose_name, join_url, unique,
                             wait_rendered, wait_turn_or_end)

pytestmark = pytest.mark.browser

BOT = "bot: greedy"


def filled(words, names) -> str:
    return "".join(p if isinstance(p, str) else names[p["seat"]] for p in words)


def swatch_colour(locator) -> str:
    return locator.locator(".swatch").first.evaluate("(n) => n.style.background")


def css(page, colour: str) -> str:
    """A colour as the browser writes it back (rgb(...))."""
    return page.evaluate("(c) => { const n = document.createElement('i'); n.style.background = c;"
                         " return n.style.background; }", colour)


def test_names_and_seat_colours_in_scores_scorings_account_replay_and_analysis(site, page):
    seats = next(g["seats"] for g in site.request("GET", "/api/catalog")["games"] if g["name"] == "carcassonne")
    name = unique("Ann")
    choose_name(page, site, name)
    created = site.create("carcassonne", ["human", "greedy"], {"draw_order": SHORT_PILE}, seed=51)
    names = [name, BOT]
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    # the score table: who, in the seat's colour
    for seat in (0, 1):
        cell = page.get_by_test_id(f"score-name-{seat}")
        assert names[seat] in cell.inner_text()
        assert seats[seat]["name"] not in cell.inner_text()
        assert swatch_colour(cell) == css(page, seats[seat]["colour"])
    rng = random.Random(6)
    while wait_turn_or_end(page) == "turn":
        carcassonne_turn(page, rng)
    page.get_by_test_id("final-account").wait_for()
    # "How the points were made": names in the seats' colours
    for seat in (0, 1):
        cell = page.get_by_test_id(f"account-name-{seat}")
        assert cell.inner_text().strip() == names[seat]
        assert swatch_colour(cell) == css(page, seats[seat]["colour"])
    # the scorings: the game's words, each seat it names as who held it
    scorings = page.evaluate("() => window.boardwright.table.frame.table.final.scorings")
    named = [s for s in scorings if "words" in s]
    assert named
    shown = [t.strip() for t in page.locator("[data-testid^=scoring-entry-]").all_inner_texts()]
    assert shown == [filled(s["words"], names) if "words" in s else s["text"] for s in scorings][::-1]
    assert not any(colour["name"] in line for line in shown for colour in seats[:2])
    entry = page.get_by_test_id(f"scoring-entry-{scorings.index(named[0])}")
    seat = next(p["seat"] for p in named[0]["words"] if isinstance(p, dict))
    assert swatch_colour(entry.locator(f".person[data-seat='{seat}']")) == css(page, seats[seat]["colour"])
    # the replay: its scores, last move and scoring lines
    replay = site.request("GET", f"/api/games/{created['id']}/replay")
    page.goto(site.url(f"/replay/{created['id']}"))
    page.wait_for_function("() => document.body?.dataset.ready === 'true'")
    for seat in (0, 1):
        assert page.get_by_test_id(f"player-name-{seat}").inner_text() == names[seat]
    page.keyboard.press("End")
    page.wait_for_function("(n) => document.body.dataset.step === String(n)", arg=replay["steps"])
    last = page.get_by_test_id("replay-last-action").inner_text()
    assert last.startswith(f"Last move: {names[replay['seats'][-1]]} ")
    # (the last step ends on the table's final scoring, worded as the table words it)
    page.wait_for_function("(n) => document.querySelectorAll("
                           "'[data-testid^=scoring-entry-]').length === n", arg=len(shown))
    lines = [t.strip() for t in page.locator("[data-testid^=scoring-entry-]").all_inner_texts()]
    assert lines == shown
    # the analysis: its table, chart legend and each move's line
    page.get_by_test_id("analyse-button").click()
    page.wait_for_function("() => document.body.dataset.analysis === 'done'", timeout=60000)
    for seat in (0, 1):
        row = page.get_by_test_id(f"analysis-seat-{seat}")
        assert names[seat] in row.inner_text()
        assert swatch_colour(row) == css(page, seats[seat]["colour"])
    legend = page.locator(".chart-legend").inner_text()
    assert names[0] in legend and names[1] in legend and seats[0]["name"] not in legend
    page.get_by_test_id("move-1").click()
    assert f" · {names[replay['seats'][0]]}: " in page.get_by_test_id("analysis-last").inner_text()
