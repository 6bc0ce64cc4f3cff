"""The game-agnostic API for Queens: records and replay, clone, determinize, view, action ids,
scores and returns, the heuristic."""

from __future__ import annotations

import json
import random

import pytest
from queens_helpers import BLUE, RED, custom, move, new_game, seat

import boardwright as bw
from boardwright.games.queens import Found, Joint, Move, Pass, Sow
from boardwright.games.queens.state import QueensState


def random_game(players: int = 2, seed: int = 0, options: dict | None = None,
                limit: int | None = None) -> QueensState:
    state = bw.load("queens", players, options or {}).new_game(seed)
    rng = random.Random(seed)
    while not state.is_terminal and (limit is None or state.turn < limit):
        state.apply(rng.choice(state.legal_actions()))
    return state  # type: ignore[return-value]


def test_queens_is_registered() -> None:
    assert "queens" in bw.available_games()
    game = bw.load("queens")
    assert game.name == "queens" and game.num_players == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_record_round_trip_replays_to_the_same_state(players: int, tmp_path) -> None:
    state = random_game(players, seed=players)
    state.meta["seats"] = ["random"] * players
    path = tmp_path / "game.json"
    state.record.save(path)
    record = bw.GameRecord.load(path)
    assert record.game == "queens" and record.players == players
    again = bw.replay(record)
    assert again == state
    assert again.scores == state.scores and again.winners == state.winners
    # every prefix replays too
    middle = bw.replay(record, steps=len(record.actions) // 2)
    assert middle.turn == len(record.actions) // 2


def test_a_custom_position_is_recorded_and_replays() -> None:
    state = custom(seat((0, 4), princes=[(3, 1)]), seat((0, -4), fields=[(3, 0)]))
    state.apply(move((3, 1), (3, 0)))
    state.apply(move((0, -4), (0, -3)))
    record = json.loads(state.record.dumps())
    assert "position" in record["options"]
    assert bw.replay(record) == state


def test_a_record_that_does_not_replay_is_corrupt() -> None:
    state = new_game()
    state.apply(move((0, 4), (0, 2)))
    data = state.record.to_json()
    data["actions"].append({"type": "move", "from": [0, 2], "to": [0, -2]})
    with pytest.raises(bw.CorruptRecordError, match="action #1 does not replay"):
        bw.replay(data)


def test_clone_is_independent() -> None:
    state = new_game()
    state.meta["seats"] = ["human", "random"]
    other = state.clone()
    assert other == state and other is not state
    other.apply(other.legal_actions()[0])
    other.meta["seats"] = ["x", "y"]
    assert state.turn == 0 and state.history == []
    assert state.meta == {"seats": ["human", "random"]}
    assert state.signature() == new_game().signature()


def test_determinize_returns_a_clone() -> None:
    state = random_game(limit=20)
    copy = state.determinize(RED, random.Random(1))
    assert copy is not state and copy == state
    copy.apply(copy.legal_actions()[0])
    assert copy != state


def test_view_is_public_json_and_the_same_for_everyone() -> None:
    state = random_game(limit=15)
    views = [state.view(seat_) for seat_ in (None, RED, BLUE)]
    for view in views:
        json.dumps(view)
    mover = state.current_player
    assert "legal_actions" in views[mover + 1]
    assert "legal_actions" not in views[0] and "legal_actions" not in views[2 - mover]
    strip = [{k: v for k, v in v.items() if k not in ("viewer", "legal_actions")} for v in views]
    assert strip[0] == strip[1] == strip[2]
    actions = [state.game.action_from_json(a) for a in views[mover + 1]["legal_actions"]]
    assert actions == state.legal_actions()
    with pytest.raises(bw.BoardwrightError, match="no seat 7"):
        state.view(7)


def test_view_position_can_start_a_new_game() -> None:
    state = random_game(limit=25)
    position = state.view(None)["position"]
    again = new_game(position=position)
    assert again.legal_actions() == state.legal_actions()
    assert again.scores == state.scores
    assert again.position() == state.position()


def test_scores_and_returns() -> None:
    state = new_game()
    assert state.scores == [14, 14]  # 0 Fields, 1 City, 4 Princes
    assert state.returns() == [0.0, 0.0]
    state.apply(Sow((0, 3)))
    assert state.scores == [114, 14]
    assert state.returns() == [0.0, 0.0]  # the game is not over


@pytest.mark.parametrize("players", [2, 3, 4])
def test_action_ids_round_trip(players: int) -> None:
    game = bw.load("queens", players)
    rng = random.Random(players)
    seen_kinds = set()
    for seed in range(4):
        state = game.new_game(seed)
        while not state.is_terminal:
            actions = state.legal_actions()
            ids = [game.action_id(a) for a in actions]
            assert len(set(ids)) == len(ids)
            for action, action_id in zip(actions, ids):
                assert 0 <= action_id < game.num_distinct_actions
                assert game.action_from_id(action_id) == action
                assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action
                seen_kinds.add(type(action))
            state.apply(rng.choice(actions))
    assert {Move, Sow} <= seen_kinds


def test_every_action_id_decodes_or_is_reported_unused() -> None:
    game = bw.load("queens", 2)
    used = 0
    for action_id in range(game.num_distinct_actions):
        try:
            action = game.action_from_id(action_id)
        except bw.MalformedActionError as exc:
            assert "not used" in str(exc)
            continue
        used += 1
        assert game.action_id(action) == action_id
    board = game.board
    n = len(board.spaces)
    joints = sum(len(board.near[t]) * (len(board.near[t]) - 1) // 2 for t in board.spaces)
    assert used == n * n + joints + n + 2
    assert game.action_from_id(game.num_distinct_actions - 1) == Pass()
    assert game.action_from_id(game.num_distinct_actions - 2) == Found()
    for bad in (-1, game.num_distinct_actions, "3", 2.0, True):
        with pytest.raises(bw.MalformedActionError):
            game.action_from_id(bad)  # type: ignore[arg-type]


def test_action_ids_reject_actions_without_an_id() -> None:
    game = bw.load("queens", 2)
    assert game.action_id(Joint((0, 4), (0, -4), (0, 0))) > 0  # both 4 steps from (0,0)
    with pytest.raises(bw.MalformedActionError, match="1 to 4 steps"):
        game.action_id(Joint((0, 5), (0, 3), (0, 0)))  # (0,5) is 5 steps away
    with pytest.raises(bw.MalformedActionError, match="1 to 4 steps"):
        game.action_id(Joint((0, 3), (0, 3), (0, 0)))
    with pytest.raises(bw.MalformedActionError, match="off the board"):
        game.action_id(Sow((9, 9)))
    with pytest.raises(bw.MalformedActionError, match="not a Queens action"):
        game.action_id("move")


def test_describe_action() -> None:
    game = bw.load("queens", 2)
    assert game.describe_action(Move((0, 4), (0, 2))) == "move j15 → h13"
    assert game.describe_action(Joint((0, 2), (-1, 3), (-1, 2))) == \
        "joint attack i12 + h13 → h11"
    assert game.describe_action(Sow((0, 3))) == "sow a Field on i14"
    assert game.describe_action(Found()) == "found a City"
    assert game.describe_action(Pass()) == "pass"


def test_heuristic_is_a_value_per_seat() -> None:
    game = bw.load("queens", 2)
    state = game.new_game(0)
    values = game.heuristic(state)
    assert len(values) == 2 and all(isinstance(v, float) for v in values)
    assert values[RED] == pytest.approx(values[BLUE] + 0.0, abs=2.0)  # symmetric start
    sown = state.clone()
    sown.apply(Sow((0, 3)))
    assert game.heuristic(sown)[RED] > values[RED]  # a Field is worth something


def test_heuristic_sees_a_queen_in_danger_and_the_end() -> None:
    # Blue to move; two Blue Princes next to their Queen can take the Red Queen on a plain
    danger = custom(seat((0, 3)), seat((0, 1), princes=[(1, 2), (-1, 3)]), to_play=BLUE)
    safe = custom(seat((0, 3)), seat((0, -4), princes=[(1, 2), (-1, 3)]), to_play=BLUE)
    game = danger.game
    assert game.heuristic(danger)[RED] < game.heuristic(safe)[RED] - 20
    danger.apply(Joint((-1, 3), (1, 2), (0, 3)))
    assert danger.is_terminal
    assert game.heuristic(danger) == [-1000.0, 1000.0]
