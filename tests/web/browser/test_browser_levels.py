"""The lobby's bot levels in Chromium: the seats offer me, open, easy, medium and hard with each
level's description shown (its agent string in the choice's title), and a game created with a
level records its agent string."""

from __future__ import annotations

import pytest

from boardwright.agents.levels import LEVELS

pytestmark = pytest.mark.browser


def test_the_lobby_offers_the_levels_and_shows_their_agent_strings(site, page):
    page.goto(site.url("/"))
    page.wait_for_function("() => document.body?.dataset.ready === 'true'")
    page.get_by_test_id("new-game").select_option("carcassonne")
    page.get_by_test_id("new-players").select_option("3")
    offered = page.get_by_test_id("seat-1").evaluate(
        "(s) => [...s.options].map((o) => [o.value, o.title])")
    values = [value for value, _ in offered]
    assert values[:5] == ["human", "open", "easy", "medium", "hard"]
    titles = dict(offered)
    assert titles["easy"].startswith("greedy:depth=1")
    assert titles["medium"].startswith("mcts:seconds=0.25")
    assert titles["hard"].startswith("mcts:seconds=1")
    # a bot seat starts at a level, its agent string next to it; choosing another level updates it
    assert page.get_by_test_id("seat-1").input_value() == "medium"
    assert page.get_by_test_id("seat-agent-1").inner_text() == LEVELS["medium"].why
    page.get_by_test_id("seat-2").select_option("hard")
    assert page.get_by_test_id("seat-agent-2").inner_text() == LEVELS["hard"].why
    assert "mcts:seconds=1" in page.get_by_test_id("seat-2").get_attribute("title")
    page.get_by_test_id("seat-1").select_option("easy")
    assert page.get_by_test_id("seat-agent-1").inner_text() == LEVELS["easy"].why
    page.get_by_test_id("seat-0").select_option("human")
    assert page.get_by_test_id("seat-agent-0").inner_text() == ""
    page.get_by_test_id("create-game").click()
    created = page.get_by_test_id("created")
    created.wait_for()
    game_id = created.get_attribute("data-game-id")
    text = created.inner_text()
    assert "easy: greedy:depth=1" in text and "hard: mcts:seconds=1" in text
    seats = site.summary(game_id)["seats"]
    assert [s["kind"] for s in seats] == ["human", "greedy:depth=1", "mcts:seconds=1"]
