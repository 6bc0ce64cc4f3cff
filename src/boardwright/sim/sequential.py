"""Strength matches that stop as soon as they have decided: paired deals, a sequential
probability ratio test, and results kept in a file so that a run can be resumed.

A *deal* is one game seed played once per seating: with two players, agent A in the first seat
and then in the second, so the luck of the tiles falls on both sides. The test reads the deals in
order, and only whole deals, so its decision depends on the games alone, not on the order in which
the workers finished them.

The test is Wald's SPRT on the agent's score per game (1 for a win, 1/k for a k-way tie for first,
0 otherwise) between `p0` (the agent is no better than the lower bar) and `p1` (it reaches the
bar). Games of one deal are treated as independent; pairing makes them, if anything, negatively
correlated, which makes the test conservative.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardwright.sim.parallel import run_jobs
from boardwright.sim.runner import GameJob, GameResult, game_seed, rotate
from boardwright.sim.stats import wilson_interval

PASS, FAIL, UNDECIDED = "pass", "fail", "undecided"


@dataclass(frozen=True)
class Match:
    """One agent against opponents, over deals of one game set-up."""

    game: str
    players: int
    options: dict[str, Any]
    agent: str
    opponents: tuple[str, ...]  # players - 1 specs (one repeated for a field of the same bot)
    seed: int = 0
    engine: str | None = None

    def key(self) -> str:
        """What identifies the match in a results file (all of it decides the games)."""
        return json.dumps([self.game, self.players, self.options, self.agent, list(self.opponents),
                           self.seed, self.engine], sort_keys=True)

    def deal_jobs(self, deal: int) -> list[GameJob]:
        """The games of deal `deal`: one seed, the agent in each seat in turn."""
        lineup = [self.agent, *self.opponents]
        labels = ["agent", *(f"opponent{i + 1}" for i in range(len(self.opponents)))]
        return [GameJob(game=self.game, players=self.players, options=dict(self.options),
                        agents=tuple(rotate(lineup, -seat)), seed=game_seed(self.seed, deal),
                        index=deal * self.players + seat, labels=tuple(rotate(labels, -seat)),
                        engine=self.engine)
                for seat in range(self.players)]


def agent_score(result: GameResult) -> float:
    """The agent's share of first place in one game."""
    seat = result.seats.index("agent")
    return 1.0 / len(result.winners) if seat in result.winners else 0.0


@dataclass
class SPRT:
    """Wald's sequential test of a win rate: p0 against p1 (p0 < p1)."""

    p0: float
    p1: float
    alpha: float = 0.05  # chance of passing an agent at p0
    beta: float = 0.05  # chance of failing an agent at p1
    llr: float = 0.0
    games: int = 0
    score: float = 0.0

    def __post_init__(self) -> None:
        if not 0.0 < self.p0 < self.p1 < 1.0:
            raise ValueError(f"need 0 < p0 < p1 < 1, not p0={self.p0}, p1={self.p1}")

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    def add(self, x: float) -> None:
        self.llr += (x * math.log(self.p1 / self.p0)
                     + (1 - x) * math.log((1 - self.p1) / (1 - self.p0)))
        self.games += 1
        self.score += x

    @property
    def decision(self) -> str | None:
        if self.llr >= self.upper:
            return PASS
        if self.llr <= self.lower:
            return FAIL
        return None

    @property
    def rate(self) -> float:
        return self.score / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.score, self.games)


@dataclass
class Outcome:
    match: Match
    test: SPRT
    verdict: str  # pass, fail or undecided
    deals: int
    results: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0
    resumed: int = 0  # games read back from the results file


def read_results(path: Path | None, key: str) -> list[GameResult]:
    """The games of match `key` already in the results file (a missing file has none)."""
    if path is None or not path.exists():
        return []
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue  # a line cut short by an interrupted run
        if isinstance(entry, dict) and entry.get("match") == key:
            found.append(GameResult.from_json(entry["result"]))
    return found


def append_result(path: Path | None, key: str, result: GameResult) -> None:
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps({"match": key, "result": result.to_json()}) + "\n")


def run_match(match: Match, test: SPRT, workers: int = 1, max_deals: int = 2000,
              minutes: float | None = 20.0, results_file: Path | None = None,
              on_deal: Callable[[SPRT, int], None] | None = None,
              runner: Callable[[Iterable[GameJob], int], Iterator[GameResult]] = run_jobs,
              ) -> Outcome:
    """Play deals until the test decides, `max_deals` are played or `minutes` have passed.

    Games already in `results_file` for this match are not played again; every game played is
    appended to it as it finishes. `on_deal(test, deals)` is called after each whole deal."""
    key = match.key()
    start = time.perf_counter()
    by_index = {r.index: r for r in read_results(results_file, key)}
    resumed = len(by_index)
    outcome = Outcome(match, test, UNDECIDED, 0, resumed=resumed)
    deal = 0

    def absorb() -> bool:
        """Feed whole deals in order to the test; True once it has decided."""
        nonlocal deal
        while deal < max_deals and test.decision is None:
            indexes = [deal * match.players + seat for seat in range(match.players)]
            if not all(i in by_index for i in indexes):
                return False
            for i in indexes:
                test.add(agent_score(by_index[i]))
                outcome.results.append(by_index[i])
            deal += 1
            if on_deal is not None:
                on_deal(test, deal)
        return True

    if not absorb():
        pending = [job for d in range(deal, max_deals) for job in match.deal_jobs(d)
                   if job.index not in by_index]
        results = runner(pending, workers)
        try:
            for result in results:
                by_index[result.index] = result
                append_result(results_file, key, result)
                if absorb():
                    break
                if minutes is not None and time.perf_counter() - start > 60 * minutes:
                    break
        finally:
            closer = getattr(results, "close", None)
            if closer is not None:
                closer()
    outcome.deals = deal
    outcome.verdict = test.decision or UNDECIDED
    outcome.seconds = time.perf_counter() - start
    return outcome
