"""The learned value of a Carcassonne position: a small network's correction to the linear
evaluation (`evaluation.py`), trained on self-play positions made by the compiled engine.

The network reads a position from the point of view of the seat whose turn it is (relative
seats: that seat first): every seat's eighteen hand-made features, then t and t^2 (the share of
the pile left), then (inputs "hand+holders") the lossless observation's `holders` planes summed
over the board: per relative seat and segment, the figures of that seat in the features
covering that segment of every tile (how much of each kind of ground each seat holds, and how
crowded it is). All standardised by the training rows' mean and spread; two hidden layers of
ReLU units give one output per relative seat, in units of `scale` points: what the linear
evaluation misses of that seat's final score minus the seats' mean. The evaluation "learned"
(`evaluation.LEARNED`) adds it to the current linear values, and a search judges its leaves by
it only when asked (`mcts:evaluation=learned`): the current evaluation, and so the default bot,
stays linear. Of the observation's blocks, the holders carried most of what the network learns
beyond the hand-made features (docs/bots.md).

The weights are data (`data/value-<N>p.json`, one file per player count it was trained for;
"learned" is offered exactly for the counts with a file). The 2- and 4-player networks are
shipped; each predicts the final margins better than the linear evaluation but did not win
more games with it, so no player count uses it by default (docs/bots.md gives the
measurements and the match that would turn it on). `benchmarks/value_data.py` makes the
positions and `benchmarks/train_value.py` fits and writes them (the commands are in
docs/bots.md). This module is the reference, in the standard library only; the compiled engine
computes the same numbers (`native/cpp/value_net.cpp`) and a test holds them together.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from boardwright.core.errors import InvalidOptionError
from boardwright.games.carcassonne.segments import SEGMENTS, covered_segments

FORMAT = 1
INPUTS = ("hand", "hand+holders")  # what a network reads (its file's "inputs")


@dataclass(frozen=True)
class ValueNet:
    """A trained network: per layer a matrix (inputs x outputs, row by row) and a bias."""

    players: int
    holders: bool  # reads the held segments too ("hand+holders")
    mean: tuple[float, ...]
    spread: tuple[float, ...]
    scale: float
    layers: tuple[tuple[tuple[tuple[float, ...], ...], tuple[float, ...]], ...]

    @property
    def inputs(self) -> int:
        return len(self.mean)

    def output(self, x: Sequence[float]) -> list[float]:
        """The correction per relative seat, in points, for the raw inputs `x`."""
        h = [(v - m) / s for v, m, s in zip(x, self.mean, self.spread)]
        last = len(self.layers) - 1
        for index, (matrix, bias) in enumerate(self.layers):
            out = list(bias)
            for value, row in zip(h, matrix):
                if value:
                    for j, w in enumerate(row):
                        out[j] += value * w
            h = out if index == last else [v if v > 0 else 0.0 for v in out]
        return [v * self.scale for v in h]


def parse_net(data: dict, players: int) -> ValueNet:
    """A network from its JSON form; a malformed file is a named error."""
    try:
        if data.get("format") != FORMAT or data.get("inputs") not in INPUTS:
            raise ValueError(f"format {data.get('format')!r} with inputs {data.get('inputs')!r}")
        if data["players"] != players:
            raise ValueError(f"trained for {data['players']} players, not {players}")
        layers = tuple((tuple(tuple(float(w) for w in row) for row in layer["weights"]),
                        tuple(float(b) for b in layer["bias"])) for layer in data["layers"])
        net = ValueNet(players, data["inputs"] == "hand+holders",
                       tuple(float(v) for v in data["mean"]),
                       tuple(float(v) for v in data["spread"]), float(data["scale"]), layers)
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise InvalidOptionError(f"value network: {exc}") from None
    width = net.inputs
    for matrix, bias in net.layers:
        if len(matrix) != width or any(len(row) != len(bias) for row in matrix):
            raise InvalidOptionError("value network: layer sizes do not chain")
        width = len(bias)
    expected = 18 * players + 2 + (SEGMENTS * players if net.holders else 0)
    if width != players or len(net.spread) != net.inputs or net.inputs != expected:
        raise InvalidOptionError("value network: inputs or outputs of the wrong size")
    return net


def net_file(players: int) -> str:
    return f"value-{players}p.json"


@cache
def shipped_net(players: int) -> ValueNet | None:
    """The network trained for `players` players, if one is shipped."""
    file = resources.files("boardwright.games.carcassonne").joinpath("data", net_file(players))
    if not file.is_file():
        return None
    return parse_net(json.loads(file.read_text()), players)


def held_segments(state: Any, mover: int) -> list[float]:
    """The observation's `holders` planes summed over the board, relative seats from `mover`:
    entry SEGMENTS * k + g adds, over every placed tile, the figures of seat mover + k in the
    feature of the part covering segment g (barns are not in features: not counted)."""
    n = state.game.num_players
    graph = state.graph
    held: dict[int, list[int]] = {}
    for part, (seat, _figure) in state.occupant.items():
        held.setdefault(graph.find(part), [0] * n)[seat] += 1
    out = [0.0] * (SEGMENTS * n)
    if not held:
        return out
    for variant, base in graph.board.values():
        for local in range(len(variant.features)):
            counts = held.get(graph.find(base + local))
            if counts is None:
                continue
            for segment in covered_segments(variant, local):
                for seat, count in enumerate(counts):
                    if count:
                        out[SEGMENTS * ((seat - mover) % n) + segment] += count
    return out


def net_inputs(features: Sequence[Sequence[float]], mover: int, t: float,
               held: Sequence[float] = ()) -> list[float]:
    """The raw inputs: every seat's features from `mover` on, t and t^2, then the held
    segments (relative to `mover` already) for a network that reads them."""
    n = len(features)
    x: list[float] = []
    for k in range(n):
        x.extend(float(v) for v in features[(mover + k) % n])
    x.extend((t, t * t))
    x.extend(held)
    return x


def correction(net: ValueNet, features: Sequence[Sequence[float]], mover: int,
               t: float, held: Sequence[float] = ()) -> list[float]:
    """What the network adds to each seat's linear value (absolute seats)."""
    out = net.output(net_inputs(features, mover, t, held))
    n = len(features)
    values = [0.0] * n
    for k in range(n):
        values[(mover + k) % n] = out[k]
    return values
