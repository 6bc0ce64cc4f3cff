"""Game analysis: every decision of a record judged by the bot, the move played against its best.

Each decision is searched from the position before it, *as its mover knew it*: the paired
search (`MCTSAgent` with `paired`) determinizes for the mover, so the hidden future (the real
draws) never enters the judgement. The move that was played is always among the compared
candidates (`search(..., include=[played])`), so it is measured on the same samples (same hidden
tiles, same replies) as the bot's best move, and the difference is the paired difference that
has almost no noise. Points lost = best margin - played margin, never negative, exactly 0 when
the best move was played. A decision with one legal action is forced: marked, not searched.

Decisions are independent, so they run in a process pool (`workers`), each with its own seed
derived from (seed, step): the result is the same whatever the pool's scheduling, and the same
on a rerun. The budget is a fixed number of playouts per decision (`iterations`).

Flags by points of expected margin lost (`FLAGS`): inaccuracy >= 2, mistake >= 4, blunder >= 7.
Calibrated on two-player Carcassonne + Abbey & Mayor games at the default budget: the greedy bot
loses 0.3-0.4 points a decision, with a few inaccuracies and at most one or two mistakes a game
and no blunder; a random player loses about 3 points a decision, over half of its moves flagged and
about one in ten a blunder. Lower thresholds would flag the search's noise and the small slips
of every game; higher ones (10 points) would flag almost nothing, even of a random player.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import boardwright as bw
from boardwright.agents.mcts import MCTSAgent
from boardwright.core.errors import CorruptRecordError, InvalidOptionError
from boardwright.core.inputs import MAX_SEED
from boardwright.core.record import GameRecord

VERSION = 1  # of the stored format and of the method: a stored analysis of another is redone
DEFAULT_ITERATIONS = 480  # playouts per decision of a 2-player game (about 0.15 s, native;
# Carcassonne's playouts run three turns on)
MIN_DEFAULT_ITERATIONS = 120
DEFAULT_CANDIDATES = 8  # moves compared per decision (the best by prior, plus the one played)
DEFAULT_WORKERS = 2
MAX_ITERATIONS = 1_000_000
MAX_WORKERS = 64
# (name, points lost at least): the largest that applies is the decision's flag.
FLAGS: tuple[tuple[str, float], ...] = (("blunder", 7.0), ("mistake", 4.0),
                                        ("inaccuracy", 2.0))
FLAG_NAMES = tuple(name for name, _ in reversed(FLAGS))

Progress = Callable[[int, int], None]  # (decisions done, decisions in all)


def flag_for(lost: float, flags: Sequence[tuple[str, float]] = FLAGS) -> str | None:
    """The flag of a decision that lost `lost` points (None: a good move); `flags` are a
    game's own thresholds in its analysis unit (Game.analysis_unit), by default FLAGS."""
    for name, threshold in flags:
        if lost >= threshold:
            return name
    return None


@dataclass(frozen=True)
class Settings:
    """What an analysis depends on besides the record: the same settings on the same record
    give the same analysis, so a stored one is reused only when these match."""

    iterations: int | None = None  # playouts per decision (None: `default_iterations`)
    candidates: int = DEFAULT_CANDIDATES
    seed: int = 0
    engine: str | None = None  # the engine searched on (None: the game's default)
    unit: str | None = None  # the game's analysis unit when not points (Game.analysis_unit)

    def check(self) -> Settings:
        for name, low, high in (("iterations", 1, MAX_ITERATIONS), ("candidates", 1, 64),
                                ("seed", 0, MAX_SEED)):
            value = getattr(self, name)
            if value is None and name == "iterations":
                continue
            if type(value) is not int or not low <= value <= high:
                raise InvalidOptionError(f"{name} must be a whole number from {low} to "
                                         f"{high}, not {value!r}")
        return self

    def resolved(self, record: GameRecord) -> Settings:
        """These settings with every default spelled out for `record`'s game: the engine (the
        game's default) and the budget (`default_iterations`), so a stored analysis made with
        the defaults is known as such."""
        engine = self.engine if self.engine is not None else \
            bw.available_engines(record.game)[0]
        iterations = self.iterations if self.iterations is not None else \
            default_iterations(record.players)
        unit = bw.load(record.game, record.players, record.options).analysis_unit
        return replace(self, engine=engine, iterations=iterations,
                       unit=None if unit.is_default else unit.name)


def default_iterations(players: int) -> int:
    """The default budget per decision: 480 playouts with two players, fewer with more (a
    playout runs through every other seat's turns up to the mover's horizon, so its cost grows
    with the players; the budget shrinks alike to keep a game's analysis about as long), at
    least 120 (the paired differences stay within a few tenths of a point)."""
    return max(MIN_DEFAULT_ITERATIONS, DEFAULT_ITERATIONS * 2 // max(2, players))


@dataclass
class Decision:
    """One action of the record, judged. Margins are the mover's expected lead in points over
    the best other seat at the end of the game (its own score when it plays alone)."""

    step: int  # index of the action in the record (the position before it is step `step`)
    seat: int
    played: str  # the game's description of the move played
    played_action: dict[str, Any]
    forced: bool = False  # one legal action: nothing to judge
    margin: float | None = None  # expected margin after the move played
    best: str | None = None
    best_action: dict[str, Any] | None = None
    best_margin: float | None = None
    lost: float = 0.0  # best_margin - margin to a tenth of a point, >= 0
    flag: str | None = None  # "inaccuracy", "mistake", "blunder" or None
    samples: int = 0  # playouts behind each margin
    leads: list[float] | None = None  # every seat's expected lead after the move played


@dataclass
class SeatSummary:
    seat: int
    decisions: int  # judged (not forced)
    average_lost: float
    total_lost: float
    flags: dict[str, int] = field(default_factory=dict)


@dataclass
class Analysis:
    version: int
    game: str
    players: int
    record_hash: str
    settings: Settings
    decisions: list[Decision]
    seats: list[SeatSummary]
    seconds: float = 0.0  # wall time of the analysis
    flags: list[list[Any]] | None = None  # the game's thresholds (Game.analysis_unit), else FLAGS

    def matches(self, record_hash: str, settings: Settings) -> bool:
        """Whether this analysis is the one `settings` would make of the record so hashed."""
        return (self.version == VERSION and self.record_hash == record_hash
                and self.settings == settings)

    def margins(self) -> list[list[float | None]]:
        """Per step 0..len(decisions), every seat's expected lead after that many actions:
        the chart of the game. Step 0 (before any move) and forced moves carry the last
        known value forward (a forced move changes nothing the player could)."""
        current: list[float | None] = [0.0] * self.players
        rows = [list(current)]
        for decision in self.decisions:
            if decision.leads is not None:
                current = list(decision.leads)
            rows.append(list(current))
        return rows

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["margins"] = self.margins()
        data["thresholds"] = {name: points for name, points in (self.flags or FLAGS)}
        data["unit"] = self.settings.unit or "points"
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Any) -> Analysis:
        """An analysis from its JSON form; CorruptRecordError when it is not one."""
        try:
            return cls(version=data["version"], game=data["game"], players=data["players"],
                       record_hash=data["record_hash"], settings=Settings(**data["settings"]),
                       decisions=[Decision(**d) for d in data["decisions"]],
                       seats=[SeatSummary(**s) for s in data["seats"]],
                       seconds=data.get("seconds", 0.0), flags=data.get("flags"))
        except (KeyError, TypeError) as exc:
            raise CorruptRecordError(f"not a stored analysis: {exc}") from None

    @classmethod
    def loads(cls, text: str | bytes) -> Analysis:
        try:
            return cls.from_json(json.loads(text))
        except (ValueError, RecursionError) as exc:
            raise CorruptRecordError(f"a stored analysis is not valid JSON: {exc}") from None


def record_hash(record: GameRecord) -> str:
    """A hash of what a game's positions depend on: the options as the game spells them out
    (defaults included, so `{}` and the same options written in full hash alike), the seed and
    the actions; not the meta (seat names change nothing)."""
    data = record.to_json()
    data.pop("meta", None)
    try:
        data["options"] = bw.load(record.game, record.players, record.options).option_summary()
    except bw.BoardwrightError as exc:
        raise CorruptRecordError(f"record cannot be loaded: {exc}") from None
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def decision_seed(seed: int, step: int) -> int:
    """Each decision's own seed: results do not depend on which worker ran it, or when."""
    return (seed * 1_000_003 + step * 7919 + 1) % (MAX_SEED + 1)


# -- one decision (runs in a worker) -----------------------------------------------------------

@dataclass(frozen=True)
class _Job:
    record: dict[str, Any]
    key: str  # the record's hash: the worker's cached position is of this record
    step: int
    settings: Settings


class _Positions:
    """A worker's position of the record it analyses, moved forward job by job: decisions are
    handed out in order, so a worker rarely replays from the start."""

    def __init__(self) -> None:
        self.key: str | None = None
        self.state: Any = None
        self.step = 0

    def at(self, job: _Job) -> Any:
        if self.key != job.key or self.step > job.step:
            record = GameRecord.from_json(job.record)
            self.state = bw.replay(record, steps=0, engine=job.settings.engine)
            self.key, self.step = job.key, 0
        game = self.state.game
        actions = job.record["actions"]
        while self.step < job.step:
            self.state.apply(game.action_from_json(actions[self.step]))
            self.step += 1
        return self.state


_POSITIONS = _Positions()


def _judge(job: _Job, positions: _Positions = _POSITIONS) -> Decision:
    """One job, from the position `positions` (a worker's own by default) moves forward to."""
    state = positions.at(job)
    return judge(state, state.game.action_from_json(job.record["actions"][job.step]),
                 job.step, job.settings)


def judge(state: bw.State, played: Any, step: int, settings: Settings) -> Decision:
    """The decision of `state`'s mover who played `played`: searched from the mover's
    information, the played move among the candidates. `state` is not changed."""
    game = state.game
    seat = state.current_player
    actions = state.legal_actions()
    text = game.describe(state, played, bw.OMNISCIENT)  # the game's words, as the replay's
    decision = Decision(step=step, seat=seat, played=text, played_action=played.to_json())
    if len(actions) == 1:
        decision.forced = True
        return decision
    iterations = settings.iterations or default_iterations(game.num_players)
    agent = MCTSAgent(seed=decision_seed(settings.seed, step), iterations=iterations,
                      paired=settings.candidates, reuse=False, workers=1)
    agent.adopt(game)
    unit = game.analysis_unit
    if not unit.is_default:
        agent.lead_unit = unit.lead
    agent.search(state, actions, include=[played])
    means = {action: total / count for action, (total, count) in agent.margins.items()}
    best = max(means, key=lambda a: (means[a], a == played))  # a tie goes to the move played
    count = agent.margins[played][1]
    decision.margin = means[played]
    decision.best = game.describe(state, best, bw.OMNISCIENT)
    decision.best_action = best.to_json()
    decision.best_margin = means[best]
    # Rounded to the tenth of a point it is shown with, so a flag never disagrees with the
    # figure beside it (4.96 shown as 5.0 is a mistake, not an inaccuracy).
    decision.lost = 0.0 if best == played else round(max(0.0, means[best] - means[played]), 1)
    # Nothing is flagged where even the best move loses the game: no move could save it.
    decision.flag = None if unit.lost(means[best]) else flag_for(decision.lost,
                                                                 unit.flags or FLAGS)
    decision.samples = count
    decision.leads = [total / count for total in agent.leads[played]]
    return decision


# -- a whole game ------------------------------------------------------------------------------

def summarise(decisions: Sequence[Decision], players: int) -> list[SeatSummary]:
    summaries = []
    for seat in range(players):
        judged = [d for d in decisions if d.seat == seat and not d.forced]
        total = sum(d.lost for d in judged)
        flags = {name: sum(1 for d in judged if d.flag == name) for name in FLAG_NAMES}
        summaries.append(SeatSummary(seat=seat, decisions=len(judged),
                                     average_lost=total / len(judged) if judged else 0.0,
                                     total_lost=total, flags=flags))
    return summaries


def load_record(record: GameRecord | dict[str, Any]) -> GameRecord:
    if isinstance(record, GameRecord):
        return record.check()
    return GameRecord.from_json(record)


def pool(workers: int) -> ProcessPoolExecutor:
    """Worker processes for analyses (spawned: a server's threads are not forked)."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))


def analyse(record: GameRecord | dict[str, Any], settings: Settings | None = None, *,
            workers: int = DEFAULT_WORKERS, executor: Executor | None = None,
            progress: Progress | None = None) -> Analysis:
    """Judge every decision of a finished or unfinished record (a record carries everything,
    so a caller that must not show hidden information, a web server, checks the game is over).

    Runs in this process when `workers` is 1 and no `executor` is given; else in `executor` or
    a pool of `workers` processes made for the call. `progress(done, total)` is called in this
    process after each decision."""
    settings = (settings or Settings()).check()
    if type(workers) is not int or not 1 <= workers <= MAX_WORKERS:
        raise InvalidOptionError(f"workers must be a whole number from 1 to {MAX_WORKERS}, "
                                 f"not {workers!r}")
    record = load_record(record)
    final = bw.replay(record, engine=settings.engine)  # validates the whole record first
    settings = settings.resolved(record)
    started = time.perf_counter()
    key = record_hash(record)
    data = record.to_json()
    jobs = [_Job(data, key, step, settings) for step in range(len(record.actions))]
    total = len(jobs)
    results: dict[int, Decision] = {}
    if progress is not None:
        progress(0, total)
    if executor is None and workers == 1:
        positions = _Positions()
        for job in jobs:
            results[job.step] = _judge(job, positions)
            if progress is not None:
                progress(len(results), total)
    else:
        own = executor is None
        runner = pool(workers) if executor is None else executor
        try:
            futures = [runner.submit(_judge, job) for job in jobs]
            for future in as_completed(futures):
                decision = future.result()
                results[decision.step] = decision
                if progress is not None:
                    progress(len(results), total)
        finally:
            if own:
                runner.shutdown(wait=True, cancel_futures=True)
    decisions = [results[step] for step in range(total)]
    own = final.game.analysis_unit.flags
    return Analysis(version=VERSION, game=record.game, players=final.game.num_players,
                    record_hash=key, settings=settings, decisions=decisions,
                    seats=summarise(decisions, final.game.num_players),
                    seconds=time.perf_counter() - started,
                    flags=[list(flag) for flag in own] if own else None)
