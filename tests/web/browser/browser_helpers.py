"""Helpers of the browser tests: the site's JSON API and the moves a test makes by clicking."""

from __future__ import annotations

import json
import os
import random
import secrets
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM = os.environ.get("BOARDWRIGHT_CHROMIUM", "/usr/bin/chromium")
# A short Carcassonne draw pile whose tiles all fit somewhere (games end in a few turns).
SHORT_PILE = ["E", "U", "V", "J", "D", "K", "B", "W", "L", "A"]


class Site:
    """The running web table: its address and its JSON API."""

    def __init__(self, base: str) -> None:
        self.base = base

    def url(self, path: str) -> str:
        return self.base + path

    def request(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url(path), data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=20) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            raise AssertionError(f"{method} {path}: HTTP {exc.code} {exc.read()[:300]!r}") from None

    def create(self, game: str, seats: list[str], options: dict | None = None,
               seed: int | None = 1, players: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"game": game, "players": players or len(seats), "seats": seats,
                                "options": options or {}}
        if seed is not None:
            body["seed"] = seed
        return self.request("POST", "/api/games", body)

    def summary(self, game_id: str) -> dict[str, Any]:
        return self.request("GET", f"/api/games/{game_id}")

    def wait_finished(self, game_id: str, timeout: float = 60) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            summary = self.summary(game_id)
            if summary["status"] == "finished":
                return summary
            if time.monotonic() > deadline:
                raise AssertionError(f"game {game_id} did not finish: {summary}")
            time.sleep(0.2)


def join_url(site: Site, created: dict[str, Any], seat: int) -> str:
    return site.url(next(s["join_url"] for s in created["seats"] if s["seat"] == seat))


# -- waiting on the table page --------------------------------------------------------------------

def rendered(page: Any) -> str:
    return page.evaluate("() => document.body.dataset.rendered || ''")


def wait_rendered(page: Any) -> None:
    """Until the table has drawn a first state frame."""
    page.wait_for_function("() => document.body.dataset.rendered !== undefined")


def wait_change(page: Any, before: str, timeout: float = 15000) -> None:
    """Until the table draws a state other than `before` (the value of data-rendered)."""
    page.wait_for_function("(b) => document.body.dataset.rendered !== b", arg=before,
                           timeout=timeout)


def wait_turn_or_end(page: Any, timeout: float = 30000) -> str:
    """Until it is this page's turn or the game is over; returns "turn" or "finished"."""
    page.wait_for_function(
        "() => document.body.dataset.myTurn === 'true' || document.body.dataset.status === 'finished'",
        timeout=timeout)
    return "finished" if page.evaluate("() => document.body.dataset.status") == "finished" else "turn"


def body_data(page: Any, key: str) -> str:
    return page.evaluate("(k) => document.body.dataset[k]", key)


def click_and_wait(page: Any, locator: Any) -> None:
    """Click something that sends a move, and wait until the next state is drawn."""
    before = rendered(page)
    locator.click()
    wait_change(page, before)


# -- Carcassonne by clicking ---------------------------------------------------------------------

def carcassonne_turn(page: Any, rng: random.Random, deploy: bool = True) -> str:
    """Play one decision of a Carcassonne turn by clicking; returns what was done."""
    phase = body_data(page, "phase")
    if phase == "place_tile":
        if rng.random() < 0.5 and page.get_by_test_id("rotate-right").is_enabled():
            before = page.get_by_test_id("drawn-tile-svg").get_attribute("data-rotation")
            page.get_by_test_id("rotate-right").click()
            after = page.get_by_test_id("drawn-tile-svg").get_attribute("data-rotation")
            assert after != before, "the rotate button did not turn the drawn tile"
        spots = page.locator(".cc-spot.legal")
        if spots.count() == 0:  # fits only with another rotation: click a dashed spot first
            page.locator(".cc-spot.alt").first.click()
            spots = page.locator(".cc-spot.legal")
        target = spots.nth(rng.randrange(spots.count()))
        click_and_wait(page, target)
        return "place"
    if phase == "deploy":
        rings = page.locator(".cc-deploy")
        if deploy and rings.count():
            click_and_wait(page, rings.nth(rng.randrange(rings.count())))
            return "deploy"
        click_and_wait(page, page.get_by_test_id("pass"))
        return "pass"
    if phase == "wagon_move":
        click_and_wait(page, page.get_by_test_id("pass"))
        return "wagon back"
    if phase == "choose_tile":
        click_and_wait(page, page.get_by_test_id("draw"))
        return "draw"
    if phase == "final_abbey_round":
        click_and_wait(page, page.locator(".cc-spot.abbey").first)
        return "abbey"
    raise AssertionError(f"unexpected phase {phase!r}")


def screenshot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def two_seated_pages(site, new_page, seed: int) -> tuple[Any, Any, dict[str, Any]]:
    """A Carcassonne game on the short pile with two human seats, each joined in a browser
    context of its own and rendered: (red page, blue page, the created game)."""
    created = site.create("carcassonne", ["human", "human"], {"draw_order": SHORT_PILE}, seed=seed)
    red, blue = new_page(), new_page()
    red.goto(join_url(site, created, 0))
    blue.goto(join_url(site, created, 1))
    wait_rendered(red)
    wait_rendered(blue)
    return red, blue, created


def unique(name: str) -> str:
    """A name no other test of the session's server has taken."""
    return f"{name} {secrets.token_hex(3)}"


def choose_name(page: Any, site: Site, name: str) -> None:
    """Choose a display name in the lobby's "You" card (the cookie is set by the server)."""
    page.goto(site.url("/"))
    page.wait_for_function("() => document.getElementById('me').dataset.ready === 'true'")
    page.get_by_test_id("name-input").fill(name)
    page.get_by_test_id("name-save").click()
    page.get_by_test_id("my-name").wait_for()
    assert page.get_by_test_id("my-name").inner_text() == name


def turn_to(page: Any, rotation: int) -> None:
    """Click the rotate button until the drawn tile is turned `rotation` degrees."""
    svg = page.get_by_test_id("drawn-tile-svg")
    for _ in range(4):
        if svg.get_attribute("data-rotation") == str(rotation):
            return
        page.get_by_test_id("rotate-right").click()
    assert svg.get_attribute("data-rotation") == str(rotation)


# -- the lobby's create form ----------------------------------------------------------------------

def choose_seat(page: Any, seat: int, value: str) -> None:
    """Set seat `seat` of the lobby's create form: "human", "open", a level or a policy from
    its choice, an agent string ("random") under "Other agent"."""
    select = page.get_by_test_id(f"seat-{seat}")
    values = select.evaluate("(s) => [...s.options].map((o) => o.value)")
    if value in values:
        select.select_option(value)
        return
    select.select_option("other")
    page.get_by_test_id(f"seat-other-{seat}").select_option(value)


def open_advanced(page: Any) -> None:
    """Unfold the lobby form's "Advanced" section (seed, starting tile, fixed piles, bounds)."""
    advanced = page.get_by_test_id("advanced")
    if advanced.get_attribute("open") is None:
        advanced.locator("summary").click()
