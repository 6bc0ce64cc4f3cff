"""Queens & Princes' linear policy: a softmax over features of the legal actions.

The policy of examples/learn_queens.py (which explains the choice): each legal action id is
described by a few features read off the observation's planes at the spaces it names (what
stands on the target, what a Prince leaves behind, how distances to both Queens change, whether
an enemy Prince could take the target next turn, ...), scored as `theta . phi(obs, a)`; the
baseline of the training is a linear value `value . x(s)` of a few counts. Two players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boardwright.core.errors import MalformedActionError
from boardwright.games.queens.actions import Found, Joint, Move, Pass, Sow
from boardwright.games.queens.battle import CITY_VALUE, QUEEN_VALUE
from boardwright.rl.policies.linear import linear_weights, read_linear

ARCHITECTURE = "queens-linear"
GAME = "queens"

# Board planes of the Queens observation (relative seats: 0 = the learner, 1 = the opponent).
ON_MAP, MOUNTAIN = 0, 1
MY_QUEEN, MY_PRINCE, MY_CITY, MY_FIELD = 2, 3, 4, 5
EN_QUEEN, EN_PRINCE, EN_CITY, EN_FIELD = 6, 7, 8, 9

# Defence of a Queen, and of a City, on a plain and on a mountain (QUE-VAL-06/07).
QUEEN_VALUE_ARRAY, CITY_VALUE_ARRAY = np.array(QUEEN_VALUE), np.array(CITY_VALUE)

# Action kinds in the action table.
INVALID, MOVE, JOINT, SOW, FOUND, PASS = range(6)

# -- features -------------------------------------------------------------------------------------

ACTION_FEATURES = (
    # what kind of action
    "queen_move", "prince_move", "joint", "sow", "found", "pass",
    # the target space of a MOVE or JOINT
    "takes_enemy_field", "onto_own_field", "attacks_prince", "attacks_city", "takes_queen",
    "into_own_city", "onto_mountain",
    # what a Prince leaves behind
    "leaves_own_field", "leaves_own_city", "leaves_mountain",
    # distances (a Prince's value and speed depend on its distance to its own Queen)
    "prince_value_at_target", "prince_nearer_own_queen", "nearer_enemy_queen",
    "target_threatened", "source_threatened",
    # the Queen: where a City could be founded next
    "queen_to_free_plain", "queen_away_from_cities", "queen_target_threatened",
    # phase of the game, crossed with the race actions
    "sow_x_own_supply", "sow_x_round", "found_x_city_supply", "found_on_mountain",
    "sow_x_free_neighbours",
)
COLUMN = {name: k for k, name in enumerate(ACTION_FEATURES)}
STATE_FEATURES = (
    "bias", "own_fields", "enemy_fields", "field_lead", "own_princes", "enemy_princes",
    "own_cities", "enemy_cities", "round",
)


@dataclass(frozen=True)
class ActionTable:
    """Every action id decoded once: its kind and the grid cells it names (-1 for none)."""

    kind: np.ndarray  # int8, one of INVALID, MOVE, JOINT, SOW, FOUND, PASS
    src: np.ndarray  # int16 cell of a MOVE's start, a JOINT's first start, a SOW's space
    dst: np.ndarray  # int16 cell of a MOVE's or JOINT's target


class Featurizer:
    """Features of a Queens observation and of its legal actions, from the encoder's planes."""

    def __init__(self, game: Any, encoder: Any = None) -> None:
        from boardwright.rl.observations import encoder_for

        encoder = encoder if encoder is not None else encoder_for(game)
        if game.num_players != 2:
            raise ValueError("the features read the 2-player game")
        self.encoder = encoder
        self.radius, self.width = encoder.radius, encoder.width
        _, stop, shape = encoder.slices()["board"]
        self.board_stop, self.planes = stop, shape[0]
        self.cells = self.width * self.width
        qs, rs = np.divmod(np.arange(self.cells), self.width)
        dq, dr = qs[:, None] - qs[None, :], rs[:, None] - rs[None, :]
        self.distance = np.maximum(np.maximum(abs(dq), abs(dr)), abs(dq + dr)).astype(np.int16)
        self.neighbours = self.distance == 1
        self.supplies = encoder.slices()["supplies"][0]
        self.round_at = encoder.slices()["round"][0]
        self.table = self._action_table(game)

    def cell(self, coord: Sequence[int]) -> int:
        return (coord[0] + self.radius) * self.width + coord[1] + self.radius

    def _action_table(self, game: Any) -> ActionTable:
        n = game.num_distinct_actions
        kind = np.zeros(n, np.int8)
        src, dst = np.full(n, -1, np.int16), np.full(n, -1, np.int16)
        for i in range(n):
            try:
                action = game.action_from_id(i)
            except MalformedActionError:  # an id not used on this map (JOINT pairs past a corner)
                continue
            if isinstance(action, Move):
                kind[i], src[i], dst[i] = MOVE, self.cell(action.src), self.cell(action.dst)
            elif isinstance(action, Joint):
                # the features read the first start only: both Princes leave, the pair arrives
                kind[i], src[i], dst[i] = JOINT, self.cell(action.first), self.cell(action.target)
            elif isinstance(action, Sow):
                kind[i], src[i] = SOW, self.cell(action.at)
            elif isinstance(action, Found):
                kind[i] = FOUND
            elif isinstance(action, Pass):
                kind[i] = PASS
        return ActionTable(kind, src, dst)

    def board(self, observation: np.ndarray) -> np.ndarray:
        return observation[: self.board_stop].reshape(self.planes, self.cells)

    def state_features(self, observation: np.ndarray) -> np.ndarray:
        """Counts for the baseline V(s): Fields, Princes and Cities of both sides, the round."""
        b = self.board(observation)
        mine, theirs = b[MY_FIELD].sum() / 10, b[EN_FIELD].sum() / 10
        return np.array([1.0, mine, theirs, mine - theirs, b[MY_PRINCE].sum() / 4,
                         b[EN_PRINCE].sum() / 4, b[MY_CITY].sum() / 3, b[EN_CITY].sum() / 3,
                         observation[self.round_at] * 2], dtype=np.float64)

    def _threat(self, b: np.ndarray, queen: int, enemy_queen: int) -> np.ndarray:
        """Per cell: could one enemy Prince reach it next turn and beat one of our Princes there?
        (Distance only, paths not searched; a Prince there is worth 5 - d to our Queen, doubled
        on a mountain, and the attacker 5 - d to its own.)"""
        d = self.distance
        enemies = np.flatnonzero(b[EN_PRINCE])
        if enemies.size == 0 or enemy_queen < 0:
            return np.zeros(self.cells)
        speed = np.maximum(1, 5 - d[enemies, enemy_queen])
        reach = (d[enemies] <= speed[:, None]).any(axis=0)
        attack = np.maximum(0, 5 - d[:, enemy_queen])
        defence = np.maximum(0, 5 - d[:, queen]) * (1 + b[MOUNTAIN])
        return (reach & (attack > defence)).astype(np.float64)

    def action_features(self, observation: np.ndarray, ids: Sequence[int]) -> np.ndarray:
        """One row of ACTION_FEATURES per legal action id."""
        ids = np.asarray(ids, dtype=np.int64)
        t = self.table
        kind, s, g = t.kind[ids], t.src[ids], t.dst[ids]
        b = self.board(observation)
        d = self.distance
        queen = int(np.argmax(b[MY_QUEEN])) if b[MY_QUEEN].any() else -1
        enemy_queen = int(np.argmax(b[EN_QUEEN])) if b[EN_QUEEN].any() else -1
        out = np.zeros((ids.size, len(ACTION_FEATURES)))
        col = COLUMN
        moving = (kind == MOVE) | (kind == JOINT)
        queen_move = (kind == MOVE) & (s == queen)
        prince = moving & ~queen_move
        out[:, col["queen_move"]] = queen_move
        out[:, col["prince_move"]] = (kind == MOVE) & ~queen_move
        out[:, col["joint"]] = kind == JOINT
        out[:, col["sow"]] = kind == SOW
        out[:, col["found"]] = kind == FOUND
        out[:, col["pass"]] = kind == PASS
        gm = np.where(moving, g, 0)  # a harmless cell for the other kinds, masked below
        sm = np.where(moving, s, 0)
        at = {name: b[plane, gm] * moving for name, plane in (
            ("takes_enemy_field", EN_FIELD), ("onto_own_field", MY_FIELD),
            ("attacks_prince", EN_PRINCE), ("attacks_city", EN_CITY), ("takes_queen", EN_QUEEN),
            ("into_own_city", MY_CITY), ("onto_mountain", MOUNTAIN))}
        for name, values in at.items():
            out[:, col[name]] = values
        for name, plane in (("leaves_own_field", MY_FIELD), ("leaves_own_city", MY_CITY),
                            ("leaves_mountain", MOUNTAIN)):
            out[:, col[name]] = b[plane, sm] * prince
        if queen >= 0:
            out[:, col["prince_value_at_target"]] = np.maximum(0, 5 - d[gm, queen]) / 4 * prince
            out[:, col["prince_nearer_own_queen"]] = (d[sm, queen] - d[gm, queen]) / 4 * prince
            threat = self._threat(b, queen, enemy_queen)
            out[:, col["target_threatened"]] = threat[gm] * prince
            out[:, col["source_threatened"]] = threat[sm] * prince
        if enemy_queen >= 0:
            nearer = d[sm, enemy_queen] - d[gm, enemy_queen]
            out[:, col["nearer_enemy_queen"]] = nearer / 8 * moving
            # could two enemy Princes reach our Queen there and together beat her defence?
            enemies = np.flatnonzero(b[EN_PRINCE])
            if enemies.size:
                speed = np.maximum(1, 5 - d[enemies, enemy_queen])
                reachers = (d[enemies][:, gm] <= speed[:, None]).sum(axis=0)
                mountain = b[MOUNTAIN, gm].astype(int)
                defence = np.where(b[MY_CITY, gm] > 0,
                                   CITY_VALUE_ARRAY[mountain] + QUEEN_VALUE[0],
                                   QUEEN_VALUE_ARRAY[mountain])
                strong = 2 * np.maximum(0, 5 - d[gm, enemy_queen]) > defence
                out[:, col["queen_target_threatened"]] = (reachers >= 2) * strong * queen_move
        buildings = b[MY_CITY] + b[EN_CITY] + b[MY_FIELD] + b[EN_FIELD]
        free_plain = (b[ON_MAP] > 0) & (b[MOUNTAIN] == 0) & (buildings == 0)
        out[:, col["queen_to_free_plain"]] = free_plain[gm] * queen_move
        cities = np.flatnonzero(b[MY_CITY])
        if cities.size:
            nearest = d[gm][:, cities].min(axis=1)
            out[:, col["queen_away_from_cities"]] = np.minimum(nearest, 4) / 4 * queen_move
        sow = kind == SOW
        own_fields = observation[self.supplies + 1]
        out[:, col["sow_x_own_supply"]] = own_fields * sow
        out[:, col["sow_x_round"]] = observation[self.round_at] * 2 * sow
        ss = np.where(sow, s, 0)
        free_around = (self.neighbours[ss] & free_plain).sum(axis=1)
        out[:, col["sow_x_free_neighbours"]] = free_around / 6 * sow
        found = kind == FOUND
        out[:, col["found_x_city_supply"]] = observation[self.supplies] * 5 / 2 * found
        if queen >= 0:
            out[:, col["found_on_mountain"]] = b[MOUNTAIN, queen] * found
        return out



@dataclass
class LinearPolicy:
    """Softmax over the legal actions of `theta . phi(obs, a)`, and a linear baseline `w . x(s)`."""

    theta: np.ndarray = field(default_factory=lambda: np.zeros(len(ACTION_FEATURES)))
    value: np.ndarray = field(default_factory=lambda: np.zeros(len(STATE_FEATURES)))

    def probabilities(self, phi: np.ndarray) -> np.ndarray:
        logits = phi @ self.theta
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    # -- the policy file (boardwright.rl.policies.files) -----------------------------------------

    @classmethod
    def from_weights(cls, weights: dict[str, np.ndarray]) -> LinearPolicy:
        names = tuple(str(n) for n in np.asarray(weights["action_features"]).reshape(-1))
        if names != ACTION_FEATURES:
            raise ValueError(f"weights for other features ({len(names)} named, this version "
                             f"reads {len(ACTION_FEATURES)})")
        theta, value = read_linear(weights, ACTION_FEATURES, STATE_FEATURES)
        return cls(theta=theta, value=value)

    def weights(self) -> dict[str, np.ndarray]:
        return linear_weights(self.theta, self.value, ACTION_FEATURES, STATE_FEATURES)

    def player(self, game: Any) -> Player:
        return Player(self, Featurizer(game))


Model = LinearPolicy


@dataclass
class Player:
    """The policy bound to a configured game: logits of a position's legal ids."""

    policy: LinearPolicy
    featurizer: Featurizer

    def logits(self, state: Any, seat: int, ids: np.ndarray) -> np.ndarray:
        encoder = self.featurizer.encoder
        observation = encoder.encode(state.view(seat), seat)
        return self.featurizer.action_features(observation, ids) @ self.policy.theta


def signature(game: Any) -> dict[str, Any]:
    """The features read any map: nothing beyond the game and its two players."""
    return {}
