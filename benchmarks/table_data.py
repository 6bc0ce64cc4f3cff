"""The cost of Carcassonne's table data (`Game.table_data`, games/carcassonne/outlook.py), which
the web table builds once per position and sends in every state frame: the projected
end-of-game scores, the features of the figure spots and, for a finished game, the final
account (a replay of the whole game on the Python engine with every scoring recorded).

For every position of `--games` random games per option set and engine: the mean, the 99th
percentile and the largest time of one call, and the time for the finished position.

    python benchmarks/table_data.py              # 2 option sets x 2 engines, ~10 s
    python benchmarks/table_data.py --games 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from boardwright.games.carcassonne.game import CarcassonneGame

OPTION_SETS = {"base": {}, "abbey_mayor": {"expansions": ["abbey_mayor"]}}


def measure(options: dict, engine: str, games: int) -> tuple[list[float], list[float]]:
    game = CarcassonneGame(2, options, engine=engine)
    during: list[float] = []
    final: list[float] = []
    for seed in range(games):
        state = game.new_game(seed)
        rng = random.Random(seed)
        while True:
            start = time.perf_counter()
            game.table_data(state)
            elapsed = time.perf_counter() - start
            if state.is_terminal:
                final.append(elapsed)
                break
            during.append(elapsed)
            state.apply(rng.choice(state.legal_actions()))
    return during, final


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    print(f"{'options':12} {'engine':7} {'positions':>9} {'mean ms':>8} {'p99 ms':>7} {'max ms':>7} {'final ms':>9}")
    for name, options in OPTION_SETS.items():
        for engine in ("python", "native"):
            during, final = measure(options, engine, args.games)
            during.sort()
            p99 = during[min(len(during) - 1, int(0.99 * len(during)))]
            print(f"{name:12} {engine:7} {len(during):9} {1000 * statistics.mean(during):8.2f} "
                  f"{1000 * p99:7.2f} {1000 * during[-1]:7.2f} {1000 * statistics.mean(final):9.2f}")


if __name__ == "__main__":
    main()
