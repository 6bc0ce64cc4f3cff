"""Simulations on a real local Ray (2 CPUs): the same results as in-process, and the CLI's --ray.

One Ray for the whole module (starting it takes a few seconds); skipped only when Ray cannot
be imported (`pip install boardwright[ray]`; `make test` installs it). This file sorts after
the other simulation tests, so no multiprocessing pool forks a process that has run Ray.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from boardwright.cli import app
from boardwright.games.carcassonne import native
from boardwright.sim.parallel import collect, run_jobs
from boardwright.sim.ray_runner import RayRunner, run_jobs_ray
from boardwright.sim.runner import make_jobs

ray = pytest.importorskip("ray")

RUNNER = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None, "COLUMNS": "140"})


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    yield
    ray.shutdown()


def jobs(n: int, seed: int = 3):
    return make_jobs("carcassonne", 2, {}, ["random", "random"], n, seed,
                     labels=["r1", "r2"], records=True)


def outcomes(results):
    return [(r.outcome(), r.record) for r in sorted(results, key=lambda r: r.index)]


def test_ray_gives_the_same_results_as_one_process():
    batch = jobs(10)
    on_ray = list(run_jobs_ray(batch))
    assert sorted(r.index for r in on_ray) == list(range(10))
    assert outcomes(on_ray) == outcomes(run_jobs(batch, workers=1))
    assert ray.is_initialized()  # a Ray the runner did not start is left running


def test_ray_tasks_play_on_the_jobs_engine():
    engine = "native" if native.AVAILABLE else "python"
    batch = make_jobs("carcassonne", 2, {}, ["random", "random"], 4, 6, engine=engine)
    assert {r.engine for r in run_jobs_ray(batch)} == {engine}


def test_a_small_window_still_runs_every_job():
    runner = RayRunner(jobs(7, seed=8), max_in_flight=2)
    assert runner.window == 2 and not runner.started
    got = collect(runner)
    assert not got.interrupted and sorted(r.index for r in got.results) == list(range(7))


def test_stopping_early_cancels_the_rest():
    runner = RayRunner(jobs(30, seed=2), max_in_flight=4)

    def stop(result):
        if stop.count == 1:
            raise KeyboardInterrupt
        stop.count += 1

    stop.count = 0
    got = collect(runner, stop)
    assert got.interrupted and len(got.results) == 2
    assert runner.pending == []
    assert ray.is_initialized()


def test_simulate_with_ray_matches_workers(tmp_path):
    on_ray, local = tmp_path / "ray.json", tmp_path / "local.json"
    args = ["simulate", "carcassonne", "-a", "random,random", "-n", "8", "--seed", "4"]
    first = RUNNER.invoke(app, args + ["--out", str(on_ray), "--ray"])
    assert first.exit_code == 0, first.output
    assert "local Ray (2 CPUs)" in first.output
    second = RUNNER.invoke(app, args + ["--out", str(local), "--workers", "1"])
    assert second.exit_code == 0, second.output
    a, b = json.loads(on_ray.read_text()), json.loads(local.read_text())
    assert a["summary"]["backend"] == "ray" and b["summary"]["backend"] == "process"
    keys = ("index", "seed", "seats", "scores", "returns", "winners", "turns", "decisions")
    assert [{k: g[k] for k in keys} for g in a["games"]] == \
        [{k: g[k] for k in keys} for g in b["games"]]
    def report(data):  # the per-agent statistics, without timings
        return [{k: v for k, v in row.items() if k != "ms_per_decision"}
                for row in data["summary"]["agents"]]

    assert report(a) == report(b)


def test_an_agent_registered_by_a_call_plays_in_ray_tasks(own_agent_registry):
    """A Ray worker is a process of its own that never saw the registration: the agent reaches
    it with the job (a partial of a built-in class pickles by reference)."""
    import functools

    import boardwright as bw
    from boardwright.agents import GreedyAgent

    bw.register_agent("shallow", functools.partial(GreedyAgent, depth=1))
    batch = make_jobs("queens", 2, {}, ["shallow", "random"], 4, 11)
    assert [entry.name for entry in batch[0].registrations] == ["shallow"]
    on_ray = sorted(run_jobs_ray(batch), key=lambda r: r.index)
    assert [r.outcome() for r in on_ray] == [r.outcome() for r in run_jobs(batch, workers=1)]
