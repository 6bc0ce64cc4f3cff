"""Leaving a game before its end: resigning, and claiming a game the others have left.

Resign ({"type": "resign"}, a human seat still in a running game, at any time):

* the seat is out of the game (`"out": "resigned"`). When that leaves one seat in, or no
  human seat in (only bots would play on), the game ends at once: the seats still in share
  the win (one seat: it wins), the resigning seat ranks last. With more seats left (three
  people or more) the game goes on without the one who resigned: the easy bot plays its seat
  to the end, as for a seat that lost on time, and it ranks below every seat still in.
* a rated game stays rated: the resignation is its result (ratings.py rates the finishing
  order, the seats that went out below the others, the first to go out lowest).

Claim ({"type": "claim_win"} or {"type": "claim_end"}), as lichess offers when the opponent
leaves: a human seat still in a running game may end it when every other human seat still in
has had no connection for `claim_after` seconds (the server's setting, `CLAIM_AFTER` by
default; bots do not count, they never leave). "claim_win": the one who stayed wins, the ones
who left rank last (`"out": "left"`), rated as any result. "claim_end": the game ends with no
result and is not rated (nobody wins; the ratings do not move).

Presence (`LiveGame.gone`, on the server's injected clock): since when a seat has had no
connection in any process. A game just loaded (a restart) counts its seats gone from then; a
seat connected through another server process (relay.py's presence) is not gone, and its
absence counts from the moment that process says it left. Both changes go through the same conditional write as moves (authority.save_row), so a
process that lost the race reloads the game (manager._checked) and checks again.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from boardwright.agents import HUMAN
from boardwright.web.ending import NONE, WIN, closing, still_in, stored_seats
from boardwright.web.protocol import GAME_OVER, ILLEGAL_ACTION, ProtocolError
from boardwright.web.storage import now

if TYPE_CHECKING:
    from boardwright.web.live import LiveGame
    from boardwright.web.manager import GameManager

log = logging.getLogger("boardwright.web")

CLAIM_AFTER = 60.0  # seconds the others must be gone before a claim (server default)
CLAIM_LIMITS = (1.0, 86_400.0)


def _clock_json(live: LiveGame) -> dict[str, Any] | None:
    return live.clock.to_json() if live.clock is not None else None


def _in_game(live: LiveGame, seat: int | None) -> bool:
    """Whether `seat` is a human seat still playing a running game."""
    return (seat is not None and not live.over and live.status == "running"
            and live.kinds[seat] == HUMAN and seat in still_in(live.seats, _clock_json(live)))


def can_resign(live: LiveGame, seat: int | None) -> bool:
    return _in_game(live, seat)


def others_in(live: LiveGame, seat: int) -> list[int]:
    """The other human seats still in the game."""
    return [s for s in still_in(live.seats, _clock_json(live))
            if s != seat and live.kinds[s] == HUMAN]


def abandon_for(live: LiveGame, seat: int | None) -> dict[str, Any] | None:
    """What the state frame tells `seat` when every other human still in has gone: those
    `seats`, how long the last of them has been gone (`gone_for`), the server's `after` and
    the seconds to `wait` before a claim (0: now). None otherwise (the clock is read only
    then: a frame of a game nobody left needs no time)."""
    if not _in_game(live, seat):
        return None
    assert seat is not None
    others = others_in(live, seat)
    if not others or any(s not in live.gone or live.connected(s) for s in others):
        return None
    moment = live.time()
    gone_for = min(moment - live.gone[s] for s in others)
    return {"seats": others, "gone_for": round(gone_for, 3), "after": live.claim_after,
            "wait": round(max(0.0, live.claim_after - gone_for), 3)}


# -- presence -----------------------------------------------------------------------------------

def arrived(live: LiveGame, seat: int | None) -> None:
    if seat is not None:
        live.gone.pop(seat, None)


def elsewhere_changed(live: LiveGame, before: frozenset[int], after: frozenset[int]) -> None:
    """Another process's connected seats went from `before` to `after` (relay.py): a seat
    that came there is present; one that left it, and has no connection anywhere now, is gone
    from now (its earlier absence here does not count: it was at the table meanwhile)."""
    for seat in after - before:
        live.gone.pop(seat, None)
    for seat in before - after:
        if not live.connected(seat) and live.kinds[seat] == HUMAN:
            live.gone[seat] = live.time()
            if not live.over:
                asyncio.get_running_loop().call_later(live.claim_after, _remind, live)


def left(live: LiveGame, seat: int | None) -> None:
    """`seat` has no connection here any more: its absence counts from now; the others are
    told again when a claim becomes possible (their pages count down from the frame too)."""
    if seat is None or live.kinds[seat] != HUMAN:
        return
    live.gone[seat] = live.time()
    if not live.over:
        asyncio.get_running_loop().call_later(live.claim_after, _remind, live)


def _remind(live: LiveGame) -> None:
    if not live.over:
        live.broadcast()


def loaded(live: LiveGame) -> None:
    """A game just loaded: its human seats without a connection count as gone from now."""
    moment = live.time()
    for seat in live.humans:
        if not live.connected(seat):
            live.gone.setdefault(seat, moment)


# -- resign and claim ---------------------------------------------------------------------------

def _check(live: LiveGame, seat: int, what: str) -> None:
    if live.over:
        raise ProtocolError(GAME_OVER, f"the game is over: there is nothing to {what}")
    if live.status != "running":
        raise ProtocolError(ILLEGAL_ACTION, f"the game has not started: every seat must be "
                                            f"taken before anyone can {what}")
    if live.kinds[seat] != HUMAN or seat not in still_in(live.seats, _clock_json(live)):
        raise ProtocolError(ILLEGAL_ACTION, f"your seat is already out of the game: nothing "
                                            f"to {what}")


async def _end(manager: GameManager, live: LiveGame, seats: list[dict[str, Any]],
               returns: list[float] | None, what: str, unrated: bool = False) -> None:
    """Save the game with `seats` (lock held): ended with `returns` for the seats still in
    (None: it goes on), or ended with no result (`unrated`). Then tell everyone."""
    values: dict[str, Any] = {"updated": now()}
    ends = returns is not None or unrated
    clock = None
    if live.clock is not None:
        clock = live.clock.stopped(live.time())
        values["clock"] = clock.to_json()
    write: Any = values
    if ends:
        values["status"] = "finished"
    if returns is not None:
        write = closing(manager.storage, live, seats, values.get("clock"), returns, values)
    else:
        values["seats"] = seats
        if unrated:
            values["rated"] = False
    await manager.authority.save_row(live, write, what + " in game %s",
                                     f"the {what} could not be saved; the game is unchanged")
    live.seats = stored_seats(write)
    if "rated" in values:
        live.rated = bool(values["rated"])
    if clock is not None:
        live.clock = clock
    if ends:
        live.status = "finished"
        live.generation += 1  # a bot still thinking for this position is ignored
    live.undo.request = None
    manager.clocks.sync(live)
    live.broadcast()
    manager.bot_driver.schedule(live)


async def resign(manager: GameManager, live: LiveGame, seat: int) -> None:
    """`seat` resigns (module docstring)."""
    async with live.lock:
        _check(live, seat, "resign")
        seats = [dict(s) for s in live.seats]
        seats[seat].update(out="resigned", out_step=live.step)
        remaining = still_in(seats, _clock_json(live))
        ends = len(remaining) <= 1 or not any(live.kinds[s] == HUMAN for s in remaining)
        if ends:
            seats[seat]["ended"] = True
        await _end(manager, live, seats, [0.0] * live.players if ends else None,
                   "the resignation")
        log.info("seat %s of game %s resigned%s", seat, live.id, " (game over)" if ends else "")
    if ends:
        manager.evict_if_idle(live)


async def claim(manager: GameManager, live: LiveGame, seat: int, outcome: str) -> None:
    """`seat` claims the game the others left: a win (`WIN`) or an end with no result
    (`NONE`)."""
    async with live.lock:
        _check(live, seat, "claim")
        others = others_in(live, seat)
        if not others:
            raise ProtocolError(ILLEGAL_ACTION, "there is no other player in this game to "
                                                "claim against")
        moment = live.time()
        for other in others:
            if other not in live.gone:
                raise ProtocolError(ILLEGAL_ACTION, f"seat {other + 1} is connected: a game "
                                                    "can be claimed only when the others "
                                                    "have left")
            gone_for = moment - live.gone[other]
            if gone_for < live.claim_after:
                raise ProtocolError(ILLEGAL_ACTION, f"seat {other + 1} has been gone for "
                                                    f"{gone_for:.0f} s: the game can be "
                                                    f"claimed after {live.claim_after:g} s")
        seats = [dict(s) for s in live.seats]
        for other in others:
            seats[other].update(out="left", out_step=live.step)
        seats[seat]["claimed"] = outcome
        if outcome == WIN:
            await _end(manager, live, seats, [1.0 if s == seat else 0.0
                                              for s in range(live.players)], "the claim")
        else:
            assert outcome == NONE
            await _end(manager, live, seats, None, "the claim", unrated=True)
        log.info("seat %s claimed game %s (%s)", seat, live.id, outcome)
    manager.evict_if_idle(live)
