"""How a game ends, in Chromium: the first mover's clock runs however the table fills
(invitation links, the lobby's Take seat, bots, a restart of the server in between); Resign
with its confirmation; claiming a game the other player left; the end box naming the reason
(resignation, time, score) with nobody left to move; and the replay's final step with the final
scoring. The server's clocks and presence run on a manual clock and each page's clock is
Playwright's, so no test waits on the wall clock."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest
from conftest import serving

from browser_helpers import SHORT_PILE, choose_name, join_url, screenshot, unique, wait_rendered
from clock_helpers import ManualClock

pytestmark = pytest.mark.browser


def create(site, game, seats, **body):
    return site.request("POST", "/api/games", {"game": game, "seats": seats, "seed": 3, **body})


def frame_of(page, key: str):
    """A field of the last state frame the page received."""
    return page.evaluate(f"() => window.boardwright.table.frame.{key}")


def wait_mover_clock(page) -> None:
    """Until the page's last frame shows the clock of the human seat to move running."""
    page.wait_for_function(
        "() => { const f = window.boardwright && window.boardwright.table.frame;"
        " return !!f && f.current_player !== null && f.clock"
        " && f.clock.remaining[f.current_player] !== null"
        " && f.clock.running === f.current_player; }")


def take_seat(page, site, game_id: str, seat: int) -> None:
    """Choose a name in the lobby, then the lobby's Take seat button of `seat`."""
    choose_name(page, site, unique("Taker"))
    page.wait_for_function("() => document.body?.dataset.ready === 'true'")
    page.get_by_test_id(f"take-seat-{game_id}-{seat}").click()
    page.wait_for_url(f"**/play/{game_id}?seat={seat}")
    wait_rendered(page)


@pytest.mark.parametrize("seats", [["human", "open"], ["open", "open"], ["open", "random"]])
def test_the_first_movers_clock_runs_however_the_table_fills(manual_clock_site, new_page, seats):
    site, _ = manual_clock_site
    created = create(site, "queens", seats, clock={"per_move": 4}, on_timeout="bot")
    pages = []
    for seat, kind in enumerate(seats):
        page = new_page()
        if kind == "human":
            page.goto(join_url(site, created, seat))
            wait_rendered(page)
        elif kind == "open":
            take_seat(page, site, created["id"], seat)
        else:
            continue
        pages.append(page)
    for page in pages:
        wait_mover_clock(page)
        mover = frame_of(page, "current_player")
        assert page.get_by_test_id(f"clock-{mover}").get_attribute("data-running") == "true"
        assert frame_of(page, "clock.remaining")[mover] == 4.0


def test_the_clock_runs_when_the_last_seat_is_taken_after_a_restart(tmp_path: Path, new_page):
    clock = ManualClock()
    db = tmp_path / "restart.db"
    with serving(db, clock=clock) as site:
        created = create(site, "queens", ["human", "open"], clock={"per_move": 4})
        first = new_page()
        first.goto(join_url(site, created, 0))
        wait_rendered(first)
        assert frame_of(first, "clock.running") is None  # seat 2 is still open
    with serving(db, clock=clock) as site:  # the server restarted (on another port)
        first.goto(join_url(site, created, 0))
        wait_rendered(first)
        second = new_page()
        take_seat(second, site, created["id"], 1)
        for page in (first, second):
            wait_mover_clock(page)


def test_resign_asks_for_confirmation_and_the_end_box_says_who_resigned(site, new_page):
    created = create(site, "queens", ["human", "human"])
    pages = [new_page(), new_page()]
    for seat, page in enumerate(pages):
        page.goto(join_url(site, created, seat))
        wait_rendered(page)
    for page in pages:
        page.wait_for_function("() => document.body.dataset.status === 'running'")
    mine = pages[0]
    mine.get_by_test_id("resign").click()
    confirm = mine.get_by_test_id("resign-confirm")
    assert "The other player wins" in confirm.inner_text()
    mine.get_by_test_id("resign-no").click()  # changed my mind: nothing is sent
    assert confirm.count() == 0
    assert site.summary(created["id"])["status"] == "running"
    mine.get_by_test_id("resign").click()
    mine.get_by_test_id("resign-yes").click()
    for page in pages:
        page.wait_for_function("() => document.body.dataset.status === 'finished'")
        reason = page.get_by_test_id("end-reason")
        assert reason.get_attribute("data-reason") == "resignation"
        assert reason.inner_text() == "Blue wins: Red resigned."
        assert page.get_by_test_id("final-note-0").inner_text() == "resigned"
        assert page.get_by_test_id("final-place-1").inner_text() == "1."
        assert page.get_by_test_id("resign").is_hidden()
        assert page.get_by_test_id("status").inner_text() == "Game over."
        assert page.locator("#players .player.current").count() == 0
    screenshot(pages[1], "table_resigned")


def test_a_game_the_other_left_is_claimed_after_the_countdown(manual_clock_site, new_page):
    site, server_clock = manual_clock_site
    created = create(site, "queens", ["human", "human"])
    stayer, leaver = new_page(), new_page()
    stayer.clock.install()
    stayer.clock.pause_at(datetime.now() + timedelta(seconds=1))
    for seat, page in ((0, stayer), (1, leaver)):
        page.goto(join_url(site, created, seat))
        wait_rendered(page)
    stayer.wait_for_function("() => document.body.dataset.status === 'running'")
    leaver.context.close()  # the other player leaves
    wait = stayer.get_by_test_id("claim-wait")
    wait.wait_for()
    assert "within 60 s" in wait.inner_text()
    assert frame_of(stayer, "abandon.wait") == 60.0
    stayer.clock.run_for(59_000)
    assert "within 1 s" in wait.inner_text()
    assert stayer.get_by_test_id("claim-win").count() == 0
    server_clock.advance(60)
    stayer.clock.run_for(1_000)
    stayer.get_by_test_id("claim-win").click()
    stayer.get_by_test_id("claim-yes").click()  # confirmed
    stayer.wait_for_function("() => document.body.dataset.status === 'finished'")
    reason = stayer.get_by_test_id("end-reason")
    assert reason.get_attribute("data-reason") == "abandonment"
    assert reason.inner_text() == "Red claimed the win: Blue left the game."
    assert stayer.get_by_test_id("final-note-1").inner_text() == "left the game"
    assert stayer.get_by_test_id("claim").is_hidden()


def test_a_loss_on_time_is_the_end_boxs_reason_and_no_tile_is_left_drawn(manual_clock_site,
                                                                         new_page):
    site, server_clock = manual_clock_site
    created = create(site, "carcassonne", ["human", "random"], clock={"per_move": 1},
                     on_timeout="lose", options={"draw_order": SHORT_PILE})
    page = new_page()
    page.goto(join_url(site, created, 0))
    wait_rendered(page)
    wait_mover_clock(page)
    assert not page.get_by_test_id("drawn-tile").evaluate("(e) => e.classList.contains('empty')")
    server_clock.advance(1)
    page.wait_for_function("() => document.body.dataset.status === 'finished'")
    reason = page.get_by_test_id("end-reason")
    assert reason.get_attribute("data-reason") == "time"
    assert reason.inner_text() == "Blue wins on time: Red ran out of time."
    assert page.get_by_test_id("final-note-0").inner_text() == "lost on time"
    # nobody is to move after the end: no turn marker, no tile still to place
    assert frame_of(page, "current_player") is None
    assert frame_of(page, "view.current_player") is None
    assert page.get_by_test_id("drawn-tile").evaluate("(e) => e.classList.contains('empty')")
    assert page.locator("#players .player.current").count() == 0
    assert page.locator("[data-testid^=score-].current").count() == 0


def test_a_game_won_on_score_and_its_replay_ending_on_the_final_scoring(site, new_page):
    created = site.create("carcassonne", ["random", "random"], {"draw_order": SHORT_PILE}, seed=4)
    summary = site.wait_finished(created["id"])
    result = summary["result"]
    assert result["reason"] == "score"
    page = new_page()
    page.goto(site.url(f"/play/{created['id']}"))
    page.wait_for_function("() => document.body.dataset.status === 'finished'")
    reason = page.get_by_test_id("end-reason")
    assert reason.get_attribute("data-reason") == "score"
    assert reason.inner_text().endswith("on score.")
    winners = result["winners"]
    for seat in winners:  # level winners drew
        assert page.get_by_test_id(f"final-note-{seat}").inner_text() == \
            ("★ winner" if len(winners) == 1 else "= draw")
    labels = page.locator("[data-testid^=final-label-]").count()
    assert labels > 0
    page.goto(site.url(f"/replay/{created['id']}"))
    page.wait_for_function("() => document.body?.dataset.ready === 'true'")
    page.get_by_test_id("replay-last").click()
    page.wait_for_function("() => document.body.dataset.step === document.body.dataset.steps")
    shown = page.get_by_test_id("replay-result")
    assert shown.get_attribute("data-reason") == "score"
    assert shown.inner_text().endswith("on score.")
    # the final position with its figures and the final scoring, as at the table
    assert page.locator("[data-testid^=final-label-]").count() == labels
