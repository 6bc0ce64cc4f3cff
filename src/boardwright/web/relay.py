"""What a table shares between server processes besides its row: chat, undo requests and their
answers, and presence (which seats are connected), as typed messages on a PostgreSQL
notification channel of their own (EVENTS; the game rows' changes go on storage.CHANNEL).

A message is JSON: {"k": kind, "p": the sending process, "g": game id, ...}. The process is
named by the backend pid of its listening connection (cluster.Listener), which the database
knows as long as the process lives: a process killed without a word is found out by asking
`pg_stat_activity` (every SWEEP_SECONDS while seats elsewhere are shown connected), and its
seats stop showing connected. No message carries a token or a token's hash, and each stays
under the 8000 bytes PostgreSQL allows (a chat message is at most 500 characters).

- "chat" {"m": message}: a message saved by the sending process (chat.py), shown here to every
  connection of the game.
- "undo" {"r": revision, "s": step, "req": request or null, "ref": refusal or null}: the undo
  request of a game (agreement.py) after the sender changed it (asked, accepted, refused). A
  process holding the game takes it over at that step; an acceptance that completes the request
  here takes the moves back here (two processes doing so at once are settled by the conditional
  commit). Requests stay in memory, as with one process.
- "presence" {"seats": [...], "h": 1 on a process's first word about a game}: the seats with a
  connection in the sending process. A process that hears a first word answers with its own
  seats and any pending undo request, so a process that loads a game late learns both.
- "bye": the sending process stops; its seats are no longer connected anywhere it said.

Hint agreements are kept in the game's seats, so they travel with the row (a revision).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any

from boardwright.web.agreement import UndoRefusal, UndoRequest
from boardwright.web.resigning import elsewhere_changed
from boardwright.web.storage import MAX_PAYLOAD, StaleRevision, open_connection

if TYPE_CHECKING:
    from boardwright.web.cluster import Cluster
    from boardwright.web.live import LiveGame

log = logging.getLogger("boardwright.web")

EVENTS = "boardwright_events"
KINDS = ("chat", "undo", "presence", "bye")
SWEEP_SECONDS = 15.0  # how often the processes shown holding connections are checked alive


def parse_event(payload: str) -> dict[str, Any] | None:
    """A message of EVENTS as a dict; None when it is not one of ours."""
    try:
        event = json.loads(payload)
    except ValueError:
        return None
    if (not isinstance(event, dict) or event.get("k") not in KINDS
            or not isinstance(event.get("p"), int)):
        return None
    if event["k"] != "bye" and not isinstance(event.get("g"), str):
        return None
    return event


def undo_json(live: LiveGame) -> dict[str, Any]:
    """A game's undo request and last refusal, as an "undo" message carries them."""
    request, refused = live.undo.request, live.undo.refused
    return {"r": live.revision, "s": live.step,
            "req": None if request is None else {
                "seat": request.seat, "step": request.step, "back": request.back_to,
                "voters": list(request.voters), "accepted": sorted(request.accepted)},
            "ref": None if refused is None else {
                "seat": refused.seat, "by": refused.by, "step": refused.step}}


class Relay:
    """One process's side of EVENTS: sends its tables' chat, undo and presence, and applies
    the other processes' to the games it holds."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.manager = cluster.manager
        self.sent = 0
        self.heard_count = 0
        self._connection: Any = None
        self._lock = asyncio.Lock()
        self._told: dict[str, frozenset[int]] = {}  # the seats last said connected here
        self._tasks: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int | None:
        listener = self.cluster.listener
        return listener.pid if listener is not None and listener.connected.is_set() else None

    def stats(self) -> dict[str, int]:
        return {"sent": self.sent, "heard": self.heard_count}

    def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep(), name="boardwright-presence")

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self.cluster.shared and self._told:
            await self._publish({"k": "bye"})
        for task in list(self._tasks):
            task.cancel()
        if self._connection is not None:
            try:
                await self._connection.close()
            except Exception:  # noqa: BLE001 - closing a broken connection
                pass
            self._connection = None

    # -- sending ---------------------------------------------------------------------------------

    async def _publish(self, event: dict[str, Any]) -> None:
        """Send a message to the other processes (lost, with a warning, when the database
        cannot be reached: the row and the chat history stay right)."""
        pid = self.pid
        if pid is None:
            return
        payload = json.dumps({**event, "p": pid}, separators=(",", ":"), ensure_ascii=False)
        if len(payload.encode()) > MAX_PAYLOAD:
            log.warning("a %s message of game %s is too long to share", event["k"],
                        event.get("g"))
            return
        async with self._lock:
            try:
                if self._connection is None:
                    self._connection = await open_connection(self.manager.storage.engine,
                                                             autocommit=True)
                await self._connection.execute("SELECT pg_notify(%s, %s)", (EVENTS, payload))
                self.sent += 1
            except Exception as exc:  # noqa: BLE001 - the database went away: next time
                log.warning("a %s message could not be shared (%s)", event["k"],
                            type(exc).__name__)
                connection, self._connection = self._connection, None
                if connection is not None:
                    try:
                        await connection.close()
                    except Exception:  # noqa: BLE001
                        pass

    def _later(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def chat(self, live: LiveGame, entry: dict[str, Any]) -> None:
        """A message saved and sent here: to the other processes' connections too."""
        if self.cluster.shared:
            await self._publish({"k": "chat", "g": live.id, "m": entry})

    async def undo(self, live: LiveGame) -> None:
        """The game's undo request changed here (asked, answered)."""
        if self.cluster.shared and len(live.humans) > 1:
            await self._publish({"k": "undo", "g": live.id, **undo_json(live)})

    def presence(self, live: LiveGame) -> None:
        """The seats connected here may have changed: say so when they did."""
        if not self.cluster.shared:
            return
        seats = frozenset(s for s, c in live.connections.items() if s is not None and c)
        told = self._told.get(live.id)
        if told == seats:
            return
        self._told[live.id] = seats
        event: dict[str, Any] = {"k": "presence", "g": live.id, "seats": sorted(seats)}
        if told is None:
            event["h"] = 1  # a first word: the others answer with theirs
        if not seats and not any(live.connections.values()):
            del self._told[live.id]
        self._later(self._publish(event))

    # -- hearing ---------------------------------------------------------------------------------

    def heard(self, event: dict[str, Any]) -> None:
        """A message from the listener (on the event loop)."""
        if event["p"] == self.pid:
            return  # this process's own
        self.heard_count += 1
        if event["k"] == "bye":
            self._gone({event["p"]})
            return
        live = self.manager.games.get(event["g"])
        if live is None:
            return  # not held here: a process that loads it later asks (presence "h")
        if event["k"] == "chat":
            self._chat(live, event["m"])
        elif event["k"] == "presence":
            self._presence(live, event)
        else:
            self._later(self._undo(live, event))

    def _chat(self, live: LiveGame, entry: dict[str, Any]) -> None:
        if not live.chat.receive(entry):
            return
        live.send_to_all({"type": "chat", "history": False, "messages": [entry]})

    def _presence(self, live: LiveGame, event: dict[str, Any]) -> None:
        pid = event["p"]
        seats = frozenset(s for s in event.get("seats", ())
                          if isinstance(s, int) and 0 <= s < live.players)
        before = live.elsewhere.get(pid, frozenset())
        if seats:
            live.elsewhere[pid] = seats
        else:
            live.elsewhere.pop(pid, None)
        if seats != before:
            elsewhere_changed(live, before, seats)
            live.broadcast()
        if event.get("h"):  # the other process asks what this one knows of the game
            mine = self._told.get(live.id)
            if mine:
                self._later(self._publish({"k": "presence", "g": live.id,
                                           "seats": sorted(mine)}))
            if live.undo.request is not None:
                self._later(self.undo(live))

    async def _undo(self, live: LiveGame, event: dict[str, Any]) -> None:
        cluster = self.cluster
        async with live.lock:
            revision = event.get("r")
            if isinstance(revision, int) and revision > live.revision:
                live.behind = max(live.behind, revision)
                await cluster.reload(live)
            if live.step != event.get("s") or live.over:
                return  # about a position that is no longer the game's
            data, refusal = event.get("req"), event.get("ref")
            request = None
            if data is not None:
                request = UndoRequest(data["seat"], data["step"], data["back"],
                                      tuple(data["voters"]), set(data["accepted"]))
                local = live.undo.request
                if local is not None and (local.seat, local.step, local.back_to) == \
                        (request.seat, request.step, request.back_to):
                    request.accepted |= local.accepted  # answers given here meanwhile
            live.undo.request = request
            if refusal is not None:
                live.undo.refused = UndoRefusal(refusal["seat"], refusal["by"],
                                                refusal["step"])
            elif request is not None:
                live.undo.refused = None
            if request is not None and not request.waiting:  # every answer is in: take back
                live.undo.request = None
                try:
                    await self.manager.authority.take_back(live, live.actions[:request.back_to])
                except StaleRevision:  # the other process took it back first
                    await cluster.reload(live)
                return
            live.broadcast()

    # -- processes that went away ----------------------------------------------------------------

    def _gone(self, pids: set[int]) -> None:
        for live in list(self.manager.games.values()):
            if any(pid in live.elsewhere for pid in pids):
                for pid in pids:
                    seats = live.elsewhere.pop(pid, frozenset())
                    elsewhere_changed(live, seats, frozenset())
                live.broadcast()

    async def _sweep(self) -> None:
        """Now and then: the processes shown holding connections that no longer exist."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            pids = {pid for live in self.manager.games.values() for pid in live.elsewhere}
            if not pids:
                continue
            try:
                alive = await asyncio.to_thread(self._alive, sorted(pids))
            except Exception as exc:  # noqa: BLE001 - next time
                log.warning("could not check the other server processes (%s)",
                            type(exc).__name__)
                continue
            if pids - alive:
                self._gone(pids - alive)

    def _alive(self, pids: list[int]) -> set[int]:
        from sqlalchemy import text

        with self.manager.storage.engine.connect() as connection:
            rows = connection.execute(text(
                "SELECT pid FROM pg_stat_activity WHERE pid = ANY(:pids)"), {"pids": pids})
            return {int(row[0]) for row in rows}
