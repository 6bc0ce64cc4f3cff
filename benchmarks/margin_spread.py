"""How far a Carcassonne game's final margin still moves from a position: the `spread` of the
search's `objective=win` (`mcts:objective=win,spread=S`).

    python benchmarks/margin_spread.py                    # 400 greedy 2-player A&M games, ~15 s
    python benchmarks/margin_spread.py --games 1000 --options '{}'

Plays `--games` games between two `greedy` bots; at the start of every turn it notes the
evaluation's lead of the first seat (the leaf value a search judges by) and the share of the
tiles still in the pile; at the end, the final margin. Per band of that share it prints the
standard deviation of final margin minus noted lead, and that deviation divided by
sqrt(share + 0.01): a constant across the bands is the `spread` that fits.
"""

from __future__ import annotations

import argparse
import json
import math

import boardwright as bw
from boardwright.agents.greedy import GreedyAgent

BANDS = ((0.9, 1.01), (0.7, 0.9), (0.5, 0.7), (0.3, 0.5), (0.15, 0.3), (0.05, 0.15), (0.0, 0.05))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--options", default='{"expansions": ["abbey_mayor"]}',
                        help="game options as JSON (default: Abbey & Mayor)")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args(argv)
    game = bw.load("carcassonne", 2, json.loads(args.options))
    errors: list[tuple[float, float]] = []  # (share left, final margin - noted lead)
    for g in range(args.games):
        state = game.new_game(args.seed + g)
        bots = [GreedyAgent(seed=2 * g), GreedyAgent(seed=2 * g + 1)]
        noted = []
        while not state.is_terminal:
            if state.at_turn_start:
                values = game.evaluation_of("current", state)
                noted.append((game.share_left(state), values[0] - values[1]))
            state.apply(bots[state.current_player].act(state))
        margin = state.scores[0] - state.scores[1]
        errors += [(share, margin - lead) for share, lead in noted]
    print(f"{args.games} greedy games, options {args.options}")
    print(f"{'share left':>12} {'positions':>9} {'mean':>6} {'sd':>6} {'sd/sqrt(share+.01)':>19}")
    for low, high in BANDS:
        band = [e for share, e in errors if low <= share < high]
        if len(band) < 2:
            continue
        mean = sum(band) / len(band)
        sd = math.sqrt(sum((e - mean) ** 2 for e in band) / len(band))
        print(f"{low:>5.2f}-{high:<6.2f} {len(band):>9} {mean:>+6.1f} {sd:>6.1f} "
              f"{sd / math.sqrt((low + high) / 2 + 0.01):>19.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
