"""`boardwright serve --workers N`: N processes on one port, sharing the games through
PostgreSQL (a real one: conftest.py); refused with SQLite, naming why."""

from __future__ import annotations

import json
import time

import httpx
from test_web_cluster import at_step, connect, create, next_frame
from typer.testing import CliRunner
from web_helpers import ServerProcess

from boardwright.cli import app


def listeners(url: str) -> int:
    """How many server processes listen for game changes on the database."""
    from sqlalchemy import text

    from boardwright.web import storage as S

    engine = S.make_engine(url)
    try:
        with engine.connect() as connection:
            return connection.execute(text(
                "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'")).scalar()
    finally:
        engine.dispose()


def test_two_workers_serve_one_port(postgres_db, tmp_path) -> None:
    server = ServerProcess(postgres_db, tmp_path / "server.log", "--workers", "2",
                           "--bot-workers", "1", "--bot-delay", "0").start()
    try:
        for _ in range(100):  # both workers up, each listening on the database
            if listeners(postgres_db) == 2:
                break
            time.sleep(0.1)
        assert listeners(postgres_db) == 2
        created = create(server, "queens", ["human", "human"], seed=4)
        game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
        # each connection is accepted by whichever worker: the game is the same on both
        with connect(server, game_id, tokens[0]) as seat0, \
                connect(server, game_id, tokens[1]) as seat1:
            sockets = {0: seat0, 1: seat1}
            frames = {0: next_frame(seat0, at_step(0)), 1: next_frame(seat1, at_step(0))}
            for step in range(4):
                mover = frames[0]["current_player"]
                sockets[mover].send(json.dumps({"type": "move", "step": step,
                                                "action": frames[mover]["legal_actions"][0]}))
                frames = {seat: next_frame(ws, at_step(step + 1))
                          for seat, ws in sockets.items()}
        listed = httpx.get(f"{server.base}/api/games", timeout=20).json()
        assert game_id in [g["id"] for g in listed]
    finally:
        server.stop()
    assert "Traceback" not in (tmp_path / "server.log").read_text()


def test_more_workers_need_postgresql(tmp_path) -> None:
    result = CliRunner().invoke(app, ["serve", "--workers", "2", "--db",
                                      f"sqlite:///{tmp_path / 'games.db'}"])
    assert result.exit_code == 2
    assert "--workers 2 needs a PostgreSQL --db" in result.output
    assert "one process's database" in " ".join(result.output.split())
    assert not (tmp_path / "games.db").exists()  # refused before anything was opened
    result = CliRunner().invoke(app, ["serve", "--workers", "0"])
    assert result.exit_code == 2 and "--workers must be at least 1" in result.output


def test_each_worker_builds_its_app_with_every_option_serve_was_given(tmp_path,
                                                                      monkeypatch) -> None:
    """The settings a worker reads from the environment make the app `serve` itself checked:
    the creation limits, the bot-only caps and the claim delay included."""
    from boardwright.web.factory import SETTINGS_ENV, ServeSettings, app_from_env

    settings = ServeSettings(f"sqlite:///{tmp_path / 'games.db'}", bot_workers=1,
                             create_limit=5, create_window=30.0, bot_only_games=0,
                             bot_only_seconds=0.25, claim_after=90.0)
    monkeypatch.setenv(SETTINGS_ENV, settings.to_env())
    application = app_from_env()
    manager = application.state.manager
    try:
        limits = manager.limits.settings
        assert (limits.games, limits.window, limits.bot_only) == (5, 30.0, None)
        assert manager.claim_after == 90.0
        assert application.state.freeze_gc is True
    finally:
        application.state.storage.dispose()
