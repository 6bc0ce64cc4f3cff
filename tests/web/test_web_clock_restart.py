"""A game's clocks survive a kill -9 of a real `boardwright serve` process: after the restart the
seat to move resumes from the time stored with its last move, so neither the seconds the
server was down nor (after a crash) the thinking time since that save are counted. (The
pattern of test_web_restart.py; about 11 s on 2 cores: two server starts and 2 s of downtime.)"""

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


def next_state(ws, predicate=lambda f: True, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while True:
        frame = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if frame["type"] == "state" and predicate(frame):
            return frame


def test_clocks_resume_from_the_stored_time_after_kill_9(tmp_path) -> None:
    url = sqlite_url(tmp_path)
    server = ServerProcess(url, tmp_path / "server.log").start()
    try:
        created = httpx.post(f"{server.base}/api/games", json={
            "game": "queens", "seats": ["human", "human"], "seed": 12,
            "clock": {"minutes": 1, "increment": 0}, "on_timeout": "lose"}).json()
        assert "seats" in created, created
        tokens = [s["token"] for s in created["seats"]]
        joined = time.monotonic()  # no clock runs before both seats are here
        with connect(server, created["id"], tokens[0]) as ws0, \
                connect(server, created["id"], tokens[1]) as ws1:
            sockets = [ws0, ws1]
            frames = [next_state(ws, lambda f: f["clock"]["running"] is not None)
                      for ws in sockets]
            mover = frames[0]["clock"]["running"]
            mine = frames[mover]
            time.sleep(0.3)
            sockets[mover].send(json.dumps({"type": "move", "step": 0,
                                            "action": mine["legal_actions"][0]}))
            moved = next_state(ws0, lambda f: f["step"] == 1)
            seen = time.monotonic()
        other = moved["clock"]["running"]
        assert other == 1 - mover
        spent = 60.0 - moved["clock"]["remaining"][mover]
        # bounds no slow machine breaks: at least the 0.3 s slept, at most the time that passed
        assert 0.3 - 0.001 <= spent <= seen - joined + 0.001
        time.sleep(1.0)  # the other seat thinks for a second...
        server.kill()  # ...and the server dies without saving anything more
    finally:
        server.kill()
    time.sleep(2.0)  # two seconds of downtime
    restarted = time.monotonic()
    server = ServerProcess(url, tmp_path / "server.log").start()
    try:
        with connect(server, created["id"]) as spectator:
            back = next_state(spectator)
            resumed = time.monotonic() - restarted  # the most it can have run since
            time.sleep(0.5)
        with connect(server, created["id"]) as spectator:
            later = next_state(spectator)
    finally:
        server.stop()
    clock = back["clock"]
    assert back["step"] == 1 and back["status"] == "running"
    assert clock["running"] == other
    assert clock["remaining"][mover] == pytest.approx(60.0 - spent, abs=0.01)
    # the other seat's clock resumed from its stored 60 s: the crash's 3 s are not counted
    assert 60.0 - resumed - 0.001 <= clock["remaining"][other] <= 60.0
    assert later["clock"]["remaining"][other] < clock["remaining"][other] - 0.3  # and it runs
