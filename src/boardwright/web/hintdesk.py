"""Answering hint requests at the live tables: who may have a hint now, starting its search in
the bot pool (one per game at a time), answering the asking seat's connections only, and the
seats' agreement to hints (hints.py holds the consent rules and the search itself).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from boardwright.agents import HUMAN
from boardwright.web.connection import Connection
from boardwright.web.hints import (
    AGREED,
    HintAnswer,
    HintJob,
    HintRequest,
    agreed,
    compute_hints,
    refused,
)
from boardwright.web.protocol import (
    BUSY,
    GAME_OVER,
    HINTS_NOT_ALLOWED,
    ILLEGAL_ACTION,
    NOT_YOUR_TURN,
    SERVER_ERROR,
    STALE,
    ProtocolError,
    error_frame,
)
from boardwright.web.storage import now

if TYPE_CHECKING:
    from boardwright.web.live import LiveGame
    from boardwright.web.manager import GameManager

log = logging.getLogger("boardwright.web")


class HintDesk:
    """The hints of a server's live games, each searched for `seconds` (or `iterations`
    playouts when given: reproducible, and tiny in tests)."""

    def __init__(self, manager: GameManager, seconds: float | None = 1.0,
                 iterations: int | None = None) -> None:
        if iterations is None and (seconds is None or seconds <= 0):
            raise ValueError("a hint needs a budget: hint_seconds > 0 or hint_iterations")
        self.manager = manager
        self.seconds = None if iterations is not None else seconds
        self.iterations = iterations

    def _refusal(self, live: LiveGame, seat: int) -> ProtocolError | None:
        """Why `seat` may not have a hint now, or None (lock held)."""
        if live.over:
            return ProtocolError(GAME_OVER, "the game is over: there is no move to hint")
        agreement = live.consent
        if not agreement.allowed:
            names = ", ".join(f"seat {s + 1}" for s in agreement.waiting)
            if agreement.accepted:
                text = f"hints are proposed but not yet accepted by {names}"
            else:
                text = ("with several human players, hints need everyone's agreement: propose "
                        "them first")
            return ProtocolError(HINTS_NOT_ALLOWED, text)
        current = live.state.current_player
        if current != seat:
            who = "a bot" if 0 <= current < live.players and live.kinds[current] != HUMAN \
                else f"seat {current + 1}"
            return ProtocolError(NOT_YOUR_TURN, f"a hint is for your own decision: {who} "
                                                "is to move")
        return None

    async def hint(self, live: LiveGame, connection: Connection) -> None:
        """Start computing a hint for the connection's seat (answered by `_run`), or
        answer at once from the one already computed for this position."""
        seat = connection.seat
        assert seat is not None
        async with live.lock:
            refusal = self._refusal(live, seat)
            if refusal is not None:
                raise refusal
            done = live.hints.answered
            if done is not None and done.generation == live.generation and done.seat == seat:
                connection.send(done.frame)
                return
            pending = live.hints.pending
            if pending is not None:
                if pending.generation == live.generation and pending.seat == seat:
                    return  # already being computed: it goes to this seat's connections
                raise ProtocolError(BUSY, "a hint is already being computed in this game; "
                                          "ask again in a moment")
            if live.rated:  # play with a bot's help is not rated
                await self.manager.authority.save_row(
                    live, {"rated": False, "updated": now()}, "the end of rating of game %s",
                    "the hint could not be started; try again")
                live.rated = False
                live.broadcast()
            job = HintJob(live.id, live.name, live.players, live.options, live.seed,
                          tuple(live.actions), seat, self.seconds, self.iterations)
            request = HintRequest(live.generation, seat)
            live.hints.pending = request
            request.task = asyncio.create_task(self._run(live, job, request))

    async def _run(self, live: LiveGame, job: HintJob, request: HintRequest) -> None:
        """Compute the hint in the bot pool, then send it to the asking seat's connections."""
        try:
            found = await self.manager.bot_queue.run(live.id, True, compute_hints, job)
            error = None
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("hint failed in game %s", live.id)
            found, error = None, error_frame(SERVER_ERROR, "the hint could not be computed; "
                                                           "try again")
        async with live.lock:
            if live.hints.pending is request:
                live.hints.pending = None
            if error is None:
                refusal = self._refusal(live, request.seat)
                if live.generation != request.generation:
                    error = error_frame(STALE, "the position changed before the hint was "
                                               "ready: ask again")
                elif refusal is not None:
                    error = error_frame(refusal.code, refusal.message)
            frame = error if error is not None else self._frame(live, request.seat, found)
            if error is None:
                live.hints.answered = HintAnswer(request.generation, request.seat, frame)
            live.send_to_seat(request.seat, frame)

    def _frame(self, live: LiveGame, seat: int,
               found: list[dict[str, Any]] | None) -> dict[str, Any]:
        """The hint as the seat sees it: each move with its text for that seat, its place in
        the seat's list of legal moves, and its expected margin in points."""
        legal, _ = live.legal_for(seat)
        hints = []
        for rank, entry in enumerate(found or [], start=1):
            action = live.game.action_from_json(entry["action"])
            data = action.to_json()
            hints.append({"rank": rank, "action": data,
                          "text": live.describe(live.views, action, seat),
                          "margin": round(entry["margin"], 1), "samples": entry["samples"],
                          "index": legal.index(data) if data in legal else None})
        budget = ({"iterations": self.iterations} if self.iterations is not None
                  else {"seconds": self.seconds})
        return {"type": "hint", "step": live.step, "seat": seat, "hints": hints,
                "budget": budget}

    async def allow(self, live: LiveGame, seat: int) -> None:
        """`seat` proposes hints, or accepts the proposal; saved with the game."""
        async with live.lock:
            self._check_vote(live)
            if live.seats[seat].get(AGREED):
                return  # agreed already: nothing changes
            seats = agreed(live.seats, seat)
            await self.manager.authority.save_row(
                live, {"seats": seats, "updated": now()}, "an agreement to hints in game %s",
                "the agreement could not be saved; try again")
            live.seats = seats
            live.broadcast()

    async def refuse(self, live: LiveGame, seat: int) -> None:
        """`seat` refuses the proposal (or withdraws hints): every agreement is cleared."""
        async with live.lock:
            self._check_vote(live)
            if not live.consent.accepted:
                raise ProtocolError(ILLEGAL_ACTION, "no one has proposed hints: there is "
                                                    "nothing to refuse")
            seats = refused(live.seats)
            await self.manager.authority.save_row(
                live, {"seats": seats, "updated": now()}, "a refusal of hints in game %s",
                "the refusal could not be saved; try again")
            live.seats = seats
            live.hints.answered = None
            live.broadcast()

    @staticmethod
    def _check_vote(live: LiveGame) -> None:
        if live.over:
            raise ProtocolError(GAME_OVER, "the game is over: hints no longer matter")
        if live.consent.training:
            raise ProtocolError(ILLEGAL_ACTION, "with one human seat hints are always "
                                                "allowed: there is nothing to agree on")
