"""Fit the learned Carcassonne evaluation on self-play games of a searching bot.

Plays an agent against itself (by default `mcts:iterations=100` on the native engine: the search
that uses the evaluation, so the positions and their outcomes are those of searched play rather
than of the greedy heuristic; Abbey & Mayor, 2 players), records each seat's features
(`boardwright.games.carcassonne.position_features`) at the start of every turn, and fits by
ridge least squares the weights that best predict the final score margin:
margin ~ sum over features of (a + b t + c t^2) x (feature of seat 0 - feature of seat 1), plus a
bonus for the seat to move, with t the share of the pile left.

Searched games cost far more than greedy ones, so there are fewer of them: the ridge penalty
pulls the weights towards the earlier fit (`--baseline`, fitted on 3,000 greedy games) rather
than towards zero, and its strength is chosen by cross-validation over the training games (five
folds by game). With few games the fit stays near the earlier weights and moves only where the
searched games say so.

Every finished game is appended to a data file (`--data`, JSON lines) as it ends, so a run that
is stopped resumes where it was; `--games` is the total wanted. A fifth of the games (every
fifth index) are held out; the script compares on them the new fit, the evaluation in use before
it (`--baseline`, by default the shipped data/evaluation-v1.toml with 2 players and the shipped
data/evaluation-<N>p.toml with N) and the greedy heuristic: R^2
of the final margin, mean absolute error, and how often the sign of the prediction names the
winner. Then it writes the weights as TOML (by default over the shipped data/evaluation.toml).

    python benchmarks/fit_evaluation.py --games 600 --workers 2          # about an hour on 2 cores
    python benchmarks/fit_evaluation.py --games 40 --out /tmp/evaluation.toml --data /tmp/rows.jsonl
    python benchmarks/fit_evaluation.py --agent greedy --games 3000      # the fit of mcts-v1

Needs numpy and scipy (in the `rl` extra, installed by `make test`).
"""

from __future__ import annotations

import argparse
import json
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from scipy.signal import lfilter

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.games.carcassonne.evaluation import pile_share, players_file, read_weights
from boardwright.games.carcassonne.position_features import FEATURES, seat_features

OPTIONS = {"expansions": ["abbey_mayor"]}
DATA_DIR = (Path(__file__).resolve().parent.parent / "src" / "boardwright" / "games"
            / "carcassonne" / "data")
DEFAULT_OUT = DATA_DIR / "evaluation.toml"
DEFAULT_BASELINE = DATA_DIR / "evaluation-v1.toml"
DEFAULT_DATA = Path(__file__).resolve().parent / "results" / "evaluation_rows.jsonl"
Row = tuple[list[float], float, float]  # (feature difference seat 0 - seat 1, t, +1/-1 to move)


def play(job: tuple[int, int, str, str | None, int]) -> dict:
    """One self-play game -> its index, every seat's features at each turn start (with t and
    the seat to move), the final scores and the actions played (by id, from the deal
    `new_game(seed + index)`)."""
    index, seed, agent, engine, players = job
    state = bw.load("carcassonne", players, OPTIONS, engine=engine).new_game(seed + index)
    agents = [make_agent(agent, seed=seed + players * index + 1 + seat)
              for seat in range(players)]
    positions = []
    actions = []  # the action ids, so features added later can be computed by a replay
    while not state.is_terminal:
        if state.at_turn_start:
            positions.append(positions_of(state))
        action = agents[state.current_player].act(state)
        actions.append(state.game.action_id(action))
        state.apply(action)
    return {"index": index, "positions": positions, "scores": list(state.scores),
            "actions": actions}


def positions_of(state) -> dict:
    """Every seat's features at the position, with t and the seat whose turn it is."""
    return {"seats": [list(f) for f in seat_features(state)], "t": pile_share(state),
            "turn": state.turn_player}


def replay(game: dict, seed: int, players: int, engine: str | None = None) -> dict:
    """A stored game played again from its deal and its actions, its positions computed anew:
    after the features change, the games keep their worth without a second search."""
    state = bw.load("carcassonne", players, OPTIONS, engine=engine).new_game(seed + game["index"])
    positions = []
    for action_id in game["actions"]:
        if state.at_turn_start:
            positions.append(positions_of(state))
        state.apply(state.game.action_from_id(action_id))
    if not state.is_terminal or list(state.scores) != list(game["scores"]):
        raise ValueError(f"game {game['index']} does not replay to its stored end")
    return {**game, "positions": positions}


def pair_rows(game: dict) -> list[tuple[int, list[Row], float]]:
    """A game's regression rows, one sequence per pair of seats (i, j), i < j: the feature
    difference of i minus j, t, +1 / -1 / 0 as i / j / another seat moves, and the final
    margin of i over j. Two players give one pair, the fit of the 2-player evaluation; a game
    stored in the first layout (2 players, differences only) reads as that one pair."""
    if "rows" in game:
        return [(0, [tuple(r) for r in game["rows"]], game["margin"])]
    scores = game["scores"]
    n = len(scores)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    out = []
    for k, (i, j) in enumerate(pairs):
        rows = [([a - b for a, b in zip(p["seats"][i], p["seats"][j])], p["t"],
                 1.0 if p["turn"] == i else -1.0 if p["turn"] == j else 0.0)
                for p in game["positions"]]
        out.append((k, rows, float(scores[i] - scores[j])))
    return out


def read_games(path: Path, key: list) -> dict[int, dict]:
    """The games of this set-up already in the data file (a line cut short is skipped)."""
    games: dict[int, dict] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if entry.get("key") == key:
                games[entry["game"]["index"]] = entry["game"]
    return games


def design(diff: np.ndarray, t: np.ndarray, to_move: np.ndarray) -> np.ndarray:
    """Columns: every feature times 1, t, t^2; then the turn bonus times 1, t, t^2."""
    t = t[:, None]
    m = to_move[:, None]
    return np.hstack([diff, diff * t, diff * t * t, m, m * t, m * t * t])


def weight_vector(path: Path) -> np.ndarray:
    """A weights file as the fit's coefficient vector (the layout of `design`)."""
    weights = read_weights(path)
    columns = np.array(weights.features)
    return np.concatenate([columns[:, 0], columns[:, 1], columns[:, 2], np.array(weights.to_move)])


def td_system(x: np.ndarray, y: np.ndarray, games: np.ndarray,
              trace: float) -> tuple[np.ndarray, np.ndarray]:
    """LSTD(lambda) normal equations (A, b) of the games' positions in order: each position's
    value is pulled towards the next one's, the last one's towards the final margin. With
    lambda = 1 this is least squares on the final margin (A = x'x, b = x'y); a smaller lambda
    trusts the fit's own value a few turns later more than the luck of the remaining draws."""
    d = x.shape[1]
    a = np.zeros((d, d))
    b = np.zeros(d)
    starts = np.flatnonzero(np.r_[True, games[1:] != games[:-1]])
    ends = np.r_[starts[1:], len(games)]
    for start, end in zip(starts, ends):
        rows = x[start:end]
        following = np.vstack([rows[1:], np.zeros((1, d))])
        traces = lfilter([1.0], [1.0, -trace], rows, axis=0)  # z_i = trace z_(i-1) + row_i
        a += traces.T @ (rows - following)
        b += traces[-1] * y[end - 1]
    return a, b


def ridge_towards(system: tuple[np.ndarray, np.ndarray], prior: np.ndarray,
                  penalty: float) -> np.ndarray:
    """The weights solving (A + penalty I) w = b + penalty prior."""
    a, b = system
    return np.linalg.solve(a + penalty * np.eye(len(b)), b + penalty * prior)


def choose_fit(x: np.ndarray, y: np.ndarray, games: np.ndarray, prior: np.ndarray,
               penalties: list[float], traces: list[float], folds: np.ndarray | None = None
               ) -> tuple[tuple[float, float], dict[tuple[float, float], float]]:
    """The (lambda, penalty) with the least squared error on the final margin over five folds
    (`folds`: by default `games` % 5; with several pairs of seats per game, `games` numbers the
    sequences and `folds` keeps a game's pairs in one fold), and each pair's cross-validated
    R^2."""
    folds = games % 5 if folds is None else folds
    scores = {}
    for trace in traces:
        systems = []
        for fold in range(5):
            test = folds == fold
            systems.append((test, td_system(x[~test], y[~test], games[~test], trace)))
        for penalty in penalties:
            error = 0.0
            for test, system in systems:
                w = ridge_towards(system, prior, penalty)
                error += float(((x[test] @ w - y[test]) ** 2).sum())
            scores[(trace, penalty)] = 1 - error / len(y) / float(y.var())
    return max(scores, key=lambda k: scores[k]), scores


def heuristic_prediction(diff: np.ndarray, t: np.ndarray, pile: int,
                         players: int = 2) -> np.ndarray:
    """What the greedy heuristic says of the same margin (its terms, its constant weights)."""
    col = {name: diff[:, i] for i, name in enumerate(FEATURES)}
    hand = 1.5 * np.minimum(1.0, t * pile / players / 6.0)
    return (col["score"] + col["city"] + col["road"] + col["monastery"] + col["farm_done"]
            + col["farm_odds"] + col["barn"]
            + hand * (col["city_returns"] + col["road_returns"] + col["followers"]))


def accuracy(prediction: np.ndarray, target: np.ndarray) -> dict[str, float]:
    """R^2, mean absolute error (points) and the share of positions whose predicted sign names
    the winner (draws left out)."""
    decided = target != 0
    return {"r2": float(1 - ((target - prediction) ** 2).mean() / target.var()),
            "mae": float(np.abs(target - prediction).mean()),
            "sign": float((np.sign(prediction[decided]) == np.sign(target[decided])).mean())}


def r2_gain_interval(target: np.ndarray, fit: np.ndarray, baseline: np.ndarray,
                     games: np.ndarray, resamples: int = 2000,
                     seed: int = 0) -> tuple[float, float, float]:
    """The held-out R^2 of `fit` minus that of `baseline`, with a 95% interval from a paired
    bootstrap over whole games (positions of one game are not independent: they share its
    draws and its final margin). Both predictions are judged on the same resampled games, so
    the interval is that of the difference, much narrower than those of the two R^2 apart."""
    _, game_of = np.unique(games, return_inverse=True)
    count = game_of.max() + 1

    def per_game(values: np.ndarray) -> np.ndarray:
        return np.bincount(game_of, weights=values, minlength=count)

    n, sy, syy = per_game(np.ones_like(target)), per_game(target), per_game(target * target)
    sse_fit, sse_base = per_game((target - fit) ** 2), per_game((target - baseline) ** 2)

    def gain(weights: np.ndarray) -> np.ndarray:
        """R^2 gain with each game counted `weights` times (rows: one resample each)."""
        sst = weights @ syy - (weights @ sy) ** 2 / (weights @ n)
        return (weights @ sse_base - weights @ sse_fit) / sst

    rng = np.random.default_rng(seed)
    samples = gain(rng.multinomial(count, np.full(count, 1.0 / count), size=resamples)
                   .astype(float))
    low, high = np.percentile(samples, [2.5, 97.5])
    return float(gain(np.ones((1, count)))[0]), float(low), float(high)


def to_toml(weights: np.ndarray, games: int, agent: str, seed: int,
            scores: dict[str, dict[str, float]], players: int = 2,
            baseline: str = "evaluation-v1") -> str:
    n = len(FEATURES)
    fit, before, heuristic = scores["fit"], scores["baseline"], scores["heuristic"]
    lines = [
        f"# Learned evaluation of Carcassonne positions (Abbey & Mayor, {players} players).",
        f"# Fitted by benchmarks/fit_evaluation.py on {games} self-play games of {agent}"
        f" (seed {seed}).",
        "# Held-out final margins: R^2 / mean absolute error / winner named by the sign:",
        f"#   this fit {fit['r2']:.3f} / {fit['mae']:.2f} / {fit['sign']:.3f};"
        f" {baseline} {before['r2']:.3f} / {before['mae']:.2f} / {before['sign']:.3f};"
        f" heuristic {heuristic['r2']:.3f} / {heuristic['mae']:.2f} / {heuristic['sign']:.3f}.",
    ]
    if "gain" in scores:
        gain = scores["gain"]
        lines.append(f"# R^2 gain over {baseline} on the same held-out games: {gain['r2']:+.4f}"
                     f" (95% paired bootstrap by game: {gain['low']:+.4f} to {gain['high']:+.4f}).")
    lines += [
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
    parser.add_argument("--games", type=int, default=600, help="self-play games in all")
    parser.add_argument("--players", type=int, default=2,
                        help="players per game (weights for 3 or more go to "
                             "data/evaluation-<N>p.toml by default)")
    parser.add_argument("--agent", default="mcts:iterations=100",
                        help="the self-play agent (an agent string)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--ridge", type=float, default=None,
                        help="the penalty towards the baseline weights (default: chosen by "
                             "cross-validation)")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help="games are appended here as they end; a run resumes from it")
    parser.add_argument("--trace", type=float, default=None,
                        help="lambda of LSTD(lambda), 1 = least squares on the final margin "
                             "(default: chosen by cross-validation among 1, 0.9, 0.7, 0.5)")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="the weights the fit is compared with")
    parser.add_argument("--out", type=Path, default=None,
                        help="the weights file written (default: data/evaluation.toml for 2 "
                             "players, data/evaluation-<N>p.toml for N)")
    parser.add_argument("--replay", action="store_true",
                        help="compute the positions of the stored games again from their "
                             "actions (after the features changed)")
    parser.add_argument("--fit-only", action="store_true",
                        help="fit on the games in the data file, play none")
    parser.add_argument("--engine", metavar="NAME", default=None,
                        help="the engine of the self-play games (python, native; default: the "
                             "game's default)")
    args = parser.parse_args()
    try:
        bw.load("carcassonne", args.players, OPTIONS, engine=args.engine)
        make_agent(args.agent)
    except bw.BoardwrightError as exc:
        parser.error(str(exc))

    started = time.perf_counter()
    # The 2-player key of the first data files, which had no player count.
    key = [args.agent, args.seed, OPTIONS] + ([] if args.players == 2 else [args.players])
    out_path = args.out or (DEFAULT_OUT if args.players == 2
                            else DATA_DIR / players_file(args.players))
    games = read_games(args.data, key)
    missing = [] if args.fit_only else [i for i in range(args.games) if i not in games]
    if games:
        print(f"{len(games)} games read from {args.data}", flush=True)
    if missing:
        args.data.parent.mkdir(parents=True, exist_ok=True)
        jobs = [(i, args.seed, args.agent, args.engine, args.players) for i in missing]
        with Pool(args.workers) as pool, args.data.open("a") as out:
            for done, game in enumerate(pool.imap_unordered(play, jobs), 1):
                out.write(json.dumps({"key": key, "game": game}) + "\n")
                out.flush()
                games[game["index"]] = game
                if done % 10 == 0 or done == len(missing):
                    print(f"{len(games)}/{args.games} games "
                          f"({time.perf_counter() - started:.0f} s)", flush=True)
    if args.replay:
        replayable = [i for i in games if "actions" in games[i]]
        for i in replayable:
            games[i] = replay(games[i], args.seed, args.players, args.engine)
        print(f"{len(replayable)} games replayed ({len(games) - len(replayable)} stored "
              f"before actions were kept, read as they are)", flush=True)
    ordered = [games[i] for i in sorted(games)]
    if len(ordered) < 10:
        parser.error(f"only {len(ordered)} games: too few to fit")
    sequences = [(g["index"], k, rows, margin) for g in ordered
                 for k, rows, margin in pair_rows(g)]
    diff = np.array([r[0] for _, _, rows, _ in sequences for r in rows])
    t = np.array([r[1] for _, _, rows, _ in sequences for r in rows])
    to_move = np.array([r[2] for _, _, rows, _ in sequences for r in rows])
    margin = np.array([m for _, _, rows, m in sequences for _ in rows])
    index = np.array([g for g, _, rows, _ in sequences for _ in rows])
    sequence = np.array([n for n, (_, _, rows, _) in enumerate(sequences) for _ in rows])
    held_out = index % 5 == 0

    x = design(diff, t, to_move)
    train = ~held_out
    baseline = args.baseline or (DEFAULT_BASELINE if args.players == 2
                                 else DATA_DIR / players_file(args.players))
    prior = weight_vector(baseline)
    penalties = [10.0 ** k for k in range(0, 8)] if args.ridge is None else [args.ridge]
    traces = [1.0, 0.9, 0.7, 0.5] if args.trace is None else [args.trace]
    (trace, penalty), tried = choose_fit(x[train], margin[train], sequence[train], prior,
                                         penalties, traces, folds=index[train] % 5)
    if len(tried) > 1:
        print("cross-validated R^2 (lambda, penalty): "
              + ", ".join(f"({t:g}, {p:g}) {r:.3f}" for (t, p), r in tried.items()))
    print(f"chosen: lambda {trace:g}, penalty {penalty:g}")
    weights = ridge_towards(td_system(x[train], margin[train], sequence[train], trace), prior,
                            penalty)
    pile = bw.load("carcassonne", args.players, OPTIONS).pile_size
    target = margin[held_out]
    scores = {"fit": accuracy(x[held_out] @ weights, target),
              "baseline": accuracy(x[held_out] @ prior, target),
              "heuristic": accuracy(heuristic_prediction(diff[held_out], t[held_out], pile,
                                                         args.players), target)}
    print(f"{len(margin)} rows (positions x pairs of seats) of {len(ordered)} games; held-out "
          f"({int(held_out.sum())} positions):")
    for name, score in scores.items():
        print(f"  {name:9s} R^2 {score['r2']:.3f}  MAE {score['mae']:.2f}  "
              f"winner by sign {score['sign']:.3f}")
    gain, low, high = r2_gain_interval(target, x[held_out] @ weights, x[held_out] @ prior,
                                       index[held_out])
    scores["gain"] = {"r2": gain, "low": low, "high": high}
    print(f"  R^2 of the fit minus the baseline's: {gain:+.4f} [95% {low:+.4f}, {high:+.4f}] "
          f"(paired bootstrap over the {len(np.unique(index[held_out]))} held-out games)")
    out_path.write_text(to_toml(weights, len(ordered), args.agent, args.seed, scores,
                                args.players, baseline.stem))
    print(f"weights written to {out_path} ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
