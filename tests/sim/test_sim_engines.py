"""Simulations play on the engine they are given, in this process and in every worker.

The engine travels in each `GameJob` (plain data), so a worker process or a Ray task loads its
game on the same engine as the command that made the jobs; each result says which one played.
"""

from __future__ import annotations

from typing import Any

import pytest

import boardwright as bw
from boardwright.core import registry
from boardwright.games.carcassonne import native
from boardwright.games.queens.game import QueensGame
from boardwright.sim.parallel import run_jobs
from boardwright.sim.runner import load_game, make_jobs, play_game


class TwoEngineQueens(QueensGame):
    """Queens offering a second engine (the same rules), to see which one a job loads."""

    name = "queens-two-engines"
    engines = ("python", "fast")

    def __init__(self, players: int, options: dict[str, Any], engine: str | None = None) -> None:
        self.engine = self.choose_engine(engine)
        super().__init__(players, options)


@pytest.fixture
def two_engines(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(registry._FACTORIES, TwoEngineQueens.name, TwoEngineQueens)
    return TwoEngineQueens.name


def test_jobs_carry_the_engine() -> None:
    assert {j.engine for j in make_jobs("carcassonne", 2, {}, ["random"] * 2, 3, 1)} == {None}
    jobs = make_jobs("carcassonne", 2, {}, ["random"] * 2, 3, 1, engine="python")
    assert {j.engine for j in jobs} == {"python"}


def test_a_job_plays_on_its_engine(two_engines: str) -> None:
    jobs = make_jobs(two_engines, 2, {}, ["random", "random"], 2, 7, engine="fast")
    fast = [play_game(job) for job in jobs]
    assert [r.engine for r in fast] == ["fast", "fast"]
    assert all(r.to_json()["engine"] == "fast" for r in fast)
    default = [play_game(job) for job in make_jobs(two_engines, 2, {}, ["random"] * 2, 2, 7)]
    assert [r.engine for r in default] == ["python", "python"]
    # The same rules: the engine changes nothing of the outcome.
    assert [r.outcome() for r in fast] == [r.outcome() for r in default]


def test_games_are_cached_per_engine(two_engines: str) -> None:
    assert load_game(two_engines, 2, {}, "fast").engine == "fast"
    assert load_game(two_engines, 2, {}, "python").engine == "python"
    assert load_game(two_engines, 2, {}, None).engine == "python"


def test_a_bad_engine_in_a_job_is_an_error() -> None:
    job = make_jobs("carcassonne", 2, {}, ["random"] * 2, 1, 0, engine="cuda")[0]
    with pytest.raises(bw.InvalidOptionError, match="unknown engine 'cuda'"):
        play_game(job)


def test_worker_processes_play_on_the_jobs_engine() -> None:
    engine = "native" if native.AVAILABLE else "python"
    jobs = make_jobs("carcassonne", 2, {}, ["random", "random"], 4, 3, engine=engine)
    results = list(run_jobs(jobs, workers=2))
    assert sorted(r.index for r in results) == [0, 1, 2, 3]
    assert {r.engine for r in results} == {engine}
