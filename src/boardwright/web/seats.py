"""Open seats: a human seat created without a player, which anyone may take from the lobby.

A game created with "open" for a seat stores that seat with no token (`"open": true` in its
seat entry, listed in the lobby). `POST /api/games/{id}/seats/{seat}/take` gives the seat a
fresh token, stores its hash, and answers the taker alone with the token and the join link, as
creating a game answers its creator; from then on the seat is an ordinary human seat and is no
longer open. Two people taking the same seat at once: the game's lock lets one through, the
other gets 409.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from boardwright.web.sessions import FINISHED, GameManager, RequestError
from boardwright.web.storage import now
from boardwright.web.tokens import hash_token, new_token


async def take_open_seat(manager: GameManager, game_id: str, seat: int) -> dict[str, Any]:
    """Give open seat `seat` of game `game_id` to the caller: {"id", "seat", "token",
    "join_url"}. RequestError 404 for no such game, 400 for no such seat, 409 for a seat that is
    not open (a bot's, or taken already) or a finished game."""
    live = await manager.get(game_id) if len(game_id) <= 64 else None
    if live is None:
        raise RequestError(404, f"no game {game_id!r}")
    if not 0 <= seat < live.players:
        raise RequestError(400, f"game {game_id} has seats 0 to {live.players - 1}, not {seat}")
    async with live.lock:
        if live.status == FINISHED or live.state.is_terminal:
            raise RequestError(409, f"game {game_id} is over")
        if not live.seats[seat].get("open"):
            raise RequestError(409, f"seat {seat} of game {game_id} is not open")
        token = new_token()
        seats = [dict(s) for s in live.seats]
        seats[seat].pop("open", None)
        seats[seat]["token_hash"] = hash_token(token)
        assert manager.writer is not None
        await manager.writer.update(live.id, {"seats": seats, "updated": now()})
        live.seats = seats
        live.hashes[seat] = seats[seat]["token_hash"]
        live.broadcast()  # the tables show the seat as no longer open
    return {"id": live.id, "seat": seat, "token": token,
            "join_url": f"/play/{live.id}#token={token}"}


def seats_router(manager: GameManager) -> APIRouter:
    """The HTTP route of open seats (the app includes it)."""
    router = APIRouter()

    @router.post("/api/games/{game_id}/seats/{seat}/take")
    async def take_seat(game_id: str, seat: int) -> dict[str, Any]:
        return await take_open_seat(manager, game_id, seat)

    return router
