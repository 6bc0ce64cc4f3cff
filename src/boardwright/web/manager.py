"""The live games of one server process: their life cycle (resumed at start, loaded when first
asked for, dropped when finished and unwatched), their connections, and each client frame
dispatched to the part of the server that handles it.

The parts: `authority` applies moves and undos (authority.py), `bot_driver` moves the bots
(botdriver.py), `hint_desk` answers hints (hintdesk.py), `clocks` keeps the time
(clocks.py), `lobby` creates and lists games (lobby.py) within the visitors' `limits`
(limits.py), `replays` replays finished games (replays.py), `cluster` keeps the games in step
with other processes (cluster.py). Bots and hints run in the worker `pool` (bots.py), in the
order the `bot_queue` gives them (botqueue.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection, Mapping
from typing import Any

from boardwright.web.agreement import answer as answer_undo
from boardwright.web.authority import Authority
from boardwright.web.botdriver import BotDriver
from boardwright.web.botqueue import BOT_ONLY_SECONDS, BotQueue
from boardwright.web.bots import BotPool
from boardwright.web.chat import post, read_chat
from boardwright.web.clocks import ClockKeeper, TimeSource, loop_time
from boardwright.web.cluster import Cluster
from boardwright.web.connection import Connection
from boardwright.web.hintdesk import HintDesk
from boardwright.web.live import FINISHED, OPEN, RUNNING, LiveGame, live_from_row
from boardwright.web.limits import CreationLimits, LimitSettings
from boardwright.web.lobby import Lobby
from boardwright.web.protocol import (
    BAD_TOKEN,
    BUSY,
    CLOSE_FLOOD,
    FLOOD_CLOSE_AFTER,
    GAME_OVER,
    ILLEGAL_ACTION,
    NOT_YOUR_TURN,
    PONG,
    RATE_LIMIT,
    RATE_LIMITED,
    SERVER_ERROR,
    STALE,
    Frame,
    ProtocolError,
    parse_frame,
)
from boardwright.web.replays import Replays
from boardwright.web.resigning import CLAIM_AFTER, arrived, claim, left, loaded, resign
from boardwright.web.storage import InlineWriter, StaleRevision, Storage, Writer, make_writer, now

log = logging.getLogger("boardwright.web")

# A frame is checked again on a reloaded game at most this often (another process changed it).
FRAME_ATTEMPTS = 3
RECHECKED = (STALE, NOT_YOUR_TURN, ILLEGAL_ACTION, GAME_OVER)


class GameManager:
    """All live games of a server, their storage and their bots."""

    def __init__(self, storage: Storage, bots: BotPool, bot_delay: float = 0.0,
                 rate_limit: int = RATE_LIMIT, hint_seconds: float | None = 1.0,
                 hint_iterations: int | None = None, agents: Collection[str] = (),
                 policies: Mapping[str, tuple[str, int]] | None = None,
                 clock: TimeSource = loop_time, limits: LimitSettings | None = None,
                 bot_only_seconds: float | None = BOT_ONLY_SECONDS,
                 claim_after: float = CLAIM_AFTER) -> None:
        self.storage = storage
        self.time = clock  # monotonic seconds of the game clocks
        self.claim_after = claim_after  # seconds the others are gone before a claim
        self.pool = bots
        self.bot_queue = BotQueue(bots, bots.workers)
        self.limits = CreationLimits(limits if limits is not None else LimitSettings(), clock,
                                     self._in_play)
        self.rate_limit = rate_limit
        self.writer: Writer | InlineWriter | None = None
        self.games: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Future[LiveGame | None]] = {}
        self.closing = False
        self.started = False
        self.hint_desk = HintDesk(self, hint_seconds, hint_iterations)
        self.lobby = Lobby(self, agents, policies)
        self.authority = Authority(self)
        self.bot_driver = BotDriver(self, bot_delay, bot_only_seconds)
        self.replays = Replays(self)
        self.cluster = Cluster(self)
        self.clocks = ClockKeeper(self)

    # -- life cycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        self.writer = make_writer(self.storage)
        await asyncio.to_thread(self.pool.start)
        rows = await asyncio.to_thread(self.storage.active)
        for row in rows:
            try:
                live = await asyncio.to_thread(live_from_row, row)
            except Exception as exc:  # noqa: BLE001 - one bad game must not stop the server
                log.error("game %s cannot be resumed: %s", row["id"], exc)
                continue
            self.adopt(live)
            self.clocks.sync(live)
            self.bot_driver.schedule(live)
        await self.cluster.start()
        self.started = True
        log.info("resumed %d game(s) from %s", len(self.games), self.storage.backend)

    async def stop(self) -> None:
        self.closing = True
        await self.cluster.stop()
        for live in list(self.games.values()):
            live.bots.cancel()
            pending = live.hints.pending
            if pending is not None and pending.task is not None:
                pending.task.cancel()
            for connection in list(live.all_connections()):
                await connection.stop()
        if self.writer is not None:
            await self.clocks.save_all(self.writer)
            await asyncio.to_thread(self.writer.close)
        self.pool.shutdown()
        self.storage.dispose()

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
                    live = await asyncio.to_thread(live_from_row, row)
                    self.adopt(live)
                    self.clocks.sync(live)
                    self.bot_driver.schedule(live)
            future.set_result(live)
            return live
        except Exception as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters get it through shield
            raise
        finally:
            self._loading.pop(game_id, None)

    def adopt(self, live: LiveGame) -> None:
        """Keep `live` among this server's games, its clock on this server's time."""
        live.time = self.time
        live.claim_after = self.claim_after
        self.games[live.id] = live
        loaded(live)  # its seats without a connection count as gone from now (a claim)

    def evict_if_idle(self, live: LiveGame) -> None:
        """Drop a finished game nobody here watches from memory: it lives on in the database."""
        if live.status == FINISHED and not any(live.connections.values()):
            if self.games.get(live.id) is live:
                del self.games[live.id]

    def _in_play(self, game_id: str) -> bool:
        live = self.games.get(game_id)
        return live is not None and live.status != FINISHED

    def stats(self, last_moves: int | None = None) -> dict[str, Any]:
        """Counters for operators and the load benchmark. `move_ms` covers the server's last
        `last_moves` accepted moves (default: all it keeps, MOVE_TIMES), so that a benchmark
        can leave out the moves of its setup: it reads `moves` before its measured window and
        asks for the moves made since."""
        kept = list(self.authority.move_times)
        if last_moves is not None:
            kept = kept[len(kept) - min(len(kept), max(0, last_moves)):]
        times = sorted(kept)

        def pct(q: float) -> float | None:
            return round(times[min(len(times) - 1, int(q / 100 * len(times)))], 3) \
                if times else None

        live = list(self.games.values())
        return {
            "games_in_memory": len(live),
            "games_in_play": sum(1 for g in live if g.status != FINISHED),
            "connections": sum(len(c) for g in live for c in g.connections.values()),
            "moves": self.authority.moves,
            "move_ms": {"p50": pct(50), "p90": pct(90), "p99": pct(99),
                        "max": round(times[-1], 3) if times else None, "last": len(times)},
            "db": {"backend": self.storage.backend,
                   "commits": self.writer.commits if self.writer else 0,
                   "operations": self.writer.operations if self.writer else 0,
                   "group_ms": getattr(self.writer, "group_ms", lambda: None)()},
            "cluster": self.cluster.stats(),
            "bot_queue": self.bot_queue.stats(),
        }

    # -- connections ----------------------------------------------------------------------------

    async def attach(self, live: LiveGame, connection: Connection) -> None:
        if connection.seat is not None:  # a player is at the table: its bots' decisions are
            self.bot_queue.promote(live.id)  # urgent, from now (not after the chat is read)
        chat = None
        try:
            chat = await read_chat(self.storage, live)
        except Exception:  # noqa: BLE001 - the game is playable without its chat history
            log.exception("could not read the chat of game %s", live.id)
        async with live.lock:
            if live.behind > live.revision:  # changed by another process: reload first
                try:
                    await self.cluster.reload(live)
                except Exception:  # the position held is shown; the next change reloads
                    log.exception("game %s could not be reloaded", live.id)
            seat = connection.seat
            peers = live.connections.setdefault(seat, set())
            first = seat is not None and not peers
            started = False
            peers.add(connection)
            if seat is not None:  # and what was queued while the chat was read
                self.bot_queue.promote(live.id)
            arrived(live, seat)
            connection.send(live.state_frame(seat))
            # the chat so far, with no await since the connection joined: every message after
            # it reaches the connection live (chat.py)
            history = chat.history_frame() if chat is not None else None
            if history is not None:
                connection.send(history)
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
                    started = True  # this seat, too, sees the game running (and Resign)
                break
            if started:
                live.broadcast()  # everyone, this connection too, sees the game (clock) running
            elif first:
                live.broadcast(skip=connection)  # the others see the seat connected
            self.cluster.relay.presence(live)  # and those of other processes

    async def detach(self, live: LiveGame, connection: Connection) -> None:
        await connection.stop()
        async with live.lock:
            peers = live.connections.get(connection.seat)
            if peers is not None:
                peers.discard(connection)
                if not peers:
                    del live.connections[connection.seat]
                    left(live, connection.seat)
                    if connection.seat is not None:
                        live.broadcast()  # the others see the seat disconnected
            self.cluster.relay.presence(live)
        self.evict_if_idle(live)

    # -- frames ---------------------------------------------------------------------------------

    async def on_frame(self, live: LiveGame, connection: Connection,
                       data: str | bytes | None) -> None:
        """Handle one client frame. Never raises: refusals become error frames."""
        if not connection.limiter.allow():
            connection.error(RATE_LIMITED, f"too many frames: at most {self.rate_limit} "
                                           "per second; this one was ignored")
            if connection.limiter.refused >= FLOOD_CLOSE_AFTER:
                connection.close(CLOSE_FLOOD)
            return
        try:
            frame = parse_frame(data)
            if frame.type == "ping":
                connection.send(PONG)
                return
            if frame.type == "chat":
                entry = await post(self.storage, live, connection.seat, frame.text or "")
                await self.cluster.relay.chat(live, entry)  # other processes' connections
                return
            if connection.seat is None:
                if frame.type in ("hint", "allow_hints", "refuse_hints"):
                    raise ProtocolError(BAD_TOKEN, "spectators get no hints and have no say "
                                                   "in them: only the players' seats do")
                raise ProtocolError(BAD_TOKEN, "spectators cannot play: open the seat's "
                                               "join link (it carries the seat's token)")
            await self._checked(live, connection, frame)
        except ProtocolError as exc:
            connection.error(exc.code, exc.message)
        except Exception:
            log.exception("frame handling failed in game %s", live.id)
            connection.error(SERVER_ERROR, "the server failed to handle this frame; the "
                                           "game is unchanged")

    async def _checked(self, live: LiveGame, connection: Connection, frame: Frame) -> None:
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
            except ProtocolError as exc:
                if (attempt == FRAME_ATTEMPTS or exc.code not in RECHECKED
                        or not await self.cluster.newer(live)):
                    raise
                await self.cluster.catch_up(live)
        raise ProtocolError(BUSY, "the game kept changing while this frame was handled; "
                                  "look at the new position and try again")

    async def _dispatch(self, live: LiveGame, connection: Connection, frame: Frame) -> None:
        seat = connection.seat
        assert seat is not None
        if frame.type == "move":
            await self.authority.move(live, seat, frame.action, frame.step)
        elif frame.type == "undo":
            await self.authority.undo(live, seat)
            await self.cluster.relay.undo(live)  # the request, to the other processes
        elif frame.type == "hint":
            await self.hint_desk.hint(live, connection)
        elif frame.type in ("accept_undo", "refuse_undo"):
            await answer_undo(self.authority, live, seat, frame.type == "accept_undo")
            await self.cluster.relay.undo(live)
        elif frame.type == "resign":
            await resign(self, live, seat)
        elif frame.type in ("claim_win", "claim_end"):
            await claim(self, live, seat, "win" if frame.type == "claim_win" else "none")
        elif frame.type == "allow_hints":
            await self.hint_desk.allow(live, seat)
        else:
            await self.hint_desk.refuse(live, seat)
