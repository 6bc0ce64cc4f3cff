"""The native heuristic, evaluation and position features against the Python ones."""

from __future__ import annotations

import random

import pytest


from native_support import needs_native, random_config  # noqa: E402

from boardwright.games.carcassonne.game import CarcassonneGame  # noqa: E402
from boardwright.games.carcassonne.position_features import seat_features  # noqa: E402
from boardwright.games.carcassonne.state import CarcassonneState  # noqa: E402

pytestmark = [needs_native, pytest.mark.engines(reason="names its engines itself")]
TOLERANCE = 1e-9


def close(mine: list[float], theirs: list[float]) -> bool:
    return len(mine) == len(theirs) and all(abs(a - b) <= TOLERANCE for a, b in zip(mine, theirs))


@pytest.mark.parametrize("game_index", range(24))
def test_values_agree_at_every_step_of_random_games(game_index: int) -> None:
    """Heuristic, evaluation and every seat's feature vector, to 1e-9, at every step of a
    random game over a random configuration (farmers, barns, mayors, wagons, abbeys)."""
    players, options = random_config(random.Random(10_000 + game_index))
    game = CarcassonneGame(players, options, engine="native")
    state = game.new_game(game_index)
    rng = random.Random(game_index)
    while True:
        twin = state.to_python()
        assert type(twin) is CarcassonneState
        assert close(game.heuristic(state), game.heuristic(twin))
        assert close(game.evaluation(state), game.evaluation(twin))
        for mine, theirs in zip(state.seat_features(), seat_features(twin)):
            assert close(mine, theirs)
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
