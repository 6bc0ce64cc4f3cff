"""Statistics of a simulation, per agent: wins, win rate, scores, returns and Elo.

Pure Python (no numpy). All intervals are 95%:
- win rate: Wilson score interval; a k-way tie for first counts 1/k of a win for each;
- mean score: Student t interval (the normal one beyond 30 degrees of freedom is what the
  expansion used here converges to);
- Elo: a Bradley–Terry fit on every pair of seats of every game (higher score wins, equal
  scores draw; a draw counts half a win each way), with `prior` virtual draws per pair of
  agents so that an agent that always wins keeps a finite rating. Ratings are 400·log10 of
  the strengths, anchored so that the first agent is 0. The interval is a percentile
  bootstrap over games (seeded, so a report is reproducible), except where resampling cannot
  show the uncertainty: when an agent or the anchor won or lost every comparison (a clean
  sweep: every resample is a sweep again, and the prior alone would set a zero-width interval)
  or when every resample gives the same fit (e.g. all games drawn). There the interval is the
  Wilson interval of the agent's head-to-head score against the anchor turned into Elo; a
  sweep leaves one side unbounded (a lower bound for the winner, an upper one for the loser).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from boardwright.sim.runner import GameResult

Z95 = 1.959963984540054  # the normal 97.5% quantile
# Student t 97.5% quantiles for 1..30 degrees of freedom.
_T975 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
         2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
         2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423)
ELO_SCALE = 400.0 / math.log(10.0)  # Elo points per natural-log unit of strength

Interval = tuple[float, float]


# -- intervals ------------------------------------------------------------------------------------

def wilson_interval(successes: float, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval of a proportion; `successes` may be fractional (shared ties)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(max(p * (1.0 - p), 0.0) / n + z2 / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def t975(df: int) -> float:
    """The 97.5% quantile of Student's t with `df` degrees of freedom (df >= 1)."""
    if df < 1:
        raise ValueError("t quantile needs at least one degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95  # Cornish–Fisher expansion (Abramowitz & Stegun 26.7.5), exact to 1e-6 here
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def mean_interval(values: Sequence[float]) -> tuple[float, Interval | None]:
    """Mean and its 95% t interval (None with fewer than two values)."""
    n = len(values)
    if n == 0:
        return (math.nan, None)
    mean = math.fsum(values) / n
    if n < 2:
        return (mean, None)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t975(n - 1) * math.sqrt(variance / n)
    return (mean, (mean - half, mean + half))


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in [0, 1]) of already sorted values."""
    if not sorted_values:
        return math.nan
    position = q * (len(sorted_values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    fraction = position - low
    return sorted_values[low] * (1 - fraction) + sorted_values[high] * fraction


# -- Elo (Bradley–Terry) ---------------------------------------------------------------------------

Pairs = tuple[tuple[int, int, float], ...]  # (agent a, agent b, score of a against b)


def game_pairs(seats: Sequence[int], scores: Sequence[float]) -> Pairs:
    """Every pair of seats of one game as (agent, agent, 1 | 0.5 | 0), seats of the same agent
    skipped; agents are indices."""
    out = []
    for i in range(len(seats)):
        for j in range(i + 1, len(seats)):
            a, b = seats[i], seats[j]
            if a == b:
                continue
            s = 1.0 if scores[i] > scores[j] else 0.5 if scores[i] == scores[j] else 0.0
            out.append((a, b, s) if a < b else (b, a, 1.0 - s))
    return tuple(sorted(out))


def fit_bradley_terry(k: int, counted: Iterable[tuple[Pairs, int]], prior: float = 1.0,
                      tolerance: float = 1e-10, max_iterations: int = 10_000) -> list[float]:
    """Log-strengths (natural log, mean 0) of k agents from pairwise results.

    `counted` yields (pairs of one game, how many times that game counts). `prior` adds that
    many virtual games per pair of agents, all draws. Fitted by the MM algorithm (Hunter 2004):
    p_a <- W_a / sum_b N_ab / (p_a + p_b). An agent with no comparisons gets 0; an agent that
    won or lost everything without a prior gets +/- infinity.
    """
    wins = [0.0] * k
    games = [[0.0] * k for _ in range(k)]
    for pairs, count in counted:
        for a, b, s in pairs:
            wins[a] += s * count
            wins[b] += (1.0 - s) * count
            games[a][b] += count
            games[b][a] += count
    if prior > 0:
        for a in range(k):
            for b in range(k):
                if a != b:
                    games[a][b] += prior
            wins[a] += prior * (k - 1) / 2
    played = [sum(row) for row in games]
    if any(played[a] and (wins[a] <= 0 or wins[a] >= played[a]) for a in range(k)):
        # an agent won or lost every comparison: without a prior the estimate is unbounded
        return [-math.inf if played[a] and wins[a] <= 0 else
                math.inf if played[a] and wins[a] >= played[a] else 0.0 for a in range(k)]
    strength = [1.0] * k
    for _ in range(max_iterations):
        new = []
        for a in range(k):
            if played[a] == 0:
                new.append(1.0)
                continue
            denominator = sum(games[a][b] / (strength[a] + strength[b])
                              for b in range(k) if games[a][b])
            new.append(wins[a] / denominator)
        centre = math.exp(math.fsum(math.log(v) for v in new) / k)
        new = [v / centre for v in new]
        change = max(abs(math.log(n_) - math.log(o)) for n_, o in zip(new, strength))
        strength = new
        if change < tolerance:
            break
    return [math.log(v) for v in strength]


def elo_ratings(log_strengths: Sequence[float], anchor: int | None = 0) -> list[float]:
    """Elo points from log-strengths: anchored so agent `anchor` is 0 (None: mean 0)."""
    elo = [ELO_SCALE * v for v in log_strengths]
    shift = elo[anchor] if anchor is not None else math.fsum(elo) / len(elo)
    if math.isinf(shift):
        return elo
    return [v - shift for v in elo]


def score_to_elo(score: float) -> float:
    """The Elo difference at which `score` (in [0, 1]) is the expected score; +/- inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return ELO_SCALE * math.log(score / (1.0 - score))


def head_to_head_interval(score: float, n: int, z: float = Z95) -> Interval:
    """The 95% interval of an Elo difference from a head-to-head score (wins + draws / 2) over
    `n` comparisons: the Wilson interval of the score, turned into Elo. A perfect record gives
    an interval unbounded on one side: the data bound the difference only from the other."""
    low, high = wilson_interval(score, n, z)
    if score >= n:
        high = 1.0
    if score <= 0:
        low = 0.0
    return (score_to_elo(low), score_to_elo(high))


def _comparisons(k: int, kinds: Counter[Pairs], anchor: int | None,
                 ) -> tuple[list[float], list[int], list[float], list[int]]:
    """Per agent: its score and number of comparisons against everyone, then against `anchor`."""
    score, played = [0.0] * k, [0] * k
    versus, met = [0.0] * k, [0] * k
    for pairs, count in kinds.items():
        for a, b, s in pairs:
            score[a] += s * count
            score[b] += (1.0 - s) * count
            played[a] += count
            played[b] += count
            if a == anchor:
                versus[b] += (1.0 - s) * count
                met[b] += count
            elif b == anchor:
                versus[a] += s * count
                met[a] += count
    return score, played, versus, met


def _swept(score: float, played: int) -> bool:
    return played > 0 and (score <= 0.0 or score >= played)


@dataclass
class EloFit:
    ratings: list[float]
    intervals: list[Interval | None]


def fit_elo(k: int, per_game: Sequence[Pairs], prior: float = 1.0, bootstrap: int = 200,
            seed: int = 0, anchor: int | None = 0) -> EloFit:
    """Elo of k agents from the pairs of each game, with a percentile-bootstrap 95% interval
    (resampling whole games, `bootstrap` times, from a generator seeded with `seed`).

    With an anchor, a clean sweep (an agent or the anchor won or lost every comparison) or a
    bootstrap that cannot vary (every resample fits the same) takes the head-to-head interval
    against the anchor instead (`head_to_head_interval`), even with `bootstrap=0`: the bound a
    sweep allows is the only honest statement about it. The anchor's own interval is (0, 0).
    """
    kinds = Counter(per_game)
    ratings = elo_ratings(fit_bradley_terry(k, kinds.items(), prior), anchor)
    intervals: list[Interval | None] = [None] * k
    if bootstrap > 0 and per_game:
        distinct = list(kinds)
        ids = {pairs: i for i, pairs in enumerate(distinct)}
        population = [ids[pairs] for pairs in per_game]
        rng = random.Random(seed)
        samples: list[list[float]] = [[] for _ in range(k)]
        for _ in range(bootstrap):
            drawn = Counter(rng.choices(population, k=len(population)))
            fit = elo_ratings(fit_bradley_terry(
                k, ((distinct[i], c) for i, c in drawn.items()), prior), anchor)
            for a in range(k):
                samples[a].append(fit[a])
        for a in range(k):
            values = sorted(samples[a])
            intervals[a] = (percentile(values, 0.025), percentile(values, 0.975))
    if anchor is not None and per_game:
        score, played, versus, met = _comparisons(k, kinds, anchor)
        anchor_swept = _swept(score[anchor], played[anchor])
        for a in range(k):
            if a == anchor:
                continue
            sweep = anchor_swept or _swept(score[a], played[a])
            flat = intervals[a] is not None and intervals[a][0] == intervals[a][1]
            if met[a] and (sweep or flat):
                intervals[a] = head_to_head_interval(versus[a], met[a])
            elif flat:
                intervals[a] = None  # a zero-width interval would claim a certainty not there
    return EloFit(ratings, intervals)


# -- per-agent summary ----------------------------------------------------------------------------

@dataclass
class AgentStats:
    """The results of one agent over a simulation."""

    agent: str
    games: int = 0  # seats taken (one per game unless an agent sits twice)
    wins: float = 0.0  # a k-way tie for first counts 1/k
    draws: int = 0  # games where it shared first place
    win_rate: float = math.nan
    win_rate_ci: Interval = (0.0, 1.0)
    mean_score: float = math.nan
    score_ci: Interval | None = None
    mean_return: float = math.nan
    elo: float = 0.0
    elo_ci: Interval | None = None
    decisions: int = 0
    think_seconds: float = 0.0
    iterations_per_decision: float | None = None  # mean over games, for agents that report it
    scores: list[float] = field(default_factory=list, repr=False)

    @property
    def ms_per_decision(self) -> float | None:
        return 1000.0 * self.think_seconds / self.decisions if self.decisions else None

    def to_json(self) -> dict[str, Any]:
        def pair(v: Interval | None) -> list[float] | None:
            return None if v is None else [v[0], v[1]]

        return {
            "agent": self.agent, "games": self.games, "wins": self.wins, "draws": self.draws,
            "win_rate": self.win_rate, "win_rate_ci": pair(self.win_rate_ci),
            "mean_score": self.mean_score, "score_ci": pair(self.score_ci),
            "mean_return": self.mean_return, "elo": self.elo, "elo_ci": pair(self.elo_ci),
            "decisions": self.decisions, "ms_per_decision": self.ms_per_decision,
            "iterations_per_decision": self.iterations_per_decision,
        }


def summarize(results: Iterable[GameResult], agents: Sequence[str] | None = None,
              bootstrap: int = 200, seed: int = 0, prior: float = 1.0,
              anchor: int | None = 0) -> list[AgentStats]:
    """Per-agent statistics, in the order of `agents` (default: order of first appearance).

    Results are sorted by game index first, so the report (bootstrap included) does not depend
    on the order in which games finished.
    """
    ordered = sorted(results, key=lambda r: r.index)
    names = list(agents) if agents is not None else []
    for result in ordered:
        for name in result.seats:
            if name not in names:
                names.append(name)
    index = {name: i for i, name in enumerate(names)}
    table = [AgentStats(agent=name) for name in names]
    returns: list[list[float]] = [[] for _ in names]
    iterations: list[list[float]] = [[] for _ in names]
    per_game: list[Pairs] = []
    for result in ordered:
        seats = [index[name] for name in result.seats]
        share = 1.0 / len(result.winners) if result.winners else 0.0
        for seat, a in enumerate(seats):
            row = table[a]
            row.games += 1
            row.scores.append(result.scores[seat])
            returns[a].append(result.returns[seat])
            if seat in result.winners:
                row.wins += share
                if len(result.winners) > 1:
                    row.draws += 1
            if seat < len(result.seat_decisions):
                row.decisions += result.seat_decisions[seat]
                row.think_seconds += result.seat_seconds[seat]
            if seat < len(result.agent_stats):
                value = result.agent_stats[seat].get("iterations_per_decision")
                if value is not None:
                    iterations[a].append(value)
        per_game.append(game_pairs(seats, result.scores))
    elo = fit_elo(len(names), per_game, prior=prior, bootstrap=bootstrap, seed=seed,
                  anchor=anchor) if names else EloFit([], [])
    for a, row in enumerate(table):
        if row.games:
            row.win_rate = row.wins / row.games
            row.win_rate_ci = wilson_interval(row.wins, row.games)
            row.mean_score, row.score_ci = mean_interval(row.scores)
            row.mean_return = math.fsum(returns[a]) / len(returns[a])
        row.elo, row.elo_ci = elo.ratings[a], elo.intervals[a]
        if iterations[a]:
            row.iterations_per_decision = math.fsum(iterations[a]) / len(iterations[a])
    return table
