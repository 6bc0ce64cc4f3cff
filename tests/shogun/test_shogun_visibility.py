"""What other seats may know of a Rise of the Shogun action: the game's `public_action`, its
texts, and the engine's own log, over whole random games."""

from __future__ import annotations

import json
import random

import pytest

import boardwright as bw
from boardwright.games.shogun.visibility import SECRET_ACTIONS

TREASURE_ACTIONS = ("keep_treasure", "return_treasure", "discard_treasure", "defy")


def random_games(seeds: range, players: int = 2, max_rounds: int = 6):
    """(state before, action, actor) for every action of random games."""
    game = bw.load("shogun", players, {"max_rounds": max_rounds})
    for seed in seeds:
        state = game.new_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            action = rng.choice(state.legal_actions())
            yield state, action, state.current_player
            state.apply(action)


@pytest.mark.rule("SHO-SHRINE-05", "SHO-DUEL-26")
def test_treasure_choices_are_whole_for_their_seat_only() -> None:
    game = bw.load("shogun", 3)
    for kind in TREASURE_ACTIONS:
        action = game.action_from_json({"type": kind, "treasure": "t_oni"})
        name = game.treasure["t_oni"].name
        assert game.public_action(action, 1, 1) == action.to_json()
        assert game.public_action(action, 1, bw.OMNISCIENT) == action.to_json()
        assert name in game.describe_action(action, 1, 1)  # by its printed name
        for viewer in (0, 2, None):
            assert game.public_action(action, 1, viewer) == {"type": kind}
            assert game.hides_from(action, 1, viewer)
            text = game.describe_action(action, viewer, 1)
            assert text == SECRET_ACTIONS[kind].text
            assert name not in text and "t_oni" not in text
        # without a known actor nothing secret is shown
        assert game.describe_action(action) == SECRET_ACTIONS[kind].text


def test_every_secret_field_is_a_field_of_its_action() -> None:
    # a sample of each secret action (a new secret action adds its own here)
    samples = {kind: {"type": kind, "treasure": "t_oni"} for kind in TREASURE_ACTIONS}
    game = bw.load("shogun", 2)
    assert set(SECRET_ACTIONS) <= set(samples)
    for kind, secret in SECRET_ACTIONS.items():
        action = game.action_from_json(samples[kind])
        assert set(secret.fields) <= set(action.to_json()), kind
        assert game.secret_fields(action) == secret.fields


def test_public_actions_stay_whole_for_everyone() -> None:
    game = bw.load("shogun", 2)
    seen = set()
    for state, action, actor in random_games(range(3), max_rounds=3):
        data = action.to_json()
        if data["type"] in SECRET_ACTIONS:
            continue
        seen.add(data["type"])
        for viewer in (0, 1, None):
            assert game.public_action(action, actor, viewer) == data
    # cards played, discarded or picked go to piles everyone sees: public
    assert {"move", "discard_card"} <= seen


def test_the_engine_log_names_no_secret_choice() -> None:
    """The log is part of every seat's view: the entries a secret action adds never carry
    what the action hides."""
    game = bw.load("shogun", 2)
    secrets = 0
    for state, action, actor in random_games(range(12)):
        hidden = set(action.to_json()) - set(game.public_action(action, actor, None))
        if not hidden:
            continue
        secrets += 1
        before = len(state.log)
        after = state.clone()
        after.apply(action)
        added = json.dumps(after.log[before:])
        for key in hidden:
            value = action.to_json()[key]
            assert json.dumps(value) not in added, (action, after.log[before:])
    assert secrets > 5
