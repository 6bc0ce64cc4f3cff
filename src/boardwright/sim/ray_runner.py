"""Run simulation jobs as Ray tasks: on a local Ray, or on a cluster given its address.

Each job is one task calling `play_game`, so results are identical to a local run with the
same seed. Tasks are submitted in a bounded window (about two per CPU of the cluster) and
collected with `ray.wait` as they finish. Ray is imported lazily: without it, a clear
`RayUnavailableError` says how to install it. On a cluster, the workers need boardwright
installed (the same version), e.g. through a runtime environment.
"""

from __future__ import annotations

import logging
from typing import Any, Iterable, Iterator

from boardwright.core.errors import BoardwrightError
from boardwright.sim.runner import GameJob, GameResult, play_game

INSTALL_HINT = "pip install boardwright[ray]"


class RayUnavailableError(BoardwrightError):
    """Ray is not installed, or the Ray cluster cannot be reached."""


def import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RayUnavailableError(
            f"--ray needs Ray, which is not installed: {INSTALL_HINT}") from None
    return ray


class RayRunner:
    """Plays jobs as Ray tasks, yielding results as they finish.

    Connects to `address` (e.g. "auto" or "ray://host:10001"), or starts a local Ray with
    `num_cpus` CPUs (None: all) when no address is given. A Ray this runner started is shut
    down by `close()`; one that was already running is left alone.
    """

    backend = "ray"

    def __init__(self, jobs: Iterable[GameJob], address: str | None = None,
                 num_cpus: int | None = None, max_in_flight: int | None = None) -> None:
        ray = import_ray()
        self.ray = ray
        self.jobs = list(jobs)
        self.started = False
        self.pending: list[Any] = []
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.ERROR}
            if address:
                kwargs["address"] = address
            elif num_cpus is not None:
                kwargs["num_cpus"] = num_cpus
            try:
                ray.init(**kwargs)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = f"the Ray cluster at {address}" if address else "a local Ray"
                first = str(exc).strip().splitlines()
                raise RayUnavailableError(
                    f"cannot start {where}: {first[0] if first else type(exc).__name__}"
                ) from None
            self.started = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.window = max_in_flight or max(4, 2 * cpus)
        self.cpus = cpus
        self.task = ray.remote(num_cpus=1, max_retries=0)(play_game)

    def __iter__(self) -> Iterator[GameResult]:
        ray = self.ray
        queue = iter(self.jobs)
        try:
            for job in queue:
                self.pending.append(self.task.remote(job))
                if len(self.pending) >= self.window:
                    break
            while self.pending:
                ready, self.pending = ray.wait(self.pending, num_returns=1, timeout=0.5)
                for ref in ready:
                    job = next(queue, None)
                    if job is not None:
                        self.pending.append(self.task.remote(job))
                    yield _unwrap(ray, ref)
        finally:
            self.close()

    def close(self) -> None:
        """Cancel the tasks still running and shut down a Ray this runner started."""
        ray = self.ray
        pending, self.pending = self.pending, []
        if pending:
            # Not force=True: force-cancelling a task whose reply is on its way can abort the
            # driver (a failed check in Ray's task manager, seen with Ray 2.60). A plain cancel
            # interrupts the game in the worker; a Ray started here is shut down just after.
            _, running = ray.wait(pending, num_returns=len(pending), timeout=0)
            for ref in running:
                try:
                    ray.cancel(ref, force=False)
                except Exception:  # noqa: BLE001 - a task that just finished cannot be cancelled
                    pass
        if self.started:
            self.started = False
            ray.shutdown()

    def __enter__(self) -> RayRunner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _unwrap(ray: Any, ref: Any) -> GameResult:
    """The task's result; a BoardwrightError raised in the task is raised here as itself."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, BoardwrightError):
            raise cause from None
        raise


def run_jobs_ray(jobs: Iterable[GameJob], address: str | None = None,
                 num_cpus: int | None = None) -> Iterator[GameResult]:
    """Results of `jobs` run as Ray tasks, as they finish (see RayRunner)."""
    runner = RayRunner(jobs, address=address, num_cpus=num_cpus)
    try:
        yield from runner
    finally:
        runner.close()
