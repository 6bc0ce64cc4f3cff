"""The learned evaluation of a Carcassonne position: what search leaves are judged by.

A seat's value is a weighted sum of its features (`position_features.FEATURES`), each weight a
quadratic in t, the share of the draw pile still to come, so a follower in hand can be worth
more early than late, and a farm's open cities more late than early. The player whose turn it
is gets a small bonus (the tempo of moving first). The weights live in
`data/evaluation.toml` (2 players) and `data/evaluation-<N>p.toml` (fitted for N players; a
count without its own fit uses the 2-player weights); `benchmarks/fit_evaluation.py` fits them
by least squares on the final score margins of self-play games (every pair of seats with more
than two players). Earlier weights stay by name for the named baselines that judge by them
(`WEIGHTS_FILES`): "v1", the first fit (greedy 2-player self-play, `data/evaluation-v1.toml`,
for every player count), for `mcts-v1`; "v2", the weights of every player count as `mcts-v2` was
kept (`data/evaluation-v2.toml` and `data/evaluation-v2-<N>p.toml`), for `mcts-v2`. And
"learned": the current weights plus the correction of the learned value's network
(`value_net.py`), offered only for a player count with a network shipped
(`data/value-<N>p.json`) and used only when asked for (`mcts:evaluation=learned`): a shipped
network changes no default.

Why a second evaluation beside the heuristic: a search that judges positions exactly as its
greedy opponent does can only out-guess it by one turn. The fit weighs what the heuristic
counts, and what it leaves out (figures of the expansion still in hand, a monastery's empty
squares), by what they turned out to be worth at the end of real games.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

from boardwright.core.errors import InvalidOptionError
from boardwright.games.carcassonne.position_features import FEATURES, seat_features
from boardwright.games.carcassonne.value_net import (
    ValueNet,
    correction,
    held_segments,
    net_file,
    shipped_net,
)

if TYPE_CHECKING:
    from boardwright.games.carcassonne.state import CarcassonneState

WEIGHTS_FILE = "evaluation.toml"
# The shipped weights by name: each name's 2-player file; a name's fit for N players, where it
# has one, is the same name with "-<N>p" (`weights_file`).
WEIGHTS_FILES = {"current": WEIGHTS_FILE, "v1": "evaluation-v1.toml", "v2": "evaluation-v2.toml"}
KEPT_VERSIONS = ("v1", "v2")  # the earlier weights a game keeps beside the current ones
LEARNED = "learned"  # the current weights plus the shipped network of the player count


@dataclass(frozen=True)
class EvaluationWeights:
    """Per feature, the weight's coefficients (constant, times t, times t squared); the same
    for the bonus of the seat whose turn it is."""

    features: tuple[tuple[float, float, float], ...]
    to_move: tuple[float, float, float]

    def at(self, t: float) -> tuple[list[float], float]:
        """The feature weights and the turn bonus with a share `t` of the pile left."""
        tt = t * t
        weights = [a + b * t + c * tt for a, b, c in self.features]
        a, b, c = self.to_move
        return weights, a + b * t + c * tt


def parse_weights(data: dict) -> EvaluationWeights:
    """Weights from the TOML layout (`[weights]` feature = [a, b, c], plus `to_move`); a
    missing or malformed entry is a named error, not a silent zero."""
    table = data.get("weights")
    if not isinstance(table, dict):
        raise InvalidOptionError("evaluation weights: no [weights] table")
    unknown = set(table) - set(FEATURES) - {"to_move"}
    if unknown:
        raise InvalidOptionError(f"evaluation weights: unknown features {sorted(unknown)}")

    def triple(name: str) -> tuple[float, float, float]:
        value = table.get(name)
        if (not isinstance(value, list) or len(value) != 3
                or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in value)):
            raise InvalidOptionError(f"evaluation weights: {name} must be three numbers")
        return float(value[0]), float(value[1]), float(value[2])

    return EvaluationWeights(tuple(triple(name) for name in FEATURES), triple("to_move"))


def _data_folder() -> Traversable:
    """The game's data folder (importlib.resources, so installed copies work)."""
    return resources.files("boardwright.games.carcassonne").joinpath("data")


def read_weights(file: Traversable) -> EvaluationWeights:
    """The weights of one TOML file."""
    return parse_weights(tomllib.loads(file.read_text()))


@cache
def shipped_weights(name: str, players: int = 2) -> EvaluationWeights:
    """A shipped set of weights by name (`WEIGHTS_FILES`) for `players` players (`weights_file`:
    the name's fit for that many where it has one, else its 2-player weights), read once per
    process."""
    if name not in WEIGHTS_FILES:
        raise InvalidOptionError(f"no evaluation weights named {name!r}; known: "
                                 f"{', '.join(sorted(WEIGHTS_FILES))}")
    return read_weights(weights_file(players, _data_folder(), WEIGHTS_FILES[name]))


def players_file(players: int, base: str = WEIGHTS_FILE) -> str:
    """The weights file fitted for `players` players: data/evaluation-<N>p.toml, or of the
    weights named by another 2-player file `base` (evaluation-v2.toml: evaluation-v2-<N>p.toml)."""
    stem = base.removesuffix(".toml")
    return f"{stem}-{players}p.toml"


def weights_file(players: int, folder: Traversable, base: str = WEIGHTS_FILE) -> Traversable:
    """The file of `folder` the evaluation reads with `players` players: the one fitted for that
    many (evaluation-<N>p.toml) where it exists, else the 2-player weights (evaluation.toml);
    the same for the weights of another 2-player file `base`."""
    own = folder.joinpath(players_file(players, base))
    return own if players != 2 and own.is_file() else folder.joinpath(base)


@cache
def default_weights(players: int = 2) -> EvaluationWeights:
    """The weights the game's evaluation uses with `players` players (`weights_file` of the data
    folder). What a figure in hand or an open city is worth depends on how many turns each
    seat has left and how many others compete for the board, so a fit on 2-player games
    misjudges a 4-player game (it predicted the final margins of greedy 4-player games worse
    than the plain heuristic did)."""
    return read_weights(weights_file(players, _data_folder()))


def pile_share(state: CarcassonneState) -> float:
    """t: the share of the game's tiles still in the draw pile (1 at the start, 0 at the end)."""
    return len(state.pile) / max(1, state.game.pile_size)


def offered_versions(players: int) -> tuple[str, ...]:
    """The evaluations a game of `players` players offers (`Game.evaluation_versions`): the
    current one, the kept ones, and "learned" where a network is shipped for that count."""
    learned = (LEARNED,) if shipped_net(players) is not None else ()
    return ("current", *KEPT_VERSIONS, *learned)


def learned_net(players: int) -> ValueNet:
    """The network "learned" adds for `players` players; a named error where none is shipped."""
    net = shipped_net(players)
    if net is None:
        raise InvalidOptionError(f"no evaluation named {LEARNED!r} with {players} players: no "
                                 f"value network is shipped for {players} players "
                                 f"(data/{net_file(players)})")
    return net


def version_weights(version: str, players: int) -> tuple[EvaluationWeights, ValueNet | None]:
    """The weights and the network (None: the weights alone) of an evaluation version for
    `players` players; a named error for a version the game does not offer."""
    if version == "current":
        return default_weights(players), None
    if version == LEARNED:
        return default_weights(players), learned_net(players)
    return shipped_weights(version, players), None


def evaluate(state: CarcassonneState, weights: EvaluationWeights | None = None,
             net: ValueNet | None = None) -> list[float]:
    """Each seat's expected final score, up to a constant shared by all seats: the linear
    evaluation by `weights` (the current ones when none are given), plus the correction of a
    learned value's network where `net` is given (`value_net.py`; the "learned" version).
    The current evaluation is the linear one alone, whether or not a network is shipped."""
    if weights is None:
        weights = default_weights(state.game.num_players)
    t = pile_share(state)
    feature_weights, tempo = weights.at(t)
    vectors = seat_features(state)
    values = [sum(w * x for w, x in zip(feature_weights, vector)) for vector in vectors]
    if not state.is_terminal:
        values[state.turn_player] += tempo
        if net is not None:
            mover = state.turn_player
            held = held_segments(state, mover) if net.holders else ()
            for seat, extra in enumerate(correction(net, vectors, mover, t, held)):
                values[seat] += extra
    return values
