"""Learn to beat `random` at Carcassonne with a policy gradient on the vector environment, numpy only.

    python examples/learn_carcassonne.py --minutes 15 --out runs/carcassonne
    # then the policy file plays anywhere an agent string goes:
    boardwright simulate carcassonne --agents policy:path=runs/carcassonne/policy.npz,random -n 200

The learner plays the Carcassonne vector environment (`boardwright.rl.make_vector_env`: N games
stepped by one kernel call, the compiled kernel when it is built) against `opponent="random"`
(or `--opponent greedy`), half of the games from each seat, and sees only what the environment
gives it: the lossless observation (board planes and scalars,
docs/research/carcassonne-observation.md) and the action mask of the learning action space.

**Policy: a linear softmax over features of the legal ids** (`boardwright.rl.policies.
carcassonne_linear`, which says why): each legal placement, deploy or pass is described by
features read off the planes (the tile's sides against what its neighbours show, who holds the
features it joins, whether a part closes; the kind of feature a figure would go on, whether it
is complete, the figures in hand...), scored `theta . phi`, and the softmax is taken over the
legal ids only. The weights start at zero (unless `--init` gives a policy.npz), so the untrained
policy *is* the random player: everything it learns comes from its games' results.

**Learning: REINFORCE with a learned baseline.** A game's return is its rank-based result for
the learner (+1 first, -1 last, 0 shared) plus `--margin` times tanh(final score margin / 50)
(a game won by more counts a little more, which speeds learning up early, and against a bot
that wins every game at first, losing by less is the only signal there is);
every decision of the game is credited with `G - V(s)`, V a linear value of a few scalars.
Adam on both, one update per `--batch` finished games, recomputing the probabilities with the
current weights (the games of a batch were played by the weights of the last few updates).

Output (`--out DIR`, written as the run goes): `policy.npz` (a policy file, rewritten at every
curve point: `policy:path=DIR/policy.npz`), `curve.json` (settings, curve points, final
evaluations, weights) and `curve.png` (win rate against the training bot on fresh games by
training games, 95% Wilson intervals). The curve plays the greedy choice of the policy
(`policy:path=...` without `sample`) on the vector environment; the final evaluation plays the
saved file as the `policy` agent against `--eval-against` bots on fresh seeds, seats alternated,
through the engine (`--eval-games` per bot), as `boardwright simulate` would.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.rl import make_vector_env
from boardwright.rl.policies import load_policy, save_policy
from boardwright.rl.policies.carcassonne_linear import ACTION_FEATURES, Featurizer, Model
from boardwright.rl.policies.training import CURVE, FINAL, TRAIN, Adam, game_seed
from boardwright.sim.stats import wilson_interval


@dataclass
class Decision:
    phi: np.ndarray  # (legal ids, features) float32
    choice: int  # index of the id played
    x: np.ndarray  # state features (the baseline's input)


def segments(rows: np.ndarray) -> np.ndarray:
    """Start of each run of equal values in a sorted array."""
    return np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])


def choose(featurizer: Featurizer, theta: np.ndarray, obs: dict[str, np.ndarray],
           rng: np.random.Generator, sample: bool = True
           ) -> tuple[np.ndarray, dict[int, Decision]]:
    """An action per env row (sampled from the policy, else the most probable with ties broken
    at random, as the `policy` agent plays), and when sampling the decisions that had a choice,
    for learning (row -> Decision). Rows without a legal id (a game that just ended) get id 0,
    which the environment ignores."""
    mask = obs["action_mask"]
    actions = np.zeros(mask.shape[0], np.int64)
    rows, ids = np.nonzero(mask)
    if not rows.size:
        return actions, {}
    batch = featurizer.batch(obs["board"], obs["scalars"])
    phi = featurizer.features(batch, rows, ids)
    logits = phi @ theta
    if sample:  # Gumbel-max: the largest of logit + Gumbel noise is a sample of the softmax
        order = np.lexsort((-(logits + rng.gumbel(size=logits.size)), rows))
    else:
        # ties (to rounding: the sums run in another order from one batch to the next) at random
        order = np.lexsort((rng.random(logits.size), -np.round(logits, 9), rows))
    starts = segments(rows)
    best = order[starts]  # rows are sorted: each segment's best id comes first in `order`
    actions[rows[best]] = ids[best]
    decisions: dict[int, Decision] = {}
    if sample:
        x = featurizer.state_features(batch)
        stops = np.r_[starts[1:], rows.size]
        for start, stop, chosen in zip(starts, stops, best):
            if stop - start > 1:
                row = int(rows[start])
                decisions[row] = Decision(phi[start:stop].copy(), int(chosen - start), x[row])
    return actions, decisions


@dataclass
class Game:
    """A finished training game from the learner's side."""

    seat: int
    result: float  # rank-based return: +1 first, -1 last, 0 shared (2 players)
    margin: float  # final score minus the best other score
    decisions: list[Decision]


class Collector:
    """One vector environment (one seat of N games) and the decisions of its games so far."""

    def __init__(self, env: Any, seat: int, seeds: list[int]) -> None:
        self.env, self.seat = env, seat
        self.obs, _ = env.reset(seed=seeds)
        self.open: list[list[Decision]] = [[] for _ in range(env.num_envs)]

    def step(self, featurizer: Featurizer, theta: np.ndarray,
             rng: np.random.Generator) -> list[Game]:
        actions, decisions = choose(featurizer, theta, self.obs, rng)
        for row, decision in decisions.items():
            self.open[row].append(decision)
        self.obs, reward, terminated, _, _ = self.env.step(actions)
        finished = []
        at, players = featurizer.scalar_at["scores"], featurizer.n
        for row in np.flatnonzero(terminated):  # the observation is the final position's
            scores = self.obs["scalars"][row, at:at + players].astype(np.int64)
            margin = float(scores[0] - scores[1:].max())
            finished.append(Game(self.seat, float(reward[row]), margin, self.open[row]))
            self.open[row] = []
        return finished


# -- learning -------------------------------------------------------------------------------------


def returns(games: Sequence[Game], margin: float) -> np.ndarray:
    """Per game: the result plus `margin` times tanh(score margin / 50) (a loss by 60 points
    still counts less than one by 90: the signal that remains when every game is lost)."""
    return np.array([g.result + margin * float(np.tanh(g.margin / 50)) for g in games])


def gradients(model: Model, games: Sequence[Game], margin: float
              ) -> tuple[np.ndarray, np.ndarray, float, float]:
    """REINFORCE with baseline over every decision of `games`, with the probabilities of the
    current weights: (policy gradient, value gradient, policy loss, value loss), per decision."""
    decisions = [d for g in games for d in g.decisions]
    if not decisions:
        return np.zeros_like(model.theta), np.zeros_like(model.value), 0.0, 0.0
    g_of = np.concatenate([np.full(len(g.decisions), r) for g, r in zip(games,
                                                                         returns(games, margin))])
    sizes = np.array([len(d.phi) for d in decisions])
    starts = np.r_[0, np.cumsum(sizes)[:-1]]
    phi = np.concatenate([d.phi for d in decisions])  # float32: half the memory traffic
    x = np.stack([d.x for d in decisions]).astype(np.float64)
    chosen = starts + np.array([d.choice for d in decisions])
    logits = (phi @ model.theta.astype(np.float32)).astype(np.float64)
    segment = np.repeat(np.arange(len(decisions)), sizes)
    logits -= np.maximum.reduceat(logits, starts)[segment]
    weights = np.exp(logits)
    total = np.add.reduceat(weights, starts)
    p = weights / total[segment]
    expected = np.add.reduceat(p.astype(np.float32)[:, None] * phi, starts)
    advantage = g_of - x @ model.value
    g_theta = (advantage[:, None] * (phi[chosen] - expected)).mean(axis=0, dtype=np.float64)
    g_value = (advantage[:, None] * x).mean(axis=0)
    policy_loss = float(-(advantage * np.log(p[chosen])).mean())
    return g_theta, g_value, policy_loss, float((advantage ** 2).mean())


@dataclass
class Learner:
    """The model, its optimisers and the features, for one configured game."""

    model: Model
    featurizer: Featurizer
    actor: Adam
    critic: Adam
    margin: float
    losses: list[tuple[float, float]] = field(default_factory=list)

    @classmethod
    def new(cls, game: Any, config: TrainConfig, model: Model | None = None) -> Learner:
        model = model if model is not None else Model()
        return cls(model, Featurizer(game), Adam(model.theta.size, config.lr),
                   Adam(model.value.size, config.value_lr), config.margin)

    def update(self, games: Sequence[Game]) -> tuple[float, float]:
        g_theta, g_value, policy_loss, value_loss = gradients(self.model, games, self.margin)
        self.actor.step(self.model.theta, g_theta)
        self.critic.step(self.model.value, g_value)
        self.losses.append((policy_loss, value_loss))
        return policy_loss, value_loss


# -- evaluation -----------------------------------------------------------------------------------


@dataclass
class Evaluation:
    games: int
    wins: int
    draws: int
    losses: int
    results: list[tuple[int, int, float]] = field(default_factory=list)  # (seat, seed, return)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @classmethod
    def of(cls, results: list[tuple[int, int, float]]) -> Evaluation:
        wins = sum(1 for *_, r in results if r > 0)
        draws = sum(1 for *_, r in results if r == 0)
        return cls(len(results), wins, draws, len(results) - wins - draws, results)


def evaluate_vector(envs: Sequence[Any], featurizer: Featurizer, theta: np.ndarray,
                    run_seed: int, start: int) -> Evaluation:
    """One fresh game per row of each environment (one per seat), seeds of the CURVE stream
    from `start`, the policy's most probable id at every decision."""
    results = []
    index = start
    rng = np.random.default_rng(game_seed(run_seed, CURVE, start))  # ties
    for env in envs:
        seeds = [game_seed(run_seed, CURVE, index + i) for i in range(env.num_envs)]
        index += env.num_envs
        obs, _ = env.reset(seed=seeds)
        done = np.zeros(env.num_envs, bool)
        while not done.all():
            actions, _ = choose(featurizer, theta, obs, rng, sample=False)
            obs, reward, terminated, _, _ = env.step(actions)
            for row in np.flatnonzero(terminated & ~done):
                results.append((env.seat, seeds[row], float(reward[row])))
            done |= terminated
    return Evaluation.of(results)


def evaluate_agent(path: Path, opponent: str, games: int, run_seed: int,
                   engine: str | None = None) -> Evaluation:
    """`games` fresh games (FINAL stream) of the policy file played as the `policy` agent
    against `opponent`, through the engine, seats alternated; the engine's winners decide."""
    game = bw.load("carcassonne", load_policy(path).players, {}, engine=engine)
    results = []
    for index in range(games):
        seed = game_seed(run_seed, FINAL, index)
        seat = index % game.num_players
        agents = [make_agent(opponent, seed=seed * 8 + s) for s in range(game.num_players)]
        agents[seat] = make_agent(f"policy:path={path}", seed=seed)
        state = game.new_game(seed)
        while not state.is_terminal:
            state.apply(agents[state.current_player].act(state))
        results.append((seat, seed, float(state.returns()[seat])))
    return Evaluation.of(results)


# -- training -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrainConfig:
    minutes: float = 15.0  # training wall time (curve evaluations excluded)
    max_games: int | None = None  # and at most this many training games
    seed: int = 0
    opponent: str = "random"  # the bot trained and charted against
    envs: int = 64  # games in flight, half from each seat
    batch: int = 64  # finished games per update
    lr: float = 0.03  # Adam step of the policy
    value_lr: float = 0.03  # Adam step of the baseline
    margin: float = 0.5  # weight of the score margin in a game's return
    kernel: str = "auto"  # the vector environment's kernel: auto, native or python
    eval_every: int = 2000  # training games between curve points (denser at the start)
    curve_games: int = 100  # fresh games per curve point
    init: str | None = None  # start from these weights (a policy.npz) instead of zeros


@dataclass
class CurvePoint:
    games: int  # training games so far
    seconds: float  # training time so far (curve evaluations excluded)
    wins: int
    evaluated: int
    low: float
    high: float


@dataclass
class Run:
    model: Model
    curve: list[CurvePoint]
    games: int
    seconds: float
    kernel: str
    updates: int


def curve_due(before: int, after: int, every: int) -> bool:
    """Whether a curve point falls in (before, after]: at 64, 128, 256, ... training games while
    that is under `every`, then every `every` games, so the steep start of the curve shows."""
    points = [p for p in (64 * 2**k for k in range(20)) if p < every]
    if any(before < p <= after for p in points):
        return True
    return after // every != before // every


def make_envs(config: TrainConfig, num_envs: int, opponent: str) -> list[Any]:
    """One vector environment per seat (2 players), `num_envs` games each."""
    return [make_vector_env(num_envs=num_envs, players=2, opponent=opponent, seat=seat,
                            kernel=config.kernel) for seat in (0, 1)]


def train(config: TrainConfig, log: Callable[[str], None] = print,
          checkpoint: Callable[[Run], None] | None = None) -> Run:
    """REINFORCE against `config.opponent` until the time or game budget is spent, with a curve
    point at the start, on `curve_due` and at the end (`checkpoint(run)` after each, e.g. to
    save the policy and the curve as the run goes)."""
    if config.envs < 2 or config.envs % 2:
        raise ValueError("--envs must be an even number of games (half from each seat)")
    envs = make_envs(config, config.envs // 2, config.opponent)
    judges = make_envs(config, max(1, config.curve_games // 2), config.opponent)
    game = envs[0].game
    model = None
    if config.init:
        policy = load_policy(config.init)
        if not isinstance(policy.model, Model):
            raise ValueError(f"{config.init} is a {policy.architecture} policy")
        model = policy.model
    learner = Learner.new(game, config, model)
    rng = np.random.default_rng(config.seed)
    collectors = [Collector(env, env.seat,
                            [game_seed(config.seed, TRAIN, seat * 10**6 + i)
                             for i in range(env.num_envs)]) for seat, env in enumerate(envs)]
    run = Run(learner.model, [], 0, 0.0, envs[0].kernel_name, 0)

    def point() -> None:
        start = len(run.curve) * 2 * judges[0].num_envs
        result = evaluate_vector(judges, learner.featurizer, learner.model.theta, config.seed,
                                 start)
        low, high = result.interval
        run.curve.append(CurvePoint(run.games, run.seconds, result.wins, result.games, low,
                                    high))
        log(f"{run.games:6d} games {run.seconds / 60:5.1f} min: won {result.wins}/"
            f"{result.games} ({result.win_rate:.0%} [{low:.0%}, {high:.0%}]) against "
            f"{config.opponent}")
        if checkpoint is not None:
            checkpoint(run)

    budget = config.minutes * 60
    point()
    finished: list[Game] = []
    while run.seconds < budget and (config.max_games is None or run.games < config.max_games):
        started = time.perf_counter()
        for collector in collectors:
            finished += collector.step(learner.featurizer, learner.model.theta, rng)
        before = run.games
        if len(finished) >= config.batch:
            if config.max_games is not None:
                finished = finished[:config.max_games - run.games]
            learner.update(finished)
            run.games += len(finished)
            run.updates += 1
            finished = []
        run.seconds += time.perf_counter() - started
        if curve_due(before, run.games, config.eval_every):
            point()
    if run.curve[-1].games != run.games:
        point()
    return run


# -- output ---------------------------------------------------------------------------------------


def plot_curve(summary: dict[str, Any], path: Path) -> None:
    """Win rate (95% Wilson band) by training games, log scale past 64 games; the 90% bar
    dashed, and the final evaluations marked at the right."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, NullLocator

    curve = [CurvePoint(**p) for p in summary["curve"]]
    config = summary["config"]
    opponent = config["opponent"]
    x = [p.games for p in curve]
    fig, ax = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    ax.fill_between(x, [p.low for p in curve], [p.high for p in curve], alpha=0.25,
                    label="95% Wilson interval")
    ax.plot(x, [p.wins / p.evaluated for p in curve], marker="o", markersize=3,
            label=f"won against {opponent} (of {curve[0].evaluated} fresh games)")
    for bot, marker in (("random", "s"), ("greedy", "D")):
        final = summary.get("evaluation", {}).get(bot)
        if final:
            low, high = final["wilson95"]
            rate = final["win_rate"]
            ax.errorbar([max(x)], [rate], yerr=[[rate - low], [high - rate]], fmt=marker,
                        color="black" if bot == "random" else "tab:red", capsize=3,
                        markersize=4, label=f"final, against {bot}: {final['wins']}/"
                                            f"{final['games']}")
    first = next((p for p in curve if p.low >= 0.9), None)
    if first is not None:
        ax.annotate(f"{first.wins}/{first.evaluated}, interval above 90%,\nafter "
                    f"{first.games:,} games ({first.seconds:.0f} s of training)",
                    (first.games, first.wins / first.evaluated), xytext=(20, -70),
                    textcoords="offset points", fontsize=8,
                    arrowprops={"arrowstyle": "->", "linewidth": 0.8})
    ax.axhline(0.9, color="grey", linestyle="--", linewidth=1, label="90%")
    ax.axhline(0.5, color="grey", linestyle=":", linewidth=1)
    ax.set_xscale("symlog", linthresh=64, linscale=0.5)
    ticks = [t for t in (0, 64, 256, 1000, 4000, 16000, 64000, 256000) if t <= max(x)]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xticklabels([f"{t:,}" for t in ticks])
    ax.set_xlim(0, max(max(x), 1) * 1.05)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("training games (log scale past 64)")
    ax.set_ylabel("win rate")
    start = f", from {config['init']}" if config.get("init") else ""
    ax.set_title(f"Carcassonne (2 players): linear softmax policy, REINFORCE against "
                 f"{opponent}\n{summary['training_games']:,} training games in "
                 f"{summary['training_seconds'] / 60:.1f} min on the CPU "
                 f"({summary['kernel']} vector env){start}", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def summary_of(run: Run, config: TrainConfig, evaluations: dict[str, Any]) -> dict[str, Any]:
    return {"config": asdict(config), "kernel": run.kernel, "training_games": run.games,
            "training_seconds": round(run.seconds, 1), "updates": run.updates,
            "evaluation": evaluations,
            "theta": dict(zip(ACTION_FEATURES, map(float, run.model.theta))),
            "curve": [asdict(p) for p in run.curve]}


def write(out: Path, run: Run, config: TrainConfig, game: Any,
          evaluations: dict[str, Any]) -> None:
    """policy.npz, curve.json and curve.png of the run so far."""
    save_policy(out / "policy.npz", game, run.model, training_games=run.games,
                training_seconds=round(run.seconds, 1), kernel=run.kernel, config=asdict(config))
    summary = summary_of(run, config, evaluations)
    (out / "curve.json").write_text(json.dumps(summary, indent=1) + "\n")
    plot_curve(summary, out / "curve.png")


def main(argv: Sequence[str] | None = None) -> int:
    defaults = TrainConfig()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=defaults.minutes,
                        help="training wall time (curve evaluations excluded)")
    parser.add_argument("--games", type=int, default=None, help="at most this many training games")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--opponent", default=defaults.opponent,
                        help="bot trained and charted against: random or greedy")
    parser.add_argument("--init", default=None,
                        help="start from the weights of a policy.npz instead of zeros")
    parser.add_argument("--out", type=Path, default=Path("runs/carcassonne"))
    parser.add_argument("--envs", type=int, default=defaults.envs,
                        help="games in flight (half from each seat)")
    parser.add_argument("--batch", type=int, default=defaults.batch,
                        help="finished games per update")
    parser.add_argument("--lr", type=float, default=defaults.lr)
    parser.add_argument("--margin", type=float, default=defaults.margin,
                        help="weight of tanh(final score margin / 50) in a game's return")
    parser.add_argument("--kernel", default=defaults.kernel, choices=("auto", "native", "python"))
    parser.add_argument("--eval-every", type=int, default=defaults.eval_every,
                        help="training games between curve points")
    parser.add_argument("--curve-games", type=int, default=defaults.curve_games,
                        help="fresh games per curve point")
    parser.add_argument("--eval-against", default="random:200,greedy:100",
                        help="final evaluation: comma-separated BOT:GAMES")
    parser.add_argument("--replot", action="store_true",
                        help="only draw OUT/curve.png again from OUT/curve.json (no training)")
    args = parser.parse_args(argv)
    if args.replot:
        plot_curve(json.loads((args.out / "curve.json").read_text()), args.out / "curve.png")
        print(f"wrote {args.out / 'curve.png'}")
        return 0
    config = TrainConfig(minutes=args.minutes, max_games=args.games, seed=args.seed,
                         opponent=args.opponent, init=args.init, envs=args.envs,
                         batch=args.batch, lr=args.lr, value_lr=args.lr, margin=args.margin,
                         kernel=args.kernel, eval_every=args.eval_every,
                         curve_games=args.curve_games)
    args.out.mkdir(parents=True, exist_ok=True)
    game = bw.load("carcassonne", 2, {})
    started = time.perf_counter()
    run = train(config, checkpoint=lambda run: write(args.out, run, config, game, {}))
    wall = time.perf_counter() - started
    print(f"trained {run.games} games in {run.seconds / 60:.1f} min on the {run.kernel} kernel "
          f"({wall / 60:.1f} min with the curve's evaluations)")
    evaluations: dict[str, Any] = {}
    for item in filter(None, args.eval_against.split(",")):
        bot, _, count = item.partition(":")
        t0 = time.perf_counter()
        final = evaluate_agent(args.out / "policy.npz", bot, int(count or 200), args.seed)
        seconds = time.perf_counter() - t0
        low, high = final.interval
        evaluations[bot] = {"games": final.games, "wins": final.wins, "draws": final.draws,
                            "losses": final.losses, "win_rate": final.win_rate,
                            "wilson95": [low, high], "seconds": round(seconds, 1)}
        print(f"final: won {final.wins}/{final.games} against {bot} = {final.win_rate:.1%} "
              f"[{low:.1%}, {high:.1%}] (95% Wilson), {final.draws} draws, {seconds:.0f} s")
        write(args.out, run, config, game, evaluations)
    write(args.out, run, config, game, evaluations)
    print(f"wrote {args.out / 'policy.npz'}, {args.out / 'curve.png'}, {args.out / 'curve.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
