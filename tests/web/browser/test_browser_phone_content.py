"""Every page on a phone (390×844) with real content: a lobby of many games whose players and
host have the longest names allowed, "My games" full, a leaderboard of long names and many
games, a finished game's replay with its analysis, a table with its help open. Nothing is
wider than the screen (document.documentElement.scrollWidth <= 390) and nothing is cut: every
row, name and column is on screen, even in a box that would scroll sideways."""

from __future__ import annotations

import json
import urllib.request
from datetime import datetime, timezone
from typing import Any

import pytest

from browser_helpers import join_url, screenshot, wait_rendered
from test_browser_phone import PHONE, phone  # noqa: F401 (the phone page fixture)

from boardwright.web.identity import COOKIE
from boardwright.web.names import MAX_LENGTH
from boardwright.web.schema import RATINGS
from boardwright.web.storage import Storage

pytestmark = pytest.mark.browser

WIDTH = PHONE["viewport"]["width"]
# The longest names allowed, in wide letters, with and without spaces.
LONG = ["W" * MAX_LENGTH, "Mmmmmmmmmm Wwwwwwwwwwwww"[:MAX_LENGTH], "Ååååååååååååååååååååååå1",
        "WWWWWWWW WWWWWWWW WWWWWW"]


def fits(page: Any) -> None:
    """No sideways overflow of the page, and no element (text included) past the right edge
    or cut by a box that hides or scrolls its overflow."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= WIDTH
    wide = page.evaluate("""(width) => [...document.querySelectorAll('body *')]
      .filter((e) => {
        if (e.closest('svg, dialog:not([open]), .hidden, details:not([open]) > :not(summary)')) return false;
        const r = e.getBoundingClientRect();
        if (r.width === 0 || getComputedStyle(e).visibility === 'hidden') return false;
        if (r.right > width + 0.5 || r.left < -0.5) return true;
        return e.scrollWidth > e.clientWidth + 1 && ['auto', 'scroll', 'hidden'].includes(getComputedStyle(e).overflowX)
          && e.clientWidth > 0 && !e.matches('.board-area, .board-area *, [data-testid=board], input, select, textarea');
      })
      .map((e) => `${e.tagName}.${e.className} [${e.dataset.testid || ''}] ${Math.round(e.getBoundingClientRect().right)}`)
      .slice(0, 8)""", WIDTH)
    assert not wide, wide


# Whether every word of an element's first text is on one line (not broken: "Carcasso nne").
WHOLE_WORDS = """(e) => {
  const text = e.firstChild;
  let at = 0;
  for (const word of text.textContent.split(' ')) {
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + word.length);
    at += word.length + 1;
    if (new Set([...range.getClientRects()].map((b) => Math.round(b.top))).size > 1) return false;
  }
  return true;
}"""


def post(site: Any, path: str, body: Any, key: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"Cookie": f"{COOKIE}={key}"} if key else {})}
    request = urllib.request.Request(site.url(path), data=json.dumps(body).encode(),
                                     method="POST", headers=headers)
    with urllib.request.urlopen(request, timeout=20) as response:
        cookie = response.headers.get("set-cookie") or ""
        data = json.loads(response.read() or b"null")
    return data, cookie.split(";")[0].split("=", 1)[1] if cookie.startswith(COOKIE) else None


def named(site: Any, name: str) -> tuple[str, str]:
    """A player of that name: (identity id, key)."""
    me, key = post(site, "/api/me", {"name": name})
    return me["id"], key


def test_the_lobby_and_my_games_with_many_games_and_long_names(own_site, phone) -> None:
    site, _ = own_site
    players = [named(site, name) for name in LONG]
    host_id, host = players[0]
    ids = []
    for i in range(14):  # open, running and finished games of every game, hosted by a long name
        game, seats, options = [
            ("carcassonne", ["human", "open", "open", "hard"], {"expansions": ["abbey_mayor"]}),
            ("queens", ["human", "open"], {}),
            ("shogun", ["human", "open", "easy"], {"heroes": ["samurai", "ninja", "miko"]}),
        ][i % 3]
        created, _ = post(site, "/api/games", {"game": game, "seats": seats, "options": options,
                                               "clock": {"minutes": 90, "increment": 30}}, host)
        ids.append(created["id"])
        for seat, (_, key) in zip(range(1, len(seats)), players[1:]):
            if seats[seat] == "open" and i % 2:
                post(site, f"/api/games/{created['id']}/seats/{seat}/take", {}, key)
    finished, _ = post(site, "/api/games", {"game": "queens", "seats": ["random", "random"],
                                            "seed": 4})
    site.wait_finished(finished["id"])
    phone.context.add_cookies([{"name": COOKIE, "value": players[1][1], "url": site.url("/")}])
    phone.goto(site.url("/"))
    phone.wait_for_function("() => document.body?.dataset.ready === 'true'")
    phone.get_by_test_id(f"game-row-{ids[0]}").wait_for()
    phone.get_by_test_id(f"replay-{finished['id']}").wait_for()
    phone.get_by_test_id("my-games-table").wait_for()
    assert phone.locator("[data-testid^=game-row-]").count() == 15
    assert phone.locator("[data-testid^=my-game-title-]").count() == 7  # the seats taken
    assert LONG[0] in phone.get_by_test_id(f"game-row-{ids[1]}").inner_text()  # the host
    assert LONG[1] in phone.get_by_test_id(f"game-row-{ids[1]}").inner_text()  # a seat's name
    fits(phone)
    phone.get_by_test_id(f"game-row-{ids[1]}").scroll_into_view_if_needed()
    screenshot(phone, "phone_lobby_rows")
    cells = phone.locator("[data-testid^=my-game-link-], [data-testid^=my-game-title-]").all()
    assert len(cells) == 14 and all(cell.evaluate(WHOLE_WORDS) for cell in cells)  # not "pl a y"
    phone.get_by_test_id("my-games-table").scroll_into_view_if_needed()
    screenshot(phone, "phone_lobby_my_games")
    phone.get_by_test_id("advanced").locator("summary").click()  # the form unfolded
    fits(phone)
    screenshot(phone, "phone_lobby_full")


def test_a_leaderboard_of_long_names_and_many_games(own_site, phone) -> None:
    site, url = own_site
    ids = [named(site, name)[0] for name in LONG]
    storage = Storage(url)
    stamp = datetime.now(timezone.utc)
    rows = [{"game": "queens", "player": f"id:{identity}", "mu": 40.0 - i, "sigma": 1.5,
             "games": 123_456 + i, "updated": stamp} for i, identity in enumerate(ids)]
    rows += [{"game": "queens", "player": f"bot:mcts:seconds={s}", "mu": 20.0, "sigma": 2.0,
              "games": 98_765, "updated": stamp} for s in ("0.25", "1", "0.5", "2")]
    with storage.engine.begin() as connection:
        connection.execute(RATINGS.insert(), rows)
    storage.dispose()
    phone.goto(site.url("/leaderboard/queens"))
    phone.get_by_test_id("leaderboard-row-8").wait_for()
    fits(phone)
    lines = "(e) => { const r = document.createRange(); r.selectNodeContents(e); " \
            "return new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size; }"
    for rank in (1, 8):  # the numbers on screen, whole, each on one line
        for column in ("games", "rating"):
            cell = phone.get_by_test_id(f"leaderboard-{column}-{rank}")
            box = cell.bounding_box()
            assert box["x"] + box["width"] <= WIDTH and cell.evaluate(lines) == 1
    assert phone.get_by_test_id("leaderboard-games-1").inner_text() == "123456"
    screenshot(phone, "phone_leaderboard_full")


def test_a_replay_with_its_analysis_and_a_table_with_its_help(site, phone) -> None:
    finished = site.create("carcassonne", ["random", "random"],
                           {"draw_order": ["E", "U", "V", "J", "D"]}, seed=5)
    site.wait_finished(finished["id"])
    phone.goto(site.url(f"/replay/{finished['id']}"))
    phone.get_by_test_id("board").wait_for()
    phone.wait_for_function("() => ['none', 'done'].includes(document.body.dataset.analysis)")
    if phone.get_by_test_id("analyse-button").is_visible():
        phone.get_by_test_id("analyse-button").click()
    phone.wait_for_function("() => document.body.dataset.analysis === 'done'", timeout=90_000)
    phone.get_by_test_id("analysis-chart").scroll_into_view_if_needed()
    fits(phone)
    screenshot(phone, "phone_analysis")
    created = site.create("shogun", ["human", "random"], {"max_rounds": 2}, seed=3)
    phone.goto(join_url(site, created, 0))
    wait_rendered(phone)
    phone.get_by_test_id("help-button").click()
    phone.get_by_test_id("help-content").wait_for()
    phone.wait_for_function(
        "() => document.querySelector('[data-testid=help-content]').textContent.length > 100")
    fits(phone)
    screenshot(phone, "phone_help")
