"""Hints at the web table over websockets: allowed with one human seat (training); with several,
only once every human seat agreed (a proposal, accepted or refused, kept across a restart);
only for the seat to move, from its own view, and sent to that seat's connections alone."""

from __future__ import annotations

import pytest
from web_helpers import client, create, game_socket, receive, receive_until, seat_socket, sqlite_url

HINTS = {"hint_iterations": 16}  # a tiny, reproducible search budget


def states(frame):
    return frame["type"] == "state"


def hint_frames(frame):
    return frame["type"] == "hint"


def errors(frame):
    return frame["type"] == "error"


def nothing_more_but(ws, unwanted) -> None:
    """Frames already sent to `ws` hold nothing `unwanted`: a ping's pong comes after them."""
    ws.send_json({"type": "ping"})
    seen: list[dict] = []
    receive_until(ws, lambda f: f["type"] == "pong", seen=seen)
    assert not [f for f in seen if unwanted(f)], seen


def check_hint(hint: dict, frame: dict) -> None:
    """A hint names moves of the seat's own frame, with that frame's texts, best first."""
    assert hint["type"] == "hint" and hint["seat"] == frame["seat"]
    assert hint["step"] == frame["step"]
    moves = hint["hints"]
    assert 1 <= len(moves) <= 3
    assert len(moves) == min(3, len(frame["legal_actions"]))
    assert [m["rank"] for m in moves] == list(range(1, len(moves) + 1))
    margins = [m["margin"] for m in moves]
    assert margins == sorted(margins, reverse=True)
    assert len({repr(m["action"]) for m in moves}) == len(moves)
    for move in moves:
        assert frame["legal_actions"][move["index"]] == move["action"]
        assert frame["descriptions"][move["index"]] == move["text"]
        assert isinstance(move["margin"], float) and move["samples"] > 0


@pytest.fixture
def api(tmp_path):
    with client(sqlite_url(tmp_path), **HINTS) as test_client:
        yield test_client


def test_with_one_human_seat_the_mover_gets_three_hints_and_nobody_else_does(api) -> None:
    created = create(api, "carcassonne", ["human", "greedy"], seed=5)
    with seat_socket(api, created, 0) as ws, game_socket(api, created["id"]) as watcher:
        frame = receive(ws)
        assert frame["hints"] == {"allowed": True, "training": True, "accepted": [],
                                  "waiting": [], "can_ask": True}
        public = receive(watcher)
        assert public["hints"]["allowed"] and not public["hints"]["can_ask"]
        ws.send_json({"type": "hint"})
        hint = receive_until(ws, hint_frames)
        check_hint(hint, frame)
        assert hint["budget"] == {"iterations": 16}
        nothing_more_but(watcher, hint_frames)
        # asked again in the same position: the same answer
        ws.send_json({"type": "hint"})
        assert receive_until(ws, hint_frames) == hint
        # a spectator never gets one
        watcher.send_json({"type": "hint"})
        refused = receive_until(watcher, errors)
        assert refused["code"] == "bad_token" and "spectators" in refused["message"]


def test_the_hint_after_a_move_is_for_the_new_decision(api) -> None:
    created = create(api, "carcassonne", ["human", "random"], seed=8)
    with seat_socket(api, created, 0) as ws:
        frame = receive(ws)
        ws.send_json({"type": "move", "step": 0, "action": frame["legal_actions"][0]})
        deploy = receive_until(ws, lambda f: states(f) and f["step"] == 1)
        assert deploy["view"]["phase"] == "deploy"
        ws.send_json({"type": "hint"})
        hint = receive_until(ws, hint_frames)
        check_hint(hint, deploy)
        assert {m["action"]["type"] for m in hint["hints"]} <= {"deploy", "pass"}


def test_agreement_flow_with_two_humans(api) -> None:
    created = create(api, "carcassonne", ["human", "human"], seed=4)
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1, \
            game_socket(api, created["id"]) as watcher:
        frame0 = receive(ws0)
        receive_until(ws1, states)
        receive(watcher)
        assert frame0["hints"] == {"allowed": False, "training": False, "accepted": [],
                                   "waiting": [], "can_ask": False}
        # not allowed before anyone agreed
        ws0.send_json({"type": "hint"})
        refused = receive_until(ws0, errors)
        assert refused["code"] == "hints_not_allowed" and "propose" in refused["message"]
        # nothing to refuse yet; spectators have no say
        ws1.send_json({"type": "refuse_hints"})
        assert receive_until(ws1, errors)["code"] == "illegal_action"
        watcher.send_json({"type": "allow_hints"})
        assert receive_until(watcher, errors)["code"] == "bad_token"
        # seat 0 proposes: everyone sees the proposal
        ws0.send_json({"type": "allow_hints"})
        for ws in (ws0, ws1, watcher):
            shown = receive_until(ws, lambda f: states(f) and f["hints"]["accepted"] == [0])
            assert shown["hints"]["waiting"] == [1] and not shown["hints"]["allowed"]
        ws0.send_json({"type": "hint"})
        refused = receive_until(ws0, errors)
        assert refused["code"] == "hints_not_allowed" and "seat 2" in refused["message"]
        # seat 1 refuses: the proposal is gone
        ws1.send_json({"type": "refuse_hints"})
        for ws in (ws0, ws1):
            shown = receive_until(ws, lambda f: states(f) and f["hints"]["accepted"] == [])
            assert not shown["hints"]["allowed"]
        assert all("hints" not in s for s in api.app.state.storage.get(created["id"])["seats"])
        # proposed again, and accepted: allowed
        ws0.send_json({"type": "allow_hints"})
        receive_until(ws1, lambda f: states(f) and f["hints"]["accepted"] == [0])
        ws1.send_json({"type": "allow_hints"})
        frames = [receive_until(ws, lambda f: states(f) and f["hints"]["allowed"])
                  for ws in (ws0, ws1)]
        assert frames[0]["hints"]["can_ask"] and not frames[1]["hints"]["can_ask"]
        assert frames[0]["hints"]["accepted"] == [0, 1]
        # only the seat to move may ask, and only it gets the answer
        ws1.send_json({"type": "hint"})
        refused = receive_until(ws1, errors)
        assert refused["code"] == "not_your_turn" and "seat 1" in refused["message"]
        ws0.send_json({"type": "hint"})
        check_hint(receive_until(ws0, hint_frames), frames[0])
        nothing_more_but(ws1, hint_frames)
        nothing_more_but(watcher, hint_frames)


def test_the_agreement_survives_a_restart_and_a_refusal_withdraws_it(tmp_path) -> None:
    url = sqlite_url(tmp_path)
    with client(url, **HINTS) as api:
        created = create(api, "queens", ["human", "human"], seed=2)
        with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1:
            receive(ws0)
            receive(ws1)
            ws1.send_json({"type": "allow_hints"})
            receive_until(ws0, lambda f: states(f) and f["hints"]["accepted"] == [1])
            ws0.send_json({"type": "allow_hints"})
            receive_until(ws0, lambda f: states(f) and f["hints"]["allowed"])
    with client(url, **HINTS) as api:  # a new server on the same database
        with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1:
            frame = receive(ws0)
            receive(ws1)
            assert frame["hints"]["allowed"] and frame["hints"]["can_ask"]
            ws0.send_json({"type": "hint"})
            check_hint(receive_until(ws0, hint_frames), frame)
            ws1.send_json({"type": "refuse_hints"})  # withdrawn by either human
            receive_until(ws0, lambda f: states(f) and not f["hints"]["allowed"])
            ws0.send_json({"type": "hint"})
            assert receive_until(ws0, errors)["code"] == "hints_not_allowed"
    with client(url, **HINTS) as api:
        with seat_socket(api, created, 0) as ws0:
            frame = receive(ws0)
            assert frame["hints"]["accepted"] == [] and not frame["hints"]["allowed"]


def test_shogun_hints_use_only_the_movers_own_moves_and_texts(api) -> None:
    created = create(api, "shogun", ["human", "human"], seed=6)
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1:
        frames = [receive(ws0), receive(ws1)]
        for ws in (ws0, ws1):
            ws.send_json({"type": "allow_hints"})
        frames = [receive_until(ws, lambda f: states(f) and f["hints"]["allowed"])
                  for ws in (ws0, ws1)]
        mover = frames[0]["current_player"]
        sockets = (ws0, ws1)
        sockets[mover].send_json({"type": "hint"})
        hint = receive_until(sockets[mover], hint_frames)
        check_hint(hint, frames[mover])
        # nothing beyond the seat's own frame: its moves, their texts, and numbers
        assert set(hint) == {"type", "step", "seat", "hints", "budget"}
        assert all(set(m) == {"rank", "action", "text", "margin", "samples", "index"}
                   for m in hint["hints"])
        nothing_more_but(sockets[1 - mover], hint_frames)


def test_hint_errors_are_clear(api) -> None:
    # training: there is nothing to agree on
    created = create(api, "carcassonne", ["human", "random"], seed=3)
    with seat_socket(api, created, 0) as ws:
        receive(ws)
        for kind in ("allow_hints", "refuse_hints"):
            ws.send_json({"type": kind})
            refused = receive_until(ws, errors)
            assert refused["code"] == "illegal_action" and "one human" in refused["message"]
    # a finished game: no hint
    over = create(api, "carcassonne", ["human", "random"], seed=3, options={"draw_order": ["E"]})
    with seat_socket(api, over, 0) as ws:
        frame = receive(ws)
        while frame["status"] != "finished":
            ws.send_json({"type": "move", "step": frame["step"],
                          "action": frame["legal_actions"][0]})
            frame = receive_until(ws, lambda f: states(f) and f["step"] > frame["step"])
        assert not frame["hints"]["can_ask"]
        ws.send_json({"type": "hint"})
        refused = receive_until(ws, errors)
        assert refused["code"] == "game_over"


def test_no_hint_while_a_bot_is_to_move(tmp_path) -> None:
    with client(sqlite_url(tmp_path), bot_delay=5.0, **HINTS) as api:  # the bot takes its time
        created = create(api, "carcassonne", ["greedy", "human"], seed=1)
        with seat_socket(api, created, 1) as ws:
            frame = receive(ws)
            assert frame["current_player"] == 0 and not frame["hints"]["can_ask"]
            ws.send_json({"type": "hint"})
            refused = receive_until(ws, errors)
            assert refused["code"] == "not_your_turn" and "a bot" in refused["message"]


def test_the_hint_budget_must_be_positive(tmp_path) -> None:
    from boardwright.web.app import create_app

    with pytest.raises(ValueError, match="budget"):
        create_app(sqlite_url(tmp_path), hint_seconds=0)


def test_one_hint_at_a_time_and_a_hint_outdated_by_a_move_is_not_shown(tmp_path) -> None:
    with client(sqlite_url(tmp_path), hint_seconds=2.0) as api:  # a search that takes a while
        created = create(api, "carcassonne", ["human", "random"], seed=8)
        with seat_socket(api, created, 0) as ws:
            frame = receive(ws)
            ws.send_json({"type": "hint"})
            ws.send_json({"type": "move", "step": 0, "action": frame["legal_actions"][0]})
            receive_until(ws, lambda f: states(f) and f["step"] == 1)
            ws.send_json({"type": "hint"})  # the first is still searching
            refused = receive_until(ws, errors)
            assert refused["code"] == "busy"
            seen: list[dict] = []
            stale = receive_until(ws, errors, seen=seen)  # the first one, when it ends
            assert stale["code"] == "stale" and "changed" in stale["message"]
            assert not [f for f in seen if hint_frames(f)]


def test_hints_are_searched_in_worker_processes(tmp_path) -> None:
    with client(sqlite_url(tmp_path), bot_mode="process", **HINTS) as api:
        created = create(api, "queens", ["human", "human"], seed=2)
        with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1:
            receive(ws0)
            receive(ws1)
            for ws in (ws0, ws1):
                ws.send_json({"type": "allow_hints"})
            frames = [receive_until(ws, lambda f: states(f) and f["hints"]["allowed"])
                      for ws in (ws0, ws1)]
            mover = frames[0]["current_player"]
            socket = (ws0, ws1)[mover]
            socket.send_json({"type": "hint"})
            check_hint(receive_until(socket, hint_frames), frames[mover])
