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

The commit also notifies CHANNEL (storage.change_payload): a move is told in full (the game's
id, its new revision, the record's last actions, status, clock, rated; never a token or a
seat), anything else by id and revision alone. Every process listens on a connection of its own
(`Listener`, psycopg 3's async notifications, reconnecting with back-off; after each
(re)connection every game in memory is compared with the database, so a notification missed
while disconnected is not lost). A game with connections in this process is brought up to date
at once: a change told in full that follows the revision held is applied to the position held
(`apply_change`, the row not read), any other is read from the database (`reload`); every
connection gets its fresh view. A game only held in memory is marked behind and reloaded when
next used. The same connection hears relay.py's EVENTS (chat, undo requests, presence).

Bots: the process whose commit brought a bot's turn drives the bot. A process that reloads a
game stops its own bot driver there, and takes the bots over only when the game has not moved
for TAKEOVER_SECONDS (the process driving them died). Two drivers at once (two processes
starting together both resume the bot games) are settled by the conditional commit: the loser
reloads and stops. Hints are answered by the process asked, to its own connections of that
seat; which seats are connected elsewhere is relay.py's.

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
from boardwright.web.relay import EVENTS, Relay, parse_event
from boardwright.web.storage import CHANNEL, open_connection, parse_change

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
                 on_connect: Callable[[], Awaitable[None]],
                 on_change: Callable[[dict[str, Any]], None] | None = None,
                 on_event: Callable[[dict[str, Any]], None] | None = None) -> None:
        self._engine = engine
        self.on_notify = on_notify
        self.on_connect = on_connect
        self.on_change = on_change  # when given, a change's whole notification goes there
        self.on_event = on_event  # when given, the EVENTS channel is heard too (relay.py)
        self.pid: int | None = None  # the listening connection's backend: this process's name
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
        wait = RECONNECT_SECONDS[0]
        while True:
            try:
                connection = await open_connection(self._engine, autocommit=True)
                async with connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    if self.on_event is not None:
                        await connection.execute(f"LISTEN {EVENTS}")
                    self.pid = connection.info.backend_pid
                    self.connections += 1
                    self.connected.set()
                    await self.on_connect()
                    wait = RECONNECT_SECONDS[0]
                    async for notify in connection.notifies():
                        self._heard(notify.channel, notify.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the database went away: try again
                log.warning("game notifications interrupted (%s); reconnecting in %.1f s",
                            type(exc).__name__, wait)
            self.connected.clear()
            await asyncio.sleep(wait)
            wait = min(wait * 2, RECONNECT_SECONDS[1])

    def _heard(self, channel: str, payload: str) -> None:
        try:
            if channel == EVENTS:
                event = parse_event(payload)
                if event is not None and self.on_event is not None:
                    self.received += 1
                    self.on_event(event)
                return
            change = parse_change(payload)
            if change is None:
                return
            self.received += 1
            if self.on_change is not None:
                self.on_change(change)
            else:
                self.on_notify(change["g"], change["r"])
        except Exception:  # noqa: BLE001 - one bad message must not stop the listening
            log.exception("a notification on %s could not be handled", channel)


def catch_up(live: LiveGame, record: list[dict[str, Any]]
             ) -> tuple[bw.State, ViewCache, list[int], LastAction | None] | None:
    """The game's position after `record` when it extends the record held (the new actions
    applied to a clone): (state, its view cache, actors, last action); None when the record was
    changed otherwise (an undo), which needs a replay from the start."""
    held = len(live.actions)
    if len(record) < held or record[:held] != live.actions:
        return None
    return extend(live, record[held:])


def extend(live: LiveGame, actions: list[dict[str, Any]]
           ) -> tuple[bw.State, ViewCache, list[int], LastAction | None]:
    """The game's position after the actions held and `actions` (applied to a clone): (state,
    its view cache, actors, last action)."""
    state = live.state.clone()
    actors = list(live.actors)
    last = live.last
    for index, data in enumerate(actions):
        action = live.game.action_from_json(data)
        actor = state.current_player
        if index == len(actions) - 1:
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
        self.relay = Relay(self)
        self.reloads = 0  # games brought up to date: from a change's notification or the row
        self.applied = 0  # of which from the notification alone (the row not read)
        self.conflicts = 0  # frames whose write lost a race to another process (then rechecked)
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        self._changes: dict[str, dict[int, dict[str, Any]]] = {}  # waiting for the game's lock
        self._takeovers: dict[str, asyncio.TimerHandle] = {}

    async def start(self) -> None:
        if not self.shared:
            return
        self.listener = Listener(self.manager.storage.engine, self.notified, self.resync,
                                 on_change=self.changed, on_event=self.relay.heard)
        self.listener.start()
        self.relay.start()
        try:  # normally at once; a slow database only delays the cross-process frames
            await asyncio.wait_for(self.listener.connected.wait(), timeout=10)
        except TimeoutError:
            log.warning("not yet listening for game notifications: other server processes' "
                        "moves reach this one's players once it does")

    async def stop(self) -> None:
        await self.relay.stop()
        if self.listener is not None:
            await self.listener.stop()
        for task in list(self._refreshing.values()):
            task.cancel()
        for handle in self._takeovers.values():
            handle.cancel()

    def stats(self) -> dict[str, Any]:
        listener = self.listener
        return {"shared": self.shared, "reloads": self.reloads, "applied": self.applied,
                "conflicts": self.conflicts,
                "listening": bool(listener and listener.connected.is_set()),
                "notifications": listener.received if listener else 0,
                "events": self.relay.stats()}

    # -- noticing changes ------------------------------------------------------------------------

    def changed(self, change: dict[str, Any]) -> None:
        """A process committed a change (storage.change_payload): applied here at once when it
        follows the revision held and the game is free, else kept for the game's refresh,
        which applies it in turn (or reads the row when it cannot)."""
        game_id, revision = change["g"], change["r"]
        live = self.manager.games.get(game_id)
        if live is None or revision <= live.revision:
            return
        if len(change) > 2 and (any(live.connections.values()) or live.bots.running):
            if (revision == live.revision + 1 and not live.lock.locked()
                    and game_id not in self._refreshing):
                if self.apply_change(live, change):
                    return
            else:
                self._changes.setdefault(game_id, {})[revision] = change
        self.notified(game_id, revision)

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
                    if live.behind <= live.revision:
                        break
                    change = self._changes.get(live.id, {}).pop(live.revision + 1, None)
                    if change is not None and self.apply_change(live, change):
                        continue
                    if not await self.reload(live):
                        break
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s could not be reloaded", live.id)
        finally:
            self._refreshing.pop(live.id, None)
            self._changes.pop(live.id, None)

    def apply_change(self, live: LiveGame, change: dict[str, Any]) -> bool:
        """Apply a change told in full, which follows the revision held (no await: the game's
        lock is held or free): the new actions applied to the position held, status, clock and
        rating copied. False when it cannot be (an undo, an action that does not apply): the
        row is read instead."""
        if change["r"] != live.revision + 1:
            return False
        caught = None
        record = live.actions
        if "a" in change:
            start, tail = change["s"], change["a"]
            held = len(live.actions)
            if not start <= held <= start + len(tail) or \
                    live.actions[start:held] != tail[:held - start]:
                return False
            record = live.actions + tail[held - start:]
            if len(record) > held:
                try:
                    caught = extend(live, record[held:])
                except Exception:  # noqa: BLE001 - the row is the truth: read it
                    return False
        status = change.get("status", live.status)
        rated = bool(change.get("rated", live.rated))
        clock = Clock.from_json(change["clock"]) if "clock" in change else live.clock
        self._install(live, change["r"], record, caught, live.seats, status, rated, clock)
        self.applied += 1
        return True

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
        if caught is None:
            state, actors, last = await asyncio.to_thread(
                rebuild, live.game, live.seed, record, live.describe)
            caught = (state, None, actors, last)
            live.undo.reversible = [None] * len(record)  # not known after a replay
        self._install(live, revision, record, caught, [dict(s) for s in row["seats"]],
                      row["status"], bool(row.get("rated")), Clock.from_json(row.get("clock")))
        return True

    def _install(self, live: LiveGame, revision: int, record: list[dict[str, Any]],
                 caught: tuple[bw.State, ViewCache | None, list[int], LastAction | None] | None,
                 seats: list[dict[str, Any]], status: str, rated: bool,
                 clock: Clock | None) -> None:
        """Make the live game the database's `revision`: the position after `record` (`caught`:
        its state, views, actors and last action; None when the record is the one held), then
        every connection here gets its fresh view."""
        moved = record != live.actions  # a change of seats alone keeps an undo request
        if caught is not None:
            state, views, actors, last = caught
            live.bots.cancel()  # another process moved this game: the bots are its to drive
            live.set_state(state, views)
            live.actions, live.actors, live.last = record, actors, last
        if moved:
            live.undo.request = None  # a request was about the position before this change
            del live.undo.reversible[len(record):]
            live.undo.reversible.extend([None] * (len(record) - len(live.undo.reversible)))
        live.seats = seats
        live.status = status
        live.rated = rated
        live.clock = clock
        live.revision = revision
        live.behind = max(live.behind, revision)
        self.reloads += 1
        self.manager.clocks.sync(live)  # the clock of the seat to move, as the row says
        live.broadcast()
        if caught is not None:  # the bots were stopped here: driven there, or taken over
            self._watch_bots(live)
        self.manager.evict_if_idle(live)

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
