"""The time to draw a human's decision screen in the terminal, fitted to its size.

For the decisions of `--games` random games per game (every `--every`-th decision), times
`decision_screen` plus the rendering of its lines at each terminal size (what the command line
does before each prompt, and again after each pan). Carcassonne's fitting tries several board
heights when the menu is long, so its small screens cost the most.

    python benchmarks/terminal_screen.py               # 3 games x 2 sizes, about 4 s on 2 cores
    python benchmarks/terminal_screen.py --games 1 --every 10
"""

from __future__ import annotations

import argparse
import statistics
import time

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.render import renderer_for
from boardwright.render.screen import Size, decision_screen, render_lines

SIZES = ((80, 24), (120, 40))
GAMES = (("carcassonne", 2, {}), ("queens", 2, {}), ("shogun", 2, {"max_rounds": 8}))


def decisions(name: str, players: int, options: dict, seed: int, every: int) -> list[bw.State]:
    game = bw.load(name, players=players, options=options)
    state = game.new_game(seed)
    bots = [make_agent("random", seed=seed + s) for s in range(players)]
    out, count = [], 0
    while not state.is_terminal:
        if len(state.legal_actions()) > 1:
            if count % every == 0:
                out.append(state.clone())
            count += 1
        state.apply(bots[state.current_player].act(state))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games per game (default 2)")
    parser.add_argument("--every", type=int, default=5, help="time every n-th decision")
    args = parser.parse_args()
    print(f"{'game':<12} {'size':>7} {'screens':>8} {'mean ms':>8} {'max ms':>8}")
    for name, players, options in GAMES:
        states = [s for seed in range(args.games)
                  for s in decisions(name, players, options, seed, args.every)]
        for width, height in SIZES:
            times = []
            for state in states:
                renderer = renderer_for(state.game)
                start = time.perf_counter()
                render_lines(decision_screen(renderer, state, Size(width, height)), width)
                times.append((time.perf_counter() - start) * 1000)
            print(f"{name:<12} {width:>3}x{height:<3} {len(times):>8} "
                  f"{statistics.mean(times):>8.1f} {max(times):>8.1f}")


if __name__ == "__main__":
    main()
