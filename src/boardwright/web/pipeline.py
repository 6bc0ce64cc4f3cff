"""A group of moves committed to PostgreSQL in one network round trip, from the event loop.

A move changes one game row from the revision it was made at and notifies the other processes
(storage.py). Through SQLAlchemy that costs a pool check-out (with its ping), BEGIN, an UPDATE
per move, a pg_notify per move and COMMIT: five round trips or more, each a wake-up of the
database's process on a busy machine. Here the server keeps one psycopg 3 connection of its own
for them and sends the whole group in pipeline mode: BEGIN, one statement per move (the
conditional UPDATE and its pg_notify together, `WITH u AS (UPDATE ... RETURNING) SELECT
pg_notify(...) FROM u`), COMMIT, and reads the answers once. The outcome of each move is the
same as `Storage.apply_batch`'s: its new revision, StaleRevision, or LookupError (no such game).

Only groups of conditional updates take this path (every move, undo and agreement); inserts
and the operations that write other tables with the row (the ratings at the end) go through
SQLAlchemy's writer thread as before (storage.Writer). A move's caller awaits its write under
the game's lock, so the two paths never reorder one game's writes.

`LoopWriter` sends the groups from the event loop itself on an asyncio psycopg connection: no
thread to wake and hand the answer back from, and no contention for the interpreter's lock
between that thread and the event loop (each hand-over could wait for the other's switch
interval, 5 ms, on a busy machine). The moves that arrive in one turn of the event loop form
one group. Up to `GROUPS` groups are on their way at once, each on a connection of its own: a
move that arrives while a group waits for the disk starts the next group at once instead of
waiting for that one to finish and then for its own (PostgreSQL flushes concurrent commits
together where it can). One game's moves never overlap: each waits for its write under the
game's lock.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from sqlalchemy import JSON

from boardwright.web.storage import (
    CHANNEL, StaleRevision, Storage, Writer, change_payload, open_connection, settle,
)

log = logging.getLogger("boardwright.web")

# "on" (the default): a move is answered once PostgreSQL has flushed its commit to disk. "off":
# once it is in PostgreSQL's memory, flushed within a fraction of a second; a crash of the
# database or the machine (not of a boardwright process) can lose the last moves: what SQLite's
# synchronous=NORMAL risks on a power cut, for a shorter wait per move.
PG_SYNC_ENV = "BOARDWRIGHT_PG_SYNCHRONOUS_COMMIT"


def synchronous_commit() -> str:
    value = os.environ.get(PG_SYNC_ENV, "on").lower()
    if value not in ("on", "off"):
        raise ValueError(f"{PG_SYNC_ENV} must be on or off, not {value!r}")
    return value


class Statements:
    """The pipelined statement of a set of columns, and its parameters."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.table = storage.table
        self._sql: dict[tuple[str, ...], str] = {}
        # the JSON columns (schema.JsonType: JSONB here), whose values go as Jsonb
        self._json = {c.name for c in self.table.columns if isinstance(c.type, JSON)}

    def prepare(self, operations: list[tuple[Any, ...]]) -> list[tuple[str, str, dict[str, Any]]]:
        return [(game_id, self.statement(tuple(values)),
                 self.parameters(game_id, values, revision))
                for _, game_id, values, revision in operations]

    def statement(self, columns: tuple[str, ...]) -> str:
        sql = self._sql.get(columns)
        if sql is None:
            table = self.table.name
            assignments = ", ".join(f"{name} = %({name})s" for name in columns)
            sql = (f"WITH u AS (UPDATE {table} SET {assignments}, revision = revision + 1 "
                   f"WHERE id = %(w_id)s AND revision = %(w_revision)s RETURNING revision) "
                   f"SELECT u.revision, pg_notify('{CHANNEL}', %(w_payload)s) FROM u")
            self._sql[columns] = sql
        return sql

    def parameters(self, game_id: str, values: dict[str, Any], revision: int) -> dict[str, Any]:
        from psycopg.types.json import Jsonb

        self.storage.check_columns(values)
        parameters = {name: Jsonb(value) if name in self._json else value
                      for name, value in values.items()}
        parameters["w_id"] = game_id
        parameters["w_revision"] = revision
        parameters["w_payload"] = change_payload(game_id, revision + 1, values)
        return parameters

    @property
    def exists_sql(self) -> str:
        return f"SELECT 1 FROM {self.table.name} WHERE id = %s"


def outcomes_of(prepared: list[tuple[str, str, dict[str, Any]]], rows: list[Any],
                exists: Callable[[str], bool]) -> list[int | Exception]:
    outcomes: list[int | Exception] = []
    for (game_id, _, parameters), row in zip(prepared, rows):
        if row is not None:
            outcomes.append(int(row[0]))
        elif exists(game_id):
            outcomes.append(StaleRevision(game_id, parameters["w_revision"]))
        else:
            outcomes.append(LookupError(f"no game {game_id!r} in the database"))
    return outcomes


class LoopWriter:
    """The writes of a server on PostgreSQL: conditional updates (moves) committed in groups
    from the event loop (see the module's docstring), everything else through `Writer`'s
    thread. Has `Writer`'s interface and counters."""

    MAX_BATCH = 500
    GROUPS = 2  # groups on their way at once, each on its own connection

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.statements = Statements(storage)
        self.synchronous = synchronous_commit()
        self.thread = Writer(storage)
        self._commits = 0
        self._operations = 0
        self._pending: list[tuple[tuple[Any, ...], asyncio.Future[Any]]] = []
        self._kick_scheduled = False
        self._in_flight = 0
        self._groups: set[asyncio.Task[None]] = set()
        self._idle: list[Any] = []  # connections not sending a group now
        self._open: list[Any] = []  # every connection of this writer
        self.group_times: deque[float] = deque(maxlen=10_000)  # ms from send to answers

    def group_ms(self) -> dict[str, float | None]:
        """How long the last groups took to commit (p50, p99, max, in ms): the database's
        share of a move's time, for the stats."""
        times = sorted(self.group_times)
        if not times:
            return {"p50": None, "p99": None, "max": None, "groups": 0}
        return {"p50": round(times[len(times) // 2], 3),
                "p99": round(times[min(len(times) - 1, int(0.99 * len(times)))], 3),
                "max": round(times[-1], 3), "groups": len(times)}

    @property
    def commits(self) -> int:
        return self._commits + self.thread.commits

    @property
    def operations(self) -> int:
        return self._operations + self.thread.operations

    async def insert(self, values: dict[str, Any]) -> None:
        await self.thread.insert(values)

    async def call(self, function: Callable[[Any], int | StaleRevision | None],
                   game_id: str | None = None) -> int | None:
        return await self.thread.call(function, game_id)

    async def update(self, game_id: str, values: dict[str, Any],
                     revision: int | None = None) -> int:
        if revision is None:
            return await self.thread.update(game_id, values, revision)
        operation = ("update", game_id, values, revision)
        self.storage.check_columns(values)  # a bad column: raised here, to this caller alone
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._pending.append((operation, future))
        if not self._kick_scheduled:  # after this turn of the loop: its moves form one group
            self._kick_scheduled = True
            loop.call_soon(self._kick)
        outcome = await future
        assert isinstance(outcome, int)
        return outcome

    def close(self) -> None:
        self.thread.close()
        connections, self._open, self._idle = self._open, [], []
        for connection in connections:
            try:
                connection.pgconn.finish()  # the loop may be gone: no await
            except Exception:  # noqa: BLE001
                pass

    def _kick(self) -> None:
        """Start a group of the waiting moves on each connection free for one."""
        self._kick_scheduled = False
        while self._pending and self._in_flight < self.GROUPS:
            batch = self._pending[:self.MAX_BATCH]
            del self._pending[:self.MAX_BATCH]
            self._in_flight += 1
            task = asyncio.create_task(self._send(batch), name="boardwright-db-group")
            self._groups.add(task)
            task.add_done_callback(self._groups.discard)

    async def _send(self, batch: list[tuple[tuple[Any, ...], asyncio.Future[Any]]]) -> None:
        operations = [op for op, _ in batch]
        try:
            try:
                outcomes: list[Any] = await self._group(operations)
                self._commits += 1
            except Exception:  # noqa: BLE001 - one by one through the thread, as Writer does
                outcomes = []
                for operation in operations:
                    try:
                        outcomes.append(await self.thread.update(*operation[1:]))
                    except Exception as exc:  # noqa: BLE001 - that caller gets it
                        outcomes.append(exc)
            self._operations += len(batch)
            for (_, future), outcome in zip(batch, outcomes):
                settle(future, outcome)
        finally:
            for _, future in batch:  # cancelled midway: nobody waits for ever
                if not future.done():
                    future.cancel()
            self._in_flight -= 1
            self._kick()

    async def _group(self, operations: list[tuple[Any, ...]]) -> list[int | Exception]:
        prepared = self.statements.prepare(operations)
        self.storage.writes += 1
        connection = await self._acquire()
        try:
            started = time.perf_counter()
            async with connection.pipeline():
                cursors = [await connection.execute(sql, parameters)
                           for _, sql, parameters in prepared]
                await connection.commit()
            rows = [await cursor.fetchone() for cursor in cursors]
            self.group_times.append(1000 * (time.perf_counter() - started))
            missing = {game_id for (game_id, _, _), row in zip(prepared, rows) if row is None}
            found = set()
            for game_id in missing:  # a lost race (rare): is the game there at all?
                async with connection.transaction():
                    cursor = await connection.execute(self.statements.exists_sql, (game_id,))
                    if await cursor.fetchone() is not None:
                        found.add(game_id)
        except Exception:
            await self._discard(connection)
            raise
        self._idle.append(connection)
        return outcomes_of(prepared, rows, lambda game_id: game_id in found)

    async def _acquire(self) -> Any:
        """A connection free for a group: an idle one, else a new one."""
        if self._idle:
            return self._idle.pop()
        connection = await open_connection(self.storage.engine)
        if self.synchronous == "off":  # the moves' commits only (PG_SYNC_ENV)
            await connection.execute("SET synchronous_commit = off")
            await connection.commit()
        self._open.append(connection)
        return connection

    async def _discard(self, connection: Any) -> None:
        """After a failed group: the connection is rolled back and kept, or closed when it is
        broken (the next group connects again)."""
        try:
            await connection.rollback()
        except Exception:  # noqa: BLE001 - broken
            if connection in self._open:
                self._open.remove(connection)
            try:
                await connection.close()
            except Exception:  # noqa: BLE001
                pass
            return
        self._idle.append(connection)
