"""Learn to beat `random` at Queens & Princes with a policy gradient, in numpy, in minutes.

    python examples/learn_queens.py --minutes 10 --out runs/queens
    # then, from those weights, against the greedy bot (a curriculum)
    python examples/learn_queens.py --minutes 5 --opponent greedy --init runs/queens/policy.npz \
        --out runs/queens-greedy --eval-against greedy,random

The learner plays the Gymnasium environment `boardwright/Queens-v0` against `opponent="random"`
(or `--opponent`), alternating seats (one environment per seat), and sees only what the adapter
gives it: the encoder's observation vector (`boardwright.rl.observations.queens`) and the legal
action ids (`info["legal_action_ids"]`, the nonzeros of the action mask).

**Policy: a linear softmax over features of the legal actions.** Queens has 169,444 action ids
(every MOVE between spaces 1..4 steps apart, every JOINT, every SOW), of which about a hundred
are legal at a time. A mask-and-logits policy needs one output per id: a linear layer over the
1,222-value observation would have about 207 million weights, and a small network would still
have to learn each id on its own — the id "SOW on (0,3)" says nothing about "SOW on (0,-3)"
until both have been tried many times, from both seats. So each legal action is described
instead by a few features read off the observation planes at the spaces it names (what stands
on the target, what it leaves behind, how distances to both Queens change, whether an enemy
Prince could take the target next turn, ...), the policy scores it as `theta . phi(obs, a)` and
takes a softmax over the legal actions only (the action mask). Weights start at zero (unless
`--init` gives a policy.npz), so the untrained policy *is* the random player; everything it
learns comes from the results of its games.

**Learning: REINFORCE with a learned baseline.** The only reward is the game's result (+1 win,
-1 loss, 0 draw, at the end); every decision of a game is credited with `G - V(s)`, where V is a
linear value of a few counts from the observation, fitted to the same results. Adam on both,
one update per batch of games.

The features and the policy are the library's (`boardwright.rl.policies.queens_linear`), so the
agent `policy:path=OUT/policy.npz` plays exactly what was trained and measured here:

    boardwright simulate queens --agents policy:path=runs/queens/policy.npz,random -n 200

Output (`--out DIR`): `policy.npz` (a policy file: weights, feature names, game and
architecture; `boardwright.rl.policies.load_policy`),
`curve.json` (settings, curve points, final evaluations, weights) and `curve.png` (the learning
curve: win rate against the training bot on fresh games, with 95% Wilson intervals). The final evaluation plays `--eval-games`
fresh games (seeds never used in training or for the curve), seats alternated.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import boardwright.rl.gymnasium  # noqa: F401  (registers boardwright/Queens-v0)
from boardwright.rl.policies import load_policy, save_policy
from boardwright.rl.policies import queens_linear
from boardwright.rl.policies.queens_linear import ACTION_FEATURES, STATE_FEATURES
from boardwright.rl.policies.training import CURVE, FINAL, TRAIN, Adam, game_seed

ENV_ID = "boardwright/Queens-v0"


class LinearPolicy(queens_linear.LinearPolicy):
    """The library's Queens linear policy (`boardwright.rl.policies.queens_linear`), saved as a
    policy file that `policy:path=FILE` plays."""

    def save(self, path: Path, game: Any, **training: Any) -> None:
        save_policy(path, game, queens_linear.LinearPolicy(self.theta, self.value), **training)

    @classmethod
    def load(cls, path: Path) -> LinearPolicy:
        policy = load_policy(path)
        if policy.architecture != queens_linear.ARCHITECTURE:
            raise ValueError(f"{path}: a {policy.architecture} policy, not Queens' linear one")
        return cls(theta=policy.model.theta.copy(), value=policy.model.value.copy())


class Featurizer(queens_linear.Featurizer):
    """The library's features, for the game of a Gymnasium environment."""

    def __init__(self, env: gymnasium.Env) -> None:
        base = env.unwrapped
        super().__init__(base.game, base.encoder)


@dataclass
class Agent:
    """A policy playing one environment: `act` picks a legal action id from obs and info."""

    policy: LinearPolicy
    featurizer: Featurizer
    rng: np.random.Generator
    argmax: bool = False  # play the most probable action instead of sampling

    def act(self, obs: dict[str, np.ndarray], info: dict[str, Any]) -> tuple[int, Any]:
        """The chosen id, and what learning needs (features, choice, probabilities)."""
        ids = info["legal_action_ids"]
        phi = self.featurizer.action_features(obs["observation"], ids)
        p = self.policy.probabilities(phi)
        k = int(np.argmax(p)) if self.argmax else int(self.rng.choice(len(ids), p=p))
        return int(ids[k]), (phi, k, p)


@dataclass
class Episode:
    seat: int
    seed: int
    reward: float
    steps: list[tuple[np.ndarray, int, np.ndarray, np.ndarray]]  # phi, choice, probs, x(s)
    illegal: bool = False


def play(env: gymnasium.Env, agent: Agent, seed: int, record: bool = False) -> Episode:
    """One game from `env.reset(seed=seed)`; with `record`, every decision is kept for learning."""
    obs, info = env.reset(seed=seed)
    steps = []
    reward, done, illegal = 0.0, False, False
    while not done:
        action, (phi, k, p) = agent.act(obs, info)
        if record:
            steps.append((phi, k, p, agent.featurizer.state_features(obs["observation"])))
        obs, reward, terminated, truncated, info = env.step(action)
        illegal = illegal or bool(info.get("illegal_action"))
        done = terminated or truncated
    return Episode(env.unwrapped.seat, seed, float(reward), steps, illegal)


def make_envs(opponent: str = "random") -> list[gymnasium.Env]:
    """One environment per seat against the same bot (seats are alternated game by game)."""
    return [gymnasium.make(ENV_ID, opponent=opponent, seat=seat) for seat in (0, 1)]


def gradients(policy: LinearPolicy, episodes: Sequence[Episode]) -> tuple[np.ndarray, np.ndarray]:
    """REINFORCE with baseline: sum over decisions of (G - V(s)) * grad log pi(a|s), and the
    gradient that moves V(s) towards G (squared error), both averaged per decision."""
    g_theta = np.zeros_like(policy.theta)
    g_value = np.zeros_like(policy.value)
    count = 0
    for episode in episodes:
        for phi, k, p, x in episode.steps:
            baseline = float(x @ policy.value)
            advantage = episode.reward - baseline
            g_theta += advantage * (phi[k] - p @ phi)
            g_value += advantage * x
            count += 1
    return g_theta / max(count, 1), g_value / max(count, 1)


# -- evaluation -----------------------------------------------------------------------------------


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for z = 1.96)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Evaluation:
    games: int
    wins: int
    draws: int
    losses: int
    illegal: int
    results: list[tuple[int, int, float]]  # (seat, seed, reward) per game

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


def evaluate(envs: Sequence[gymnasium.Env], agent: Agent, games: int, run_seed: int,
             stream: int, start: int = 0) -> Evaluation:
    """`games` fresh games of `stream` (seeds start.., seats alternated): wins, draws, losses.
    A draw (shared win) is not a win."""
    results = []
    illegal = 0
    for index in range(start, start + games):
        episode = play(envs[index % 2], agent, game_seed(run_seed, stream, index))
        results.append((episode.seat, episode.seed, episode.reward))
        illegal += episode.illegal
    wins = sum(1 for _, _, r in results if r > 0)
    draws = sum(1 for _, _, r in results if r == 0)
    return Evaluation(games, wins, draws, games - wins - draws, illegal, results)


# -- training -------------------------------------------------------------------------------------


@dataclass
class CurvePoint:
    games: int  # training games played so far
    seconds: float  # training time so far (curve evaluations excluded)
    wins: int
    evaluated: int  # evaluation games
    low: float
    high: float


@dataclass
class Run:
    policy: LinearPolicy
    curve: list[CurvePoint]
    games: int
    seconds: float  # training time, curve evaluations excluded


@dataclass(frozen=True)
class TrainConfig:
    minutes: float = 10.0  # training wall time (curve evaluations excluded)
    max_games: int | None = None  # and at most this many training games
    seed: int = 0
    opponent: str = "random"  # the bot trained and charted against
    batch: int = 16  # games per update
    lr: float = 0.05  # Adam step of the policy
    value_lr: float = 0.05  # Adam step of the baseline
    eval_every: int = 1000  # training games between curve points (denser at the start)
    curve_games: int = 100  # fresh games per curve point
    init: str | None = None  # start from these weights (a policy.npz) instead of zeros


def curve_due(before: int, after: int, every: int) -> bool:
    """Whether a curve point falls in (before, after]: at 64, 128, 256, ... training games while
    that is under `every`, then every `every` games, so the steep start of the curve shows."""
    points = [p for p in (64 * 2**k for k in range(20)) if p < every]
    if any(before < p <= after for p in points):
        return True
    return after // every != before // every


def train(config: TrainConfig, log: Callable[[str], None] = print) -> Run:
    """REINFORCE against `config.opponent` until the time or game budget is spent, with a curve
    point (`curve_games` fresh games, seats alternated) at the start, on `curve_due` and at
    the end."""
    envs = make_envs(config.opponent)
    featurizer = Featurizer(envs[0])
    policy = LinearPolicy.load(Path(config.init)) if config.init else LinearPolicy()
    learner = Agent(policy, featurizer, np.random.default_rng(config.seed))
    judge = Agent(policy, featurizer, np.random.default_rng(config.seed + 1))
    actor, critic = Adam(policy.theta.size, config.lr), Adam(policy.value.size, config.value_lr)
    curve: list[CurvePoint] = []

    def checkpoint(games: int, seconds: float) -> None:
        start = len(curve) * config.curve_games
        result = evaluate(envs, judge, config.curve_games, config.seed, CURVE, start)
        low, high = result.interval
        curve.append(CurvePoint(games, seconds, result.wins, result.games, low, high))
        log(f"{games:6d} games {seconds / 60:5.1f} min: won {result.wins}/{result.games} "
            f"({result.win_rate:.0%} [{low:.0%}, {high:.0%}]) against {config.opponent}")

    budget = config.minutes * 60
    games, trained = 0, 0.0
    checkpoint(0, 0.0)
    while trained < budget and (config.max_games is None or games < config.max_games):
        started = time.perf_counter()
        size = config.batch
        if config.max_games is not None:
            size = min(size, config.max_games - games)
        episodes = [play(envs[(games + i) % 2], learner,
                         game_seed(config.seed, TRAIN, games + i), record=True)
                    for i in range(size)]
        g_theta, g_value = gradients(policy, episodes)
        actor.step(policy.theta, g_theta)
        critic.step(policy.value, g_value)
        games += size
        trained += time.perf_counter() - started
        if curve_due(games - size, games, config.eval_every):
            checkpoint(games, trained)
    if curve[-1].games != games:
        checkpoint(games, trained)
    return Run(policy, curve, games, trained)


# -- output ---------------------------------------------------------------------------------------


def plot_curve(curve: Sequence[CurvePoint], path: Path, title: str, opponent: str) -> None:
    """Win rate (95% Wilson band) by training games, on a log scale past 64 games so the steep
    start shows; the 80% bar dashed, and marked the first point whose interval lies above it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, NullLocator

    x = [p.games for p in curve]
    rate = [p.wins / p.evaluated for p in curve]
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    ax.fill_between(x, [p.low for p in curve], [p.high for p in curve], alpha=0.25,
                    label="95% Wilson interval")
    ax.plot(x, rate, marker="o", markersize=3, label=f"win rate against {opponent}")
    ax.axhline(0.8, color="grey", linestyle="--", linewidth=1, label="80%")
    ax.axhline(0.5, color="grey", linestyle=":", linewidth=1)
    ax.set_xscale("symlog", linthresh=64, linscale=0.5)
    ticks = [t for t in (0, 64, 256, 1000, 4000, 16000, 64000, 256000) if t <= max(x)]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels([f"{t:,}" for t in ticks])
    ax.set_xlim(0, max(x))
    ax.set_ylim(0, 1.02)
    first = next((p for p in curve if p.low >= 0.8), None)
    if first is not None:
        ax.annotate(f"{first.wins}/{first.evaluated}, interval above 80%,\nafter "
                    f"{first.games:,} games ({first.seconds:.0f} s of training)",
                    (first.games, first.wins / first.evaluated),
                    xytext=(14, -62), textcoords="offset points", fontsize=8,
                    arrowprops={"arrowstyle": "->", "linewidth": 0.8})
    ax.set_xlabel("training games (log scale past 64)")
    ax.set_ylabel(f"won, of {curve[0].evaluated} fresh games")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_summary(summary: dict[str, Any], path: Path) -> None:
    """The learning curve of a run, from its `curve.json` summary."""
    curve = [CurvePoint(**p) for p in summary["curve"]]
    config = summary["config"]
    start = f", starting from {config['init']}" if config.get("init") else ""
    plot_curve(curve, path,
               f"Queens & Princes: linear softmax policy, REINFORCE against {config['opponent']}\n"
               f"{summary['training_games']:,} training games in "
               f"{summary['training_seconds'] / 60:.1f} min on the CPU{start}",
               config["opponent"])


def main(argv: Sequence[str] | None = None) -> int:
    defaults = TrainConfig()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=defaults.minutes,
                        help="training wall time (curve evaluations excluded)")
    parser.add_argument("--games", type=int, default=None, help="at most this many training games")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--opponent", default=defaults.opponent,
                        help="bot trained and charted against (a make_agent string)")
    parser.add_argument("--init", default=None,
                        help="start from the weights of a policy.npz instead of zeros")
    parser.add_argument("--out", type=Path, default=Path("runs/learn_queens"))
    parser.add_argument("--batch", type=int, default=defaults.batch, help="games per update")
    parser.add_argument("--lr", type=float, default=defaults.lr)
    parser.add_argument("--eval-every", type=int, default=defaults.eval_every,
                        help="training games between curve points")
    parser.add_argument("--curve-games", type=int, default=defaults.curve_games,
                        help="fresh games per curve point")
    parser.add_argument("--eval-games", type=int, default=1000,
                        help="fresh games of the final evaluation, per bot")
    parser.add_argument("--eval-against", default="random",
                        help="comma-separated bots of the final evaluation")
    parser.add_argument("--argmax", action="store_true",
                        help="evaluate the most probable action instead of sampling the policy")
    parser.add_argument("--replot", action="store_true",
                        help="only draw OUT/curve.png again from OUT/curve.json (no training)")
    args = parser.parse_args(argv)
    if args.replot:
        plot_summary(json.loads((args.out / "curve.json").read_text()), args.out / "curve.png")
        print(f"wrote {args.out / 'curve.png'}")
        return 0
    config = TrainConfig(minutes=args.minutes, max_games=args.games, seed=args.seed,
                         opponent=args.opponent, init=args.init, batch=args.batch, lr=args.lr,
                         eval_every=args.eval_every, curve_games=args.curve_games)
    args.out.mkdir(parents=True, exist_ok=True)

    started = time.perf_counter()
    run = train(config)
    wall = time.perf_counter() - started
    print(f"trained {run.games} games in {run.seconds / 60:.1f} min "
          f"({wall / 60:.1f} min with the curve's evaluations)")
    evaluations = {}
    for opponent in args.eval_against.split(","):
        envs = make_envs(opponent)
        judge = Agent(run.policy, Featurizer(envs[0]), np.random.default_rng(args.seed + 2),
                      argmax=args.argmax)
        t0 = time.perf_counter()
        final = evaluate(envs, judge, args.eval_games, args.seed, FINAL)
        seconds = time.perf_counter() - t0
        low, high = final.interval
        evaluations[opponent] = {
            "games": final.games, "wins": final.wins, "draws": final.draws,
            "losses": final.losses, "illegal": final.illegal, "win_rate": final.win_rate,
            "wilson95": [low, high], "argmax": args.argmax, "seconds": round(seconds, 1)}
        print(f"final: won {final.wins}/{final.games} against {opponent} = "
              f"{final.win_rate:.1%} [{low:.1%}, {high:.1%}] (95% Wilson), {final.draws} draws, "
              f"{final.illegal} illegal moves, {seconds:.0f} s")
    summary = {
        "config": asdict(config), "training_games": run.games,
        "training_seconds": round(run.seconds, 1), "wall_seconds_with_curve": round(wall, 1),
        "evaluation": evaluations,
        "theta": dict(zip(ACTION_FEATURES, map(float, run.policy.theta))),
        "curve": [asdict(p) for p in run.curve],
    }
    run.policy.save(args.out / "policy.npz", make_envs()[0].unwrapped.game,
                    training_games=run.games, training_seconds=round(run.seconds, 1),
                    config=asdict(config))
    (args.out / "curve.json").write_text(json.dumps(summary, indent=1) + "\n")
    plot_summary(summary, args.out / "curve.png")
    print(f"wrote {args.out / 'policy.npz'}, {args.out / 'curve.png'}, {args.out / 'curve.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
