"""Run simulation jobs in this process or in a pool of worker processes.

`ProcessRunner` yields results as games finish (in-process for one worker, otherwise a
`multiprocessing` pool with `imap_unordered`, chunksize 1, so a slow game never holds others
back). The pool is created in the constructor, before a caller starts progress threads, and
its workers ignore SIGINT: Ctrl-C reaches only the main process, which terminates the pool.
`collect` drives any such iterator and turns a KeyboardInterrupt into a clean stop that keeps
what finished.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from boardwright.sim.runner import GameJob, GameResult, play_game


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class ProcessRunner:
    """Plays jobs with `workers` processes (1: in this process), yielding results as they end."""

    backend = "process"

    def __init__(self, jobs: Iterable[GameJob], workers: int = 1) -> None:
        self.jobs = list(jobs)
        self.workers = max(1, min(workers, len(self.jobs) or 1))
        self.pool: Any = None
        if self.workers > 1:
            context = multiprocessing.get_context()
            self.pool = context.Pool(processes=self.workers, initializer=_ignore_sigint)

    def __iter__(self) -> Iterator[GameResult]:
        if self.pool is None:
            for job in self.jobs:
                yield play_game(job)
            return
        try:
            yield from self.pool.imap_unordered(play_game, self.jobs, chunksize=1)
            self.pool.close()
        finally:
            self.close()

    # How long `close` waits for the pool to stop before leaving it behind, in seconds.
    terminate_wait = 10.0

    def close(self) -> None:
        """Stop the workers (whatever they are doing) and wait for them to exit.

        `Pool.terminate()` can hang for ever (CPython issues 96995 and 73945): a worker stopped
        while it writes a result keeps the result queue's lock, and the pool's task handler
        then waits on it. It is therefore run in a daemon thread and given `terminate_wait`
        seconds; past that, the workers are killed and the pool's stuck threads are left behind
        (daemon threads: they do not keep the process alive), so an error in a worker still
        reaches the caller."""
        pool, self.pool = self.pool, None
        if pool is None:
            return
        stopper = threading.Thread(target=pool.terminate, name="pool-terminate", daemon=True)
        stopper.start()
        stopper.join(self.terminate_wait)
        if stopper.is_alive():
            for process in getattr(pool, "_pool", ()):
                process.kill()
            return
        pool.join()

    def __enter__(self) -> ProcessRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_jobs(jobs: Iterable[GameJob], workers: int = 1) -> Iterator[GameResult]:
    """Results of `jobs` as they finish (see ProcessRunner)."""
    runner = ProcessRunner(jobs, workers)
    try:
        yield from runner
    finally:
        runner.close()


@dataclass
class Collected:
    results: list[GameResult]
    interrupted: bool  # True when Ctrl-C stopped the run early


def collect(results: Iterable[GameResult],
            on_result: Callable[[GameResult], None] | None = None) -> Collected:
    """Drain an iterator of results, calling `on_result` for each. A KeyboardInterrupt (in the
    iterator or in the callback) stops the run cleanly: the runner is closed and the results
    that finished are returned with `interrupted=True`."""
    done: list[GameResult] = []
    interrupted = False
    iterator = iter(results)
    try:
        for result in iterator:
            done.append(result)
            if on_result is not None:
                on_result(result)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        for closer in (getattr(iterator, "close", None), getattr(results, "close", None)):
            if closer is not None:
                closer()
    return Collected(done, interrupted)
