"""Clocks at the web table (web/clocks.py): the time control given at creation, the clock that
runs for the human seat to move only, Fischer increments, and both time-outs with a short
clock: a bot moves for the seat ("bot"), or the seat loses ("lose": the game ends with two
seats, the seat is ranked last and played by the bot with more). The server's clocks run on a
manual time source (`clock_helpers.ManualClock`) the tests move, so every figure is exact however
slow the machine: a time-out comes when the test moves the time past it (the server's timer,
set in real seconds, finds the time up when it next fires)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from clock_helpers import ManualClock
from web_helpers import client, create, game_socket, receive_until, seat_socket, sqlite_url

import boardwright as bw
from boardwright.agents.levels import level_agent
from boardwright.web import clocks as K
from boardwright.web.bots import BotJob, choose_action


def state_where(ws, predicate, timeout: float = 60.0):
    return receive_until(ws, lambda f: f["type"] == "state" and predicate(f), timeout=timeout)


@pytest.fixture
def server_clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def api(tmp_path, server_clock: ManualClock) -> Iterator:
    """The app on a fresh SQLite file, its game clocks on `server_clock`."""
    with client(sqlite_url(tmp_path), clock=server_clock) as test_client:
        yield test_client


@pytest.mark.parametrize("clock, on_timeout, wrong", [
    ({"per_move": 0}, None, "per_move"),
    ({"per_move": "30"}, None, "per_move"),
    ({"per_move": True}, None, "per_move"),
    ({"minutes": 5, "increment": -1}, None, "increment"),
    ({"minutes": 0}, None, "minutes"),
    ({"minutes": 5, "per_move": 3}, None, "clock"),
    ({}, None, "clock"),
    ([30], None, "clock"),
    ({"per_move": 30}, "draw", "on_timeout"),
    (None, "lose", "on_timeout"),
])
def test_a_bad_time_control_is_refused_naming_the_problem(api, clock, on_timeout, wrong) -> None:
    body = {"game": "queens", "seats": ["human", "human"], "clock": clock}
    if on_timeout is not None:
        body["on_timeout"] = on_timeout
    response = api.post("/api/games", json=body)
    assert response.status_code == 400
    assert wrong in response.json()["error"]


def test_parse_control_reads_both_controls_with_defaults() -> None:
    assert K.parse_control(None) is None
    per_move = K.parse_control({"per_move": 30})
    assert (per_move.initial, per_move.on_timeout) == (30.0, "bot")
    fischer = K.parse_control({"minutes": 5, "increment": 3}, "lose")
    assert (fischer.initial, fischer.increment, fischer.on_timeout) == (300.0, 3.0, "lose")
    assert K.TimeControl.from_json(fischer.to_json()) == fischer
    with pytest.raises(bw.InvalidOptionError):
        K.parse_control({"per_move": float("nan")})


def test_bots_alone_have_no_clock(api) -> None:
    response = api.post("/api/games", json={"game": "queens", "seats": ["random", "random"],
                                            "clock": {"per_move": 5}})
    assert response.status_code == 400
    assert "human" in response.json()["error"]


def test_the_clock_runs_only_for_the_human_seat_to_move_once_every_seat_is_taken(
        api, server_clock: ManualClock) -> None:
    created = create(api, "queens", ["human", "human"], seed=1,
                     clock={"minutes": 1, "increment": 5})
    assert api.get(f"/api/games/{created['id']}").json()["clock"] == {
        "minutes": 1.0, "increment": 5.0, "on_timeout": "bot"}
    with seat_socket(api, created, 0) as ws0:
        first = state_where(ws0, lambda f: True)
        assert first["clock"]["running"] is None  # seat 2 has not come: the game waits
        assert first["clock"]["remaining"] == [60.0, 60.0]
        server_clock.advance(30)  # waiting for the second seat costs nobody time
        with seat_socket(api, created, 1) as ws1:
            frame = state_where(ws0, lambda f: f["clock"]["running"] == 0)
            assert frame["clock"]["remaining"] == [60.0, 60.0]
            server_clock.advance(3)
            ws0.send_json({"type": "move", "action": frame["legal_actions"][0], "step": 0})
            after = state_where(ws1, lambda f: f["step"] == 1)
    clock = after["clock"]
    assert clock["running"] == 1
    # the mover spent 3 s and got its 5 s increment; the other seat's time is untouched
    assert clock["remaining"] == [62.0, 60.0]
    stored = api.app.state.storage.get(created["id"])["clock"]
    assert stored["remaining"] == [62.0, 60.0]


def test_a_bot_seat_has_no_clock_and_no_time_runs_while_it_thinks(
        api, server_clock: ManualClock) -> None:
    created = create(api, "queens", ["human", "greedy"], seed=2, clock={"per_move": 30})
    with seat_socket(api, created, 0) as ws:
        frame = state_where(ws, lambda f: f["clock"]["running"] == 0)
        assert frame["clock"]["remaining"][1] is None
        server_clock.advance(12)
        ws.send_json({"type": "move", "action": frame["legal_actions"][0], "step": 0})
        back = state_where(ws, lambda f: f["step"] == 2)
    assert back["clock"]["running"] == 0
    assert back["clock"]["remaining"] == [30.0, None]  # a new turn: 30 s again (per move)


def test_the_time_a_move_takes_to_save_counts_for_nobody(api, server_clock: ManualClock) -> None:
    """The mover's clock stops at its move: the frame shows what is stored, however long the
    save takes (here 0.25 s on the server's clock), and the next seat's time starts after it."""
    manager = api.app.state.manager
    created = create(api, "queens", ["human", "human"], seed=1,
                     clock={"minutes": 1, "increment": 0})
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1:
        frame = state_where(ws0, lambda f: f["clock"]["running"] == 0)
        server_clock.advance(3)
        update = manager.writer.update

        async def slow_update(*args, **kwargs):
            server_clock.advance(0.25)
            return await update(*args, **kwargs)

        manager.writer.update = slow_update
        try:
            ws0.send_json({"type": "move", "action": frame["legal_actions"][0], "step": 0})
            after = state_where(ws1, lambda f: f["step"] == 1)
        finally:
            manager.writer.update = update
    assert after["clock"]["running"] == 1
    assert after["clock"]["remaining"] == [57.0, 60.0]
    assert api.app.state.storage.get(created["id"])["clock"]["remaining"] == [57.0, 60.0]


def test_out_of_time_with_bot_the_easy_bot_moves_for_the_seat(
        api, server_clock: ManualClock) -> None:
    created = create(api, "queens", ["human", "human"], seed=3, clock={"per_move": 1},
                     on_timeout="bot")
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1:
        state_where(ws0, lambda f: f["clock"]["running"] == 0)
        server_clock.advance(1)
        flagged = state_where(ws0, lambda f: 0 in f["clock"]["flagged"])
        assert flagged["legal_actions"] == []  # the bot plays this turn
        assert flagged["clock"]["remaining"][0] == 0.0
        moved = state_where(ws1, lambda f: f["step"] == 1)
    assert moved["last_action"]["seat"] == 0
    assert moved["status"] == "running"
    clock = moved["clock"]
    assert clock["running"] == 1 and clock["flagged"] == [] and clock["lost"] == []
    assert clock["remaining"][0] == 1.0  # its next turn has its second again
    # the stand-in is the easy level's agent: its move is the one that agent makes here
    assert K.STAND_IN == level_agent("easy")
    row = api.app.state.storage.get(created["id"])
    job = BotJob(created["id"], "queens", 2, {}, row["seed"], (), 0, K.STAND_IN)
    assert row["record"][0] == choose_action(job)


def test_out_of_time_with_lose_ends_a_two_seat_game(api, server_clock: ManualClock) -> None:
    created = create(api, "queens", ["human", "human"], seed=4, clock={"per_move": 1},
                     on_timeout="lose")
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1:
        state_where(ws0, lambda f: f["clock"]["running"] == 0)
        server_clock.advance(1)
        over = state_where(ws1, lambda f: f["status"] == "finished")
        ws1.send_json({"type": "move", "action": {"type": "pass"}, "step": 0})
        refused = receive_until(ws1, lambda f: f["type"] == "error")
    assert refused["code"] == "game_over"
    assert over["step"] == 0 and over["current_player"] is None and over["legal_actions"] == []
    clock = over["clock"]
    assert clock["lost"] == [0] and clock["ended"] is True and clock["running"] is None
    assert clock["ranking"] == [1, 0]
    row = api.app.state.storage.get(created["id"])
    assert row["status"] == "finished" and row["clock"]["lost"] == [0]
    assert api.get(f"/api/games/{created['id']}/replay").status_code == 200


def test_out_of_time_with_lose_among_three_the_seat_is_out_and_the_game_goes_on(
        api, server_clock: ManualClock) -> None:
    created = create(api, "queens", ["human", "human", "human"], seed=5,
                     clock={"per_move": 1}, on_timeout="lose")
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1, \
            seat_socket(api, created, 2) as ws2:
        first = state_where(ws0, lambda f: f["clock"]["running"] is not None)
        starter = first["clock"]["running"]
        server_clock.advance(1)
        out = state_where(ws1, lambda f: f["clock"]["lost"] == [starter])
        assert out["status"] == "running"  # two seats are left: they play on
        # the bot plays the lost seat's turn, then the next seat's clock runs
        turned = state_where(ws2, lambda f: f["step"] >= 1 and f["clock"]["running"] is not None)
        assert turned["last_action"]["seat"] == starter
        second = turned["clock"]["running"]
        assert second != starter
        server_clock.advance(1)
        over = state_where(ws0, lambda f: f["status"] == "finished")
    clock = over["clock"]
    assert clock["lost"] == [starter, second]
    third = ({0, 1, 2} - {starter, second}).pop()
    assert clock["ranking"] == [third, second, starter]  # the first to lose ranks last


def test_ranking_puts_the_seats_still_playing_by_score_then_the_losers() -> None:
    class Live:
        players = 4
        clock = K.Clock(K.TimeControl(per_move=5), [0.0] * 4, lost=[2, 0])

    assert K.ranking(Live(), [10, 3, 99, 7]) == [3, 1, 0, 2]


def test_a_clean_shutdown_keeps_the_running_time(tmp_path, server_clock: ManualClock) -> None:
    url = sqlite_url(tmp_path)
    with client(url, clock=server_clock) as api:
        created = create(api, "queens", ["human", "human"], seed=6,
                         clock={"minutes": 1, "increment": 0})
        with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1):
            state_where(ws0, lambda f: f["clock"]["running"] == 0)
            server_clock.advance(0.6)
    server_clock.advance(100)  # the server is down: nobody's time runs
    with client(url, clock=server_clock) as api:
        stored = api.app.state.storage.get(created["id"])["clock"]
        assert stored["remaining"] == [59.4, 60.0]  # the 0.6 s spent thinking are counted
        with game_socket(api, created["id"]) as spectator:
            frame = state_where(spectator, lambda f: True)
        server_clock.advance(2)
        with game_socket(api, created["id"]) as spectator:
            later = state_where(spectator, lambda f: True)
    assert frame["clock"]["running"] == 0
    assert frame["clock"]["remaining"] == [59.4, 60.0]  # it runs again from where it stood
    assert later["clock"]["remaining"] == [57.4, 60.0]


@given(st.lists(st.tuples(st.floats(0, 20), st.integers(0, 2), st.booleans()), max_size=40),
       st.floats(0, 5))
def test_a_clock_counts_exactly_the_time_each_seat_ran(events, increment) -> None:
    """Fischer accounting: each seat's time is its start, less the time its clock ran (never
    below zero), plus one increment per finished turn, whatever the order of events."""
    control = K.TimeControl(minutes=1, increment=increment)
    clock = K.Clock.new(control, 3)
    expected = [60.0] * 3
    now = 0.0
    for pause, seat, ends in events:
        running = clock.turn
        now += pause
        clock.run(seat, now)
        if running is not None:
            expected[running] = max(0.0, expected[running] - pause)
        if ends:
            clock.end_turn(seat)
            expected[seat] += increment
    for seat in range(3):
        assert clock.left(seat, now) == pytest.approx(expected[seat], abs=1e-6)
        assert clock.left(seat, now) >= 0.0
    assert K.Clock.from_json(clock.to_json()).remaining == pytest.approx(clock.remaining,
                                                                         abs=1e-3)


def test_the_form_description_names_what_creation_accepts(api) -> None:
    form = K.form()
    assert form["on_timeout"]["choices"] == ["bot", "lose"]
    choices = form["clock"]["choices"]
    for fields in choices.values():  # each control built from its defaults is accepted
        clock = {name: spec["default"] for name, spec in fields.items()}
        response = api.post("/api/games", json={"game": "queens", "seats": ["human", "human"],
                                                "clock": clock, "on_timeout": "lose"})
        assert response.status_code == 201, response.text
        too_big = {name: spec["max"] * 2 for name, spec in fields.items()}
        assert K.parse_control(clock) is not None
        with pytest.raises(bw.InvalidOptionError):
            K.parse_control(too_big)
