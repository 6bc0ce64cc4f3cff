"""Simulation statistics on hand-made results: intervals, ties, Elo and its bootstrap."""

from __future__ import annotations

import math
import random

import pytest

from boardwright.sim.runner import GameResult
from boardwright.sim.stats import (
    fit_bradley_terry, fit_elo, game_pairs, head_to_head_interval, mean_interval, percentile,
    score_to_elo, summarize, t975, wilson_interval,
)

ELO_75 = 400 * math.log10(3)  # a 75% expected score is 190.85 Elo points


def result(index: int, seats: list[str], scores: list[int]) -> GameResult:
    top = max(scores)
    n = len(scores)
    returns = [(2 * sum(1.0 if s > o else 0.5 if s == o else 0.0
                        for j, o in enumerate(scores) if j != i) / (n - 1) - 1) if n > 1 else 1.0
               for i, s in enumerate(scores)]
    return GameResult(index=index, seed=index, seats=seats, scores=scores, returns=returns,
                      winners=[i for i, s in enumerate(scores) if s == top], turns=None,
                      decisions=0, seconds=0.0)


def duel(wins_a: int, wins_b: int, draws: int = 0, names: tuple[str, str] = ("A", "B"),
         ) -> list[GameResult]:
    """Two-player games, seats alternating: A wins `wins_a`, B `wins_b`, `draws` tied."""
    outcomes = ["a"] * wins_a + ["b"] * wins_b + ["d"] * draws
    random.Random(1).shuffle(outcomes)
    out = []
    for i, o in enumerate(outcomes):
        seats = [names[0], names[1]] if i % 2 == 0 else [names[1], names[0]]
        a_score = {"a": 20, "b": 10, "d": 15}[o]
        b_score = {"a": 10, "b": 20, "d": 15}[o]
        scores = [a_score, b_score] if i % 2 == 0 else [b_score, a_score]
        out.append(result(i, seats, scores))
    return out


# -- intervals ----------------------------------------------------------------------------------

@pytest.mark.parametrize("successes, n, low, high", [
    # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (Wilson score)
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0000, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_interval_matches_published_values(successes, n, low, high):
    got = wilson_interval(successes, n)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_interval_edges():
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(10, 10)
    assert high == pytest.approx(1.0) and 0.69 < low < 0.73
    low, high = wilson_interval(2.5, 5)  # fractional successes (shared ties) are allowed
    assert low == pytest.approx(1 - high)


def test_t_quantiles():
    assert t975(1) == pytest.approx(12.7062, abs=1e-4)
    assert t975(30) == pytest.approx(2.0423, abs=1e-4)
    assert t975(31) == pytest.approx(2.0395, abs=1e-4)
    assert t975(120) == pytest.approx(1.9799, abs=1e-4)
    assert t975(10**6) == pytest.approx(1.95997, abs=1e-4)
    with pytest.raises(ValueError):
        t975(0)


def test_mean_interval():
    mean, (low, high) = mean_interval([1, 2, 3, 4, 5])
    half = 2.7764 * math.sqrt(2.5 / 5)
    assert mean == 3 and low == pytest.approx(3 - half) and high == pytest.approx(3 + half)
    assert mean_interval([7]) == (7.0, None)
    assert math.isnan(mean_interval([])[0])


def test_percentile():
    assert percentile([1, 2, 3, 4], 0.5) == 2.5
    assert percentile([5], 0.975) == 5
    assert percentile([0, 10], 0.025) == pytest.approx(0.25)


# -- wins, ties, draws --------------------------------------------------------------------------

def test_ties_for_first_share_the_win():
    results = [
        result(0, ["A", "B", "C"], [10, 10, 10]),  # 3-way tie: 1/3 each
        result(1, ["B", "C", "A"], [12, 12, 3]),  # B and C tie: 1/2 each
        result(2, ["C", "A", "B"], [1, 9, 5]),  # A wins
    ]
    stats = {row.agent: row for row in summarize(results, ["A", "B", "C"], bootstrap=0)}
    assert stats["A"].wins == pytest.approx(1 / 3 + 1)
    assert stats["B"].wins == pytest.approx(1 / 3 + 1 / 2)
    assert stats["C"].wins == pytest.approx(1 / 3 + 1 / 2)
    assert sum(row.wins for row in stats.values()) == pytest.approx(3)
    assert (stats["A"].draws, stats["B"].draws, stats["C"].draws) == (1, 2, 2)
    assert stats["A"].games == 3 and stats["A"].win_rate == pytest.approx(4 / 9)
    assert stats["A"].win_rate_ci == pytest.approx(wilson_interval(4 / 3, 3))
    assert stats["A"].mean_score == pytest.approx((10 + 3 + 9) / 3)
    assert stats["A"].mean_return == pytest.approx((0 + -1 + 1) / 3)


def test_summary_is_independent_of_finishing_order():
    results = duel(30, 20, 5)
    shuffled = results[:]
    random.Random(4).shuffle(shuffled)
    a = [row.to_json() for row in summarize(results, ["A", "B"], bootstrap=50, seed=3)]
    b = [row.to_json() for row in summarize(shuffled, ["A", "B"], bootstrap=50, seed=3)]
    assert a == b


# -- Elo ------------------------------------------------------------------------------------------

def test_elo_of_a_75_percent_winner_is_about_191():
    results = duel(300, 100)  # the second agent wins 75%
    exact = summarize(results, ["B", "A"], bootstrap=0, prior=0)
    assert exact[0].elo == 0
    assert exact[1].elo == pytest.approx(ELO_75, abs=0.01)
    smoothed = summarize(results, ["B", "A"], bootstrap=0)  # default prior: 1 virtual draw
    assert smoothed[1].elo == pytest.approx(ELO_75, abs=2)
    assert smoothed[1].elo < ELO_75  # the prior pulls towards 0


def test_draws_count_half():
    # 100 wins, 0 losses, 100 draws: expected score 0.75 again
    results = duel(100, 0, draws=100)
    rows = summarize(results, ["B", "A"], bootstrap=0, prior=0)
    assert rows[1].elo == pytest.approx(ELO_75, abs=0.01)


def test_equal_agents_get_symmetric_elo():
    results = duel(40, 40, draws=10)
    rows = summarize(results, ["A", "B"], bootstrap=100, seed=7)
    assert rows[0].elo == 0 and rows[1].elo == pytest.approx(0, abs=1e-6)
    low, high = rows[1].elo_ci
    assert low < 0 < high
    mean_anchored = summarize(results, ["A", "B"], bootstrap=0, anchor=None)
    assert mean_anchored[0].elo == pytest.approx(-mean_anchored[1].elo, abs=1e-9)


def test_bootstrap_interval_contains_the_estimate_and_is_reproducible():
    results = duel(70, 50, draws=6)
    first = summarize(results, ["A", "B"], bootstrap=200, seed=11)
    again = summarize(results, ["A", "B"], bootstrap=200, seed=11)
    other = summarize(results, ["A", "B"], bootstrap=200, seed=12)
    b = first[1]
    assert b.elo_ci[0] < b.elo < b.elo_ci[1]
    assert b.elo < 0  # A won more
    assert first[1].elo_ci == again[1].elo_ci
    assert first[1].elo_ci != other[1].elo_ci
    assert first[0].elo_ci == (0.0, 0.0)  # the anchor


def test_three_agents_order_and_transitivity():
    # strong > middle > weak in every 3-player game, seats rotating
    results = []
    lineup = ["weak", "middle", "strong"]
    for i in range(30):
        seats = [lineup[(s + i) % 3] for s in range(3)]
        scores = [{"weak": 5, "middle": 10, "strong": 15}[name] for name in seats]
        if i % 5 == 0:  # now and then the weak agent beats the middle one
            scores[seats.index("weak")] = 12
        results.append(result(i, seats, scores))
    rows = {row.agent: row for row in summarize(results, lineup, bootstrap=50)}
    assert rows["weak"].elo == 0
    assert 0 < rows["middle"].elo < rows["strong"].elo
    assert rows["strong"].win_rate == 1.0


def test_a_clean_sweep_gets_a_one_sided_interval_not_a_zero_width_one():
    # 20 wins out of 20: every bootstrap resample is the same sweep, so the percentile interval
    # had zero width; the head-to-head Wilson interval of a 0-of-20 score is [0, 0.1611]
    # (Newcombe's published value), i.e. at most -286.6 Elo, unbounded below.
    loser = summarize(duel(20, 0), ["A", "B"], bootstrap=100)[1]
    low, high = loser.elo_ci
    assert low == -math.inf
    assert high == pytest.approx(400 * math.log10(0.1611 / 0.8389), abs=0.1)
    assert loser.elo < high  # the prior-held rating lies inside
    winner = summarize(duel(20, 0), ["B", "A"], bootstrap=100)[1]  # the anchor lost everything
    assert winner.elo_ci == (pytest.approx(-high), math.inf)
    # no bootstrap asked: the sweep still gets its bound (it costs nothing)
    assert summarize(duel(20, 0), ["A", "B"], bootstrap=0)[1].elo_ci == loser.elo_ci


def test_more_games_of_a_sweep_raise_the_bound():
    bounds = [summarize(duel(n, 0), ["B", "A"], bootstrap=0)[1].elo_ci[0] for n in (5, 20, 100)]
    assert 0 < bounds[0] < bounds[1] < bounds[2]


def test_all_draws_get_a_symmetric_interval_of_nonzero_width():
    row = summarize(duel(0, 0, draws=16), ["A", "B"], bootstrap=50)[1]
    low, high = row.elo_ci
    assert low == pytest.approx(-high) and high > 100  # 8 of 16: Wilson [0.28, 0.72]
    assert (low, high) == pytest.approx(head_to_head_interval(8, 16))


def test_head_to_head_interval_and_score_to_elo():
    assert score_to_elo(0.75) == pytest.approx(ELO_75)
    assert score_to_elo(0.5) == 0 and score_to_elo(1.0) == math.inf
    assert score_to_elo(0.0) == -math.inf
    low, high = head_to_head_interval(30, 40)
    w_low, w_high = wilson_interval(30, 40)
    assert (low, high) == pytest.approx((score_to_elo(w_low), score_to_elo(w_high)))
    assert low < ELO_75 < high


def test_a_sweep_among_three_agents_bounds_only_the_swept_pair():
    results = []
    lineup = ["weak", "middle", "strong"]
    for i in range(30):  # strong always wins; weak and middle share the rest
        seats = [lineup[(s + i) % 3] for s in range(3)]
        scores = [{"weak": 5 + 6 * (i % 2), "middle": 8, "strong": 15}[name] for name in seats]
        results.append(result(i, seats, scores))
    rows = {row.agent: row for row in summarize(results, lineup, bootstrap=100, seed=2)}
    low, high = rows["strong"].elo_ci
    assert high == math.inf and 0 < low < rows["strong"].elo
    low, high = rows["middle"].elo_ci  # a mixed record: the bootstrap interval
    assert math.isfinite(low) and math.isfinite(high) and low < rows["middle"].elo < high


def test_bradley_terry_without_prior_is_unbounded_for_a_perfect_record():
    pairs = game_pairs([0, 1], [3, 1])
    assert pairs == ((0, 1, 1.0),)
    strengths = fit_bradley_terry(2, [(pairs, 10)], prior=0)
    assert strengths == [math.inf, -math.inf]
    finite = fit_bradley_terry(2, [(pairs, 10)], prior=1)
    assert all(math.isfinite(v) for v in finite) and finite[0] > finite[1]


def test_game_pairs_orient_and_skip_same_agent():
    assert game_pairs([1, 0], [5, 9]) == ((0, 1, 1.0),)
    assert game_pairs([0, 0, 1], [1, 2, 2]) == ((0, 1, 0.0), (0, 1, 0.5))
    fit = fit_elo(2, [game_pairs([0, 1], [1, 1])] * 4, bootstrap=10)
    assert fit.ratings == [0, pytest.approx(0, abs=1e-9)]
