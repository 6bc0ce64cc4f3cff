"""Bots play server-side, off the event loop.

`BotPool.choose(...)` runs `choose_action` in a process pool (the default: a search bot then
never holds the server's GIL) or a thread pool (tests, tiny deployments). A job carries the
game's set-up and its action list, not a pickled state: each worker keeps the states it built
(per game id) and only applies the actions it has not seen, replaying from the record when its
copy is behind an undo or missing. The agent is made anew for each decision with a seed derived
from the game's seed, the seat and the step, so a bot's move does not depend on which worker
ran it, or on a restart of the server.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("boardwright.web")

CACHE_GAMES = 128  # positions a worker keeps


@dataclass(frozen=True)
class PositionJob:
    """Work on one position of a game, for a worker: the game's set-up and record (what the
    worker's position cache reads) and the seat concerned."""

    game_id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    actions: tuple[dict[str, Any], ...]
    seat: int


@dataclass(frozen=True)
class BotJob(PositionJob):
    agent: str
    # The agent's registration when it was registered by a call (agents/registry.py): the
    # spawned workers would not know it otherwise. Filled when the job is made.
    registrations: tuple[Any, ...] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.registrations is None:
            from boardwright.agents.registry import registrations_for

            object.__setattr__(self, "registrations", registrations_for([self.agent]))


class _Cache:
    """Per-process cache: game id -> (state, actions applied)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.states: OrderedDict[str, tuple[Any, list[dict[str, Any]]]] = OrderedDict()

    def take(self, job: PositionJob) -> Any:
        import boardwright as bw

        with self.lock:
            entry = self.states.pop(job.game_id, None)
        if entry is not None:
            state, seen = entry
            n = len(seen)
            if n <= len(job.actions) and list(job.actions[:n]) == seen:
                for data in job.actions[n:]:
                    state.apply(state.game.action_from_json(data))
                return state
        game = bw.load(job.game, job.players, job.options)
        state = game.new_game(job.seed)
        for data in job.actions:
            state.apply(game.action_from_json(data))
        return state

    def keep(self, job: PositionJob, state: Any) -> None:
        with self.lock:
            self.states[job.game_id] = (state, list(job.actions))
            while len(self.states) > CACHE_GAMES:
                self.states.popitem(last=False)


POSITIONS = _Cache()


def decision_seed(seed: int, seat: int, step: int) -> int:
    return (seed * 101 + seat + 1) * 1_000_003 + step


def choose_action(job: BotJob) -> dict[str, Any]:
    """The bot's action (JSON) for the position after `job.actions` (runs in a worker)."""
    from boardwright.agents import make_agent
    from boardwright.agents.registry import install

    install(job.registrations)
    state = POSITIONS.take(job)
    if state.current_player != job.seat or state.is_terminal:
        raise ValueError(f"seat {job.seat} is not to move in game {job.game_id}")
    agent = make_agent(job.agent, seed=decision_seed(job.seed, job.seat, len(job.actions)))
    try:
        action = agent.act(state.clone())
    except Exception:  # a bot bug must not stall the game: fall back to a random legal move
        log.exception("agent %s failed in game %s; playing a random move", job.agent,
                      job.game_id)
        rng = random.Random(decision_seed(job.seed, job.seat, len(job.actions)))
        action = rng.choice(state.legal_actions())
    POSITIONS.keep(job, state)
    return action.to_json()


def watch_parent(parent: int) -> None:
    """Worker initializer: exit when the server process is gone (even after a kill -9, which
    gives the pool no chance to stop its workers)."""
    import time

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="boardwright-parent-watch", daemon=True).start()


def _warm_up() -> int:
    import boardwright
    import boardwright.agents  # noqa: F401

    return os.getpid()


class BotPool:
    """Where bot decisions run: "process" (default) or "thread" workers."""

    def __init__(self, mode: str = "process", workers: int | None = None) -> None:
        if mode not in ("process", "thread"):
            raise ValueError(f"bot mode must be 'process' or 'thread', not {mode!r}")
        self.mode = mode
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self._executor: Executor | None = None
        self._lock = threading.Lock()

    def _make(self) -> Executor:
        if self.mode == "thread":
            return ThreadPoolExecutor(self.workers, thread_name_prefix="boardwright-bot")
        # spawn: the server has threads (database writer, uvicorn), fork would copy their locks
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=watch_parent, initargs=(os.getpid(),))

    @property
    def executor(self) -> Executor:
        with self._lock:
            if self._executor is None:
                self._executor = self._make()
            return self._executor

    def start(self) -> None:
        """Start the workers now (a process pool imports the engine in each)."""
        executor = self.executor
        if self.mode == "process":
            for future in [executor.submit(_warm_up) for _ in range(self.workers)]:
                future.result(timeout=120)

    async def choose(self, job: BotJob) -> dict[str, Any]:
        return await self.run(choose_action, job)

    async def run(self, function: Callable[[Any], Any], job: Any) -> Any:
        """`function(job)` in a worker (a module-level function: process workers import it)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.executor, function, job)
        except BrokenProcessPool:  # a worker died (OOM, killed): start a new pool, retry once
            log.warning("bot worker pool broke; restarting it")
            with self._lock:
                broken, self._executor = self._executor, None
            if broken is not None:
                broken.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(self.executor, function, job)

    def shutdown(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
