"""Hints in Chromium: the Hint button of a Carcassonne training game draws three numbered hints
on the board (ghost tiles, turned as each move turns them) and lists them with their expected
margins; with two humans, hints wait for both to agree (proposal, refusal, acceptance). The
games are rated (the default), so each first hint is asked through the question that it makes
the game unrated (test_browser_hint_confirm.py)."""

from __future__ import annotations

import re

import pytest

from browser_helpers import SHORT_PILE, join_url, screenshot, two_seated_pages, wait_rendered

pytestmark = pytest.mark.browser

MARGIN = re.compile(r"^[+-]\d+\.\d$")


def hint_marks(page):
    return page.locator("[data-testid^=hint-mark-]")


def test_the_hint_button_draws_three_numbered_hints_on_the_carcassonne_board(site, page):
    created = site.create("carcassonne", ["human", "random"], {"draw_order": SHORT_PILE}, seed=7)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    button = page.get_by_test_id("hint")
    assert button.is_visible() and button.is_enabled()
    assert page.get_by_test_id("hint-consent").is_hidden()  # training: nothing to agree on
    assert hint_marks(page).count() == 0
    button.click()
    page.get_by_test_id("hint-unrate-ask").click()
    page.wait_for_function("() => document.querySelectorAll('[data-testid^=hint-mark-]').length === 3")
    marks = hint_marks(page)
    assert [marks.nth(i).get_attribute("data-rank") for i in range(3)] == ["1", "2", "3"]
    assert [marks.nth(i).locator("text.cc-hint-number").text_content() for i in range(3)] == ["1", "2", "3"]
    for i in range(3):
        mark = marks.nth(i)
        assert mark.get_attribute("data-type") == "place"
        # a ghost of the drawn tile, where and as the move puts it
        ghost = page.get_by_test_id(f"hint-ghost-{i + 1}")
        assert ghost.count() == 1
        assert ghost.get_attribute("href") == "#cc-tile-E"  # SHORT_PILE's first tile
        x, y = int(mark.get_attribute("data-x")), int(mark.get_attribute("data-y"))
        rotation = mark.get_attribute("data-rotation")
        assert ghost.get_attribute("transform") == f"rotate({rotation} {x * 100 + 50} {y * 100 + 50})"
        assert mark.locator("text.cc-hint-turn").text_content() == f"{rotation}°"
    items = page.get_by_test_id("hints").locator("li")
    assert items.count() == 3
    margins = [float(page.get_by_test_id(f"hint-margin-{rank}").inner_text()) for rank in (1, 2, 3)]
    assert margins == sorted(margins, reverse=True)
    assert all(MARGIN.match(page.get_by_test_id(f"hint-margin-{r}").inner_text()) for r in (1, 2, 3))
    screenshot(page, "hints-carcassonne")
    # clicking a hint pre-selects it: the drawn tile turns as the hinted move turns it
    best = marks.nth(0)
    page.get_by_test_id("hint-1").click()
    assert page.get_by_test_id("drawn-tile-svg").get_attribute("data-rotation") == best.get_attribute("data-rotation")
    x, y = best.get_attribute("data-x"), best.get_attribute("data-y")
    spot = page.get_by_test_id(f"spot-{x}-{y}")
    assert spot.count() == 1
    # the move made, the hints of the old position are gone
    before = page.evaluate("() => document.body.dataset.rendered")
    spot.click()
    page.wait_for_function("(b) => document.body.dataset.rendered !== b", arg=before)
    assert hint_marks(page).count() == 0
    assert page.get_by_test_id("hints").is_hidden()


def test_two_humans_agree_before_hints_and_only_the_mover_gets_them(site, new_page):
    red, blue, created = two_seated_pages(site, new_page, seed=12)
    for page in (red, blue):
        assert page.get_by_test_id("hint").is_hidden()
        page.get_by_test_id("hints-propose").wait_for()
    # Red proposes, Blue refuses: back to no proposal
    red.get_by_test_id("hints-propose").click()
    red.get_by_test_id("hints-withdraw").wait_for()
    blue.get_by_test_id("hints-accept").wait_for()
    assert "Red proposes hints" in blue.get_by_test_id("hint-consent").inner_text()
    blue.get_by_test_id("hints-refuse").click()
    for page in (red, blue):
        page.get_by_test_id("hints-propose").wait_for()
        assert page.get_by_test_id("hint").is_hidden()
    # proposed again and accepted: the Hint button for both, usable by the seat to move
    red.get_by_test_id("hints-propose").click()
    blue.get_by_test_id("hints-accept").click()
    for page in (red, blue):
        page.wait_for_function("() => document.querySelector('[data-testid=hint-consent]').dataset.state === 'allowed'")
        page.get_by_test_id("hint").wait_for()
    assert red.get_by_test_id("hint").is_enabled()
    assert blue.get_by_test_id("hint").is_disabled()  # not Blue's turn
    red.get_by_test_id("hint").click()
    red.get_by_test_id("hint-unrate-ask").click()
    red.wait_for_function("() => document.querySelectorAll('[data-testid^=hint-mark-]').length === 3")
    assert red.get_by_test_id("hints").locator("li").count() == 3
    # Blue's page got nothing: no marks, no list
    blue.wait_for_timeout(300)
    assert hint_marks(blue).count() == 0
    assert blue.get_by_test_id("hints").is_hidden()
    # a spectator sees no Hint button and has no say
    watcher = new_page()
    watcher.goto(site.url(f"/play/{created['id']}"))
    wait_rendered(watcher)
    assert watcher.get_by_test_id("hint").is_hidden()
    assert watcher.get_by_test_id("hint-consent").is_hidden()


@pytest.mark.parametrize("game", ["queens", "shogun"])
def test_queens_and_shogun_hints_number_their_target_spaces(site, page, game):
    from browser_helpers import wait_turn_or_end

    created = site.create(game, ["human", "random"], seed=4)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    assert wait_turn_or_end(page) == "turn"
    page.get_by_test_id("hint").click()
    page.get_by_test_id("hint-unrate-ask").click()
    page.get_by_test_id("hint-1").wait_for()
    hints = page.evaluate("() => window.boardwright.table.hints.hint.hints")
    assert 1 <= len(hints) <= 3 and page.get_by_test_id("hints").locator("li").count() == len(hints)
    fields = ("to", "at") if game == "queens" else ("space", "target", "source")
    placed = [h for h in hints if any(f in h["action"] for f in fields)
              or h["action"]["type"] == "found"]  # (a City is founded on the Queen's space)
    assert hint_marks(page).count() == len(placed)
    for hint in placed:
        mark = page.get_by_test_id(f"hint-mark-{hint['rank']}")
        a = hint["action"]
        if game == "queens" and a["type"] != "found":
            q, r = a.get("to") or a.get("at")
            assert (mark.get_attribute("data-q"), mark.get_attribute("data-r")) == (str(q), str(r))
        elif game == "shogun":
            assert mark.get_attribute("data-space") in {a.get(f) for f in fields}
