"""Storage: the schema (created, stamped, upgraded by Alembic), the repository, group commits,
and games that resume exactly when a new server opens the same database.

Every test runs on a SQLite file, and again on a real PostgreSQL: the throwaway server of
conftest.py, or the scratch database BOARDWRIGHT_TEST_POSTGRES names (a SQLAlchemy URL, e.g.
postgresql+psycopg://postgres@127.0.0.1:5432/bwtest), whose `games` and `alembic_version` tables
the tests DROP.
"""

from __future__ import annotations

import asyncio
import threading
from datetime import timedelta

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import text
from web_helpers import (
    client, create, engine_state, receive, receive_until, seat_socket, game_socket, sqlite_url,
)

from boardwright.web import storage as S


def row(game_id: str = "g1", **changes):
    stamp = S.now()
    values = {"id": game_id, "game": "queens", "version": "1", "players": 2,
              "options": {"map": "default"}, "seed": 2**40 + 7,
              "seats": [{"kind": "human", "token_hash": "ab" * 32, "joined": False},
                        {"kind": "random", "token_hash": None, "joined": False}],
              "record": [], "status": "open", "step": 0, "scores": [0, 0],
              "created": stamp, "updated": stamp}
    values.update(changes)
    return values


def test_schema_is_created_stamped_and_matches_the_migrations(db_url) -> None:
    storage = S.Storage(db_url)
    assert storage.schema == "created"
    with storage.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert context.get_current_revision() == S.head_revision() == "host"
        assert compare_metadata(context, S.Base.metadata) == []
    storage.dispose()
    again = S.Storage(db_url)
    assert again.schema == "current"
    again.dispose()


def test_the_migrations_alone_build_the_same_schema(db_url) -> None:
    engine = S.make_engine(db_url)
    with engine.begin() as connection:
        command.upgrade(S.alembic_config(connection), "head")
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), S.Base.metadata) == []
    engine.dispose()
    storage = S.Storage(db_url)
    assert storage.schema == "current"
    storage.dispose()


def test_an_unstamped_first_version_database_is_stamped(db_url) -> None:
    engine = S.make_engine(db_url)
    with engine.begin() as connection:  # the first version's only table, never stamped
        command.upgrade(S.alembic_config(connection), "0001")
        connection.execute(text("DROP TABLE alembic_version"))
    engine.dispose()
    storage = S.Storage(db_url)
    assert storage.schema == "upgraded"
    with storage.engine.connect() as connection:
        assert MigrationContext.configure(connection).get_current_revision() == S.head_revision()
        assert compare_metadata(MigrationContext.configure(connection), S.Base.metadata) == []
    storage.dispose()


def test_repository_round_trip(db_url) -> None:
    storage = S.Storage(db_url)
    first = row("g1")
    storage.insert(first)
    storage.insert(row("g2", status="finished", created=first["created"] + timedelta(seconds=1)))
    got = storage.get("g1")
    assert got["seed"] == 2**40 + 7 and got["seats"] == first["seats"]
    assert got["options"] == {"map": "default"} and got["record"] == []
    storage.update("g1", {"record": [{"type": "move", "from": [1, 2], "to": [3, 4]}],
                          "step": 1, "status": "running"})
    assert storage.get("g1")["record"] == [{"type": "move", "from": [1, 2], "to": [3, 4]}]
    assert [r["id"] for r in storage.active()] == ["g1"]
    assert [r["id"] for r in storage.listing(["finished"])] == ["g2"]
    assert [r["id"] for r in storage.listing(["running", "finished"])] == ["g2", "g1"]
    assert "record" not in storage.listing(["running"])[0]
    assert storage.get("nope") is None
    with pytest.raises(LookupError):
        storage.update("nope", {"step": 3})
    storage.dispose()


def test_writer_commits_in_groups_and_isolates_failures(db_url) -> None:
    storage = S.Storage(db_url)
    for i in range(50):
        storage.insert(row(f"g{i}"))
    writer = S.Writer(storage)

    async def main():
        gate = threading.Event()
        # hold the writer thread busy so the updates queue up behind it
        blocker = asyncio.get_running_loop().run_in_executor(None, gate.wait)
        tasks = [asyncio.create_task(writer.update(f"g{i}", {"step": i})) for i in range(50)]
        tasks.append(asyncio.create_task(writer.update("missing", {"step": 1})))
        await asyncio.sleep(0.05)
        gate.set()
        await blocker
        return await asyncio.gather(*tasks, return_exceptions=True)

    results = asyncio.run(main())
    writer.close()
    assert results[:50] == [1] * 50  # each row's new revision
    assert isinstance(results[50], LookupError)
    assert [storage.get(f"g{i}")["step"] for i in range(50)] == list(range(50))
    assert writer.operations == 51 and writer.commits < 51
    storage.dispose()


def test_a_new_server_on_the_same_database_resumes_every_game(db_url) -> None:
    with client(db_url) as api:
        created = create(api, "carcassonne", ["human", "human"], seed=21)
        token = created["seats"][0]["token"]
        with game_socket(api, created["id"], token) as ws0, seat_socket(api, created, 1) as ws1:
            frame = receive(ws0)
            receive(ws1)
            for _ in range(5):
                mover = ws0 if frame["current_player"] == 0 else ws1
                seat_frame = receive_until(
                    mover, lambda f: f["type"] == "state" and f["step"] == frame["step"]) \
                    if mover is ws1 else frame
                mover.send_json({"type": "move", "action": seat_frame["legal_actions"][0],
                                 "step": frame["step"]})
                frame = receive_until(ws0, lambda f: f["type"] == "state"
                                      and f["step"] == seat_frame["step"] + 1)
            before = frame
    with client(db_url) as api:  # a new app: everything comes back from the database
        assert api.get(f"/api/games/{created['id']}").json()["step"] == 5
        with game_socket(api, created["id"], token) as ws0:
            again = receive(ws0)
            for key in ("step", "view", "legal_actions", "last_action", "current_player",
                        "scores", "status"):
                assert again[key] == before[key], key
            assert again["view"] == engine_state(api.app.state.storage, created["id"]).view(0)
            if again["current_player"] == 0:
                ws0.send_json({"type": "move", "action": again["legal_actions"][0],
                               "step": again["step"]})
                assert receive_until(ws0, lambda f: f["type"] == "state")["step"] == 6


def test_bot_games_restart_their_bots(db_url) -> None:
    with client(db_url, bot_delay=0.05) as api:
        created = create(api, "queens", ["random", "random"], seed=4)
        with game_socket(api, created["id"]) as ws:
            receive_until(ws, lambda f: f["type"] == "state" and f["step"] >= 3)
    with client(db_url) as api:
        with game_socket(api, created["id"]) as ws:
            final = receive_until(ws, lambda f: f["type"] == "state"
                                  and f["status"] == "finished", timeout=120)
        state = engine_state(api.app.state.storage, created["id"])
        assert state.is_terminal and final["view"] == state.view(None)


def test_resolve_url_defaults(monkeypatch) -> None:
    monkeypatch.delenv(S.DB_ENV, raising=False)
    assert S.resolve_url(None) == "sqlite:///boardwright.db"
    monkeypatch.setenv(S.DB_ENV, "postgresql://u:p@h/db")
    assert S.resolve_url(None) == "postgresql+psycopg://u:p@h/db"
    assert S.resolve_url("sqlite:///x.db") == "sqlite:///x.db"
    with pytest.raises(ValueError):
        S.make_engine("sqlite://")


def test_sqlite_commits_inline_unless_full_sync_or_postgresql(db_url, monkeypatch) -> None:
    from boardwright.web.pipeline import LoopWriter

    storage = S.Storage(db_url)
    expected = S.InlineWriter if storage.backend == "sqlite" else LoopWriter
    writer = S.make_writer(storage)
    assert type(writer) is expected
    writer.close()
    storage.dispose()
    if expected is S.InlineWriter:
        monkeypatch.setenv(S.SYNC_ENV, "FULL")
        storage = S.Storage(db_url)
        with storage.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        writer = S.make_writer(storage)
        assert type(writer) is S.Writer
        writer.close()
        storage.dispose()
        monkeypatch.setenv(S.SYNC_ENV, "sometimes")
        with pytest.raises(ValueError):
            S.Storage(db_url)


def test_full_sync_sqlite_server_plays_through_the_writer_thread(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(S.SYNC_ENV, "FULL")
    with client(sqlite_url(tmp_path)) as api:
        assert type(api.app.state.manager.writer) is S.Writer
        created = create(api, "queens", ["human", "random"], seed=2)
        with seat_socket(api, created, 0) as ws:
            frame = receive(ws)
            ws.send_json({"type": "move", "action": frame["legal_actions"][0], "step": 0})
            frame = receive_until(ws, lambda f: f["type"] == "state" and f["step"] >= 2)
        assert len(api.app.state.storage.get(created["id"])["record"]) >= 2
