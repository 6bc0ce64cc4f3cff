"""Fit the learned Carcassonne evaluation on greedy self-play games.

Plays greedy against greedy (Abbey & Mayor, 2 players), records each seat's features
(`boardwright.games.carcassonne.position_features`) at the start of every turn, and fits by
least squares the weights that best predict the final score margin: margin ~ sum over features
of (a + b t + c t^2) x (feature of seat 0 - feature of seat 1), plus a bonus for the seat to
move, with t the share of the pile left. A fifth of the games are held out; the script prints
how much of the margin's variance the fit and the greedy heuristic explain on them (R^2), then
writes the weights as TOML (by default over the shipped `data/evaluation.toml`).

    python benchmarks/fit_evaluation.py --games 3000 --workers 2
    python benchmarks/fit_evaluation.py --games 200 --out /tmp/evaluation.toml

Needs numpy (in the `rl` extra, installed by `make test`).
"""

from __future__ import annotations

import argparse
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

import boardwright as bw
from boardwright.agents.greedy import GreedyAgent
from boardwright.games.carcassonne.evaluation import pile_share
from boardwright.games.carcassonne.position_features import FEATURES, seat_features

OPTIONS = {"expansions": ["abbey_mayor"]}
DEFAULT_OUT = (Path(__file__).resolve().parent.parent / "src" / "boardwright" / "games"
               / "carcassonne" / "data" / "evaluation.toml")


def play(job: tuple[int, int, str | None]) -> list[tuple[list[float], float, float, float]]:
    """One greedy self-play game -> per turn start (feature difference seat 0 - seat 1, t,
    +1/-1 for the seat to move, final margin)."""
    index, seed, engine = job
    state = bw.load("carcassonne", 2, OPTIONS, engine=engine).new_game(seed + index)
    agents = [GreedyAgent(seed=seed + 2 * index + 1), GreedyAgent(seed=seed + 2 * index + 2)]
    rows = []
    while not state.is_terminal:
        if state.at_turn_start:
            first, second = seat_features(state)
            rows.append(([a - b for a, b in zip(first, second)], pile_share(state),
                         1.0 if state.turn_player == 0 else -1.0))
        state.apply(agents[state.current_player].act(state))
    margin = float(state.scores[0] - state.scores[1])
    return [(d, t, m, margin) for d, t, m in rows]


def design(diff: np.ndarray, t: np.ndarray, to_move: np.ndarray) -> np.ndarray:
    """Columns: every feature times 1, t, t^2; then the turn bonus times 1, t, t^2."""
    t = t[:, None]
    m = to_move[:, None]
    return np.hstack([diff, diff * t, diff * t * t, m, m * t, m * t * t])


def heuristic_prediction(diff: np.ndarray, t: np.ndarray, pile: int) -> np.ndarray:
    """What the greedy heuristic says of the same margin (its terms, its constant weights)."""
    col = {name: diff[:, i] for i, name in enumerate(FEATURES)}
    hand = 1.5 * np.minimum(1.0, t * pile / 2 / 6.0)
    return (col["score"] + col["city"] + col["road"] + col["monastery"] + col["farm_done"]
            + col["farm_odds"] + col["barn"]
            + hand * (col["city_returns"] + col["road_returns"] + col["followers"]))


def r_squared(prediction: np.ndarray, target: np.ndarray) -> float:
    return float(1 - ((target - prediction) ** 2).mean() / target.var())


def to_toml(weights: np.ndarray, games: int, seed: int, r2: float, r2_heuristic: float) -> str:
    n = len(FEATURES)
    lines = [
        "# Learned evaluation of Carcassonne positions (Abbey & Mayor, 2 players).",
        f"# Fitted by benchmarks/fit_evaluation.py on {games} greedy self-play games (seed {seed}).",
        f"# Held-out R^2 of the final margin: {r2:.3f} (the greedy heuristic: {r2_heuristic:.3f}).",
        "# feature = [a, b, c]: the weight is a + b t + c t^2, t the share of the pile left.",
        "",
        "[weights]",
    ]
    for i, name in enumerate(FEATURES):
        lines.append(f"{name} = [{weights[i]:.4f}, {weights[n + i]:.4f}, {weights[2 * n + i]:.4f}]")
    lines.append(f"to_move = [{weights[3 * n]:.4f}, {weights[3 * n + 1]:.4f}, "
                 f"{weights[3 * n + 2]:.4f}]")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--ridge", type=float, default=100.0, help="L2 penalty of the fit")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--engine", metavar="NAME", default=None,
                        help="the engine of the self-play games (python, native; default: the "
                             "game's default)")
    args = parser.parse_args()
    try:
        bw.load("carcassonne", 2, OPTIONS, engine=args.engine)
    except bw.BoardwrightError as exc:
        parser.error(str(exc))

    started = time.perf_counter()
    jobs = [(i, args.seed, args.engine) for i in range(args.games)]
    with Pool(args.workers) as pool:
        games = []
        for done, rows in enumerate(pool.imap(play, jobs, chunksize=4), 1):
            games.append(rows)
            if done % 250 == 0 or done == args.games:
                print(f"{done}/{args.games} games ({time.perf_counter() - started:.0f} s)", flush=True)
    diff = np.array([r[0] for g in games for r in g])
    t = np.array([r[1] for g in games for r in g])
    to_move = np.array([r[2] for g in games for r in g])
    margin = np.array([r[3] for g in games for r in g])
    held_out = np.array([i % 5 == 0 for i, g in enumerate(games) for _ in g])

    x = design(diff, t, to_move)
    train = ~held_out
    gram = x[train].T @ x[train] + args.ridge * np.eye(x.shape[1])
    weights = np.linalg.solve(gram, x[train].T @ margin[train])
    pile = bw.load("carcassonne", 2, OPTIONS).pile_size
    r2 = r_squared(x[held_out] @ weights, margin[held_out])
    r2_heuristic = r_squared(heuristic_prediction(diff[held_out], t[held_out], pile),
                             margin[held_out])
    print(f"{len(margin)} positions; held-out R^2: fit {r2:.3f}, heuristic {r2_heuristic:.3f}")
    args.out.write_text(to_toml(weights, args.games, args.seed, r2, r2_heuristic))
    print(f"weights written to {args.out} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
