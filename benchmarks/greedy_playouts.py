"""Greedy playouts of the native Carcassonne engine: how many a second, and how many the MCTS
bot gets through per decision (its search defaults, 0.25 s), with 2 and 4 players, Abbey &
Mayor with farmers.

    python benchmarks/greedy_playouts.py                       # this build (about 6 s)
    python benchmarks/greedy_playouts.py --baseline OTHER/src  # and another build (about 40 s)

The playouts are the search's: from mid-game positions (50 per player count, from seeded random
games), greedy moves by every seat until the searcher's `horizon`-th turn start, the leaf judged
by the learned evaluation. With --baseline, each round measures the two builds one after the
other in fresh processes (PYTHONPATH set to each `src`), so that the load of a shared machine
falls on both alike; the medians over the rounds are reported.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import boardwright as bw
from boardwright.agents.mcts import MCTSAgent
from boardwright.core.game import PlayoutStop
from boardwright.games.carcassonne.search import search_horizon

OPTIONS = {"farmers": True, "expansions": ["abbey_mayor"]}
PLAYERS = (2, 4)


def positions(game: bw.Game, count: int, seed: int) -> list[Any]:
    """Mid-game positions at a turn start: `count` random games, each stopped after 20 to 120
    random actions and played on to the next turn start."""
    rng = random.Random(seed)
    out = []
    for index in range(count):
        state = game.new_game(seed + index)
        for _ in range(rng.randrange(20, 120)):
            state.apply(rng.choice(state.legal_actions()))
        while not state.at_turn_start and not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal:
            out.append(state)
    return out


def greedy_playouts(game: bw.Game, starts: list[Any], repeat: int, seed: int) -> dict[str, float]:
    """Playouts and greedy plies per second of CPU time (the process's: other work on a shared
    machine slows its clock less than the wall clock), `repeat` playouts from each position."""
    horizon = search_horizon(game.num_players)
    rng = random.Random(seed)
    plies = playouts = 0
    elapsed = 0.0
    for _ in range(repeat):
        for start in starts:
            state = start.clone()
            before = len(state._history)
            stop = PlayoutStop(start.current_player, 0, True, 200 * horizon, horizon)
            began = time.process_time()
            game.playout(state, "greedy", rng, stop)
            elapsed += time.process_time() - began
            plies += len(state._history) - before
            playouts += 1
    return {"playouts/s": playouts / elapsed, "plies/s": plies / elapsed}


def mcts_playouts(game: bw.Game, starts: list[Any], decisions: int, seed: int) -> float:
    """Playouts per decision of the MCTS bot (search defaults, 0.25 s), over `decisions`
    decisions from the first positions."""
    per = []
    for index, start in enumerate(starts[:decisions]):
        agent = MCTSAgent(seed=seed + index, seconds=0.25)
        agent.act(start.clone())
        per.append(agent.iterations_per_decision)
    return statistics.median(per)


def measure(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    out = {}
    for players in PLAYERS:
        game = bw.load("carcassonne", players, OPTIONS, engine="native")
        starts = positions(game, args.positions, args.seed)
        greedy_playouts(game, starts[:5], 1, args.seed)  # warm-up
        figures = greedy_playouts(game, starts, args.repeat, args.seed)
        figures["MCTS playouts/decision"] = mcts_playouts(game, starts, args.decisions, args.seed)
        out[f"{players} players"] = figures
    return out


def show(name: str, results: dict[str, dict[str, float]]) -> None:
    for workload, figures in results.items():
        text = ", ".join(f"{value:,.0f} {key}" for key, value in figures.items())
        print(f"  {name}, {workload}: {text}")


def compare(args: argparse.Namespace) -> None:
    """Alternate fresh processes of this build and the baseline; medians per figure."""
    here = str(Path(bw.__file__).resolve().parents[1])
    builds = {"baseline": str(Path(args.baseline).resolve()), "this build": here}
    rounds: dict[str, list[dict[str, dict[str, float]]]] = {name: [] for name in builds}
    child = [sys.executable, __file__, "--json", "--positions", str(args.positions),
             "--repeat", str(args.repeat), "--decisions", str(args.decisions),
             "--seed", str(args.seed)]
    for index in range(args.rounds):
        for name, src in builds.items():
            env = {**os.environ, "PYTHONPATH": src}
            done = subprocess.run(child, env=env, check=True, capture_output=True, text=True)
            rounds[name].append(json.loads(done.stdout))
            print(f"round {index + 1}:")
            show(name, rounds[name][-1])
    print(f"medians over {args.rounds} rounds:")
    medians = {}
    for name, runs in rounds.items():
        medians[name] = {w: {k: statistics.median(r[w][k] for r in runs) for k in runs[0][w]}
                         for w in runs[0]}
        show(name, medians[name])
    for workload in medians["baseline"]:
        ratios = ", ".join(
            f"{key} {medians['this build'][workload][key] / value:.2f}x"
            for key, value in medians["baseline"][workload].items())
        print(f"  this build / baseline, {workload}: {ratios}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--positions", type=int, default=50, help="start positions per player count")
    parser.add_argument("--repeat", type=int, default=4, help="playouts from each position")
    parser.add_argument("--decisions", type=int, default=12, help="MCTS decisions per player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", help="`src` directory of another build to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="with --baseline: alternations")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON only")
    args = parser.parse_args(argv)
    if "native" not in bw.available_engines("carcassonne"):
        sys.exit("the native engine is not built here (see the README, Engines)")
    if args.json:
        print(json.dumps(measure(args)))
        return
    print(f"command: python {shlex.join([sys.argv[0], *(argv if argv is not None else sys.argv[1:])])}")
    if args.baseline:
        compare(args)
    else:
        show("this build", measure(args))


if __name__ == "__main__":
    main()
