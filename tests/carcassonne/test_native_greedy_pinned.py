"""Greedy choices of the compiled engine, pinned: the same positions and seeds give the same
actions, the same random draws (ties are broken by the generator, so a different draw shows
as a different later choice) and the same leaf values, to the last bit, as the build these
records were made with.

The greedy playouts are the MCTS bot's playouts; their code is tuned for speed (no copy of the
whole position per candidate, heuristic terms cached across candidates), and a tie decided
differently, or a value computed in another order of floating-point operations, would change
the bot's play without any rule being broken. Differential tests compare positions with the
Python engine, not the choices of the greedy playouts; these records do.

The records (`data/greedy_pinned.json`) hold one digest per case; they were written by
`python tests/carcassonne/test_native_greedy_pinned.py --record` on the build before that
tuning. The leaves are judged by the evaluation weights of that time, kept beside the records
(`data/pinned_weights/`), so that a refit of the shipped weights changes the bot, not these
records. About 10,000 greedy decisions in all (6,500 playout plies and 3,600 single choices);
the test takes about a second.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import boardwright as bw
from boardwright.core.game import PlayoutStop


from native_support import needs_native, random_config  # noqa: E402

pytestmark = [needs_native, pytest.mark.engines(reason="names its engines itself")]
RECORDS = Path(__file__).parent / "data" / "greedy_pinned.json"
PINNED_WEIGHTS = Path(__file__).parent / "data" / "pinned_weights"
AM = {"farmers": True, "expansions": ["abbey_mayor"]}
WHOLE_GAME = 10**6  # plies: a greedy playout that runs to the end of the game


def _configs() -> list[tuple[int, dict[str, Any]]]:
    """The search's usual games, then a spread of player counts and options."""
    fixed = [(2, AM), (4, AM), (3, {"farmers": True}), (5, AM), (1, AM)]
    rng = random.Random(20261126)
    return fixed + [random_config(rng) for _ in range(10)]


def pinned_weights(players: int = 2) -> Any:
    """The evaluation weights the records were made with: `default_weights`'s choice of file,
    from the copies kept beside the records."""
    from boardwright.games.carcassonne.evaluation import read_weights, weights_file

    return read_weights(weights_file(players, PINNED_WEIGHTS))


@pytest.fixture(autouse=True)
def _judged_by_the_pinned_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("boardwright.games.carcassonne.evaluation.default_weights",
                        pinned_weights)


def _digest(state: Any, values: list[float] | None = None, extra: Any = None) -> str:
    ids = [state.game.action_id(a) for a in state.history]
    text = json.dumps([ids, [float.hex(v) for v in values or []], extra])
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _midgame(game: bw.Game, seed: int, plies: int) -> Any:
    state = game.new_game(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


def compute_records() -> dict[str, str]:
    """Case name -> digest of what the greedy policy did there."""
    out: dict[str, str] = {}
    for index, (players, options) in enumerate(_configs()):
        game = bw.load("carcassonne", players, options, engine="native")
        tag = f"{index}:{players}:{json.dumps(options, sort_keys=True)}"
        # Whole greedy games from the deal.
        for seed in range(3 if index < 2 else 2):
            state = game.new_game(seed)
            values, _ = game.playout(state, "greedy", random.Random(seed),
                                     PlayoutStop(me=0, min_plies=WHOLE_GAME, turn_leaves=False))
            out[f"{tag} game {seed}"] = _digest(state, values)
        # The search's playouts (its stop: the horizon's turn start, the learned evaluation).
        horizon = 3 if players <= 2 else 2 if players <= 4 else 1  # as when recorded
        rng = random.Random(index)
        for seed in range(10):
            state = _midgame(game, 100 * index + seed, rng.randrange(0, 140))
            me = max(state.current_player, 0)
            values, terminal = game.playout(state, "greedy", rng,
                                            PlayoutStop(me, 0, True, 200 * horizon, horizon))
            out[f"{tag} playout {seed}"] = _digest(state, values, terminal)
        # Single greedy choices, several tie-breaking seeds per position.
        state = _midgame(game, 7 + index, 0)
        choices = []
        walk = random.Random(index)
        while not state.is_terminal and len(choices) < 240:
            choices += [state.greedy_action_id(s) for s in range(3)]
            state.apply(walk.choice(state.legal_actions()))
        out[f"{tag} choices"] = _digest(state, None, choices)
    return out


def test_greedy_playouts_choose_as_recorded() -> None:
    recorded = json.loads(RECORDS.read_text())
    now = compute_records()
    assert now.keys() == recorded.keys()
    differ = [case for case in recorded if now[case] != recorded[case]]
    assert not differ, differ


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    from boardwright.games.carcassonne import evaluation

    evaluation.default_weights = pinned_weights  # type: ignore[assignment]
    RECORDS.parent.mkdir(exist_ok=True)
    RECORDS.write_text(json.dumps(compute_records(), indent=1) + "\n")
