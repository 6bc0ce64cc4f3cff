"""A real `boardwright serve` process on a temporary SQLite file: play over websockets, kill -9 it
mid-game, start it again, and the games resume exactly (same view, next move accepted; bots
carry on by themselves). Also the real server's frame-size limits."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from web_helpers import ServerProcess, seat_protocols, sqlite_url

websockets_sync = pytest.importorskip("websockets.sync.client")


def connect(server: ServerProcess, game_id: str, token: str | None = None):
    return websockets_sync.connect(f"{server.ws_base}/ws/games/{game_id}", open_timeout=10,
                                   max_size=2**24, subprotocols=seat_protocols(token) or None)


def next_frame(ws, predicate=lambda f: True, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while True:
        frame = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if predicate(frame):
            return frame


def states(frame):
    return frame["type"] == "state"


@pytest.fixture
def server_factory(tmp_path):
    started = []

    def start(*extra: str) -> ServerProcess:
        server = ServerProcess(sqlite_url(tmp_path), tmp_path / "server.log", *extra).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.kill()


def test_kill_9_mid_game_then_restart_resumes_exactly(server_factory) -> None:
    server = server_factory("--bot-workers", "1", "--bot-delay", "0.2")
    humans = httpx.post(f"{server.base}/api/games", json={
        "game": "carcassonne", "seats": ["human", "human"], "seed": 31}).json()
    versus = httpx.post(f"{server.base}/api/games", json={
        "game": "queens", "seats": ["human", "greedy"], "seed": 8}).json()
    bots = httpx.post(f"{server.base}/api/games", json={
        "game": "carcassonne", "seats": ["random", "random"], "seed": 5}).json()
    tokens = [s["token"] for s in humans["seats"]]
    with connect(server, humans["id"], tokens[0]) as ws0, \
            connect(server, humans["id"], tokens[1]) as ws1:
        sockets = [ws0, ws1]
        latest = [next_frame(ws0, states), next_frame(ws1, states)]
        for step in range(7):
            mover = latest[0]["current_player"]
            if latest[mover]["step"] != step:
                latest[mover] = next_frame(sockets[mover], lambda f: states(f)
                                           and f["step"] == step)
            sockets[mover].send(json.dumps({"type": "move", "step": step,
                                            "action": latest[mover]["legal_actions"][-1]}))
            for seat in (0, 1):
                latest[seat] = next_frame(sockets[seat], lambda f: states(f)
                                          and f["step"] == step + 1)
        before = latest
    vtoken = versus["seats"][0]["token"]
    with connect(server, versus["id"], vtoken) as ws:
        frame = next_frame(ws, states)
        ws.send(json.dumps({"type": "move", "step": 0, "action": frame["legal_actions"][0]}))
        versus_before = next_frame(ws, lambda f: states(f) and f["current_player"] == 0
                                   and f["step"] >= 2)
    with connect(server, bots["id"]) as ws:
        bots_before = next_frame(ws, lambda f: states(f) and f["step"] >= 5)

    server.kill()  # SIGKILL: no clean shutdown
    restarted = server_factory("--bot-workers", "1", "--bot-delay", "0")

    with connect(restarted, humans["id"], tokens[0]) as ws0, \
            connect(restarted, humans["id"], tokens[1]) as ws1:
        after = [next_frame(ws0, states), next_frame(ws1, states)]
        for seat in (0, 1):
            for key in ("step", "view", "legal_actions", "descriptions", "current_player",
                        "last_action", "scores", "status", "can_undo"):
                assert after[seat][key] == before[seat][key], (seat, key)
        mover = after[0]["current_player"]
        sockets = [ws0, ws1]
        sockets[mover].send(json.dumps({"type": "move", "step": 7,
                                        "action": after[mover]["legal_actions"][0]}))
        moved = next_frame(ws0, lambda f: f["type"] == "error" or (states(f)
                                                                   and f["step"] == 8))
        assert moved["type"] == "state" and moved["last_action"]["seat"] == mover
    with connect(restarted, versus["id"], vtoken) as ws:
        frame = next_frame(ws, states)
        assert frame["step"] == versus_before["step"]
        assert frame["view"] == versus_before["view"]
        ws.send(json.dumps({"type": "move", "step": frame["step"],
                            "action": frame["legal_actions"][0]}))
        assert next_frame(ws, lambda f: f["type"] == "error" or (
            states(f) and f["current_player"] == 0))["type"] == "state"
    with connect(restarted, bots["id"]) as ws:  # its bots went on by themselves
        final = next_frame(ws, lambda f: states(f) and f["status"] == "finished", timeout=120)
    replay = httpx.get(f"{restarted.base}/api/games/{bots['id']}/replay").json()
    assert replay["steps"] == final["step"]
    assert replay["frames"][bots_before["step"]] == bots_before["view"]


def test_the_real_server_limits_frame_sizes(server_factory) -> None:
    server = server_factory("--bot-workers", "1")
    created = httpx.post(f"{server.base}/api/games", json={
        "game": "queens", "seats": ["human", "human"]}).json()
    with connect(server, created["id"], created["seats"][0]["token"]) as ws:
        next_frame(ws, states)
        ws.send(json.dumps({"type": "ping", "pad": "x" * 20_000}))
        assert next_frame(ws)["code"] == "too_large"
        ws.send("{not json")
        assert next_frame(ws)["code"] == "malformed"
        ws.send(json.dumps({"type": "ping"}))
        assert next_frame(ws) == {"type": "pong"}
    with connect(server, created["id"], created["seats"][0]["token"]) as ws:
        next_frame(ws, states)
        ws.send("x" * (2 * 1024 * 1024))  # beyond what the server reads at all: closed
        with pytest.raises(Exception) as caught:
            next_frame(ws, lambda f: False, timeout=10)
        assert "1009" in str(caught.value) or "closed" in str(caught.value).lower()
    assert httpx.get(f"{server.base}/api/games").status_code == 200  # and it is still up
