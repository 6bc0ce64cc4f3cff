"""What the tests of the native engine share: whether it must be there, random configurations
covering every option value, and a lock-step player of both engines."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from boardwright.games.carcassonne import native
from boardwright.games.carcassonne.game import CarcassonneGame

# The extension is built by every install with a compiler; only an install that was asked not to
# build it (BOARDWRIGHT_NATIVE=0) may run without it. Anywhere else its absence is a failure.
NATIVE_SKIPPED = os.environ.get("BOARDWRIGHT_NATIVE") == "0"
needs_native = pytest.mark.skipif(NATIVE_SKIPPED and not native.AVAILABLE,
                                  reason="BOARDWRIGHT_NATIVE=0: the native engine is not built")

BASE_TILES = "ABCDEFGHIJKLMNOPQRSTUVWX"


def random_config(rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A player count and options drawn over every option and value (draw orders and start
    tiles included), with and without Abbey & Mayor."""
    with_am = rng.random() < 0.6
    players = rng.randint(1, 6 if with_am else 5)
    options: dict[str, Any] = {}
    if rng.random() < 0.5:
        options["farmers"] = rng.random() < 0.7
    if rng.random() < 0.3:
        options["small_city_scoring"] = rng.choice(["standard", "first_edition"])
    if rng.random() < 0.3:
        options["starting_seat"] = rng.randrange(players)
    if rng.random() < 0.1:
        options["start_tile"] = rng.choice(BASE_TILES)
    if with_am:
        options["expansions"] = ["abbey_mayor"]
        options["abbey_mayor_tiles"] = rng.random() < 0.8
        for key in ("abbeys", "mayors", "wagons", "barns"):
            if rng.random() < 0.5:
                options[key] = rng.choice([0, 1, 1, 2, 3])
        if rng.random() < 0.5:
            options["abbey_end_of_game"] = rng.choice(
                ["mandatory_round", "none", "voluntary_round"])
        if rng.random() < 0.4:
            options["wagon_adjacency"] = "connected"
            options["wagon_traverse"] = rng.random() < 0.5
        if rng.random() < 0.2:
            options["mayor_lies_flat"] = True
    if rng.random() < 0.05:  # a short fixed game: every tile a city corner or a crossing
        options["draw_order"] = [rng.choice("EHIKLNRUVWX") for _ in range(rng.randint(0, 30))]
    return players, options


def both_engines(players: int, options: dict[str, Any]) -> tuple[CarcassonneGame, CarcassonneGame]:
    return (CarcassonneGame(players, options, engine="python"),
            CarcassonneGame(players, options, engine="native"))


def check_same(python: Any, native_state: Any, views: tuple[Any, ...]) -> None:
    """The two positions agree on everything the API shows, and on their full signatures."""
    where = f"turn {python.turn}, phase {python.phase}"
    assert native_state.signature() == python.signature(), where
    assert native_state.legal_actions() == python.legal_actions(), where
    assert native_state.current_player == python.current_player, where
    assert native_state.is_terminal == python.is_terminal, where
    assert native_state.at_turn_start == python.at_turn_start, where
    assert native_state.scores == python.scores, where
    if not views:  # (a view holds the scoring log)
        assert native_state.log == python.log, where
    for viewer in views:
        assert native_state.view(viewer) == python.view(viewer), (where, viewer)


def play_lockstep(players: int, options: dict[str, Any], seed: int,
                  all_views: bool = False) -> int:
    """Play one random game on both engines at once, checking them after every action;
    returns the number of actions."""
    python_game, native_game = both_engines(players, options)
    python = python_game.new_game(seed)
    native_state = native_game.new_game(seed)
    rng = random.Random(seed)
    steps = 0
    while True:
        # The mover's view at every step (it holds the log and the legal actions), every
        # seat's and the spectator's every tenth step, at the end, and throughout `all_views`.
        every = all_views or steps % 10 == 0 or python.is_terminal
        seats = tuple(range(players)) if every else (python.current_player,)
        viewers = ((None,) if every else ()) + tuple(s for s in seats if s >= 0)
        check_same(python, native_state, viewers)
        if python.is_terminal:  # (the actions so far are compared at every step: signature)
            assert native_state.record.to_json() == python.record.to_json()
            return steps
        actions = native_state.legal_actions()
        action = rng.choice(actions)
        python.apply(action.to_json() if rng.random() < 0.1 else action)
        native_state.apply(action)
        steps += 1
