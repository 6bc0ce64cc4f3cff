"""The cost of an action mask: Carcassonne's learning action space beside its flat stable ids.

For positions of random games (every decision of `--games` games per option set), on each
engine, times per position:

* `generate`: the engine's legal-move generation, the first `state.legal_action_ids()` of the
  position (a list of stable ids; the native engine computes it in C++ and keeps it until the
  next `apply`, the Python engine builds it from `legal_actions()`).
* `learning`: from that list to the learning mask: `np.array` of the list, the renumbering
  (`CarcassonneActionSpace.from_stable`, with the position's phase read), and the int8 mask of
  `space.size` entries with its ones. This is what the 50 µs budget covers.
* `flat`: from the same list to the int8 mask over the stable ids (`num_distinct_actions`
  entries, 1.55 million in the base game), the adapters' mask before the learning space.

Each figure is the mean over positions of the time per call (each position timed as the best of
3 batches of `--reps` calls), with the 99th percentile and the maximum over positions; `ids` is
the mean number of legal actions (and the largest).

`--coverage N` instead plays N games per option set on the native engine (players: `--agent`,
any `make_agent` string, default random) and reports how far the board reached from the start
tile and the share of positions with a legal move outside the window (an overflow slot).

    python benchmarks/action_mask.py                  # 3 option sets x 2 engines, ~1 min
    python benchmarks/action_mask.py --games 2 --reps 5
    python benchmarks/action_mask.py --coverage 300
    python benchmarks/action_mask.py --coverage 20 --agent greedy
    python benchmarks/action_mask.py --other-games     # Queens and Shogun, ~10 s
"""

from __future__ import annotations

import argparse
import platform
import random
import shlex
import sys
import time
import timeit
from typing import Any

import numpy as np

import boardwright as bw
from boardwright.games.carcassonne.capabilities.wagon import MOVE
from boardwright.rl.action_spaces import mask_of

OPTION_SETS: dict[str, tuple[int, dict[str, Any]]] = {
    "base, 2 players": (2, {}),
    "A&M, 6 players": (6, {"expansions": ["abbey_mayor"]}),
    "A&M 20 of each piece, connected wagons, 6 players": (6, {
        "expansions": ["abbey_mayor"], "abbeys": 20, "mayors": 20, "wagons": 20, "barns": 20,
        "wagon_adjacency": "connected", "wagon_traverse": True}),
}


def positions(game: Any, games: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    out = []
    for index in range(games):
        state = game.new_game(seed + index)
        while not state.is_terminal:
            out.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return out


def per_call(function: Any, reps: int) -> float:
    """µs per call: the best of 3 batches of `reps` calls (a batch the scheduler interrupted on
    a shared machine says nothing about the code)."""
    return min(timeit.repeat(function, number=reps, repeat=3)) / reps * 1e6


def first_calls(state: Any, reps: int) -> float:
    """µs of the first `legal_action_ids()` of a position (the native engine keeps the list
    until the next `apply`, so later calls only copy it): timed on fresh clones, the best of 3
    batches of `reps`."""
    best = float("inf")
    for _ in range(3):
        batch = [state.clone() for _ in range(reps)]
        start = time.perf_counter()
        for clone in batch:
            clone.legal_action_ids()
        best = min(best, time.perf_counter() - start)
    return best / reps * 1e6


def measure(game: Any, states: list[Any], reps: int) -> dict[str, list[float]]:
    space = game.learning_action_space()
    flat_size = game.num_distinct_actions
    times: dict[str, list[float]] = {"generate": [], "learning": [], "flat": [], "ids": []}
    for state in states:
        generate = first_calls(state, reps)  # before any call fills the native engine's cache
        stable = state.legal_action_ids()

        def learning() -> np.ndarray:
            legal = space.from_stable(np.array(stable, dtype=np.int64), state.phase == MOVE)
            return mask_of(space.size, legal.ids)

        def flat() -> np.ndarray:
            return mask_of(flat_size, np.array(stable, dtype=np.int64))

        assert learning().sum() == flat().sum() == len(stable)
        times["generate"].append(generate)
        times["learning"].append(per_call(learning, reps))
        times["flat"].append(per_call(flat, reps))
        times["ids"].append(len(stable))
    return times


def coverage(game: Any, games: int, agent: str, seed: int) -> str:
    """How far games reach, and how often a position needs the overflow list."""
    from boardwright.agents import make_agent
    space = game.learning_action_space()
    overflow = space.blocks["overflow"].start
    positions = overflowed = reach = 0
    worst = []
    for index in range(games):
        bots = [make_agent(agent, seed=seed + index * 10 + s) for s in range(game.num_players)]
        state = game.new_game(seed + index)
        furthest = 0
        while not state.is_terminal:
            legal = space.legal(state)
            positions += 1
            overflowed += bool(legal.ids.size and legal.ids[-1] >= overflow)
            state.apply(bots[state.current_player].act(state))
        for tile in state.board_tiles():
            furthest = max(furthest, abs(tile["x"]), abs(tile["y"]))
        reach = max(reach, furthest)
        worst.append(furthest)
    return (f"{positions:8,} positions, {overflowed} with an overflow move "
            f"({100 * overflowed / positions:.3f}%); furthest tile from the start: "
            f"{reach} cells (median game {int(np.median(worst))})")


def other_games(reps: int, seed: int) -> None:
    """Queens and Shogun keep their stable ids: the cost of their masks, for comparison."""
    from boardwright.rl import make_game
    from boardwright.rl.action_spaces import StableActionSpace
    for name in ("queens", "shogun"):
        game = make_game(name)
        space = StableActionSpace(game)
        rng = random.Random(seed)
        state = game.new_game(seed)
        times: dict[str, list[float]] = {"generate": [], "mask": [], "ids": []}
        while not state.is_terminal and len(times["ids"]) < 300:
            stable = state.legal_action_ids()
            times["generate"].append(per_call(state.legal_action_ids, reps))
            times["mask"].append(per_call(
                lambda: mask_of(space.size, np.array(sorted(stable), dtype=np.int64)), reps))
            times["ids"].append(len(stable))
            state.apply(rng.choice(state.legal_actions()))
        print(f"{name:8} {space.size:8,} ids; {np.mean(times['ids']):.0f} legal on average; "
              f"mask {np.mean(times['mask']):.1f} µs (p99 {np.percentile(times['mask'], 99):.1f}), "
              f"generation {np.mean(times['generate']):.1f} µs, over {len(times['ids'])} positions")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="random games per option set")
    parser.add_argument("--reps", type=int, default=20, help="calls timed per position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--coverage", type=int, default=0, metavar="N",
                        help="play N games per option set and report the window's coverage")
    parser.add_argument("--agent", default="random", help="the players of --coverage games")
    parser.add_argument("--other-games", action="store_true",
                        help="time the stable-id masks of Queens and Shogun instead")
    args = parser.parse_args(argv)
    print(f"$ python benchmarks/action_mask.py {shlex.join(sys.argv[1:])}".rstrip())
    print(f"# Python {platform.python_version()}, numpy {np.__version__}, {platform.machine()}")
    if args.other_games:
        other_games(args.reps, args.seed)
        return
    if args.coverage:
        for label, (players, options) in OPTION_SETS.items():
            game = bw.load("carcassonne", players, options, engine="native")
            print(f"{label:52} {coverage(game, args.coverage, args.agent, args.seed)}")
        return
    print(f"{'option set':52} {'engine':7} {'size':>7} {'flat size':>10} {'ids':>9} "
          f"{'generate':>22} {'learning':>22} {'flat':>22}   (µs: mean / p99 / max)")
    for label, (players, options) in OPTION_SETS.items():
        for engine in ("python", "native"):
            game = bw.load("carcassonne", players, options, engine=engine)
            states = positions(game, args.games, args.seed)
            times = measure(game, states, args.reps)
            cells = [f"{np.mean(times[k]):6.1f} / {np.percentile(times[k], 99):6.1f} / "
                     f"{np.max(times[k]):6.1f}" for k in ("generate", "learning", "flat")]
            ids = f"{np.mean(times['ids']):.0f} ({np.max(times['ids']):.0f})"
            print(f"{label:52} {engine:7} {game.learning_action_space().size:7,} "
                  f"{game.num_distinct_actions:10,} {ids:>9} "
                  + " ".join(f"{c:>22}" for c in cells))


if __name__ == "__main__":
    main()
