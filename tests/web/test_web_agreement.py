"""Undo by agreement between human players (web/agreement.py): a request every other human
seat answers; accepted, the game goes back before the asker's last move; refused, nothing
changes; never across a random draw or hidden information; the free undo of a game alone
against bots stays as it was."""

from __future__ import annotations

from web_helpers import (
    create, engine_state, game_socket, receive_until, seat_socket,
)

from boardwright.web import protocol as P


def state_where(ws, predicate, timeout: float = 20.0):
    return receive_until(ws, lambda f: f["type"] == "state" and predicate(f), timeout=timeout)


def error(ws, code):
    frame = receive_until(ws, lambda f: f["type"] == "error")
    assert frame["code"] == code, frame
    return frame


def move(ws, frame, index: int = 0):
    ws.send_json({"type": "move", "action": frame["legal_actions"][index], "step": frame["step"]})


def test_an_accepted_undo_takes_the_move_back(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=1)
    storage = api.app.state.storage
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1:
        start = state_where(ws0, lambda f: True)
        mover, other = (ws0, ws1) if start["current_player"] == 0 else (ws1, ws0)
        mine = start if mover is ws0 else state_where(ws1, lambda f: True)
        move(mover, mine)
        after = state_where(mover, lambda f: f["step"] == 1)
        assert after["can_undo"] is True
        mover.send_json({"type": "undo"})
        asked = state_where(other, lambda f: f["undo_request"] is not None)
        seat = mine["seat"]
        assert asked["undo_request"] == {"seat": seat, "step": 1, "steps": 1,
                                         "voters": [1 - seat], "accepted": [],
                                         "waiting": [1 - seat]}
        assert asked["step"] == 1  # nothing is taken back before the answer
        other.send_json({"type": "accept_undo"})
        back = state_where(mover, lambda f: f["step"] == 0)
    assert back["undo_request"] is None
    assert back["view"] == mine["view"] and back["legal_actions"] == mine["legal_actions"]
    row = storage.get(created["id"])
    assert row["record"] == [] and row["step"] == 0
    assert engine_state(storage, created["id"]).view(seat) == back["view"]


def test_a_refused_undo_changes_nothing_and_may_be_asked_again(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=2)
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1:
        sockets = [ws0, ws1]
        start = state_where(ws0, lambda f: True)
        seat = start["current_player"]
        mine = start if seat == 0 else state_where(ws1, lambda f: True)
        move(sockets[seat], mine)
        state_where(sockets[seat], lambda f: f["step"] == 1)
        sockets[seat].send_json({"type": "undo"})
        state_where(sockets[1 - seat], lambda f: f["undo_request"] is not None)
        # the asker has no say in its own request; only the other seat answers
        sockets[seat].send_json({"type": "accept_undo"})
        assert "yours to answer" in error(sockets[seat], P.ILLEGAL_ACTION)["message"]
        sockets[1 - seat].send_json({"type": "refuse_undo"})
        refused = state_where(sockets[seat], lambda f: f["undo_refused"] is not None)
        assert refused["step"] == 1 and refused["undo_request"] is None
        assert refused["undo_refused"] == {"seat": seat, "by": 1 - seat}
        assert api.app.state.storage.get(created["id"])["step"] == 1
        sockets[1 - seat].send_json({"type": "accept_undo"})  # nothing waits for an answer
        error(sockets[1 - seat], P.ILLEGAL_ACTION)
        sockets[seat].send_json({"type": "undo"})  # asking again is allowed
        again = state_where(sockets[1 - seat], lambda f: f["undo_request"] is not None)
        assert again["undo_request"]["seat"] == seat


def test_an_undo_across_a_tile_draw_is_refused_within_the_turn_it_is_not(api) -> None:
    created = create(api, "carcassonne", ["human", "human"], seed=3)
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1:
        sockets = [ws0, ws1]
        frames = [state_where(ws, lambda f: True) for ws in sockets]
        seat = frames[0]["current_player"]
        ws, other = sockets[seat], sockets[1 - seat]
        start = frames[seat]
        move(ws, start)  # lay the tile: the figure is still to decide, nothing drawn
        laid = state_where(ws, lambda f: f["step"] == 1)
        assert laid["can_undo"] is True
        ws.send_json({"type": "undo"})
        state_where(other, lambda f: f["undo_request"] is not None)
        other.send_json({"type": "accept_undo"})
        back = state_where(ws, lambda f: f["step"] == 0)
        assert back["view"] == start["view"]
        move(ws, back)
        laid = state_where(ws, lambda f: f["step"] == 1)
        move(ws, laid, -1)  # the figure (or none): the turn ends and the next tile is drawn
        drawn = state_where(ws, lambda f: f["step"] == 2)
        assert drawn["can_undo"] is False  # the table does not offer it
        ws.send_json({"type": "undo"})
        assert "cannot be taken back" in error(ws, P.ILLEGAL_ACTION)["message"]
    assert api.app.state.storage.get(created["id"])["step"] == 2


def test_with_three_humans_every_other_one_must_accept(api) -> None:
    created = create(api, "queens", ["human", "human", "human"], seed=4)
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1, \
            seat_socket(api, created, 2) as ws2, game_socket(api, created["id"]) as watcher:
        sockets = [ws0, ws1, ws2]
        frames = [state_where(ws, lambda f: True) for ws in sockets]
        seat = frames[0]["current_player"]
        move(sockets[seat], frames[seat])
        state_where(sockets[seat], lambda f: f["step"] == 1)
        sockets[seat].send_json({"type": "undo"})
        others = [s for s in range(3) if s != seat]
        asked = state_where(watcher, lambda f: f["undo_request"] is not None)
        assert asked["undo_request"]["waiting"] == others
        watcher.send_json({"type": "accept_undo"})  # a spectator has no say
        error(watcher, P.BAD_TOKEN)
        sockets[others[0]].send_json({"type": "accept_undo"})
        half = state_where(watcher, lambda f: f["undo_request"] is not None
                           and f["undo_request"]["accepted"] == [others[0]])
        assert half["step"] == 1 and half["undo_request"]["waiting"] == [others[1]]
        sockets[others[1]].send_json({"type": "accept_undo"})
        back = state_where(watcher, lambda f: f["step"] == 0)
    assert back["undo_request"] is None


def test_a_move_ends_a_pending_request(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=5)
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1:
        sockets = [ws0, ws1]
        frames = [state_where(ws, lambda f: True) for ws in sockets]
        seat = frames[0]["current_player"]
        move(sockets[seat], frames[seat])
        theirs = state_where(sockets[1 - seat], lambda f: f["step"] == 1)
        sockets[seat].send_json({"type": "undo"})
        state_where(sockets[1 - seat], lambda f: f["undo_request"] is not None)
        move(sockets[1 - seat], theirs)  # answering by playing on
        moved = state_where(sockets[seat], lambda f: f["step"] == 2)
        assert moved["undo_request"] is None
        sockets[1 - seat].send_json({"type": "accept_undo"})
        error(sockets[1 - seat], P.ILLEGAL_ACTION)
    assert api.app.state.storage.get(created["id"])["step"] == 2


def test_training_games_keep_their_free_undo_across_draws(api) -> None:
    created = create(api, "carcassonne", ["human", "greedy"], seed=6)
    with seat_socket(api, created, 0) as ws:
        frame = state_where(ws, lambda f: f["current_player"] == 0 and f["legal_actions"])
        move(ws, frame)
        laid = state_where(ws, lambda f: f["step"] == frame["step"] + 1)
        move(ws, laid, -1)  # ends the turn: a tile is drawn, the bot plays
        mine = state_where(ws, lambda f: f["current_player"] == 0 and f["step"] > laid["step"])
        assert mine["can_undo"] is True and mine["undo_request"] is None
        ws.send_json({"type": "undo"})
        back = state_where(ws, lambda f: f["step"] == laid["step"])
    assert back["can_undo"] is True
