"""One simulated game: a `GameJob` in, a `GameResult` out.

A job is plain data (picklable, so it can go to a worker process or a Ray task); `play_game`
loads the game, builds a fresh agent per seat from its spec string (agents registered by a
call travel with the job), plays to the end and measures. Everything random comes from the
job's seed, so a job gives the same result wherever and whenever it runs.

`make_jobs` builds the jobs of a whole simulation: game i gets the seed `game_seed(base, i)` and
the agent line-up rotated by i (seat s plays entry (s + i) mod players), so no agent keeps the
first seat.
"""

from __future__ import annotations

import functools
import hashlib
import json
import resource
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Sequence

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.agents.registry import install, registrations_for

SEED_RANGE = 2**53  # seeds stay exact in JSON (and JavaScript)


def derive_seed(*parts: Any) -> int:
    """A stable seed from any parts (their repr): the same in every process and run."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % SEED_RANGE


def game_seed(base_seed: int, index: int) -> int:
    """The seed of game `index` of a simulation started with `base_seed`."""
    return derive_seed("game", base_seed, index)


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent in `seat` of the game with `seed`."""
    return derive_seed("agent", seed, seat)


def rotate(lineup: Sequence[Any], index: int) -> list[Any]:
    """The line-up of game `index`: seat s gets entry (s + index) mod len(lineup)."""
    n = len(lineup)
    return [lineup[(seat + index) % n] for seat in range(n)]


@dataclass(frozen=True)
class GameJob:
    """Everything needed to play one game of a simulation (plain, picklable data)."""

    game: str
    players: int
    options: dict[str, Any]
    agents: tuple[str, ...]  # agent spec per seat ("random", "mcts:iters=200")
    seed: int  # the game's own seed (already derived from the simulation's)
    index: int  # position of the game in the simulation
    labels: tuple[str, ...] = ()  # agent name per seat for reports (default: the specs)
    record: bool = False  # return the game record in the result
    engine: str | None = None  # the engine that plays the rules (None: the game's default)
    # The agents of `agents` registered by a call (not built in, not an installed plugin): they
    # go with the job to its worker process, which would not know them (agents/registry.py).
    # Filled when the job is made, from this process's registrations.
    registrations: tuple[Any, ...] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.registrations is None:
            object.__setattr__(self, "registrations", registrations_for(self.agents))

    @property
    def seat_labels(self) -> tuple[str, ...]:
        return self.labels or self.agents


@dataclass
class GameResult:
    """What one game produced. `seats[s]` is the agent (label) that sat in seat s."""

    index: int
    seed: int
    seats: list[str]
    scores: list[int]
    returns: list[float]
    winners: list[int]  # seats with the top score (several when tied)
    turns: int | None  # turns played, when the game counts them
    decisions: int  # decisions (actions) taken in the game
    seconds: float  # wall time of the game, agents included
    seat_decisions: list[int] = field(default_factory=list)
    seat_seconds: list[float] = field(default_factory=list)  # agents' thinking time per seat
    agent_stats: list[dict[str, float]] = field(default_factory=list)  # e.g. MCTS iterations
    peak_rss_bytes: int = 0  # peak resident memory of the process that played the game
    record: dict[str, Any] | None = None  # the record JSON, when the job asked for it
    engine: str = "python"  # the engine that played the game (as the worker loaded it)

    def to_json(self, with_record: bool = False) -> dict[str, Any]:
        data = {
            "index": self.index, "seed": self.seed, "seats": list(self.seats),
            "scores": list(self.scores), "returns": list(self.returns),
            "winners": list(self.winners), "turns": self.turns, "decisions": self.decisions,
            "seconds": self.seconds, "seat_decisions": list(self.seat_decisions),
            "seat_seconds": list(self.seat_seconds),
            "agent_stats": [dict(s) for s in self.agent_stats],
            "peak_rss_bytes": self.peak_rss_bytes, "engine": self.engine,
        }
        if with_record:
            data["record"] = self.record
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameResult:
        return cls(**{key: data[key] for key in cls.__dataclass_fields__ if key in data})

    def outcome(self) -> tuple[Any, ...]:
        """The deterministic part of the result (no timings, no memory): equal for equal jobs."""
        return (self.index, self.seed, tuple(self.seats), tuple(self.scores),
                tuple(self.returns), tuple(self.winners), self.turns, self.decisions,
                tuple(self.seat_decisions))


def make_jobs(game: str, players: int, options: dict[str, Any], lineup: Sequence[str],
              games: int, base_seed: int, labels: Sequence[str] | None = None,
              records: bool = False, start: int = 0, engine: str | None = None) -> list[GameJob]:
    """The jobs of a simulation: seeds derived from (base_seed, index), line-up rotated by index.
    Every job names the same `engine`, so every worker plays on it."""
    if len(lineup) != players:
        raise bw.InvalidOptionError(
            f"the agent line-up has {len(lineup)} entries for {players} seats")
    names = list(labels) if labels is not None else list(lineup)
    return [
        GameJob(game=game, players=players, options=dict(options),
                agents=tuple(rotate(lineup, index)), seed=game_seed(base_seed, index),
                index=index, labels=tuple(rotate(names, index)), record=records, engine=engine)
        for index in range(start, start + games)
    ]


@functools.lru_cache(maxsize=8)
def _load(game: str, players: int, options_json: str, engine: str | None) -> bw.Game:
    """Games are immutable set-ups: one per process and configuration is enough."""
    return bw.load(game, players=players, options=json.loads(options_json), engine=engine)


def load_game(game: str, players: int, options: dict[str, Any],
              engine: str | None = None) -> bw.Game:
    return _load(game, players, json.dumps(options, sort_keys=True), engine)


def peak_rss_bytes() -> int:
    """Peak resident set size of this process (ru_maxrss is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)


def play_game(job: GameJob) -> GameResult:
    """Play one game of the job to the end with fresh agents; raises BoardwrightError on bad
    game, option or agent names."""
    started = time.perf_counter()
    game = load_game(job.game, job.players, job.options, job.engine)
    install(job.registrations)
    agents = [make_agent(spec, seed=agent_seed(job.seed, seat))
              for seat, spec in enumerate(job.agents)]
    state = game.new_game(job.seed)
    state.meta["seats"] = list(job.seat_labels)
    n = game.num_players
    seat_decisions = [0] * n
    seat_seconds = [0.0] * n
    clock = time.perf_counter
    while not state.is_terminal:
        seat = state.current_player
        before = clock()
        action = agents[seat].act(state)
        seat_seconds[seat] += clock() - before
        seat_decisions[seat] += 1
        state.apply(action)
    scores = state.scores
    top = max(scores)
    stats: list[dict[str, float]] = []
    for agent in agents:
        extra: dict[str, float] = {}
        per_decision = getattr(agent, "iterations_per_decision", None)
        if isinstance(per_decision, (int, float)):
            extra["iterations_per_decision"] = float(per_decision)
        stats.append(extra)
    turns = getattr(state, "turn", None)
    return GameResult(
        index=job.index, seed=job.seed, seats=list(job.seat_labels), scores=list(scores),
        returns=list(state.returns()), winners=[s for s, v in enumerate(scores) if v == top],
        turns=turns if isinstance(turns, int) else None, decisions=sum(seat_decisions),
        seconds=time.perf_counter() - started, seat_decisions=seat_decisions,
        seat_seconds=seat_seconds, agent_stats=stats, peak_rss_bytes=peak_rss_bytes(),
        record=state.record.to_json() if job.record else None, engine=game.engine,
    )
