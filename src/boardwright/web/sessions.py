"""Live games: the authoritative states in memory, their connections, moves, undo and bots.

Every change of a game happens under that game's `asyncio.Lock`, in this order: the engine
checks the move on a clone of the state, the database commits the new record, then the clone
becomes the state and every connection gets a state frame with ITS OWN view (`view(seat)`, or
`view(None)` for spectators). Frames go through a per-connection outbox, so a slow client never
holds a game's lock. Bots decide in a worker pool (bots.py) and their moves take the same path.
Hints (hints.py) are searched in the same pool, one per game at a time, and answered to the
asking seat's connections only; the state frame's "hints" says whether they are allowed.
Every write of a game row is conditional on the revision the game is at: several server
processes can share one PostgreSQL database (cluster.py says how they stay in step).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import boardwright as bw
from boardwright.agents import AGENTS, HUMAN, make_agent, parse_agent_spec
from boardwright.agents.levels import LEVELS, level_agent, level_of
from boardwright.agents.registry import registered_names
from boardwright.web import agreement as A
from boardwright.web import chat as C
from boardwright.web import clocks as K
from boardwright.web import hints as H
from boardwright.web import protocol as P
from boardwright.web import ratings as R
from boardwright.web.bots import BotJob, BotPool
from boardwright.web.cluster import Cluster
from boardwright.web.storage import (
    STATUSES,
    InlineWriter,
    StaleRevision,
    Storage,
    Writer,
    make_writer,
    now,
)
from boardwright.web.tokens import hash_token, new_game_id, new_token, seat_for_token

log = logging.getLogger("boardwright.web")

OPEN, RUNNING, FINISHED = "open", "running", "finished"
OPEN_SEAT = "open"  # a seat entry of a new game: a human seat anyone may take later
OUTBOX = 256  # frames queued for one connection before it is dropped as too slow
MAX_PLAYERS = 8
MAX_LIVE_GAMES = 5000
MAX_SEED = 2**63 - 1
# Limits on bot strings, so a game cannot occupy a worker for hours per move.
AGENT_LIMITS = {"seconds": 10.0, "iters": 200_000, "iterations": 200_000, "workers": 1,
                "max_nodes": 2_000_000, "depth": 3}
REPLAY_CACHE = 4
# A frame is checked again on a reloaded game at most this often (another process changed it).
FRAME_ATTEMPTS = 3
RECHECKED = (P.STALE, P.NOT_YOUR_TURN, P.ILLEGAL_ACTION, P.GAME_OVER)

class RequestError(Exception):
    """A refused HTTP request: status code and message ({"error": message})."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def visible_scores(state: bw.State, view: dict[str, Any]) -> list[Any]:
    """The scores as the viewer of `view` may see them. Rise of the Shogun's `state.scores`
    count face-down treasures, so the scores come from the view when it shows them."""
    scores = view.get("scores")
    if isinstance(scores, list):
        return list(scores)
    seats = view.get("seats")
    if isinstance(seats, list) and seats and all(isinstance(s, dict) and "vp" in s
                                                 for s in seats):
        return [s["vp"] for s in seats]
    return list(state.scores)


def check_agent(spec: str, offered: Collection[str] = ()) -> None:
    """Parse a bot string or level name (InvalidOptionError when unknown) and refuse
    parameters that would make one decision too long for a shared server.

    Visitors choose among the built-in agents (with parameters, within AGENT_LIMITS) and the
    agent strings the server offers (`offered`, from `boardwright serve --agent`), exactly as
    offered: an agent registered in the server process or installed as a plugin is not
    playable from the lobby unless the server says so, and its parameters are the server's."""
    spec = level_agent(spec)
    name, params = parse_agent_spec(spec)
    if name not in AGENTS and name.lower() not in LEVELS and spec.strip() not in offered:
        shown = ", ".join(offered) if offered else "none"
        known = name in registered_names()  # listed only: a visitor's name imports nothing
        what = f"agent {name!r} is not offered on this server" if known else \
            f"unknown agent {name!r}"
        raise bw.InvalidOptionError(
            f"{what}: this server offers the built-in agents ({', '.join(sorted(AGENTS))}), "
            f"the levels ({', '.join(LEVELS)}) and these agent strings: {shown}")
    make_agent(spec, seed=0)
    if name not in AGENTS:
        return
    for key, value in params.items():
        limit = AGENT_LIMITS.get(key)
        if limit is None:
            continue
        try:
            number = float(value)
        except ValueError:
            continue
        if number > limit:
            raise bw.InvalidOptionError(f"agent {spec!r}: {key} may be at most {limit:g} on "
                                        "this server")


def open_seat(stored: dict[str, Any]) -> bool:
    """Whether a stored seat is open: created as an open human seat (the lobby's "open seat")
    that nobody has joined or holds yet. Any named player may take it (seating.take_seat);
    a seat created with an invitation token is not open, so an invitation stays the invitee's."""
    return (stored.get("kind") == HUMAN and stored.get("open") is True
            and not stored.get("joined") and not stored.get("identity"))


def seat_entry(seat: int, kind: str, connected: bool,
               stored: dict[str, Any] | None = None) -> dict[str, Any]:
    """A seat as the lobby and the tables list it; a bot playing a named level's agent string
    also carries the level's name ("hard"), for people. A seat a named player holds carries
    the name (`stored`: the game's seat entry), a rated game's finished seats their rating
    before and after (ratings.py), and a seat anyone may take says "open"."""
    entry: dict[str, Any] = {"seat": seat, "kind": kind, "connected": connected}
    if stored is not None and open_seat(stored):
        entry["open"] = True
    level = level_of(kind) if kind != HUMAN else None
    if level is not None:
        entry["level"] = level
    if stored is not None:
        if stored.get("name"):
            entry["name"] = stored["name"]
        if stored.get("rating"):
            entry["rating"] = stored["rating"]
    return entry


class Connection:
    """One websocket: its seat (None: spectator), outbox and rate limiter."""

    def __init__(self, websocket: Any, seat: int | None, rate_limit: int = P.RATE_LIMIT) -> None:
        self.websocket = websocket
        self.seat = seat
        self.outbox: asyncio.Queue[Any] = asyncio.Queue(maxsize=OUTBOX)
        self.limiter = P.RateLimiter(rate_limit)
        self.closed = False
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._pump())

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("closing a connection that does not read its frames")
            self.close(P.CLOSE_TOO_SLOW, force=True)

    def send(self, frame: dict[str, Any]) -> None:
        self.send_text(json.dumps(frame, separators=(",", ":")))

    def error(self, code: str, message: str) -> None:
        self.send(P.error_frame(code, message))

    def close(self, code: int = 1000, force: bool = False) -> None:
        if self.closed:
            return
        self.closed = True
        if force:  # drop what is queued: the close goes out first
            while not self.outbox.empty():
                self.outbox.get_nowait()
        self.outbox.put_nowait(("close", code))

    async def _pump(self) -> None:
        try:
            while True:
                item = await self.outbox.get()
                if item is None:
                    return
                if isinstance(item, tuple):
                    await self.websocket.close(code=item[1])
                    return
                await self.websocket.send_text(item)
        except asyncio.CancelledError:
            raise
        except Exception:  # the client went away; the receive loop notices and detaches
            self.closed = True

    async def stop(self) -> None:
        """Stop sending; a close frame already queued is sent first (for at most a second)."""
        closing = self.closed
        self.closed = True
        if self.task is not None and not self.task.done():
            if closing:
                try:
                    await asyncio.wait_for(asyncio.shield(self.task), timeout=1.0)
                    return
                except (TimeoutError, Exception):
                    pass
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):
                pass


@dataclass
class LastAction:
    """The last action as each viewer may know it: `seen[viewer]` is (public JSON form, text)
    for every seat and for spectators (None), from the game's `public_action`."""

    seat: int
    seen: dict[int | None, tuple[dict[str, Any], str]]

    def for_viewer(self, viewer: int | None) -> dict[str, Any]:
        action, text = self.seen[viewer]
        return {"seat": self.seat, "action": dict(action), "text": text}


def last_action(game: bw.Game, state: Any, action: Any, actor: int, describe: Any) -> LastAction:
    """What each viewer may know of `action`, taken by `actor` in `state` (before it is
    applied): its public form and its text, worded once per distinct form."""
    texts: dict[str, str] = {}
    seen: dict[int | None, tuple[dict[str, Any], str]] = {}
    for viewer in (None, *range(game.num_players)):
        public = game.public_action(action, actor, viewer)
        key = json.dumps(public, sort_keys=True)
        if key not in texts:
            texts[key] = describe(state, action, viewer)
        seen[viewer] = (public, texts[key])
    return LastAction(actor, seen)


class LiveGame:
    """A game being played (or watched): state, record, seats and connections."""

    def __init__(self, row: dict[str, Any], game: bw.Game, state: bw.State,
                 actors: list[int], last: LastAction | None) -> None:
        self.id: str = row["id"]
        self.name: str = row["game"]
        self.players: int = row["players"]
        self.options: dict[str, Any] = row["options"]
        self.seed: int = row["seed"]
        self.seats: list[dict[str, Any]] = [dict(s) for s in row["seats"]]
        self.kinds: list[str] = [s["kind"] for s in self.seats]
        self.hashes: list[str | None] = [s.get("token_hash") for s in self.seats]
        self.created: datetime = row["created"]
        self.status: str = row["status"]
        self.rated: bool = bool(row.get("rated"))
        self.revision: int = row.get("revision") or 0  # the database's, at this state
        self.behind: int = self.revision  # the newest revision known to be committed
        self.game = game
        self.state = state
        self.views = _ViewCache(state)  # the views of `state`, each computed once
        self.actions: list[dict[str, Any]] = list(row["record"])
        self.actors = actors
        self.last = last
        self.lock = asyncio.Lock()
        self.connections: dict[int | None, set[Connection]] = {}
        self.generation = 0
        self.bot_task: asyncio.Task[None] | None = None
        self.hint: HintRequest | None = None  # the hint being computed (one per game)
        self.hint_done: tuple[int, int, dict[str, Any]] | None = None  # generation, seat, frame
        self._described: tuple[int, list[dict[str, Any]], list[str]] | None = None
        self.clock: K.Clock | None = K.Clock.from_json(row.get("clock"))  # clocks.py
        self.clock_timer: asyncio.TimerHandle | None = None
        self.undo_request: A.UndoRequest | None = None  # agreement.py
        self.undo_refused: tuple[int, int, int] | None = None  # asker, refuser, step
        self.reversible: list[bool | None] = [None] * len(self.actions)
        self.chat: C.ChatLog | None = None  # chat.py, loaded when first needed

    # -- facts ----------------------------------------------------------------------------------

    @property
    def step(self) -> int:
        return len(self.actions)

    @property
    def humans(self) -> list[int]:
        return [seat for seat, kind in enumerate(self.kinds) if kind == HUMAN]

    def seat_of(self, token: str) -> int | None:
        return seat_for_token(token, self.hashes)

    def connected(self, seat: int) -> bool:
        return bool(self.connections.get(seat))

    @property
    def over(self) -> bool:
        """The game is over: played to its end, or ended on time (clocks.py)."""
        return self.state.is_terminal or (self.clock is not None and self.clock.ended)

    def bot_to_move(self) -> int | None:
        if self.over:
            return None
        seat = self.state.current_player
        if 0 <= seat < self.players and (self.kinds[seat] != HUMAN
                                         or K.stands_in(self, seat)):
            return seat
        return None

    def agent_for(self, seat: int) -> str:
        """The bot string that plays `seat`: its own, or the stand-in of a human seat out of
        time (clocks.py)."""
        return self.kinds[seat] if self.kinds[seat] != HUMAN else K.STAND_IN

    def running_status(self) -> str:
        """"open" while a human seat has never been taken, "running" after, "finished" at
        the end."""
        if self.over:
            return FINISHED
        if any(not self.seats[s].get("joined") for s in self.humans):
            return OPEN
        return RUNNING

    @property
    def consent(self) -> H.Consent:
        return H.consent(self.seats)

    def can_hint(self, seat: int | None) -> bool:
        """Whether `seat` may ask for a hint now: a human seat to move, hints allowed."""
        return (seat is not None and not self.over
                and self.state.current_player == seat and self.kinds[seat] == HUMAN
                and not K.stands_in(self, seat) and self.consent.allowed)

    def hints_for(self, seat: int | None) -> dict[str, Any]:
        """The hint consent as the state frame shows it (spectators see it, never ask)."""
        return {**self.consent.to_json(), "can_ask": self.can_hint(seat)}

    def can_undo(self, seat: int | None) -> bool:
        """Free undo (one human seat, against bots), or asking the others (agreement.py)."""
        if seat is not None and self.humans == [seat]:
            return not self.over and seat in self.actors
        return A.can_request(self, seat)

    def describe(self, state: bw.State, action: Any, viewer: bw.Viewer) -> str:
        return describe_with(self.game, state, action, viewer)

    def seat_list(self) -> list[dict[str, Any]]:
        return [seat_entry(s, kind, self.connected(s), self.seats[s])
                for s, kind in enumerate(self.kinds)]

    def last_action_for(self, seat: int | None) -> dict[str, Any] | None:
        return None if self.last is None else self.last.for_viewer(seat)

    def legal_for(self, seat: int) -> tuple[list[dict[str, Any]], list[str]]:
        """Legal actions and their texts for the seat to move, computed once per position."""
        cached = self._described
        if cached is not None and cached[0] == self.generation:
            return cached[1], cached[2]
        actions = self.state.legal_actions()
        legal = [a.to_json() for a in actions]
        texts = [self.describe(self.views, a, seat) for a in actions]  # type: ignore[arg-type]
        self._described = (self.generation, legal, texts)
        return legal, texts

    def state_frame(self, seat: int | None) -> dict[str, Any]:
        state = self.state
        view = self.views.view(seat)
        terminal = self.over
        current = state.current_player
        legal: list[dict[str, Any]] = []
        texts: list[str] = []
        if (seat is not None and not terminal and current == seat
                and self.kinds[seat] == HUMAN and not K.stands_in(self, seat)):
            legal, texts = self.legal_for(seat)
        scores = visible_scores(state, view)
        refused = self.undo_refused
        return {
            "type": "state", "game": self.name, "seat": seat, "step": self.step,
            "status": self.status,
            "current_player": None if terminal or current < 0 else current,
            "view": view, "legal_actions": legal, "descriptions": texts,
            "scores": scores, "seats": self.seat_list(),
            "last_action": self.last_action_for(seat), "can_undo": self.can_undo(seat),
            "hints": self.hints_for(seat), "rated": self.rated, "table": self.views.table_data(self.game),
            "clock": K.frame(self, asyncio.get_running_loop().time(), scores)
            if self.clock is not None else None,
            "undo_request": self.undo_request.to_json() if self.undo_request else None,
            "undo_refused": {"seat": refused[0], "by": refused[1]}
            if refused is not None and refused[2] == self.step else None,
        }

    def set_state(self, state: bw.State, views: _ViewCache | None = None) -> None:
        self.state = state
        self.views = views if views is not None else _ViewCache(state)
        self.generation += 1

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id, "game": self.name, "players": self.players, "options": self.options,
            "status": self.status, "created": iso(self.created), "seats": self.seat_list(),
            "step": self.step, "scores": visible_scores(self.state, self.views.view(None)),
            "rated": self.rated,
            "clock": self.clock.control.to_json() if self.clock is not None else None,
        }

    # -- sending --------------------------------------------------------------------------------

    def broadcast(self, skip: Connection | None = None) -> None:
        """A state frame to every connection, each with its seat's view (built once per seat)."""
        for seat, connections in list(self.connections.items()):
            targets = [c for c in connections if c is not skip and not c.closed]
            if not targets:
                continue
            text = json.dumps(self.state_frame(seat), separators=(",", ":"))
            for connection in targets:
                connection.send_text(text)

    def all_connections(self) -> Iterable[Connection]:
        for connections in self.connections.values():
            yield from connections


@dataclass
class HintRequest:
    """A hint being computed: for which position (generation) and seat (the answer goes to
    that seat's connections only), and the task waiting for it."""

    generation: int
    seat: int
    task: asyncio.Task[None] | None = None


class _ViewCache:
    """A read-only stand-in for a state that computes each `view()` once: a game's
    `describe` may ask for `view(None)` per action, and a frame describes every legal action."""

    __slots__ = ("_state", "_views", "_table", "_graph")

    def __init__(self, state: bw.State) -> None:
        self._state = state
        self._views: dict[int | None, dict[str, Any]] = {}
        self._table: dict[str, Any] | None = None
        self._graph: Any = None

    def view(self, player: int | None) -> dict[str, Any]:
        if player not in self._views:
            self._views[player] = self._state.view(player)
        return self._views[player]

    def table_data(self, game: bw.Game) -> dict[str, Any]:
        """The game's public table data of the position (`Game.table_data`), built once. (Not
        named `table`: this class stands in for the state, and a state may have a `table`, as
        Shogun's card table.)"""
        if self._table is None:
            try:
                self._table = game.table_data(self._state)
            except Exception:  # noqa: BLE001 - extras must never cost the table its state
                log.exception("table data of %s failed", game.name)
                self._table = {}
        return self._table

    @property
    def graph(self) -> Any:
        """Carcassonne's feature graph, read once: its words read it for every figure move
        it words, and the compiled engine builds it anew (a whole Python position) per read."""
        if self._graph is None:
            self._graph = self._state.graph  # type: ignore[attr-defined]
        return self._graph

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


def table_game(name: str, players: int, options: dict[str, Any]) -> bw.Game:
    """A game as the table keeps it: on the Python engine, the rules reference, where a game
    has one beside a compiled engine. The table applies one move at a time and reads every
    view, the words of every legal move and the game's table data at each: on Carcassonne's
    compiled engine each of these reads converts the position to Python (about 0.4 ms), so the
    table spent more on them than the Python engine spends on the move itself (a replay, which
    reads a view and words a move at every step, likewise). Bots and hints
    search in their workers on the game's default engine (bots.py); records and actions are
    the same on both engines."""
    engine = "python" if "python" in bw.available_engines(name) else None
    return bw.load(name, players, options, engine=engine)


def describe_with(game: bw.Game, state: Any, action: Any, viewer: bw.Viewer) -> str:
    """The game's words for `action` as `viewer` may read them (`Game.describe`): the same
    sentences as every other front end of that game. A gap in a game's wording must not lose
    the move, so its plain text (redacted the same way) stands in."""
    try:
        return game.describe(state, action, viewer)
    except Exception:  # noqa: BLE001 - a plug-in's words must never cost the table a move
        log.exception("describing a move of %s failed", game.name)
        return game.describe_action(action, viewer, state.current_player)


def rebuild(game: bw.Game, seed: int, actions: list[dict[str, Any]],
            describe: Any) -> tuple[bw.State, list[int], LastAction | None]:
    """Replay a record: the state, who made each action, and the last action as each viewer
    may know it (`describe(state, action, viewer)` words it)."""
    state = game.new_game(seed)
    actors: list[int] = []
    last = None
    for index, data in enumerate(actions):
        try:
            action = game.action_from_json(data)
            actor = state.current_player
            if index == len(actions) - 1:
                last = last_action(game, state, action, actor, describe)
            state.apply(action)
        except bw.BoardwrightError as exc:
            raise bw.CorruptRecordError(f"record action #{index} does not replay: {exc}") from None
        actors.append(actor)
    return state, actors, last


def public_scores(state: bw.State) -> list[Any]:
    return visible_scores(state, state.view(None))


class GameManager:
    """All live games of a server, their storage and their bots."""

    def __init__(self, storage: Storage, bots: BotPool, bot_delay: float = 0.0,
                 rate_limit: int = P.RATE_LIMIT, hint_seconds: float | None = 1.0,
                 hint_iterations: int | None = None, agents: Collection[str] = (),
                 policies: Mapping[str, tuple[str, int]] | None = None) -> None:
        if hint_iterations is None and (hint_seconds is None or hint_seconds <= 0):
            raise ValueError("a hint needs a budget: hint_seconds > 0 or hint_iterations")
        self.storage = storage
        self.bots = bots
        self.hint_seconds = None if hint_iterations is not None else hint_seconds
        self.hint_iterations = hint_iterations
        # policy agent strings offered (create_app(policies=...)) -> the game and player count
        # each plays; they are offered for those only
        self.policies = dict(policies or {})
        self.agents = tuple(a.strip() for a in agents) + tuple(self.policies)
        self.bot_delay = bot_delay
        self.rate_limit = rate_limit
        self.writer: Writer | InlineWriter | None = None
        self.games: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        self._replays: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.closing = False
        self.started = False
        self.cluster = Cluster(self)
        # Server-side time of the last accepted moves (frame received -> frames queued), ms.
        self.move_times: deque[float] = deque(maxlen=10_000)
        self.moves = 0
        self.clocks = K.ClockKeeper(self)

    # -- life cycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        self.writer = make_writer(self.storage)
        await asyncio.to_thread(self.bots.start)
        rows = await asyncio.to_thread(self.storage.active)
        for row in rows:
            try:
                live = await asyncio.to_thread(self._live_from_row, row)
            except Exception as exc:  # noqa: BLE001 - one bad game must not stop the server
                log.error("game %s cannot be resumed: %s", row["id"], exc)
                continue
            self.games[live.id] = live
            self.clocks.sync(live)
            self.schedule_bot(live)
        await self.cluster.start()
        self.started = True
        log.info("resumed %d game(s) from %s", len(self.games), self.storage.backend)

    async def stop(self) -> None:
        self.closing = True
        await self.cluster.stop()
        for live in list(self.games.values()):
            if live.bot_task is not None:
                live.bot_task.cancel()
            if live.hint is not None and live.hint.task is not None:
                live.hint.task.cancel()
            for connection in list(live.all_connections()):
                await connection.stop()
        if self.writer is not None:
            await self.clocks.save_all(self.writer)
            await asyncio.to_thread(self.writer.close)
        self.bots.shutdown()
        self.storage.dispose()

    def _live_from_row(self, row: dict[str, Any]) -> LiveGame:
        game = table_game(row["game"], row["players"], row["options"])
        if game.version != row["version"]:
            raise bw.CorruptRecordError(f"game {row['id']} was recorded with {row['game']} "
                                        f"version {row['version']}, the engine has "
                                        f"{game.version}")
        def describe(state: bw.State, action: Any, viewer: bw.Viewer) -> str:
            return describe_with(game, state, action, viewer)

        state, actors, last = rebuild(game, row["seed"], list(row["record"]), describe)
        live = LiveGame(row, game, state, actors, last)
        if len(live.humans) > 1 and not live.over:  # what the table offers as undo (agreement.py)
            live.reversible = list(A.reversibility(game, row["seed"], list(row["record"])))
        return live

    async def get(self, game_id: str) -> LiveGame | None:
        """The live game (loaded from the database when it is not in memory), or None."""
        live = self.games.get(game_id)
        if live is not None:
            return live
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 64:
            return None
        pending = self._loading.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveGame | None] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            row = await asyncio.to_thread(self.storage.get, game_id)
            live = None
            if row is not None:
                live = self.games.get(game_id)
                if live is None:
                    live = await asyncio.to_thread(self._live_from_row, row)
                    self.games[game_id] = live
                    self.clocks.sync(live)
                    self.schedule_bot(live)
            future.set_result(live)
            return live
        except Exception as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters get it through shield
            raise
        finally:
            self._loading.pop(game_id, None)

    def _evict_if_idle(self, live: LiveGame) -> None:
        if live.status == FINISHED and not any(live.connections.values()):
            if self.games.get(live.id) is live:
                del self.games[live.id]

    # -- creating and listing -------------------------------------------------------------------

    async def create(self, body: Any) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise RequestError(400, "the body must be a JSON object with \"game\" and \"seats\"")
        unknown = sorted(set(body) - {"game", "players", "options", "seats", "seed", "rated",
                                      "clock", "on_timeout"})
        if unknown:
            raise RequestError(400, f"unknown field(s) {', '.join(map(repr, unknown))}; "
                                    "known: game, players, options, seats, seed, rated, clock, "
                                    "on_timeout")
        rated = body.get("rated", True)
        if type(rated) is not bool:
            raise RequestError(400, "\"rated\" must be true or false")
        name = body.get("game")
        if not isinstance(name, str) or not name:
            raise RequestError(400, f"\"game\" must name a game: {', '.join(bw.available_games())}")
        seats = body.get("seats")
        players = body.get("players")
        if players is not None and (type(players) is not int or not 1 <= players <= MAX_PLAYERS):
            raise RequestError(400, f"\"players\" must be a whole number from 1 to {MAX_PLAYERS}")
        if seats is None:
            seats = [HUMAN] * (players or 2)
        if (not isinstance(seats, list) or not seats or len(seats) > MAX_PLAYERS
                or not all(isinstance(s, str) and 0 < len(s.strip()) <= 100 for s in seats)):
            raise RequestError(400, "\"seats\" must list one entry per seat: \"human\", \"open\" "
                                    "(a human seat anyone may take later) or a bot "
                                    "such as \"random\", \"greedy\" or \"mcts:seconds=0.5\"")
        if players is None:
            players = len(seats)
        if players != len(seats):
            raise RequestError(400, f"\"players\" is {players} but \"seats\" lists {len(seats)}")
        options = body.get("options")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise RequestError(400, "\"options\" must be a JSON object of option names to values")
        seed = body.get("seed")
        if seed is not None and (type(seed) is not int or not 0 <= seed <= MAX_SEED):
            raise RequestError(400, f"\"seed\" must be a whole number from 0 to {MAX_SEED}")
        if seed is None:
            seed = secrets.randbelow(2**31)
        # a level name is stored as its agent string: the record says which bot played; an
        # open seat is a human seat without a token, for a named player to take (seating.py)
        opened = [s.strip().lower() == OPEN_SEAT for s in seats]
        kinds = [HUMAN if s.strip().lower() in (HUMAN, OPEN_SEAT) else level_agent(s.strip())
                 for s in seats]
        if len([g for g in self.games.values() if g.status != FINISHED]) >= MAX_LIVE_GAMES:
            raise RequestError(503, "the server has too many games in play; try again later")
        try:
            for kind in dict.fromkeys(kinds):
                if kind != HUMAN:
                    check_agent(kind, self.agents)
                    plays = self.policies.get(kind.strip())
                    if plays is not None and plays != (name, players):
                        raise bw.InvalidOptionError(
                            f"{kind.strip()} plays {plays[0]} with {plays[1]} players, not "
                            f"{name} with {players}")
            if HUMAN not in kinds:  # bots alone: the game's own limit makes it end
                options, _ = bw.bots_only_options(name, options)
            game = table_game(name, players, options)
            state = game.new_game(seed)
            state.view(None)
            control = K.parse_control(body.get("clock"), body.get("on_timeout"))
            if control is not None and HUMAN not in kinds:
                raise bw.InvalidOptionError("a clock needs a human seat: bots have no clock")
        except bw.BoardwrightError as exc:
            raise RequestError(400, str(exc)) from None
        tokens = [new_token() if kind == HUMAN and not o else None
                  for kind, o in zip(kinds, opened)]
        stamp = now()
        row = {
            "id": new_game_id(), "game": name, "version": game.version, "players": players,
            "options": options, "seed": seed,
            "seats": [{"kind": kind, "token_hash": hash_token(t) if t else None,
                       "joined": False, **({"open": True} if o else {})}
                      for kind, t, o in zip(kinds, tokens, opened)],
            "record": [], "status": RUNNING if HUMAN not in kinds else OPEN, "step": 0,
            "scores": public_scores(state), "created": stamp, "updated": stamp,
            "rated": rated and HUMAN in kinds,  # bots alone are never rated
            "clock": K.Clock.new(control, players).to_json() if control is not None else None,
        }
        assert self.writer is not None
        await self.writer.insert(row)
        live = LiveGame(row, game, state, [], None)
        self.games[live.id] = live
        self.schedule_bot(live)
        seat_info = []
        for seat, (kind, token) in enumerate(zip(kinds, tokens)):
            entry: dict[str, Any] = {"seat": seat, "kind": kind}
            level = level_of(kind) if kind != HUMAN else None
            if level is not None:
                entry["level"] = level
            if opened[seat]:
                entry["open"] = True
            if token is not None:
                # in the fragment: browsers never send it, so no server or proxy logs it
                entry["join_url"] = f"/play/{live.id}#token={token}"
                entry["token"] = token
            seat_info.append(entry)
        return {"id": live.id, "seats": seat_info, "spectate_url": f"/play/{live.id}",
                "rated": live.rated}

    async def listing(self, status: str | None) -> list[dict[str, Any]]:
        if status is not None and status not in STATUSES:
            raise RequestError(400, f"status must be one of {', '.join(STATUSES)}, "
                                    f"not {status!r}")
        wanted = [status] if status else list(STATUSES)
        if self.cluster.shared:  # other processes create and play games too: ask the database
            rows = await asyncio.to_thread(self.storage.listing, wanted)
            return [self._row_summary(r) for r in rows]
        out = [g.summary() for g in self.games.values()
               if g.status in wanted and g.status != FINISHED]
        if FINISHED in wanted:
            rows = await asyncio.to_thread(self.storage.listing, [FINISHED])
            out.extend(self._row_summary(r) for r in rows)
        out.sort(key=lambda s: s["created"], reverse=True)
        return out

    def row_summary(self, row: dict[str, Any]) -> dict[str, Any]:
        """A game's summary: from memory when it is live, else from its row (no record)."""
        return self._row_summary(row)

    def _row_summary(self, row: dict[str, Any]) -> dict[str, Any]:
        live = self.games.get(row["id"])
        if live is not None and live.revision >= row.get("revision", 0):
            return live.summary()
        return {
            "id": row["id"], "game": row["game"], "players": row["players"],
            "options": row["options"], "status": row["status"], "created": iso(row["created"]),
            "seats": [seat_entry(s, seat["kind"], False, seat)
                      for s, seat in enumerate(row["seats"])],
            "step": row["step"], "scores": row["scores"], "rated": bool(row.get("rated")),
            "clock": row["clock"]["control"] if row.get("clock") else None,
        }

    async def summary(self, game_id: str) -> dict[str, Any]:
        live = self.games.get(game_id)
        if live is not None and live.behind <= live.revision:
            return live.summary()
        row = await asyncio.to_thread(self.storage.get, game_id) if len(game_id) <= 64 else None
        if row is None:
            raise RequestError(404, f"no game {game_id!r}")
        return self._row_summary(row)

    # -- connections ----------------------------------------------------------------------------

    async def attach(self, live: LiveGame, connection: Connection) -> None:
        async with live.lock:
            if live.behind > live.revision:  # changed by another process: reload first
                try:
                    await self.cluster.reload(live)
                except Exception:  # the position held is shown; the next change reloads
                    log.exception("game %s could not be reloaded", live.id)
            seat = connection.seat
            peers = live.connections.setdefault(seat, set())
            arrived = seat is not None and not peers
            started = False
            peers.add(connection)
            connection.send(live.state_frame(seat))
            for _ in range(FRAME_ATTEMPTS):
                if seat is None or live.seats[seat].get("joined"):
                    break
                seats = [dict(s) for s in live.seats]
                seats[seat]["joined"] = True
                values: dict[str, Any] = {"seats": seats, "updated": now()}
                status = live.status
                if status == OPEN and all(seats[s].get("joined") for s in live.humans):
                    status = values["status"] = RUNNING
                try:
                    assert self.writer is not None
                    live.revision = await self.writer.update(live.id, values, live.revision)
                except StaleRevision:  # another process changed the game: on the new one
                    await self.cluster.reload(live)
                    continue
                except Exception:
                    log.exception("could not save that seat %s of %s joined", seat, live.id)
                live.seats, live.status = seats, status
                if status == RUNNING and values.get("status") == RUNNING:
                    self.clocks.sync(live)  # every seat taken: the clocks start
                    started = live.clock is not None
                break
            if started:
                live.broadcast()  # everyone, this connection too, sees the clock running
            elif arrived:
                live.broadcast(skip=connection)  # the others see the seat connected
        try:
            await C.send_history(self, live, connection)
        except Exception:  # noqa: BLE001 - the game is playable without its chat history
            log.exception("could not read the chat of game %s", live.id)

    async def detach(self, live: LiveGame, connection: Connection) -> None:
        await connection.stop()
        async with live.lock:
            peers = live.connections.get(connection.seat)
            if peers is not None:
                peers.discard(connection)
                if not peers:
                    del live.connections[connection.seat]
                    if connection.seat is not None:
                        live.broadcast()  # the others see the seat disconnected
        self._evict_if_idle(live)

    async def on_frame(self, live: LiveGame, connection: Connection,
                       data: str | bytes | None) -> None:
        """Handle one client frame. Never raises: refusals become error frames."""
        if not connection.limiter.allow():
            connection.error(P.RATE_LIMITED, f"too many frames: at most {self.rate_limit} "
                                              "per second; this one was ignored")
            if connection.limiter.refused >= P.FLOOD_CLOSE_AFTER:
                connection.close(P.CLOSE_FLOOD)
            return
        try:
            frame = P.parse_frame(data)
            if frame.type == "ping":
                connection.send(P.PONG)
                return
            if frame.type == "chat":
                await C.post(self, live, connection.seat, frame.text or "")
                return
            if connection.seat is None:
                if frame.type in ("hint", "allow_hints", "refuse_hints"):
                    raise P.ProtocolError(P.BAD_TOKEN, "spectators get no hints and have no say "
                                                       "in them: only the players' seats do")
                raise P.ProtocolError(P.BAD_TOKEN, "spectators cannot play: open the seat's "
                                                   "join link (it carries the seat's token)")
            await self._checked(live, connection, frame)
        except P.ProtocolError as exc:
            connection.error(exc.code, exc.message)
        except Exception:
            log.exception("frame handling failed in game %s", live.id)
            connection.error(P.SERVER_ERROR, "the server failed to handle this frame; the "
                                             "game is unchanged")

    async def _checked(self, live: LiveGame, connection: Connection, frame: Any) -> None:
        """Handle a player's frame on the game as the database holds it: when another process
        changed the game first (a conditional write lost, or a refusal made on a position the
        database has moved past), reload the game and check the frame again."""
        for attempt in range(1, FRAME_ATTEMPTS + 1):
            try:
                await self._dispatch(live, connection, frame)
                return
            except StaleRevision:
                self.cluster.conflicts += 1
                await self.cluster.catch_up(live)
            except P.ProtocolError as exc:
                if (attempt == FRAME_ATTEMPTS or exc.code not in RECHECKED
                        or not await self.cluster.newer(live)):
                    raise
                await self.cluster.catch_up(live)
        raise P.ProtocolError(P.BUSY, "the game kept changing while this frame was handled; "
                                      "look at the new position and try again")

    async def _dispatch(self, live: LiveGame, connection: Connection, frame: Any) -> None:
        assert connection.seat is not None
        if frame.type == "move":
            await self.move(live, connection.seat, frame.action, frame.step)
        elif frame.type == "undo":
            await self.undo(live, connection.seat)
        elif frame.type == "hint":
            await self.hint(live, connection)
        elif frame.type in ("accept_undo", "refuse_undo"):
            await A.answer(self, live, connection.seat, frame.type == "accept_undo")
        elif frame.type == "allow_hints":
            await self.allow_hints(live, connection.seat)
        else:
            await self.refuse_hints(live, connection.seat)

    # -- moves ----------------------------------------------------------------------------------

    async def move(self, live: LiveGame, seat: int, data: dict[str, Any],
                   step: int | None) -> None:
        started = time.perf_counter()
        async with live.lock:
            state = live.state
            if live.over:
                raise P.ProtocolError(P.GAME_OVER, "the game is over: no more moves")
            if step is not None and step != live.step:
                raise P.ProtocolError(P.STALE, f"your move was made for step {step} but the "
                                               f"game is at step {live.step}: look at the new "
                                               "position and move again")
            current = state.current_player
            if current != seat:
                who = "a bot" if live.kinds[current] != HUMAN else f"seat {current}"
                raise P.ProtocolError(P.NOT_YOUR_TURN, f"it is not your turn: {who} is to "
                                                       "move")
            if K.stands_in(live, seat):
                why = "you lost on time: a bot plays your seat to the end" \
                    if seat in live.clock.lost else "your time ran out: a bot plays this turn"
                raise P.ProtocolError(P.NOT_YOUR_TURN, why)
            try:
                action = live.game.action_from_json(data)
            except bw.BoardwrightError as exc:
                raise P.ProtocolError(P.MALFORMED, f"the action cannot be read: {exc}") from None
            except Exception:  # noqa: BLE001 - any input the parser did not expect
                raise P.ProtocolError(P.MALFORMED, "the action cannot be read") from None
            new = state.clone()
            try:
                new.apply(action)
            except bw.GameOverError as exc:
                raise P.ProtocolError(P.GAME_OVER, str(exc)) from None
            except bw.BoardwrightError as exc:
                raise P.ProtocolError(P.ILLEGAL_ACTION, str(exc)) from None
            await self._commit(live, new, action, seat)
        self.moves += 1
        self.move_times.append(1000 * (time.perf_counter() - started))

    def stats(self) -> dict[str, Any]:
        """Counters for operators and the load benchmark."""
        times = sorted(self.move_times)

        def pct(q: float) -> float | None:
            return round(times[min(len(times) - 1, int(q / 100 * len(times)))], 3) \
                if times else None

        live = list(self.games.values())
        return {
            "games_in_memory": len(live),
            "games_in_play": sum(1 for g in live if g.status != FINISHED),
            "connections": sum(len(c) for g in live for c in g.connections.values()),
            "moves": self.moves,
            "move_ms": {"p50": pct(50), "p90": pct(90), "p99": pct(99),
                        "max": round(times[-1], 3) if times else None, "last": len(times)},
            "db": {"backend": self.storage.backend,
                   "commits": self.writer.commits if self.writer else 0,
                   "operations": self.writer.operations if self.writer else 0},
            "cluster": self.cluster.stats(),
        }

    async def _commit(self, live: LiveGame, new: bw.State, action: Any, seat: int) -> None:
        """Save the new record, then make it the game's state and broadcast (lock held)."""
        last = last_action(live.game, live.views, action, seat, live.describe)
        data = action.to_json()
        actions = live.actions + [data]
        status = FINISHED if new.is_terminal else (
            OPEN if any(not live.seats[s].get("joined") for s in live.humans) else RUNNING)
        views = _ViewCache(new)
        values = {"record": actions, "step": len(actions), "status": status,
                  "scores": visible_scores(new, views.view(None)), "updated": now()}
        clock = K.after_move(live, new, seat, asyncio.get_running_loop().time())
        if clock is not None:
            values["clock"] = clock.to_json()
        finish = R.finishing(self.storage, live.id, live.name, live.rated, live.seats,
                             K.standing_returns(clock, new.returns()),
                             values) if status == FINISHED else None
        if finish is None:
            await self._save_row(live, values, "a move of game %s",
                                 "the move could not be saved; the game is unchanged, try again")
            live.rated = bool(values.get("rated", live.rated))
        else:  # the last move, the ratings and each seat's change: one transaction
            await self._save_row(live, finish, "the last move and the ratings of game %s",
                                 "the move could not be saved; the game is unchanged, try again")
            live.seats = finish.seats
        A.stamp(live, views, action)  # before set_state: it reads the position moved from
        live.clock = clock
        live.undo_request = None  # a request was about the position before this move
        live.set_state(new, views)
        live.actions = actions
        live.actors.append(seat)
        live.last = last
        live.status = status
        self.clocks.sync(live)
        live.broadcast()
        self.schedule_bot(live)
        if status == FINISHED:
            self._evict_if_idle(live)  # nobody watching: it lives on in the database only

    async def _save_row(self, live: LiveGame, values: dict[str, Any] | R.FinishRating,
                        what: str, refusal: str) -> None:
        """Write a change of the game row (or run an operation that writes it with other
        rows) before anyone is told of it. A failed write is logged and refused with
        `refusal`, and the live game stays as it was."""
        try:
            assert self.writer is not None
            if isinstance(values, dict):
                live.revision = await self.writer.update(live.id, values, live.revision)
            else:  # an operation that writes the row with others (the ratings at the end)
                values.revision = live.revision
                live.revision = await self.writer.call(values, live.id)
        except StaleRevision:  # another process changed the game first: the caller reloads
            raise
        except Exception:
            log.exception("could not save " + what, live.id)
            raise P.ProtocolError(P.SERVER_ERROR, refusal) from None

    async def undo(self, live: LiveGame, seat: int) -> None:
        """Alone against bots: take back at once. With several humans: ask the others
        (agreement.py)."""
        if live.humans != [seat]:
            await A.request(self, live, seat)
            return
        async with live.lock:
            if live.humans != [seat]:
                raise P.ProtocolError(P.ILLEGAL_ACTION, "undo is only for games with exactly one "
                                                        "human seat (training against bots)")
            if live.over:
                raise P.ProtocolError(P.GAME_OVER, "the game is over: moves can no longer be "
                                                   "taken back")
            mine = [i for i, actor in enumerate(live.actors) if actor == seat]
            if not mine:
                raise P.ProtocolError(P.ILLEGAL_ACTION, "nothing to undo: you have not moved "
                                                        "yet")
            await self._take_back(live, live.actions[:mine[-1]], unrate=True)

    async def _take_back(self, live: LiveGame, keep: list[dict[str, Any]],
                         unrate: bool = False) -> None:
        """Go back to the position after the actions `keep` (lock held): the free undo and an
        undo the players agreed to. The clocks keep the time they had; the seat to move now
        has its clock running from here. The free undo (`unrate`) makes the game unrated: a
        move taken back alone is training; an undo every player agreed to keeps the rating,
        as a takeback the opponent grants does on lichess."""
        state, actors, last = await asyncio.to_thread(
            rebuild, live.game, live.seed, keep, live.describe)
        values = {"record": keep, "step": len(keep), "status": RUNNING,  # its humans joined
                  "scores": public_scores(state), "updated": now()}
        if unrate:
            values["rated"] = False  # a move taken back alone: no longer a rated game
        clock = None
        if live.clock is not None:
            clock = live.clock.copy()
            clock.charge(asyncio.get_running_loop().time())
            clock.flagged.clear()  # out of time in a turn that is taken back: the clock says
            values["clock"] = clock.to_json()  # again when a seat's time is up
        await self._save_row(live, values, "an undo in game %s",
                             "the undo could not be saved; the game is unchanged")
        if unrate:
            live.rated = False
        live.set_state(state)  # a new generation: a bot still thinking is ignored
        live.actions, live.actors, live.last = keep, actors, last
        del live.reversible[len(keep):]
        live.clock = clock
        live.status = RUNNING
        self.clocks.sync(live)
        live.broadcast()
        self.schedule_bot(live)

    # -- hints ----------------------------------------------------------------------------------

    def _hint_refusal(self, live: LiveGame, seat: int) -> P.ProtocolError | None:
        """Why `seat` may not have a hint now, or None (lock held)."""
        if live.over:
            return P.ProtocolError(P.GAME_OVER, "the game is over: there is no move to hint")
        agreement = live.consent
        if not agreement.allowed:
            names = ", ".join(f"seat {s + 1}" for s in agreement.waiting)
            if agreement.accepted:
                text = f"hints are proposed but not yet accepted by {names}"
            else:
                text = ("with several human players, hints need everyone's agreement: propose "
                        "them first")
            return P.ProtocolError(P.HINTS_NOT_ALLOWED, text)
        current = live.state.current_player
        if current != seat:
            who = "a bot" if 0 <= current < live.players and live.kinds[current] != HUMAN \
                else f"seat {current + 1}"
            return P.ProtocolError(P.NOT_YOUR_TURN, f"a hint is for your own decision: {who} "
                                                    "is to move")
        return None

    async def hint(self, live: LiveGame, connection: Connection) -> None:
        """Start computing a hint for the connection's seat (answered by `_run_hint`), or
        answer at once from the one already computed for this position."""
        seat = connection.seat
        assert seat is not None
        async with live.lock:
            refusal = self._hint_refusal(live, seat)
            if refusal is not None:
                raise refusal
            done = live.hint_done
            if done is not None and done[0] == live.generation and done[1] == seat:
                connection.send(done[2])
                return
            pending = live.hint
            if pending is not None:
                if pending.generation == live.generation and pending.seat == seat:
                    return  # already being computed: it goes to this seat's connections
                raise P.ProtocolError(P.BUSY, "a hint is already being computed in this game; "
                                              "ask again in a moment")
            if live.rated:  # play with a bot's help is not rated
                await self._save_row(live, {"rated": False, "updated": now()},
                                     "the end of rating of game %s",
                                     "the hint could not be started; try again")
                live.rated = False
                live.broadcast()
            job = H.HintJob(live.id, live.name, live.players, live.options, live.seed,
                            tuple(live.actions), seat, self.hint_seconds, self.hint_iterations)
            request = HintRequest(live.generation, seat)
            live.hint = request
            request.task = asyncio.create_task(self._run_hint(live, job, request))

    async def _run_hint(self, live: LiveGame, job: H.HintJob, request: HintRequest) -> None:
        """Compute the hint in the bot pool, then send it to the asking seat's connections."""
        try:
            found = await self.bots.run(H.compute_hints, job)
            error = None
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("hint failed in game %s", live.id)
            found, error = None, P.error_frame(P.SERVER_ERROR, "the hint could not be computed; "
                                                               "try again")
        async with live.lock:
            if live.hint is request:
                live.hint = None
            if error is None:
                refusal = self._hint_refusal(live, request.seat)
                if live.generation != request.generation:
                    error = P.error_frame(P.STALE, "the position changed before the hint was "
                                                   "ready: ask again")
                elif refusal is not None:
                    error = P.error_frame(refusal.code, refusal.message)
            frame = error if error is not None else self._hint_frame(live, request.seat, found)
            if error is None:
                live.hint_done = (request.generation, request.seat, frame)
            text = json.dumps(frame, separators=(",", ":"))
            for connection in list(live.connections.get(request.seat, ())):
                connection.send_text(text)

    def _hint_frame(self, live: LiveGame, seat: int,
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
        budget = ({"iterations": self.hint_iterations} if self.hint_iterations is not None
                  else {"seconds": self.hint_seconds})
        return {"type": "hint", "step": live.step, "seat": seat, "hints": hints,
                "budget": budget}

    async def allow_hints(self, live: LiveGame, seat: int) -> None:
        """`seat` proposes hints, or accepts the proposal; saved with the game."""
        async with live.lock:
            self._check_vote(live)
            if live.seats[seat].get(H.AGREED):
                return  # agreed already: nothing changes
            seats = H.agreed(live.seats, seat)
            await self._save_row(live, {"seats": seats, "updated": now()},
                                 "an agreement to hints in game %s",
                                 "the agreement could not be saved; try again")
            live.seats = seats
            live.broadcast()

    async def refuse_hints(self, live: LiveGame, seat: int) -> None:
        """`seat` refuses the proposal (or withdraws hints): every agreement is cleared."""
        async with live.lock:
            self._check_vote(live)
            if not live.consent.accepted:
                raise P.ProtocolError(P.ILLEGAL_ACTION, "no one has proposed hints: there is "
                                                        "nothing to refuse")
            seats = H.refused(live.seats)
            await self._save_row(live, {"seats": seats, "updated": now()},
                                 "a refusal of hints in game %s",
                                 "the refusal could not be saved; try again")
            live.seats = seats
            live.hint_done = None
            live.broadcast()

    @staticmethod
    def _check_vote(live: LiveGame) -> None:
        if live.over:
            raise P.ProtocolError(P.GAME_OVER, "the game is over: hints no longer matter")
        if live.consent.training:
            raise P.ProtocolError(P.ILLEGAL_ACTION, "with one human seat hints are always "
                                                    "allowed: there is nothing to agree on")

    # -- bots -----------------------------------------------------------------------------------

    def schedule_bot(self, live: LiveGame) -> None:
        """Start the game's bot driver when a bot is to move (one driver per game)."""
        if self.closing or live.bot_to_move() is None:
            return
        if live.bot_task is None or live.bot_task.done():
            live.bot_task = asyncio.create_task(self._drive_bots(live))

    async def _drive_bots(self, live: LiveGame) -> None:
        loop = asyncio.get_running_loop()
        while not self.closing:
            async with live.lock:
                seat = live.bot_to_move()
                if seat is None:
                    live.bot_task = None
                    return
                generation = live.generation
                job = BotJob(live.id, live.name, live.players, live.options, live.seed,
                             tuple(live.actions), seat, live.agent_for(seat))
            started = loop.time()
            try:
                data = await self.bots.choose(job)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot %s failed in game %s", job.agent, live.id)
                data = None
            wait = self.bot_delay - (loop.time() - started)
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
                    await self._commit(live, new, action, seat)
                except StaleRevision:  # another process moved first: its bots, now
                    await self.cluster.reload(live)
                    live.bot_task = None
                    return
                except P.ProtocolError:  # not saved: wait, then try again
                    live.bot_task = None
                    loop.call_later(1.0, self.schedule_bot, live)
                    return

    # -- replays --------------------------------------------------------------------------------

    async def _finished_record(self, game_id: str) -> dict[str, Any]:
        live = self.games.get(game_id)
        if live is not None and live.behind <= live.revision:  # else: the database's record
            if live.status != FINISHED:
                raise RequestError(403, "the replay opens when the game is finished")
            return {"game": live.name, "players": live.players, "options": live.options,
                    "seed": live.seed, "record": list(live.actions),
                    "seats": [dict(s) for s in live.seats]}
        row = await asyncio.to_thread(self.storage.get, game_id) if len(game_id) <= 64 else None
        if row is None:
            raise RequestError(404, f"no game {game_id!r}")
        if row["status"] != FINISHED:
            raise RequestError(403, "the replay opens when the game is finished")
        return row

    async def replay(self, game_id: str) -> dict[str, Any]:
        """Every position of a finished game as a spectator sees it, with the actions."""
        cached = self._replays.get(game_id)
        if cached is not None:
            self._replays.move_to_end(game_id)
            return cached
        row = await self._finished_record(game_id)
        result = await asyncio.to_thread(self._build_replay, row)
        self._replays[game_id] = result
        while len(self._replays) > REPLAY_CACHE:
            self._replays.popitem(last=False)
        return result

    @staticmethod
    def _build_replay(row: dict[str, Any]) -> dict[str, Any]:
        game = table_game(row["game"], row["players"], row["options"])
        state = game.new_game(row["seed"])
        frames = [state.view(None)]
        actions, texts, seats = [], [], []
        for data in row["record"]:
            action = game.action_from_json(data)
            seats.append(state.current_player)
            # only finished games are replayed: their records are full information
            texts.append(describe_with(game, state, action, bw.OMNISCIENT))
            state.apply(action)
            actions.append(action.to_json())
            frames.append(state.view(None))
        body = {"game": row["game"], "players": row["players"], "steps": len(actions),
                "frames": frames, "actions": actions, "descriptions": texts, "seats": seats,
                "kinds": [s["kind"] for s in row["seats"]],
                "names": [s.get("name") for s in row["seats"]],
                "scores": visible_scores(state, frames[-1])}
        return {"body": json.dumps(body, separators=(",", ":")).encode("utf-8"),
                "frames": frames, "actions": actions, "texts": texts, "seats": seats}

    async def replay_step(self, game_id: str, step: int) -> dict[str, Any]:
        replay = await self.replay(game_id)
        total = len(replay["actions"])
        if not 0 <= step <= total:
            raise RequestError(404, f"no step {step}: this game has steps 0 to {total}")
        before = step - 1
        return {
            "step": step, "steps": total, "view": replay["frames"][step],
            "action": replay["actions"][before] if step else None,
            "seat": replay["seats"][before] if step else None,
            "text": replay["texts"][before] if step else None,
            "next_action": replay["actions"][step] if step < total else None,
        }
