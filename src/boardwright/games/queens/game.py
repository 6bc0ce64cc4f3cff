"""The configured Queens game: map, starting position, action objects and action ids.

Action objects are built once per map and shared (`moves[src][dst]`, `sows[x]`, JOINTs on
demand), so generating legal actions allocates nothing but the list.

Action ids (fixed for a map; n = number of spaces, K = most spaces 1..4 steps from a space):

    MOVE(a→b)       index(a) * n + index(b)                               [0, n²)
    JOINT(a,b→t)    n² + index(t) * K(K-1)/2 + pair(a, b among near(t))    both 1..4 from t
    SOW(x)          after the JOINTs: + index(x)
    FOUND, PASS     the last two ids
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from boardwright.core.analysis_unit import AnalysisUnit
from boardwright.core.chance import ExplicitChanceState
from boardwright.core.errors import MalformedActionError
from boardwright.core.game import Game
from boardwright.core.info import GameInfo, PlayerRange
from boardwright.core.options import OptionSpec
from boardwright.core.inputs import (
    check_action_id, check_action_json, check_seed, copy_options, short_repr,
)
from boardwright.games.queens.actions import (
    FOUND_ACTION, PASS_ACTION, Found, Joint, Move, Pass, QueensAction, Sow, coords_of, is_coord,
    parse_action,
)
from boardwright.games.queens.board import Board
from boardwright.games.queens.heuristic import FIELD, evaluate
from boardwright.games.queens.maps import PLAYER_COUNTS, MapSpec
from boardwright.games.queens.options import option_specs, parse_options
from boardwright.games.queens.position import FIELDS_PER_PLAYER, MAX_ROUNDS
from boardwright.games.queens.state import SEATS, QueensState
from boardwright.games.queens.table import table_view
from boardwright.games.queens.texts import describe, label, setup_words, standing_words


@dataclass(frozen=True)
class ActionTables:
    """The board of a map and every MOVE and SOW action on it, built once per map."""

    board: Board
    moves: list[list[Move | None]]  # [src][dst] by bit position, for dst 1..4 steps away
    sows: list[Sow | None]
    most_near: int  # K: the most spaces 1..4 steps from one space
    pair_count: int  # K(K-1)/2: JOINT ids per target
    pairs: list[tuple[int, int]]  # pair index -> (i, j), i < j, local indexes in near(t)
    near_index: list[dict[int, int]]  # [t][pos] -> local index of pos in near(t)


@lru_cache(maxsize=16)
def action_tables(spec: MapSpec) -> ActionTables:
    board = Board(spec.radius, spec.mountains)
    moves: list[list[Move | None]] = [[] for _ in range(board.size)]
    sows: list[Sow | None] = [None] * board.size
    for src in board.spaces:
        row: list[Move | None] = [None] * board.size
        for dst in board.near[src]:
            row[dst] = Move(board.coord(src), board.coord(dst))
        moves[src] = row
        sows[src] = Sow(board.coord(src))
    most = max(len(board.near[t]) for t in board.spaces)
    pairs = [(i, j) for i in range(most) for j in range(i + 1, most)]
    near_index: list[dict[int, int]] = [{} for _ in range(board.size)]
    for t in board.spaces:
        near_index[t] = {pos: i for i, pos in enumerate(board.near[t])}
    return ActionTables(board, moves, sows, most, len(pairs), pairs, near_index)


class QueensGame(Game):
    """Queens & Princes: Queens, Princes, Cities and Fields on a hex board, for 2 to 4 players."""

    name = "queens"
    version = "1"
    # The counts of the standard map (an inline map may set up fewer); nothing is hidden and
    # nothing left to chance.
    info = GameInfo(title="Queens & Princes",
                    players=(PlayerRange(min(PLAYER_COUNTS), max(PLAYER_COUNTS)),),
                    information="perfect", chance="deterministic", seats=SEATS)

    # An analysis measures leads in Fields (the heuristic counts a Field as FIELD points), a won
    # or lost game counting as a whole supply of Fields ahead or behind: the heuristic's
    # +-1000 for a finished game would make one captured Queen outweigh every other move.
    # Flags in Fields: a Field's worth (about a Prince) is an inaccuracy, two a mistake, four or
    # a hung Queen a blunder (a random player against greedy: about 1 Field lost a move, one
    # move in four flagged; greedy itself 0.1 a move, none).
    analysis_unit = AnalysisUnit("Fields", scale=FIELD, cap=float(FIELDS_PER_PLAYER),
                                 flags=(("blunder", 4.0), ("mistake", 2.0), ("inaccuracy", 1.0)))

    @classmethod
    def option_specs(cls, players: int) -> list[OptionSpec]:
        return option_specs(players)

    @classmethod
    def setup_words(cls, options: Any, players: int) -> list[str]:
        return setup_words(options)

    @classmethod
    def score_words(cls, scores: Any) -> list[str]:
        """The standing in the rules' terms ("2 Fields, 1 City, 4 Princes"), not its number."""
        return [standing_words(score) for score in scores]

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        options = copy_options(options)  # the game's own: later edits by the caller change nothing
        self.config = parse_options(options, players)
        super().__init__(players, self.config.to_json())
        tables = action_tables(self.config.map)
        self.tables = tables
        self.board = tables.board
        self.moves = tables.moves
        self.sows = tables.sows
        self.found = FOUND_ACTION
        self._joints: dict[int, Joint] = {}
        n = len(self.board.spaces)
        self._spaces = n
        self._joint_base = n * n
        self._sow_base = self._joint_base + n * tables.pair_count
        self._found_id = self._sow_base + n
        self._pass_id = self._found_id + 1

    def new_game(self, seed: int | None = None) -> QueensState:
        """The starting position (the set-up, or the `position` option). Queens has no chance:
        the seed is only kept in the record."""
        seed = check_seed(seed)
        return QueensState(self, seed, self.config.position)

    def joint_action(self, a: int, b: int, t: int) -> Joint:
        """The (shared) JOINT action from bit positions a and b onto t."""
        key = (a * self.board.size + b) * self.board.size + t
        action = self._joints.get(key)
        if action is None:
            coord = self.board.coord
            action = self._joints[key] = Joint(coord(a), coord(b), coord(t))
        return action

    # -- actions ------------------------------------------------------------------------------

    def check_coords(self, action: QueensAction) -> None:
        """Every space an action names must be on this board."""
        for coord in coords_of(action):
            if not is_coord(coord) or not self.board.contains(coord):
                raise MalformedActionError(
                    f"{short_repr(coord)} is not a space of the board (axial [q, r] with "
                    f"max(|q|, |r|, |q+r|) <= {self.board.radius})")

    def new_chance_game(self) -> ExplicitChanceState:
        """Queens has no chance: the explicit-chance game is the game itself (no chance
        node), from the options' position."""
        return ExplicitChanceState(self, lambda script: self.new_game(0))

    def max_decisions(self) -> int:
        """One decision a turn (QUE-TURN-01), one turn per seat a round, and the game ends
        after round MAX_ROUNDS at the latest (QUE-END-03)."""
        return (MAX_ROUNDS - self.config.position.round + 1) * self.num_players

    def action_from_json(self, data: Any) -> QueensAction:
        action = parse_action(check_action_json(data))
        self.check_coords(action)
        return action

    @property
    def num_distinct_actions(self) -> int:
        return self._pass_id + 1

    def _index(self, coord: Any) -> int:
        if not is_coord(coord) or not self.board.contains(coord):
            raise MalformedActionError(f"no id for a space {short_repr(coord)} off the board")
        return self.board.index[self.board.pos(coord)]

    def action_id(self, action: Any) -> int:
        cls = type(action)
        if cls is Move:
            return self._index(action.src) * self._spaces + self._index(action.dst)
        if cls is Joint:
            t_index = self._index(action.target)
            t = self.board.pos(action.target)
            local = self.tables.near_index[t]
            self._index(action.first)
            self._index(action.second)
            a, b = local.get(self.board.pos(action.first)), local.get(self.board.pos(action.second))
            if a is None or b is None or a == b:
                raise MalformedActionError(
                    f"no id for {short_repr(action)}: a JOINT needs two different starting "
                    "spaces 1 to 4 steps from its target")
            i, j = min(a, b), max(a, b)
            most = self.tables.most_near
            pair = i * (2 * most - i - 1) // 2 + (j - i - 1)
            return self._joint_base + t_index * self.tables.pair_count + pair
        if cls is Sow:
            return self._sow_base + self._index(action.at)
        if cls is Found:
            return self._found_id
        if cls is Pass:
            return self._pass_id
        raise MalformedActionError(f"not a Queens action: {short_repr(action)}")

    def action_from_id(self, action_id: int) -> QueensAction:
        check_action_id(action_id, self.num_distinct_actions)
        spaces = self.board.spaces
        coord = self.board.coord
        if action_id == self._pass_id:
            return PASS_ACTION
        if action_id == self._found_id:
            return FOUND_ACTION
        if action_id >= self._sow_base:
            return Sow(coord(spaces[action_id - self._sow_base]))
        if action_id >= self._joint_base:
            t_index, pair = divmod(action_id - self._joint_base, self.tables.pair_count)
            t = spaces[t_index]
            i, j = self.tables.pairs[pair]
            near = self.board.near[t]
            if j >= len(near):
                raise MalformedActionError(f"action id {action_id} is not used on this map "
                                           f"(no such JOINT onto {coord(t)})")
            return Joint(coord(near[i]), coord(near[j]), coord(t))
        src, dst = divmod(action_id, self._spaces)
        return Move(coord(spaces[src]), coord(spaces[dst]))

    def undoable(self, before: Any, action: Any, after: Any) -> bool:
        """Always: Queens has no chance and no hidden information, so no step draws or
        reveals anything."""
        return True

    def heuristic(self, state: Any) -> list[float]:
        return evaluate(state)

    @property
    def search_defaults(self) -> dict[str, Any]:
        """A paired root over the eight best moves by the heuristic, each played out greedily
        to the searcher's second turn from now (my move, the reply, my next move, its reply).
        Queens is a tactical race: what decides it is whether a move leaves a Field or a
        Prince to be taken, or sets up a capture next turn, which a tree over ~100 replies
        sampled at random does not see (48% against greedy at 800 iterations, 24 games) and
        a greedy reply does. Equal priors are different moves here (a symmetric position),
        so candidates are not thinned by prior. Judged at the next turn instead of the second,
        the same search won 56% of 64 games; at the second, 89.6% of 24."""
        return {"paired": 8, "greedy_playouts": True, "horizon": 2, "distinct_priors": False}

    def table_data(self, state: Any) -> dict[str, Any]:
        """The numbers a player needs, done by the game (`table.table_view`): each piece's
        strength and movement, the mover's strength against each enemy space, and the stacks
        that must split this turn. All public, as everything in Queens."""
        return table_view(state)

    def describe(self, state: Any, action: Any, viewer: Any = None) -> str:
        """The move as the log reads it after the seat's name, spaces by their board names and
        attacks with their strengths (`texts.describe`)."""
        return describe(self, state, action, viewer)

    def action_text(self, action: Any) -> str:
        """Every action is public in this game: one text for every viewer."""
        cls = type(action)
        if cls is Move:
            return f"move {self._label(action.src)} → {self._label(action.dst)}"
        if cls is Joint:
            return (f"joint attack {self._label(action.first)} + {self._label(action.second)} "
                    f"→ {self._label(action.target)}")
        if cls is Sow:
            return f"sow a Field on {self._label(action.at)}"
        if cls is Found:
            return "found a City"
        if cls is Pass:
            return "pass"
        return str(action)


    def _label(self, coord: Any) -> str:
        """A space by its board name (`texts.label`, as drawn on the board); anything that
        is not a space of this board as it was given."""
        if is_coord(coord) and self.board.contains(coord):
            return label(coord, self.board.radius)
        return repr(coord)
