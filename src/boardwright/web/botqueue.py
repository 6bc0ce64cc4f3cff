"""The order of the bot pool's work: who waits for a worker, and who gets the next one.

Every bot decision and every hint of a server goes through one `BotQueue`. It starts at most
`slots` pieces of work in the pool at a time (the pool's workers): anything beyond would wait
in the pool's own first-come queue, where three hundred bot-only games created by one visitor
stand in front of everybody else's. The queue chooses instead:

1. urgent work first: a hint, or a bot decision in a game where a human player is connected
   (someone is looking at the table, waiting for the reply);
2. then the rest (bot-only games, games whose players are away), round robin by game: each
   game with work waiting starts one piece, in the order the games began to wait, before any
   game starts a second;
3. and nothing starves: while both kinds wait, one start in every `share + 1` goes to the
   rest, however many urgent pieces keep arriving.

A game whose player connects while its decision waits is moved to the urgent side (`promote`).
A decision of a bot-only game also has a time budget (`budgeted`): a "hard" bot that nobody
plays against searches at most `bot_only_seconds` per decision, so it holds a worker no longer
than that and the next urgent piece never waits behind a long search.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from boardwright.agents import parse_agent_spec

if TYPE_CHECKING:
    from boardwright.web.live import LiveGame

SHARE = 4  # urgent starts in a row while other work waits, before one of the other work
BOT_ONLY_SECONDS = 0.5  # default search budget of a bot-only game's decision
HISTORY = 1000  # recent starts kept for the stats and the tests


class Runner(Protocol):
    """What runs the work: the bot pool (bots.BotPool.run)."""

    async def run(self, function: Callable[[Any], Any], job: Any) -> Any: ...


@dataclass(eq=False)
class _Waiter:
    key: str
    future: asyncio.Future[None] = field(repr=False)


def human_waiting(live: LiveGame) -> bool:
    """Whether a human player of `live` is connected (spectators do not count: anyone can
    watch a bot-only game)."""
    return any(seat is not None and peers for seat, peers in live.connections.items())


def bot_only(live: LiveGame) -> bool:
    return live.humans == []


def budgeted(agent: str, seconds: float | None) -> str:
    """`agent` with its search held to `seconds` per decision: a `seconds` parameter above the
    budget is lowered to it, and a built-in "mcts" that counts playouts gets the budget as a
    deadline too (it stops at whichever comes first). Agents without a search time (random,
    greedy, a policy, "mcts-v1" and "mcts-v2" at their fixed quarter second) are unchanged."""
    if seconds is None:
        return agent
    name, params = parse_agent_spec(agent)
    if "seconds" in params:
        try:
            if float(params["seconds"]) <= seconds:
                return agent
        except ValueError:
            return agent
    elif name != "mcts":
        return agent
    params["seconds"] = f"{seconds:g}"
    return name + ":" + ",".join(f"{key}={value}" for key, value in params.items())


class BotQueue:
    """Starts the pool's work in a fair order (the module docstring says which)."""

    def __init__(self, runner: Runner, slots: int, share: int = SHARE,
                 history: int = HISTORY) -> None:
        if slots < 1 or share < 1:
            raise ValueError("a bot queue needs at least one slot and a share of 1 or more")
        self.runner = runner
        self.slots = slots
        self.share = share
        self.running = 0
        self._urgent: OrderedDict[str, deque[_Waiter]] = OrderedDict()
        self._rest: OrderedDict[str, deque[_Waiter]] = OrderedDict()
        self._streak = 0  # urgent starts in a row while other work waited
        self.history: deque[tuple[str, bool]] = deque(maxlen=history)  # (key, urgent) started
        self.started = {"urgent": 0, "other": 0}

    async def run(self, key: str, urgent: bool, function: Callable[[Any], Any], job: Any) -> Any:
        """`function(job)` in the pool once it is this work's turn; `key` names its game."""
        await self._turn(key, urgent)
        try:
            return await self.runner.run(function, job)
        finally:
            self.running -= 1
            self._wake()

    def waiting(self) -> list[tuple[str, bool]]:
        """(key, urgent) of the work waiting, in the order it will start if nothing else comes
        (the share of the rest applied)."""
        urgent = [(w.key, True) for w in _round_robin(self._urgent)]
        rest = [(w.key, False) for w in _round_robin(self._rest)]
        order: list[tuple[str, bool]] = []
        streak = self._streak
        while urgent or rest:
            if urgent and (not rest or streak < self.share):
                order.append(urgent.pop(0))
                streak = streak + 1 if rest else 0
            else:
                order.append(rest.pop(0))
                streak = 0
        return order

    def promote(self, key: str) -> None:
        """A player of game `key` connected: its waiting work becomes urgent."""
        waiters = self._rest.pop(key, None)
        if waiters:
            self._urgent.setdefault(key, deque()).extend(waiters)

    def stats(self) -> dict[str, Any]:
        return {"slots": self.slots, "running": self.running,
                "waiting_urgent": sum(len(w) for w in self._urgent.values()),
                "waiting_other": sum(len(w) for w in self._rest.values()),
                "started_urgent": self.started["urgent"],
                "started_other": self.started["other"]}

    # -- inside ---------------------------------------------------------------------------------

    async def _turn(self, key: str, urgent: bool) -> None:
        if self.running < self.slots and not self._urgent and not self._rest:
            self._start(key, urgent)
            return
        waiter = _Waiter(key, asyncio.get_running_loop().create_future())
        (self._urgent if urgent else self._rest).setdefault(key, deque()).append(waiter)
        try:
            await waiter.future
        except asyncio.CancelledError:
            if waiter.future.done() and not waiter.future.cancelled():
                self.running -= 1  # its turn had come: the slot goes to the next
                self._wake()
            else:
                self._remove(waiter)
            raise

    def _start(self, key: str, urgent: bool) -> None:
        self.running += 1
        self.history.append((key, urgent))
        self.started["urgent" if urgent else "other"] += 1

    def _wake(self) -> None:
        while self.running < self.slots:
            picked = self._next()
            if picked is None:
                return
            waiter, urgent = picked
            if waiter.future.done():  # cancelled meanwhile (removed on its way out)
                continue
            self._start(waiter.key, urgent)
            waiter.future.set_result(None)

    def _next(self) -> tuple[_Waiter, bool] | None:
        if self._urgent and (not self._rest or self._streak < self.share):
            queue, urgent = self._urgent, True
            self._streak = self._streak + 1 if self._rest else 0
        elif self._rest:
            queue, urgent = self._rest, False
            self._streak = 0
        else:
            return None
        key, waiters = next(iter(queue.items()))
        waiter = waiters.popleft()
        if waiters:
            queue.move_to_end(key)  # its next piece waits for every other game's turn
        else:
            del queue[key]
        return waiter, urgent

    def _remove(self, waiter: _Waiter) -> None:
        for queue in (self._urgent, self._rest):
            waiters = queue.get(waiter.key)
            if waiters is not None and waiter in waiters:
                waiters.remove(waiter)
                if not waiters:
                    del queue[waiter.key]
                return


def _round_robin(queue: OrderedDict[str, deque[_Waiter]]) -> list[_Waiter]:
    """The waiters of one side in the order `_next` takes them."""
    lanes = [list(w) for w in queue.values()]
    order = []
    while lanes:
        order.extend(lane.pop(0) for lane in lanes)
        lanes = [lane for lane in lanes if lane]
    return order
