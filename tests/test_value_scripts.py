"""The learned value's data and training scripts (benchmarks/value_data.py, train_value.py) and
the hints' calibration table (benchmarks/hint_calibration.py): the rows say what they claim,
the baseline they are measured against is the game's own evaluation, and the table's numbers
are those of its rows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from script_helpers import load_script

import boardwright as bw
from boardwright.rl.observations import encoder_for

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(
    bw.load("carcassonne").engine != "native", reason="the scripts play on the native engine")


def script(name: str):
    return load_script(ROOT / "benchmarks" / f"{name}.py", f"bench_{name}")


@pytest.fixture(scope="module")
def chunk(tmp_path_factory: pytest.TempPathFactory) -> dict[str, np.ndarray]:
    out = tmp_path_factory.mktemp("value")
    path = script("value_data").play_chunk((3, 2, 2, "abbey_mayor", 0.1, str(out), 0, 0))
    return dict(np.load(path))


def test_rows_are_turn_starts_of_the_mover_with_its_final_lead(chunk):
    rows = len(chunk["t"])
    assert chunk["hand"].shape == (rows, 2, 18) and chunk["pooled"].shape[0] == rows
    assert set(chunk["game"]) == {3, 4}
    # Relative seats: each row's first final score is the mover's; both orders occur.
    first = chunk["final"][chunk["game"] == 3]
    assert {tuple(f) for f in first} == {tuple(first[0]), tuple(first[0][::-1])}
    # The share of the pile falls from 1 as the game goes.
    t = chunk["t"][chunk["game"] == 3]
    assert t[0] == pytest.approx(1.0, abs=0.02) and np.all(np.diff(t) <= 0)


def test_the_first_row_is_the_opening_position_seen_by_the_first_player(chunk):
    game = bw.load("carcassonne", players=2, options={"expansions": ["abbey_mayor"]},
                   engine="native")
    state = game.new_game(3)
    encoder = encoder_for(game)
    obs = encoder.encode_state(state, state.current_player)
    pooled = np.concatenate([obs["board"].reshape(obs["board"].shape[0], -1).sum(axis=1),
                             obs["scalars"].astype(np.int64)])
    assert np.array_equal(chunk["pooled"][0], pooled)
    features = state.seat_features()
    assert np.allclose(chunk["hand"][0], [features[state.current_player],
                                          features[1 - state.current_player]])


def test_the_linear_baseline_is_the_games_evaluation():
    train = script("train_value")
    game = bw.load("carcassonne", players=3, options={"expansions": ["abbey_mayor"]},
                   engine="native")
    state = game.new_game(11)
    for _ in range(40):
        state._apply_id(state.greedy_action_id(5))
    while not state.at_turn_start:
        state._apply_id(state.greedy_action_id(5))
    mover, features = state.turn_player, state.seat_features()
    row = {"hand": np.array([[features[(mover + k) % 3] for k in range(3)]], dtype=np.float32),
           "t": np.array([len(state.pile) / game.pile_size], dtype=np.float32)}
    values = state.evaluation()
    expected = np.array([values[(mover + k) % 3] for k in range(3)])
    assert np.allclose(train.linear_prediction(row)[0], expected - expected.mean(), atol=1e-3)


def test_the_network_learns_a_function_it_can_hold():
    train = script("train_value")
    rng = np.random.default_rng(0)
    x = rng.normal(size=(512, 4)).astype(np.float32)
    y = np.stack([np.maximum(x[:, 0], 0) - x[:, 1], x[:, 2] * 0.5], axis=1).astype(np.float32)
    model = train.MLP([4, 16, 8, 2], rng)
    assert np.allclose(model.predict(x), 0)  # the last layer starts at zero
    for _ in range(600):
        model.train_batch(x, y, 0.01, 0.0)
    assert float(np.mean((model.predict(x) - y) ** 2)) < 0.02 * float(np.mean(y * y))


def test_the_calibration_table_reads_its_rows():
    table = script("hint_calibration").table
    rows = [{"game": g, "predicted": p, "realised": p + (1 if g % 2 else -1)}
            for g, p in enumerate([-25.0, -12.0, -3.0, 2.0, 7.0, 7.5, 30.0, 31.0])]
    text = table(rows)
    assert "| below -20 | 1 | -25.0 | -26.0 ± nan |" in text
    assert "| -20 to -10 | 1 | -12.0 | -11.0 ± nan |" in text
    assert "| 5 to 10 | 2 | +7.2 | +7.2 ± 1.2 |" in text  # 7 and 7.5 -> 6 and 8.5
    assert "| 20 or more | 2 | +30.5 | +30.5 ± 1.5 |" in text
    assert "8 positions of 8 games: slope of realised on predicted 1.01, mean realised minus " \
           "predicted +0.0, mean absolute error 1.0 points" in text


def test_continuation_targets_are_reproducible_means(tmp_path: Path) -> None:
    play_chunk = script("value_data").play_chunk
    first = np.load(play_chunk((7, 1, 2, "abbey_mayor", 0.1, str(tmp_path / "a"), 2, 3)))
    again = np.load(play_chunk((7, 1, 2, "abbey_mayor", 0.1, str(tmp_path / "b"), 2, 3)))
    assert len(first["t"]) == 3 and set(first["game"]) == {7}
    for key in first.files:
        assert np.array_equal(first[key], again[key])
    # Each target is a mean of two continuations of its own position, not the game's end.
    assert len({tuple(row) for row in first["final"]}) == 3
    assert np.all(first["final"] * 2 == np.round(first["final"] * 2))
