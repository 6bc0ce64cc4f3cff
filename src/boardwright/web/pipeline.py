"""A group of moves committed to PostgreSQL in one network round trip.

A move changes one game row from the revision it was made at and notifies the other processes
(storage.py). Through SQLAlchemy that costs a pool check-out (with its ping), BEGIN, an UPDATE
per move, a pg_notify per move and COMMIT: five round trips or more, each a wake-up of the
database's process on a busy machine. Here the writer thread keeps one psycopg 3 connection of
its own and sends the whole group in pipeline mode: BEGIN, one statement per move (the
conditional UPDATE and its pg_notify together, `WITH u AS (UPDATE ... RETURNING) SELECT
pg_notify(...) FROM u`), COMMIT, and reads the answers once. The outcome of each move is the
same as `Storage.apply_batch`'s: its new revision, StaleRevision, or LookupError (no such game).

Only groups of conditional updates take this path (every move, undo and agreement); inserts
and the operations that write other tables with the row (the ratings at the end) go through
SQLAlchemy as before.
"""

from __future__ import annotations

import logging
from typing import Any

from boardwright.web.storage import CHANNEL, StaleRevision, Storage, change_payload

log = logging.getLogger("boardwright.web")


def pipelined(storage: Storage, operations: list[tuple[Any, ...]]) -> bool:
    """Whether this group can be committed by `PipelinedWriter`: PostgreSQL, every operation a
    conditional update."""
    return storage.backend == "postgresql" and all(
        op[0] == "update" and len(op) > 3 and op[3] is not None for op in operations)


class PipelinedWriter:
    """Commits groups of conditional updates on one connection of its own (see the module's
    docstring). Used from the writer thread alone."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.table = storage.table
        self._raw: Any = None  # the pool's connection, held for the writer's life
        self._sql: dict[tuple[str, ...], str] = {}
        json_columns = {"options", "seats", "record", "scores", "clock"}
        self._json = {c.name for c in self.table.columns if c.name in json_columns}

    def _connection(self) -> Any:
        if self._raw is None:
            self._raw = self.storage.engine.raw_connection()
        return self._raw.driver_connection

    def close(self) -> None:
        if self._raw is not None:
            try:
                self._raw.close()
            except Exception:  # noqa: BLE001 - closing a broken connection
                pass
            self._raw = None

    def _statement(self, columns: tuple[str, ...]) -> str:
        sql = self._sql.get(columns)
        if sql is None:
            table = self.table.name
            assignments = ", ".join(f"{name} = %({name})s" for name in columns)
            sql = (f"WITH u AS (UPDATE {table} SET {assignments}, revision = revision + 1 "
                   f"WHERE id = %(w_id)s AND revision = %(w_revision)s RETURNING revision) "
                   f"SELECT u.revision, pg_notify('{CHANNEL}', %(w_payload)s) FROM u")
            self._sql[columns] = sql
        return sql

    def _parameters(self, game_id: str, values: dict[str, Any], revision: int) -> dict[str, Any]:
        from psycopg.types.json import Jsonb

        if "revision" in values:
            raise ValueError("a game's revision is kept by the storage, not given")
        unknown = [name for name in values if name not in self.table.c]
        if unknown:
            raise ValueError(f"the games table has no column {', '.join(unknown)}")
        parameters = {name: Jsonb(value) if name in self._json else value
                      for name, value in values.items()}
        parameters["w_id"] = game_id
        parameters["w_revision"] = revision
        parameters["w_payload"] = change_payload(game_id, revision + 1, values)
        return parameters

    def apply(self, operations: list[tuple[Any, ...]]) -> list[int | Exception]:
        """Commit the group; per operation its new revision, StaleRevision or LookupError.
        Raises when the group could not be committed (nothing of it is)."""
        prepared = [(game_id, self._statement(tuple(values)),
                     self._parameters(game_id, values, revision))
                     for _, game_id, values, revision in operations]
        self.storage.writes += 1
        try:
            connection = self._connection()
            with connection.pipeline():
                cursors = [connection.execute(sql, parameters)
                           for _, sql, parameters in prepared]
                connection.commit()
            rows = [cursor.fetchone() for cursor in cursors]
        except Exception:
            self._discard()
            raise
        outcomes: list[int | Exception] = []
        for (game_id, _, parameters), row in zip(prepared, rows):
            if row is not None:
                outcomes.append(int(row[0]))
            elif self._exists(game_id):
                outcomes.append(StaleRevision(game_id, parameters["w_revision"]))
            else:
                outcomes.append(LookupError(f"no game {game_id!r} in the database"))
        return outcomes

    def _exists(self, game_id: str) -> bool:
        connection = self._connection()
        with connection.transaction():
            row = connection.execute(f"SELECT 1 FROM {self.table.name} WHERE id = %s",
                                     (game_id,)).fetchone()
        return row is not None

    def _discard(self) -> None:
        """A failed group: the connection is rolled back, or dropped when it is broken."""
        raw = self._raw
        if raw is None:
            return
        try:
            raw.driver_connection.rollback()
        except Exception:  # noqa: BLE001 - broken: the pool forgets it, the next group reconnects
            try:
                raw.invalidate()
            except Exception:  # noqa: BLE001
                pass
            self._raw = None
