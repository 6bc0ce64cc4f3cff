"""Several server processes on one PostgreSQL database: each keeps the games it serves in step
with the others, through the database alone (LISTEN/NOTIFY; no other service).

The database holds the truth: a game's row (its record) and its `revision`, one more at every
committed change. A process keeps the games it serves in memory (`LiveGame`) with the revision
they are at, and changes a game only from that revision (storage.py: `UPDATE ... WHERE id = ?
AND revision = ?`). When two processes race on a game, one commit wins; the other writes
nothing, gets `StaleRevision`, reloads the game (`Cluster.reload`) and checks the frame again
(`GameManager.on_frame`): a move made for a step that is gone is refused as stale, so no move
is applied twice or lost. A refusal made on a position that may be old (not your turn, stale
step, illegal, game over) is checked again the same way when the database has a newer revision.

The commit also sends `pg_notify('boardwright_games', '<game id> <revision>')` (never a token or
a move). Every process listens on a connection of its own (`Listener`, psycopg 3's async
notifications, reconnecting with back-off; after each (re)connection every game in memory is
compared with the database, so a notification missed while disconnected is not lost). A game
with connections in this process is reloaded at once and every connection gets its fresh view;
a game only held in memory is marked behind and reloaded when next used.

Bots: the process whose commit brought a bot's turn drives the bot. A process that reloads a
game stops its own bot driver there, and takes the bots over only when the game has not moved
for TAKEOVER_SECONDS (the process driving them died). Two drivers at once (two processes
starting together both resume the bot games) are settled by the conditional commit: the loser
reloads and stops. Hints are answered by the process asked, to its own connections of that
seat; connection flags (`connected`) are per process.

With SQLite (one process) there is no listener and nothing is reloaded; the conditional commit
costs nothing more than the plain one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from boardwright.web.clocks import Clock
from boardwright.web.position import LastAction, ViewCache, last_action, rebuild
from boardwright.web.storage import CHANNEL, parse_payload

if TYPE_CHECKING:
    import boardwright as bw
    from boardwright.web.live import LiveGame
    from boardwright.web.manager import GameManager

log = logging.getLogger("boardwright.web")

TAKEOVER_SECONDS = 30.0  # a bot's turn unchanged this long: this process moves the bots
INLINE_CATCH_UP = 8  # at most this many new actions are applied on the event loop
RECONNECT_SECONDS = (0.2, 10.0)  # the listener's first and longest wait before reconnecting


class Listener:
    """A dedicated psycopg connection LISTENing on CHANNEL: each notification's (game id,
    revision) goes to `on_notify`; `on_connect` runs after every (re)connection, once LISTEN
    is in place (what happened before it is read from the database there)."""

    def __init__(self, engine: Any, on_notify: Callable[[str, int], None],
                 on_connect: Callable[[], Awaitable[None]]) -> None:
        args, kwargs = engine.dialect.create_connect_args(engine.url)
        kwargs.pop("context", None)  # SQLAlchemy's adapters: not for this plain connection
        self._args, self._kwargs = args, kwargs
        self.on_notify = on_notify
        self.on_connect = on_connect
        self.connected = asyncio.Event()
        self.connections = 0  # how many times it connected (1 + reconnections)
        self.received = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="boardwright-listener")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None

    async def _run(self) -> None:
        import psycopg

        wait = RECONNECT_SECONDS[0]
        while True:
            try:
                connection = await psycopg.AsyncConnection.connect(
                    *self._args, autocommit=True, **self._kwargs)
                async with connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self.connections += 1
                    self.connected.set()
                    await self.on_connect()
                    wait = RECONNECT_SECONDS[0]
                    async for notify in connection.notifies():
                        parsed = parse_payload(notify.payload)
                        if parsed is not None:
                            self.received += 1
                            self.on_notify(*parsed)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the database went away: try again
                log.warning("game notifications interrupted (%s); reconnecting in %.1f s",
                            type(exc).__name__, wait)
            self.connected.clear()
            await asyncio.sleep(wait)
            wait = min(wait * 2, RECONNECT_SECONDS[1])


def catch_up(live: LiveGame, record: list[dict[str, Any]]
             ) -> tuple[bw.State, ViewCache, list[int], LastAction | None] | None:
    """The game's position after `record` when it extends the record held (the new actions
    applied to a clone): (state, its view cache, actors, last action); None when the record was
    changed otherwise (an undo), which needs a replay from the start."""
    held = len(live.actions)
    if len(record) < held or record[:held] != live.actions:
        return None
    state = live.state.clone()
    actors = list(live.actors)
    last = live.last
    for index, data in enumerate(record[held:], start=held):
        action = live.game.action_from_json(data)
        actor = state.current_player
        if index == len(record) - 1:
            last = last_action(live.game, ViewCache(state), action, actor, live.describe)
        state.apply(action)
        actors.append(actor)
    return state, ViewCache(state), actors, last


class Cluster:
    """Keeps one process's live games in step with the database other processes write to."""

    def __init__(self, manager: GameManager) -> None:
        self.manager = manager
        self.shared = manager.storage.backend == "postgresql"
        self.listener: Listener | None = None
        self.reloads = 0
        self.conflicts = 0  # frames whose write lost a race to another process (then rechecked)
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        self._takeovers: dict[str, asyncio.TimerHandle] = {}

    async def start(self) -> None:
        if not self.shared:
            return
        self.listener = Listener(self.manager.storage.engine, self.notified, self.resync)
        self.listener.start()
        try:  # normally at once; a slow database only delays the cross-process frames
            await asyncio.wait_for(self.listener.connected.wait(), timeout=10)
        except TimeoutError:
            log.warning("not yet listening for game notifications: other server processes' "
                        "moves reach this one's players once it does")

    async def stop(self) -> None:
        if self.listener is not None:
            await self.listener.stop()
        for task in list(self._refreshing.values()):
            task.cancel()
        for handle in self._takeovers.values():
            handle.cancel()

    def stats(self) -> dict[str, Any]:
        listener = self.listener
        return {"shared": self.shared, "reloads": self.reloads, "conflicts": self.conflicts,
                "listening": bool(listener and listener.connected.is_set()),
                "notifications": listener.received if listener else 0}

    # -- noticing changes ------------------------------------------------------------------------

    def notified(self, game_id: str, revision: int) -> None:
        """A process committed `revision` of a game: a game held here falls behind, and is
        reloaded now when someone here watches it (or a bot of it is driven here)."""
        live = self.manager.games.get(game_id)
        if live is None or revision <= live.revision:
            return  # not held here, or this process's own commit
        live.behind = max(live.behind, revision)
        if any(live.connections.values()) or live.bots.running:
            if game_id not in self._refreshing:
                self._refreshing[game_id] = asyncio.create_task(self._refresh(live))

    async def resync(self) -> None:
        """After (re)connecting the listener: every game in memory against the database."""
        games = self.manager.games
        if not games:
            return
        revisions = await asyncio.to_thread(self.manager.storage.revisions, list(games))
        for game_id, revision in revisions.items():
            self.notified(game_id, revision)

    async def newer(self, live: LiveGame) -> bool:
        """Whether the database holds a newer revision of the game than this process (asked
        of the database; always False with one process on SQLite)."""
        if not self.shared:
            return live.behind > live.revision
        revisions = await asyncio.to_thread(self.manager.storage.revisions, [live.id])
        live.behind = max(live.behind, revisions.get(live.id, live.revision))
        return live.behind > live.revision

    async def _refresh(self, live: LiveGame) -> None:
        try:
            while live.behind > live.revision and not self.manager.closing:
                async with live.lock:
                    if live.behind > live.revision and not await self.reload(live):
                        break
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s could not be reloaded", live.id)
        finally:
            self._refreshing.pop(live.id, None)

    # -- reloading -------------------------------------------------------------------------------

    async def catch_up(self, live: LiveGame) -> None:
        """Reload the game from the database (takes the game's lock)."""
        async with live.lock:
            await self.reload(live)

    async def reload(self, live: LiveGame) -> bool:
        """Make the live game what the database holds, with the game's lock held: the new
        actions applied (or the record replayed after an undo), seats and status copied, every
        connection here sent its fresh view. Returns whether anything changed."""
        row = await asyncio.to_thread(self.manager.storage.get, live.id)
        if row is None:
            return False
        revision = int(row["revision"])
        live.behind = max(live.behind, revision)
        if revision == live.revision:
            return False
        record = list(row["record"])
        caught = None
        if len(record) - len(live.actions) <= INLINE_CATCH_UP:
            caught = catch_up(live, record)
        elif record[:len(live.actions)] == live.actions:
            caught = await asyncio.to_thread(catch_up, live, record)
        if caught is not None:
            state, views, actors, last = caught
        else:
            state, actors, last = await asyncio.to_thread(
                rebuild, live.game, live.seed, record, live.describe)
            views = None
        live.bots.cancel()  # another process moved this game: the bots are its to drive
        live.set_state(state, views)
        live.actions, live.actors, live.last = record, actors, last
        live.seats = [dict(s) for s in row["seats"]]
        live.status = row["status"]
        live.rated = bool(row.get("rated"))
        live.clock = Clock.from_json(row.get("clock"))
        live.undo.request = None  # a request was about the position before this change
        if caught is None:
            live.undo.reversible = [None] * len(record)  # not known after a replay
        else:
            del live.undo.reversible[len(record):]
            live.undo.reversible.extend([None] * (len(record) - len(live.undo.reversible)))
        live.revision = revision
        self.reloads += 1
        self.manager.clocks.sync(live)  # the clock of the seat to move, as the row says
        live.broadcast()
        self._watch_bots(live)
        self.manager.evict_if_idle(live)
        return True

    # -- bots ------------------------------------------------------------------------------------

    def _watch_bots(self, live: LiveGame) -> None:
        """A bot is to move in a game reloaded from another process's commit: that process
        drives it; should the game not move for TAKEOVER_SECONDS, this one does."""
        handle = self._takeovers.pop(live.id, None)
        if handle is not None:
            handle.cancel()
        if live.bot_to_move() is None or self.manager.closing:
            return
        self._takeovers[live.id] = asyncio.get_running_loop().call_later(
            TAKEOVER_SECONDS, self._take_over, live, live.revision)

    def _take_over(self, live: LiveGame, revision: int) -> None:
        self._takeovers.pop(live.id, None)
        if (self.manager.games.get(live.id) is live and live.revision == revision
                and live.behind == revision and live.bot_to_move() is not None):
            log.warning("game %s: a bot's turn has not moved for %.0f s; its bots are now "
                        "driven here", live.id, TAKEOVER_SECONDS)
            self.manager.bot_driver.schedule(live)
