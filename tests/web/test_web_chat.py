"""Chat at the table (web/chat.py): seated players write, spectators read; messages are
limited in length and rate, stored with the game, shown again after a reconnect or a restart,
and sent as they were written (the page shows them as text: tests/web/browser)."""

from __future__ import annotations

import pytest
from web_helpers import client, create, game_socket, receive_until, seat_socket, sqlite_url

from boardwright.web import chat as C
from boardwright.web import protocol as P


def chat_frame(ws, predicate=lambda f: True):
    return receive_until(ws, lambda f: f["type"] == "chat" and predicate(f))


def error(ws, code):
    frame = receive_until(ws, lambda f: f["type"] == "error")
    assert frame["code"] == code, frame
    return frame


def test_a_message_reaches_every_seat_and_the_spectators(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=1)
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1, \
            game_socket(api, created["id"]) as watcher:
        text = '<img src=x onerror="alert(1)"> & "quotes" — ünïcödé'
        ws1.send_json({"type": "chat", "text": f"  {text}\n"})
        seen = [chat_frame(ws)["messages"] for ws in (ws0, ws1, watcher)]
    assert seen[0] == seen[1] == seen[2]
    [message] = seen[0]
    assert message["seat"] == 1
    assert message["text"] == text  # as written (stripped): the page shows it as text
    assert message["time"].endswith("Z")


def test_spectators_cannot_chat(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=2)
    with game_socket(api, created["id"]) as watcher:
        watcher.send_json({"type": "chat", "text": "hello"})
        assert "spectators read the chat" in error(watcher, P.BAD_TOKEN)["message"]
    assert C.history(api.app.state.storage, created["id"]) == []


@pytest.mark.parametrize("text, code", [
    ("", P.MALFORMED),
    ("   \n\t ", P.MALFORMED),
    ("\x00\x07", P.MALFORMED),
    ("x" * (C.MAX_CHARS + 1), P.TOO_LARGE),
])
def test_empty_and_too_long_messages_are_refused(api, text, code) -> None:
    created = create(api, "queens", ["human", "human"], seed=3)
    with seat_socket(api, created, 0) as ws:
        ws.send_json({"type": "chat", "text": text})
        error(ws, code)
        ws.send_json({"type": "chat", "text": "x" * C.MAX_CHARS})  # the limit itself is fine
        assert len(chat_frame(ws)["messages"][0]["text"]) == C.MAX_CHARS
    assert len(C.history(api.app.state.storage, created["id"])) == 1


def test_a_chat_frame_needs_a_text_string(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=3)
    with seat_socket(api, created, 0) as ws:
        ws.send_json({"type": "chat", "text": 42})
        error(ws, P.MALFORMED)


def test_a_seat_may_send_five_messages_per_ten_seconds_from_all_its_tabs(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=4)
    with seat_socket(api, created, 0) as tab1, seat_socket(api, created, 0) as tab2, \
            seat_socket(api, created, 1) as other:
        for i in range(C.RATE):
            (tab1 if i % 2 else tab2).send_json({"type": "chat", "text": f"message {i}"})
            chat_frame(other, lambda f, i=i: f["messages"][0]["text"] == f"message {i}")
        tab1.send_json({"type": "chat", "text": "one too many"})
        assert "at most 5" in error(tab1, P.RATE_LIMITED)["message"]
        other.send_json({"type": "chat", "text": "the other seat still may"})
        chat_frame(tab2, lambda f: f["messages"][0]["seat"] == 1)
    texts = [m["text"] for m in C.history(api.app.state.storage, created["id"])]
    assert texts == [f"message {i}" for i in range(C.RATE)] + ["the other seat still may"]


def test_the_rate_limit_window_slides() -> None:
    log = C.ChatLog()
    assert all(log.allow(0, t) for t in (0.0, 1.0, 2.0, 3.0, 4.0))
    assert not log.allow(0, 9.9)
    assert log.allow(1, 9.9)  # per seat
    assert log.allow(0, 10.0)  # the first one left the window
    assert not log.allow(0, 10.5)


def test_the_history_comes_back_after_a_reconnect_and_a_restart(tmp_path) -> None:
    url = sqlite_url(tmp_path)
    with client(url) as api:
        created = create(api, "queens", ["human", "human"], seed=5)
        with seat_socket(api, created, 0) as ws0:
            for text in ("first", "second"):
                ws0.send_json({"type": "chat", "text": text})
                chat_frame(ws0, lambda f, t=text: f["messages"][0]["text"] == t)
        with seat_socket(api, created, 1) as ws1:  # a reconnect: the history follows the state
            history = chat_frame(ws1)
        assert history["history"] is True
        assert [m["text"] for m in history["messages"]] == ["first", "second"]
    with client(url) as api:
        with game_socket(api, created["id"]) as watcher:
            receive_until(watcher, lambda f: f["type"] == "state")
            again = chat_frame(watcher)
    assert again["history"] is True and again["messages"] == history["messages"]


def test_the_history_is_the_frame_right_after_the_first_state(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=7)
    with seat_socket(api, created, 0) as ws0:
        ws0.send_json({"type": "chat", "text": "before you came"})
        chat_frame(ws0)
        with game_socket(api, created["id"]) as watcher:  # nothing between the two frames
            first, second = watcher.receive_json(), watcher.receive_json()
    assert first["type"] == "state"
    assert second["type"] == "chat" and second["history"] is True
    assert [m["text"] for m in second["messages"]] == ["before you came"]


def message(ident: int) -> dict:
    return {"id": ident, "seat": 0, "text": f"m{ident}", "time": "2026-11-28T00:00:00Z"}


def test_messages_heard_while_the_history_is_read_are_kept_once_in_order() -> None:
    """Another process's messages can arrive while the history is being read, which may or
    may not have seen them: each is kept once, in the order they were saved."""
    log = C.ChatLog()
    assert log.receive(message(3)) and log.receive(message(2))  # while reading
    log.load([message(1), message(2)])  # the read saw 1 and 2, not 3
    assert [m["id"] for m in log.messages] == [1, 2, 3]
    assert not log.receive(message(3))  # heard again: not shown twice
    assert log.receive(message(4))
    assert [m["id"] for m in log.history_frame()["messages"]] == [1, 2, 3, 4]
    assert C.ChatLog().history_frame() is None


def test_deleting_a_game_deletes_its_chat(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=6)
    storage = api.app.state.storage
    with seat_socket(api, created, 0) as ws:
        ws.send_json({"type": "chat", "text": "bye"})
        chat_frame(ws)
    storage.delete(created["id"])
    assert C.history(storage, created["id"]) == []
