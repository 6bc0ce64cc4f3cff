"""The authority over live games' positions: it applies moves, commits them and tells everyone.

Every change of a game happens under that game's `asyncio.Lock`, in this order: the engine
checks the move on a clone of the state, the database commits the new record (`save_row`), then
the clone becomes the state and every connection gets a state frame with ITS OWN view. Every
write of a game row is conditional on the revision the game is at: several server processes
can share one PostgreSQL database (cluster.py says how they stay in step). Bots' moves
(botdriver.py) and undos (the free one here, by agreement in agreement.py) take the same path.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import TYPE_CHECKING, Any

import boardwright as bw
from boardwright.agents import HUMAN
from boardwright.web.agreement import request as request_undo
from boardwright.web.agreement import stamp
from boardwright.web.clocks import after_move, stands_in
from boardwright.web.ending import closing, stored_seats
from boardwright.web.live import FINISHED, OPEN, RUNNING, LiveGame
from boardwright.web.position import ViewCache, last_action, public_scores, rebuild, visible_scores
from boardwright.web.protocol import (
    GAME_OVER,
    ILLEGAL_ACTION,
    MALFORMED,
    NOT_YOUR_TURN,
    SERVER_ERROR,
    STALE,
    ProtocolError,
)
from boardwright.web.ratings import FinishRating
from boardwright.web.storage import StaleRevision, now

if TYPE_CHECKING:
    from boardwright.web.manager import GameManager

log = logging.getLogger("boardwright.web")

MOVE_TIMES = 10_000  # the server-side times of the last accepted moves kept for the stats


class Authority:
    """Applies the moves and undos of a server's live games: checked by the engine, saved,
    then shown. Counts the accepted moves and their server-side time (frame received -> frames
    queued, in ms) for the stats."""

    def __init__(self, manager: GameManager) -> None:
        self.manager = manager
        self.move_times: deque[float] = deque(maxlen=MOVE_TIMES)
        self.moves = 0

    # -- moves ----------------------------------------------------------------------------------

    async def move(self, live: LiveGame, seat: int, data: dict[str, Any],
                   step: int | None) -> None:
        started = time.perf_counter()
        async with live.lock:
            state = live.state
            if live.over:
                raise ProtocolError(GAME_OVER, "the game is over: no more moves")
            if step is not None and step != live.step:
                raise ProtocolError(STALE, f"your move was made for step {step} but the "
                                           f"game is at step {live.step}: look at the new "
                                           "position and move again")
            current = state.current_player
            if current != seat:
                who = "a bot" if live.kinds[current] != HUMAN else f"seat {current}"
                raise ProtocolError(NOT_YOUR_TURN, f"it is not your turn: {who} is to "
                                                   "move")
            if stands_in(live, seat):
                why = ("you resigned: a bot plays your seat to the end"
                       if live.seats[seat].get("out") else
                       "you lost on time: a bot plays your seat to the end"
                       if live.clock is not None and seat in live.clock.lost
                       else "your time ran out: a bot plays this turn")
                raise ProtocolError(NOT_YOUR_TURN, why)
            try:
                action = live.game.action_from_json(data)
            except bw.BoardwrightError as exc:
                raise ProtocolError(MALFORMED, f"the action cannot be read: {exc}") from None
            except Exception:  # noqa: BLE001 - any input the parser did not expect
                raise ProtocolError(MALFORMED, "the action cannot be read") from None
            new = state.clone()
            try:
                new.apply(action)
            except bw.GameOverError as exc:
                raise ProtocolError(GAME_OVER, str(exc)) from None
            except bw.BoardwrightError as exc:
                raise ProtocolError(ILLEGAL_ACTION, str(exc)) from None
            await self.commit(live, new, action, seat)
        self.moves += 1
        self.move_times.append(1000 * (time.perf_counter() - started))

    async def commit(self, live: LiveGame, new: bw.State, action: bw.Action, seat: int) -> None:
        """Save the new record, then make it the game's state and broadcast (lock held)."""
        manager = self.manager
        last = last_action(live.game, live.views, action, seat, live.describe)
        data = action.to_json()
        actions = live.actions + [data]
        status = FINISHED if new.is_terminal else (
            OPEN if any(not live.seats[s].get("joined") for s in live.humans) else RUNNING)
        views = ViewCache(new)
        values = {"record": actions, "step": len(actions), "status": status,
                  "scores": visible_scores(new, views.view(None)), "updated": now()}
        clock = after_move(live, new, seat, live.time())
        if clock is not None:
            values["clock"] = clock.to_json()
        if status != FINISHED:
            await self.save_row(live, values, "a move of game %s",
                                "the move could not be saved; the game is unchanged, try again")
            live.rated = bool(values.get("rated", live.rated))
        else:  # the last move, the places, the ratings and each seat's change: one transaction
            write = closing(manager.storage, live, live.seats,
                            clock.to_json() if clock is not None else None, new.returns(),
                            values)
            await self.save_row(live, write, "the last move and the ratings of game %s",
                                "the move could not be saved; the game is unchanged, try again")
            live.seats = stored_seats(write)
            live.rated = bool(values.get("rated", live.rated))
        stamp(live, views, action)  # before set_state: it reads the position moved from
        live.clock = clock
        live.undo.request = None  # a request was about the position before this move
        live.set_state(new, views)
        live.actions = actions
        live.actors.append(seat)
        live.last = last
        live.status = status
        manager.clocks.sync(live)
        live.broadcast()
        manager.bot_driver.schedule(live)
        if status == FINISHED:
            manager.evict_if_idle(live)  # nobody watching: it lives on in the database only

    async def save_row(self, live: LiveGame, values: dict[str, Any] | FinishRating,
                       what: str, refusal: str) -> None:
        """Write a change of the game row (or run an operation that writes it with other
        rows) before anyone is told of it. A failed write is logged and refused with
        `refusal`, and the live game stays as it was."""
        writer = self.manager.writer
        try:
            assert writer is not None
            if isinstance(values, dict):
                live.revision = await writer.update(live.id, values, live.revision)
            else:  # an operation that writes the row with others (the ratings at the end)
                values.revision = live.revision
                live.revision = await writer.call(values, live.id)
        except StaleRevision:  # another process changed the game first: the caller reloads
            raise
        except Exception:
            log.exception("could not save " + what, live.id)
            raise ProtocolError(SERVER_ERROR, refusal) from None

    # -- undo -----------------------------------------------------------------------------------

    async def undo(self, live: LiveGame, seat: int) -> None:
        """Alone against bots: take back at once. With several humans: ask the others
        (agreement.py)."""
        if live.humans != [seat]:
            await request_undo(live, seat)
            return
        async with live.lock:
            if live.humans != [seat]:
                raise ProtocolError(ILLEGAL_ACTION, "undo is only for games with exactly one "
                                                    "human seat (training against bots)")
            if live.over:
                raise ProtocolError(GAME_OVER, "the game is over: moves can no longer be "
                                               "taken back")
            mine = [i for i, actor in enumerate(live.actors) if actor == seat]
            if not mine:
                raise ProtocolError(ILLEGAL_ACTION, "nothing to undo: you have not moved "
                                                    "yet")
            await self.take_back(live, live.actions[:mine[-1]], unrate=True)

    async def take_back(self, live: LiveGame, keep: list[dict[str, Any]],
                        unrate: bool = False) -> None:
        """Go back to the position after the actions `keep` (lock held): the free undo and an
        undo the players agreed to. The clocks keep the time they had; the seat to move now
        has its clock running from here. The free undo (`unrate`) makes the game unrated: a
        move taken back alone is training; an undo every player agreed to keeps the rating,
        as a takeback the opponent grants does on lichess."""
        manager = self.manager
        state, actors, last = await asyncio.to_thread(
            rebuild, live.game, live.seed, keep, live.describe)
        values = {"record": keep, "step": len(keep), "status": RUNNING,  # its humans joined
                  "scores": public_scores(state), "updated": now()}
        if unrate:
            values["rated"] = False  # a move taken back alone: no longer a rated game
        clock = None
        if live.clock is not None:
            clock = live.clock.stopped(live.time())
            clock.flagged.clear()  # out of time in a turn that is taken back: the clock says
            values["clock"] = clock.to_json()  # again when a seat's time is up
        await self.save_row(live, values, "an undo in game %s",
                            "the undo could not be saved; the game is unchanged")
        if unrate:
            live.rated = False
        live.set_state(state)  # a new generation: a bot still thinking is ignored
        live.actions, live.actors, live.last = keep, actors, last
        del live.undo.reversible[len(keep):]
        live.clock = clock
        live.status = RUNNING
        manager.clocks.sync(live)
        live.broadcast()
        manager.bot_driver.schedule(live)
