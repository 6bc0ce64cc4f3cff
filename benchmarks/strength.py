"""Bot strength: head-to-head matches between agents, with seats rotated.

Default workload (the project's bar): Carcassonne, 2 players, Abbey & Mayor with every
component; 200 games per pairing; `mcts:seconds=0.25` against `random` and `greedy`, and
`greedy` against `random`. Prints, per pairing, the first agent's win rate with its 95% Wilson
interval and the bar, the mean score margin, MCTS iterations per decision, the wall time, and
the peak resident memory of the worker processes.

    python benchmarks/strength.py --workers 2
    python benchmarks/strength.py --games 40 --pairing mcts:iters=40/greedy
    python benchmarks/strength.py --engine native   # the same games on the compiled engine
"""

from __future__ import annotations

import argparse
import platform
import shlex
import sys
import time

import boardwright as bw
from boardwright.sim.parallel import collect, run_jobs
from boardwright.sim.runner import make_jobs
from boardwright.sim.stats import summarize

MCTS = "mcts:seconds=0.25"
# (agent, opponent, minimum win rate of the agent)
DEFAULT_PAIRINGS = [(MCTS, "random", 0.98), (MCTS, "greedy", 0.70), ("greedy", "random", 0.90)]
OPTIONS = {"expansions": ["abbey_mayor"]}


def run_pairing(agent: str, opponent: str, bar: float | None, games: int, workers: int,
                seed: int, engine: str | None = None) -> dict:
    jobs = make_jobs("carcassonne", 2, OPTIONS, [agent, opponent], games, seed, engine=engine)
    start = time.perf_counter()
    results = collect(run_jobs(jobs, workers)).results
    wall = time.perf_counter() - start
    stats = {s.agent: s for s in summarize(results, [agent, opponent])}
    mine, theirs = stats[agent], stats[opponent]
    margin = (sum(mine.scores) - sum(theirs.scores)) / max(len(results), 1)
    peak_mb = max(r.peak_rss_bytes for r in results) / 2**20 if results else 0.0
    low, high = mine.win_rate_ci
    verdict = "" if bar is None else ("  PASS" if mine.win_rate >= bar else "  MISS")
    print(f"{agent} vs {opponent}: {len(results)} games, win rate {100 * mine.win_rate:.1f}% "
          f"[95% CI {100 * low:.1f}, {100 * high:.1f}]"
          + (f", bar {100 * bar:.0f}%{verdict}" if bar is not None else ""))
    print(f"  mean score {mine.mean_score:.1f} vs {theirs.mean_score:.1f} (margin {margin:+.1f}); "
          f"draws {mine.draws}")
    for row in (mine, theirs):
        if row.iterations_per_decision:
            print(f"  {row.agent}: {row.iterations_per_decision:.0f} iterations per decision, "
                  f"{row.ms_per_decision:.0f} ms per decision")
    print(f"  wall time {wall:.0f} s with {workers} worker(s); peak RSS per worker {peak_mb:.0f} MB")
    sys.stdout.flush()
    return {"agent": agent, "opponent": opponent, "win_rate": mine.win_rate, "bar": bar}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per pairing")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--pairing", action="append", default=[], metavar="AGENT/OPPONENT",
                        help="run this pairing instead of the default ones (repeatable)")
    parser.add_argument("--engine", metavar="NAME", default=None,
                        help="the Carcassonne engine (python, native; default: the game's default)")
    args = parser.parse_args(argv)
    try:
        engine = bw.load("carcassonne", 2, OPTIONS, engine=args.engine).engine
    except bw.BoardwrightError as exc:
        parser.error(str(exc))
    pairings = [(a, b, None) for a, b in (p.split("/", 1) for p in args.pairing)] or DEFAULT_PAIRINGS
    print(f"command: python {shlex.join([sys.argv[0], *(argv if argv is not None else sys.argv[1:])])}")
    print(f"machine: {platform.python_implementation()} {platform.python_version()}, "
          f"{args.workers} worker process(es); workload: carcassonne, 2 players, {OPTIONS}, "
          f"{engine} engine")
    start = time.perf_counter()
    for agent, opponent, bar in pairings:
        run_pairing(agent, opponent, bar, args.games, args.workers, args.seed, engine)
    print(f"total wall time {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
