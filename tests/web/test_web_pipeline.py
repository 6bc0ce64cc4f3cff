"""Moves committed to PostgreSQL in groups, one round trip each (pipeline.py), and the
notification of a change that another process applies without reading the row
(storage.change_payload). A real PostgreSQL (conftest.py)."""

from __future__ import annotations

import asyncio
import json

import pytest

from boardwright.web import storage as S
from boardwright.web.pipeline import LoopWriter


def game_row(game_id: str) -> dict:
    stamp = S.now()
    return {"id": game_id, "game": "queens", "version": "1", "players": 2, "options": {},
            "seed": 1, "seats": [{"kind": "human", "token_hash": "h"}], "record": [],
            "status": "open", "step": 0, "scores": [0, 0], "created": stamp, "updated": stamp}


def test_moves_arriving_together_share_one_commit_and_lose_races_alone(postgres_db) -> None:
    storage = S.Storage(postgres_db)
    for game_id in ("g1", "g2", "g3"):
        storage.insert(game_row(game_id))

    async def main() -> tuple[list, LoopWriter]:
        writer = S.make_writer(storage)
        assert isinstance(writer, LoopWriter)
        first = await writer.update("g1", {"record": [{"m": 1}], "step": 1}, 0)
        together = await asyncio.gather(
            writer.update("g2", {"step": 1}, 0), writer.update("g3", {"step": 1}, 0),
            writer.update("g1", {"step": 5}, 0),  # made from a revision that is gone
            writer.update("nowhere", {"step": 1}, 0), return_exceptions=True)
        with pytest.raises(ValueError, match="no column"):
            await writer.update("g1", {"colour": "red"}, 1)
        await writer.update("g2", {"step": 2})  # unconditional: through the thread
        writer.close()
        return [first, *together], writer

    outcomes, writer = asyncio.run(main())
    assert outcomes[:3] == [1, 1, 1]
    assert isinstance(outcomes[3], S.StaleRevision)
    assert isinstance(outcomes[4], LookupError)
    assert writer.operations == 6 and writer.commits == 3  # 1 + the group of 4 + 1
    assert storage.get("g1")["step"] == 1 and storage.get("g1")["record"] == [{"m": 1}]
    assert storage.revisions(["g1", "g2", "g3"]) == {"g1": 1, "g2": 2, "g3": 1}
    storage.dispose()


def test_a_change_is_told_in_full_unless_it_writes_seats_or_is_too_long() -> None:
    record = [{"tile": n} for n in range(20)]
    told = S.parse_change(S.change_payload("g1", 21, {
        "record": record, "step": 20, "status": "running", "clock": {"left": [1, 2]},
        "updated": S.now(), "scores": [3, 4]}))
    assert told == {"g": "g1", "r": 21, "s": 20 - S.TAIL, "a": record[-S.TAIL:],
                    "status": "running", "clock": {"left": [1, 2]}}
    seats = S.change_payload("g1", 22, {"seats": [{"token_hash": "secret-hash"}]})
    assert seats == "g1 22" and S.parse_change(seats) == {"g": "g1", "r": 22}
    huge = S.change_payload("g1", 23, {"record": [{"text": "x" * 2000}] * 5})
    assert huge == "g1 23"
    assert S.parse_payload(json.dumps({"g": "g1", "r": 4})) == ("g1", 4)
    assert S.parse_change("{not json") is None and S.parse_change('{"g": 1, "r": 2}') is None


def test_a_notified_change_reaches_a_listener_with_the_new_actions(postgres_db) -> None:
    from boardwright.web.cluster import Listener

    storage = S.Storage(postgres_db)
    storage.insert(game_row("g1"))

    async def main() -> list[dict]:
        heard: list[dict] = []
        connected = asyncio.Event()

        async def on_connect() -> None:
            connected.set()

        listener = Listener(storage.engine, lambda g, r: None, on_connect,
                            on_change=heard.append)
        listener.start()
        await asyncio.wait_for(connected.wait(), 10)
        writer = S.make_writer(storage)
        await writer.update("g1", {"record": [{"m": 1}], "step": 1, "status": "running"}, 0)
        await writer.update("g1", {"seats": [], "updated": S.now()}, 1)
        for _ in range(200):
            if len(heard) == 2:
                break
            await asyncio.sleep(0.02)
        writer.close()
        await listener.stop()
        return heard

    heard = asyncio.run(main())
    storage.dispose()
    assert heard == [{"g": "g1", "r": 1, "s": 0, "a": [{"m": 1}], "status": "running"},
                     {"g": "g1", "r": 2}]


def test_the_moves_may_skip_waiting_for_the_disk_when_the_operator_says_so(
        postgres_db, monkeypatch) -> None:
    from boardwright.web.pipeline import PG_SYNC_ENV

    storage = S.Storage(postgres_db)
    storage.insert(game_row("g1"))

    async def setting() -> str:
        writer = S.make_writer(storage)
        await writer.update("g1", {"step": 1}, storage.revisions(["g1"])["g1"])
        cursor = await writer._open[0].execute("SHOW synchronous_commit")
        value = (await cursor.fetchone())[0]
        writer.close()
        return value

    assert asyncio.run(setting()) == "on"  # durable unless told otherwise
    monkeypatch.setenv(PG_SYNC_ENV, "off")
    assert asyncio.run(setting()) == "off"
    monkeypatch.setenv(PG_SYNC_ENV, "sometimes")
    with pytest.raises(ValueError, match=PG_SYNC_ENV):
        S.make_writer(storage)
    storage.dispose()


def test_a_move_that_arrives_while_a_group_is_on_its_way_does_not_wait_for_it(
        postgres_db) -> None:
    """Two groups travel at once, each on its own connection: while the first group's commit
    is held up (its game's row locked by another transaction), a move of another game is
    committed on the second connection; a third waits for a free one and still commits."""
    storage = S.Storage(postgres_db)
    for game_id in ("g1", "g2", "g3"):
        storage.insert(game_row(game_id))

    async def main() -> tuple[list, bool, int]:
        writer = S.make_writer(storage)
        blocker = await S.open_connection(storage.engine)
        await blocker.execute("SELECT * FROM games WHERE id = 'g1' FOR UPDATE")
        held = asyncio.create_task(writer.update("g1", {"step": 1}, 0))
        await asyncio.sleep(0)  # its group is on its way, and waits for the row
        await asyncio.sleep(0.2)
        second = await asyncio.wait_for(writer.update("g2", {"step": 1}, 0), timeout=30)
        still_held = not held.done()
        await blocker.rollback()  # the first group goes through
        await blocker.close()
        rest = await asyncio.gather(held, writer.update("g3", {"step": 1}, 0))
        connections = len(writer._open)
        writer.close()
        return [second, *rest], still_held, connections

    outcomes, still_held, connections = asyncio.run(main())
    assert outcomes == [1, 1, 1]
    assert still_held  # g2 was committed while g1's group was still waiting
    assert connections == 2
    assert storage.revisions(["g1", "g2", "g3"]) == {"g1": 1, "g2": 1, "g3": 1}
    storage.dispose()
