"""Fairness benchmark of the web table: a player's bot replies while bot-only games flood the
bot workers.

Starts `boardwright serve` (one bot worker by default, no bot delay) on a temporary SQLite
file, has `--visitors` named players create `--flood` bot-only games of hard bots between
them (Queens & Princes; each visitor within the server's limits: 3 bot-only games each by
default), then plays a game against the medium bot through its websocket: `--moves` random
legal moves, each timed from its send to the state frame where it is the player's turn again
(the bot's reply). Reports the replies' p50/p90/max and how far every bot-only game got
meanwhile (the least advanced one shows whether any starved).

    python benchmarks/bot_fairness.py                        # 12 bot-only games, 10 moves
    python benchmarks/bot_fairness.py --flood 24 --serve-args "--bot-only-games 0"
    PYTHONPATH=/path/to/other/src python benchmarks/bot_fairness.py   # another version's server

This is a benchmark, not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import secrets
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

COOKIE = "boardwright_identity"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def call(base: str, path: str, body: Any = None, cookie: str | None = None) -> tuple[Any, str]:
    """JSON over HTTP: the answer and the identity cookie it sets (or "")."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = f"{COOKIE}={cookie}"
    request = urllib.request.Request(base + path, data=data, headers=headers)
    with urllib.request.urlopen(request, timeout=60) as response:
        set_cookie = response.headers.get("Set-Cookie") or ""
        key = set_cookie.split(";")[0].partition("=")[2] if set_cookie.startswith(COOKIE) else ""
        return json.loads(response.read()), key


def start_server(workdir: Path, workers: int, extra: list[str]) -> tuple[subprocess.Popen, str]:
    port = free_port()
    log = open(workdir / "server.log", "ab")
    env = dict(os.environ)
    env.pop("BOARDWRIGHT_DB", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "boardwright.cli", "serve", "--port", str(port), "--db",
         f"sqlite:///{workdir / 'games.db'}", "--log-level", "warning", "--bot-workers",
         str(workers), "--bot-delay", "0", *extra], stdout=log, stderr=subprocess.STDOUT,
        env=env, cwd=workdir)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited; see {workdir / 'server.log'}")
        try:
            call(base, "/api/games")
            return process, base
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start")


def receive_turn(ws: Any, seat: int, after: int) -> dict[str, Any]:
    """The next state frame past step `after` where `seat` is to move or the game is over."""
    while True:
        frame = json.loads(ws.recv(timeout=600))
        if frame.get("type") != "state" or frame["step"] <= after:
            continue
        if frame["status"] == "finished" or frame["current_player"] == seat:
            return frame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flood", type=int, default=12, help="bot-only games (default 12)")
    parser.add_argument("--visitors", type=int, default=0,
                        help="named players creating them (default: 3 games each)")
    parser.add_argument("--flood-bot", default="hard", help="their bots (default hard)")
    parser.add_argument("--bot", default="medium", help="the player's opponent (default medium)")
    parser.add_argument("--moves", type=int, default=10, help="the player's moves (default 10)")
    parser.add_argument("--workers", type=int, default=1, help="--bot-workers (default 1)")
    parser.add_argument("--serve-args", default="", help="more options for boardwright serve")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    visitors = args.visitors or max(1, math.ceil(args.flood / 3))
    rng = random.Random(1)
    with tempfile.TemporaryDirectory(prefix="boardwright-fairness-") as tmp:
        workdir = Path(tmp)
        process, base = start_server(workdir, args.workers, shlex.split(args.serve_args))
        try:
            keys = [call(base, "/api/me", {"name": f"flood-{secrets.token_hex(3)}-{n}"})[1]
                    for n in range(visitors)]
            flood = []
            for n in range(args.flood):
                body = {"game": "queens", "seats": [args.flood_bot, args.flood_bot], "seed": n}
                try:
                    flood.append(call(base, "/api/games", body, keys[n % visitors])[0]["id"])
                except urllib.error.HTTPError as exc:
                    print(f"bot-only game {n + 1} refused: HTTP {exc.code} "
                          f"{exc.read()[:200].decode()}", file=sys.stderr)
            time.sleep(2.0)  # the flood under way
            before = {g: call(base, f"/api/games/{g}")[0]["step"] for g in flood}
            created, _ = call(base, "/api/games", {"game": "queens", "seats": ["human", args.bot],
                                                   "seed": 99})
            token = created["seats"][0]["token"]
            latencies = []
            started = time.monotonic()
            with connect(f"ws://{base.removeprefix('http://')}/ws/games/{created['id']}",
                         subprotocols=["boardwright", f"boardwright.token.{token}"],
                         max_size=2**24) as ws:
                frame = receive_turn(ws, 0, -1)
                for _ in range(args.moves):
                    if frame["status"] == "finished":
                        break
                    sent = time.monotonic()
                    ws.send(json.dumps({"type": "move", "step": frame["step"],
                                        "action": rng.choice(frame["legal_actions"])}))
                    frame = receive_turn(ws, 0, frame["step"])
                    latencies.append(time.monotonic() - sent)
            elapsed = time.monotonic() - started
            after = {g: call(base, f"/api/games/{g}")[0]["step"] for g in flood}
            stats = call(base, "/api/stats")[0]
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
    latencies.sort()
    advanced = sorted(after[g] - before[g] for g in flood) or [0]
    result = {
        "flood_games": len(flood), "visitors": visitors, "workers": args.workers,
        "replies": len(latencies),
        "reply_p50_s": round(statistics.median(latencies), 2) if latencies else None,
        "reply_p90_s": round(latencies[int(0.9 * (len(latencies) - 1))], 2) if latencies else None,
        "reply_max_s": round(latencies[-1], 2) if latencies else None,
        "seconds": round(elapsed, 1),
        "flood_steps_min": advanced[0], "flood_steps_max": advanced[-1],
        "bot_queue": stats.get("bot_queue"),
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"{len(flood)} bot-only games ({args.flood_bot}) from {visitors} visitors, "
          f"{args.workers} bot worker(s)")
    print(f"the player's {args.bot} bot replied to {len(latencies)} moves: p50 "
          f"{result['reply_p50_s']} s, p90 {result['reply_p90_s']} s, max "
          f"{result['reply_max_s']} s ({result['seconds']} s in all)")
    print(f"meanwhile each bot-only game made {advanced[0]} to {advanced[-1]} moves")


if __name__ == "__main__":
    main()
