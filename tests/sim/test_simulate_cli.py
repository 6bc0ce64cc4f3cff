"""`boardwright simulate`: the table, JSON and CSV outputs, records, errors, Ctrl-C, --ray."""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import boardwright as bw
from boardwright.cli import app
from boardwright.cli.simulate import seat_names, simulation_lineup
from boardwright.sim import parallel, ray_runner
from boardwright.sim.runner import play_game

RUNNER = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None, "COLUMNS": "140"})
ROW = re.compile(
    r"^(?P<agent>\S+)\s+(?P<games>\d+)\s+(?P<wins>[\d.]+)\s+(?P<draws>\d+)\s+"
    r"(?P<rate>[\d.]+)% \[(?P<rate_low>[\d.]+), (?P<rate_high>[\d.]+)\]\s+"
    r"(?P<score>[\d.]+) \[(?P<score_low>-?[\d.]+), (?P<score_high>[\d.]+)\]\s+"
    r"(?P<elo>[<>] [+-]\d+|[+-]?\d+)(?: \[(?P<elo_low>[+-]?\d+), (?P<elo_high>[+-]?\d+)\])?",
    re.MULTILINE)


def run(*args: str, runner: CliRunner = RUNNER) -> Result:
    return runner.invoke(app, list(args))


def assert_clean_exit(result: Result, code: int) -> None:
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output


def table_rows(output: str) -> dict[str, dict[str, str]]:
    return {m["agent"]: m.groupdict() for m in ROW.finditer(output)}


def simulate(tmp_path: Path, *extra: str, n: int = 12, agents: str = "random,random",
             ) -> Result:
    return run("simulate", "carcassonne", "--agents", agents, "-n", str(n), "--seed", "5",
               *extra)


# -- the report -----------------------------------------------------------------------------------

def test_simulate_prints_progress_table_and_speed(tmp_path):
    result = simulate(tmp_path)
    assert_clean_exit(result, 0)
    out = result.output
    assert "Simulating 12 games of carcassonne (2 players) · seed 5 · 1 process" in out
    assert "12/12" in out
    for header in ("Agent", "Games", "Wins", "Draws", "Win rate [95% CI]",
                   "Mean score [95% CI]", "Elo [95% CI]"):
        assert header in out
    rows = table_rows(out)
    assert set(rows) == {"random#1", "random#2"}
    assert all(row["games"] == "12" for row in rows.values())
    assert float(rows["random#1"]["wins"]) + float(rows["random#2"]["wins"]) == 12
    assert rows["random#1"]["elo"] == "0"
    assert re.search(r"^12 games in [\d.]+ s \([\d.]+ games/s\)", out, re.MULTILINE)


SWEEP = ("simulate", "queens", "-a", "mcts:iters=10,c=0.7,random", "-n", "4", "--seed", "3")
_SWEEPS: dict[int, tuple[Result, dict]] = {}


def sweep(columns: int, tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, dict]:
    """The Queens sweep printed `columns` wide, and its JSON report: played once per width in a
    process (the three tests below read the same games)."""
    if columns not in _SWEEPS:
        terminal = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None,
                                  "COLUMNS": str(columns)})
        out = tmp_path_factory.mktemp("sweep") / "out.json"
        result = run(*SWEEP, "--out", str(out), runner=terminal)
        assert_clean_exit(result, 0)
        _SWEEPS[columns] = result, json.loads(out.read_text())
    return _SWEEPS[columns]


@pytest.mark.parametrize("columns, draws", [(80, "(draws)"), (140, "Draws")])
def test_the_table_fits_the_terminal_and_cuts_nothing(columns, draws, tmp_path_factory):
    # 80 columns: the compact layout (intervals under values); 140: one line per agent
    result, report = sweep(columns, tmp_path_factory)
    text = result.output[:result.output.index("Results saved to")]  # (a path is kept whole)
    assert max(len(line.rstrip()) for line in text.splitlines()) <= columns
    assert "…" not in text
    table = text[text.index("queens · 2 players"):text.index("Wins: a tie")]
    for header in ("Agent", "Wins", draws, "Win rate", "Mean score", "Elo", "[95% CI]",
                   "decision"):
        assert header in table
    agents = {row["agent"]: row for row in report["summary"]["agents"]}
    assert set(agents) == {"mcts:iters=10,c=0.7", "random"}
    cells = " ".join(table.split())
    for name, row in agents.items():
        low, high = row["win_rate_ci"]
        assert f"{100 * row['win_rate']:.1f}%" in cells
        assert f"[{100 * low:.1f}, {100 * high:.1f}]" in cells
        assert f"{row['mean_score']:.0f}" in cells
    # the search's own count per decision (Queens' paired root plays whole rounds of 8
    # candidates, so a budget of 10 runs 16)
    iters = agents["mcts:iters=10,c=0.7"]["iterations_per_decision"]
    assert iters == 16.0
    assert (f"{iters:.0f} iters" in cells) if columns == 80 else ("iterations" in table)


def test_a_clean_sweep_shows_a_bound_not_a_zero_width_interval(tmp_path_factory):
    result, report = sweep(140, tmp_path_factory)
    loser = report["summary"]["agents"][1]
    assert loser["wins"] == 0  # mcts swept random in these 4 games
    low, high = loser["elo_ci"]
    assert low is None and high < 0  # unbounded below (-inf is written as null)
    row = table_rows(result.output)["random"]
    assert row["elo"] == f"< {high:+.0f}" and row["elo_low"] is None
    assert "a clean sweep against the first agent bounds the Elo" in " ".join(
        result.output.split())


def test_json_and_csv_agree_with_the_table(tmp_path):
    json_path, csv_path = tmp_path / "out.json", tmp_path / "out.csv"
    first = simulate(tmp_path, "--out", str(json_path), n=16)
    second = simulate(tmp_path, "--out", str(csv_path), "--workers", "2", n=16)
    assert_clean_exit(first, 0)
    assert_clean_exit(second, 0)
    rows = table_rows(first.output)
    assert table_rows(second.output) == rows  # same seed, other worker count: same report

    data = json.loads(json_path.read_text())
    summary = data["summary"]
    assert summary["games"] == 16 and summary["seed"] == 5 and not summary["interrupted"]
    assert summary["names"] == ["random#1", "random#2"]
    assert [g["index"] for g in data["games"]] == list(range(16))
    for agent in summary["agents"]:
        row = rows[agent["agent"]]
        assert agent["games"] == int(row["games"])
        assert agent["wins"] == pytest.approx(float(row["wins"]))
        assert agent["draws"] == int(row["draws"])
        assert 100 * agent["win_rate"] == pytest.approx(float(row["rate"]), abs=0.05)
        assert agent["mean_score"] == pytest.approx(float(row["score"]), abs=0.05)
        assert agent["elo"] == pytest.approx(float(row["elo"]), abs=0.5)

    with open(csv_path, newline="") as handle:
        lines = list(csv.DictReader(handle))
    assert len(lines) == 16 * 2
    for name, row in rows.items():
        mine = [line for line in lines if line["agent"] == name]
        assert len(mine) == int(row["games"])
        assert sum(float(line["win_share"]) for line in mine) == pytest.approx(float(row["wins"]))
        mean = sum(int(line["score"]) for line in mine) / len(mine)
        assert mean == pytest.approx(float(row["score"]), abs=0.05)
    by_game = {(g["index"], seat): score for g in data["games"]
               for seat, score in enumerate(g["scores"])}
    assert all(by_game[int(row["game"]), int(row["seat"])] == int(row["score"]) for row in lines)


def test_records_are_saved_and_replay_to_the_reported_scores(tmp_path):
    records, out = tmp_path / "records", tmp_path / "out.json"
    result = simulate(tmp_path, "--records", str(records), "--out", str(out), n=5)
    assert_clean_exit(result, 0)
    files = sorted(p.name for p in records.iterdir())
    assert files == [f"game-{i:05d}.json" for i in range(5)]
    games = json.loads(out.read_text())["games"]
    for game in games:
        state = bw.replay(bw.GameRecord.load(records / f"game-{game['index']:05d}.json"))
        assert state.scores == game["scores"]
        assert state.meta["seats"] == game["seats"]
        assert "record" not in game
    shown = run("show", str(records / "game-00001.json"), "--to-end")
    assert_clean_exit(shown, 0)


def test_one_agent_fills_every_seat_and_options_apply(tmp_path):
    out = tmp_path / "out.json"
    result = run("simulate", "carcassonne", "--agents", "random", "--players", "3", "-n", "3",
                 "--seed", "1", "-x", "abbey_mayor", "-o", "farmers=false", "--out", str(out))
    assert_clean_exit(result, 0)
    assert set(table_rows(result.output)) == {"random#1", "random#2", "random#3"}
    summary = json.loads(out.read_text())["summary"]
    assert summary["players"] == 3
    assert summary["options"]["expansions"] == ["abbey_mayor"]
    assert summary["options"]["farmers"] is False


def test_lineup_rules():
    assert simulation_lineup("random,greedy", None) == ["random", "greedy"]
    assert simulation_lineup("mcts:iters=20,c=0.5,random", None) == ["mcts:iters=20,c=0.5",
                                                                        "random"]
    assert simulation_lineup("random", 4) == ["random"] * 4
    assert seat_names(["random", "greedy", "random"]) == ["random#1", "greedy", "random#2"]


# -- errors ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["simulate", "chess", "-a", "random,random"], "unknown game 'chess'"),
    (["simulate", "carcassonne", "-a", "random,nobody"], "unknown agent 'nobody'"),
    (["simulate", "carcassonne", "-a", "random:depth=2,random"], "no parameter 'depth'"),
    (["simulate", "carcassonne", "-a", "random,random", "-o", "farmers=maybe"], "farmers"),
    (["simulate", "carcassonne", "-a", "random,random", "-o", "nonsense=1"], "nonsense"),
    (["simulate", "carcassonne", "-a", "random,random", "-x", "nowhere"], "nowhere"),
    (["simulate", "carcassonne", "-a", "human,random"], "no human seat"),
    (["simulate", "carcassonne", "-a", "random,,random"], "--agents 'random,,random' has an"),
    (["simulate", "carcassonne", "-a", "random,random", "-p", "3"], "2 agents for --players 3"),
    (["simulate", "carcassonne", "-a", "random,random", "-n", "0"], "-n must be at least 1"),
    (["simulate", "carcassonne", "-a", "random,random", "-w", "0"], "--workers must be"),
    (["simulate", "carcassonne", "-a", "random,random", "--out", "x.txt"], ".json or .csv"),
])
def test_errors_are_one_red_line_and_exit_2(args, message):
    result = run(*args)
    assert_clean_exit(result, 2)
    assert message in result.output
    assert result.output.count("Error:") == 1


# -- Ctrl-C ---------------------------------------------------------------------------------------

def test_ctrl_c_reports_what_finished(tmp_path, monkeypatch):
    def interrupted_play(job):
        if job.index == 5:
            raise KeyboardInterrupt
        return play_game(job)

    monkeypatch.setattr(parallel, "play_game", interrupted_play)
    out = tmp_path / "partial.json"
    result = simulate(tmp_path, "--out", str(out), n=20)
    assert_clean_exit(result, 130)
    assert "Interrupted: 5 of 20 games finished" in result.output
    rows = table_rows(result.output)
    assert all(row["games"] == "5" for row in rows.values()) and len(rows) == 2
    summary = json.loads(out.read_text())["summary"]
    assert summary["interrupted"] and summary["games"] == 5 and summary["games_requested"] == 20


# -- --ray (without starting Ray: see test_simulate_ray.py for a real one) ------------------------

def test_ray_not_installed_gives_a_clear_message(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError
    for extra in (["--ray"], ["--ray", "--seed", "1"], ["--ray=auto"]):
        result = run("simulate", "carcassonne", "-a", "random,random", "-n", "2", *extra)
        assert result.exit_code == 1, result.output
        assert "pip install boardwright[ray]" in result.output
        assert "Traceback" not in result.output


class FakeRay:
    """Stands in for RayRunner: records how it was called, plays in this process."""

    backend = "ray"
    calls: list[tuple] = []

    def __init__(self, jobs, address=None, num_cpus=None):
        self.jobs, self.cpus = list(jobs), 3
        FakeRay.calls.append((address, num_cpus))

    def __iter__(self):
        return (play_game(job) for job in self.jobs)

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


@pytest.mark.parametrize("extra, address, cpus", [
    (["--ray"], None, None),
    (["--ray", "-w", "2"], None, 2),
    (["--ray=auto"], "auto", None),
    (["--ray", "ray://head:10001"], "ray://head:10001", None),
])
def test_ray_address_is_optional(monkeypatch, extra, address, cpus):
    monkeypatch.setattr(ray_runner, "RayRunner", FakeRay)
    FakeRay.calls = []
    result = run("simulate", "carcassonne", "-a", "random,random", "-n", "2", "--seed", "3",
                 *extra)
    assert_clean_exit(result, 0)
    assert FakeRay.calls == [(address, cpus)]
    assert ("local Ray (3 CPUs)" if address is None else f"Ray cluster {address}") in result.output
