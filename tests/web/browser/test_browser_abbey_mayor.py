"""A whole Abbey & Mayor game of two humans, each in a browser context of its own, played by
clicking to its final abbey round: the abbey-or-draw choice, the mayor, a wagon moved on after
its road is scored, a barn on a tile corner and the abbey of the final round, with the tile
placements confirmed as players confirm them. The final scores and the final account shown
are the engine's.

The moves are a fixed plan for a fixed draw order (found by playing the Python engine with a
policy that makes holes and prefers the expansion's figures): the game is short (17 tiles, 40
decisions) and every one of those decisions comes up in it.
"""

from __future__ import annotations

from typing import Any

import pytest

from browser_helpers import (
    body_data, join_url, rendered, screenshot, turn_to, wait_change, wait_rendered,
)

from boardwright.games.carcassonne.game import CarcassonneGame
from boardwright.games.carcassonne.outlook import final_account

pytestmark = pytest.mark.browser

PILE = ["P", "V", "AM09", "A", "M", "H", "J", "AM08", "E", "AM06", "AM11", "D", "J", "V", "B",
        "W", "S"]
OPTIONS = {"expansions": ["abbey_mayor"], "draw_order": PILE}


def place(x: int, y: int, rotation: int) -> dict[str, Any]:
    return {"type": "place", "x": x, "y": y, "rotation": rotation}


def deploy(x: int, y: int, location: str, figure: str = "follower") -> dict[str, Any]:
    return {"type": "deploy", "x": x, "y": y, "location": location, "figure": figure}


PASS = {"type": "pass"}
DRAW = {"type": "draw"}


def abbey(x: int, y: int) -> dict[str, Any]:
    return {"type": "abbey", "x": x, "y": y}


# (seat, phase the table must show, action)
PLAN: list[tuple[int, str, dict[str, Any]]] = [
    (0, "place_tile", place(-1, 0, 270)), (0, "deploy", deploy(-1, 0, "S.W", "mayor")),
    (1, "place_tile", place(-1, -1, 270)), (1, "deploy", deploy(-1, -1, "E.S", "wagon")),
    (0, "place_tile", place(-2, -1, 270)), (0, "deploy", deploy(-2, -1, "S")),
    (1, "place_tile", place(1, 0, 90)), (1, "deploy", deploy(1, 0, "EL.ER.NL.NR.SL.SR.WL.WR")),
    (0, "place_tile", place(-2, 0, 90)), (0, "deploy", PASS),
    (1, "place_tile", place(1, -1, 90)), (1, "deploy", deploy(1, -1, "E")),
    (0, "place_tile", place(1, -2, 270)), (0, "deploy", PASS),
    (1, "place_tile", place(0, -2, 90)), (1, "deploy", deploy(0, -2, "NR")),
    # Red takes the abbey instead of drawing: it fills the hole at (0, -1) and closes the road
    # holding Blue's wagon, which Blue then moves on
    (0, "choose_tile", abbey(0, -1)), (0, "deploy", deploy(0, -1, "MONASTERY")),
    (1, "wagon_move", deploy(0, -2, "N.W", "wagon")),
    (1, "place_tile", place(1, 1, 90)), (1, "deploy", PASS),
    (0, "place_tile", place(0, 1, 270)), (0, "deploy", deploy(0, 1, "NE", "barn")),
    (1, "place_tile", place(-1, -2, 0)), (1, "deploy", PASS),
    (0, "place_tile", place(-2, -2, 0)), (0, "deploy", deploy(-2, -2, "EL.WR")),
    (1, "place_tile", place(-1, -3, 90)), (1, "deploy", deploy(-1, -3, "E")),
    (0, "place_tile", place(1, -3, 270)), (0, "deploy", deploy(1, -3, "E.S")),
    (1, "place_tile", place(1, -4, 0)), (1, "deploy", deploy(1, -4, "MONASTERY")),
    (0, "place_tile", place(0, -4, 90)), (0, "deploy", PASS),
    (1, "choose_tile", DRAW),  # Blue keeps its abbey for the end
    (1, "place_tile", place(-2, -3, 270)), (1, "deploy", PASS),
    (1, "final_abbey_round", abbey(0, -3)), (1, "deploy", deploy(0, -3, "MONASTERY")),
]



def click_move(page: Any, phase: str, action: dict[str, Any]) -> None:
    """Make `action` by clicking, as a player would; returns when the next state is drawn."""
    before = rendered(page)
    kind = action["type"]
    if kind == "place":
        turn_to(page, action["rotation"])
        page.get_by_test_id(f"spot-{action['x']}-{action['y']}").click()
        # the placement waits for its confirmation, the tile shown where it would go
        pending = page.get_by_test_id("pending-tile")
        assert pending.get_attribute("data-x") == str(action["x"])
        assert pending.get_attribute("data-rotation") == str(action["rotation"])
        assert rendered(page) == before
        page.get_by_test_id("confirm-place").click()
    elif kind == "deploy" and phase == "wagon_move":
        page.get_by_test_id(f"wagon-{action['x']}-{action['y']}-{action['location']}").click()
    elif kind == "deploy":
        page.get_by_test_id(f"figure-{action['figure']}").click()
        ring = page.get_by_test_id(f"deploy-{action['location']}")
        assert ring.get_attribute("data-figure") == action["figure"]
        ring.click()
    elif kind == "abbey":
        page.get_by_test_id(f"abbey-{action['x']}-{action['y']}").click()
    else:  # pass, draw
        page.get_by_test_id(kind).click()
    wait_change(page, before)


def test_a_whole_abbey_and_mayor_game_by_clicking(site, new_page):
    created = site.create("carcassonne", ["human", "human"], OPTIONS, seed=1)
    pages = [new_page(confirm_placement=True), new_page(confirm_placement=True)]
    for seat, page in enumerate(pages):
        page.goto(join_url(site, created, seat))
        wait_rendered(page)
    engine = CarcassonneGame(2, OPTIONS, engine="python").new_game(1)
    seen = set()
    for step, (seat, phase, action) in enumerate(PLAN):
        page = pages[seat]
        page.wait_for_function(
            "(s) => document.body.dataset.step === s && document.body.dataset.myTurn === 'true'",
            arg=str(step))
        assert body_data(page, "phase") == phase == engine.phase
        if phase == "choose_tile":  # the choice is offered: draw, or an abbey into a hole
            assert page.get_by_test_id("draw").is_visible()
            assert page.locator(".cc-spot.abbey").count() >= (1 if action["type"] == "abbey" else 0)
        if phase == "final_abbey_round":
            assert "Final abbey round" in page.locator("#game-panel").inner_text()
        if phase == "wagon_move":
            assert "wagon" in page.get_by_test_id("status").inner_text()
        click_move(page, phase, action)
        engine.apply(engine.game.action_from_json(action))
        seen.add((phase, action["type"], action.get("figure")))
        if action.get("figure") in ("mayor", "wagon", "barn") and phase == "deploy":
            # the figure stands on the board, drawn as itself
            cls = {"mayor": ".fig-mayor", "wagon": ".fig-wagon", "barn": ".fig-barn"}[action["figure"]]
            assert page.locator(f".cc-layer-figures {cls}").count() >= 1
    assert {("choose_tile", "abbey", None), ("choose_tile", "draw", None), ("deploy", "deploy", "mayor"),
            ("deploy", "deploy", "wagon"), ("wagon_move", "deploy", "wagon"), ("deploy", "deploy", "barn"),
            ("final_abbey_round", "abbey", None)} <= seen
    assert engine.is_terminal
    summary = site.summary(created["id"])
    assert summary["status"] == "finished" and summary["scores"] == engine.scores == [28, 36]
    account = final_account(engine)
    for page in pages:
        page.get_by_test_id("final-scores").wait_for()
        for seat, score in enumerate(engine.scores):
            assert page.get_by_test_id(f"final-score-{seat}").inner_text() == str(score)
            assert page.get_by_test_id(f"account-total-{seat}").inner_text() == str(score)
            assert page.get_by_test_id(f"chart-bar-{seat}").get_attribute("data-total") == str(score)
        # the final board keeps the figures (and the barn) as they stood before the final scoring
        figures = page.locator(".cc-layer-figures [data-testid^=figure-]")
        assert figures.count() == len(account["figures"]) > 0
        assert page.locator(".cc-layer-figures [data-testid^=barn-]").count() == len(account["barns"]) == 1
        ends = [s for s in account["scorings"] if s["end"]]
        assert page.locator("[data-testid^=final-label-]").count() == len(ends)
        barn = next(i for i, s in enumerate(account["scorings"]) if s["feature"] == "barn" and s["end"])
        assert page.get_by_test_id(f"final-label-{barn}").get_attribute("data-points") == "12"
    # the monastery of A, laid turned 90°, stands upright: its tile turns, its building does not
    tile = pages[0].get_by_test_id("tile-1-0")
    assert tile.get_attribute("data-tile") == "A" and tile.get_attribute("data-rotation") == "90"
    assert tile.locator("use").first.get_attribute("transform") == "rotate(90 50 50)"
    assert tile.locator("use.cc-upright").count() == 1
    assert tile.locator("use.cc-upright").get_attribute("transform") is None
    screenshot(pages[1], "carcassonne_abbey_mayor_final")
