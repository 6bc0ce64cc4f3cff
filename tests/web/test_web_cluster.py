"""Several `boardwright serve` processes on one PostgreSQL database (cluster.py): a move made
through one process reaches the websockets of the other; two processes sent the same or
conflicting moves at once apply exactly one of them; a process killed with -9 and started again
picks up where the database is. Real server processes on the throwaway PostgreSQL of
conftest.py (skipped only on a machine without PostgreSQL's binaries).

Also, without any server: a conditional update that lost its race changes nothing, and a commit
on PostgreSQL is notified to a listening connection."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import httpx
import pytest
from web_helpers import ServerProcess, seat_protocols

import boardwright as bw
from boardwright.web import storage as S

websockets_sync = pytest.importorskip("websockets.sync.client")

SAME = ("step", "view", "legal_actions", "last_action", "current_player", "scores", "status")


def connect(server: ServerProcess, game_id: str, token: str | None = None) -> Any:
    return websockets_sync.connect(f"{server.ws_base}/ws/games/{game_id}", open_timeout=10,
                                   max_size=2**24, subprotocols=seat_protocols(token) or None)


def next_frame(ws: Any, predicate: Any = lambda f: True, timeout: float = 20.0,
               errors: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        frame = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if frame["type"] == "error" and errors is not None:
            errors.append(frame)
        if predicate(frame):
            return frame


def at_step(step: int) -> Any:
    return lambda f: f["type"] == "state" and f["step"] == step


def replayed(url: str, game_id: str) -> tuple[dict[str, Any], bw.State]:
    """The database's row of a game and the position its record replays to (every action
    legal, in order: a move applied twice would not replay)."""
    storage = S.Storage(url)
    try:
        row = storage.get(game_id)
    finally:
        storage.dispose()
    game = bw.load(row["game"], row["players"], row["options"])
    state = game.new_game(row["seed"])
    for data in row["record"]:
        state.apply(game.action_from_json(data))
    return row, state


@pytest.fixture
def servers(postgres_db, tmp_path):
    """Start `boardwright serve` processes on one PostgreSQL database (killed at the end)."""
    started: list[ServerProcess] = []

    def start(*extra: str) -> ServerProcess:
        server = ServerProcess(postgres_db, tmp_path / f"server{len(started)}.log",
                               "--bot-workers", "1", "--bot-delay", "0", *extra).start()
        started.append(server)
        return server

    start.url = postgres_db  # type: ignore[attr-defined]
    yield start
    for server in started:
        server.kill()


def create(server: ServerProcess, game: str, seats: list[str], seed: int) -> dict[str, Any]:
    response = httpx.post(f"{server.base}/api/games",
                          json={"game": game, "seats": seats, "seed": seed}, timeout=20)
    assert response.status_code == 201, response.text
    return response.json()


def test_moves_through_one_process_reach_the_sockets_of_the_other(servers) -> None:
    a, b = servers(), servers()
    created = create(a, "carcassonne", ["human", "human"], seed=7)
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    # the other process lists the game created here (its lobby reads the database)
    assert game_id in [g["id"] for g in httpx.get(f"{b.base}/api/games").json()]
    with connect(a, game_id, tokens[0]) as seat0, connect(b, game_id, tokens[1]) as seat1, \
            connect(b, game_id) as watcher:
        sockets = {0: seat0, 1: seat1}
        latest = {0: next_frame(seat0, at_step(0)), 1: next_frame(seat1, at_step(0))}
        next_frame(watcher, at_step(0))
        for step in range(12):
            mover = latest[0]["current_player"]
            sockets[mover].send(json.dumps({"type": "move", "step": step,
                                            "action": latest[mover]["legal_actions"][0]}))
            for seat in (0, 1):  # each seat's own view, from its own process
                latest[seat] = next_frame(sockets[seat], at_step(step + 1))
            seen = next_frame(watcher, at_step(step + 1))
            assert seen["last_action"]["seat"] == mover
            assert latest[0]["current_player"] == latest[1]["current_player"]
        row, state = replayed(servers.url, game_id)
        assert row["step"] == len(row["record"]) == 12
        assert latest[0]["view"] == state.view(0) and latest[1]["view"] == state.view(1)
        assert seen["view"] == state.view(None)
    for server in (a, b):  # both count the moves; the listener of each is connected
        stats = httpx.get(f"{server.base}/api/stats").json()
        assert stats["cluster"]["shared"] and stats["cluster"]["listening"]
    assert httpx.get(f"{b.base}/api/stats").json()["cluster"]["reloads"] >= 6


def test_racing_processes_apply_each_move_exactly_once(servers) -> None:
    """The seat to move is connected to both processes and sends a different legal move (the
    same one when there is only one) for the same step to each, at once, 40 times: one is
    applied, the other refused as stale, and both processes show the same position."""
    a, b = servers(), servers()
    created = create(a, "carcassonne", ["human", "human"], seed=11)
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    with connect(a, game_id, tokens[0]) as a0, connect(b, game_id, tokens[0]) as b0, \
            connect(a, game_id, tokens[1]) as a1, connect(b, game_id, tokens[1]) as b1:
        seats = {0: (a0, b0), 1: (a1, b1)}
        frames = {ws: next_frame(ws, at_step(0)) for ws in (a0, b0, a1, b1)}
        sent: list[tuple[dict[str, Any], dict[str, Any]]] = []
        refused = 0
        for step in range(40):
            mover = frames[a0]["current_player"]
            first, second = seats[mover]
            legal = frames[first]["legal_actions"]
            assert frames[second]["legal_actions"] == legal
            moves = (legal[0], legal[-1])
            sent.append(moves)
            time.sleep(0.05)  # two frames a round per socket: within the 20 a second allowed
            for ws, action in zip((first, second), moves):
                ws.send(json.dumps({"type": "move", "step": step, "action": action}))
            for ws in (first, second):  # answered once the move before it has been handled
                ws.send(json.dumps({"type": "ping"}))
            errors: list[dict[str, Any]] = []
            for ws in (a0, b0, a1, b1):
                frames[ws] = next_frame(ws, at_step(step + 1), errors=errors)
            for ws in (first, second):
                next_frame(ws, lambda f: f["type"] == "pong", errors=errors)
            assert [e["code"] for e in errors] == ["stale"], errors
            refused += 1
            for seat, (one, other) in seats.items():
                for key in SAME:
                    assert frames[one][key] == frames[other][key], (step, seat, key)
        assert refused == 40
        conflicts = [httpx.get(f"{s.base}/api/stats").json()["cluster"]["conflicts"]
                     for s in (a, b)]
        assert sum(conflicts) >= 1  # the conditional commit settled races, not only the step
    row, state = replayed(servers.url, game_id)
    # one commit per move and per seat joined: nothing written twice
    assert len(row["record"]) == row["step"] == 40 and row["revision"] == 42
    for data, moves in zip(row["record"], sent):
        assert data in moves
    assert frames[a0]["view"] == state.view(0) and frames[b1]["view"] == state.view(1)


def test_a_process_killed_and_restarted_picks_up_the_database(servers) -> None:
    """An undo through one process is seen by the other (the record replayed there); a kill -9
    of one process: the other goes on alone (its bots too); the restarted one shows every move
    made meanwhile, and moves through it reach the other's sockets again."""
    a, b = servers(), servers()
    created = create(a, "queens", ["human", "greedy"], seed=3)
    game_id, token = created["id"], created["seats"][0]["token"]
    with connect(a, game_id, token) as on_a, connect(b, game_id) as watcher:
        first = next_frame(on_a, at_step(0))
        start = next_frame(watcher, at_step(0))
        for action in (first["legal_actions"][0], first["legal_actions"][-1]):
            on_a.send(json.dumps({"type": "move", "step": 0, "action": action}))
            next_frame(on_a, at_step(2))
            next_frame(watcher, at_step(2))  # the bot's answer (driven by a) reached b
            if action is first["legal_actions"][0]:  # taken back: b replays the record
                on_a.send(json.dumps({"type": "undo"}))
                assert next_frame(watcher, at_step(0))["view"] == start["view"]
                next_frame(on_a, at_step(0))
    a.kill()
    with connect(b, game_id, token) as on_b:
        frame = next_frame(on_b, at_step(2))
        on_b.send(json.dumps({"type": "move", "step": 2, "action": frame["legal_actions"][0]}))
        after = next_frame(on_b, at_step(4))  # b drives the bot now that the human moved there
    again = servers()
    with connect(again, game_id, token) as on_again, connect(b, game_id) as watcher:
        frame = next_frame(on_again, at_step(4))
        assert frame["view"] == after["view"]
        next_frame(watcher, at_step(4))
        on_again.send(json.dumps({"type": "move", "step": 4,
                                  "action": frame["legal_actions"][0]}))
        seen = next_frame(watcher, at_step(6))
    row, state = replayed(servers.url, game_id)
    assert len(row["record"]) == 6 and seen["view"] == state.view(None)
    assert [e["kind"] for e in row["seats"]] == ["human", "greedy"]


# -- without servers ------------------------------------------------------------------------------

def game_row(game_id: str) -> dict[str, Any]:
    stamp = S.now()
    return {"id": game_id, "game": "queens", "version": "1", "players": 2, "options": {},
            "seed": 1, "seats": [], "record": [], "status": "open", "step": 0, "scores": [0, 0],
            "created": stamp, "updated": stamp}


def test_a_conditional_update_that_lost_changes_nothing(db_url) -> None:
    storage = S.Storage(db_url)
    storage.insert(game_row("g1"))
    assert storage.update("g1", {"step": 1}, revision=0) == 1
    with pytest.raises(S.StaleRevision):
        storage.update("g1", {"step": 9}, revision=0)
    assert storage.get("g1")["step"] == 1 and storage.revisions(["g1", "x"]) == {"g1": 1}
    outcomes = storage.apply_batch([("update", "g1", {"step": 2}, 1),
                                    ("update", "g1", {"step": 3}, 1)])
    assert outcomes[0] == 2 and isinstance(outcomes[1], S.StaleRevision)
    assert storage.get("g1")["step"] == 2
    assert storage.update("g1", {"step": 5}) == 3  # unconditional: still counted
    with pytest.raises(ValueError):
        storage.update("g1", {"revision": 0})
    storage.dispose()


def test_racing_threads_on_one_row_each_win_once(postgres_db) -> None:
    """Eight threads each try to advance a game from the revision they read, 25 times: every
    revision is won by exactly one of them."""
    storage = S.Storage(postgres_db)
    storage.insert(game_row("g1"))
    wins: list[int] = []
    lock = threading.Lock()

    def racer() -> None:
        for _ in range(25):
            revision = storage.get("g1")["revision"]
            try:
                new = storage.update("g1", {"step": revision + 1}, revision=revision)
            except S.StaleRevision:
                continue
            with lock:
                wins.append(new)

    threads = [threading.Thread(target=racer) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    final = storage.get("g1")
    storage.dispose()
    assert sorted(wins) == list(range(1, final["revision"] + 1))
    assert final["step"] == final["revision"] >= 25


def test_a_commit_is_notified_to_a_listener(postgres_db) -> None:
    from boardwright.web.cluster import Listener

    storage = S.Storage(postgres_db)
    storage.insert(game_row("g1"))

    async def main() -> list[tuple[str, int]]:
        got: list[tuple[str, int]] = []
        arrived = asyncio.Event()
        connects = 0

        async def on_connect() -> None:
            nonlocal connects
            connects += 1

        def on_notify(game_id: str, revision: int) -> None:
            got.append((game_id, revision))
            if revision == 2:
                arrived.set()

        listener = Listener(storage.engine, on_notify, on_connect)
        listener.start()
        await asyncio.wait_for(listener.connected.wait(), 10)
        await asyncio.to_thread(storage.update, "g1", {"step": 1})
        with pytest.raises(S.StaleRevision):  # a lost race is not notified
            await asyncio.to_thread(storage.update, "g1", {"step": 1}, 0)
        await asyncio.to_thread(storage.apply_batch, [("update", "g1", {"step": 2}, 1)])
        await asyncio.wait_for(arrived.wait(), 10)
        await listener.stop()
        assert connects == 1
        return got

    assert asyncio.run(main()) == [("g1", 1), ("g1", 2)]
    storage.dispose()
    assert S.parse_payload("g1 2") == ("g1", 2) and S.parse_payload("nonsense") is None


def test_the_listener_reconnects_and_says_so(postgres_db) -> None:
    """The listening connection is cut by the database: it connects again (and runs
    on_connect, where the server compares its games with the database), then hears again."""
    from sqlalchemy import text

    from boardwright.web.cluster import Listener

    storage = S.Storage(postgres_db)
    storage.insert(game_row("g1"))

    async def main() -> tuple[int, list[tuple[str, int]]]:
        got: list[tuple[str, int]] = []
        connected: asyncio.Queue[bool] = asyncio.Queue()

        async def on_connect() -> None:
            connected.put_nowait(True)

        listener = Listener(storage.engine, lambda g, r: got.append((g, r)), on_connect)
        listener.start()
        await asyncio.wait_for(connected.get(), 10)

        def cut() -> int:
            with storage.engine.begin() as connection:
                return connection.execute(text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()")).scalar()

        assert await asyncio.to_thread(cut) == 1
        await asyncio.wait_for(connected.get(), 10)  # connected again
        await asyncio.to_thread(storage.update, "g1", {"step": 1})
        for _ in range(100):
            if got:
                break
            await asyncio.sleep(0.05)
        await listener.stop()
        return listener.connections, got

    connections, got = asyncio.run(main())
    storage.dispose()
    assert connections == 2 and got == [("g1", 1)]


def test_a_resignation_through_one_process_ends_the_game_on_the_other(servers) -> None:
    """Resign takes the path of moves: a conditional commit, notified to the other process,
    whose sockets see the game over with its result."""
    a, b = servers(), servers()
    created = create(a, "queens", ["human", "human"], seed=7)
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    with connect(a, game_id, tokens[0]) as seat0, connect(b, game_id, tokens[1]) as seat1:
        first = next_frame(seat0, lambda f: f["type"] == "state" and f["status"] == "running")
        next_frame(seat1, lambda f: f["type"] == "state" and f["status"] == "running")
        mover = first["current_player"]
        if mover == 0:  # a move through the first process, seen by the second
            seat0.send(json.dumps({"type": "move", "step": 0,
                                   "action": first["legal_actions"][0]}))
            next_frame(seat1, at_step(1))
        seat1.send(json.dumps({"type": "resign"}))
        over = next_frame(seat0, lambda f: f["type"] == "state" and f["status"] == "finished")
    result = over["result"]
    assert result["reason"] == "resignation" and result["resigned"] == [1]
    assert result["winners"] == [0]
    for server in (a, b):
        assert httpx.get(f"{server.base}/api/games/{game_id}").json()["result"] == result
    row, _ = replayed(servers.url, game_id)
    assert row["status"] == "finished" and row["seats"][1]["out"] == "resigned"
