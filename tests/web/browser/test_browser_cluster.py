"""Two players on two `boardwright serve` processes sharing one PostgreSQL (the throwaway one
of tests/web/conftest.py), in Chromium: each page shows the other player connected, a chat
message written on one reaches the other, and an undo asked on one is accepted on the other."""

from __future__ import annotations

import random

import pytest

from browser_helpers import SHORT_PILE, Site, body_data, carcassonne_turn, join_url, wait_rendered
from web_helpers import ServerProcess

pytestmark = pytest.mark.browser


@pytest.fixture
def two_servers(postgres_db, tmp_path):
    started: list[ServerProcess] = []
    try:
        for number in range(2):
            started.append(ServerProcess(postgres_db, tmp_path / f"server{number}.log",
                                         "--bot-workers", "1", "--bot-delay", "0").start())
        yield [Site(server.base) for server in started]
    finally:
        for server in started:
            server.kill()


def test_players_on_two_processes_see_each_other_chat_and_agree_an_undo(two_servers, new_page):
    a, b = two_servers
    created = a.create("carcassonne", ["human", "human"], {"draw_order": SHORT_PILE}, seed=3)
    red, blue = new_page(), new_page()
    red.goto(join_url(a, created, 0))
    blue.goto(join_url(b, created, 1))
    for page in (red, blue):
        wait_rendered(page)
        page.wait_for_function(
            "() => document.querySelectorAll('[data-testid^=player-] .dot.on').length === 2")
    blue.get_by_test_id("chat-input").fill("hello from the other process")
    blue.get_by_test_id("chat-input").press("Enter")
    red.wait_for_function("() => document.querySelectorAll('[data-testid^=chat-message-]').length === 1")
    assert red.get_by_test_id("chat-text").inner_text() == "hello from the other process"
    red.wait_for_function("() => document.body.dataset.myTurn !== undefined")
    mover, other = (red, blue) if body_data(red, "myTurn") == "true" else (blue, red)
    assert carcassonne_turn(mover, random.Random(4)) == "place"  # the tile is laid
    mover.get_by_test_id("undo").click()
    other.wait_for_function(
        "() => document.querySelector('[data-testid=undo-request]').dataset.state === 'asking'")
    assert "asks to take back their last move" in other.get_by_test_id("undo-request").inner_text()
    other.get_by_test_id("undo-accept").click()
    for page in (mover, other):
        page.wait_for_function("() => document.body.dataset.step === '0'")
    assert body_data(mover, "myTurn") == "true"
    assert other.get_by_test_id("undo-request").is_hidden()
