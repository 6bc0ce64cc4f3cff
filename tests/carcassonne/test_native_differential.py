"""The native engine against the Python reference, step by step, over hundreds of games (thousands in a deep run)."""

from __future__ import annotations

import random

import pytest


from native_support import needs_native, play_lockstep, random_config  # noqa: E402
from sizes import sized  # noqa: E402

pytestmark = needs_native

# Batches of 50 games (about 10 s each alone here, several times that beside the other test
# workers), so that the workers can share them out more evenly (tests/sizes.py).
BATCHES = sized(4)
GAMES = 50 * BATCHES


@pytest.mark.parametrize("batch", range(BATCHES))
def test_random_games_agree_at_every_step(batch: int) -> None:
    """200 seeded random games (at scale 1) over random configurations (1-6 players, every
    option value, with and without Abbey & Mayor): at every step the same legal actions in the same order,
    current player, scores, the mover's view (with the scoring log), the full signature (the
    actions so far included); every seat's and the spectator's views every tenth step and at
    the end; the record at the end."""
    per_batch = GAMES // BATCHES
    for game in range(batch * per_batch, (batch + 1) * per_batch):
        players, options = random_config(random.Random(game))
        play_lockstep(players, options, seed=game, all_views=game % 50 == 0)
