"""The web table: a FastAPI app serving the lobby, the tables, replays and the JSON/websocket API.

    from boardwright.web.app import create_app
    app = create_app("sqlite:///games.db")      # or $BOARDWRIGHT_DB, or sqlite:///boardwright.db

HTTP: GET / (lobby), /play/{id} (table; a join link /play/{id}#token=... takes a seat: the
fragment stays in the browser), /replay/{id}, /static/...;
GET /api/catalog, POST /api/games, GET /api/games[?status=], GET /api/games/{id},
GET /api/games/{id}/replay and /api/games/{id}/replay/{step}, GET /api/stats (counters),
GET/POST /api/games/{id}/analysis (a finished game's analysis: analysis.py).
Named players and ratings (players_api.py): GET/POST /api/me, GET /api/me/games,
POST /api/games/{id}/seats/{seat}/take, GET /api/leaderboard/{game} and /leaderboard/{game}.
WebSocket: /ws/games/{id}, a seat's token offered as a subprotocol (protocol.py), or the
identity cookie of a player who holds a seat (seating.py; `?seat=n` picks one). The frames are
described in protocol.py and the modules that handle them (the live games: manager.py; moves
and undo: authority.py; hints: hintdesk.py; clocks: clocks.py; undo by agreement: agreement.py;
chat: chat.py). No log shows a token (logsafe.py).
"""

from __future__ import annotations

import gc
import json
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.agents.levels import LEVELS
from boardwright.agents.registry import NAME
from boardwright.web import clocks, names
from boardwright.web.analysis import Analyses, analysis_router
from boardwright.web.botqueue import BOT_ONLY_SECONDS
from boardwright.web.bots import BotPool
from boardwright.web.clocks import TimeSource, loop_time
from boardwright.web.connection import Connection
from boardwright.web.errors import RequestError
from boardwright.web.identity import COOKIE, IdentityStore, same_origin
from boardwright.web.limits import (
    BOT_ONLY,
    GAMES,
    WINDOW,
    LimitSettings,
    TooManyRequests,
    visitor_of,
)
from boardwright.web.logsafe import redact_loggers
from boardwright.web.manager import GameManager
from boardwright.web.players_api import identity_of, players_router
from boardwright.web.protocol import (
    BAD_TOKEN,
    CLOSE_BAD_TOKEN,
    CLOSE_UNKNOWN_GAME,
    MALFORMED,
    RATE_LIMIT,
    SUBPROTOCOL,
    TOKEN_PREFIX,
    chosen_subprotocol,
    error_frame,
    token_from_subprotocols,
)
from boardwright.web.resigning import CLAIM_AFTER, CLAIM_LIMITS
from boardwright.web.seating import bind_seat, seat_for_identity
from boardwright.web.storage import Storage

log = logging.getLogger("boardwright.web")

STATIC_DIR = Path(__file__).with_name("static")
MAX_BODY_BYTES = 64 * 1024
MAX_WS_BYTES = 1024 * 1024  # uvicorn closes the connection above this; 16 KiB..1 MiB: too_large
# The lobby offers the named levels first (agents/levels.py); these agent strings are offered
# after them for people who want a particular bot.
AGENTS = ["random", "greedy", "mcts:seconds=0.5", "mcts:seconds=2"]
GC_YOUNG = 20_000  # allocations between two young collections in `boardwright serve`
PAGES = {"index": "index.html", "table": "table.html", "replay": "replay.html",
         "leaderboard": "leaderboard.html"}

def levels() -> list[dict[str, str]]:
    """The named bot levels as the lobby offers them: name, agent string, what it is."""
    return [{"name": level.name, "agent": level.agent, "description": level.why}
            for level in LEVELS.values()]


def policy_seats(policies: Mapping[str, str]) -> list[dict[str, Any]]:
    """The policy files the operator names (`create_app(policies={NAME: FILE})`, `boardwright
    serve --policy NAME=FILE`) as the lobby offers them: name, agent string (`policy:path=FILE`),
    the game and player count the file plays, and a description. Each file is read now, so a
    missing or bad file stops the server from starting (InvalidOptionError naming it)."""
    seats = []
    for name, path in policies.items():
        if not isinstance(name, str) or not NAME.fullmatch(name):
            raise bw.InvalidOptionError(f"policy name {name!r} must be 1 to 64 letters, digits, "
                                        "'_', '.', '+' or '-', starting with a letter or digit")
        spec = f"policy:path={path}"
        info = make_agent(spec, seed=0).info  # the policy agent says what its file plays
        seats.append({"name": name, "agent": spec, "game": info["game"],
                      "players": info["players"], "description": info["description"]})
    return seats


def catalog(offered: list[str] | tuple[str, ...] = (),
            policies: list[dict[str, Any]] | tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
    """The lobby's menu: every game with what it is (`Game.info`: title, description, player
    counts and the ranges by option set, information and chance, its seats' names and colours,
    which every page draws seats with), its option specs per player count
    (and their help texts by name, `options_help`), the levels, the agent strings (the
    built-in ones, then those the server offers: `create_app(agents=...)`) and the policies
    that play it (`policy_seats`: name, agent string, player count, description)."""
    agents = list(AGENTS) + [a for a in offered if a not in AGENTS]
    games = []
    for name in bw.available_games():
        try:
            info = bw.game_info(name)  # read from the game's class: no game is created
        except bw.BoardwrightError as exc:  # an installed game that does not load
            log.error("game %s is not offered: %s", name, exc)
            continue
        counts = list(info.player_counts)
        specs = option_specs(name, counts)
        games.append({**info.to_json(), "name": name,
                      "option_specs": specs,
                      "options_help": {o["name"]: o["help"] for o in specs[str(counts[0])]},
                      "levels": levels(), "agents": agents,
                      "policies": [{k: p[k] for k in ("name", "agent", "players", "description")}
                                   for p in policies if p["game"] == name]})
    return {"games": games, "levels": levels(), "table_form": table_form(),
            "names": {"min_length": names.MIN_LENGTH, "max_length": names.MAX_LENGTH}}


def table_form() -> dict[str, Any]:
    """What a game's creation takes beside the game's own options, described for the lobby's
    form as the options are: the time control and what a time-out does (clocks.py), and
    whether the game is rated (ratings.py)."""
    return {**clocks.form(),
            "rated": {"type": "bool", "default": True,
                      "help": "rated: the result updates the players' and bots' ratings "
                              "(taking a move back alone or asking a hint makes it unrated)"}}


def option_specs(name: str, counts: list[int]) -> dict[str, list[dict[str, Any]]]:
    """A game's option specs (`Game.option_specs`) per player count, as JSON: the lobby builds
    its create form from them (a seat count may change a range or a default)."""
    out = {}
    for players in counts:
        try:
            out[str(players)] = [spec.to_json() for spec in bw.option_specs(name, players)]
        except bw.BoardwrightError as exc:
            log.error("the options of %s with %d players cannot be listed: %s", name, players, exc)
            out[str(players)] = []
    return out


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


PLACEHOLDER = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>boardwright</title></head>
<body><h1>boardwright web table</h1>
<p>The {page} page is not installed. The JSON API is at <a href="/api/games">/api/games</a>
and <a href="/api/catalog">/api/catalog</a>.</p></body></html>
"""


def create_app(db_url: str | None = None, *, bot_mode: str = "process",
               bot_workers: int | None = None, bot_delay: float = 0.0,
               static_dir: str | Path | None = None,
               rate_limit: int = RATE_LIMIT, hint_seconds: float = 1.0,
               hint_iterations: int | None = None,
               analysis_iterations: int | None = None,
               agents: list[str] | tuple[str, ...] = (),
               policies: Mapping[str, str] | None = None,
               clock: TimeSource = loop_time,
               create_limit: int | None = GAMES,
               create_window: float = WINDOW,
               bot_only_games: int | None = BOT_ONLY,
               bot_only_seconds: float | None = BOT_ONLY_SECONDS,
               claim_after: float = CLAIM_AFTER) -> FastAPI:
    """The web table app. `db_url`: a SQLAlchemy URL (default $BOARDWRIGHT_DB, else
    sqlite:///boardwright.db). Bots run in `bot_mode` "process" or "thread" workers; each bot
    move takes at least `bot_delay` seconds so people can follow bot-only games. `rate_limit`:
    frames per second and connection (the protocol's 20; tests that replay whole games at
    machine speed raise it). A hint searches for `hint_seconds`, or `hint_iterations` playouts
    when given (reproducible, and tiny in tests). Analyses run like the bots (processes or a
    thread), with `analysis_iterations` playouts per decision (default: the analysis module's).
    `agents`: agent strings the lobby offers beyond the built-in agents and levels, e.g. an
    installed plugin's agent ("matcher") or a registered one with its parameters fixed
    ("lookahead:samples=4"); visitors may use exactly these, nothing else that is not built in.
    Each is checked now, so a typo or a broken plugin stops the server from starting.
    `policies`: trained policy files by name ({"carcassonne-rl": "runs/c/policy.npz"}), read
    now; the lobby offers each as a seat of the game and player count it plays ("policy
    NAME"). Visitors never name a file: they choose among these. `clock`: the monotonic time
    of the game clocks, in seconds (default: the event loop's); tests give a manual one to set
    the time exactly; the creation limits' windows are measured on it too.
    Each visitor (limits.py) may create `create_limit` games per `create_window` seconds and
    have `bot_only_games` bot-only games in play (None: no limit); a bot-only game's bot
    searches at most `bot_only_seconds` per decision (None: as its agent string says), and
    the bots' decisions wait for a worker in a fair order (botqueue.py). `claim_after`: the
    seconds every other player of a game must have been gone before the one who stayed may
    claim it (resigning.py)."""
    redact_loggers()
    limits = LimitSettings(create_limit, create_window, bot_only_games)
    if bot_only_seconds is not None and not (0 < bot_only_seconds <= 10):
        raise bw.InvalidOptionError(f"bot_only_seconds must be more than 0 and at most 10 "
                                    f"(or None), not {bot_only_seconds!r}")
    if not CLAIM_LIMITS[0] <= claim_after <= CLAIM_LIMITS[1]:
        raise bw.InvalidOptionError(f"claim_after must be from {CLAIM_LIMITS[0]:g} to "
                                    f"{CLAIM_LIMITS[1]:g} seconds, not {claim_after!r}")
    offered = tuple(dict.fromkeys(a.strip() for a in agents))
    for spec in offered:
        make_agent(spec, seed=0)
    policy_list = policy_seats(policies or {})
    storage = Storage(db_url)
    manager = GameManager(storage, BotPool(bot_mode, bot_workers), bot_delay=bot_delay,
                          rate_limit=rate_limit, hint_seconds=hint_seconds,
                          hint_iterations=hint_iterations, agents=offered,
                          policies={p["agent"]: (p["game"], p["players"]) for p in policy_list},
                          clock=clock, limits=limits, bot_only_seconds=bot_only_seconds,
                          claim_after=claim_after)
    analyses = Analyses(storage, bot_mode, iterations=analysis_iterations)
    identities = IdentityStore(storage)
    static = Path(static_dir) if static_dir is not None else STATIC_DIR
    catalog_cache: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await manager.start()
        if getattr(_app.state, "freeze_gc", False):
            # `boardwright serve`: what is loaded by now (modules, the app, the games resumed)
            # is put out of the cyclic garbage collector's sight, so that its full passes scan
            # only what changes as games are played (a pass over everything took tens of ms,
            # a pause that every player waited for at once).
            gc.collect()
            gc.freeze()
            # Fewer, larger young collections: a move allocates thousands of short-lived
            # objects (views, JSON), and the default threshold (700) ran a collection several
            # times per move, with a full one every hundred young ones.
            gc.set_threshold(GC_YOUNG, 20, 20)
        try:
            yield
        finally:
            analyses.shutdown()
            await manager.stop()

    app = FastAPI(title="boardwright web table", lifespan=lifespan, docs_url="/api/docs",
                  redoc_url=None, openapi_url="/api/openapi.json")
    app.state.manager = manager
    app.state.storage = storage
    app.state.analyses = analyses
    app.state.identities = identities
    app.include_router(analysis_router(analyses))
    app.include_router(players_router(manager, identities))

    @app.exception_handler(RequestError)
    async def _request_error(_request: Request, exc: RequestError) -> JSONResponse:
        return _error(exc.status, exc.message)

    @app.exception_handler(TooManyRequests)
    async def _too_many(_request: Request, exc: TooManyRequests) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status,
                            headers={"Retry-After": str(exc.retry_after)})

    def page(name: str) -> Response:
        path = static / PAGES[name]
        if path.is_file():
            return FileResponse(path, media_type="text/html")
        return HTMLResponse(PLACEHOLDER.format(page=name))

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> Response:
        return page("index")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def table_page(game_id: str) -> Response:
        return page("table")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> Response:
        return page("replay")

    @app.get("/leaderboard/{game}", include_in_schema=False)
    async def leaderboard_page(game: str) -> Response:
        return page("leaderboard")

    @app.get("/api/catalog")
    async def get_catalog() -> dict[str, Any]:
        if not catalog_cache:
            catalog_cache.update(catalog(offered, policy_list))
        return catalog_cache

    @app.get("/api/stats")
    async def get_stats(last_moves: int | None = None) -> dict[str, Any]:
        return manager.stats(last_moves)

    @app.post("/api/games", status_code=201)
    async def create_game(request: Request) -> Any:
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            return _error(413, f"the body is larger than {MAX_BODY_BYTES} bytes")
        raw = await request.body()
        if len(raw) > MAX_BODY_BYTES:
            return _error(413, f"the body is larger than {MAX_BODY_BYTES} bytes")
        try:
            body = json.loads(raw) if raw else None
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            return _error(400, "the body is not valid JSON")
        visitor = await visitor_of(identities, request)
        host = None  # the creator's name, shown as the game's host
        if request.cookies.get(COOKIE) and same_origin(request.headers):
            identity = await identity_of(identities, request.cookies)
            host = identity.name if identity is not None else None
        return JSONResponse(await manager.lobby.create(body, visitor, host), status_code=201)

    @app.get("/api/games")
    async def list_games(status: str | None = None, game: str | None = None) -> Any:
        return await manager.lobby.listing(status, game)

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str) -> Any:
        return await manager.lobby.summary(game_id)

    @app.get("/api/games/{game_id}/replay")
    async def get_replay(game_id: str) -> Response:
        replay = await manager.replays.replay(game_id)
        return Response(replay["body"], media_type="application/json")

    @app.get("/api/games/{game_id}/replay/{step}")
    async def get_replay_step(game_id: str, step: int) -> Any:
        return await manager.replays.step(game_id, step)

    @app.websocket("/ws/games/{game_id}")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        offered = list(websocket.scope.get("subprotocols") or [])
        await websocket.accept(subprotocol=chosen_subprotocol(offered))
        if "token" in websocket.query_params:
            await websocket.send_text(json.dumps(error_frame(
                BAD_TOKEN, "a seat token never goes in the address (addresses are logged): "
                           f"offer the subprotocols {SUBPROTOCOL!r} and "
                           f"'{TOKEN_PREFIX}<token>' instead")))
            await websocket.close(code=CLOSE_BAD_TOKEN)
            return
        try:
            live = await manager.get(game_id)
        except Exception:
            log.exception("game %s cannot be opened", game_id)
            live = None
        if live is None:
            await websocket.send_text(json.dumps(error_frame(
                MALFORMED, f"no game {game_id!r}")))
            await websocket.close(code=CLOSE_UNKNOWN_GAME)
            return
        token = token_from_subprotocols(offered)
        identity = None
        if websocket.cookies.get(COOKIE) and same_origin(websocket.headers):
            identity = await identity_of(identities, websocket.cookies)
        seat = None
        if token is not None:
            seat = live.seat_of(token)
            if seat is None:
                await websocket.send_text(json.dumps(error_frame(
                    BAD_TOKEN, "this link's seat token is not valid for this game; open "
                               "the game without #token= to watch")))
                await websocket.close(code=CLOSE_BAD_TOKEN)
                return
            if identity is not None:  # an invitation opened by a named player: now theirs
                await bind_seat(manager, live, seat, identity)
        else:  # the seat the player's name holds, if any (else a spectator)
            wanted = websocket.query_params.get("seat")
            seat = seat_for_identity(live.seats, identity,
                                     int(wanted) if wanted and wanted.isdigit() else None)
        connection = Connection(websocket, seat, manager.rate_limit)
        connection.start()
        await manager.attach(live, connection)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text")
                if data is None:
                    data = message.get("bytes")
                await manager.on_frame(live, connection, data)
                if connection.closed:
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            await manager.detach(live, connection)

    if not static.is_dir():
        log.warning("no static directory at %s: the pages are placeholders", static)
    else:
        app.mount("/static", StaticFiles(directory=static), name="static")
    return app
