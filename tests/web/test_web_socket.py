"""The websocket table: seats and spectators, moves broadcast with per-seat views, every error
code, limits, undo, bots, reconnection and presence."""

from __future__ import annotations

import json
import time

import pytest
from starlette.websockets import WebSocketDisconnect
from plugin_agents import GATE_ENV, GatedAgent
from web_helpers import (
    client, create, engine_state, receive, receive_until, seat_socket, game_socket, sqlite_url,
)

import boardwright as bw
from boardwright.web import protocol as P


@pytest.fixture
def api(tmp_path):
    with client(sqlite_url(tmp_path)) as test_client:
        yield test_client


def is_state(frame):
    return frame["type"] == "state"


def expect_error(ws, code):
    frame = receive_until(ws, lambda f: f["type"] == "error")
    assert frame["code"] == code, frame
    assert frame["message"]
    return frame


def test_a_seat_gets_its_view_and_legal_moves_a_spectator_only_the_public_view(api) -> None:
    created = create(api, "carcassonne", ["human", "human"], seed=4)
    storage = api.app.state.storage
    state = engine_state(storage, created["id"])
    with seat_socket(api, created, 0) as ws0:
        frame = receive(ws0)
        assert set(frame) == {"type", "game", "seat", "step", "status", "current_player", "view",
                              "legal_actions", "descriptions", "scores", "seats",
                              "last_action", "can_undo", "hints", "rated", "clock",
                              "undo_request", "undo_refused", "table", "result",
                              "can_resign", "abandon"}
        assert frame["game"] == "carcassonne" and frame["seat"] == 0 and frame["step"] == 0
        # the game's public table data: projected scores (none yet), no figure spot to place
        assert frame["table"] == state.game.table_data(state)
        assert frame["table"]["projected_scores"] == [0, 0] and frame["table"]["spots"] == []
        assert frame["current_player"] == 0 and frame["view"] == state.view(0)
        assert frame["legal_actions"] == [a.to_json() for a in state.legal_actions()]
        assert len(frame["descriptions"]) == len(frame["legal_actions"])
        assert all(isinstance(t, str) and t for t in frame["descriptions"])
        assert frame["scores"] == [0, 0] and frame["last_action"] is None
        assert frame["can_undo"] is False
        assert frame["seats"] == [{"seat": 0, "kind": "human", "connected": True},
                                  {"seat": 1, "kind": "human", "connected": False}]
        with game_socket(api, created['id']) as spectator:
            watched = receive(spectator)
            assert watched["seat"] is None and watched["view"] == state.view(None)
            assert watched["legal_actions"] == [] and watched["descriptions"] == []
            with seat_socket(api, created, 1) as ws1:
                other = receive(ws1)
                assert other["seat"] == 1 and other["view"] == state.view(1)
                assert other["legal_actions"] == []  # not seat 1's turn
                # seat 1 arriving is shown to the others
                seen = receive_until(ws0, is_state)
                assert seen["seats"][1]["connected"] is True and seen["step"] == 0


def test_an_accepted_move_is_saved_then_sent_to_everyone_with_their_own_view(api) -> None:
    created = create(api, "carcassonne", ["human", "human"], seed=9)
    storage = api.app.state.storage
    with seat_socket(api, created, 0) as ws0, \
            seat_socket(api, created, 1) as ws1, \
            game_socket(api, created['id']) as spectator:
        first = receive(ws0)
        receive(ws1)
        receive(spectator)
        receive_until(ws0, lambda f: f["seats"][1]["connected"])
        action = first["legal_actions"][0]
        ws0.send_json({"type": "move", "action": action, "step": 0})
        frames = {}
        for name, ws in (("0", ws0), ("1", ws1), ("s", spectator)):
            frames[name] = receive_until(ws, lambda f: is_state(f) and f["step"] == 1)
        assert storage.get(created["id"])["record"] == [action]
        state = engine_state(storage, created["id"])
        assert frames["0"]["view"] == state.view(0)
        assert frames["1"]["view"] == state.view(1)
        assert frames["s"]["view"] == state.view(None)
        for frame in frames.values():
            assert frame["last_action"]["seat"] == 0
            assert frame["last_action"]["action"] == action
            assert frame["last_action"]["text"].startswith("places ")
            assert frame["current_player"] == state.current_player == 0  # now the follower
        assert frames["0"]["legal_actions"] == [a.to_json() for a in state.legal_actions()]
        assert frames["1"]["legal_actions"] == [] and frames["s"]["legal_actions"] == []


def test_every_refusal_has_its_error_code_and_changes_nothing(api) -> None:
    created = create(api, "carcassonne", ["human", "human"], seed=2)
    storage = api.app.state.storage
    with seat_socket(api, created, 0) as ws0, \
            seat_socket(api, created, 1) as ws1:
        frame = receive(ws0)
        receive(ws1)
        legal = frame["legal_actions"]
        # malformed frames: the connection stays open
        for bad in ("not json", "[1, 2]", '"move"', "{}", '{"type": "jump"}',
                    '{"type": "move"}', '{"type": "move", "action": [1]}',
                    '{"type": "move", "action": {}, "step": "3"}', "{" * 5000):
            ws0.send_text(bad)
            expect_error(ws0, P.MALFORMED)
        ws0.send_bytes(b"\xff\xfe")
        expect_error(ws0, P.MALFORMED)
        # an action the game cannot parse
        ws0.send_json({"type": "move", "action": {"type": "teleport"}, "step": 0})
        assert "cannot be read" in expect_error(ws0, P.MALFORMED)["message"]
        # a well-formed but illegal action: the engine's reason
        ws0.send_json({"type": "move", "action": {"type": "place", "x": 40, "y": 40,
                                                  "rotation": 0}, "step": 0})
        assert expect_error(ws0, P.ILLEGAL_ACTION)["message"]
        # the other seat, out of turn
        ws1.send_json({"type": "move", "action": legal[0], "step": 0})
        expect_error(ws1, P.NOT_YOUR_TURN)
        # a move for a position the client no longer sees
        ws0.send_json({"type": "move", "action": legal[0], "step": 7})
        assert "step 0" in expect_error(ws0, P.STALE)["message"]
        # too large
        ws0.send_text(json.dumps({"type": "ping", "pad": "x" * (P.MAX_FRAME_BYTES + 1)}))
        expect_error(ws0, P.TOO_LARGE)
        ws0.send_json({"type": "ping"})
        assert receive_until(ws0, lambda f: f["type"] != "state") == {"type": "pong"}
        assert storage.get(created["id"])["record"] == []
        # the connection still plays after all that
        ws0.send_json({"type": "move", "action": legal[0], "step": 0})
        assert receive_until(ws0, is_state)["step"] == 1


def test_spectators_and_bad_tokens_cannot_play(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=1)
    with game_socket(api, created['id']) as spectator:
        frame = receive(spectator)
        state = engine_state(api.app.state.storage, created["id"])
        action = state.legal_actions()[0].to_json()
        spectator.send_json({"type": "move", "action": action, "step": 0})
        expect_error(spectator, P.BAD_TOKEN)
        spectator.send_json({"type": "undo"})
        expect_error(spectator, P.BAD_TOKEN)
        assert frame["seat"] is None
    with game_socket(api, created["id"], "forged") as ws:
        assert receive(ws)["code"] == P.BAD_TOKEN
        with pytest.raises(ConnectionError, match=str(P.CLOSE_BAD_TOKEN)):
            receive(ws)
    other = create(api, "queens", ["human", "human"], seed=1)
    token_elsewhere = other["seats"][0]["token"]
    with game_socket(api, created["id"], token_elsewhere) as ws:
        assert receive(ws)["code"] == P.BAD_TOKEN
    with api.websocket_connect("/ws/games/nosuchgame") as ws:
        assert receive(ws)["type"] == "error"
        with pytest.raises(ConnectionError, match=str(P.CLOSE_UNKNOWN_GAME)):
            receive(ws)
    assert api.app.state.storage.get(created["id"])["record"] == []


def test_a_seat_token_travels_in_the_handshake_never_in_the_address(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=1)
    token = created["seats"][0]["token"]
    with seat_socket(api, created, 0) as ws:
        assert ws.accepted_subprotocol == P.SUBPROTOCOL  # what a browser needs to hear back
        assert receive(ws)["seat"] == 0
    with game_socket(api, created["id"]) as ws:
        assert ws.accepted_subprotocol is None
        assert receive(ws)["seat"] is None
    # the address is logged by every server and proxy: a token there is refused, not used
    with api.websocket_connect(f"/ws/games/{created['id']}?token={token}") as ws:
        refusal = receive(ws)
        assert refusal["code"] == P.BAD_TOKEN and "address" in refusal["message"]
        with pytest.raises(ConnectionError, match=str(P.CLOSE_BAD_TOKEN)):
            receive(ws)


def test_rate_limit_refuses_frames_beyond_twenty_per_second(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=1)
    with seat_socket(api, created, 0) as ws:
        receive(ws)
        for _ in range(40):
            ws.send_json({"type": "ping"})
        replies = [receive(ws) for _ in range(40)]
        pongs = sum(1 for r in replies if r == {"type": "pong"})
        limited = [r for r in replies if r.get("code") == P.RATE_LIMITED]
        assert pongs + len(limited) == 40
        assert len(limited) >= 40 - P.RATE_LIMIT - 5 and pongs >= P.RATE_LIMIT


def test_a_flood_is_disconnected(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=1)
    with seat_socket(api, created, 0) as ws:
        receive(ws)
        for _ in range(P.RATE_LIMIT + P.FLOOD_CLOSE_AFTER + 10):
            ws.send_text("x")
        with pytest.raises(ConnectionError, match=str(P.CLOSE_FLOOD)):
            while True:
                receive(ws)


def test_rate_limiter_refills() -> None:
    limiter = P.RateLimiter(clock=lambda: 0.0)
    assert all(limiter.allow(0.0) for _ in range(P.RATE_LIMIT))
    assert not limiter.allow(0.0)
    assert limiter.allow(0.06)  # 20 per second: one more after 50 ms
    assert not limiter.allow(0.06)
    assert sum(limiter.allow(1.5) for _ in range(30)) == P.RATE_LIMIT


def test_game_over_refuses_moves(api) -> None:
    created = create(api, "carcassonne", ["human", "random"], seed=6)
    with seat_socket(api, created, 0) as ws:
        frame = receive(ws)
        while frame["status"] != "finished":
            if frame["legal_actions"]:
                time.sleep(1.1 / P.RATE_LIMIT)  # a human's pace: within the rate limit
                ws.send_json({"type": "move", "action": frame["legal_actions"][-1],
                              "step": frame["step"]})
            frame = receive_until(ws, is_state, timeout=60)
        assert frame["current_player"] is None and frame["legal_actions"] == []
        assert frame["can_undo"] is False
        ws.send_json({"type": "move", "action": {"type": "pass"}, "step": frame["step"]})
        expect_error(ws, P.GAME_OVER)
        ws.send_json({"type": "undo"})
        expect_error(ws, P.GAME_OVER)


def test_undo_takes_back_the_humans_move_and_the_bot_replies(api) -> None:
    created = create(api, "carcassonne", ["human", "greedy"], seed=8)
    storage = api.app.state.storage
    with seat_socket(api, created, 0) as ws:
        frame = receive(ws)
        assert frame["can_undo"] is False
        ws.send_json({"type": "undo"})
        assert "nothing to undo" in expect_error(ws, P.ILLEGAL_ACTION)["message"]
        for _ in range(4):  # the human decides, the bot replies when it is its turn
            ws.send_json({"type": "move", "action": frame["legal_actions"][0],
                          "step": frame["step"]})
            previous = frame["step"]
            frame = receive_until(ws, lambda f: is_state(f) and f["current_player"] == 0
                                  and f["step"] > previous)
        assert frame["can_undo"] is True
        record = storage.get(created["id"])["record"]
        step = frame["step"]
        assert len(record) == step
        actors = [actor(storage, created["id"], i) for i in range(step)]
        assert set(actors) == {0, 1} and actors[-1] == 1
        ws.send_json({"type": "undo"})
        undone = receive_until(ws, lambda f: is_state(f) and f["step"] < step)
        # back to the human's last decision: the bot's replies after it are gone
        last_human = max(i for i in range(step) if actors[i] == 0)
        assert undone["step"] == last_human
        assert storage.get(created["id"])["record"] == record[:last_human]
        assert undone["view"] == engine_state(storage, created["id"]).view(0)
        assert undone["current_player"] == 0 and undone["legal_actions"]
        # the game goes on from there
        ws.send_json({"type": "move", "action": undone["legal_actions"][0],
                      "step": undone["step"]})
        assert receive_until(ws, is_state)["step"] == undone["step"] + 1


def actor(storage, game_id, index):
    return engine_state(storage, game_id, index).current_player


def test_undo_with_two_humans_is_a_request_not_a_take_back(api) -> None:
    """The free undo is for one human against bots; with two humans an undo asks the other
    seat (test_web_table.py plays the whole agreement)."""
    created = create(api, "queens", ["human", "human"], seed=1)
    with seat_socket(api, created, 0) as ws:
        frame = receive(ws)
        ws.send_json({"type": "move", "action": frame["legal_actions"][0], "step": 0})
        frame = receive_until(ws, lambda f: is_state(f) and f["step"] == 1)
        assert frame["can_undo"] is True
        ws.send_json({"type": "undo"})
        frame = receive_until(ws, lambda f: is_state(f) and f["undo_request"] is not None)
        assert frame["step"] == 1 and frame["undo_request"]["waiting"] == [1]


@pytest.mark.parametrize("game, seats", [
    ("carcassonne", ["random", "greedy"]),
    ("queens", ["greedy", "random"]),
    ("shogun", ["random", "random"]),
])
def test_a_bot_game_runs_to_the_end_on_the_server(api, game, seats) -> None:
    created = create(api, game, seats, seed=3)
    with game_socket(api, created['id']) as spectator:
        frames = []
        final = receive_until(spectator, lambda f: is_state(f) and f["status"] == "finished",
                              timeout=240, seen=frames)
    state = engine_state(api.app.state.storage, created["id"])
    assert state.is_terminal
    assert final["step"] == len(state.record.actions)
    assert final["view"] == state.view(None)
    steps = [f["step"] for f in frames if is_state(f)]
    assert steps == sorted(steps)  # frames arrive in order
    assert api.get(f"/api/games/{created['id']}").json()["status"] == "finished"


def test_bots_in_worker_processes(tmp_path) -> None:
    with client(sqlite_url(tmp_path), bot_mode="process", bot_workers=1) as api:
        created = create(api, "carcassonne", ["human", "random"], seed=12)
        with seat_socket(api, created, 0) as ws:
            frame = receive(ws)
            for _ in range(4):
                ws.send_json({"type": "move", "action": frame["legal_actions"][0],
                              "step": frame["step"]})
                previous = frame["step"]
                frame = receive_until(ws, lambda f: is_state(f) and f["current_player"] == 0
                                      and f["step"] > previous, timeout=60)
        storage = api.app.state.storage
        steps = len(storage.get(created["id"])["record"])
        assert 1 in {actor(storage, created["id"], i) for i in range(steps)}  # the bot moved


def test_reconnecting_gets_the_same_position_and_can_move_on(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=5)
    with seat_socket(api, created, 0) as ws0, \
            seat_socket(api, created, 1) as ws1:
        frame = receive(ws0)
        receive(ws1)
        ws0.send_json({"type": "move", "action": frame["legal_actions"][0], "step": 0})
        before = receive_until(ws1, lambda f: is_state(f) and f["step"] == 1)
    # both dropped; the game waits in memory
    assert api.get(f"/api/games/{created['id']}").json()["seats"][1]["connected"] is False
    with seat_socket(api, created, 1) as ws1:
        again = receive(ws1)
        assert again["step"] == before["step"] and again["view"] == before["view"]
        assert again["legal_actions"] == before["legal_actions"]
        assert again["last_action"] == before["last_action"]
        ws1.send_json({"type": "move", "action": again["legal_actions"][0], "step": 1})
        assert receive_until(ws1, is_state)["step"] == 2


def test_a_seat_open_in_two_tabs_gets_frames_in_both(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=5)
    with seat_socket(api, created, 0) as tab1, \
            seat_socket(api, created, 0) as tab2:
        frame = receive(tab1)
        receive(tab2)
        tab2.send_json({"type": "move", "action": frame["legal_actions"][0], "step": 0})
        assert receive_until(tab1, is_state)["step"] == 1
        assert receive_until(tab2, is_state)["step"] == 1


def test_a_connection_that_disconnects_mid_game_does_not_disturb_the_others(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=5)
    with seat_socket(api, created, 0) as ws0:
        frame = receive(ws0)
        with seat_socket(api, created, 1) as ws1:
            receive(ws1)
            receive_until(ws0, lambda f: f["seats"][1]["connected"])
        gone = receive_until(ws0, lambda f: not f["seats"][1]["connected"])
        assert gone["step"] == 0
        ws0.send_json({"type": "move", "action": frame["legal_actions"][0], "step": 0})
        assert receive_until(ws0, is_state)["step"] == 1


def test_websocket_without_accept_errors_is_not_a_crash(api) -> None:
    """A client that vanishes right after connecting leaves the server healthy."""
    created = create(api, "queens", ["human", "human"], seed=5)
    for _ in range(5):
        with seat_socket(api, created, 0):
            pass
    with seat_socket(api, created, 0) as ws:
        assert receive(ws)["type"] == "state"
    with pytest.raises(WebSocketDisconnect):
        with api.websocket_connect("/ws/nothing-here"):
            pass


def test_a_thinking_bot_does_not_block_other_tables(tmp_path, monkeypatch,
                                                    own_agent_registry) -> None:
    """A bot thinks in a worker process; meanwhile another game's moves and pings are answered
    at once. The bot ("gated") decides only when the test opens its gate, so it is certainly
    still thinking while the other table is served (no wall-clock margin)."""
    bw.register_agent("gated", GatedAgent)
    gate = tmp_path / "gate-open"
    monkeypatch.setenv(GATE_ENV, str(gate))
    with client(sqlite_url(tmp_path), bot_mode="process", bot_workers=1,
                agents=["gated"]) as api:
        slow = create(api, "carcassonne", ["human", "gated"], seed=3)
        quick = create(api, "queens", ["human", "human"], seed=3)
        with seat_socket(api, slow, 0) as ws_slow, \
                seat_socket(api, quick, 0) as ws_quick:
            frame = receive(ws_slow)
            receive(ws_quick)
            while frame["current_player"] == 0:  # play until the bot is to move
                ws_slow.send_json({"type": "move", "action": frame["legal_actions"][0],
                                   "step": frame["step"]})
                frame = receive_until(ws_slow, is_state)
            thinking_at = frame["step"]
            ws_quick.send_json({"type": "ping"})
            assert receive(ws_quick) == {"type": "pong"}
            quick_frame = api.get(f"/api/games/{quick['id']}").json()
            assert quick_frame["step"] == 0
            with seat_socket(api, quick, 0) as again:
                fresh = receive(again)
            ws_quick.send_json({"type": "move", "action": fresh["legal_actions"][0], "step": 0})
            assert receive_until(ws_quick, is_state)["step"] == 1
            # all of that was answered while the bot still thought
            assert api.get(f"/api/games/{slow['id']}").json()["step"] == thinking_at
            gate.touch()  # and the bot does answer once it may
            assert receive_until(ws_slow, lambda f: is_state(f) and f["last_action"]["seat"] == 1,
                                 timeout=30)


def test_a_failing_table_data_costs_the_frame_nothing_else(api, monkeypatch) -> None:
    """Table data are extras: when a game's `table_data` fails, the frame carries an empty
    `table` and everything else as usual."""
    from boardwright.games.carcassonne.game import CarcassonneGame

    def broken(self, state):
        raise RuntimeError("broken table data")

    monkeypatch.setattr(CarcassonneGame, "table_data", broken)
    created = create(api, "carcassonne", ["human", "human"], seed=4)
    with seat_socket(api, created, 0) as ws0:
        frame = receive(ws0)
        assert frame["table"] == {}
        assert frame["legal_actions"] and frame["view"]["phase"] == "place_tile"
