"""Queens & Princes and Rise of the Shogun in Chromium: each game's board loads, a few moves
are made by clicking, and a screenshot of each board is saved."""

from __future__ import annotations

import pytest

from browser_helpers import body_data, join_url, rendered, screenshot, wait_change, wait_rendered, wait_turn_or_end

pytestmark = pytest.mark.browser


def test_queens_moves_and_sowing_by_clicking(site, page, artifacts):
    created = site.create("queens", ["human", "random"], seed=3)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    assert page.get_by_test_id("hex-0-0").count() == 1
    assert page.locator(".qp-cell").count() == 91
    assert wait_turn_or_end(page) == "turn"
    moves = 0
    for turn in range(4):
        if wait_turn_or_end(page) == "finished":
            break
        if turn == 1 and page.get_by_test_id("sow-mode").count():
            page.get_by_test_id("sow-mode").click()
            target = page.locator(".qp-cell.sow").first
        else:
            page.locator(".qp-cell.movable").first.click()
            assert page.locator(".qp-cell.selected").count() == 1
            target = page.locator(".qp-cell.target").first
        before = rendered(page)
        target.click()
        if page.get_by_test_id("choice-menu").count():
            page.get_by_test_id("choice-0").click()
        wait_change(page, before)
        moves += 1
    assert moves >= 3
    assert int(body_data(page, "step")) >= 2 * moves - 1
    screenshot(page, "queens_board")


def test_shogun_set_up_and_turns_by_clicking(site, page, artifacts):
    created = site.create("shogun", ["human", "random"], {"max_rounds": 3}, seed=5)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    assert page.locator("[data-testid^=space-]").count() == 64
    decisions = []
    for _ in range(14):
        if wait_turn_or_end(page) == "finished":
            break
        before = rendered(page)
        spaces = page.locator(".sh-cell.target")
        cards = page.locator(".sh-card.playable")
        chips = page.locator(".sh-chip.playable")
        buttons = page.locator("[data-testid=actions-now] button")
        if spaces.count():
            spaces.first.click()
            decisions.append("space")
        elif cards.count():
            cards.first.click()
            decisions.append("card")
        elif buttons.count():
            decisions.append(buttons.first.get_attribute("data-testid") or "button")
            buttons.first.click()
        elif chips.count():
            chips.first.click()
            decisions.append("treasure")
        else:
            raise AssertionError("it is our turn but nothing is clickable")
        if page.get_by_test_id("choice-menu").count():
            page.get_by_test_id("choice-0").click()
        wait_change(page, before)
    assert len(decisions) >= 5, decisions
    assert "space" in decisions  # castles, shrines, home, hero placed on the map
    # the hand of the player is shown, the opponent's is not
    if page.get_by_test_id("hand").locator(".sh-card").count() == 0:
        assert body_data(page, "phase") in ("heroes",)
    screenshot(page, "shogun_board")


def test_shogun_each_human_sees_only_their_own_hand(site, new_page):
    created = site.create("shogun", ["human", "human"],
                          {"heroes": ["ninja", "samurai"], "max_rounds": 2}, seed=8)
    green, red = new_page(), new_page()
    green.goto(join_url(site, created, 0))
    red.goto(join_url(site, created, 1))
    wait_rendered(green)
    wait_rendered(red)
    green.get_by_test_id("hand").locator(".sh-card").first.wait_for()
    red.get_by_test_id("hand").locator(".sh-card").first.wait_for()
    green_cards = green.get_by_test_id("hand").locator(".sh-card")
    red_cards = red.get_by_test_id("hand").locator(".sh-card")
    assert all(green_cards.nth(i).get_attribute("data-card").startswith("nin_") for i in range(green_cards.count()))
    assert all(red_cards.nth(i).get_attribute("data-card").startswith("sam_") for i in range(red_cards.count()))
    # whoever moves clicks a highlighted province; the other page has nothing to click
    mover, waiter = (green, red) if body_data(green, "myTurn") == "true" else (red, green)
    assert waiter.locator(".sh-cell.target").count() == 0
    before = rendered(waiter)
    mover.locator(".sh-cell.target").first.click()
    if mover.get_by_test_id("choice-menu").count():
        mover.get_by_test_id("choice-0").click()
    wait_change(waiter, before)


@pytest.mark.parametrize("game, options", [("queens", {}), ("shogun", {"max_rounds": 2})])
def test_replay_of_each_game(site, page, artifacts, game, options):
    created = site.create(game, ["random", "random"], options, seed=4)
    summary = site.wait_finished(created["id"], timeout=120)
    page.goto(site.url(f"/replay/{created['id']}"))
    page.wait_for_function("() => document.body?.dataset.ready === 'true'")
    assert page.get_by_test_id("board").count() == 1
    page.get_by_test_id("replay-next").click()
    page.wait_for_function("() => document.body.dataset.step === '1'")
    page.get_by_test_id("replay-last").click()
    page.wait_for_function("(s) => document.body.dataset.step === s", arg=str(summary["step"]))
    for seat, score in enumerate(summary["scores"]):
        shown = page.get_by_test_id(f"player-score-{seat}").inner_text()
        if game == "queens":  # the place, and below it the Fields, Cities and Princes
            row = page.get_by_test_id(f"player-{seat}").inner_text()
            assert str(score) not in row and shown in ("1st", "2nd", "=1st", "out")
            if score >= 0:
                fields, cities = score // 100, score // 10 % 10
                assert f"{fields} Field" in row and f"{cities} Cit" in row
        else:
            assert shown == str(score)
    screenshot(page, f"{game}_replay_end")


def test_queens_shows_the_standing_as_the_rules_rank_it(site, page, artifacts):
    """Fields, then Cities, then Princes (QUE-END-04): level on Fields, Red leads on Cities;
    the rules' encoded number (e.g. 324) is never shown."""
    position = {"seats": [
        {"queen": [0, 4], "princes": [[1, 3], [-1, 4]], "cities": [[0, 4], [2, 3]],
         "fields": [[0, 3], [1, 4], [-1, 5]]},
        {"queen": [0, -4], "princes": [[-1, -3], [1, -4], [1, -5], [-1, -4]], "cities": [[0, -4]],
         "fields": [[0, -3], [0, -5], [1, -3]]}], "to_play": 0}
    created = site.create("queens", ["human", "human"], {"position": position}, seed=1)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    assert page.get_by_test_id("player-score-0").inner_text() == "1st"
    assert page.get_by_test_id("player-score-1").inner_text() == "2nd"
    assert page.get_by_test_id("fields-0").inner_text() == "3 Fields (7 in supply)"
    assert page.get_by_test_id("cities-0").inner_text() == "2 Cities (1 in supply)"
    assert page.get_by_test_id("princes-1").inner_text() == "4 Princes"
    rule = page.get_by_test_id("standing-rule").inner_text()
    assert "Ranked by Fields on the board, then Cities, then Princes" in rule
    assert "Red leads Blue on Cities: 2 to 1 (level on Fields)" in rule
    # one players panel: each player once, with the place and the figures that decide it
    assert page.get_by_test_id("player-0").locator("[data-testid=standing-row-0]").count() == 1
    assert page.locator(".player-name").count() == 2
    for text in (page.get_by_test_id("player-0").inner_text(),
                 page.get_by_test_id("player-1").inner_text()):
        assert "322" not in text and "314" not in text
    screenshot(page, "queens_standing")


def test_queens_spaces_are_named_as_the_move_log_names_them(site, page):
    created = site.create("queens", ["human", "random"], seed=3)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    assert page.get_by_test_id("label-0-0").text_content() == "f11"
    assert page.get_by_test_id("label-0-4").text_content() == "j15"
    assert page.get_by_test_id("label-0--5").text_content() == "a6"
    assert page.locator(".qp-coord").count() == 91
