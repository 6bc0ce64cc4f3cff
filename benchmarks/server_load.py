"""Load benchmark of the web table: N concurrent games driven over websockets on loopback.

Starts `boardwright serve` as a subprocess on a temporary SQLite file, creates N games with two
HUMAN seats, and connects two websocket clients per game (2N connections). Each client plays the
random legal move of its seat, taken from the frames, after a think time, so the server does all
of its real work per move: the engine's check, the database commit, a view per seat and the
frames. Reported: per-move latency (send -> the sender's next state frame) p50/p90/p99/max,
moves per second, and the server's resident memory with all N games loaded.

    python benchmarks/server_load.py                         # 200 games, 60 s, think 1 s
    python benchmarks/server_load.py --games 200 --think 0.25
    python benchmarks/server_load.py --games 50 --think 0    # saturation: no think time

A finished game is replaced by a new one, so N games stay in play for the whole run. `--think`
is the mean pause of a player before moving (uniform in [0.5, 1.5] x think): people take
seconds, bots under `--bot-delay` take at least 0.3 s. `--think 0` is a closed loop that
measures the server's capacity (latency then grows with N / throughput by Little's law).
This is a benchmark, not a test: it prints figures and checks only that no move was refused.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_bytes(pid: int) -> int:
    try:
        import psutil

        return psutil.Process(pid).memory_info().rss
    except ImportError:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def children_rss(pid: int) -> int:
    try:
        import psutil

        return sum(c.memory_info().rss for c in psutil.Process(pid).children(recursive=True))
    except Exception:  # noqa: BLE001 - psutil missing: the bot workers are not counted
        return 0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.client_lag: list[float] = []
        self.errors: dict[str, int] = {}
        self.games_finished = 0
        self.recording = False


async def watch_lag(stats: Stats, stop: asyncio.Event) -> None:
    """How late the benchmark's own event loop wakes up (a starved client inflates latency)."""
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        if stats.recording:
            stats.client_lag.append(time.perf_counter() - before - 0.01)


async def play_seat(url: str, token: str, seat: int, args: argparse.Namespace,
                    rng: random.Random, stats: Stats, stop: asyncio.Event) -> bool:
    """One player: move when it is this seat's turn; returns True when the game finished.
    The seat's token is offered as a subprotocol, as the web page does."""
    async with connect(url, max_size=2**24, open_timeout=60, ping_interval=None,
                       subprotocols=["boardwright", f"boardwright.token.{token}"]) as ws:
        sent_at: float | None = None
        sent_step = -1
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=1.0)
            except TimeoutError:
                continue
            frame = json.loads(text)
            if frame["type"] == "error":
                stats.errors[frame["code"]] = stats.errors.get(frame["code"], 0) + 1
                sent_at = None
                continue
            if frame["type"] != "state":
                continue
            if sent_at is not None and frame["step"] > sent_step:
                if stats.recording:
                    stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if frame["status"] == "finished":
                return True
            if frame["current_player"] != seat or not frame["legal_actions"] or sent_at:
                continue
            if args.think > 0:
                await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
                if stop.is_set():
                    break
            action = rng.choice(frame["legal_actions"])
            sent_step = frame["step"]
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "action": action, "step": sent_step}))
    return False


async def game_slot(index: int, args: argparse.Namespace, base: str, ws_base: str,
                    http: httpx.AsyncClient, stats: Stats, stop: asyncio.Event,
                    ready: asyncio.Event, created: list[str]) -> None:
    rng = random.Random(args.seed * 1000 + index)
    first = True
    while not stop.is_set():
        response = await http.post(f"{base}/api/games", json={
            "game": args.game, "seats": ["human", "human"], "seed": rng.randrange(2**31)})
        response.raise_for_status()
        game = response.json()
        created.append(game["id"])
        url = f"{ws_base}/ws/games/{game['id']}"
        tokens = [s["token"] for s in game["seats"]]
        if first:
            first = False
            created_count = len(created)
            if created_count >= args.games:
                ready.set()
            await ready.wait()
        results = await asyncio.gather(*(play_seat(url, token, seat, args,
                                                   random.Random(rng.random()), stats, stop)
                                         for seat, token in enumerate(tokens)))
        if any(results) and stats.recording:
            stats.games_finished += 1


async def run(args: argparse.Namespace) -> dict[str, float]:
    workdir = Path(tempfile.mkdtemp(prefix="boardwright-load-"))
    db_url = args.db or f"sqlite:///{workdir / 'load.db'}"
    port = free_port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    command = [sys.executable, "-m", "boardwright.cli", "serve", "--port", str(port),
               "--db", db_url, "--log-level", "warning", "--bot-workers", "1"]
    if args.profile:  # the server's event-loop thread under cProfile, written when it stops
        command[1:1] = ["-m", "cProfile", "-o", str(Path(args.profile).resolve())]
    log = open(workdir / "server.log", "wb")
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=workdir)
    try:
        async with httpx.AsyncClient(timeout=60) as http:
            for _ in range(600):
                try:
                    if (await http.get(f"{base}/api/games")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if server.poll() is not None:
                    raise SystemExit(f"the server exited; see {workdir / 'server.log'}")
                await asyncio.sleep(0.1)
            idle_rss = rss_bytes(server.pid)
            stats = Stats()
            stop, ready = asyncio.Event(), asyncio.Event()
            created: list[str] = []
            started = time.perf_counter()
            slots = [asyncio.create_task(game_slot(i, args, base, ws_base, http, stats, stop,
                                                   ready, created))
                     for i in range(args.games)]
            await ready.wait()
            await asyncio.sleep(min(5.0, args.seconds / 4))  # every client connected and going
            setup = time.perf_counter() - started
            loaded_rss = rss_bytes(server.pid)
            cpu_before = server_cpu(server.pid)
            lag_task = asyncio.create_task(watch_lag(stats, stop))
            stats.recording = True
            t0 = time.perf_counter()
            await asyncio.sleep(args.seconds)
            stats.recording = False
            server_stats = (await http.get(f"{base}/api/stats")).json()
            elapsed = time.perf_counter() - t0
            cpu = server_cpu(server.pid) - cpu_before
            end_rss = rss_bytes(server.pid)
            workers_rss = children_rss(server.pid)
            stop.set()
            await asyncio.wait(slots, timeout=30)
            for task in [*slots, lag_task]:
                task.cancel()
            lobby = (await http.get(f"{base}/api/games?status=running")).json()
    finally:
        server.send_signal(signal.SIGINT)  # uvicorn stops cleanly (and cProfile writes)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    lat = [x * 1000 for x in stats.latencies]
    return {
        "games": args.games, "connections": 2 * args.games, "seconds": elapsed,
        "setup_seconds": setup, "moves": len(lat), "moves_per_second": len(lat) / elapsed,
        "p50_ms": percentile(lat, 50), "p90_ms": percentile(lat, 90),
        "p99_ms": percentile(lat, 99), "max_ms": max(lat) if lat else float("nan"),
        "mean_ms": statistics.fmean(lat) if lat else float("nan"),
        "games_finished": stats.games_finished, "games_created": len(created),
        "running_in_lobby": len(lobby), "errors": stats.errors,
        "server_cpu_percent": 100 * cpu / elapsed if elapsed else 0.0,
        "rss_idle_mb": idle_rss / 2**20, "rss_loaded_mb": loaded_rss / 2**20,
        "rss_end_mb": end_rss / 2**20, "bot_workers_rss_mb": workers_rss / 2**20,
        "db": db_url.split("@")[-1],
        "server_move_ms": server_stats["move_ms"], "db_commits": server_stats["db"],
        "client_lag_p99_ms": percentile([x * 1000 for x in stats.client_lag], 99),
    }


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) the server process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured time (default 60)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean think time per move in seconds (default 1; 0: closed loop)")
    parser.add_argument("--game", default="carcassonne", help="the game played (default "
                                                              "carcassonne)")
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite "
                                                   "file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--profile", metavar="FILE", default=None,
                        help="run the server under cProfile and write its profile to FILE")
    args = parser.parse_args()
    if args.games < 1 or args.seconds <= 0 or args.think < 0:
        parser.error("--games and --seconds must be positive, --think 0 or more")
    result = asyncio.run(run(args))
    if args.json:
        print(json.dumps(result, indent=1))
        return
    print(f"$ {shlex.join(['python', 'benchmarks/server_load.py', *sys.argv[1:]])}")
    print(f"{platform.python_implementation()} {platform.python_version()} on "
          f"{platform.machine()}, {os.cpu_count()} CPUs · database {result['db']}")
    print(f"{result['games']} concurrent {args.game} games, {result['connections']} websocket "
          f"connections, think time {args.think:g} s (mean), measured {result['seconds']:.0f} s")
    print(f"moves: {result['moves']} ({result['moves_per_second']:.1f}/s) · latency send -> "
          f"state frame: p50 {result['p50_ms']:.1f} ms · p90 {result['p90_ms']:.1f} ms · "
          f"p99 {result['p99_ms']:.1f} ms · max {result['max_ms']:.1f} ms")
    inside = result["server_move_ms"]
    print(f"inside the server (frame received -> frames queued, last {inside['last']} moves): "
          f"p50 {inside['p50']} ms · p90 {inside['p90']} ms · p99 {inside['p99']} ms · "
          f"max {inside['max']} ms · {result['db_commits']['operations']} writes in "
          f"{result['db_commits']['commits']} commits · the benchmark's own event-loop lag "
          f"p99 {result['client_lag_p99_ms']:.1f} ms")
    print(f"server CPU {result['server_cpu_percent']:.0f}% of one core · RSS: idle "
          f"{result['rss_idle_mb']:.0f} MB, with the games loaded {result['rss_loaded_mb']:.0f} "
          f"MB, at the end {result['rss_end_mb']:.0f} MB (+ bot worker "
          f"{result['bot_workers_rss_mb']:.0f} MB)")
    print(f"games finished during the run: {result['games_finished']} (replaced by new ones; "
          f"{result['games_created']} created in all) · refused moves: "
          f"{result['errors'] or 'none'}")


if __name__ == "__main__":
    main()
