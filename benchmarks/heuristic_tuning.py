"""Tune the Carcassonne heuristic by greedy self-play.

A greedy agent whose heuristic constants are overridden plays the default greedy agent,
seats alternating, on Carcassonne with Abbey & Mayor (2 players). Prints the variant's win
rate with a 95% interval and the mean score margin. This is how the constants in
`boardwright.games.carcassonne.heuristic` were chosen.

    python benchmarks/heuristic_tuning.py "DRAW_SHARE=0.25" --games 200
    python benchmarks/heuristic_tuning.py "FOLLOWER_IN_HAND=1.0,HAND_HORIZON=12"
"""

from __future__ import annotations

import argparse
import math
import time
from multiprocessing import Pool

import boardwright as bw
import boardwright.games.carcassonne.heuristic as heuristic
from boardwright.agents.greedy import GreedyAgent
from boardwright.core.game import State

OPTIONS = {"expansions": ["abbey_mayor"]}


class TunedGreedy(GreedyAgent):
    """Greedy with some heuristic constants replaced while it decides."""

    def __init__(self, seed: int, overrides: dict[str, float]) -> None:
        super().__init__(seed=seed)
        self.overrides = overrides

    def act(self, state: State):
        saved = {name: getattr(heuristic, name) for name in self.overrides}
        for name, value in self.overrides.items():
            setattr(heuristic, name, value)
        try:
            return super().act(state)
        finally:
            for name, value in saved.items():
                setattr(heuristic, name, value)


def parse_overrides(text: str) -> dict[str, float]:
    overrides = {}
    for item in filter(None, text.split(",")):
        name, _, value = item.partition("=")
        if not hasattr(heuristic, name) or not name.isupper():
            raise SystemExit(f"unknown heuristic constant {name!r}")
        overrides[name] = float(value)
    return overrides


def play(job: tuple[int, dict[str, float], int, str | None]) -> tuple[float, int]:
    """One game; returns (the variant's result 1/0.5/0, its score margin)."""
    index, overrides, seed, engine = job
    state = bw.load("carcassonne", 2, OPTIONS, engine=engine).new_game(seed + index)
    seat = index % 2
    variant, plain = TunedGreedy(seed + index, overrides), GreedyAgent(seed=seed + index + 1)
    agents = [variant, plain] if seat == 0 else [plain, variant]
    while not state.is_terminal:
        state.apply(agents[state.current_player].act(state))
    mine, theirs = state.scores[seat], state.scores[1 - seat]
    return (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0), mine - theirs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("overrides", help="NAME=VALUE[,NAME=VALUE...]")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--engine", metavar="NAME", default="python",
                        help="the engine of the games (default python: the tuned constants are "
                             "the Python heuristic's, which the native engine reads only when a "
                             "game is made). The overrides are constants of the Python heuristic "
                             "module: they change only what that module computes.")
    args = parser.parse_args()
    try:
        bw.load("carcassonne", 2, OPTIONS, engine=args.engine)
    except bw.BoardwrightError as exc:
        parser.error(str(exc))
    overrides = parse_overrides(args.overrides)
    start = time.perf_counter()
    jobs = [(i, overrides, args.seed, args.engine) for i in range(args.games)]
    with Pool(args.workers) as pool:
        results = pool.map(play, jobs, chunksize=4)
    rate = sum(r for r, _ in results) / len(results)
    half = 1.96 * math.sqrt(rate * (1 - rate) / len(results))
    margin = sum(m for _, m in results) / len(results)
    print(f"{args.overrides} vs defaults: {len(results)} games, win {rate:.1%} ±{half:.1%}, "
          f"margin {margin:+.1f}, {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
