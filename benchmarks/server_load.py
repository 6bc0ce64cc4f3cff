"""Load benchmark of the web table: N concurrent games driven over websockets on loopback.

Starts `boardwright serve` as a subprocess (as `make serve` does) on a temporary SQLite file (or
`--db URL`), creates N games with two HUMAN seats, and connects two websocket clients per game
(2N connections). Each client plays the random legal move of its seat, taken from the frames,
after a think time, so the server does all of its real work per move: the engine's check, the
database commit, a view per seat and the frames. Reported: per-move latency (send -> the
sender's next state frame) p50/p90/p95/p99/max, moves per second, and the server's resident
memory with all N games loaded. It needs only what `make serve` installs (the server extra:
`websockets` comes with uvicorn's standard extra; HTTP goes through the standard library).

    python benchmarks/server_load.py                         # 200 games, 60 s, think 1 s
    python benchmarks/server_load.py --games 200 --think 0.25
    python benchmarks/server_load.py --games 50 --think 0    # saturation: no think time
    python benchmarks/server_load.py --db postgresql+psycopg://... --servers 2

`--servers 2` (PostgreSQL only) starts two server processes on the one database and connects
each game's two seats to different processes, so every move crosses from one process to the
other (cluster.py: a conditional commit, then NOTIFY); the latency of a move to the other
seat's state frame is reported as "cross".

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
import re
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import urllib.error
import urllib.request
from typing import Any

from websockets.asyncio.client import connect


class Http:
    """JSON over HTTP with the standard library, off the event loop."""

    def __init__(self, base: str) -> None:
        self.base = base

    def _call(self, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, headers={
            "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())

    async def get(self, path: str) -> Any:
        return await asyncio.to_thread(self._call, path)

    async def post(self, path: str, body: Any) -> Any:
        return await asyncio.to_thread(self._call, path, body)


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
        self.cross: list[float] = []  # send -> the OTHER seat's state frame (another process)
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


# A state frame begins with these fields (live.py's state_frame); a client that is not to
# move needs nothing else, so it reads them alone and the benchmark's own process, which shares
# the machine with the server, parses half the JSON.
HEAD = re.compile(r'\{"type":"state","game":"[^"]*","seat":(?:\d+|null),"step":(\d+),'
                  r'"status":"(\w+)","current_player":(\d+|null),')


def read_frame(text: str, seat: int) -> dict[str, Any]:
    """The frame's fields the player needs: all of it when it is this seat's turn."""
    head = HEAD.match(text)
    if head is not None:
        current = None if head[3] == "null" else int(head[3])
        if current != seat or head[2] == "finished":
            return {"type": "state", "step": int(head[1]), "status": head[2],
                    "current_player": current, "legal_actions": None}
    return json.loads(text)


async def play_seat(url: str, token: str, seat: int, args: argparse.Namespace,
                    rng: random.Random, stats: Stats, stop: asyncio.Event,
                    last_sent: dict[str, Any]) -> bool:
    """One player: move when it is this seat's turn; returns True when the game finished.
    The seat's token is offered as a subprotocol, as the web page does. `last_sent` is shared
    by the game's two seats: the other seat's arrival time of a move's frame is measured too."""
    async with connect(url, max_size=2**24, open_timeout=60, ping_interval=None,
                       subprotocols=["boardwright", f"boardwright.token.{token}"]) as ws:
        sent_at: float | None = None
        sent_step = -1
        while not stop.is_set():
            try:
                text = await asyncio.wait_for(ws.recv(), timeout=1.0)
            except TimeoutError:
                continue
            frame = read_frame(text, seat)
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
            other = last_sent.get("seat")
            if other is not None and other != seat and frame["step"] > last_sent["step"]:
                if stats.recording:
                    stats.cross.append(time.perf_counter() - last_sent["at"])
                last_sent["seat"] = None
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
            last_sent.update(seat=seat, step=sent_step, at=sent_at)
            await ws.send(json.dumps({"type": "move", "action": action, "step": sent_step}))
    return False


async def game_slot(index: int, args: argparse.Namespace, servers: list[Server],
                    stats: Stats, stop: asyncio.Event, ready: asyncio.Event,
                    created: list[str]) -> None:
    """One of the N games in play: created on a server, its seat i connected to server
    (index + i) mod the servers; a finished game is replaced by a new one."""
    rng = random.Random(args.seed * 1000 + index)
    first = True
    home = servers[index % len(servers)]
    while not stop.is_set():
        game = await home.http.post("/api/games", {
            "game": args.game, "seats": ["human", "human"], "seed": rng.randrange(2**31)})
        created.append(game["id"])
        tokens = [s["token"] for s in game["seats"]]
        if first:
            first = False
            if len(created) >= args.games:
                ready.set()
            await ready.wait()
        last_sent: dict[str, Any] = {}
        results = await asyncio.gather(*(
            play_seat(f"{servers[(index + seat) % len(servers)].ws_base}/ws/games/{game['id']}",
                      token, seat, args, random.Random(rng.random()), stats, stop, last_sent)
            for seat, token in enumerate(tokens)))
        if any(results) and stats.recording:
            stats.games_finished += 1


class Server:
    """`boardwright serve` in a subprocess, as `make serve` runs it."""

    def __init__(self, db_url: str, workdir: Path, number: int, profile: str | None) -> None:
        self.port = free_port()
        self.base, self.ws_base = f"http://127.0.0.1:{self.port}", f"ws://127.0.0.1:{self.port}"
        self.http = Http(self.base)
        command = [sys.executable, "-m", "boardwright.cli", "serve", "--port", str(self.port),
                   "--db", db_url, "--log-level", "warning", "--bot-workers", "1",
                   "--create-limit", "0"]  # every game comes from this one address
        if profile:  # the server's event-loop thread under cProfile, written when it stops
            target = Path(profile).resolve()
            if number:
                target = target.with_name(f"{target.name}.{number}")
            command[1:1] = ["-m", "cProfile", "-o", str(target)]
        self.log_path = workdir / f"server{number}.log"
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT,
                                        cwd=workdir)

    async def wait_ready(self) -> None:
        for _ in range(600):
            try:
                await self.http.get("/api/games")
                return
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            if self.process.poll() is not None:
                raise SystemExit(f"the server exited; see {self.log_path}")
            await asyncio.sleep(0.1)
        raise SystemExit(f"the server did not start; see {self.log_path}")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGINT)  # uvicorn stops cleanly (and cProfile writes)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="boardwright-load-"))
    db_url = args.db or f"sqlite:///{workdir / 'load.db'}"
    servers = [Server(db_url, workdir, 0, args.profile)]
    try:
        await servers[0].wait_ready()  # the first creates the schema
        servers.extend(Server(db_url, workdir, n, args.profile) for n in range(1, args.servers))
        for server in servers[1:]:
            await server.wait_ready()
        pids = [server.process.pid for server in servers]
        idle_rss = sum(rss_bytes(pid) for pid in pids)
        stats = Stats()
        stop, ready = asyncio.Event(), asyncio.Event()
        created: list[str] = []
        started = time.perf_counter()
        slots = [asyncio.create_task(game_slot(i, args, servers, stats, stop, ready, created))
                 for i in range(args.games)]
        await ready.wait()
        await asyncio.sleep(min(5.0, args.seconds / 4))  # every client connected and going
        setup = time.perf_counter() - started
        loaded_rss = sum(rss_bytes(pid) for pid in pids)
        cpu_before = sum(server_cpu(pid) for pid in pids)
        moves_before = [(await server.http.get("/api/stats"))["moves"] for server in servers]
        own_before = time.process_time()
        lag_task = asyncio.create_task(watch_lag(stats, stop))
        stats.recording = True
        t0 = time.perf_counter()
        await asyncio.sleep(args.seconds)
        stats.recording = False
        server_stats = [await server.http.get("/api/stats") for server in servers]
        # the server's own times of the moves made in the window, not of the setup's
        server_stats = [await server.http.get(f"/api/stats?last_moves={s['moves'] - before}")
                        for server, s, before in zip(servers, server_stats, moves_before)]
        elapsed = time.perf_counter() - t0
        cpu = sum(server_cpu(pid) for pid in pids) - cpu_before
        own_cpu = time.process_time() - own_before
        end_rss = sum(rss_bytes(pid) for pid in pids)
        workers_rss = sum(children_rss(pid) for pid in pids)
        stop.set()
        await asyncio.wait(slots, timeout=30)
        for task in [*slots, lag_task]:
            task.cancel()
        lobby = await servers[0].http.get("/api/games?status=running")
    finally:
        for server in servers:
            server.stop()
    shutil.rmtree(workdir, ignore_errors=True)  # kept when a server failed: its log is there
    lat = [x * 1000 for x in stats.latencies]
    cross = [x * 1000 for x in stats.cross]
    inside = server_stats[0]["move_ms"]
    commits = {"commits": sum(s["db"]["commits"] for s in server_stats),
               "operations": sum(s["db"]["operations"] for s in server_stats),
               "group_ms": [s["db"].get("group_ms") for s in server_stats]}
    return {
        "games": args.games, "connections": 2 * args.games, "servers": args.servers,
        "seconds": elapsed, "setup_seconds": setup, "moves": len(lat),
        "moves_per_second": len(lat) / elapsed,
        "p50_ms": percentile(lat, 50), "p90_ms": percentile(lat, 90),
        "p95_ms": percentile(lat, 95), "p99_ms": percentile(lat, 99),
        "max_ms": max(lat) if lat else float("nan"),
        "mean_ms": statistics.fmean(lat) if lat else float("nan"),
        "cross_p50_ms": percentile(cross, 50), "cross_p99_ms": percentile(cross, 99),
        "games_finished": stats.games_finished, "games_created": len(created),
        "running_in_lobby": len(lobby), "errors": stats.errors,
        "server_cpu_percent": 100 * cpu / elapsed if elapsed else 0.0,
        "clients_cpu_percent": 100 * own_cpu / elapsed if elapsed else 0.0,
        "load_average": os.getloadavg()[0],
        "rss_idle_mb": idle_rss / 2**20, "rss_loaded_mb": loaded_rss / 2**20,
        "rss_end_mb": end_rss / 2**20, "bot_workers_rss_mb": workers_rss / 2**20,
        "db": db_url.split("@")[-1], "backend": db_url.split(":", 1)[0].split("+")[0],
        "server_move_ms": inside, "db_commits": commits,
        "server_move_p99_ms": [s["move_ms"]["p99"] for s in server_stats],
        "server_cpu_ms_per_move": 1000 * cpu / len(lat) if lat else float("nan"),
        "cluster": [s.get("cluster") for s in server_stats],
        "client_lag_p99_ms": percentile([x * 1000 for x in stats.client_lag], 99),
    }


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) the server process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def side_by_side(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """The runs of one invocation as a table (one column per configuration)."""
    print(f"{platform.python_implementation()} {platform.python_version()} on "
          f"{platform.machine()}, {os.cpu_count()} CPUs · {args.games} concurrent {args.game} "
          f"games, think time {args.think:g} s (mean), measured {args.seconds:g} s each")
    names = [("SQLite" if r["backend"] == "sqlite" else "PostgreSQL")
             + f", {r['servers']} process" + ("es" if r["servers"] > 1 else "")
             for r in results]
    rows = [
        ("moves per second", lambda r: f"{r['moves_per_second']:.1f}"),
        ("latency p50 (ms)", lambda r: f"{r['p50_ms']:.1f}"),
        ("latency p99 (ms)", lambda r: f"{r['p99_ms']:.1f}"),
        ("to the other seat p99 (ms)", lambda r: f"{r['cross_p99_ms']:.1f}"
         if r["servers"] > 1 else "-"),
        ("in the server p99 (ms)", lambda r: " / ".join(
            f"{x:.1f}" for x in r["server_move_p99_ms"] if x is not None)),
        ("a group's commit p50 / p99 (ms)", lambda r: " , ".join(
            f"{g['p50']:.1f} / {g['p99']:.1f}" for g in r["db_commits"]["group_ms"]
            if g and g["p50"] is not None) or "-"),
        ("commits", lambda r: str(r["db_commits"]["commits"])),
        ("writes", lambda r: str(r["db_commits"]["operations"])),
        ("server CPU per move (ms)", lambda r: f"{r['server_cpu_ms_per_move']:.2f}"),
        ("load average at the end", lambda r: f"{r['load_average']:.1f}"),
        ("refused moves", lambda r: str(sum(r["errors"].values()))),
    ]
    width = max(len(label) for label, _ in rows)
    columns = [max(len(name), 12) for name in names]
    print(" " * width + " | " + " | ".join(n.rjust(c) for n, c in zip(names, columns)))
    print("-" * width + "-+-" + "-+-".join("-" * c for c in columns))
    for label, cell in rows:
        print(label.ljust(width) + " | "
              + " | ".join(cell(r).rjust(c) for r, c in zip(results, columns)))


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured time (default 60)")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean think time per move in seconds (default 1; 0: closed loop)")
    parser.add_argument("--game", default="carcassonne", help="the game played (default "
                                                              "carcassonne)")
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite "
                                                   "file)")
    parser.add_argument("--servers", type=int, default=1,
                        help="server processes on the one database (more than 1: PostgreSQL "
                             "only); each game's seats are connected to different processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--profile", metavar="FILE", default=None,
                        help="run the server under cProfile and write its profile to FILE")
    parser.add_argument("--beside-sqlite", action="store_true",
                        help="first run the same load on SQLite with one server process, then "
                             "the configuration asked for, and print them side by side")
    args = parser.parse_args(argv)
    if args.games < 1 or args.seconds <= 0 or args.think < 0 or args.servers < 1:
        parser.error("--games, --servers and --seconds must be positive, --think 0 or more")
    if args.servers > 1 and not (args.db or "").startswith("postgresql"):
        parser.error("--servers above 1 needs a PostgreSQL --db (processes share moves "
                     "through its notifications)")
    shown = sys.argv[1:] if argv is None else argv
    baseline = None
    if args.beside_sqlite:
        baseline = asyncio.run(run(argparse.Namespace(**{**vars(args), "db": None,
                                                          "servers": 1})))
    result = asyncio.run(run(args))
    if baseline is not None:
        result["sqlite_one_process"] = baseline
    if args.json:
        print(json.dumps(result, indent=1))
        return result
    print(f"$ {shlex.join(['python', 'benchmarks/server_load.py', *shown])}")
    if baseline is not None:
        side_by_side([baseline, result], args)
        return result
    print(f"{platform.python_implementation()} {platform.python_version()} on "
          f"{platform.machine()}, {os.cpu_count()} CPUs · database {result['db']}")
    print(f"{result['games']} concurrent {args.game} games, {result['connections']} websocket "
          f"connections, {args.servers} server process(es), think time {args.think:g} s "
          f"(mean), measured {result['seconds']:.0f} s")
    print(f"moves: {result['moves']} ({result['moves_per_second']:.1f}/s) · latency send -> "
          f"state frame: p50 {result['p50_ms']:.1f} ms · p90 {result['p90_ms']:.1f} ms · "
          f"p95 {result['p95_ms']:.1f} ms · p99 {result['p99_ms']:.1f} ms · "
          f"max {result['max_ms']:.1f} ms")
    if args.servers > 1:
        print(f"to the other seat, through the other process: p50 {result['cross_p50_ms']:.1f} "
              f"ms · p99 {result['cross_p99_ms']:.1f} ms · per process (reloads, conflicts): "
              + ", ".join(f"{c['reloads']}/{c['conflicts']}" for c in result["cluster"]))
    inside = result["server_move_ms"]
    print(f"inside the server (frame received -> frames queued, last {inside['last']} moves): "
          f"p50 {inside['p50']} ms · p90 {inside['p90']} ms · p99 {inside['p99']} ms · "
          f"max {inside['max']} ms · {result['db_commits']['operations']} writes in "
          f"{result['db_commits']['commits']} commits · the benchmark's own event-loop lag "
          f"p99 {result['client_lag_p99_ms']:.1f} ms")
    print(f"server CPU {result['server_cpu_percent']:.0f}% of one core (the clients: "
          f"{result['clients_cpu_percent']:.0f}%; the machine's load average at the end: "
          f"{result['load_average']:.1f}) · RSS: idle "
          f"{result['rss_idle_mb']:.0f} MB, with the games loaded {result['rss_loaded_mb']:.0f} "
          f"MB, at the end {result['rss_end_mb']:.0f} MB (+ bot worker "
          f"{result['bot_workers_rss_mb']:.0f} MB)")
    print(f"games finished during the run: {result['games_finished']} (replaced by new ones; "
          f"{result['games_created']} created in all) · refused moves: "
          f"{result['errors'] or 'none'}")
    return result


if __name__ == "__main__":
    main()
