"""The HTTP side of named players and ratings.

    GET  /api/me                    {"id", "name"} of this browser's player ({"id": null,
                                    "name": null} without one); renews the cookie
    POST /api/me   {"name": "..."}  choose a name (a new identity: sets the cookie) or change
                                    it; 400 for a name that is not allowed, 409 for one taken
    GET  /api/me/games              the games where this player holds a seat, newest first,
                                    each with the seat and where to open it
    POST /api/games/{id}/seats/{seat}/take
                                    take an open seat (the player must have a name)
    GET  /api/leaderboard/{game}    the game's ratings, best first
    GET  /leaderboard/{game}        the leaderboard page

Requests that act with the cookie must come from our own pages (`identity.same_origin`).
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

import boardwright as bw
from boardwright.web.identity import (
    COOKIE,
    Identity,
    IdentityStore,
    NameTakenError,
    game_summaries,
    same_origin,
    set_cookie,
)
from boardwright.web.names import MAX_LENGTH, InvalidNameError
from boardwright.web.ratings import leaderboard
from boardwright.web.seating import SeatError, take_seat

if TYPE_CHECKING:
    from boardwright.web.manager import GameManager
from boardwright.web.live import FINISHED

MAX_NAME_BODY = 1024
MY_GAMES = 100


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _secure(request: Request) -> bool:
    return request.url.scheme in ("https", "wss")


async def identity_of(store: IdentityStore, cookies: Any) -> Identity | None:
    """The player whose key is in these cookies, or None."""
    key = cookies.get(COOKIE)
    if not key:
        return None
    return await asyncio.to_thread(store.by_key, key)


def players_router(manager: GameManager, store: IdentityStore) -> APIRouter:
    router = APIRouter()

    @router.get("/api/me")
    async def get_me(request: Request) -> Any:
        identity = await identity_of(store, request.cookies)
        response = JSONResponse(identity.to_json() if identity else {"id": None, "name": None})
        if identity is not None:
            set_cookie(response, request.cookies[COOKIE], _secure(request))
        return response

    @router.post("/api/me")
    async def set_me(request: Request) -> Any:
        if not same_origin(request.headers):
            return _error(403, "a name is chosen from this site's own pages")
        raw = await request.body()
        if len(raw) > MAX_NAME_BODY:
            return _error(413, f"the body is larger than {MAX_NAME_BODY} bytes: a name has at "
                               f"most {MAX_LENGTH} characters")
        try:
            body = json.loads(raw) if raw else None
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            return _error(400, "the body is not valid JSON")
        if not isinstance(body, dict) or set(body) != {"name"}:
            return _error(400, 'the body must be {"name": "your name"}')
        identity = await identity_of(store, request.cookies)
        try:
            if identity is None:
                identity, key = await asyncio.to_thread(store.create, body["name"])
                response = JSONResponse(identity.to_json(), status_code=201)
                set_cookie(response, key, _secure(request))
                return response
            identity = await asyncio.to_thread(store.rename, identity, body["name"])
        except InvalidNameError as exc:
            return _error(400, str(exc))
        except NameTakenError as exc:
            return _error(409, str(exc))
        return JSONResponse(identity.to_json())

    @router.get("/api/me/games")
    async def my_games(request: Request) -> Any:
        identity = await identity_of(store, request.cookies)
        if identity is None:
            return _error(401, "choose a name first: your games are those of your name")
        seats = await asyncio.to_thread(store.seats_of, identity.id, MY_GAMES)
        rows = await asyncio.to_thread(game_summaries, manager.storage,
                                       [game_id for game_id, _ in seats])
        games = []
        for game_id, seat in seats:
            if game_id not in rows:  # deleted since
                continue
            summary = manager.lobby.row_summary(rows[game_id])
            url = (f"/replay/{game_id}" if summary["status"] == FINISHED
                   else f"/play/{game_id}?seat={seat}")
            games.append({**summary, "my_seat": seat, "url": url})
        return games

    @router.post("/api/games/{game_id}/seats/{seat}/take")
    async def take(game_id: str, seat: int, request: Request) -> Any:
        if not same_origin(request.headers):
            return _error(403, "a seat is taken from this site's own pages")
        identity = await identity_of(store, request.cookies)
        if identity is None:
            return _error(401, "choose a name first: open seats are taken by named players")
        try:
            return await take_seat(manager, game_id, seat, identity)
        except SeatError as exc:
            return _error(exc.status, exc.message)

    @router.get("/api/leaderboard/{game}")
    async def get_leaderboard(game: str) -> Any:
        if game not in bw.available_games():
            return _error(404, f"no game {game!r}: {', '.join(bw.available_games())}")
        board = await asyncio.to_thread(leaderboard, manager.storage, game)
        return {"game": game, "players": board}

    return router

