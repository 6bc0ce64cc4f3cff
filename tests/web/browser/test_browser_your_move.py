"""Whose move it is, seen from another tab, in Chromium: the tab's title and favicon while it is
the seat's move (and back after it), the chime when the move arrives (on by default, its switch
remembered), and the desktop notification a player opts into (asked only then, shown only while
the tab is hidden). The chime's WebAudio and the Notification constructor are stubs counting
their calls; the notification permission is Playwright's grant."""

from __future__ import annotations

import random

import pytest

from browser_helpers import SHORT_PILE, carcassonne_turn, join_url, wait_rendered

pytestmark = pytest.mark.browser

MARK = "● Your move — "

# Counts each note the chime starts (two per chime) in window.__notes.
AUDIO_STUB = """
window.__notes = 0;
window.AudioContext = class {
  constructor() { this.state = 'running'; this.currentTime = 0; this.destination = {}; }
  resume() { return Promise.resolve(); }
  createOscillator() {
    return {type: '', frequency: {value: 0}, connect() {}, start() { window.__notes += 1; }, stop() {}};
  }
  createGain() {
    return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect() {}};
  }
};
"""
# The browser's Notification, its permission unasked until requestPermission (then whatever
# Playwright granted); each notification shown is kept in window.__notices.
NOTIFICATION_STUB = """
(() => {
  const Real = window.Notification;
  window.__notices = [];
  window.__asked = 0;
  window.Notification = class {
    constructor(title, options) { window.__notices.push({title, body: (options || {}).body}); }
    static get permission() {
      return window.__asked || localStorage.getItem('boardwright.turnNotify') === 'on' ? Real.permission : 'default';
    }
    static requestPermission() { window.__asked += 1; return Real.requestPermission(); }
  };
})();
"""


def seated(site, new_page, created, seat):
    page = new_page()
    page.context.grant_permissions(["notifications"], origin=site.base)
    page.context.add_init_script(AUDIO_STUB)
    page.context.add_init_script(NOTIFICATION_STUB)
    page.goto(join_url(site, created, seat))
    wait_rendered(page)
    return page


def play_turn(page, rng):
    """The seat's whole turn (a tile and no figure), until the move is the other seat's."""
    while page.evaluate("() => document.body.dataset.myTurn") == "true":
        carcassonne_turn(page, rng, deploy=False)


def alert_state(page):
    return page.evaluate("""() => ({title: document.title, icon: document.querySelector('link[rel=icon]').getAttribute('href'),
        notes: window.__notes, notices: window.__notices.length, asked: window.__asked})""")


def wait_my_move(page, mine: bool):
    page.wait_for_function("(m) => document.body.dataset.turnAlert === (m ? 'on' : 'off')", arg=mine)


def test_title_favicon_chime_and_notification_follow_the_move(site, new_page):
    title = next(g["title"] for g in site.request("GET", "/api/catalog")["games"] if g["name"] == "carcassonne")
    created = site.create("carcassonne", ["human", "human"], {"draw_order": SHORT_PILE}, seed=31)
    red, blue = seated(site, new_page, created, 0), seated(site, new_page, created, 1)
    rng = random.Random(3)
    wait_my_move(red, True)
    wait_my_move(blue, False)
    # opening a page on one's move marks the tab but rings nothing
    assert alert_state(red) == {"title": f"{MARK}{title} — boardwright", "icon": "/static/img/favicon-turn.svg",
                                "notes": 0, "notices": 0, "asked": 0}
    assert alert_state(blue) == {"title": f"{title} — boardwright", "icon": "/static/img/favicon.svg",
                                 "notes": 0, "notices": 0, "asked": 0}
    assert red.get_by_test_id("turn-sound").is_checked()  # on by default
    assert not red.get_by_test_id("turn-notify").is_checked()  # off until asked for
    # Blue asks for notifications: the browser's permission is asked then, not before
    blue.get_by_test_id("turn-notify").check()
    blue.wait_for_function("() => window.__asked === 1 && localStorage.getItem('boardwright.turnNotify') === 'on'")
    assert blue.get_by_test_id("turn-notify").is_checked()
    # Blue's tab is hidden; Red moves: Blue's tab says so, chimes, and notifies
    blue.evaluate("() => Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true})")
    play_turn(red, rng)
    wait_my_move(blue, True)
    blue.wait_for_function("() => window.__notices.length === 1")
    assert alert_state(blue) == {"title": f"{MARK}{title} — boardwright", "icon": "/static/img/favicon-turn.svg",
                                 "notes": 2, "notices": 1, "asked": 1}
    assert blue.evaluate("() => window.__notices[0].title") == f"Your move — {title}"
    wait_my_move(red, False)
    assert alert_state(red)["title"] == f"{title} — boardwright"
    assert alert_state(red)["icon"] == "/static/img/favicon.svg"
    # Blue switches the chime off and looks at the tab again, then moves: Red's move chimes there
    blue.get_by_test_id("turn-sound").uncheck()
    blue.evaluate("() => Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true})")
    play_turn(blue, rng)
    wait_my_move(red, True)
    red.wait_for_function("() => window.__notes === 2")
    assert alert_state(red)["notices"] == 0  # Red never asked for notifications
    wait_my_move(blue, False)
    # Red moves: Blue's move again, silent (switched off) and no notification (tab visible)
    play_turn(red, rng)
    wait_my_move(blue, True)
    assert alert_state(blue)["notes"] == 2 and alert_state(blue)["notices"] == 1
    # the choices outlive the page
    blue.reload()
    wait_rendered(blue)
    assert not blue.get_by_test_id("turn-sound").is_checked()
    assert blue.get_by_test_id("turn-notify").is_checked()


def test_a_spectator_has_no_switches_and_an_unmarked_title(site, page):
    created = site.create("queens", ["human", "random"], seed=5)
    page.goto(site.url(f"/play/{created['id']}"))
    wait_rendered(page)
    assert page.get_by_test_id("turn-alerts").is_hidden()
    assert not page.title().startswith(MARK)
    assert page.evaluate("() => document.body.dataset.turnAlert") == "off"


@pytest.mark.parametrize("game, options", [("queens", {}), ("shogun", {"max_rounds": 2}),
                                           ("goofspiel", {"cards": 3})])
def test_every_game_marks_the_tab_on_its_players_move(site, new_page, game, options):
    """Queens, Rise of the Shogun and a plug-in game (the generic page): the mark comes with
    the seat's move and goes with it."""
    title = next(g["title"] for g in site.request("GET", "/api/catalog")["games"] if g["name"] == game)
    created = site.create(game, ["human", "human"], options, seed=4)
    pages = [new_page(), new_page()]
    for seat, page in enumerate(pages):
        page.goto(join_url(site, created, seat))
        wait_rendered(page)
    mover = next(p for p in pages if p.evaluate("() => document.body.dataset.myTurn") == "true")
    other = pages[1 - pages.index(mover)]
    assert mover.title() == f"{MARK}{title} — boardwright"
    assert other.title() == f"{title} — boardwright"
    step = mover.evaluate("() => document.body.dataset.rendered")
    if game != "goofspiel":  # (the generic page opens the list of moves itself)
        mover.get_by_test_id("all-actions-toggle").click()
    mover.get_by_test_id("action-0").click()
    mover.wait_for_function("(s) => document.body.dataset.rendered !== s", arg=step)
    # marked exactly while the seat is to move (a Shogun seat may decide several steps)
    still = mover.evaluate("() => document.body.dataset.myTurn") == "true"
    assert mover.title() == f"{MARK if still else ''}{title} — boardwright"
    for page in pages:
        page.wait_for_function("() => (document.body.dataset.myTurn === 'true')"
                               " === document.title.startsWith('● Your move')")
