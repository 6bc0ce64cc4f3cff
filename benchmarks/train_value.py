"""Train Carcassonne's learned value on the self-play positions of `value_data.py`.

The model: a small multilayer perceptron (two hidden layers of ReLU units) that reads one
position from the point of view of the seat whose turn begins and predicts every seat's final
score minus the seats' mean (relative seats, the mover first): with two players, half the final
margin each way. Its inputs, standardised by the training rows' mean and spread:

* `hand`: every seat's hand-made features (the linear evaluation's eighteen), the mover first;
* `t`, `t^2`: the share of the pile left;
* with `--inputs hand+holders`, the observation's `holders` planes summed over the window (per
  relative seat and segment: the figures of that seat in the features covering that segment,
  over every tile), what the game's network reads (`games/carcassonne/value_net.py`);
* with `--inputs hand+obs`, the mover's whole lossless observation pooled: each board plane
  summed over the window, then the scalars (for comparison: the game cannot read it).

A fifth of the games (index divisible by 5) are held out. The curve: the held-out mean squared
error of the margin (seat 0 minus seat 1, in points squared) by training positions seen, beside
the linear evaluation's (the weights in use: data/evaluation*.toml) and the constant prediction.
The weights are written as JSON (`--model`): layer sizes, the inputs' mean and spread, the
matrices row by row; the game reads them with the standard library.

    python benchmarks/train_value.py --data runs/value-2p-am --model value-2p.json --curve curve.png
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from boardwright.games.carcassonne.evaluation import default_weights

OPTION_SETS = {"base": {}, "abbey_mayor": {"expansions": ["abbey_mayor"]}}


def load(folder: Path) -> dict[str, np.ndarray]:
    """Every chunk of a data folder, rows concatenated."""
    parts = [np.load(path) for path in sorted(folder.glob("chunk-*.npz"))]
    if not parts:
        raise SystemExit(f"no chunk-*.npz in {folder}")
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0].files}


def holders_columns(players: int, options: str) -> slice:
    """Where the pooled `holders` planes sit in a row's `pooled` (the encoder's layout)."""
    import boardwright as bw
    from boardwright.rl.observations import encoder_for

    game = bw.load("carcassonne", players=players, options=OPTION_SETS[options])
    first, count = encoder_for(game).board_blocks["holders"]
    return slice(first, first + count)


def inputs(data: dict[str, np.ndarray], kind: str, options: str = "abbey_mayor") -> np.ndarray:
    """The model's input rows (before standardisation)."""
    n = data["hand"].shape[1]
    t = data["t"][:, None]
    columns = [data["hand"].reshape(len(t), n * data["hand"].shape[2]), t, t * t]
    if kind == "hand+holders":
        columns.append(data["pooled"][:, holders_columns(n, options)].astype(np.float32))
    if kind == "hand+obs":
        columns.append(data["pooled"].astype(np.float32))
    return np.concatenate(columns, axis=1).astype(np.float32)


def targets(data: dict[str, np.ndarray]) -> np.ndarray:
    final = data["final"]
    return (final - final.mean(axis=1, keepdims=True)).astype(np.float32)


def linear_prediction(data: dict[str, np.ndarray]) -> np.ndarray:
    """The linear evaluation in use, on the same rows (the mover gets the turn bonus)."""
    n = data["hand"].shape[1]
    weights = default_weights(n)
    coef = np.asarray(weights.features, dtype=np.float64)  # (F, 3)
    t = data["t"].astype(np.float64)
    w = coef[:, 0][None] + coef[:, 1][None] * t[:, None] + coef[:, 2][None] * (t * t)[:, None]
    values = np.einsum("rsf,rf->rs", data["hand"].astype(np.float64), w)
    a, b, c = weights.to_move
    values[:, 0] += a + b * t + c * t * t
    return values - values.mean(axis=1, keepdims=True)


class MLP:
    """Two hidden ReLU layers, Adam, mean squared error."""

    def __init__(self, sizes: list[int], rng: np.random.Generator) -> None:
        self.sizes = sizes
        self.params = []
        for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
            self.params.append(rng.normal(0, np.sqrt(2.0 / fan_in), (fan_in, fan_out)).astype(np.float32))
            self.params.append(np.zeros(fan_out, dtype=np.float32))
        self.params[-2][:] = 0  # the last layer starts at zero: the linear evaluation's answer
        self.m = [np.zeros_like(p) for p in self.params]
        self.v = [np.zeros_like(p) for p in self.params]
        self.steps = 0

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        acts = [x]
        h = x
        layers = len(self.params) // 2
        for i in range(layers):
            h = h @ self.params[2 * i] + self.params[2 * i + 1]
            if i < layers - 1:
                h = np.maximum(h, 0)
            acts.append(h)
        return h, acts

    def train_batch(self, x: np.ndarray, y: np.ndarray, lr: float, decay: float) -> float:
        out, acts = self.forward(x)
        diff = out - y
        loss = float(np.mean(diff * diff))
        grad = 2 * diff / diff.size
        grads = [None] * len(self.params)
        layers = len(self.params) // 2
        for i in reversed(range(layers)):
            grads[2 * i] = acts[i].T @ grad + decay * self.params[2 * i]
            grads[2 * i + 1] = grad.sum(axis=0)
            if i:
                grad = (grad @ self.params[2 * i].T) * (acts[i] > 0)
        self.steps += 1
        b1, b2 = 0.9, 0.999
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mh = m / (1 - b1 ** self.steps)
            vh = v / (1 - b2 ** self.steps)
            p -= lr * mh / (np.sqrt(vh) + 1e-8)
        return loss

    def predict(self, x: np.ndarray) -> np.ndarray:
        return np.concatenate([self.forward(x[i:i + 65536])[0] for i in range(0, len(x), 65536)])


def margin_mse(prediction: np.ndarray, target: np.ndarray) -> float:
    """Mean squared error of the margin seat 0 minus seat 1 (relative seats), points^2."""
    p = prediction[:, 0] - prediction[:, 1]
    y = target[:, 0] - target[:, 1]
    return float(np.mean((p - y) ** 2))


def bootstrap_gain(model: np.ndarray, base: np.ndarray, target: np.ndarray, games: np.ndarray,
                   rng: np.random.Generator, rounds: int = 1000) -> tuple[float, float, float]:
    """The linear evaluation's held-out margin MSE minus the model's, with a 95% interval from
    a bootstrap over the held-out games (positions of one game are not independent)."""
    def squares(p: np.ndarray) -> np.ndarray:
        return ((p[:, 0] - p[:, 1]) - (target[:, 0] - target[:, 1])) ** 2
    gain = squares(base) - squares(model)
    ids, index = np.unique(games, return_inverse=True)
    sums = np.bincount(index, weights=gain)
    counts = np.bincount(index)
    draws = rng.integers(0, len(ids), size=(rounds, len(ids)))
    stats = sums[draws].sum(axis=1) / counts[draws].sum(axis=1)
    return float(gain.mean()), float(np.percentile(stats, 2.5)), float(np.percentile(stats, 97.5))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, type=Path)
    parser.add_argument("--inputs", choices=("hand", "hand+holders", "hand+obs"),
                        default="hand+holders")
    parser.add_argument("--options", choices=OPTION_SETS, default="abbey_mayor",
                        help="the option set the data was made with")
    parser.add_argument("--hidden", type=int, nargs=2, default=[64, 32])
    parser.add_argument("--epochs", type=float, default=6.0)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--decay", type=float, default=1e-4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--points", type=int, default=30, help="points on the learning curve")
    parser.add_argument("--model", type=Path)
    parser.add_argument("--curve", type=Path)
    parser.add_argument("--log", type=Path, help="the curve's numbers as JSON")
    parser.add_argument("--init", type=Path,
                        help="start from this model file (fine-tuning on other data)")
    parser.add_argument("--judge", type=Path,
                        help="no training: judge this model file on the held-out rows")
    parser.add_argument("--also", type=Path, action="append", default=[],
                        help="another run's --log, drawn on the same curve")
    args = parser.parse_args()

    data = load(args.data)
    x, y = inputs(data, args.inputs, args.options), targets(data)
    base = linear_prediction(data).astype(np.float32)  # the model learns what it misses
    y = y - base
    held = data["game"] % 5 == 0
    start = json.loads(args.init.read_text()) if args.init else None
    mean, spread = x[~held].mean(axis=0), x[~held].std(axis=0) + 1e-3
    if start:  # fine-tuning: the inputs and outputs on the first training's scales
        mean, spread = np.asarray(start["mean"]), np.asarray(start["spread"])
    xs = (x - mean) / spread
    scale = float(y[~held].std()) or 1.0  # the outputs are learnt in units of this many points
    if start:
        scale = float(start["scale"])
    train_x, train_y, test_x, test_y = xs[~held], y[~held] / scale, xs[held], y[held]
    test_base = base[held]
    linear = margin_mse(test_base, test_y + test_base)
    constant = float(np.mean(((test_y + test_base)[:, 0] - (test_y + test_base)[:, 1]) ** 2))
    games = len(np.unique(data["game"]))
    print(f"{len(x)} rows from {games} games; train {len(train_x)}, held out {len(test_x)}; "
          f"inputs {x.shape[1]}; held-out margin MSE: constant {constant:.1f}, linear {linear:.1f}")

    rng = np.random.default_rng(args.seed)
    if args.judge:
        saved = json.loads(args.judge.read_text())
        xs_saved = (x[held] - np.asarray(saved["mean"])) / np.asarray(saved["spread"])
        judged = MLP([x.shape[1], *[len(l["bias"]) for l in saved["layers"]]], rng)
        judged.params = [np.asarray(v, dtype=np.float64) for layer in saved["layers"]
                         for v in (layer["weights"], layer["bias"])]
        prediction = judged.predict(xs_saved) * saved["scale"] + test_base
        gain = bootstrap_gain(prediction, test_base, test_y + test_base, data["game"][held], rng)
        print(f"{args.judge}: held-out margin MSE {margin_mse(prediction, test_y + test_base):.2f} "
              f"(linear {linear:.2f}); gain over linear {gain[0]:+.2f} "
              f"[95% {gain[1]:+.2f}, {gain[2]:+.2f}] points^2")
        return
    model = MLP([x.shape[1], *args.hidden, y.shape[1]], rng)
    if start:
        model.params = [np.asarray(v, dtype=np.float32) for layer in start["layers"]
                        for v in (layer["weights"], layer["bias"])]
    total = int(args.epochs * len(train_x))
    every = max(args.batch, total // args.points)
    curve: list[tuple[int, float]] = []
    seen = 0
    began = time.perf_counter()
    order = rng.permutation(len(train_x))
    cursor = 0
    next_point = every
    while seen < total:
        if cursor + args.batch > len(order):
            order, cursor = rng.permutation(len(train_x)), 0
        batch = order[cursor:cursor + args.batch]
        cursor += args.batch
        progress = seen / total
        lr = args.lr * (0.5 * (1 + np.cos(np.pi * progress)))  # cosine decay to 0
        model.train_batch(train_x[batch], train_y[batch], lr, args.decay)
        seen += len(batch)
        if seen >= next_point or seen >= total:
            error = margin_mse(model.predict(test_x) * scale + test_base, test_y + test_base)
            curve.append((seen, error))
            next_point += every
            print(f"{seen:>10} positions  held-out margin MSE {error:.2f}  "
                  f"({time.perf_counter() - began:.0f} s)", flush=True)
    final = curve[-1][1]
    gain = bootstrap_gain(model.predict(test_x) * scale + test_base, test_base,
                          test_y + test_base, data["game"][held], rng)
    print(f"final held-out margin MSE {final:.2f} (linear {linear:.2f}, constant {constant:.2f}); "
          f"R^2 {1 - final / constant:.4f} against linear {1 - linear / constant:.4f}; "
          f"gain over linear {gain[0]:+.2f} [95% {gain[1]:+.2f}, {gain[2]:+.2f}] points^2")
    if args.log:
        args.log.write_text(json.dumps({"curve": curve, "linear": linear, "constant": constant,
                                        "rows": len(x), "games": games, "gain": gain,
                                        "inputs": args.inputs, "hidden": args.hidden,
                                        "seconds": time.perf_counter() - began}, indent=1))
    if args.curve:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.plot([c[0] for c in curve], [c[1] for c in curve], label=f"learned value ({args.inputs})")
        for other in args.also:
            run = json.loads(other.read_text())
            ax.plot([c[0] for c in run["curve"]], [c[1] for c in run["curve"]],
                    label=f"learned value ({run['inputs']})")
        ax.axhline(linear, color="black", linestyle="--", label="linear evaluation in use")
        ax.set_xlabel("training positions seen")
        ax.set_ylabel("held-out MSE of the margin target (points²)")
        ax.set_title(f"Carcassonne value, {data['hand'].shape[1]} players: held-out error")
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.curve, dpi=110)
    if args.model:
        layers = [{"weights": model.params[2 * i].tolist(), "bias": model.params[2 * i + 1].tolist()}
                  for i in range(len(model.params) // 2)]
        args.model.write_text(json.dumps({
            "format": 1, "players": int(data["hand"].shape[1]), "inputs": args.inputs,
            "features": int(data["hand"].shape[2]), "mean": mean.tolist(), "spread": spread.tolist(),
            "scale": scale, "layers": layers, "held_out_margin_mse": final, "linear_margin_mse": linear}))


if __name__ == "__main__":
    main()
