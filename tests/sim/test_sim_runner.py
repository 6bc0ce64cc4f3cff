"""Simulation jobs: seeds, seat rotation, determinism across workers, records, Ctrl-C."""

from __future__ import annotations

import threading
from collections import Counter

import pytest

import boardwright as bw
from boardwright import agents as agent_registry
from boardwright.agents import RandomAgent
from boardwright.sim import parallel
from boardwright.sim.parallel import ProcessRunner, collect, run_jobs
from boardwright.sim.runner import (
    GameJob, GameResult, game_seed, make_jobs, play_game, rotate,
)

LINEUP = ["random", "random:seed=5"]


def jobs(n: int = 6, seed: int = 1, **kwargs) -> list[GameJob]:
    return make_jobs("carcassonne", 2, {}, LINEUP, n, seed, labels=["r1", "r2"], **kwargs)


def outcomes(results: list[GameResult]) -> list[tuple]:
    return [r.outcome() for r in sorted(results, key=lambda r: r.index)]


# -- jobs -----------------------------------------------------------------------------------------

def test_rotation_moves_every_agent_through_every_seat():
    assert rotate(["a", "b", "c"], 0) == ["a", "b", "c"]
    assert rotate(["a", "b", "c"], 1) == ["b", "c", "a"]
    assert rotate(["a", "b", "c"], 5) == ["c", "a", "b"]
    made = make_jobs("carcassonne", 3, {}, ["x", "y", "z"], 9, 0)
    assert [job.agents[0] for job in made] == ["x", "y", "z"] * 3
    seats = Counter((seat, name) for job in made for seat, name in enumerate(job.agents))
    assert set(seats.values()) == {3}  # each agent 3 times in each seat
    assert all(job.labels == job.agents for job in made)


def test_seeds_derive_from_base_seed_and_index():
    a, b = jobs(5, seed=1), jobs(5, seed=2)
    assert [j.seed for j in a] == [game_seed(1, i) for i in range(5)]
    assert len({j.seed for j in a}) == 5
    assert not {j.seed for j in a} & {j.seed for j in b}
    later = make_jobs("carcassonne", 2, {}, LINEUP, 2, 1, start=3)
    assert [(j.index, j.seed) for j in later] == [(j.index, j.seed) for j in a[3:5]]
    assert game_seed(1, 0) == game_seed(1, 0) and 0 <= game_seed(1, 0) < 2**53


def test_lineup_must_fill_the_seats():
    with pytest.raises(bw.InvalidOptionError):
        make_jobs("carcassonne", 3, {}, LINEUP, 1, 0)


def test_play_game_result():
    job = jobs(1)[0]
    result = play_game(job)
    assert result.index == 0 and result.seed == job.seed and result.seats == ["r1", "r2"]
    assert result.turns and result.turns > 60
    assert result.decisions == sum(result.seat_decisions) > result.turns
    assert max(result.scores) == result.scores[result.winners[0]]
    assert result.returns in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    assert result.peak_rss_bytes > 1_000_000
    assert result.seconds > 0 and len(result.seat_seconds) == 2
    assert result.record is None
    assert play_game(job).outcome() == result.outcome()


def test_record_replays_to_the_reported_scores():
    for job in jobs(3, seed=9, records=True):
        result = play_game(job)
        record = bw.GameRecord.from_json(result.record)
        assert record.meta["seats"] == list(job.labels)
        assert bw.replay(record).scores == result.scores


def test_game_options_and_expansions_reach_the_game():
    job = make_jobs("carcassonne", 2, {"expansions": ["abbey_mayor"], "farmers": False},
                    ["random", "random"], 1, 3, records=True)[0]
    record = play_game(job).record
    assert record["options"]["expansions"] == ["abbey_mayor"]
    assert record["options"]["farmers"] is False


def test_agent_statistics_are_reported(monkeypatch):
    class Counting(RandomAgent):
        name = "counting"

        def __init__(self, seed=None):
            super().__init__(seed)
            self.iterations_per_decision = 42.0

    monkeypatch.setitem(agent_registry.AGENTS, "counting", Counting)
    monkeypatch.setitem(agent_registry.PARAMETERS, "counting", {})
    job = make_jobs("carcassonne", 2, {}, ["counting", "random"], 1, 0)[0]
    result = play_game(job)
    assert result.agent_stats == [{"iterations_per_decision": 42.0}, {}]


def test_unknown_agent_raises():
    job = GameJob("carcassonne", 2, {}, ("random", "nobody"), seed=1, index=0)
    with pytest.raises(bw.InvalidOptionError, match="nobody"):
        play_game(job)


# -- running --------------------------------------------------------------------------------------

def test_same_results_in_process_and_in_a_pool():
    batch = jobs(8, seed=4)
    one = list(run_jobs(batch, workers=1))
    assert [r.index for r in one] == list(range(8))  # in-process keeps the order
    two = list(run_jobs(batch, workers=2))
    assert sorted(r.index for r in two) == list(range(8))
    assert outcomes(one) == outcomes(two)


def test_a_pool_never_has_more_workers_than_jobs():
    with ProcessRunner(jobs(1), workers=4) as runner:
        assert runner.workers == 1 and runner.pool is None
        assert len(list(runner)) == 1


def test_ctrl_c_in_the_iterator_keeps_what_finished():
    def results():
        for job in jobs(5):
            if job.index == 3:
                raise KeyboardInterrupt
            yield play_game(job)

    got = collect(results())
    assert got.interrupted
    assert [r.index for r in got.results] == [0, 1, 2]


def test_ctrl_c_in_process_stops_before_the_next_game(monkeypatch):
    calls = []

    def interrupted_play(job):
        calls.append(job.index)
        if job.index == 2:
            raise KeyboardInterrupt
        return play_game(job)

    monkeypatch.setattr(parallel, "play_game", interrupted_play)
    got = collect(ProcessRunner(jobs(6), workers=1))
    assert got.interrupted and [r.index for r in got.results] == [0, 1]
    assert calls == [0, 1, 2]


def test_ctrl_c_terminates_the_pool_and_keeps_what_finished():
    runner = ProcessRunner(jobs(40), workers=2)
    pool = runner.pool
    seen = []

    def on_result(result):
        seen.append(result.index)
        if len(seen) == 3:
            raise KeyboardInterrupt

    got = collect(runner, on_result)
    assert got.interrupted
    assert len(got.results) == 3 and [r.index for r in got.results] == seen
    assert runner.pool is None
    with pytest.raises(ValueError):  # the pool was terminated
        pool.apply(len, ([],))
    expected = {r.index: r.outcome() for r in run_jobs([jobs(40)[i] for i in seen])}
    assert {r.index: r.outcome() for r in got.results} == expected


def test_errors_in_workers_reach_the_caller():
    bad = [GameJob("carcassonne", 2, {}, ("random", "nobody"), seed=1, index=i)
           for i in range(2)]
    with pytest.raises(bw.InvalidOptionError, match="nobody"):
        list(run_jobs(bad, workers=2))


def test_a_pool_whose_terminate_hangs_is_left_behind_and_its_workers_killed():
    """Pool.terminate() can block for ever (a worker stopped while holding the result queue's
    lock): close() gives it `terminate_wait` seconds, then kills the workers and returns. A
    stand-in pool whose terminate never returns makes the hang certain."""
    release = threading.Event()
    killed: list[int] = []

    class Worker:
        def __init__(self, n: int) -> None:
            self.n = n

        def kill(self) -> None:
            killed.append(self.n)

    class HangingPool:
        _pool = [Worker(0), Worker(1)]
        joined = False

        def terminate(self) -> None:
            release.wait()

        def join(self) -> None:
            self.joined = True

    runner = ProcessRunner(jobs(1), workers=1)  # (one worker: no pool of its own)
    runner.pool = stand_in = HangingPool()
    runner.terminate_wait = 0.05
    try:
        runner.close()
        assert runner.pool is None and killed == [0, 1] and not stand_in.joined
    finally:
        release.set()


def test_close_joins_a_pool_that_terminates():
    class Pool:
        _pool: list = []
        joined = False

        def terminate(self) -> None:
            pass

        def join(self) -> None:
            self.joined = True

    runner = ProcessRunner(jobs(1), workers=1)
    runner.pool = stand_in = Pool()
    runner.close()
    assert runner.pool is None and stand_in.joined
