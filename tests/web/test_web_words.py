"""The table speaks in the games' own words: every frame's menu texts and last move are the
game's `describe` for that connection (secrets worded without the secret for the others), the
views carry the game's scoring and event lines, and a replay words each move as the game does
for the reader of a finished record."""

from __future__ import annotations

import random

import pytest
from web_helpers import (
    client, create, engine_state, receive, receive_until, seat_socket, game_socket, sqlite_url,
)

import boardwright as bw
from boardwright.games.carcassonne.texts import scoring_line, seat_names

SHORT_PILE = ["E", "U", "V", "J", "D", "K", "B", "W", "L", "A"]
NAMES = seat_names(bw.load("carcassonne", 2, {}))


@pytest.fixture
def api(tmp_path):
    with client(sqlite_url(tmp_path), rate_limit=100_000) as test_client:
        yield test_client


def play_and_check(api, created: dict, steps: int, seed: int) -> int:
    """Both seats and a spectator connected, random legal moves for `steps` steps (or to the
    end); each state frame is checked against the game's words in the engine's position.
    Returns how many last moves were worded without a secret for a connection."""
    game_id = created["id"]
    storage = api.app.state.storage
    rng = random.Random(seed)
    hidden = 0
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1, \
            game_socket(api, game_id) as spectator:
        sockets = {0: ws0, 1: ws1, None: spectator}
        latest = {who: receive(ws) for who, ws in sockets.items()}
        step = 0
        while latest[None]["status"] != "finished" and step < steps:
            state = engine_state(storage, game_id, step)
            game = state.game
            mover = latest[None]["current_player"]
            mine = latest[mover]
            actions = [game.action_from_json(a) for a in mine["legal_actions"]]
            assert mine["descriptions"] == [game.describe(state, a, mover) for a in actions]
            choice = rng.randrange(len(actions))
            sockets[mover].send_json({"type": "move", "action": mine["legal_actions"][choice],
                                      "step": step})
            step += 1
            for who, ws in sockets.items():
                latest[who] = receive_until(ws, lambda f: f["type"] == "state"
                                            and f["step"] == step)
                text = latest[who]["last_action"]["text"]
                assert text == game.describe(state, actions[choice], who)
                if game.hides_from(actions[choice], mover, who):
                    hidden += 1
                    assert text == game.describe_action(actions[choice], who, mover)
    return hidden


def test_carcassonne_frames_carry_its_move_words_and_scoring_lines(api) -> None:
    created = create(api, "carcassonne", ["human", "human"],
                     options={"draw_order": SHORT_PILE}, seed=3)
    assert play_and_check(api, created, steps=40, seed=3) == 0  # nothing secret here
    with game_socket(api, created["id"]) as ws:
        frame = receive(ws)
    log = frame["view"]["log"]
    assert log, "the short game scored something"
    assert [entry["text"] for entry in log] == [scoring_line(entry, NAMES) for entry in log]
    if frame["status"] == "finished":
        scorings = frame["table"]["final"]["scorings"]
        assert [s["text"] for s in scorings] == [scoring_line(s, NAMES) for s in scorings]


def test_shogun_frames_word_a_hidden_move_without_its_secret(api) -> None:
    # the game of test_web_hidden, which has secret moves (a treasure kept or given back)
    created = create(api, "shogun", ["human", "human"], seed=987_654_321,
                     options={"max_rounds": 4})
    assert play_and_check(api, created, steps=2000, seed=2) > 0


def test_a_replay_words_every_move_for_the_reader_of_the_record(api) -> None:
    created = create(api, "carcassonne", ["random", "random"],
                     options={"draw_order": SHORT_PILE}, seed=5)
    game_id = created["id"]
    with game_socket(api, game_id) as ws:
        receive_until(ws, lambda f: f["type"] == "state" and f["status"] == "finished",
                      timeout=120)
    replay = api.get(f"/api/games/{game_id}/replay").json()
    storage = api.app.state.storage
    for step, data in enumerate(replay["actions"]):
        state = engine_state(storage, game_id, step)
        action = state.game.action_from_json(data)
        assert replay["descriptions"][step] == state.game.describe(state, action, bw.OMNISCIENT)
    last = replay["frames"][-1]["log"]
    assert [entry["text"] for entry in last] == [scoring_line(entry, NAMES) for entry in last]
