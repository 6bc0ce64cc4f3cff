"""Analyses on the web table: started for finished games only, their progress polled, stored in
the database with the game (SQLite and PostgreSQL) and served at once after a restart."""

from __future__ import annotations

import time

import pytest
from web_helpers import client, create, engine_state, game_socket, receive_until, sqlite_url

from boardwright.agents.analysis import Analysis, record_hash
from boardwright.web import storage as S

PILE = ["E", "U", "V", "J", "D", "K"]  # a short game: six tiles
ITERATIONS = 16


def finished_game(api, seed: int = 3) -> str:
    created = create(api, "carcassonne", ["random", "greedy"], seed=seed,
                     options={"draw_order": PILE})
    with game_socket(api, created["id"]) as ws:
        receive_until(ws, lambda f: f["type"] == "state" and f["status"] == "finished",
                      timeout=60)
    return created["id"]


def wait_done(api, game_id: str, timeout: float = 60.0) -> dict:
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        body = api.get(f"/api/games/{game_id}/analysis").json()
        seen.append(body["status"])
        assert body["status"] in ("queued", "running", "done"), body
        if body["status"] == "done":
            return body
        assert 0 <= body["done"] <= body["total"]
        time.sleep(0.05)
    raise TimeoutError(f"the analysis did not finish: {seen[-5:]}")


def test_a_finished_game_is_analysed_stored_and_served_after_a_restart(db_url) -> None:
    with client(db_url, analysis_iterations=ITERATIONS) as api:
        game_id = finished_game(api)
        assert api.get(f"/api/games/{game_id}/analysis").json() == {"status": "none"}
        started = api.post(f"/api/games/{game_id}/analysis")
        assert started.status_code == 202
        assert started.json()["status"] in ("queued", "running", "done")
        again = api.post(f"/api/games/{game_id}/analysis")  # one analysis per game
        assert again.status_code in (200, 202)
        body = wait_done(api, game_id)
        analysis = Analysis.from_json(body["analysis"])
        final = engine_state(api.app.state.storage, game_id)
        assert len(analysis.decisions) == len(final.record.actions)
        assert analysis.record_hash == record_hash(final.record)
        assert analysis.settings.iterations == ITERATIONS
        assert [d.played_action for d in analysis.decisions] == final.record.actions
        assert len(body["analysis"]["margins"]) == len(final.record.actions) + 1
        row = api.app.state.storage.get_analysis(game_id)
        assert row["record_hash"] == analysis.record_hash and row["version"] == analysis.version
        stored = api.post(f"/api/games/{game_id}/analysis")
        assert stored.status_code == 200 and stored.json()["status"] == "done"
    with client(db_url, analysis_iterations=ITERATIONS) as restarted:
        body = restarted.get(f"/api/games/{game_id}/analysis").json()
        assert body["status"] == "done" and body["analysis"]["decisions"] == \
            analysis.to_json()["decisions"]
    with client(db_url, analysis_iterations=ITERATIONS + 1) as other_settings:
        assert other_settings.get(f"/api/games/{game_id}/analysis").json() == {"status": "none"}


def test_only_finished_games_are_analysed(tmp_path) -> None:
    with client(sqlite_url(tmp_path), analysis_iterations=ITERATIONS) as api:
        running = create(api, "queens", ["human", "human"])["id"]
        for method in (api.get, api.post):
            response = method(f"/api/games/{running}/analysis")
            assert response.status_code == 409
            assert "finished" in response.json()["error"]
        for method in (api.get, api.post):
            response = method("/api/games/nosuchgame/analysis")
            assert response.status_code == 404 and "no game" in response.json()["error"]
        assert api.app.state.storage.get_analysis(running) is None


def test_the_schema_upgrade_adds_the_analyses_table_and_keeps_the_games(db_url) -> None:
    import sqlalchemy as sa
    from alembic import command

    engine = S.make_engine(db_url)
    with engine.begin() as connection:
        command.upgrade(S.alembic_config(connection), "0001")
        first = sa.table("games", *(sa.column(c.name, c.type) for c in S.GameRow.__table__.columns
                                    if c.name != "revision"))  # the columns of revision 0001
        connection.execute(first.insert(), [{
            "id": "old", "game": "queens", "version": "1", "players": 2, "options": {},
            "seed": 1, "seats": [], "record": [], "status": "finished", "step": 0,
            "scores": [0, 0], "created": S.now(), "updated": S.now()}])
    engine.dispose()
    storage = S.Storage(db_url)
    assert storage.schema == "upgraded"
    assert storage.get("old")["status"] == "finished"
    storage.save_analysis("old", {"version": 1, "record_hash": "h", "settings": {}, "x": [1]})
    storage.save_analysis("old", {"version": 1, "record_hash": "h2", "settings": {}, "x": [2]})
    assert storage.get_analysis("old")["result"]["x"] == [2]
    storage.delete("old")
    assert storage.get_analysis("old") is None
    storage.dispose()
