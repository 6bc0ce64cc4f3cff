"""No player's key in any log: the redaction of the identity cookie in every form a log line
prints it, and a real server at the most verbose log level, used by a named player (name
chosen, cookie sent back, a seat opened by the cookie), whose whole output holds no key."""

from __future__ import annotations

import json

import pytest
from web_helpers import ServerProcess, seat_protocols

from boardwright.web.identity import COOKIE
from boardwright.web.logsafe import REDACTED, redact

KEY = "pQ3x9-Zk_LmN0aBcDeFgHiJkLmNoPqRsTuVwXyZ0123"


def leaked(key: str, text: str, width: int = 8) -> list[str]:
    return [key[i:i + width] for i in range(len(key) - width + 1) if key[i:i + width] in text]


@pytest.mark.parametrize("line", [
    f"< cookie: {COOKIE}={KEY}",
    f"< cookie: theme=dark; {COOKIE}={KEY}; lang=en",
    f"> set-cookie: {COOKIE}={KEY}; HttpOnly; Max-Age=34560000; Path=/; SameSite=lax",
    f"headers=[(b'cookie', b'{COOKIE}={KEY}')]",
    f"""{{"{COOKIE}": "{KEY}"}}""",
    f"{{'{COOKIE}': '{KEY}'}}",
])
def test_every_form_of_a_players_key_is_redacted(line: str) -> None:
    cleaned = redact(line)
    assert not leaked(KEY, cleaned) and REDACTED in cleaned


def test_a_server_at_trace_level_never_logs_a_players_key(tmp_path) -> None:
    httpx = pytest.importorskip("httpx")
    sync_client = pytest.importorskip("websockets.sync.client")
    server = ServerProcess(f"sqlite:///{tmp_path / 'games.db'}", tmp_path / "serve.log",
                           "--log-level", "trace", "--bot-workers", "1").start()
    try:
        chosen = httpx.post(server.base + "/api/me", json={"name": "Ann"})
        assert chosen.status_code == 201
        key = chosen.cookies[COOKIE]
        cookie = {"cookie": f"{COOKIE}={key}"}
        assert httpx.get(server.base + "/api/me", headers=cookie).json()["name"] == "Ann"
        created = httpx.post(server.base + "/api/games",
                             json={"game": "queens", "seats": ["human", "random"]}).json()
        url = f"{server.ws_base}/ws/games/{created['id']}"
        token = created["seats"][0]["token"]
        with sync_client.connect(url, subprotocols=seat_protocols(token),  # binds the seat
                                 additional_headers=cookie, open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["seat"] == 0
        with sync_client.connect(url, additional_headers=cookie, open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["seat"] == 0  # the cookie alone
        assert httpx.get(server.base + "/api/me/games", headers=cookie).json()[0]["my_seat"] == 0
    finally:
        server.stop()
    output = server.log.read_text(encoding="utf-8", errors="replace")
    assert "/api/me" in output and "/ws/games/" in output  # the logging was on
    assert COOKIE in output and REDACTED in output  # the cookie was printed, its value not
    assert not leaked(key, output), leaked(key, output)
