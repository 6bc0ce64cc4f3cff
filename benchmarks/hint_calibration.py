"""Are the hints' expected margins right? Predicted margins against the margins games end with.

Games of Carcassonne (Abbey & Mayor, 2 players by default) are dealt by `new_game(seed + i)` on
the native engine and played by the greedy agent. At `--per-game` decisions of each game, chosen
at random among those with more than one legal move, the mover asks for a hint
(`agents.advice.suggest`, the search the web table and the terminal run, here on a fixed
budget of `--iterations` playouts, so a run reproduces), plays the hint's first move, and the
game goes on greedily. The hint's expected margin of that move (the mover's lead over the best
other seat, in points) is compared with the mover's lead when the game ends.

Each position is appended to `--results` (JSON lines) as its game ends, so a stopped run resumes.
The table bins the predicted margins and gives, per bin, the positions, the mean predicted and
the mean realised margin with its standard error; then the slope of realised on predicted
(1 is calibrated) and the mean error.

    python benchmarks/hint_calibration.py --games 200 --workers 2      # about 900 positions, ~5 min
"""

from __future__ import annotations

import argparse
import json
import math
import random
from multiprocessing import Pool
from pathlib import Path

import boardwright as bw
from boardwright.agents.advice import suggest

OPTIONS = {"expansions": ["abbey_mayor"]}
BINS = (-math.inf, -20, -10, -5, 0, 5, 10, 20, math.inf)


def play(job: tuple[int, int, int, int]) -> list[dict]:
    """One greedy game with `per_game` hinted decisions -> its positions."""
    index, players, per_game, iterations = job
    game = bw.load("carcassonne", players=players, options=OPTIONS, engine="native")
    state = game.new_game(index)
    rng = random.Random(index)
    # Decisions are numbered as the game goes; a game has about 80 per seat with A&M.
    chosen = set(rng.sample(range(2, 120), per_game))
    asked: list[tuple[int, float, int]] = []  # (seat, predicted margin, samples)
    decision = 0
    while not state.is_terminal:
        legal = state.legal_action_ids()
        if decision in chosen and len(legal) > 1:
            hint = suggest(state, count=1, seconds=None, iterations=iterations,
                           seed=rng.getrandbits(32))[0]
            asked.append((state.current_player, hint.margin, hint.samples))
            state.apply(hint.action)
        else:
            state._apply_id(state.greedy_action_id(rng.getrandbits(64)))
        decision += 1
    scores = state.scores

    def lead(seat: int) -> float:
        return scores[seat] - max(s for i, s in enumerate(scores) if i != seat)

    return [{"game": index, "seat": seat, "predicted": predicted, "samples": samples,
             "realised": lead(seat)} for seat, predicted, samples in asked]


def table(rows: list[dict]) -> str:
    """The calibration table (Markdown) and the summary line."""
    lines = ["| predicted margin | positions | mean predicted | mean realised (± s.e.) |",
             "|---|---:|---:|---:|"]
    for low, high in zip(BINS[:-1], BINS[1:]):
        inside = [r for r in rows if low <= r["predicted"] < high]
        if not inside:
            continue
        n = len(inside)
        realised = [r["realised"] for r in inside]
        mean = sum(realised) / n
        se = (math.sqrt(sum((x - mean) ** 2 for x in realised) / (n - 1) / n) if n > 1
              else float("nan"))
        predicted = sum(r["predicted"] for r in inside) / n
        name = (f"below {high:g}" if low == -math.inf else f"{low:g} or more"
                if high == math.inf else f"{low:g} to {high:g}")
        lines.append(f"| {name} | {n} | {predicted:+.1f} | {mean:+.1f} ± {se:.1f} |")
    xs = [r["predicted"] for r in rows]
    ys = [r["realised"] for r in rows]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else float("nan")
    error = sum(abs(x - y) for x, y in zip(xs, ys)) / len(xs)
    bias = my - mx
    lines.append("")
    lines.append(f"{len(rows)} positions of {len({r['game'] for r in rows})} games: slope of "
                 f"realised on predicted {slope:.2f}, mean realised minus predicted {bias:+.1f}, "
                 f"mean absolute error {error:.1f} points")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--per-game", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=400,
                        help="playouts per hint (the web table's 1 s gives a few hundred)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--results", type=Path, default=Path("runs/hint_calibration.jsonl"))
    args = parser.parse_args()
    args.results.parent.mkdir(parents=True, exist_ok=True)
    done = set()
    rows: list[dict] = []
    if args.results.exists():
        for line in args.results.read_text().splitlines():
            row = json.loads(line)
            rows.append(row)
            done.add(row["game"])
    jobs = [(args.seed + i, args.players, args.per_game, args.iterations)
            for i in range(args.games) if args.seed + i not in done]
    with Pool(args.workers) as pool, args.results.open("a") as out:
        for positions in pool.imap_unordered(play, jobs):
            for row in positions:
                out.write(json.dumps(row) + "\n")
            out.flush()
            rows.extend(positions)
            print(f"{len({r['game'] for r in rows})} games, {len(rows)} positions", flush=True)
    print(table(rows))


if __name__ == "__main__":
    main()
