"""Seats and named players: who may sit where, and binding a seat to an identity.

A human seat is reached in one of two ways:

* its seat token (the invitation link `/play/<id>#token=...`, tokens.py), as before. When the
  one who opens it has a name (the identity cookie, identity.py) and the seat is not yet held,
  the seat becomes theirs: it shows their name, and their cookie alone opens it from then on;
* the identity cookie: an identity that holds a seat opens `/play/<id>` (in any tab or window
  of the browser that has the cookie) and is seated there without a token.

An open seat (a human seat nobody has joined and nobody holds, and not marked `"open": false`
by its creator) can be taken by any named player: `take_seat`. Its token is then withdrawn
(the hash is cleared), so only the player who took it plays it.

A player holds at most one seat of a game: a second invitation link opened by the same player
seats them by its token without binding it, and taking a second seat is refused. So a rated
game never has one person on both sides (ratings.py).

Every binding is one transaction: the game's seats (name, identity, joined) and the
`seat_holders` row commit together, before anyone is told.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from boardwright.agents import HUMAN
from boardwright.web.identity import Identity, hold_seat
from boardwright.web.live import open_seat
from boardwright.web.storage import StaleRevision, now

if TYPE_CHECKING:
    from boardwright.web.live import LiveGame
    from boardwright.web.manager import GameManager

log = logging.getLogger("boardwright.web")


class SeatError(Exception):
    """A refused seat request: HTTP status and message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def held_seats(seats: list[dict[str, Any]], identity_id: str) -> list[int]:
    """The seats of a game this identity holds."""
    return [s for s, seat in enumerate(seats) if seat.get("identity") == identity_id]


def seat_for_identity(seats: list[dict[str, Any]], identity: Identity | None,
                      wanted: int | None = None) -> int | None:
    """The seat an identity sits at when it opens a game without a token: `wanted` when it
    holds that one, else the first it holds, else None (it watches)."""
    if identity is None:
        return None
    held = held_seats(seats, identity.id)
    if wanted is not None and wanted in held:
        return wanted
    return held[0] if held else None


def bound(seat: dict[str, Any], identity: Identity, take: bool) -> dict[str, Any]:
    """The seat entry once `identity` holds it (taken: joined, and its token withdrawn)."""
    entry = {**seat, "identity": identity.id, "name": identity.name}
    if take:
        entry["joined"] = True
        entry["token_hash"] = None
        entry.pop("open", None)
    return entry


async def bind_seat(manager: GameManager, live: LiveGame, seat: int,
                    identity: Identity, take: bool = False) -> bool:
    """Make `identity` the holder of `seat` (saved, then shown to everyone). Returns whether
    the seat is now held by it. Without `take` (a seat opened by its token) a seat held by
    someone else, or a player who already holds another seat, is left as it is; with `take`
    those are refused (SeatError), as is a seat that is not open. A finished game's seats
    are never bound."""
    async with live.lock:
        current = live.seats[seat]
        if current.get("identity") == identity.id:
            return True
        others = [s for s in held_seats(live.seats, identity.id) if s != seat]
        if live.state.is_terminal:  # its seats and ratings are history
            if take:
                raise SeatError(409, "the game is over")
            return False
        if take:
            if current.get("kind") != HUMAN:
                raise SeatError(409, f"seat {seat + 1} is a bot's")
            if others:
                raise SeatError(409, f"you already hold seat {others[0] + 1} of this game")
            if not open_seat(current):  # created open, nobody joined or holds it
                raise SeatError(409, f"seat {seat + 1} is not open: someone has joined it or "
                                     "it waits for an invited player")
        elif current.get("identity") or others or current.get("kind") != HUMAN:
            return False
        seats = [dict(s) for s in live.seats]
        seats[seat] = bound(current, identity, take)
        values: dict[str, Any] = {"seats": seats, "updated": now()}
        status = live.status
        if take and status == "open" and all(
                seats[s].get("joined") for s in range(len(seats)) if seats[s]["kind"] == HUMAN):
            status = "running"
            values["status"] = status
        storage = manager.storage
        revision = live.revision

        def write(connection: Any) -> int | StaleRevision:
            outcome = storage.update_in(connection, live.id, values, revision)
            if not isinstance(outcome, StaleRevision):  # the seat is held only if it is taken
                hold_seat(connection, live.id, seat, identity.id)
            return outcome

        try:
            assert manager.writer is not None
            live.revision = await manager.writer.call(write, live.id)
        except StaleRevision:  # another server process changed the game meanwhile
            await manager.cluster.reload(live)
            if take:
                raise SeatError(409, "the game changed meanwhile: look again and retry") from None
            return False
        except Exception:
            log.exception("could not save a seat of game %s being taken", live.id)
            if take:
                raise SeatError(503, "the seat could not be saved; try again") from None
            return False
        live.seats = seats
        live.status = status
        manager.clocks.sync(live)  # the last seat taken: the first mover's clock starts
        live.broadcast()
        manager.bot_driver.schedule(live)
        return True


async def take_seat(manager: GameManager, game_id: str, seat: object,
                    identity: Identity) -> dict[str, Any]:
    """A named player takes an open seat of a game (the lobby's "take" button): the game's
    summary afterwards, with where to play it. SeatError when it cannot be taken."""
    live = await manager.get(game_id)
    if live is None:
        raise SeatError(404, f"no game {game_id!r}")
    if type(seat) is not int or not 0 <= seat < live.players:
        raise SeatError(404, f"no seat {seat!r}: this game has seats 0 to {live.players - 1}")
    await bind_seat(manager, live, seat, identity, take=True)
    return {"game": live.summary(), "seat": seat, "play_url": f"/play/{live.id}?seat={seat}"}
