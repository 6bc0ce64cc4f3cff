"""`benchmarks/server_load.py` runs (a few games for two seconds), with nothing that `make serve`
does not install: the development tools (httpx, pytest, Playwright) are made unimportable in
its process. Its figures are the README's business; here, that it still works."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "server_load.py"
# Run the script as __main__ with the dev-only packages blocked (a None entry in sys.modules
# makes `import httpx` raise ImportError).
LAUNCH = ("import runpy, sys\n"
          "for name in ('httpx', 'pytest', 'playwright', 'hypothesis'):\n"
          "    sys.modules[name] = None\n"
          f"runpy.run_path({str(SCRIPT)!r}, run_name='__main__')\n")


def run_benchmark(*args: str) -> dict:
    env = dict(os.environ)
    env.pop("BOARDWRIGHT_DB", None)
    done = subprocess.run([sys.executable, "-c", LAUNCH, *args, "--json"], capture_output=True,
                          text=True, timeout=240, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_the_load_benchmark_runs_with_the_server_extra_alone() -> None:
    result = run_benchmark("--games", "3", "--seconds", "2", "--think", "0.05")
    assert result["games"] == 3 and result["connections"] == 6
    assert result["moves"] > 0 and result["errors"] == {}
    assert 0 < result["p50_ms"] <= result["p95_ms"] <= result["p99_ms"] <= result["max_ms"]
    assert result["server_move_ms"]["last"] > 0  # the moves of the measured window


def test_two_server_processes_on_postgresql_share_the_games(postgres_db) -> None:
    result = run_benchmark("--games", "2", "--seconds", "2", "--think", "0.05",
                           "--servers", "2", "--db", postgres_db)
    assert result["servers"] == 2 and result["moves"] > 0 and result["errors"] == {}
    assert result["cross_p50_ms"] > 0  # the other seat's frames came from the other process
    assert all(c["shared"] and c["reloads"] > 0 for c in result["cluster"])


def test_more_servers_need_postgresql() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--servers", "2"], capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2 and "needs a PostgreSQL --db" in done.stderr


def test_the_benchmark_reads_the_head_of_the_servers_state_frames(tmp_path) -> None:
    """Its players parse a frame fully only when it is their turn: the fields they read from
    the head of the others must be the frame's."""
    from script_helpers import load_script
    from web_helpers import client, create, seat_socket, sqlite_url

    module = load_script(SCRIPT, "server_load")
    with client(sqlite_url(tmp_path)) as api:
        created = create(api, "carcassonne", ["human", "human"], seed=3)
        with seat_socket(api, created, 1) as ws:
            text = ws.receive_text()
    full = json.loads(text)
    assert full["current_player"] == 0 and module.HEAD.match(text)
    head = module.read_frame(text, 1)
    assert {k: full[k] for k in ("type", "step", "status", "current_player")} == \
        {k: head[k] for k in ("type", "step", "status", "current_player")}
    assert module.read_frame(text, 0) == full  # the seat to move reads all of it
