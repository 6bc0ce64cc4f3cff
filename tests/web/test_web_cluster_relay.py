"""Two `boardwright serve` processes on one PostgreSQL database share what is not in a game's
row (relay.py): chat, undo requests and their answers, and who is connected; hint agreements
travel with the row. Each seat is connected to a different process. Two real server processes
on the throwaway PostgreSQL of conftest.py, shared by the tests of this module (each plays a
game of its own)."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from test_web_cluster import at_step, connect, create, next_frame
from web_helpers import ServerProcess


@pytest.fixture(scope="module")
def pair(postgres_url, tmp_path_factory):
    """Two `boardwright serve` processes on one fresh database (killed at the end)."""
    from sqlalchemy import text

    from boardwright.web import storage as S

    url = S.resolve_url(postgres_url)
    engine = S.make_engine(url)
    with engine.begin() as connection:  # what earlier tests left: a fresh schema
        for table in ("analyses", "chat_messages", "seat_holders", "identities", "ratings",
                      "games", "alembic_version"):
            connection.execute(text(f"DROP TABLE IF EXISTS {table} CASCADE"))
    engine.dispose()
    folder = tmp_path_factory.mktemp("relay")
    started: list[ServerProcess] = []
    try:
        for number in range(2):
            started.append(ServerProcess(url, folder / f"server{number}.log", "--bot-workers",
                                         "1", "--bot-delay", "0", "--hint-seconds",
                                         "0.05").start())
        yield tuple(started)
    finally:
        for server in started:
            server.kill()


def send(ws: Any, frame: dict[str, Any]) -> None:
    ws.send(json.dumps(frame))


def state(predicate: Any) -> Any:
    return lambda f: f["type"] == "state" and predicate(f)


def chat_with(text: str) -> Any:
    return lambda f: f["type"] == "chat" and any(m["text"] == text for m in f["messages"])


def wait_running(server: Any, game_id: str) -> None:
    """Until both seats' joins are in the database (each process writes its own seat's)."""
    for _ in range(200):
        if httpx.get(f"{server.base}/api/games/{game_id}", timeout=10).json()["status"] \
                == "running":
            return
        time.sleep(0.05)
    raise AssertionError(f"game {game_id} never started")


def connected(frame: dict[str, Any]) -> list[bool]:
    return [s["connected"] for s in frame["seats"]]


def two_seats(a: Any, b: Any, game: str, seed: int) -> tuple[str, list[str]]:
    created = create(a, game, ["human", "human"], seed=seed)
    return created["id"], [s["token"] for s in created["seats"]]


def test_chat_reaches_the_connections_of_the_other_process(pair) -> None:
    a, b = pair
    game_id, tokens = two_seats(a, b, "queens", seed=5)
    with connect(a, game_id, tokens[0]) as seat0, connect(b, game_id, tokens[1]) as seat1, \
            connect(b, game_id) as watcher:
        for ws in (seat0, seat1, watcher):
            next_frame(ws, at_step(0))
        send(seat0, {"type": "chat", "text": "hello from a"})
        for ws in (seat0, seat1, watcher):  # once each: the sender's own frame comes from a
            got = next_frame(ws, chat_with("hello from a"))
            assert got["history"] is False and got["messages"][0]["seat"] == 0
        send(seat1, {"type": "chat", "text": "and from b"})
        assert next_frame(seat0, chat_with("and from b"))["messages"][0]["seat"] == 1
    with connect(a, game_id) as late:  # the history is the database's, in order
        history = next_frame(late, lambda f: f["type"] == "chat")
        assert [m["text"] for m in history["messages"]] == ["hello from a", "and from b"]


def test_an_undo_asked_through_one_process_is_answered_through_the_other(pair) -> None:
    a, b = pair
    game_id, tokens = two_seats(a, b, "queens", seed=1)
    with connect(a, game_id, tokens[0]) as on_a, connect(b, game_id, tokens[1]) as on_b:
        frames = {0: next_frame(on_a, at_step(0)), 1: next_frame(on_b, at_step(0))}
        wait_running(a, game_id)  # both joins written: the undo below is the only change
        seat = frames[0]["current_player"]
        sockets = {0: on_a, 1: on_b}
        mover, other = sockets[seat], sockets[1 - seat]
        start = frames[seat]
        send(mover, {"type": "move", "step": 0, "action": start["legal_actions"][0]})
        next_frame(other, at_step(1))
        send(mover, {"type": "undo"})
        asked = next_frame(other, state(lambda f: f["undo_request"] is not None))
        assert asked["undo_request"]["seat"] == seat and asked["undo_request"]["waiting"] \
            == [1 - seat]
        send(other, {"type": "refuse_undo"})
        refused = next_frame(mover, state(lambda f: f["undo_refused"] is not None))
        assert refused["undo_refused"] == {"seat": seat, "by": 1 - seat}
        assert refused["undo_request"] is None and refused["step"] == 1
        send(mover, {"type": "undo"})  # asked again, and accepted this time
        next_frame(other, state(lambda f: f["undo_request"] is not None))
        send(other, {"type": "accept_undo"})
        back = next_frame(mover, at_step(0))
        assert back["view"] == start["view"] and back["undo_request"] is None
        assert next_frame(other, at_step(0))["undo_request"] is None


def test_hint_agreements_reach_the_other_process(pair) -> None:
    a, b = pair
    game_id, tokens = two_seats(a, b, "queens", seed=2)
    with connect(a, game_id, tokens[0]) as on_a, connect(b, game_id, tokens[1]) as on_b:
        first = next_frame(on_a, at_step(0))
        next_frame(on_b, at_step(0))
        assert first["hints"]["allowed"] is False
        send(on_a, {"type": "allow_hints"})
        proposed = next_frame(on_b, state(lambda f: f["hints"]["accepted"] == [0]))
        assert proposed["hints"]["waiting"] == [1] and proposed["hints"]["allowed"] is False
        send(on_b, {"type": "allow_hints"})
        agreed = next_frame(on_a, state(lambda f: f["hints"]["allowed"]))
        assert agreed["hints"]["accepted"] == [0, 1]
        mover = on_a if agreed["current_player"] == 0 else on_b
        send(mover, {"type": "hint"})  # allowed on either process
        hint = next_frame(mover, lambda f: f["type"] in ("hint", "error"))
        assert hint["type"] == "hint" and hint["hints"], hint
        send(on_b, {"type": "refuse_hints"})
        withdrawn = next_frame(on_a, state(lambda f: f["hints"]["accepted"] == []))
        assert withdrawn["hints"]["allowed"] is False


def test_each_process_shows_the_seats_connected_to_the_other(pair) -> None:
    a, b = pair
    game_id, tokens = two_seats(a, b, "queens", seed=3)
    with connect(a, game_id, tokens[0]) as seat0:
        assert connected(next_frame(seat0, at_step(0))) == [True, False]
        with connect(b, game_id) as watcher:  # b loads the game now: it asks who is connected
            next_frame(watcher, state(lambda f: connected(f) == [True, False]))
            with connect(b, game_id, tokens[1]) as seat1:
                next_frame(seat0, state(lambda f: connected(f) == [True, True]))
                next_frame(seat1, state(lambda f: connected(f) == [True, True]))
            next_frame(seat0, state(lambda f: connected(f) == [True, False]))
            next_frame(watcher, state(lambda f: connected(f) == [True, False]))
            seat0.close()
            next_frame(watcher, state(lambda f: connected(f) == [False, False]))


def test_a_claim_counts_the_other_process_connections(pair) -> None:
    """A seat connected through the other process has not left (no claim is offered); once it
    leaves there, its absence counts from then and the one who stayed is offered the claim."""
    a, b = pair
    game_id, tokens = two_seats(a, b, "queens", seed=11)
    with connect(a, game_id, tokens[0]) as seat0:
        with connect(b, game_id, tokens[1]):
            wait_running(a, game_id)
            frame = next_frame(seat0, state(lambda f: connected(f) == [True, True]))
            assert frame["abandon"] is None
        frame = next_frame(seat0, state(lambda f: f.get("abandon") is not None))
        abandon = frame["abandon"]
        assert abandon["seats"] == [1]
        assert abandon["after"] == 60.0
        assert 0 < abandon["wait"] <= 60.0  # counted from the leaving, not from the game's load
