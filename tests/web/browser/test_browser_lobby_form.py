"""The lobby's create form in Chromium, built from each game's option specs: no JSON is typed.
A game of each built-in game is created by clicking (checkboxes, selects, number fields), with
Abbey & Mayor switched on for Carcassonne, a bot seat and an open seat; the options the server
stored are exactly those set; and an open seat is taken from a second browser context with the
lobby's "Take seat" button."""

from __future__ import annotations

from typing import Any

import pytest

from browser_helpers import (
    choose_name,
    choose_seat,
    open_advanced,
    screenshot,
    unique,
    wait_rendered,
)
from boardwright.agents.levels import LEVELS

pytestmark = pytest.mark.browser


def open_lobby(site: Any, page: Any, game: str, players: int) -> None:
    page.goto(site.url("/"))
    page.wait_for_function("() => document.body?.dataset.ready === 'true'")
    page.get_by_test_id("new-game").select_option(game)
    page.get_by_test_id("new-players").select_option(str(players))


def create_from_form(page: Any) -> str:
    """Click "Create game" and wait for the new game's panel (a refusal fails the test with
    the lobby's message); its id."""
    before = page.get_by_test_id("created").get_attribute("data-game-id") or ""
    page.get_by_test_id("create-game").click()
    page.wait_for_function(
        "(b) => (document.querySelector('[data-testid=created]').dataset.gameId || '') !== b"
        " || !document.querySelector('[data-testid=lobby-error]').classList.contains('hidden')",
        arg=before)
    error = page.get_by_test_id("lobby-error")
    assert error.is_hidden(), error.inner_text()
    return page.get_by_test_id("created").get_attribute("data-game-id")


def test_no_json_is_typed_in_the_lobby(site, page):
    open_lobby(site, page, "carcassonne", 2)
    assert page.locator("textarea").count() == 0
    form = page.get_by_test_id("options-form")
    assert form.get_by_test_id("option-farmers").get_attribute("type") == "checkbox"
    assert form.get_by_test_id("option-small_city_scoring").evaluate("e => e.tagName") == "SELECT"
    # the first player is a seat, counted from 1 as the seats are (0 in the data)
    seat = form.get_by_test_id("option-starting_seat")
    choices = "s => [...s.options].map((o) => [o.value, o.textContent])"
    assert seat.evaluate(choices) == [["0", "Seat 1"], ["1", "Seat 2"]]
    assert form.get_by_test_id("option-row-starting_seat").inner_text().startswith("First player")
    assert "first turn" in form.get_by_test_id("option-help-starting_seat").inner_text()
    page.get_by_test_id("new-players").select_option("4")  # the range follows the seats
    assert page.get_by_test_id("option-starting_seat").evaluate(choices)[-1] == ["3", "Seat 4"]
    # the seat choices: me, an open seat, the levels by name, then "Other agent…", which shows
    # the agent strings in a second choice
    seat1 = page.get_by_test_id("seat-1")
    assert seat1.evaluate(choices) == [
        ["human", "Me"], ["open", "Open seat (anyone may take it)"], ["easy", "Easy bot"],
        ["medium", "Medium bot"], ["hard", "Hard bot"], ["other", "Other agent…"]]
    other = page.get_by_test_id("seat-other-1")
    assert other.is_hidden()
    seat1.select_option("other")
    assert other.is_visible() and "mcts:seconds=0.5" in [v for v, _ in other.evaluate(choices)]
    # seed, starting tile and the tools' bounds are folded under "Advanced", in plain words
    advanced = page.get_by_test_id("advanced")
    assert advanced.get_attribute("open") is None
    assert page.get_by_test_id("new-seed").is_hidden()
    assert page.get_by_test_id("option-start_tile").is_hidden()
    assert form.get_by_test_id("option-start_tile").count() == 0  # not among the options
    open_advanced(page)
    assert page.get_by_test_id("new-seed").is_visible()
    assert page.get_by_test_id("option-row-start_tile").inner_text().startswith("Starting tile")
    seed_label = page.get_by_test_id("new-seed").evaluate("(i) => i.closest('label').textContent")
    assert " ".join(seed_label.split()) == "Random seed (the same seed deals the same game)"
    # the Rated checkbox inside its label: clicking the word ticks it
    rated = page.get_by_test_id("rated")
    assert rated.evaluate("(box) => box.closest('label').textContent.trim()") == "Rated"
    page.get_by_test_id("rated-label").get_by_text("Rated").click()
    assert not rated.is_checked()
    box, word = rated.bounding_box(), page.get_by_test_id("rated-label").bounding_box()
    assert abs((box["y"] + box["height"] / 2) - (word["y"] + word["height"] / 2)) < 4  # one line
    # Rise of the Shogun: the tools' bound is advanced, in words
    page.get_by_test_id("new-game").select_option("shogun")
    assert page.get_by_test_id("advanced-options").get_by_test_id("option-row-max_decisions") \
        .inner_text().startswith("Stop after this many moves (for testing tools)")


def test_carcassonne_with_abbey_and_mayor_a_bot_and_an_open_seat(site, page):
    open_lobby(site, page, "carcassonne", 3)
    abbeys = page.get_by_test_id("option-row-abbeys")
    assert abbeys.is_hidden()  # an Abbey & Mayor option is shown only with the expansion
    page.get_by_test_id("option-expansions-abbey_mayor").check()
    assert abbeys.is_visible()
    page.get_by_test_id("option-abbeys").fill("2")
    page.get_by_test_id("option-wagon_adjacency").select_option("connected")
    page.get_by_test_id("option-wagon_traverse").check()
    page.get_by_test_id("option-farmers").uncheck()
    page.get_by_test_id("seat-0").select_option("human")
    page.get_by_test_id("seat-1").select_option("easy")
    page.get_by_test_id("seat-2").select_option("open")
    assert page.get_by_test_id("seat-agent-1").inner_text() == LEVELS["easy"].why
    open_advanced(page)
    page.get_by_test_id("new-seed").fill("4")
    screenshot(page, "lobby_form_abbey_mayor")
    game_id = create_from_form(page)
    summary = site.summary(game_id)
    assert summary["options"] == {
        "expansions": ["abbey_mayor"], "farmers": False, "abbeys": 2,
        "wagon_adjacency": "connected", "wagon_traverse": True}
    assert [s["kind"] for s in summary["seats"]] == ["human", "greedy:depth=1", "human"]
    assert [bool(s.get("open")) for s in summary["seats"]] == [False, False, True]
    created = page.get_by_test_id("created")
    assert created.get_by_test_id("join-link-0").count() == 1
    assert created.get_by_test_id("join-link-2").count() == 0
    assert "open seat" in created.inner_text()
    # switching the expansion off again hides its options and leaves them out
    page.get_by_test_id("option-expansions-abbey_mayor").uncheck()
    assert abbeys.is_hidden()
    choose_seat(page, 2, "random")
    other = site.summary(create_from_form(page))
    assert other["options"] == {"farmers": False}


def test_queens_and_shogun_from_the_form(site, page):
    open_lobby(site, page, "queens", 3)
    assert page.get_by_test_id("option-map").input_value() == "default"
    open_advanced(page)  # what only the API or the CLI sets is named there
    assert "Starting position" in page.get_by_test_id("options-elsewhere").inner_text()
    page.get_by_test_id("seat-1").select_option("open")
    page.get_by_test_id("seat-2").select_option("hard")
    queens = site.summary(create_from_form(page))
    assert queens["game"] == "queens" and queens["options"] == {}  # defaults are not sent
    assert [s["kind"] for s in queens["seats"]] == ["human", "human", "mcts:seconds=1"]
    assert queens["seats"][1].get("open") is True

    open_lobby(site, page, "shogun", 3)
    threshold = page.get_by_test_id("option-vp_threshold")
    assert threshold.input_value() == "22"  # the 3-player default
    page.get_by_test_id("option-max_rounds").fill("6")
    for seat, hero in enumerate(["ninja", "miko", "samurai"]):
        page.get_by_test_id(f"option-heroes-{seat}").select_option(hero)
    page.get_by_test_id("seat-1").select_option("open")
    page.get_by_test_id("seat-2").select_option("easy")
    shogun = site.summary(create_from_form(page))
    assert shogun["options"] == {"max_rounds": 6, "heroes": ["ninja", "miko", "samurai"]}
    assert [s["kind"] for s in shogun["seats"]] == ["human", "human", "greedy:depth=1"]


def test_a_refused_option_is_named_in_the_lobby(site, page):
    open_lobby(site, page, "carcassonne", 2)
    open_advanced(page)
    page.get_by_test_id("option-start_tile").fill("ZZ")
    page.get_by_test_id("create-game").click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=lobby-error]').textContent.includes('start_tile')")
    assert page.get_by_test_id("created").is_hidden()


def test_an_open_seat_is_taken_from_a_second_browser(site, new_page):
    creator = new_page()
    open_lobby(site, creator, "carcassonne", 2)
    creator.get_by_test_id("seat-1").select_option("open")
    open_advanced(creator)
    creator.get_by_test_id("option-draw_order").fill("E U V J D")
    game_id = create_from_form(creator)
    assert site.summary(game_id)["options"] == {"draw_order": ["E", "U", "V", "J", "D"]}

    taker = new_page()
    taker.goto(site.url("/"))
    taker.wait_for_function("() => document.body?.dataset.ready === 'true'")
    button = taker.get_by_test_id(f"take-seat-{game_id}-1")
    button.wait_for()
    button.click()  # without a name: refused, saying what to do
    taker.get_by_test_id("games-error").wait_for()
    assert "choose a name first" in taker.get_by_test_id("games-error").inner_text()
    name = unique("Taker")
    choose_name(taker, site, name)
    taker.wait_for_function("() => document.body?.dataset.ready === 'true'")
    button = taker.get_by_test_id(f"take-seat-{game_id}-1")
    button.wait_for()
    button.click()
    taker.wait_for_url(f"**/play/{game_id}?seat=1")
    wait_rendered(taker)
    assert taker.evaluate("() => document.body.dataset.seat") == "1"
    assert "Blue" in taker.get_by_test_id("seat-label").inner_text()
    assert site.summary(game_id)["seats"][1]["name"] == name
    # the seat is no longer open: the lobby shows no button, and the server refuses a second take
    creator.get_by_test_id("refresh-games").click()
    creator.get_by_test_id(f"game-row-{game_id}").wait_for()
    creator.wait_for_function(
        "(id) => !document.querySelector(`[data-testid=take-seat-${id}-1]`)", arg=game_id)
    assert not any(s.get("open") for s in site.summary(game_id)["seats"])



def test_a_plugin_games_options_from_its_specs(site, page):
    open_lobby(site, page, "goofspiel", 3)
    cards = page.get_by_test_id("option-cards")
    assert (cards.get_attribute("type"), cards.get_attribute("min"), cards.get_attribute("max"),
            cards.input_value()) == ("number", "3", "20", "13")
    cards.fill("5")
    choose_seat(page, 1, "random")
    page.get_by_test_id("seat-2").select_option("open")
    created = site.summary(create_from_form(page))
    assert created["game"] == "goofspiel" and created["options"] == {"cards": 5}


def test_a_clock_and_an_unrated_game_from_the_lobby(site, page):
    """The table settings come from the catalog's table_form: no clock by default; minutes plus
    an increment with "the player loses" on time-out, and the game unrated, set by clicking."""
    open_lobby(site, page, "queens", 2)
    names = page.get_by_test_id("new-game").evaluate(
        "s => [...s.options].map((o) => o.textContent)")
    assert {"Carcassonne", "Queens & Princes", "Rise of the Shogun"} <= set(names)  # not ids
    assert page.get_by_test_id("clock-fields-fischer").is_hidden()
    assert page.get_by_test_id("rated").is_checked()
    page.get_by_test_id("clock-control").select_option("fischer")
    assert page.get_by_test_id("clock-fields-fischer").is_visible()
    page.get_by_test_id("clock-minutes").fill("3")
    page.get_by_test_id("clock-increment").fill("2")
    page.get_by_test_id("clock-timeout").select_option("lose")
    page.get_by_test_id("rated").uncheck()
    page.get_by_test_id("seat-1").select_option("easy")
    game_id = create_from_form(page)
    summary = site.summary(game_id)
    assert summary["clock"] == {"minutes": 3.0, "increment": 2.0, "on_timeout": "lose"}
    assert summary["rated"] is False
