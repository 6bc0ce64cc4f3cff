"""Helpers of the web table tests: an app on a temporary SQLite file, websocket reads with a
timeout, and the engine's own view of a game rebuilt from its record (to compare frames with)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web table needs the server extra")
pytest.importorskip("sqlalchemy", reason="the web table needs the server extra")

import anyio

with warnings.catch_warnings():  # Starlette >= 1 prefers httpx2 for its test client
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import boardwright as bw
from boardwright.web import protocol as P
from boardwright.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 20.0


def sqlite_url(tmp_path: Path, name: str = "games.db") -> str:
    return f"sqlite:///{tmp_path / name}"


@contextlib.contextmanager
def client(url: str, **kwargs: Any) -> Iterator[TestClient]:
    """A test client of a fresh app (bots in a thread unless told otherwise, no bot delay, no
    creation limits and no search budget for bot-only games: tests of those ask for them)."""
    kwargs.setdefault("bot_mode", "thread")
    kwargs.setdefault("bot_workers", 1)
    for setting in ("create_limit", "bot_only_games", "bot_only_seconds"):
        kwargs.setdefault(setting, None)
    app = create_app(url, **kwargs)
    with TestClient(app) as test_client:
        yield test_client


def create(test_client: TestClient, game: str = "carcassonne",
           seats: list[str] | None = None, **body: Any) -> dict[str, Any]:
    payload = {"game": game, "seats": seats or ["human", "human"], **body}
    response = test_client.post("/api/games", json=payload)
    assert response.status_code == 201, response.text
    return response.json()


def seat_protocols(token: str | None) -> list[str]:
    """The websocket subprotocols a client offers: a seat's token travels in the handshake's
    Sec-WebSocket-Protocol header, never in the address."""
    return [P.SUBPROTOCOL, P.TOKEN_PREFIX + token] if token else []


def game_socket(test_client: TestClient, game_id: str, token: str | None = None) -> Any:
    """A websocket to a game: a seat's connection with its token, a spectator's without."""
    return test_client.websocket_connect(f"/ws/games/{game_id}",
                                         subprotocols=seat_protocols(token))


def seat_socket(test_client: TestClient, created: dict[str, Any], seat: int) -> Any:
    """The websocket of a human seat of a game just created (its token from the response)."""
    return game_socket(test_client, created["id"], created["seats"][seat]["token"])


def receive(ws: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
    """The next frame (JSON), failing the test instead of hanging when none comes."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(get)
    if message["type"] == "websocket.close":
        raise ConnectionError(f"closed with code {message.get('code')}")
    text = message.get("text")
    if text is None:
        text = message["bytes"].decode("utf-8")
    return json.loads(text)


def receive_until(ws: Any, predicate: Any, timeout: float = TIMEOUT,
                  seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the expected frame did not come")
        frame = receive(ws, left)
        if seen is not None:
            seen.append(frame)
        if predicate(frame):
            return frame


def engine_state(storage: Any, game_id: str, steps: int | None = None) -> bw.State:
    """The position the database's record describes, rebuilt by the engine alone."""
    row = storage.get(game_id)
    game = bw.load(row["game"], row["players"], row["options"])
    state = game.new_game(row["seed"])
    for data in row["record"][:steps]:
        state.apply(game.action_from_json(data))
    return state


def walk(obj: Any) -> Iterator[tuple[str | None, Any]]:
    """Every (key, value) pair in a JSON document, depth first (key None for list items)."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield key, value
            yield from walk(value)
    elif isinstance(obj, list):
        for value in obj:
            yield None, value
            yield from walk(value)


# -- a real server in a subprocess ---------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ServerProcess:
    """`boardwright serve` in a subprocess on a free port (killed at the end)."""

    def __init__(self, url: str, log: Path, *extra: str) -> None:
        self.url = url
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.log = log
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> ServerProcess:
        import httpx

        env = dict(os.environ)
        env.pop("BOARDWRIGHT_DB", None)
        out = open(self.log, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "boardwright.cli", "serve", "--port", str(self.port),
             "--db", self.url, "--log-level", "warning", *self.extra],
            stdout=out, stderr=subprocess.STDOUT, env=env, cwd=self.log.parent)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.base + "/api/games", timeout=1.0).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush: what a crash looks like."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
