"""The game API's one redaction of actions: `public_action` / `describe_action` for a viewer.
Carcassonne and Queens keep nothing secret (a drawn tile is shown to all, Queens has no hidden
information): every action is whole for every viewer."""

from __future__ import annotations

import random

import pytest

import boardwright as bw

pytestmark = pytest.mark.usefixtures("carcassonne_engine")  # on each Carcassonne engine


@pytest.mark.parametrize("name, options", [("carcassonne", {}), ("queens", {})])
def test_games_without_secrets_show_every_action_whole(name: str, options: dict) -> None:
    game = bw.load(name, 2, options)
    for seed in range(2):
        state = game.new_game(seed)
        rng = random.Random(seed)
        for _ in range(120):
            if state.is_terminal:
                break
            action = rng.choice(state.legal_actions())
            actor = state.current_player
            for viewer in (0, 1, None, bw.OMNISCIENT):
                assert game.public_action(action, actor, viewer) == action.to_json()
                assert not game.hides_from(action, actor, viewer)
                assert game.describe_action(action, viewer, actor) == game.action_text(action)
            state.apply(action)


class _Secretive(bw.Game):
    """A stand-in game whose "take" actions hide their card (only the API is exercised)."""

    name = "secretive"

    def new_game(self, seed=None):  # pragma: no cover - not used
        raise NotImplementedError

    def action_from_json(self, data):  # pragma: no cover - not used
        raise NotImplementedError

    def action_id(self, action):  # pragma: no cover - not used
        raise NotImplementedError

    def action_from_id(self, action_id):  # pragma: no cover - not used
        raise NotImplementedError

    @property
    def num_distinct_actions(self) -> int:  # pragma: no cover - not used
        return 0

    def secret_fields(self, action):
        return ("card",) if action.to_json()["type"] == "take" else ()


class _Take:
    def to_json(self):
        return {"type": "take", "card": "ace", "pile": 2}


def test_the_default_redaction_leaves_out_the_secret_fields_for_everyone_but_the_actor() -> None:
    game = _Secretive(3, {})
    take = _Take()
    assert game.public_action(take, 1, 1) == take.to_json()
    assert game.public_action(take, 1, bw.OMNISCIENT) == take.to_json()
    for viewer in (0, 2, None):
        assert game.public_action(take, 1, viewer) == {"type": "take", "pile": 2}
    assert game.public_action(take, None, 1) == {"type": "take", "pile": 2}  # unknown actor
    assert "ace" in game.describe_action(take, 1, 1)
    assert "ace" not in game.describe_action(take, 0, 1)
    assert "ace" not in game.describe_action(take)  # the default reader is a spectator
    assert game.describe_action(take, 0, 1) == "take pile=2 (hidden)"


class _Position:
    """A position of `_Secretive` in which seat 1 is to move (all `describe` reads)."""

    current_player = 1


def test_the_default_describe_words_the_move_of_the_seat_to_move_for_the_viewer() -> None:
    """`Game.describe` (a game without words of its own): the seat to move is the actor, who
    reads the whole action; every other viewer reads its public form."""
    game = _Secretive(3, {})
    take, state = _Take(), _Position()
    assert game.describe(state, take, 1) == game.describe_action(take, 1, 1)
    assert "ace" in game.describe(state, take, 1)
    assert "ace" in game.describe(state, take, bw.OMNISCIENT)
    for viewer in (0, 2, None):
        assert game.describe(state, take, viewer) == "take pile=2 (hidden)"
