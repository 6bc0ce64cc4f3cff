"""Hidden information: every frame a connection receives is inspected. A seat gets exactly the
engine's `view(seat)` (a spectator `view(None)`), never another seat's hand, treasures or
mission, never the draw pile's order or the seed, and the last action only as far as that
seat may know it."""

from __future__ import annotations

import json
import random

import pytest
from web_helpers import (
    client, create, receive, receive_until, seat_socket, game_socket, sqlite_url, walk,
)

import boardwright as bw
from boardwright.web.position import last_action, visible_scores

SECRET_KEYS = {"pile", "draw_pile", "draw_order", "seed", "deck_order", "token", "token_hash"}


@pytest.fixture
def api(tmp_path):
    # Whole games at machine speed: the rate limit is raised (it has its own tests).
    with client(sqlite_url(tmp_path), rate_limit=100_000) as test_client:
        yield test_client


def play_out(api, created, seed: int, max_steps: int = 2000):
    """Both seats and a spectator connected; random legal moves until the end. Returns every
    frame each connection received, and the final record."""
    game_id = created["id"]
    rng = random.Random(seed)
    frames = {who: [] for who in (0, 1, None)}
    with seat_socket(api, created, 0) as ws0, seat_socket(api, created, 1) as ws1, \
            game_socket(api, game_id) as spectator:
        sockets = {0: ws0, 1: ws1, None: spectator}
        latest = {who: receive(ws) for who, ws in sockets.items()}
        for who in sockets:
            frames[who].append(latest[who])
        step = 0
        while latest[None]["status"] != "finished" and step < max_steps:
            mover = latest[None]["current_player"]
            mine = latest[mover]
            assert mine["step"] == step and mine["legal_actions"]
            action = rng.choice(mine["legal_actions"])
            sockets[mover].send_json({"type": "move", "action": action, "step": step})
            step += 1
            for who, ws in sockets.items():
                latest[who] = receive_until(ws, lambda f: f["type"] == "state"
                                            and f["step"] == step, seen=frames[who])
    record = api.app.state.storage.get(game_id)
    return frames, record


def engine_views(record):
    """view(seat) for seats 0, 1 and None at every step, by the engine alone."""
    game = bw.load(record["game"], record["players"], record["options"])
    state = game.new_game(record["seed"])
    views = [{s: state.view(s) for s in (0, 1, None)}]
    states = [state.clone()]
    for data in record["record"]:
        state.apply(game.action_from_json(data))
        views.append({s: state.view(s) for s in (0, 1, None)})
        states.append(state.clone())
    return views, states


def secret_names(game, data) -> set[str]:
    """The id and the name of every value the game hides in the action `data` from others."""
    action = game.action_from_json(data)
    full = action.to_json()
    hidden = set(full) - set(game.public_action(action, 0, None))
    names = set()
    for key in hidden:
        value = full[key]
        names.add(str(value))
        for table in (getattr(game, "treasure", {}), getattr(game, "catalogue", {})):
            if value in table:
                names.add(table[value].name)
    return names


def check_last_actions(frames, record, states) -> int:
    """Every frame's last action is the game's public form of the recorded action for that
    connection (whole for its actor, without the secret fields for the others), and its text
    names none of what was left out. Returns how many were redacted."""
    game = bw.load(record["game"], record["players"], record["options"])
    redacted = 0
    for who, received in frames.items():
        for frame in (f for f in received if f["type"] == "state"):
            step, last = frame["step"], frame["last_action"]
            if step == 0:
                assert last is None
                continue
            data = record["record"][step - 1]
            actor = states[step - 1].current_player
            action = game.action_from_json(data)
            assert last["seat"] == actor
            assert last["action"] == game.public_action(action, actor, who)
            if who == actor:
                assert last["action"] == data
            elif last["action"] != data:
                redacted += 1
                assert last["text"] == game.describe_action(action, who, actor)
                for name in secret_names(game, data):
                    assert name not in last["text"] and name not in json.dumps(last)
    return redacted


def check_common(frames, record, views, states) -> None:
    for who, received in frames.items():
        assert received, who
        for frame in received:
            if frame["type"] != "state":
                continue
            step = frame["step"]
            assert frame["seat"] == who
            assert frame["view"] == views[step][who]
            state = states[step]
            if who is None or state.is_terminal or state.current_player != who:
                assert frame["legal_actions"] == [] and frame["descriptions"] == []
            else:
                assert frame["legal_actions"] == [a.to_json() for a in state.legal_actions()]
            for key, value in walk(frame):
                assert key not in SECRET_KEYS, (key, frame["step"])
                if isinstance(value, int) and not isinstance(value, bool):
                    assert value != record["seed"]
            assert record["seed"] not in json.dumps(frame) if isinstance(record["seed"], str) \
                else True


def test_shogun_hands_treasures_and_missions_stay_with_their_owner(api) -> None:
    created = create(api, "shogun", ["human", "human"], seed=987_654_321,
                     options={"max_rounds": 4})
    frames, record = play_out(api, created, seed=2)
    assert record["status"] == "finished"
    views, states = engine_views(record)
    check_common(frames, record, views, states)
    hidden_moves = cards_seen = 0
    for who, received in frames.items():
        for frame in (f for f in received if f["type"] == "state"):
            view = frame["view"]
            state = states[frame["step"]]
            if not view["is_terminal"]:
                for seat in (0, 1):
                    if seat == who:
                        continue
                    assert view["seats"][seat]["treasures"] is None
                    assert view["seats"][seat]["mission"] is None
                    if view["cards"] is None:  # the set-up: no cards dealt yet
                        continue
                    cards_seen += 1
                    assert view["cards"][seat]["hand"] is None
                    hand = state.table.players[seat].hand
                    assert view["cards"][seat]["hand_size"] == len(hand)
                # the scores shown are the public ones (face-down treasures not counted)
                assert frame["scores"] == [s["vp"] for s in view["seats"]]
                for seat in (0, 1):
                    if seat != who:
                        assert frame["scores"][seat] == state.public_vp(seat)
            last = frame["last_action"]
            if last is not None and last["action"]["type"] in (
                    "keep_treasure", "return_treasure", "discard_treasure", "defy"):
                if last["seat"] != who:
                    hidden_moves += 1
                    assert "treasure" not in last["action"]
                    assert last["text"].endswith("a treasure")
                else:
                    assert "treasure" in last["action"]
    assert cards_seen > 100
    assert check_last_actions(frames, record, states) == hidden_moves
    # the test game does have hidden moves to check (the seed was chosen for it)
    assert hidden_moves > 0


def test_carcassonne_draw_pile_never_appears_in_any_frame(api) -> None:
    created = create(api, "carcassonne", ["human", "human"], seed=123_456_789)
    frames, record = play_out(api, created, seed=3)
    assert record["status"] == "finished"
    views, states = engine_views(record)
    check_common(frames, record, views, states)
    assert check_last_actions(frames, record, states) == 0  # nothing is secret in Carcassonne
    for who, received in frames.items():
        for frame in (f for f in received if f["type"] == "state"):
            pile = list(states[frame["step"]].pile)
            if len(pile) < 3:
                continue
            order = [pile, pile[::-1]]
            for key, value in walk(frame):
                if isinstance(value, list) and len(value) >= 3:
                    assert value not in order, key  # the order of the pile, in any list
            text = json.dumps(frame)
            assert json.dumps(pile) not in text and json.dumps(pile[::-1]) not in text
            assert "".join(pile[-6:]) not in text.replace('"', "")


def test_queens_frames_are_the_engine_views(api) -> None:
    created = create(api, "queens", ["human", "human"], seed=77)
    frames, record = play_out(api, created, seed=9, max_steps=60)
    views, states = engine_views(record)
    check_common(frames, record, views, states)
    assert check_last_actions(frames, record, states) == 0  # nothing is secret in Queens


def test_last_action_of_a_hidden_move_is_redacted_for_the_others(api) -> None:
    created = create(api, "shogun", ["human", "human"], seed=1)
    live = api.app.state.manager.games[created["id"]]
    game = live.game
    keep = game.action_from_json({"type": "keep_treasure", "treasure": "t_oni"})
    live.last = last_action(game, live.state, keep, 0, live.describe)
    mine = live.last_action_for(0)
    assert mine["action"] == {"type": "keep_treasure", "treasure": "t_oni"}
    assert game.treasure["t_oni"].name in mine["text"]
    for viewer in (1, None):
        shown = live.last_action_for(viewer)
        assert shown == {"seat": 0, "action": {"type": "keep_treasure"},
                         "text": "keep a treasure"}
        frame = json.dumps(live.state_frame(viewer))
        assert "t_oni" not in frame and game.treasure["t_oni"].name not in frame
    move = game.action_from_json({"type": "move", "space": "izu"})
    live.last = last_action(game, live.state, move, 0, live.describe)
    assert live.last_action_for(1)["action"] == {"type": "move", "space": "izu"}


def test_a_bots_secret_choice_never_reaches_the_human_seat(api) -> None:
    """A human against a bot: the bot's kept, returned and discarded treasures are named in
    none of the human's or a spectator's frames while the game runs."""
    created = create(api, "shogun", ["human", "greedy"], seed=18, options={"max_rounds": 3})
    game_id = created["id"]
    rng = random.Random(5)
    frames: dict[int | None, list] = {0: [], None: []}
    with seat_socket(api, created, 0) as ws, game_socket(api, game_id) as spectator:
        latest = receive(ws)
        frames[0].append(latest)
        frames[None].append(receive(spectator))
        while latest["status"] != "finished":
            if latest["current_player"] == 0 and latest["legal_actions"]:
                ws.send_json({"type": "move", "action": rng.choice(latest["legal_actions"]),
                              "step": latest["step"]})
            step = latest["step"]
            latest = receive_until(ws, lambda f: f["type"] == "state" and f["step"] > step)
            frames[0].append(latest)
        receive_until(spectator, lambda f: f["type"] == "state"
                      and f["step"] == latest["step"], seen=frames[None])
    record = api.app.state.storage.get(game_id)
    game = bw.load("shogun", 2, record["options"])
    state = game.new_game(record["seed"])
    secrets_of_bot = 0
    for step, data in enumerate(record["record"]):
        if state.current_player == 1 and game.hides_from(game.action_from_json(data), 1, 0):
            secrets_of_bot += 1
            for who, received in frames.items():
                for frame in received:
                    if frame["type"] != "state" or frame["status"] == "finished":
                        continue  # the end shows every treasure
                    last = frame["last_action"]
                    if frame["step"] == step + 1:
                        assert last["action"] == {"type": data["type"]}, (who, last)
                        assert last["text"] == game.describe_action(
                            game.action_from_json(data), who, 1)
        state.apply(game.action_from_json(data))
    assert secrets_of_bot > 0  # the seed was chosen so that the bot has secrets to keep


def test_visible_scores_prefer_what_the_view_shows() -> None:
    state = bw.load("shogun", 2, {}).new_game(1)
    view = state.view(None)
    assert visible_scores(state, view) == [s["vp"] for s in view["seats"]]
    carcassonne = bw.load("carcassonne", 2).new_game(1)
    assert visible_scores(carcassonne, carcassonne.view(None)) == carcassonne.scores
