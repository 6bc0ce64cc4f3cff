"""Rise of the Shogun played in Chromium up to a Court phase and a duel (games steered there,
tests/shogun_paths.py): the Court's rings say which action each province offers and a move of
the hero waits for its confirmation; on a phone the duel and a playable card are on screen
with the map, and the replay of that game shows the duel box mid-duel."""

from __future__ import annotations

from typing import Any

import pytest

import boardwright as bw
from browser_helpers import join_url, screenshot, wait_rendered
from shogun_paths import COURT_SEED, DUEL_SEED, SteeredPath, in_court, in_duel, steer
from socket_play import play_by_socket
from test_browser_phone import phone  # noqa: F401 (the phone page fixture: 390x844, touch)

pytestmark = pytest.mark.browser


def play_along(site: Any, created: dict[str, Any], path: SteeredPath, start: int = 0,
               stop: int | None = None) -> None:
    """The path's actions from `start` to `stop`, each sent by its seat's websocket."""
    play_by_socket(site, created, bw.load("shogun", 2, path.options), path.seed, path.actions,
                   start, stop)


def seated(site: Any, path: SteeredPath, stop: int | None = None) -> dict[str, Any]:
    """A game of two human seats on the path's seed, played along the path up to `stop`."""
    created = site.create("shogun", ["human", "human"], path.options, seed=path.seed)
    play_along(site, created, path, stop=stop)
    return created


def in_view(box: dict | None, width: int = 390, height: int = 844) -> bool:
    return box is not None and box["width"] > 0 and box["x"] >= 0 and box["y"] >= 0 \
        and box["x"] + box["width"] <= width + 1 and box["y"] + box["height"] <= height + 1


def test_court_rings_and_a_confirmed_hero_move(site, page, artifacts) -> None:
    """Each province's ring is that of the action it offers (recruit, move the hero), with
    its key in the panel; a click on a move opens its confirmation, and only the confirming
    choice plays it."""
    path = steer(in_court, COURT_SEED)
    created = seated(site, path)
    page.goto(join_url(site, created, path.seat))
    page.wait_for_function("(s) => document.body.dataset.rendered === s", arg=str(len(path.actions)))
    state = bw.load("shogun", 2, path.options).new_game(path.seed)
    for action in path.actions:
        state.apply(state.game.action_from_json(action))
    offers: dict[str, set[str]] = {}
    for action in (a.to_json() for a in state.legal_actions()):
        if "space" in action:
            offers.setdefault(action["space"], set()).add(action["type"])
    rings = page.evaluate("""() => Object.fromEntries(['recruit', 'move', 'several'].map((k) => {
      const cells = [...document.querySelectorAll(`.sh-cell.target.act-${k}`)];
      return [k, {spaces: cells.map((c) => c.dataset.space).sort(),
                  stroke: cells.length ? getComputedStyle(cells[0].querySelector('.sh-space')).stroke : null}];
    }))""")
    for kind in ("recruit", "move"):  # a province offering one action wears that action's ring
        assert rings[kind]["spaces"] == sorted(s for s, k in offers.items() if k == {kind}), rings
    assert rings["several"]["spaces"] == sorted(s for s, k in offers.items() if len(k) > 1)
    assert len({rings[k]["stroke"] for k in ("recruit", "move")}) == 2, rings
    key = page.get_by_test_id("space-modes")
    assert key.locator(".sh-mode.act-recruit").inner_text() == "recruit"
    assert key.locator(".sh-mode.act-move").inner_text() == "move the hero"
    # a move of the hero: the first click selects it and asks; nothing is played yet
    target = rings["move"]["spaces"][0]
    page.get_by_test_id(f"space-{target}").click()
    page.get_by_test_id("choice-menu").wait_for()
    assert page.get_by_test_id("choice-0").inner_text().lower().startswith("move"), \
        page.get_by_test_id("choice-0").inner_text()
    screenshot(page, "shogun_court_confirm_move")
    page.get_by_test_id("choice-cancel").click()
    assert page.get_by_test_id("choice-menu").count() == 0
    assert page.evaluate("() => document.body.dataset.rendered") == str(len(path.actions))
    page.get_by_test_id(f"space-{target}").click()
    page.get_by_test_id("choice-0").click()  # confirmed: played
    page.wait_for_function("(s) => document.body.dataset.rendered === s",
                           arg=str(len(path.actions) + 1))
    assert page.locator(f"[data-testid=space-{target}] .sh-hero-letter").count() == 1


def test_a_duel_on_a_phone_and_in_its_replay(site, phone, artifacts) -> None:
    """On a phone the duel that starts comes into view with a card to play, under a part of
    the map; a tap plays the card; the replay of the game shows the duel box at that step."""
    path = steer(in_duel, DUEL_SEED)
    n = len(path.actions)
    game = bw.load("shogun", 2, path.options)
    state = game.new_game(path.seed)
    for action in path.actions:
        state.apply(game.action_from_json(action))
    shown_before = state.view(None)["duel"]
    card = next(a["card"] for a in (x.to_json() for x in state.legal_actions())
                if a["type"] == "duel_play" and "card" in a and "target" not in a)
    state.apply(game.action_from_json({"type": "duel_play", "card": card}))
    answer = next(a.to_json() for a in state.legal_actions() if a.to_json()["type"] == "duel_pass")
    state.apply(game.action_from_json(answer))
    # the game ends after the answer to that card: a finished game, mid-duel, to replay
    path.options["max_decisions"] = n + 2
    path.actions += [{"type": "duel_play", "card": card}, answer]
    created = seated(site, path, stop=n - 1)  # up to the attack
    phone.goto(join_url(site, created, path.seat))
    phone.wait_for_function("(s) => document.body.dataset.rendered === s", arg=str(n - 1))
    assert phone.get_by_test_id("duel").is_hidden()
    play_along(site, created, path, start=n - 1, stop=n)  # the other seat attacks
    phone.wait_for_function("(s) => document.body.dataset.rendered === s", arg=str(n))
    duel = phone.get_by_test_id("duel")
    playable = phone.locator(f".sh-card.playable[data-card={card}]")
    board = phone.get_by_test_id("board").bounding_box()
    screenshot(phone, "phone_shogun_duel")
    assert in_view(duel.bounding_box()), duel.bounding_box()
    assert in_view(playable.bounding_box()), playable.bounding_box()
    assert board is not None and board["y"] < 200 and board["y"] + board["height"] > 280, board
    # the map is panned to the duel's province
    where = phone.get_by_test_id(f"space-{shown_before['target']['space']}").bounding_box()
    assert where is not None and board["x"] <= where["x"] and board["y"] <= where["y"] \
        and where["x"] + where["width"] <= board["x"] + board["width"] \
        and where["y"] + where["height"] <= board["y"] + board["height"], (where, board)
    assert phone.evaluate("() => document.documentElement.scrollTop") == 0  # the page stays put
    playable.tap()
    phone.wait_for_function("(s) => document.body.dataset.rendered === s", arg=str(n + 1))
    play_along(site, created, path, start=n + 1)
    site.wait_finished(created["id"], timeout=20)
    # the replay at the step after the card: the same duel box, both sides' plays counted
    phone.goto(site.url(f"/replay/{created['id']}?step={n + 1}"))
    phone.wait_for_function("() => document.body?.dataset.ready === 'true'")
    box = phone.get_by_test_id("duel")
    box.wait_for()
    seen = [w.inner_text() for w in box.get_by_test_id("duel-play-words").all()]
    during = bw.load("shogun", 2, path.options).new_game(path.seed)
    for action in path.actions[:n + 1]:
        during.apply(during.game.action_from_json(action))
    shown = during.view(None)["duel"]
    assert seen == [w["text"].split(": ", 1)[1] for w in shown["play_words"]], seen
    assert {w["seat"] for w in shown["play_words"]} == {0, 1}
    assert box.get_by_test_id("duel-totals").inner_text() == \
        f"Attack {shown['attack_total']} — Block {shown['block_total']}"
