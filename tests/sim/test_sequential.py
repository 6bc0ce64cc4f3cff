"""Sequential strength matches: paired deals, the SPRT's decisions, resuming from the results
file, and a real match that decides on its own."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import ModuleType

import pytest
import script_helpers

from boardwright.sim.runner import GameJob, GameResult, game_seed
from boardwright.sim.sequential import FAIL, PASS, SPRT, UNDECIDED, Match, agent_score, run_match

MATCH = Match("queens", 2, {}, "greedy", ("random",), seed=3)


def test_a_deal_is_one_seed_with_the_agent_in_each_seat() -> None:
    four = Match("carcassonne", 4, {"farmers": True}, "mcts", ("greedy",) * 3, seed=9)
    jobs = four.deal_jobs(5)
    assert [job.index for job in jobs] == [20, 21, 22, 23]
    assert {job.seed for job in jobs} == {game_seed(9, 5)}
    for seat, job in enumerate(jobs):
        assert job.agents[seat] == "mcts" and job.labels[seat] == "agent"
        assert sorted(job.agents) == ["greedy", "greedy", "greedy", "mcts"]
    assert MATCH.deal_jobs(0)[0].agents == ("greedy", "random")
    assert MATCH.deal_jobs(0)[1].agents == ("random", "greedy")


def test_the_sprt_passes_and_fails_exactly_at_its_bounds() -> None:
    test = SPRT(0.85, 0.90)
    wins_needed = math.ceil(math.log(19) / math.log(0.90 / 0.85))
    for _ in range(wins_needed - 1):
        test.add(1.0)
    assert test.decision is None
    test.add(1.0)
    assert test.decision == PASS and test.games == wins_needed
    losing = SPRT(0.85, 0.90)
    losses_needed = math.ceil(math.log(19) / math.log(0.15 / 0.10))
    for _ in range(losses_needed):
        assert losing.decision is None
        losing.add(0.0)
    assert losing.decision == FAIL
    with pytest.raises(ValueError):
        SPRT(0.9, 0.85)


def fake_result(job: GameJob, agent_wins: bool) -> GameResult:
    seat = job.labels.index("agent")
    winner = seat if agent_wins else 1 - seat
    return GameResult(index=job.index, seed=job.seed, seats=list(job.labels), scores=[0, 0],
                      returns=[0.0, 0.0], winners=[winner], turns=1, decisions=1, seconds=0.0)


def backwards_runner(outcomes: dict[int, bool], played: list[int]):
    """Plays jobs in reverse order (as a pool may finish them): the agent wins unless told."""
    def run(jobs: Iterable[GameJob], workers: int) -> Iterator[GameResult]:
        for job in reversed(list(jobs)[:40]):
            played.append(job.index)
            yield fake_result(job, outcomes.get(job.index, True))
    return run


def test_the_decision_reads_whole_deals_in_order_and_resumes_from_the_file(tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    played: list[int] = []
    # The agent loses game 1 (deal 0's second seating) and wins everything else.
    first = run_match(MATCH, SPRT(0.5, 0.8), max_deals=20, minutes=None, results_file=results,
                      runner=backwards_runner({1: False}, played))
    assert first.verdict == PASS
    scores = [agent_score(r) for r in first.results]
    assert scores[:2] == [1.0, 0.0] and first.test.games == len(scores) == 2 * first.deals
    lines = results.read_text().splitlines()
    assert len(lines) == len(played)  # every game played is kept, decided or not
    with results.open("a") as out:
        out.write('{"match": "cut sho')  # a run killed in the middle of a line
    again: list[int] = []
    second = run_match(MATCH, SPRT(0.5, 0.8), max_deals=20, minutes=None, results_file=results,
                       runner=backwards_runner({}, again))
    assert again == [] and second.resumed == len(played)
    assert (second.verdict, second.deals, second.test.llr) == (first.verdict, first.deals,
                                                               first.test.llr)
    other = Match("queens", 2, {}, "greedy", ("random",), seed=4)  # another match: no reuse
    assert run_match(other, SPRT(0.5, 0.8), max_deals=1, minutes=None, results_file=results,
                     runner=backwards_runner({}, again)).resumed == 0


def test_a_match_without_enough_deals_is_undecided() -> None:
    outcome = run_match(MATCH, SPRT(0.5, 0.8), max_deals=2, minutes=None,
                        runner=backwards_runner({}, []))
    assert outcome.verdict == UNDECIDED and outcome.deals == 2


def test_a_real_match_decides_and_writes_every_game(tmp_path: Path) -> None:
    results = tmp_path / "strength.jsonl"
    outcome = run_match(MATCH, SPRT(0.3, 0.6), workers=1, max_deals=60, minutes=None,
                        results_file=results)
    assert outcome.verdict == PASS  # greedy beats random at Queens & Princes
    entries = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(entries) >= 2 * outcome.deals
    assert {entry["match"] for entry in entries} == {MATCH.key()}
    assert all(entry["result"]["seats"].count("agent") == 1 for entry in entries)


def load_script() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "match.py"
    return script_helpers.load_script(path, "match_benchmark")


def test_the_match_script_reports_its_verdict_and_resumes(tmp_path: Path, capsys) -> None:
    script = load_script()
    argv = ["greedy", "random", "--game", "queens", "--bar", "0.6", "--low", "0.3",
            "--workers", "1", "--results", str(tmp_path / "m.jsonl")]
    script.main(argv)
    out = capsys.readouterr().out
    assert re.search(r"greedy vs random: PASS after \d+ deals \(\d+ games, 0 read back", out)
    assert re.search(r"  greedy: mean score [\d.]+\n  random: mean score", out)
    script.main(argv)
    again = capsys.readouterr().out
    assert re.search(r"PASS after \d+ deals \((\d+) games, \1 read back", again)
    with pytest.raises(SystemExit):
        script.main(["greedy", "random", "--game", "queens", "--bar", "0.3", "--low", "0.6"])
