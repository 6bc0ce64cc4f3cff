"""Analyses of finished games on the web table: started from the replay page, run off the event
loop, their progress polled, the result stored with the game.

    POST /api/games/{id}/analysis   start (202 with the progress), or 200 with the stored one
    GET  /api/games/{id}/analysis   {"status": "none" | "queued" | "running" | "done" |
                                     "failed", "done", "total", "analysis", "error"}

Only finished games are analysed (409 otherwise): an analysis reads the whole record, hidden
draws included, so during a game it would tell spectators what the players cannot know. One
analysis runs at a time on the server (others queue), and at most one per game: a second start
returns the running one. Decisions run in a process pool of their own, so bots of other games
keep their workers; with `mode="thread"` (tests, tiny deployments) in the analysis thread.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

import boardwright as bw
from boardwright.agents.analysis import Analysis, Settings, analyse, record_hash
from boardwright.web.bots import watch_parent
from boardwright.web.errors import RequestError
from boardwright.web.storage import Storage

log = logging.getLogger("boardwright.web")

FINISHED = "finished"


@dataclass
class Job:
    """An analysis queued or running (its progress is read by the polling endpoint)."""

    status: str = "queued"
    done: int = 0
    total: int = 0
    error: str | None = None
    future: Any = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"status": self.status, "done": self.done, "total": self.total}
        if self.error is not None:
            data["error"] = self.error
        return data


class Analyses:
    """The server's analyses: one thread runs them in turn, decisions spread over a pool."""

    def __init__(self, storage: Storage, mode: str = "process", workers: int | None = None,
                 iterations: int | None = None) -> None:
        self.storage = storage
        self.mode = mode
        self.workers = workers or max(1, min(2, os.cpu_count() or 1))
        self.settings = Settings(iterations=iterations)  # None: the default per player count
        self.jobs: dict[str, Job] = {}  # queued, running or failed (done ones are stored)
        self._runner = ThreadPoolExecutor(1, thread_name_prefix="boardwright-analysis")
        self._pool: Executor | None = None
        self._lock = threading.Lock()

    # -- requests -------------------------------------------------------------------------------

    async def status(self, game_id: str) -> dict[str, Any]:
        row = await self._finished_row(game_id)
        job = self.jobs.get(game_id)
        if job is not None and job.status != "done":
            return job.to_json()
        stored = await asyncio.to_thread(self._stored, row)
        if stored is not None:
            return {"status": "done", "analysis": stored}
        return {"status": "none"}

    async def start(self, game_id: str) -> tuple[int, dict[str, Any]]:
        """(HTTP status, body): 200 and the stored analysis, or 202 and the job's progress."""
        row = await self._finished_row(game_id)
        job = self.jobs.get(game_id)
        if job is not None and job.status in ("queued", "running"):
            return 202, job.to_json()
        stored = await asyncio.to_thread(self._stored, row)
        if stored is not None:
            return 200, {"status": "done", "analysis": stored}
        job = self.jobs[game_id] = Job(total=len(row["record"]))
        job.future = self._runner.submit(self._run, game_id, row, job)
        return 202, job.to_json()

    async def _finished_row(self, game_id: str) -> dict[str, Any]:
        row = await asyncio.to_thread(self.storage.get, game_id) if len(game_id) <= 64 else None
        if row is None:
            raise RequestError(404, f"no game {game_id!r}")
        if row["status"] != FINISHED:
            raise RequestError(409, "a game is analysed once it is finished (during a game an "
                                    "analysis would show what the players cannot see)")
        return row

    # -- work (in the analysis thread) ---------------------------------------------------------

    def _record(self, row: dict[str, Any]) -> bw.GameRecord:
        return bw.GameRecord(game=row["game"], version=row["version"], options=row["options"],
                             seed=row["seed"], players=row["players"], actions=row["record"])

    def _stored(self, row: dict[str, Any]) -> dict[str, Any] | None:
        """The stored analysis if it is the one this server would make of this record."""
        stored = self.storage.get_analysis(row["id"])
        if stored is None:
            return None
        try:
            record = self._record(row)
            analysis = Analysis.from_json(stored["result"])
        except bw.BoardwrightError:
            return None
        settings = self.settings.resolved(record)
        if not analysis.matches(record_hash(record), settings):
            return None
        return stored["result"]

    def _executor(self) -> Executor | None:
        if self.mode == "thread":
            return None
        with self._lock:
            if self._pool is None:  # spawned, and gone with the server even after a kill -9
                self._pool = ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=watch_parent, initargs=(os.getpid(),))
            return self._pool

    def _run(self, game_id: str, row: dict[str, Any], job: Job) -> None:
        job.status = "running"

        def progress(done: int, total: int) -> None:
            job.done, job.total = done, total

        try:
            result = analyse(self._record(row), self.settings, workers=1,
                             executor=self._executor(), progress=progress)
            self.storage.save_analysis(game_id, result.to_json())
            job.status = "done"
            self.jobs.pop(game_id, None)
        except bw.BoardwrightError as exc:
            job.status, job.error = "failed", str(exc)
        except Exception as exc:  # noqa: BLE001 - reported to the page, logged in full
            log.exception("analysis of game %s failed", game_id)
            job.status, job.error = "failed", f"the analysis failed ({type(exc).__name__})"

    def shutdown(self) -> None:
        self._runner.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def analysis_router(analyses: Analyses) -> APIRouter:
    router = APIRouter()

    @router.get("/api/games/{game_id}/analysis")
    async def get_analysis(game_id: str) -> Any:
        return await analyses.status(game_id)

    @router.post("/api/games/{game_id}/analysis")
    async def start_analysis(game_id: str) -> Any:
        status, body = await analyses.start(game_id)
        return JSONResponse(body, status_code=status)

    return router
