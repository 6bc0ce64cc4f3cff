"""Bot driving: when a bot is to move in a live game, one driver task per game asks the bot
pool (bots.py) for its decision off the event loop and commits it like a player's move
(authority.py); a seat out of time is played by the clock's stand-in the same way (clocks.py).
The decisions wait their turn in the bot queue (botqueue.py): games with a player at the table
first, the others round robin, a bot-only game's search held to its time budget.
"""

from __future__ import annotations

import asyncio
import logging
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

import boardwright as bw
from boardwright.web.botqueue import bot_only, budgeted, human_waiting
from boardwright.web.bots import BotJob, choose_action
from boardwright.web.protocol import ProtocolError
from boardwright.web.storage import StaleRevision

if TYPE_CHECKING:
    from boardwright.web.live import LiveGame
    from boardwright.web.manager import GameManager

log = logging.getLogger("boardwright.web")

RETRY_SECONDS = 1.0  # a bot's move that could not be saved is tried again after this


@dataclass
class BotState:
    """A live game's bot driver: the task moving its bots, while one is to move."""

    task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self.task is not None

    def cancel(self) -> None:
        """Stop the driver (another process drives the bots now, or the server stops); the
        caller's own task is not cancelled."""
        task = self.task
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()
        self.task = None


class BotDriver:
    """Moves the bots of a server's live games: `schedule` starts a game's driver when a bot
    is to move; the driver moves until a human is to move or the game ends."""

    def __init__(self, manager: GameManager, delay: float = 0.0,
                 bot_only_seconds: float | None = None) -> None:
        self.manager = manager
        self.delay = delay  # each bot move takes at least this long, so people can follow
        self.bot_only_seconds = bot_only_seconds  # a bot-only game's search budget

    def schedule(self, live: LiveGame) -> None:
        """Start the game's bot driver when a bot is to move (one driver per game)."""
        if self.manager.closing or live.bot_to_move() is None:
            return
        task = live.bots.task
        if task is None or task.done():
            live.bots.task = asyncio.create_task(self._drive(live))

    async def _drive(self, live: LiveGame) -> None:
        manager = self.manager
        loop = asyncio.get_running_loop()
        while not manager.closing:
            async with live.lock:
                seat = live.bot_to_move()
                if seat is None:
                    live.bots.task = None
                    return
                generation = live.generation
                agent = live.agent_for(seat)
                if bot_only(live):
                    agent = budgeted(agent, self.bot_only_seconds)
                job = BotJob(live.id, live.name, live.players, live.options, live.seed,
                             tuple(live.actions), seat, agent)
                urgent = human_waiting(live)
            started = loop.time()
            try:
                data = await manager.bot_queue.run(live.id, urgent, choose_action, job)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot %s failed in game %s", job.agent, live.id)
                data = None
            wait = self.delay - (loop.time() - started)
            if wait > 0:
                await asyncio.sleep(wait)
            async with live.lock:
                if live.generation != generation or live.bot_to_move() != seat:
                    continue  # the position changed meanwhile (undo): think again
                new = live.state.clone()
                try:
                    if data is None:
                        raise bw.IllegalActionError("no decision")
                    action = live.game.action_from_json(data)
                    new.apply(action)
                except bw.BoardwrightError:
                    if data is not None:  # its kind only: the rest may be the bot's secret
                        kind = data.get("type") if isinstance(data, dict) else None
                        log.error("bot %s chose an illegal move (%r) in game %s", job.agent,
                                  kind, live.id)
                    new = live.state.clone()
                    action = random.Random(generation).choice(new.legal_actions())
                    new.apply(action)
                try:
                    await manager.authority.commit(live, new, action, seat)
                except StaleRevision:  # another process moved first: its bots, now
                    await manager.cluster.reload(live)
                    live.bots.task = None
                    return
                except ProtocolError:  # not saved: wait, then try again
                    live.bots.task = None
                    loop.call_later(RETRY_SECONDS, self.schedule, live)
                    return
