"""The web table's HTTP API: catalog, creating games (and every refusal), the lobby, the pages,
and the replay endpoints of finished games."""

from __future__ import annotations

import hashlib
import json

import pytest
from web_helpers import create, engine_state, receive_until, game_socket

import boardwright as bw


def test_catalog_lists_every_game_with_player_counts_options_and_agents(api) -> None:
    games = {g["name"]: g for g in api.get("/api/catalog").json()["games"]}
    assert set(games) == set(bw.available_games())
    assert games["carcassonne"]["players"] == [1, 2, 3, 4, 5, 6]
    assert games["queens"]["players"] == [2, 3, 4]
    assert games["shogun"]["players"] == [2, 3, 4]
    for entry in games.values():
        assert "random" in entry["agents"] and "greedy" in entry["agents"]
        assert any(a.startswith("mcts:") for a in entry["agents"])
        assert isinstance(entry["options_help"], dict)
    assert "expansions" in games["carcassonne"]["options_help"]
    assert "max_rounds" in games["shogun"]["options_help"]


def test_create_returns_join_links_with_secret_tokens_stored_hashed(api) -> None:
    created = create(api, "carcassonne", ["human", "greedy", "Human"], seed=5)
    game_id = created["id"]
    assert created["spectate_url"] == f"/play/{game_id}"
    seats = created["seats"]
    assert [s["kind"] for s in seats] == ["human", "greedy", "human"]
    for seat in (seats[0], seats[2]):
        # the token rides in the fragment, which browsers never send to the server
        assert seat["join_url"] == f"/play/{game_id}#token={seat['token']}"
        assert len(seat["token"]) >= 32
    assert "token" not in seats[1] and "join_url" not in seats[1]
    row = api.app.state.storage.get(game_id)
    stored = json.dumps(row, default=str)
    for seat in (seats[0], seats[2]):
        assert seat["token"] not in stored
    assert row["seats"][0]["token_hash"] == hashlib.sha256(
        seats[0]["token"].encode()).hexdigest()
    assert row["seats"][1]["token_hash"] is None
    assert row["seed"] == 5 and row["record"] == [] and row["status"] == "open"


@pytest.mark.parametrize("body, fragment", [
    ({"game": "chess", "seats": ["human", "human"]}, "unknown game 'chess'"),
    ({"game": "carcassonne", "seats": ["human", "human"], "options": {"farmers": "yes"}},
     "option 'farmers' must be true or false"),
    ({"game": "carcassonne", "seats": ["human", "human"], "options": {"bogus": 1}},
     "unknown Carcassonne option"),
    ({"game": "carcassonne", "seats": ["human", "alphazero"]}, "unknown agent 'alphazero'"),
    ({"game": "carcassonne", "seats": ["human", "mcts:speed=3"]}, "has no parameter 'speed'"),
    ({"game": "carcassonne", "seats": ["human", "mcts:seconds=600"]}, "seconds may be at most"),
    ({"game": "queens", "seats": ["human"]}, "Queens takes"),
    ({"game": "carcassonne", "players": 3, "seats": ["human", "human"]}, "\"players\" is 3"),
    ({"game": "carcassonne", "seats": ["human", "human"], "seed": -1}, "\"seed\""),
    ({"game": "carcassonne", "seats": ["human", "human"], "seed": "7"}, "\"seed\""),
    ({"game": "carcassonne", "seats": "human,human"}, "\"seats\""),
    ({"game": "carcassonne", "seats": ["human", 3]}, "\"seats\""),
    ({"game": "carcassonne", "seats": ["human"] * 9}, "\"seats\""),
    ({"game": "carcassonne", "seats": ["human"], "options": [1]}, "\"options\""),
    ({"game": "carcassonne", "seats": ["human"], "colour": "red"}, "unknown field"),
    ({"seats": ["human"]}, "\"game\""),
    ([1, 2], "JSON object"),
])
def test_bad_requests_get_400_with_the_engine_message(api, body, fragment) -> None:
    response = api.post("/api/games", json=body)
    assert response.status_code == 400, response.text
    assert fragment in response.json()["error"]
    assert api.get("/api/games").json() == []


def test_body_that_is_not_json_or_too_big(api) -> None:
    response = api.post("/api/games", content=b"{nope", headers={"content-type": "application/json"})
    assert response.status_code == 400 and "not valid JSON" in response.json()["error"]
    big = json.dumps({"game": "carcassonne", "seats": ["human"], "options": {"x": "y" * 70000}})
    response = api.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert response.status_code == 413 and "error" in response.json()


def test_lobby_lists_open_running_and_finished_games(api) -> None:
    waiting = create(api, "carcassonne", ["human", "random"])
    running = create(api, "queens", ["human", "human"])
    bots = create(api, "carcassonne", ["random", "random"], seed=1)
    tokens = [s["token"] for s in running["seats"]]
    for token in tokens:  # both humans take their seats: the game is running
        with game_socket(api, running["id"], token) as ws:
            receive_until(ws, lambda f: f["type"] == "state")
    with api.websocket_connect(f"/ws/games/{bots['id']}") as ws:
        receive_until(ws, lambda f: f["type"] == "state" and f["status"] == "finished",
                      timeout=60)
    by_status = {status: [g["id"] for g in api.get(f"/api/games?status={status}").json()]
                 for status in ("open", "running", "finished")}
    assert by_status == {"open": [waiting["id"]], "running": [running["id"]],
                         "finished": [bots["id"]]}
    everything = api.get("/api/games").json()
    assert {g["id"] for g in everything} == {waiting["id"], running["id"], bots["id"]}
    summary = api.get(f"/api/games/{waiting['id']}").json()
    assert set(summary) == {"id", "game", "players", "options", "status", "created", "seats",
                            "step", "scores", "rated", "clock", "host", "title",
                            "time_control", "setup", "score_words", "result"}
    red, blue = bw.game_info("carcassonne").seats_for(2)
    assert summary["seats"] == [
        {"seat": 0, "kind": "human", "connected": False, "label": "guest",
         "seat_name": red.name, "colour": red.colour},
        {"seat": 1, "kind": "random", "connected": False, "label": "bot random",
         "seat_name": blue.name, "colour": blue.colour}]
    assert summary["step"] == 0 and summary["scores"] == [0, 0]
    assert summary["created"].endswith("Z")
    done = api.get(f"/api/games/{bots['id']}").json()
    state = engine_state(api.app.state.storage, bots["id"])
    assert state.is_terminal and done["scores"] == state.scores
    assert done["step"] == len(state.record.actions)
    for summary in everything:
        assert "seed" not in summary and "token" not in json.dumps(summary)


def test_lobby_errors(api) -> None:
    assert api.get("/api/games?status=paused").status_code == 400
    response = api.get("/api/games/nosuchgame")
    assert response.status_code == 404 and "error" in response.json()


def test_bots_alone_get_the_games_round_cap_for_shogun(api) -> None:
    created = create(api, "shogun", ["random", "random"], seed=3)
    assert api.get(f"/api/games/{created['id']}").json()["options"] == {"max_rounds": 30}
    with_human = create(api, "shogun", ["human", "random"], seed=3)
    assert api.get(f"/api/games/{with_human['id']}").json()["options"] == {}


def test_pages_and_static_files_are_served(api) -> None:
    for path in ("/", "/play/abc", "/play/abc?token=x", "/replay/abc"):
        response = api.get(path)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/html")


def test_replay_of_a_finished_game_step_by_step(api) -> None:
    created = create(api, "carcassonne", ["random", "greedy"], seed=11)
    game_id = created["id"]
    with api.websocket_connect(f"/ws/games/{game_id}") as ws:
        receive_until(ws, lambda f: f["type"] == "state" and f["status"] == "finished",
                      timeout=120)
    replay = api.get(f"/api/games/{game_id}/replay").json()
    storage = api.app.state.storage
    final = engine_state(storage, game_id)
    n = len(final.record.actions)
    assert replay["game"] == "carcassonne" and replay["players"] == 2
    assert replay["steps"] == n == len(replay["actions"]) == len(replay["descriptions"])
    assert len(replay["frames"]) == n + 1
    assert replay["actions"] == final.record.actions
    for step in (0, 1, 2, n // 2, n):
        assert replay["frames"][step] == engine_state(storage, game_id, step).view(None)
    one = api.get(f"/api/games/{game_id}/replay/5").json()
    assert one["step"] == 5 and one["view"] == replay["frames"][5]
    assert one["action"] == replay["actions"][4] and one["next_action"] == replay["actions"][5]
    assert one["text"] == replay["descriptions"][4]
    first = api.get(f"/api/games/{game_id}/replay/0").json()
    assert first["action"] is None and first["view"] == replay["frames"][0]
    last = api.get(f"/api/games/{game_id}/replay/{n}").json()
    assert last["next_action"] is None and last["view"]["is_terminal"]
    assert api.get(f"/api/games/{game_id}/replay/{n + 1}").status_code == 404
    assert api.get(f"/api/games/{game_id}/replay/-1").status_code in (404, 422)


def test_replay_is_refused_until_the_game_is_finished(api) -> None:
    created = create(api, "queens", ["human", "human"])
    response = api.get(f"/api/games/{created['id']}/replay")
    assert response.status_code == 403 and "finished" in response.json()["error"]
    assert api.get(f"/api/games/{created['id']}/replay/0").status_code == 403
    assert api.get("/api/games/unknown/replay").status_code == 404


def test_stats_give_the_move_times_of_the_last_moves_asked_for(api) -> None:
    """A benchmark asks for the moves of its window only: the slow moves before it (a setup)
    are left out of the percentiles."""
    authority = api.app.state.manager.authority
    authority.move_times.extend([900.0, 800.0, 2.0, 4.0, 3.0])
    whole = api.get("/api/stats").json()["move_ms"]
    assert whole["max"] == 900.0 and whole["last"] == 5
    window = api.get("/api/stats", params={"last_moves": 3}).json()["move_ms"]
    assert window == {"p50": 3.0, "p90": 4.0, "p99": 4.0, "max": 4.0, "last": 3}
    assert api.get("/api/stats", params={"last_moves": 0}).json()["move_ms"]["last"] == 0
    assert api.get("/api/stats", params={"last_moves": "x"}).status_code == 422
