"""A strength match that stops when it has decided: paired deals, a sequential test (SPRT),
every game appended to a results file as it ends (run the same command again to resume).

    python benchmarks/match.py mcts:seconds=0.25 greedy --bar 0.90 --low 0.85
    python benchmarks/match.py mcts:seconds=0.25 greedy greedy greedy --bar 0.60 --low 0.50
    python benchmarks/match.py mcts greedy --game queens --options '{}' --bar 0.65 --low 0.55
    python benchmarks/match.py matcher random --game goofspiel --bar 0.8 --low 0.6

Any agent string works, installed plugins' agents included; `--import FILE.py` first imports a
file that registers agents of one's own (examples/lookahead_agent.py).

The agent plays every deal once from each seat. The test passes the agent when its win rate is
at least --bar rather than at most --low (5% error each way); the report gives the win rate with
its 95% Wilson interval. A match that has not decided after --minutes (20) or --deals says so.
"""

from __future__ import annotations

import argparse
import json
import platform
import shlex
import sys
from pathlib import Path

from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.agents.registry import import_agents
from boardwright.sim.sequential import SPRT, Match, run_match
from boardwright.sim.stats import summarize

AM = {"expansions": ["abbey_mayor"]}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("agent", help="the agent under test (an agent string)")
    parser.add_argument("opponents", nargs="+", help="the other seats' agents")
    parser.add_argument("--game", default="carcassonne")
    parser.add_argument("--options", type=json.loads, default=None,
                        help="game options as JSON (default for Carcassonne: Abbey & Mayor)")
    parser.add_argument("--bar", type=float, default=0.90, help="win rate to reach (p1)")
    parser.add_argument("--low", type=float, default=0.85, help="win rate to rule out (p0)")
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--deals", type=int, default=2000, help="at most this many deals")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--engine", default=None)
    parser.add_argument("--import", dest="imports", action="append", default=[],
                        metavar="MODULE|FILE.py",
                        help="import a module or file that registers agents (bw.register_agent)"
                             " first; installed plugins need none")
    parser.add_argument("--results", type=Path, default=Path("benchmarks/results/matches.jsonl"),
                        help="games are appended here; a run resumes the games it finds")
    args = parser.parse_args(argv)
    options = args.options if args.options is not None else (AM if args.game == "carcassonne"
                                                              else {})
    players = 1 + len(args.opponents)
    try:
        for source in args.imports:
            import_agents(source)
        for spec in (args.agent, *args.opponents):
            make_agent(spec, seed=0)  # an unknown agent is a usage error, not a worker's crash
        engine = bw.load(args.game, players, options, engine=args.engine).engine
        test = SPRT(args.low, args.bar)
    except (bw.BoardwrightError, ValueError) as exc:
        parser.error(str(exc))
    match = Match(args.game, players, options, args.agent, tuple(args.opponents), args.seed,
                  args.engine)
    print(f"command: python {shlex.join([sys.argv[0], *(argv if argv is not None else sys.argv[1:])])}")
    print(f"machine: {platform.python_implementation()} {platform.python_version()}, "
          f"{args.workers} worker process(es); {args.game}, {players} players, {options}, "
          f"{engine} engine")
    with Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                  transient=False) as progress:
        task = progress.add_task("deals", total=None)

        def on_deal(sprt: SPRT, deals: int) -> None:
            low, high = sprt.interval
            line = (f"{deals} deals, {sprt.games} games: {100 * sprt.rate:.1f}% "
                    f"[{100 * low:.1f}, {100 * high:.1f}], LLR {sprt.llr:+.2f} "
                    f"({sprt.lower:+.2f}, {sprt.upper:+.2f})")
            progress.update(task, completed=deals, description=line)
            if not progress.console.is_terminal:  # a log file gets one line per deal
                print(line, flush=True)

        outcome = run_match(match, test, args.workers, args.deals, args.minutes, args.results,
                            on_deal)
    low, high = test.interval
    print(f"{args.agent} vs {' + '.join(args.opponents)}: {outcome.verdict.upper()} after "
          f"{outcome.deals} deals ({test.games} games, {outcome.resumed} read back from "
          f"{args.results}): win rate {100 * test.rate:.1f}% [95% CI {100 * low:.1f}, "
          f"{100 * high:.1f}], bar {100 * args.bar:.0f}% against {100 * args.low:.0f}%")
    names = {"agent": args.agent, **{f"opponent{i + 1}": name
                                     for i, name in enumerate(args.opponents)}}
    for row in summarize(outcome.results):
        extra = (f", {row.iterations_per_decision:.0f} iterations per decision"
                 if row.iterations_per_decision else "")
        print(f"  {names.get(row.agent, row.agent)}: mean score {row.mean_score:.1f}{extra}")
    print(f"  wall time {outcome.seconds:.0f} s")


if __name__ == "__main__":
    main()
