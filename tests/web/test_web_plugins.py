"""The web table with a game and agents of one's own: the example game of examples/goofspiel
(found through its entry point) played against an agent the server offers, the lobby refusing
agents it does not offer, and an agent registered by a call reaching the spawned bot workers."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from plugin_agents import FirstLegalAgent
from web_helpers import client, create, receive, receive_until, seat_socket, sqlite_url

import boardwright as bw

OPTIONS = {"cards": 5}


def test_the_web_table_plays_it_against_an_offered_plugin_agent(tmp_path: Path) -> None:
    with client(sqlite_url(tmp_path), agents=["matcher"], rate_limit=100_000) as api:
        catalog = api.get("/api/catalog").json()
        entry = next(g for g in catalog["games"] if g["name"] == "goofspiel")
        assert entry["players"] == [2, 3, 4] and "matcher" in entry["agents"]
        assert entry["options_help"]["cards"].startswith("cards per hand")
        created = create(api, "goofspiel", ["human", "matcher"], options=OPTIONS, seed=5)
        rng = random.Random(3)
        with seat_socket(api, created, 0) as ws:
            frame = receive(ws)
            while frame["status"] != "finished":
                if frame["current_player"] == 0:
                    assert all(d.startswith("bid ") for d in frame["descriptions"])
                    action = rng.choice(frame["legal_actions"])
                    ws.send_json({"type": "move", "action": action, "step": frame["step"]})
                step = frame["step"]
                frame = receive_until(ws, lambda f: f["type"] == "state" and f["step"] > step)
                last = frame["last_action"]
                if last and last["seat"] == 1 and frame["status"] != "finished":
                    assert last["action"] == {"type": "bid"}  # the bot's bid stays face down
        record = api.app.state.storage.get(created["id"])
        state = bw.replay({"game": "goofspiel", "version": "1", "options": record["options"],
                           "seed": record["seed"], "players": 2, "actions": record["record"]})
        assert state.is_terminal and frame["scores"] == state.scores
        assert frame["view"] == state.view(0)


def test_the_web_table_offers_only_what_the_server_allows(
        tmp_path: Path, own_agent_registry: None) -> None:
    bw.register_agent("first", FirstLegalAgent)  # registered in the server, yet not offered
    with client(sqlite_url(tmp_path)) as api:
        for seat in ("matcher", "matcher:offset=1", "first"):
            response = api.post("/api/games", json={"game": "goofspiel",
                                                    "seats": ["human", seat]})
            assert response.status_code == 400
            assert f"agent '{seat.partition(':')[0]}' is not offered on this server" in \
                response.json()["error"]
        assert "matcher" not in api.get("/api/catalog").json()["games"][0]["agents"]
    with client(sqlite_url(tmp_path, "b.db"), agents=["matcher"]) as api:
        response = api.post("/api/games", json={"game": "goofspiel",
                                                "seats": ["human", "matcher:offset=1"]})
        assert response.status_code == 400  # only the string offered, not its variations
    with pytest.raises(bw.InvalidOptionError, match="unknown agent 'nobody'"):
        client(sqlite_url(tmp_path, "c.db"), agents=["nobody"]).__enter__()


def test_spawned_bot_workers_play_an_agent_registered_by_a_call(
        tmp_path: Path, own_agent_registry: None) -> None:
    """The web table's bot workers are spawned: the registration reaches them with each job."""
    bw.register_agent("first", FirstLegalAgent, parameters={"last": bool})
    with client(sqlite_url(tmp_path), agents=["first:last=on"], bot_mode="process",
                rate_limit=100_000) as api:
        created = create(api, "goofspiel", ["human", "first:last=on"], options=OPTIONS, seed=2)
        with seat_socket(api, created, 0) as ws:
            frame = receive_until(ws, lambda f: f["type"] == "state")
            ws.send_json({"type": "move", "action": {"type": "bid", "card": 3}, "step": 0})
            frame = receive_until(ws, lambda f: f["type"] == "state" and f["step"] == 2)
        assert frame["view"]["rounds"][0]["bids"] == [3, 5]  # the bot bid its last card
