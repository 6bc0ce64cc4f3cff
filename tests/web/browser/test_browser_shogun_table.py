"""The Rise of the Shogun table in Chromium as a player reads it: province labels that never
overlap (bounding boxes of every label at a desktop and a phone size, and zoomed), one players
panel with a legend, a card's full data on hover, and a waiting step in words."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Iterator

import pytest

import boardwright as bw
from boardwright.games.shogun.texts import PENDING_TEXTS
from browser_helpers import ARTIFACTS, join_url, screenshot, wait_rendered, wait_turn_or_end
from socket_play import play_by_socket

pytestmark = pytest.mark.browser

STATIC = Path(__file__).resolve().parents[3] / "src" / "boardwright" / "web" / "static"
CONTENT = json.loads((STATIC / "data" / "shogun_content.json").read_text("utf-8"))
SIZES = {"desktop": (1400, 900), "phone": (390, 844)}

LABEL_BOXES = """() => {
  const box = (n) => { const r = n.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; };
  const labels = [...document.querySelectorAll('[data-testid^=label-]')]
    .filter((n) => getComputedStyle(n).display !== 'none')
    .map((n) => ({id: n.dataset.testid, ...box(n)}));
  const discs = [...document.querySelectorAll('.sh-space')].map((n) => ({id: n.closest('[data-space]').dataset.space, ...box(n)}));
  return {labels, discs, scale: Number(document.querySelector('.sh-board').dataset.labelScale)};
}"""


DRAW_DUEL = """async (view) => {
  const {drawDuel} = await import('/static/js/games/shogun_panels.js');
  const data = await (await fetch('/static/data/shogun_content.json')).json();
  const box = document.createElement('div');
  const t = {duelBox: box, data, seatName: (s) => ['Green', 'Red'][s], seatColour: () => '#888',
    spaceName: (id) => id, cardName: (id) => data.cards[id].name, treasureName: (id) => id,
    attachTip: () => {}, cardTip: () => [], treasureTip: () => []};
  drawDuel(t, view);
  return [...box.querySelectorAll('[data-testid=duel-play-words]')].map((n) => n.textContent);
}"""


@pytest.fixture
def sized_page(browser: Any) -> Iterator[Any]:
    """A factory of pages of a given viewport size (JavaScript errors fail the test)."""
    contexts, errors = [], []

    def make(width: int, height: int) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height},
                                      has_touch=width < 500)
        context.set_default_timeout(15000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, errors


def overlaps(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] \
        and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]


def assert_readable(page: Any, where: str) -> dict:
    """No two visible labels intersect, none covers a province disc, and each is 10 px or
    more high on screen."""
    page.wait_for_function("() => document.querySelector('.sh-board').dataset.labelScale")
    found = page.evaluate(LABEL_BOXES)
    labels = found["labels"]
    assert labels, where
    for i, a in enumerate(labels):
        assert a["h"] >= 10, (where, a)
        for b in labels[i + 1:]:
            assert not overlaps(a, b), (where, a, b)
        for disc in found["discs"]:
            # a disc's box is the circle's square: shrink it to the inscribed square
            inner = {"x": disc["x"] + disc["w"] * 0.15, "y": disc["y"] + disc["h"] * 0.15,
                     "w": disc["w"] * 0.7, "h": disc["h"] * 0.7}
            assert not overlaps(a, inner), (where, a, disc)
    return found


@pytest.mark.parametrize("size", SIZES)
def test_province_labels_never_overlap(site, sized_page, artifacts, size):
    width, height = SIZES[size]
    created = site.create("shogun", ["human", "random"], {"max_rounds": 3}, seed=5)
    page = sized_page(width, height)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    first = assert_readable(page, f"{size} at first")
    # every province is named at the first zoom, on a phone too (zoomed in and panned there)
    assert len(first["labels"]) == 64, size
    screenshot(page, f"shogun_map_{size}")
    for button, clicks in (("zoom-in", 2), ("zoom-out", 4), ("zoom-fit", 1)):
        for _ in range(clicks):
            page.get_by_test_id(button).click()
        found = assert_readable(page, f"{size} after {button}")
    assert found["scale"] > 0
    if size == "phone":
        # the whole map on a phone: labels that find no room hide, none overlaps
        screenshot(page, "shogun_map_phone_fit")


def test_one_players_panel_with_a_legend(site, page, artifacts):
    created = site.create("shogun", ["human", "random"],
                          {"heroes": ["samurai", "ninja"], "max_rounds": 2}, seed=3)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    page.get_by_test_id("stat-hand-0").wait_for()
    # one panel: the table's players list, with the game's standing in it
    assert page.get_by_test_id("scoreboard").count() == 0
    side = page.locator("#side").inner_text()
    assert side.count("PLAYERS") + side.count("Players") == 1, side
    legend = page.get_by_test_id("players-legend")
    assert legend.is_visible()
    words = legend.inner_text()
    for phrase in ("castles controlled", "peasants in reserve", "prisoners held", "treasures held",
                   "cards in hand", "draw pile", "Body / Mind / Ki"):
        assert phrase in words, phrase
    # no abbreviation without words: each figure has its tooltip, piles are spelled out
    for key in ("castles", "chain", "reserve", "prisoners", "treasures", "hand", "draw"):
        title = page.get_by_test_id(f"stat-{key}-0").get_attribute("title")
        assert title and len(title.split()) >= 3, (key, title)
    piles = page.get_by_test_id("stat-piles-0").inner_text()
    assert "Body 0/9" in piles and "Mind 0/6" in piles and "Ki 0/5" in piles, piles  # Samurai
    import re
    assert not re.search(r"\bB\d+ M\d+ K\d+\b", side), side
    screenshot(page, "shogun_players_panel")


def test_hovering_a_card_shows_its_full_data(site, page, artifacts):
    created = site.create("shogun", ["human", "random"],
                          {"heroes": ["ninja", "samurai"], "max_rounds": 2}, seed=8)
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    cards = page.get_by_test_id("hand").locator(".sh-card")
    cards.first.wait_for()
    tip = page.get_by_test_id("card-tip")
    checked = 0
    for i in range(cards.count()):
        card = cards.nth(i)
        data = CONTENT["cards"][card.get_attribute("data-card")]
        card.hover()
        tip.wait_for(state="visible")
        text = tip.inner_text()
        assert data["name"] in text
        assert f"{data['cost']} on the {data['attribute'].capitalize()} pile" in text, text
        if data["value"] is not None:
            assert str(data["value"]) in text
        if data["text"]:
            assert data["text"] in text
        assert CONTENT["glossary"]["speeds"][data["speed"]] in text
        assert CONTENT["glossary"]["categories"][data["category"]] in text
        checked += 1
    page.mouse.move(5, 5)
    tip.wait_for(state="hidden")
    assert checked >= 5
    cards.first.hover()
    tip.wait_for(state="visible")
    screenshot(page, "shogun_card_tip")


def reorganise_prefix() -> tuple[int, list[dict]]:
    """A seed and the actions of a random game up to its first "reorganise_to" step (a
    peasant picked up, waiting to be put down): the shortest among a few seeds."""
    game = bw.load("shogun", 2, {"max_rounds": 6})
    best: tuple[int, list[dict]] | None = None
    for seed in range(20):
        state = game.new_game(seed)
        rng = random.Random(seed)
        actions: list[dict] = []
        while not state.is_terminal and len(actions) < 80:
            if state.pending and state.pending[0][0] == "reorganise_to":
                if best is None or len(actions) < len(best[1]):
                    best = (seed, actions)
                break
            action = rng.choice(state.legal_actions())
            actions.append(action.to_json())
            state.apply(action)
    assert best is not None
    return best


def test_a_waiting_step_reads_as_a_sentence(site, new_page, artifacts):
    """Two people play a game up to a reorganisation, its last decisions by the table's own
    move sending (the ones before through their seats' websockets, which is quicker): the
    player who picked up a peasant reads what they must do, and so does the other."""
    seed, actions = reorganise_prefix()
    options = {"max_rounds": 6}
    game = bw.load("shogun", 2, options)
    created = site.create("shogun", ["human", "human"], options, seed=seed)
    by_page = max(0, len(actions) - 4)
    play_by_socket(site, created, game, seed, actions, stop=by_page)
    pages = [new_page(), new_page()]
    for seat, page in enumerate(pages):
        page.goto(join_url(site, created, seat))
        wait_rendered(page)
    state = game.new_game(seed)
    for action in actions[:by_page]:
        state.apply(game.action_from_json(action))
    for step, action in enumerate(actions[by_page:], by_page):
        page = pages[state.current_player]
        page.wait_for_function("(s) => document.body.dataset.step === s && document.body.dataset.myTurn === 'true'",
                               arg=str(step))
        page.evaluate("(a) => window.boardwright.table.sendMove(a)", action)
        state.apply(state.game.action_from_json(action))
    seat = state.current_player
    mover, other = pages[seat], pages[1 - seat]
    for page in pages:
        page.wait_for_function("(s) => document.body.dataset.rendered === s", arg=str(len(actions)))
    text = PENDING_TEXTS["reorganise_to"]
    own = text.replace("their", "your")  # addressed to the player who must act
    assert wait_turn_or_end(mover) == "turn"
    assert own in mover.get_by_test_id("status").inner_text()
    assert mover.get_by_test_id("pending").inner_text().strip().startswith(f"You must {own}")
    assert mover.get_by_test_id("pending").get_attribute("data-kind") == "reorganise_to"
    assert f"must {text}" in other.get_by_test_id("pending").inner_text()
    # the move log and the event log are sentences: no raw ids, no "key=value"
    for page in pages:
        log = page.get_by_test_id("move-log").inner_text() + page.get_by_test_id("event-log").inner_text()
        assert "=" not in log and "_" not in log, log
    screenshot(mover, "shogun_waiting_reorganise")


def test_the_end_lays_the_score_open_and_the_log_counts_rounds(site, page, artifacts):
    """A finished game: the phase box says "Game over" with each seat's score by source, its
    mission and treasures; the event log counts time in rounds, as the phase box does, with
    the duel plays and the hero moves in words."""
    created = site.create("shogun", ["random", "random"], {"max_rounds": 2}, seed=4)
    site.wait_finished(created["id"], timeout=60)
    page.goto(site.url(created["spectate_url"]))
    wait_rendered(page)
    phase = page.get_by_test_id("phase")
    page.get_by_test_id("score-by-source").wait_for()
    text = phase.inner_text()
    assert page.get_by_test_id("phase-name").inner_text() == "Game over"
    assert "Turn of" not in text and "Court phase" not in text
    for seat in (0, 1):
        row = page.get_by_test_id(f"source-score-{seat}").inner_text()
        assert " VP = castles " in row and "chain" in row and "prisoners" in row, row
        assert "treasures " in row and "?" not in row and "mission:" in row, row
    log = page.get_by_test_id("event-log").inner_text()
    assert "R1" in log and not any(f"T{n} " in log for n in range(1, 30)), log
    assert "SHO-" not in log and "_" not in log, log
    screenshot(page, "shogun_final_scores")
    # a duel as the panel draws it from the game's view: each play in the game's words
    from boardwright.games.shogun.scenario import build
    state = build(heroes=("prince", "ninja"), hero_at={0: "mino", 1: "kaga"},
                  peasants={"owari": 1}, castles={"totomi": 1},
                  hands={0: ["pri_courtiers_blade", "pri_blackmail"],
                         1: ["nin_vanish", "nin_smoke_bomb"]})
    for action in ({"type": "attack", "space": "owari", "opening": "pri_courtiers_blade"},
                   {"type": "duel_play", "card": "nin_vanish"},
                   {"type": "duel_play", "card": "pri_blackmail", "target": 1}):
        state.apply(action)
    words = page.evaluate(DRAW_DUEL, state.view(None))
    assert words == ["basic attack 3 + combo 2 = 5", words[1],
                     "special, ignores the card played second (Red's Vanish)"]
    assert words[1].endswith("(ignored: it does not count)"), words
