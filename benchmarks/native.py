"""The native Carcassonne engine beside the Python one, in one run: every figure the README
gives for the engines.

    python benchmarks/native.py                  # everything (about two minutes)
    python benchmarks/native.py --games 2000 --decisions 12

Measured, each engine side by side on the same seeds:
- random 2-player games through the public API (`legal_actions` + `apply`), base game with
  farmers and Abbey & Mayor with every component;
- whole random games played in compiled code (`CarcassonneGame.random_games`, native only);
- MCTS with the game's search defaults at 0.25 s per decision: playouts per decision;
- `clone()` time, mid-game, and the memory one native state holds (a clone: what a search
  keeps), halfway through a game, on average over every position of a game, and at the end;
- the process's peak resident memory at the end (the MCTS tree cap bounds it).
"""

from __future__ import annotations

import argparse
import platform
import random
import resource
import shlex
import sys
import time

import boardwright as bw
from boardwright.agents.mcts import MCTSAgent

WORKLOADS = {"base": {"farmers": True},
             "abbey_mayor": {"farmers": True, "expansions": ["abbey_mayor"]}}
ENGINES = ("python", "native")


def api_games(game: bw.Game, games: int, seed: int) -> float:
    """Random games per second through the public API."""
    rng = random.Random(seed)
    choice = rng.choice
    start = time.perf_counter()
    for index in range(games):
        state = game.new_game(seed + index)
        while not state.is_terminal:
            state.apply(choice(state.legal_actions()))
    return games / (time.perf_counter() - start)


def batch_games(game: bw.Game, games: int, seed: int) -> float:
    start = time.perf_counter()
    game.random_games(games, seed)  # type: ignore[attr-defined]
    return games / (time.perf_counter() - start)


def midgame(game: bw.Game, seed: int, plies: int = 60) -> bw.State:
    state = game.new_game(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        state.apply(rng.choice(state.legal_actions()))
    return state


def clone_cost(game: bw.Game, seed: int, repeat: int = 20000) -> float:
    """Microseconds per clone of a mid-game state."""
    state = midgame(game, seed)
    start = time.perf_counter()
    for _ in range(repeat):
        state.clone()
    return (time.perf_counter() - start) / repeat * 1e6


def state_memory(game: bw.Game, games: int, seed: int) -> dict[str, float]:
    """Bytes one native state holds (a clone of each position of random games)."""
    half, mean, end = [], [], []
    for index in range(games):
        state = game.new_game(seed + index)
        rng = random.Random(seed + index)
        sizes = []
        while not state.is_terminal:
            sizes.append(state.clone()._memory_bytes())  # type: ignore[attr-defined]
            state.apply(rng.choice(state.legal_actions()))
        half.append(sizes[len(sizes) // 2])
        mean.append(sum(sizes) / len(sizes))
        end.append(state.clone()._memory_bytes())  # type: ignore[attr-defined]
    return {"halfway": sum(half) / games, "mean": sum(mean) / games, "end": sum(end) / games,
            "largest": max(end)}


def playouts_per_decision(game: bw.Game, decisions: int, seed: int) -> float:
    state = midgame(game, seed, plies=30)
    agent = MCTSAgent(seed=seed, seconds=0.25)
    for _ in range(decisions):
        if state.is_terminal:
            break
        state.apply(agent.act(state))
    return agent.iterations_per_decision


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="random games per measurement")
    parser.add_argument("--decisions", type=int, default=8, help="MCTS decisions per engine")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"command: python {shlex.join([sys.argv[0], *(argv if argv is not None else sys.argv[1:])])}")
    print(f"machine: {platform.python_implementation()} {platform.python_version()} on "
          f"{platform.machine()}, one process")
    if "native" not in bw.available_engines("carcassonne"):
        sys.exit("the native engine is not built here (see the README, Engines)")
    for name, options in WORKLOADS.items():
        games = {engine: bw.load("carcassonne", 2, options, engine=engine) for engine in ENGINES}
        print(f"workload {name}:")
        api = {}
        for engine, game in games.items():
            api_games(game, 20, args.seed + 10**6)  # warm-up
            api[engine] = api_games(game, args.games, args.seed)
            print(f"  public API, {engine:6s}: {api[engine]:9,.0f} games/s")
        print(f"  public API, native / python: {api['native'] / api['python']:.1f}x")
        batch = batch_games(games["native"], 10 * args.games, args.seed)
        print(f"  whole games in compiled code (random_games): {batch:9,.0f} games/s")
        for engine, game in games.items():
            print(f"  clone, {engine:6s}: {clone_cost(game, args.seed):6.2f} µs")
        memory = state_memory(games["native"], 20, args.seed)
        print("  one native state: " + ", ".join(f"{name} {value:,.0f} bytes"
                                                  for name, value in memory.items()))
        if name == "abbey_mayor":
            per = {engine: playouts_per_decision(game, args.decisions, args.seed)
                   for engine, game in games.items()}
            for engine, value in per.items():
                print(f"  MCTS (search defaults, 0.25 s), {engine:6s}: {value:7.0f} playouts per decision")
            print(f"  MCTS playouts, native / python: {per['native'] / max(per['python'], 1e-9):.1f}x")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of this process: {peak:.0f} MB")


if __name__ == "__main__":
    main()
