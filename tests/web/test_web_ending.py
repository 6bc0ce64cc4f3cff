"""How games end, through the API and the websocket (web/ending.py, web/resigning.py): the
first mover's clock starts however the table fills; the result names the reason (score, time,
resignation, abandonment) with the standings; nobody is to move after the end; resigning;
claiming a game the others left (presence counted on the server's manual clock, so the
figures are exact); and the replay's last step with its table data."""

from __future__ import annotations

from typing import Any

import pytest
from clock_helpers import ManualClock
from players_helpers import SHORT_PILE, as_player, first_state, new_player, play_to_end, socket
from test_web_clocks import api, server_clock, state_where  # noqa: F401 (fixtures)
from web_helpers import client, create, receive_until, seat_socket, sqlite_url

from boardwright.web import ending as E


def error_of(ws: Any) -> dict[str, Any]:
    return receive_until(ws, lambda f: f["type"] == "error")


def running_for_the_mover(frame: dict[str, Any]) -> bool:
    """The frame shows a human seat to move with its clock running."""
    clock = frame["clock"]
    mover = frame["current_player"]
    return (mover is not None and clock["remaining"][mover] is not None
            and clock["running"] == mover)


# -- clocks start however the table fills ---------------------------------------------------------

@pytest.mark.parametrize("seats, ways", [
    (["open", "open"], ["take", "take"]),
    (["human", "open"], ["link", "take"]),
    (["open", "human"], ["take", "link"]),
    (["open", "random"], ["take", None]),
    (["human", "open", "random"], ["link", "take", None]),
])
def test_the_first_movers_clock_starts_however_the_table_fills(api, seats, ways) -> None:
    """Invitation links, Take seat, bots, a mix: once the last human seat is filled the clock
    of the (first human) seat to move runs, in the frames every seat gets."""
    created = create(api, "queens", seats, seed=7, clock={"per_move": 4}, on_timeout="bot")
    game_id = created["id"]
    keys = {s: new_player(api, f"P{s}") for s, way in enumerate(ways) if way == "take"}
    for seat, key in keys.items():  # the lobby's Take seat, before anyone opens the table
        taken = api.post(f"/api/games/{game_id}/seats/{seat}/take", headers=as_player(key))
        assert taken.status_code == 200, taken.text
    opened = []
    for seat, way in enumerate(ways):
        if way == "take":
            opened.append(socket(api, game_id, key=keys[seat], seat=seat))
        elif way == "link":
            opened.append(seat_socket(api, created, seat))
    sockets = [ws.__enter__() for ws in opened]
    try:
        for ws in sockets:
            frame = state_where(ws, running_for_the_mover)
            assert frame["status"] == "running"
            assert frame["clock"]["remaining"][frame["current_player"]] == 4.0
    finally:
        for ws in opened:
            ws.__exit__(None, None, None)


def test_the_clock_starts_when_the_last_seat_is_taken_after_a_restart(tmp_path) -> None:
    """One seat joined by its link, the server restarted, then the last seat taken: the clock
    of the seat to move runs."""
    url = sqlite_url(tmp_path)
    clock = ManualClock()
    with client(url, clock=clock) as api:
        created = create(api, "queens", ["human", "open"], seed=7, clock={"per_move": 4})
        with seat_socket(api, created, 0) as ws:
            assert first_state(ws)["clock"]["running"] is None  # seat 1 is still open
        ann = new_player(api, "Ann")
    with client(url, clock=clock) as api:
        taken = api.post(f"/api/games/{created['id']}/seats/1/take", headers=as_player(ann))
        assert taken.status_code == 200, taken.text
        with socket(api, created["id"], key=ann, seat=1) as ws:
            frame = state_where(ws, running_for_the_mover)
    assert frame["status"] == "running"


# -- resigning --------------------------------------------------------------------------------

def named_game(api: Any, seats: list[str], **body: Any) -> tuple[dict[str, Any], list[str]]:
    """A rated game whose open seats named players took (their keys, by seat)."""
    created = create(api, "queens", seats, seed=3, **body)
    keys = []
    for seat, kind in enumerate(seats):
        if kind == "open":
            key = new_player(api, f"Player{seat}")
            taken = api.post(f"/api/games/{created['id']}/seats/{seat}/take",
                             headers=as_player(key))
            assert taken.status_code == 200, taken.text
            keys.append(key)
    return created, keys


def test_resigning_a_two_player_game_the_other_wins_and_it_is_rated(api) -> None:
    created, (ann, bob) = named_game(api, ["open", "open"])
    game_id = created["id"]
    with socket(api, game_id, key=ann, seat=0) as ws0, socket(api, game_id, key=bob, seat=1) as ws1:
        state_where(ws0, lambda f: f["status"] == "running")
        before = state_where(ws1, lambda f: f["status"] == "running")
        assert before["can_resign"] is True and before["result"] is None
        ws1.send_json({"type": "resign"})
        over = state_where(ws0, lambda f: f["status"] == "finished")
        ws0.send_json({"type": "resign"})
        refused = error_of(ws0)
    assert refused["code"] == "game_over"
    assert over["current_player"] is None and over["legal_actions"] == []
    assert over["view"].get("current_player") is None  # nobody to move, in the view either
    assert over["can_resign"] is False and over["abandon"] is None
    result = over["result"]
    assert result["reason"] == E.RESIGNATION and result["resigned"] == [1]
    assert result["winners"] == [0]
    standings = result["standings"]
    assert [(e["seat"], e["place"], e["name"], e["out"]) for e in standings] == [
        (0, 1, "Player0", None), (1, 2, "Player1", "resigned")]
    assert standings[0]["rating"]["change"] > 0 > standings[1]["rating"]["change"]
    stored = api.get(f"/api/games/{game_id}").json()
    assert stored["status"] == "finished" and stored["rated"] is True
    assert stored["result"] == result  # the API says the same as the frames
    mine = api.get("/api/me/games", headers=as_player(bob)).json()
    assert next(g for g in mine if g["id"] == game_id)["result"] == result
    row = api.app.state.storage.get(game_id)
    assert row["seats"][1]["out"] == "resigned" and row["seats"][1]["ended"] is True
    assert [s["place"] for s in row["seats"]] == [1, 2]


def test_resigning_among_three_the_game_goes_on_and_the_seat_ranks_last(api) -> None:
    created = create(api, "queens", ["human", "human", "human"], seed=5)
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1, \
            seat_socket(api, created, 2) as ws2:
        first = state_where(ws0, lambda f: f["status"] == "running")
        resigner = first["current_player"]  # the seat to move resigns: the bot moves for it
        sockets = {0: ws0, 1: ws1, 2: ws2}
        sockets[resigner].send_json({"type": "resign"})
        moved = state_where(sockets[resigner], lambda f: f["step"] == 1)
        assert moved["status"] == "running" and moved["last_action"]["seat"] == resigner
        assert moved["can_resign"] is False and moved["result"] is None
        assert moved["seats"][resigner]["out"] == "resigned"  # the players list says so
        second = moved["current_player"]
        assert second != resigner
        sockets[second].send_json({"type": "resign"})  # one seat left: it wins
        over = state_where(ws0, lambda f: f["status"] == "finished")
        sockets[resigner].send_json({"type": "move", "action": {"type": "pass"}})
        assert error_of(sockets[resigner])["code"] == "game_over"
    third = ({0, 1, 2} - {resigner, second}).pop()
    result = over["result"]
    assert result["reason"] == E.RESIGNATION and result["resigned"] == [resigner, second]
    assert [(e["seat"], e["place"]) for e in result["standings"]] == [
        (third, 1), (second, 2), (resigner, 3)]  # the first to resign ranks last
    assert over["clock"] is None


def test_resigning_against_bots_ends_the_game(api) -> None:
    created = create(api, "queens", ["human", "random", "random"], seed=5)
    with seat_socket(api, created, 0) as ws:
        first_state(ws)  # the seat joins: the game runs (the bots move meanwhile)
        ws.send_json({"type": "resign"})
        over = state_where(ws, lambda f: f["status"] == "finished")
    result = over["result"]
    assert result["reason"] == E.RESIGNATION and result["resigned"] == [0]
    assert sorted(result["winners"]) == [1, 2]  # the bots still in share the win
    assert result["standings"][-1]["seat"] == 0


def test_resign_is_refused_before_the_game_starts_and_to_spectators(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=5)
    with seat_socket(api, created, 0) as ws:
        first_state(ws)
        ws.send_json({"type": "resign"})
        refused = error_of(ws)
        assert "has not started" in refused["message"]
    with api.websocket_connect(f"/ws/games/{created['id']}") as watcher:
        assert first_state(watcher)["can_resign"] is False
        watcher.send_json({"type": "resign"})
        assert error_of(watcher)["code"] == "bad_token"
    assert api.app.state.storage.get(created["id"])["status"] == "open"


# -- claiming a game the others left ------------------------------------------------------------

@pytest.mark.parametrize("frame_type", ["claim_win", "claim_end"])
def test_a_game_the_other_left_is_claimed_after_the_set_time(api, server_clock, frame_type) -> None:
    created, (ann, bob) = named_game(api, ["open", "open"])
    game_id = created["id"]
    with socket(api, game_id, key=ann, seat=0) as ws0:
        with socket(api, game_id, key=bob, seat=1) as ws1:
            state_where(ws1, lambda f: f["status"] == "running")
            ws0.send_json({"type": frame_type})
            assert "is connected" in error_of(ws0)["message"]
        gone = state_where(ws0, lambda f: f["abandon"] is not None)
        assert gone["abandon"] == {"seats": [1], "gone_for": 0.0, "after": 60.0, "wait": 60.0}
        server_clock.advance(59)
        ws0.send_json({"type": frame_type})
        early = error_of(ws0)
        assert "gone for 59 s" in early["message"] and "after 60 s" in early["message"]
        server_clock.advance(1)
        ws0.send_json({"type": frame_type})
        over = state_where(ws0, lambda f: f["status"] == "finished")
    result = over["result"]
    assert result["reason"] == E.ABANDONMENT
    assert result["claimed_by"] == 0 and result["left"] == [1]
    stored = api.get(f"/api/games/{game_id}").json()
    assert stored["result"] == result
    if frame_type == "claim_win":
        assert result["outcome"] == "win" and result["winners"] == [0]
        assert [(e["seat"], e["place"]) for e in result["standings"]] == [(0, 1), (1, 2)]
        assert stored["rated"] is True and result["standings"][0]["rating"]["change"] > 0
    else:  # no result: nobody wins, the ratings do not move
        assert result["outcome"] == "none" and result["winners"] == []
        assert [e["place"] for e in result["standings"]] == [None, None]
        assert stored["rated"] is False and "rating" not in result["standings"][0]


def test_a_game_is_claimable_after_a_restart_once_the_others_stay_away(tmp_path) -> None:
    """After a restart every seat counts as gone from the moment the game is loaded."""
    url = sqlite_url(tmp_path)
    clock = ManualClock()
    with client(url, clock=clock) as api:
        created = create(api, "queens", ["human", "human"], seed=3)
        with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1:
            state_where(ws0, lambda f: f["status"] == "running")
            first_state(ws1)
    with client(url, clock=clock, claim_after=10.0) as api:
        with seat_socket(api, created, 0) as ws0:
            frame = state_where(ws0, lambda f: f["abandon"] is not None)
            assert frame["abandon"]["after"] == 10.0 and frame["abandon"]["wait"] == 10.0
            clock.advance(10)
            ws0.send_json({"type": "claim_win"})
            over = state_where(ws0, lambda f: f["status"] == "finished")
    assert over["result"]["winners"] == [0] and over["result"]["left"] == [1]


def test_claim_after_out_of_range_is_refused(tmp_path) -> None:
    import boardwright as bw
    from boardwright.web.app import create_app

    with pytest.raises(bw.InvalidOptionError, match="claim_after"):
        create_app(sqlite_url(tmp_path), claim_after=0.0)


# -- time and score ---------------------------------------------------------------------------

def test_a_loss_on_time_is_named_in_the_result(api, server_clock) -> None:
    created = create(api, "queens", ["human", "human"], seed=4, clock={"per_move": 1},
                     on_timeout="lose")
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1:
        state_where(ws0, lambda f: f["clock"]["running"] == 0)
        server_clock.advance(1)
        over = state_where(ws1, lambda f: f["status"] == "finished")
    assert over["view"].get("current_player") is None
    result = over["result"]
    assert result["reason"] == E.TIME and result["lost_on_time"] == [0]
    assert result["winners"] == [1]
    assert [(e["seat"], e["out"]) for e in result["standings"]] == [(1, None), (0, "time")]


def test_a_game_played_to_its_end_is_won_on_score_and_its_replay_ends_with_the_scoring(api) -> None:
    created = create(api, "carcassonne", ["human", "random"], seed=2,
                     options={"draw_order": SHORT_PILE})
    with seat_socket(api, created, 0) as ws:
        over = play_to_end({0: ws})
    result = over["result"]
    assert result["reason"] == E.SCORE and result["resigned"] == result["lost_on_time"] == []
    scores = over["scores"]
    assert [e["score"] for e in result["standings"]] == sorted(scores, reverse=True)
    best = max(scores)
    assert result["winners"] == [s for s, score in enumerate(scores) if score == best]
    replay = api.get(f"/api/games/{created['id']}/replay").json()
    steps = replay["steps"]
    last = api.get(f"/api/games/{created['id']}/replay/{steps}").json()
    assert last["table"] == over["table"] and last["table"]["final"]  # the final scoring
    assert replay["final_table"] == over["table"]
    assert replay["result"] == result
    middle = api.get(f"/api/games/{created['id']}/replay/1").json()
    assert "projected_scores" in middle["table"]


def test_places_follow_the_standing_returns() -> None:
    seats = [{"kind": "human"}, {"kind": "human", "out": "resigned", "out_step": 4},
             {"kind": "human"}, {"kind": "human", "out": "resigned", "out_step": 2}]
    clock = {"lost": [2]}
    returns = E.standing_returns(seats, clock, [1.0, 5.0, 0.5, 9.0])
    assert returns == [1.0, 0.0, -2.0, -1.0]  # out: first lost on time, then by step
    assert E.places(returns) == [1, 2, 4, 3]
    assert E.places([1.0, 1.0, 0.0]) == [1, 1, 3]


def test_a_seat_that_resigned_has_no_say_in_an_undo_and_cannot_ask_one(api) -> None:
    created = create(api, "queens", ["human", "human", "human"], seed=5)
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1, \
            seat_socket(api, created, 2) as ws2:
        sockets = {0: ws0, 1: ws1, 2: ws2}
        frames = {s: state_where(ws, lambda f: f["status"] == "running")
                  for s, ws in sockets.items()}
        mover = frames[0]["current_player"]
        mine = frames[mover]
        sockets[mover].send_json({"type": "move", "action": mine["legal_actions"][0], "step": 0})
        quitter = next(s for s in (0, 1, 2) if s != mover)
        state_where(sockets[quitter], lambda f: f["step"] == 1)
        sockets[quitter].send_json({"type": "resign"})
        state_where(sockets[mover], lambda f: f["seats"] and f["can_resign"]
                    and f["step"] >= 1 and not f["result"])
        sockets[mover].send_json({"type": "undo"})
        asked = state_where(sockets[mover], lambda f: f["undo_request"] is not None)
        stayer = ({0, 1, 2} - {mover, quitter}).pop()
        assert asked["undo_request"]["voters"] == [stayer]  # the one who resigned has no say
