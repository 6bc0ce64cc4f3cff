"""Storage of games with SQLAlchemy 2: SQLite by default, PostgreSQL (psycopg 3) by URL.

One row per game; the game *is* its record (seed + options + the list of accepted actions), so a
restarted server rebuilds every position with `bw.replay`. The schema is created on first use and
stamped with the Alembic head revision; a database of an older revision is upgraded with the
migrations in `boardwright/web/migrations/` when the server starts. A finished game's analysis
(agents/analysis.py) is kept in a table of its own, one row per game, so listing games never
reads it.

Writes go through `Writer`, one thread that commits in groups: every move waits for the commit
that contains it (so a move is saved before it is broadcast), and moves that arrive while a
commit is running share the next one.

Every change of a game row adds one to its `revision`, and a change made from a known revision
is conditional on it (`UPDATE ... WHERE id = ? AND revision = ?`): when another server process
committed first, nothing is written and the caller gets `StaleRevision` (it reloads the game and
checks its change again: cluster.py). On PostgreSQL the same transaction notifies CHANNEL
(`change_payload`: a move in full, anything else as "<game id> <revision>"), delivered to every
listening process at commit; the moves themselves are committed in pipelined groups
(pipeline.py).

SQLite runs in WAL mode with synchronous=NORMAL: a committed move survives the server being
killed at any moment; surviving a power cut too (an fsync per commit) is
`BOARDWRIGHT_SQLITE_SYNCHRONOUS=FULL`. PostgreSQL commits are durable.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import queue
import threading
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    bindparam,
    create_engine,
    event,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine, make_url

from boardwright.web.schema import COLUMNS, AnalysisRow, Base, ChatRow, GameRow

log = logging.getLogger("boardwright.web")

DEFAULT_DB_URL = "sqlite:///boardwright.db"
DB_ENV = "BOARDWRIGHT_DB"
SYNC_ENV = "BOARDWRIGHT_SQLITE_SYNCHRONOUS"  # NORMAL (default) or FULL
CHECKPOINT_SECONDS = 2.0
MIGRATIONS_DIR = Path(__file__).with_name("migrations")
STATUSES = ("open", "running", "finished")
SCHEMA_LOCK = 0x626F617264  # the PostgreSQL advisory lock held while the schema is checked
CHANNEL = "boardwright_games"  # the PostgreSQL notification channel of committed game changes
ACTIVE = ("open", "running")
MAX_PAYLOAD = 7900  # bytes: PostgreSQL refuses a notification payload of 8000 or more
TAIL = 8  # at most this many of the record's last actions ride with a change's notification
# The columns a change may write and still be told in full in its notification (a move, an
# undo's shorter record, a clock, the rating dropped); a change of seats (joins, agreements)
# is told by revision alone: they hold the seat tokens' hashes, which stay in the database.
DELTA_COLUMNS = frozenset({"record", "step", "status", "scores", "updated", "clock", "rated"})

class StaleRevision(Exception):
    """A conditional update found the game at another revision than the one it was made from:
    another process changed the game first, and nothing was written."""

    def __init__(self, game_id: str, expected: int) -> None:
        super().__init__(f"game {game_id!r} is no longer at revision {expected}")
        self.game_id = game_id
        self.expected = expected


def notify_payload(game_id: str, revision: int) -> str:
    """The notification of a committed change: the game's id and new revision, nothing else
    (no token, no move: a listener reads the row itself)."""
    return f"{game_id} {revision}"


def change_payload(game_id: str, revision: int, values: dict[str, Any]) -> str:
    """The notification of a committed change that another process can apply without reading
    the row: JSON {"g": id, "r": revision, "s": index of the first action in "a", "a": the
    record's last actions, and "status", "clock", "rated" when written}. Falls back to
    `notify_payload` (the listener then reads the row) when the change writes other columns
    (seats) or would not fit a notification."""
    if not values.keys() <= DELTA_COLUMNS:
        return notify_payload(game_id, revision)
    delta: dict[str, Any] = {"g": game_id, "r": revision}
    record = values.get("record")
    if record is not None:
        tail = record[-TAIL:]
        delta["s"], delta["a"] = len(record) - len(tail), tail
    for name in ("status", "clock", "rated"):
        if name in values:
            delta[name] = values[name]
    text = json.dumps(delta, separators=(",", ":"), ensure_ascii=False)
    if len(text.encode()) > MAX_PAYLOAD:
        return notify_payload(game_id, revision)
    return text


def parse_change(payload: str) -> dict[str, Any] | None:
    """A change's notification as a dict with at least "g" (game id) and "r" (revision), and
    the change itself when it was told in full (`change_payload`); None when it is not one of
    ours."""
    if payload.startswith("{"):
        try:
            delta = json.loads(payload)
        except ValueError:
            return None
        if (not isinstance(delta, dict) or not isinstance(delta.get("g"), str)
                or not isinstance(delta.get("r"), int)):
            return None
        return delta
    game_id, _, revision = payload.partition(" ")
    if not game_id or not revision.isdigit():
        return None
    return {"g": game_id, "r": int(revision)}


def parse_payload(payload: str) -> tuple[str, int] | None:
    """(game id, revision) from a notification's payload; None when it is not one of ours."""
    change = parse_change(payload)
    return None if change is None else (change["g"], change["r"])


def connect_args(engine: Any) -> tuple[Any, dict[str, Any]]:
    """psycopg's connection arguments of a SQLAlchemy engine (for connections of our own)."""
    args, kwargs = engine.dialect.create_connect_args(engine.url)
    kwargs.pop("context", None)  # SQLAlchemy's adapters: not for this plain connection
    return args, kwargs


async def open_connection(engine: Any, autocommit: bool = False) -> Any:
    """A psycopg 3 async connection of our own to the PostgreSQL database of `engine`: the
    listener's, the relay's and the grouped moves' (cluster.py, relay.py, pipeline.py)."""
    import psycopg

    args, kwargs = connect_args(engine)
    return await psycopg.AsyncConnection.connect(*args, autocommit=autocommit, **kwargs)


def now() -> datetime:
    return datetime.now(UTC)


def resolve_url(url: str | None = None) -> str:
    """`url`, else $BOARDWRIGHT_DB, else a SQLite file `boardwright.db` in the working directory.
    A bare `postgresql://` URL is given the psycopg 3 driver."""
    url = url or os.environ.get(DB_ENV) or DEFAULT_DB_URL
    if url.startswith(("postgresql://", "postgres://")):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def sqlite_synchronous() -> str:
    synchronous = os.environ.get(SYNC_ENV, "NORMAL").upper()
    if synchronous not in ("NORMAL", "FULL"):
        raise ValueError(f"{SYNC_ENV} must be NORMAL or FULL, not {synchronous!r}")
    return synchronous


def make_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if not database or database == ":memory:":
            raise ValueError("the web table needs a SQLite *file* (sqlite:///path/to/file.db)")
        Path(database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        synchronous = sqlite_synchronous()

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            # WAL: readers never block the writer. synchronous=NORMAL: a commit is in the
            # write-ahead log (the OS has it) before it returns, which survives the server
            # being killed; FULL also waits for the disk (power loss) at an fsync per commit.
            # Checkpoints run in Storage's own thread, never in the middle of a move's commit.
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={synchronous}")
            cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.execute("PRAGMA busy_timeout=30000")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)


def alembic_config(connection: Any = None, url: str | None = None) -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["connection"] = connection
    return config


def head_revision() -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def ensure_schema(engine: Engine) -> str:
    """Create the schema in an empty database (stamped at the head revision), or upgrade an
    older one with Alembic. Returns what was done: "created", "upgraded" or "current"."""
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    head = head_revision()
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # processes starting together: one at a time
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
        current = MigrationContext.configure(connection).get_current_revision()
        if current == head:
            return "current"
        config = alembic_config(connection)
        if current is None and not inspect(connection).has_table(GameRow.__tablename__):
            Base.metadata.create_all(connection)
            command.stamp(config, "head")
            return "created"
        if current is None:  # tables of the first version, made before Alembic stamped them
            command.stamp(config, "0001")
        command.upgrade(config, "head")
        return "upgraded"


def row_dict(row: GameRow) -> dict[str, Any]:
    return {name: getattr(row, name) for name in COLUMNS}


class Storage:
    """Synchronous repository of games (called from threads, never on the event loop)."""

    def __init__(self, url: str | None = None) -> None:
        self.url = resolve_url(url)
        self.engine = make_engine(self.url)
        self.schema = ensure_schema(self.engine)
        self.table = GameRow.__table__
        self._statements: dict[tuple[Any, ...], Any] = {}
        self.synchronous = sqlite_synchronous() if self.backend == "sqlite" else None
        self.writes = 0
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if self.backend == "sqlite":
            self._checkpointer = threading.Thread(target=self._checkpoints, daemon=True,
                                                  name="boardwright-db-checkpoint")
            self._checkpointer.start()

    @property
    def backend(self) -> str:
        return self.engine.dialect.name

    def _checkpoints(self) -> None:
        """Copy the SQLite write-ahead log into the database now and then (PASSIVE: it never
        blocks the writer), so the log stays small without a commit ever paying for it."""
        seen = 0
        while not self._stop.wait(CHECKPOINT_SECONDS):
            if self.writes == seen:
                continue
            seen = self.writes
            self.checkpoint("PASSIVE")

    def checkpoint(self, mode: str = "PASSIVE") -> None:
        if self.backend != "sqlite":
            return
        try:
            with self.engine.connect() as connection:
                connection.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")
        except Exception:
            log.exception("SQLite checkpoint failed")

    def dispose(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=10)
            self._checkpointer = None
            self.checkpoint("TRUNCATE")
        self.engine.dispose()

    # -- writes ---------------------------------------------------------------------------------

    def insert(self, values: dict[str, Any]) -> None:
        self.writes += 1
        with self.engine.begin() as connection:
            connection.execute(self.table.insert(), [values])

    def update(self, game_id: str, values: dict[str, Any], revision: int | None = None) -> int:
        """Change a game row (conditional on `revision` when given); its new revision."""
        outcome = self.apply_batch([("update", game_id, values, revision)])[0]
        if isinstance(outcome, StaleRevision):
            raise outcome
        assert isinstance(outcome, int)
        return outcome

    def check_columns(self, values: dict[str, Any]) -> None:
        """ValueError when `values` are not columns a change of a game row may write."""
        if "revision" in values:
            raise ValueError("a game's revision is kept by the storage, not given")
        unknown = [name for name in values if name not in self.table.c]
        if unknown:
            raise ValueError(f"the games table has no column {', '.join(unknown)}")

    def update_in(self, connection: Any, game_id: str, values: dict[str, Any],
                  revision: int | None) -> int | StaleRevision:
        """One row's change in an open transaction: its new revision, or StaleRevision when
        the row is no longer at `revision`. LookupError: no such game."""
        self.check_columns(values)
        table = self.table
        key = (tuple(values), revision is not None)
        statement = self._statements.get(key)
        if statement is None:  # built once per set of columns: a move's update is hot
            statement = update(table).where(table.c.id == bindparam("w_id"))
            if revision is not None:
                statement = statement.where(table.c.revision == bindparam("w_revision"))
            assignments: dict[str, Any] = {
                name: bindparam(f"v_{name}", type_=table.c[name].type) for name in values}
            assignments["revision"] = table.c.revision + 1
            statement = statement.values(assignments).returning(table.c.revision)
            self._statements[key] = statement
        parameters = {f"v_{name}": value for name, value in values.items()}
        parameters["w_id"] = game_id
        if revision is not None:
            parameters["w_revision"] = revision
        new = connection.execute(statement, parameters).scalar()
        if new is not None:
            return int(new)
        exists = connection.execute(select(table.c.id).where(table.c.id == game_id)).first()
        if exists is None:
            raise LookupError(f"no game {game_id!r} in the database")
        assert revision is not None
        return StaleRevision(game_id, revision)

    def apply_batch(self, operations: list[tuple[Any, ...]]) -> list[int | StaleRevision | None]:
        """Run ("insert", None, values) / ("update", game_id, values[, revision]) / ("call",
        game_id, function of the connection) in ONE transaction. Per operation: None (an
        insert, or a call that wrote no game row), the row's new revision, or StaleRevision
        (that update was not made; the others are). A call writes its game row first, through
        `update_in`, and returns its outcome, writing nothing else when it is stale. On
        PostgreSQL each change is notified on CHANNEL at commit."""
        self.writes += 1
        outcomes: list[int | StaleRevision | None] = []
        payloads: list[dict[str, str]] = []
        with self.engine.begin() as connection:
            for kind, game_id, values, *rest in operations:
                if kind == "insert":
                    connection.execute(self.table.insert(), [values])
                    outcomes.append(None)
                    continue
                if kind == "call":  # several writes that must commit together
                    outcome = values(connection)
                else:
                    outcome = self.update_in(connection, game_id, values, rest[0] if rest else None)
                outcomes.append(outcome)
                if isinstance(outcome, int):
                    payloads.append({"payload": change_payload(game_id, outcome, values)
                                     if kind == "update" else notify_payload(game_id, outcome)})
            if payloads and self.backend == "postgresql":
                connection.execute(text(f"SELECT pg_notify('{CHANNEL}', :payload)"), payloads)
        return outcomes

    def revisions(self, game_ids: Iterable[str]) -> dict[str, int]:
        """The current revision of each of these games (absent: no such game)."""
        ids = list(game_ids)
        found: dict[str, int] = {}
        with self.engine.connect() as connection:
            for start in range(0, len(ids), 500):
                rows = connection.execute(
                    select(self.table.c.id, self.table.c.revision)
                    .where(self.table.c.id.in_(ids[start:start + 500]))).all()
                found.update({game_id: revision for game_id, revision in rows})
        return found

    def delete(self, game_id: str) -> None:
        analyses, chat = AnalysisRow.__table__, ChatRow.__table__
        with self.engine.begin() as connection:
            connection.execute(analyses.delete().where(analyses.c.game_id == game_id))
            connection.execute(chat.delete().where(chat.c.game_id == game_id))
            connection.execute(self.table.delete().where(self.table.c.id == game_id))

    def save_analysis(self, game_id: str, result: dict[str, Any]) -> None:
        """Store a game's analysis (the JSON of `Analysis.to_json`), replacing any before it."""
        analyses = AnalysisRow.__table__
        values = {"game_id": game_id, "version": result["version"],
                  "record_hash": result["record_hash"], "settings": result["settings"],
                  "result": result, "created": now()}
        self.writes += 1
        with self.engine.begin() as connection:
            connection.execute(analyses.delete().where(analyses.c.game_id == game_id))
            connection.execute(analyses.insert(), [values])

    def get_analysis(self, game_id: str) -> dict[str, Any] | None:
        """The stored analysis row of a game (None: none)."""
        analyses = AnalysisRow.__table__
        with self.engine.connect() as connection:
            row = connection.execute(
                select(analyses).where(analyses.c.game_id == game_id)).mappings().first()
        return dict(row) if row is not None else None

    # -- reads ----------------------------------------------------------------------------------

    def get(self, game_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as connection:
            row = connection.execute(
                select(self.table).where(self.table.c.id == game_id)).mappings().first()
        return dict(row) if row is not None else None

    def active(self) -> list[dict[str, Any]]:
        """Every open or running game, oldest first (reloaded when the server starts)."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(self.table).where(self.table.c.status.in_(ACTIVE))
                .order_by(self.table.c.created)).mappings().all()
        return [dict(r) for r in rows]

    def listing(self, statuses: Iterable[str], limit: int = 200,
                without: Iterable[str] = (), game: str | None = None) -> list[dict[str, Any]]:
        """Summaries (no record) of games with these statuses (of game `game` only, when
        given), newest first."""
        columns = [c for c in self.table.columns if c.name != "record"]
        query = (select(*columns).where(self.table.c.status.in_(list(statuses)))
                 .order_by(self.table.c.created.desc()).limit(limit))
        if game is not None:
            query = query.where(self.table.c.game == game)
        skip = list(without)
        if skip:
            query = query.where(self.table.c.id.not_in(skip))
        with self.engine.connect() as connection:
            rows = connection.execute(query).mappings().all()
        return [dict(r) for r in rows]


class Writer:
    """One thread that owns the writes: operations queued from the event loop are committed in
    groups, and each caller's future resolves once the transaction holding its operation has
    committed (or fails with the database's error)."""

    MAX_BATCH = 500

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="boardwright-db-writer",
                                       daemon=True)
        self.thread.start()
        self.commits = 0
        self.operations = 0

    async def insert(self, values: dict[str, Any]) -> None:
        await self._submit(("insert", None, values))

    async def update(self, game_id: str, values: dict[str, Any],
                     revision: int | None = None) -> int:
        """Commit a change of a game row: its new revision (StaleRevision: not written, the
        game is no longer at `revision`)."""
        new = await self._submit(("update", game_id, values, revision))
        assert isinstance(new, int)
        return new

    async def call(self, function: Callable[[Any], int | StaleRevision | None],
                   game_id: str | None = None) -> int | None:
        """`function(connection)` inside one transaction (it may run again after a failed
        group commit, so it must only write what it reads in that same transaction). It
        writes the game row `game_id` first (conditionally, through `Storage.update_in`) and
        returns that outcome: the row's new revision (StaleRevision is raised here)."""
        return await self._submit(("call", game_id, function))

    async def _submit(self, operation: tuple[Any, ...]) -> int | None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int | None] = loop.create_future()
        self.queue.put((operation, future, loop))
        return await future

    def close(self) -> None:
        self.queue.put(None)
        self.thread.join(timeout=30)

    def _run(self) -> None:
        stop = False
        while not stop:
            item = self.queue.get()
            if item is None:
                break
            batch = [item]
            while len(batch) < self.MAX_BATCH:
                try:
                    extra = self.queue.get_nowait()
                except queue.Empty:
                    break
                if extra is None:
                    stop = True
                    break
                batch.append(extra)
            self._commit(batch)

    def _commit(self, batch: list[Any]) -> None:
        outcomes: list[Any]
        try:
            outcomes = list(self.storage.apply_batch([op for op, _, _ in batch]))
            self.commits += 1
        except Exception:  # one bad operation must not fail the others: retry one by one
            outcomes = []
            for op, _, _ in batch:
                try:
                    outcomes.extend(self.storage.apply_batch([op]))
                    self.commits += 1
                except Exception as exc:
                    log.exception("database write failed")
                    outcomes.append(exc)
        self.operations += len(batch)
        for (_, future, loop), outcome in zip(batch, outcomes):
            try:
                loop.call_soon_threadsafe(settle, future, outcome)
            except RuntimeError:  # the loop is closed (shutdown): nobody is waiting
                pass


class InlineWriter:
    """Writes committed right away on the calling (event-loop) thread: for SQLite in WAL mode
    with synchronous=NORMAL a commit is a few hundred microseconds of local work, cheaper than
    handing it to a thread and back (two wake-ups per move on a busy machine)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.commits = 0
        self.operations = 0

    async def insert(self, values: dict[str, Any]) -> None:
        self._run(("insert", None, values))

    async def update(self, game_id: str, values: dict[str, Any],
                     revision: int | None = None) -> int:
        new = self._run(("update", game_id, values, revision))
        assert isinstance(new, int)
        return new

    async def call(self, function: Callable[[Any], int | StaleRevision | None],
                   game_id: str | None = None) -> int | None:
        return self._run(("call", game_id, function))

    def _run(self, operation: tuple[Any, ...]) -> int | None:
        self.operations += 1
        outcome = self.storage.apply_batch([operation])[0]
        self.commits += 1
        if isinstance(outcome, StaleRevision):
            raise outcome
        return outcome

    def close(self) -> None:
        pass


def make_writer(storage: Storage) -> Writer | InlineWriter:
    """Inline commits for SQLite with synchronous=NORMAL, the group-committing thread for
    SQLite FULL (an fsync per commit), and for PostgreSQL groups of moves pipelined from the
    event loop (pipeline.py: a round trip per group) beside that thread for the rest."""
    if storage.backend == "sqlite" and storage.synchronous == "NORMAL":
        return InlineWriter(storage)
    if storage.backend == "postgresql":
        from boardwright.web.pipeline import LoopWriter

        return LoopWriter(storage)  # type: ignore[return-value]
    return Writer(storage)


def settle(future: asyncio.Future[Any], outcome: Any) -> None:
    """A writer's caller learns its operation's outcome: a result (None, a new revision) or an
    exception (StaleRevision, the database's error)."""
    if future.done():
        return
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)
