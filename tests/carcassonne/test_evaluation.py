"""The learned Carcassonne evaluation (MCTS leaves): the per-seat features it weighs, the
weights file and its errors, and the weighted sum itself."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest
from script_helpers import load_script

import boardwright as bw
from boardwright.games.carcassonne.evaluation import (
    EvaluationWeights,
    default_weights,
    evaluate,
    parse_weights,
    pile_share,
)
from boardwright.games.carcassonne.heuristic import CompletionOdds, potential_scores
from boardwright.games.carcassonne.position_features import FEATURES, seat_features
from boardwright.games.carcassonne.scenario import build

# The Python engine only: unit tests of the heuristic's and the evaluation's internals, which
# read the Python engine's feature graph and scores (the native engine does not run them yet).
pytestmark = pytest.mark.engines(
    "python", reason="white-box tests of the Python heuristic and evaluation; the native ones "
    "are checked against them in test_native_heuristic.py")

AM = {"expansions": ["abbey_mayor"]}
ROOT = Path(__file__).resolve().parents[2]


def named(vector: list[float]) -> dict[str, float]:
    return dict(zip(FEATURES, vector))


def only(**weights: tuple[float, float, float]) -> EvaluationWeights:
    """Weights that are zero but for the named features (and `to_move`)."""
    tempo = weights.pop("to_move", (0.0, 0.0, 0.0))
    return EvaluationWeights(tuple(weights.get(name, (0.0, 0.0, 0.0)) for name in FEATURES), tempo)


def test_an_open_city_gives_its_holder_its_value_and_the_follower_s_return_odds() -> None:
    # Red holds a one-tile city; of the four tiles left one E can close it.
    state = build("D@(0,0)/0", followers=[(0, 0, 0, "N")], pile=["E", "E", "B", "B", "G"],
                  players=2, options=AM)
    root = state.graph.find(next(iter(state.occupant)))
    odds = CompletionOdds(state).of(root)
    red, blue = (named(v) for v in seat_features(state))
    assert 0 < odds < 1
    assert red["city"] == pytest.approx(1 + odds * (2 - 1))  # end value 1, completed 2
    assert red["city_returns"] == pytest.approx(odds)
    assert red["dead_figures"] == 0
    assert (red["followers"], blue["followers"]) == (6, 7)
    assert red["mayor"] == red["wagon"] == red["barn_pieces"] == red["abbeys"] == 1
    assert blue["city"] == blue["city_returns"] == 0


def test_a_follower_on_a_city_nothing_left_can_close_is_counted_dead() -> None:
    state = build("D@(0,0)/0", followers=[(0, 0, 0, "N")], pile=["E", "B", "B", "B"], players=2)
    red, blue = (named(v) for v in seat_features(state))
    assert red["city"] == 1 and red["city_returns"] == 0 and red["dead_figures"] == 1
    assert red["mayor"] == 0  # the base game has no expansion figures
    assert blue["dead_figures"] == 0


def test_a_farmer_counts_the_open_cities_of_its_field() -> None:
    state = build("E@(0,0)/0", followers=[(0, 0, 0, "EL.ER.SL.SR.WL.WR")],
                  pile=["E", "E", "B", "B", "G"], players=2)
    red = named(seat_features(state)[0])
    assert red["farmers"] == 1
    assert red["farm_open"] == 3 and red["farm_done"] == 0
    assert 0 < red["farm_odds"] < 3


def test_the_features_add_up_to_the_heuristic_s_board_terms_in_random_games() -> None:
    """Score, board features and barns carry the same points as the heuristic; only the
    figures' value (in hand, coming back) is left to the weights."""
    game = bw.load("carcassonne", 2, AM)
    board = ("score", "city", "road", "monastery", "farm_done", "farm_odds", "barn")
    rng = random.Random(3)
    checked = 0
    for seed in range(4):
        state = game.new_game(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            if state.is_terminal:
                break
            heuristic = potential_scores(state)
            for seat, vector in enumerate(seat_features(state)):
                values = named(vector)
                spent = heuristic[seat] - sum(values[name] for name in board)
                assert spent >= -1e-9  # what is left is the (non-negative) value of figures
            checked += 1
    assert checked > 200


def test_the_evaluation_is_the_weighted_sum_plus_the_turn_bonus() -> None:
    state = build("D@(0,0)/0", followers=[(0, 0, 0, "N")], pile=["E", "E", "B", "B", "G"],
                  players=2, options=AM, turn_player=1)
    t = pile_share(state)
    assert t == pytest.approx(4 / 5)
    red, blue = (named(v) for v in seat_features(state))
    weights = only(followers=(1.0, 2.0, 0.0), city=(0.0, 0.0, 1.0), to_move=(3.0, 0.0, 0.0))
    red_value, blue_value = evaluate(state, weights)
    assert red_value == pytest.approx(red["followers"] * (1 + 2 * t) + red["city"] * t * t)
    assert blue_value == pytest.approx(blue["followers"] * (1 + 2 * t) + 3.0)


def test_the_shipped_weights_cover_every_feature_and_value_figures_in_hand() -> None:
    weights = default_weights()
    assert len(weights.features) == len(FEATURES)
    mid_game, tempo = weights.at(0.5)
    at_end, _ = weights.at(0.0)
    index = {name: i for i, name in enumerate(FEATURES)}
    assert mid_game[index["followers"]] > at_end[index["followers"]]  # worth less at the end
    assert 0.8 < at_end[index["score"]] < 1.2  # a point scored is a point
    assert tempo > 0


def test_the_game_s_evaluation_is_the_learned_one_and_other_games_fall_back_on_the_heuristic() -> None:
    game = bw.load("carcassonne", 2, AM)
    state = game.new_game(5)
    assert game.evaluation(state) == evaluate(state)
    queens = bw.load("queens", 2, {})
    position = queens.new_game(1)
    assert queens.evaluation(position) == queens.heuristic(position)


def test_a_game_is_judged_by_the_weights_fitted_for_its_player_count() -> None:
    two, four = default_weights(2), default_weights(4)
    data = ROOT / "src" / "boardwright" / "games" / "carcassonne" / "data"
    assert four == parse_weights(tomllib.loads((data / "evaluation-4p.toml").read_text()))
    assert four != two
    for players in range(2, 7):  # a count without a fit of its own is judged as 2 players
        expected = data / f"evaluation-{players}p.toml"
        assert (default_weights(players) != two) == (players != 2 and expected.is_file())
    state = bw.load("carcassonne", 4, AM).new_game(3)
    for _ in range(12):
        state.apply(random.Random(len(state.record.actions)).choice(state.legal_actions()))
    assert bw.load("carcassonne", 4, AM).evaluation(state) == evaluate(state, four)
    assert evaluate(state) != pytest.approx(evaluate(state, two), abs=1e-3)


def valid_table() -> dict:
    table = {name: [1.0, 0.0, 0.0] for name in FEATURES}
    table["to_move"] = [0.5, 0.0, 0.0]
    return {"weights": table}


@pytest.mark.parametrize("damage, message", [
    (lambda d: d.pop("weights"), "no \\[weights\\] table"),
    (lambda d: d["weights"].pop("followers"), "followers must be three numbers"),
    (lambda d: d["weights"].update(city=[1.0, 2.0]), "city must be three numbers"),
    (lambda d: d["weights"].update(road=[1.0, "x", 0.0]), "road must be three numbers"),
    (lambda d: d["weights"].update(to_move=[True, 0.0, 0.0]), "to_move must be three numbers"),
    (lambda d: d["weights"].update(luck=[1.0, 0.0, 0.0]), "unknown features \\['luck'\\]"),
])
def test_malformed_weights_are_named(damage, message: str) -> None:
    data = valid_table()
    parse_weights(data)  # the undamaged table is fine
    damage(data)
    with pytest.raises(bw.BoardwrightError, match=message):
        parse_weights(data)


def fit_script():
    """benchmarks/fit_evaluation.py as a module."""
    return load_script(ROOT / "benchmarks" / "fit_evaluation.py", "fit_evaluation")


def test_the_fit_script_writes_weights_the_game_reads_back(tmp_path) -> None:
    numpy = pytest.importorskip("numpy")
    fit = fit_script()
    n = len(FEATURES)
    raw = numpy.arange(3 * n + 3, dtype=float) / 10
    score = {"r2": 0.4, "mae": 20.0, "sign": 0.7}
    text = fit.to_toml(raw, 10, "mcts:iterations=100", 1,
                       {"fit": score, "baseline": score, "heuristic": score})
    weights = parse_weights(tomllib.loads(text))
    written = tmp_path / "evaluation.toml"
    written.write_text(text)
    assert fit.weight_vector(written) == pytest.approx(raw, abs=1e-4)  # the file reads back
    assert weights.features[2] == pytest.approx((raw[2], raw[n + 2], raw[2 * n + 2]))
    assert weights.to_move == pytest.approx(tuple(raw[3 * n:]))
    # The design matrix lines up with the same layout: one row is what `evaluate` computes.
    diff = numpy.ones((1, n))
    row = fit.design(diff, numpy.array([0.5]), numpy.array([1.0]))[0]
    feature_weights, tempo = weights.at(0.5)
    assert row @ raw == pytest.approx(sum(feature_weights) + tempo)


def test_the_fit_script_measures_accuracy_on_the_margin() -> None:
    numpy = pytest.importorskip("numpy")
    fit = fit_script()
    target = numpy.array([10.0, -10.0, 20.0, 0.0])
    perfect = fit.accuracy(target.copy(), target)
    assert perfect == {"r2": 1.0, "mae": 0.0, "sign": 1.0}
    wrong = fit.accuracy(numpy.array([-10.0, 10.0, 20.0, 5.0]), target)
    assert wrong["mae"] == pytest.approx(45 / 4)
    assert wrong["sign"] == pytest.approx(1 / 3)  # the draw is left out of the sign count



def test_lstd_with_lambda_one_is_least_squares_and_the_penalty_pulls_to_the_prior() -> None:
    numpy = pytest.importorskip("numpy")
    fit = fit_script()
    rng = numpy.random.default_rng(3)
    games = numpy.repeat(numpy.arange(6), 5)  # six games of five positions
    x = rng.normal(size=(30, 4))
    y = numpy.repeat(rng.normal(size=6) * 10, 5)  # each game's final margin, on every row
    a, b = fit.td_system(x, y, games, 1.0)
    assert a == pytest.approx(x.T @ x) and b == pytest.approx(x.T @ y)
    prior = numpy.array([1.0, -2.0, 3.0, 0.5])
    assert fit.ridge_towards((a, b), prior, 1e12) == pytest.approx(prior, abs=1e-6)
    free = fit.ridge_towards((a, b), prior, 0.0)
    assert free == pytest.approx(numpy.linalg.lstsq(x, y, rcond=None)[0])
    # lambda = 0: each position's value is pulled towards the next one's (TD(0) fixed point):
    # a value that is constant within each game and equal to its margin solves it exactly.
    one_hot = numpy.eye(6)[games]
    a0, b0 = fit.td_system(one_hot, y, games, 0.0)
    assert numpy.linalg.solve(a0, b0) == pytest.approx(y[::5])
    (trace, penalty), scores = fit.choose_fit(x, y, games, prior, [1.0, 1e6], [1.0, 0.5])
    assert (trace, penalty) in scores and scores[(trace, penalty)] == max(scores.values())


def test_the_fit_reads_every_pair_of_seats_of_a_game_and_the_first_layout() -> None:
    fit = fit_script()
    game = {"index": 4, "scores": [30, 10, 25],
            "positions": [{"seats": [[1.0, 2.0], [0.0, 5.0], [3.0, 3.0]], "t": 0.5, "turn": 1},
                          {"seats": [[2.0, 2.0], [1.0, 5.0], [3.0, 4.0]], "t": 0.25, "turn": 2}]}
    pairs = fit.pair_rows(game)
    assert [(k, margin) for k, _, margin in pairs] == [(0, 20.0), (1, 5.0), (2, -15.0)]
    (_, first, _), (_, second, _), (_, third, _) = pairs
    assert first == [([1.0, -3.0], 0.5, -1.0), ([1.0, -3.0], 0.25, 0.0)]  # seat 0 - seat 1
    assert second == [([-2.0, -1.0], 0.5, 0.0), ([-1.0, -2.0], 0.25, -1.0)]  # 0 - 2
    assert third == [([-3.0, 2.0], 0.5, 1.0), ([-2.0, 1.0], 0.25, -1.0)]  # 1 - 2
    old = {"index": 2, "rows": [[[1.0, 2.0], 0.75, 1.0]], "margin": -6.0}
    assert fit.pair_rows(old) == [(0, [([1.0, 2.0], 0.75, 1.0)], -6.0)]


def test_a_stored_self_play_game_replays_from_its_actions_to_the_same_positions() -> None:
    fit = fit_script()
    game = fit.play((3, 500, "greedy", None, 2))
    assert len(game["actions"]) > len(game["positions"]) > 30
    again = fit.replay({**game, "positions": []}, 500, 2)
    assert again["positions"] == game["positions"]
    damaged = {**game, "actions": game["actions"][:-3]}
    with pytest.raises(ValueError, match="does not replay"):
        fit.replay(damaged, 500, 2)


def test_the_gain_interval_is_paired_over_whole_games() -> None:
    numpy = pytest.importorskip("numpy")
    fit = fit_script()
    rng = numpy.random.default_rng(1)
    games = numpy.repeat(numpy.arange(60), 20)
    target = rng.normal(0, 20, len(games))
    good = target + rng.normal(0, 10, len(games))
    same = fit.r2_gain_interval(target, good, good, games)
    assert same == (0.0, 0.0, 0.0)  # a prediction against itself gains nothing, surely
    worse = good + rng.normal(0, 8, len(games))
    gain, low, high = fit.r2_gain_interval(target, good, worse, games)
    assert gain == pytest.approx(fit.accuracy(good, target)["r2"]
                                 - fit.accuracy(worse, target)["r2"])
    assert 0 < low < gain < high  # the better prediction's gain is clearly above zero
