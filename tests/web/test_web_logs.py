"""No seat token in any log: the redaction filter on every shape of log record the server
writes, and a real `make serve` at the most verbose log level, with a game joined through its
join links and played over websockets, whose whole output holds no token."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from web_helpers import ROOT, free_port, seat_protocols

from boardwright.web.logsafe import REDACTED, RedactSecrets, redact, uvicorn_log_config

TOKEN = "IUuQ0-TiKyxCfk0hWL7JdkTVsQLbOItJ"


def leaked(token: str, text: str, width: int = 8) -> list[str]:
    """Every piece of `token` of `width` characters that occurs in `text`."""
    return [token[i:i + width] for i in range(len(token) - width + 1)
            if token[i:i + width] in text]


@pytest.mark.parametrize("line", [
    f'127.0.0.1:5 - "GET /play/abc?token={TOKEN} HTTP/1.1" 200',
    f"< GET /ws/games/abc?token={TOKEN}&x=1 HTTP/1.1",
    f"< sec-websocket-protocol: boardwright, boardwright.token.{TOKEN}",
    f"scope={{'query_string': b'token={TOKEN}', 'subprotocols': ['boardwright', "
    f"'boardwright.token.{TOKEN}']}}",
    f"""< TEXT '{{"type": "ping", "token": "{TOKEN}"}}' [50 bytes]""",
    f"""{{"type":"ping","token":"{TOKEN}"}}""",
    f"/play/abc#token={TOKEN}",
    f"/play/abc?next=%2Fplay%3Ftoken%3D{TOKEN}",
])
def test_every_form_of_a_token_is_redacted(line: str) -> None:
    cleaned = redact(line)
    assert not leaked(TOKEN, cleaned) and REDACTED in cleaned


def test_text_without_tokens_is_left_alone() -> None:
    for line in ("GET /api/games HTTP/1.1", "token_hash stored", "a token. Then", "tokens: 3"):
        assert redact(line) == line


def record(msg: object, args: object = None, exc: bool = False) -> logging.LogRecord:
    exc_info = None
    if exc:
        try:
            raise ValueError(f"bad link /play/x?token={TOKEN}")
        except ValueError:
            exc_info = sys.exc_info()
    return logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, msg, args, exc_info)


def test_the_filter_keeps_the_shape_of_access_records() -> None:
    # uvicorn's access formatter unpacks these five arguments: they must stay five
    entry = record('%s - "%s %s HTTP/%s" %d',
                   ("127.0.0.1:5", "GET", f"/play/x?token={TOKEN}", "1.1", 200))
    assert RedactSecrets().filter(entry) is True
    assert len(entry.args) == 5 and entry.args[4] == 200
    assert not leaked(TOKEN, entry.getMessage())


class Frame:
    """Stands for a websockets frame, whose text a debug line prints via str()."""

    def __str__(self) -> str:
        return f"""TEXT '{{"type":"ping","token":"{TOKEN}"}}' [50 bytes]"""


def test_the_filter_cleans_objects_dicts_and_exceptions() -> None:
    for entry in (record("< %s", (Frame(),)),
                  record("scope=%s", ({"query_string": f"token={TOKEN}".encode()},)),
                  record("failed", exc=True),
                  record(f"message with token={TOKEN}")):
        RedactSecrets().filter(entry)
        text = logging.Formatter().format(entry)
        assert not leaked(TOKEN, text), text


def test_serve_puts_the_filter_on_every_handler() -> None:
    pytest.importorskip("uvicorn")
    config = uvicorn_log_config("debug")
    assert all("redact_secrets" in h["filters"] for h in config["handlers"].values())
    assert config["root"]["handlers"] and config["loggers"]["boardwright"]["handlers"]


# -- a real server ---------------------------------------------------------------------------------

def serve_command(port: int) -> list[str] | None:
    """`make serve` as a developer runs it, with the port and the most verbose log level; the
    install step is taken as done (the tests run in the installed environment)."""
    make = shutil.which("make")
    if make is None or not (ROOT / ".venv" / "bin" / "boardwright").exists():
        return None
    return [make, "--no-print-directory", "-C", str(ROOT), "-o", ".venv/.installed-server",
            "serve", f"SERVE_ARGS=--port {port} --log-level trace --bot-delay 0 "
                     "--bot-workers 1"]


def wait_up(httpx, base: str, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(base + "/api/games", timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not start: {log.read_text()[-2000:]}")


def stop(proc: subprocess.Popen) -> None:
    """Ctrl-C to the server's process group (make and the server it started), as a terminal
    sends it; a kill if it does not stop."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def play_a_few_moves(sync_client, ws_url: str, tokens: list[str], moves: int) -> int:
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(sync_client.connect(
            ws_url, open_timeout=10, max_size=2**24, subprotocols=seat_protocols(t)))
            for t in tokens]
        latest = [json.loads(ws.recv(timeout=10)) for ws in sockets]
        made = 0
        while made < moves:
            mover = next((s for s, f in enumerate(latest) if f["legal_actions"]), None)
            if mover is None:
                latest = [json.loads(ws.recv(timeout=10)) for ws in sockets]
                continue
            step = latest[mover]["step"]
            sockets[mover].send(json.dumps({"type": "move", "step": step,
                                            "action": latest[mover]["legal_actions"][0]}))
            made += 1
            for seat, ws in enumerate(sockets):
                frame = json.loads(ws.recv(timeout=10))
                while frame["type"] != "state" or frame["step"] <= step:
                    frame = json.loads(ws.recv(timeout=10))
                latest[seat] = frame
        # a client that puts its token where it does not belong is answered, and not logged
        sockets[0].send(json.dumps({"type": "ping", "token": tokens[0]}))
        while json.loads(sockets[0].recv(timeout=10))["type"] != "pong":
            pass
        return made


def test_make_serve_writes_no_token_to_its_output(tmp_path: Path) -> None:
    httpx = pytest.importorskip("httpx")
    sync_client = pytest.importorskip("websockets.sync.client")
    port = free_port()
    command = serve_command(port)
    if command is None:
        pytest.skip("needs make and the project's .venv")
    log = tmp_path / "serve.log"
    env = {**os.environ, "BOARDWRIGHT_DB": f"sqlite:///{tmp_path / 'games.db'}",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    with open(log, "wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                cwd=tmp_path, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_up(httpx, base, proc, log)
        created = httpx.post(base + "/api/games", json={
            "game": "queens", "seats": ["human", "human"], "seed": 3}).json()
        tokens = []
        for seat in created["seats"]:
            link = urlsplit(seat["join_url"])
            assert link.query == "" and link.fragment  # the server never sees the fragment
            tokens.append(parse_qs(link.fragment)["token"][0])
            assert httpx.get(base + seat["join_url"]).status_code == 200  # open the link
        # an older link with the token in the query: answered, and redacted in the log
        assert httpx.get(f"{base}/play/{created['id']}?token={tokens[0]}").status_code == 200
        ws_url = f"ws://127.0.0.1:{port}/ws/games/{created['id']}"
        assert play_a_few_moves(sync_client, ws_url, tokens, moves=6) == 6
        with sync_client.connect(f"{ws_url}?token={tokens[1]}", open_timeout=10) as refused:
            assert json.loads(refused.recv(timeout=10))["code"] == "bad_token"
        assert httpx.get(f"{base}/api/games/{created['id']}").json()["step"] == 6
    finally:
        stop(proc)
    output = log.read_text(encoding="utf-8", errors="replace")
    # the logging was on: requests, the websocket handshakes and frames were written
    assert f"/play/{created['id']}" in output and "/ws/games/" in output
    assert "sec-websocket-protocol" in output.lower() and "TEXT" in output
    assert REDACTED in output
    for token in tokens:
        assert not leaked(token, output), leaked(token, output)
