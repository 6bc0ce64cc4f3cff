"""The Queens state: where the pieces, buildings and supplies are, and the State protocol
over them (current player, scores, copies, views). The rules live beside it: `legal` lists
the legal actions, `play` checks and carries out an action, `effects` changes the pieces and
`turn` runs the end of a turn and of the game.

Each space is a bit position (see `board.py`). Per-space lists say what stands where
(`occupant`, `princes_at`, `city`, `field`) and per-seat bit masks say the same as sets
(`mobile_bits`, `prince_bits`, `stack_bits`, `city_bits`, `field_bits`); both are updated
together on every change, so move generation works on whole sets and never scans the board.

A turn is one action (QUE-TURN-01), then the end-of-turn sequence of QUE-TURN-03: a captured
Queen is handled at once, then stack upkeep, the Field-race trigger, the end of the round and
the next player. There is no chance and no hidden information: the seed is only recorded.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from boardwright.core.errors import IllegalActionError
from boardwright.core.game import State
from boardwright.core.inputs import short_repr
from boardwright.core.record import GameRecord, record_of
from boardwright.games.queens.board import Coord
from boardwright.games.queens.effects import add_prince
from boardwright.games.queens.legal import legal_actions
from boardwright.games.queens.play import apply
from boardwright.games.queens.position import (
    Position, SeatPosition,
)
from boardwright.games.queens.seats import COLOURS, NOBODY, SEATS, colour, xy
from boardwright.games.queens.texts import standing_rule, standing_view, with_texts
from boardwright.games.queens.turn import ELIMINATED_SCORE, standing

if TYPE_CHECKING:
    from boardwright.games.queens.game import QueensGame

# The seat table, the score and the helpers that name seats and spaces are imported from here
# by the game, the renderers and the tests.
__all__ = ["COLOURS", "ELIMINATED_SCORE", "NOBODY", "SEATS", "QueensState", "colour",
           "standing", "xy"]


class QueensState(State):
    """One position of a Queens game."""

    __slots__ = ("game", "seed", "queen", "occupant", "princes_at", "city", "field",
                 "mobile_bits", "prince_bits", "stack_bits", "city_bits", "field_bits",
                 "prince_count", "field_count", "city_supply", "field_supply", "alive",
                 "to_play", "round", "final_round", "over", "winners", "turn", "history",
                 "log", "meta")

    def __init__(self, game: QueensGame, seed: int, position: Position) -> None:
        self.game = game
        self.seed = seed
        board = game.board
        n = game.num_players
        size = board.size
        self.queen = [NOBODY] * n  # bit position of each Queen, -1 once captured
        self.occupant = [NOBODY] * size  # seat of the mobile piece(s) on each space
        self.princes_at = [0] * size  # Princes on each space (2 = a stack)
        self.city = [NOBODY] * size  # owner of the City on each space
        self.field = [NOBODY] * size  # owner (colour) of the Field on each space
        self.mobile_bits = [0] * n
        self.prince_bits = [0] * n
        self.stack_bits = [0] * n
        self.city_bits = [0] * n
        self.field_bits = [0] * n
        self.prince_count = [0] * n
        self.field_count = [0] * n  # Fields of each colour on the board
        self.city_supply = [0] * n
        self.field_supply = [0] * n
        self.alive = [True] * n
        for seat, entry in enumerate(position.seats):
            self._place_seat(seat, entry)
        self.to_play = position.to_play
        self.round = position.round
        self.final_round = position.final_round
        self.over = False
        self.winners: list[int] = []
        self.turn = 0  # turns played in this game (from the starting position)
        self.history: list[Any] = []
        self.log: list[dict[str, Any]] = []
        self.meta: dict[str, Any] = {}

    def _place_seat(self, seat: int, entry: SeatPosition) -> None:
        pos = self.game.board.pos
        if entry.queen is not None:
            q = pos(entry.queen)
            self.queen[seat] = q
            self.occupant[q] = seat
            self.mobile_bits[seat] |= 1 << q
        for coord in entry.princes:
            add_prince(self, seat, pos(coord))
        for coord in entry.cities:
            c = pos(coord)
            self.city[c] = seat
            self.city_bits[seat] |= 1 << c
        for coord in entry.fields:
            f = pos(coord)
            self.field[f] = seat
            self.field_bits[seat] |= 1 << f
            self.field_count[seat] += 1
        self.city_supply[seat] = entry.city_supply
        self.field_supply[seat] = entry.field_supply
        self.alive[seat] = not entry.eliminated

    # -- the State protocol --------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return NOBODY if self.over else self.to_play

    @property
    def is_terminal(self) -> bool:
        return self.over

    @property
    def scores(self) -> list[int]:
        """Per seat: `standing(fields, cities, princes)`, or -1 once out of the game. The
        order of these numbers is the order of the result, so the top scores are the winners."""
        return [standing(self.field_count[s], self.city_bits[s].bit_count(), self.prince_count[s])
                if self.alive[s] else ELIMINATED_SCORE for s in range(self.game.num_players)]

    @property
    def record(self) -> GameRecord:
        return record_of(self.game, self.seed, self.history, self.meta)

    def clone(self) -> QueensState:
        other = QueensState.__new__(QueensState)
        other.game = self.game
        other.seed = self.seed
        other.queen = self.queen.copy()
        other.occupant = self.occupant.copy()
        other.princes_at = self.princes_at.copy()
        other.city = self.city.copy()
        other.field = self.field.copy()
        other.mobile_bits = self.mobile_bits.copy()
        other.prince_bits = self.prince_bits.copy()
        other.stack_bits = self.stack_bits.copy()
        other.city_bits = self.city_bits.copy()
        other.field_bits = self.field_bits.copy()
        other.prince_count = self.prince_count.copy()
        other.field_count = self.field_count.copy()
        other.city_supply = self.city_supply.copy()
        other.field_supply = self.field_supply.copy()
        other.alive = self.alive.copy()
        other.to_play = self.to_play
        other.round = self.round
        other.final_round = self.final_round
        other.over = self.over
        other.winners = self.winners.copy()
        other.turn = self.turn
        other.history = self.history.copy()
        other.log = self.log.copy()
        other.meta = dict(self.meta)
        return other

    def determinize(self, player: int, rng: random.Random) -> QueensState:
        """Nothing is hidden in Queens (no dice, open supplies): a plain copy."""
        return self.clone()

    # -- the rules (legal, play) -----------------------------------------------------------------

    def legal_actions(self) -> list[Any]:
        """Queen moves, then each Prince's moves and attacks (Princes by space), then JOINTs,
        FOUND and SOWs; PASS only when there is nothing else (QUE-TURN-02)."""
        return legal_actions(self)

    def apply(self, action: Any) -> None:
        """Check and carry out one action of the player to move, then end the turn (`play`)."""
        apply(self, action)

    # -- presentation ----------------------------------------------------------------------------

    def seat_position(self, seat: int) -> SeatPosition:
        """One seat's pieces as position data (the `position` option's format)."""
        coord = self.game.board.coord
        princes: list[Coord] = []
        bits = self.prince_bits[seat]
        while bits:
            low = bits & -bits
            bits ^= low
            pos = low.bit_length() - 1
            princes.extend([coord(pos)] * self.princes_at[pos])
        queen = self.queen[seat]
        return SeatPosition(
            queen=None if queen < 0 else coord(queen), princes=tuple(princes),
            cities=tuple(self.game.board.coords_of(self.city_bits[seat])),
            fields=tuple(self.game.board.coords_of(self.field_bits[seat])),
            city_supply=self.city_supply[seat], field_supply=self.field_supply[seat],
            eliminated=not self.alive[seat])

    def position(self) -> Position:
        """The whole position as data: can be given back as the `position` option."""
        return Position(tuple(self.seat_position(s) for s in range(self.game.num_players)),
                        self.to_play, self.round, self.final_round)

    def view(self, player: int | None) -> dict[str, Any]:
        """Everything is public in Queens; the view is the same for every seat, plus the legal
        actions for the seat that must decide."""
        n = self.game.num_players
        if player is not None and not (type(player) is int and 0 <= player < n):
            raise IllegalActionError(f"no seat {short_repr(player)} in this game")
        scores = self.scores
        cities = [bits.bit_count() for bits in self.city_bits]
        view: dict[str, Any] = {
            "game": self.game.name,
            "players": n,
            "viewer": player,
            "colours": [colour(s) for s in range(n)],
            "map": self.game.config.map.to_json(),
            "position": self.position().to_json(),
            "round": self.round,
            "turn": self.turn,
            "to_play": self.to_play,
            "current_player": self.current_player,
            "final_round": self.final_round,
            "fields_on_board": list(self.field_count),
            "cities_on_board": cities,
            "princes_on_board": list(self.prince_count),
            "scores": scores,
            # the standing in the game's words (texts.py), as the lobby's score_words
            "standing": [standing_view(score, self.field_count[s], self.field_supply[s],
                                       cities[s], self.city_supply[s], self.prince_count[s])
                         for s, score in enumerate(scores)],
            # what separates the leaders, in the rules' order (texts.standing_rule)
            "standing_rule": standing_rule(scores, colour),
            "log": with_texts(self.log, colour, self.game.board.radius),  # texts.event_text
            "is_terminal": self.over,
            "winners": list(self.winners),
        }
        if player is not None and player == self.current_player:
            view["legal_actions"] = [a.to_json() for a in self.legal_actions()]
        return view

    def signature(self) -> tuple:
        """A complete, canonical description of the position (for equality in tests)."""
        return (
            tuple(self.queen), tuple(self.occupant), tuple(self.princes_at), tuple(self.city),
            tuple(self.field), tuple(self.mobile_bits), tuple(self.prince_bits),
            tuple(self.stack_bits), tuple(self.city_bits), tuple(self.field_bits),
            tuple(self.prince_count), tuple(self.field_count), tuple(self.city_supply),
            tuple(self.field_supply), tuple(self.alive), self.to_play, self.round,
            self.final_round, self.over, tuple(self.winners), self.turn, tuple(self.history),
            len(self.log),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, QueensState):
            return NotImplemented
        return (self.game.options == other.game.options
                and self.game.num_players == other.game.num_players
                and self.signature() == other.signature())

    __hash__ = None  # type: ignore[assignment]
