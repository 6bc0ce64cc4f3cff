"""The replay page's analysis in Chromium: Analyse on a finished game, the progress, the chart
(click: go to the step), the annotated move list, the best move named at a step, and the stored
analysis shown at once when the replay is opened again."""

from __future__ import annotations

import pytest

from browser_helpers import SHORT_PILE, body_data, screenshot

pytestmark = pytest.mark.browser


def test_analyse_a_finished_game_on_its_replay(site, page, artifacts):
    created = site.create("carcassonne", ["random", "greedy"], {"draw_order": SHORT_PILE}, seed=8)
    game_id = created["id"]
    summary = site.wait_finished(game_id)
    page.goto(site.url(f"/replay/{game_id}"))
    page.wait_for_function("() => document.body?.dataset.ready === 'true'")
    page.wait_for_function("() => document.body.dataset.analysis === 'none'")
    assert page.get_by_test_id("move-list").locator("li").count() == summary["step"]
    page.get_by_test_id("analyse-button").click()
    page.wait_for_function("() => document.body.dataset.analysis === 'done'", timeout=90_000)
    chart = page.get_by_test_id("analysis-chart")
    assert chart.is_visible() and page.get_by_test_id("chart-line-0").count() == 1
    analysis = site.request("GET", f"/api/games/{game_id}/analysis")["analysis"]
    decisions = analysis["decisions"]
    assert len(decisions) == summary["step"]
    assert "inaccuracy ≥ 2, mistake ≥ 4, blunder ≥ 7" in \
        page.get_by_test_id("analysis-thresholds").inner_text()
    # every judged move is annotated with the points it lost (✓: the bot's best)
    worst = max((d for d in decisions if not d["forced"]), key=lambda d: d["lost"])
    step = worst["step"] + 1
    note = page.get_by_test_id(f"move-note-{step}").inner_text()
    if worst["lost"] > 0.05:
        assert f"−{worst['lost']:.1f}" in note
    else:
        assert "✓" in note
    if worst["flag"]:
        assert worst["flag"] in note
        assert f"flag-{worst['flag']}" in page.get_by_test_id(f"move-{step}").get_attribute("class")
        page.get_by_test_id(f"chart-point-{step}").click()  # a flagged point of the chart
    else:
        page.get_by_test_id(f"move-{step}").click()
    page.wait_for_function("(s) => document.body.dataset.step === s", arg=str(step))
    last = page.get_by_test_id("analysis-last").inner_text()
    played = page.get_by_test_id(f"move-{step}").locator(".move-text").inner_text()
    assert f"played {played}" in last  # the replay's own words for the move
    if worst["lost"] > 0:
        assert worst["best"] in last
    screenshot(page, "carcassonne_replay_analysis")
    # the best move is named at a position where a choice is to be made
    choice = next(d for d in decisions if not d["forced"])
    page.get_by_test_id("replay-jump").fill(str(choice["step"]))
    page.get_by_test_id("replay-go").click()
    page.wait_for_function("(s) => document.body.dataset.step === s", arg=str(choice["step"]))
    assert choice["best"] in page.get_by_test_id("analysis-best").inner_text()
    # a click on the chart goes to the nearest step
    box = chart.bounding_box()
    chart.click(position={"x": box["width"] - 8, "y": box["height"] / 2})
    page.wait_for_function("(s) => Number(document.body.dataset.step) >= s - 2",
                           arg=summary["step"])
    # stored with the game: opened again, the analysis is there without asking
    page.goto(site.url(f"/replay/{game_id}"))
    page.wait_for_function("() => document.body.dataset.analysis === 'done'", timeout=10_000)
    assert page.get_by_test_id("analyse-button").is_hidden()
    assert body_data(page, "ready") == "true"


def test_a_running_game_offers_no_analysis(site, page, artifacts):
    created = site.create("queens", ["human", "human"], seed=2)
    response = page.request.post(site.url(f"/api/games/{created['id']}/analysis"))
    assert response.status == 409 and "finished" in response.json()["error"]
