"""The Queens state: pieces, buildings and supplies, legal actions, and the turn sequence.

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

from boardwright.core.errors import GameOverError, IllegalActionError, MalformedActionError
from boardwright.core.game import State
from boardwright.core.info import Seat
from boardwright.core.inputs import coerce_action, short_repr
from boardwright.core.record import GameRecord, record_of
from boardwright.games.queens.actions import (
    ACTION_CLASSES, PASS_ACTION, Found, Joint, Move, Pass, Sow, is_coord,
)
from boardwright.games.queens.battle import (
    PRINCE_BASE, attack_value, defence_value, movement_value,
)
from boardwright.games.queens.board import Coord
from boardwright.games.queens.movement import QUEEN_MOVE, reach
from boardwright.games.queens.position import (
    CITIES_PER_PLAYER, MAX_ROUNDS, Position, SeatPosition,
)
from boardwright.games.queens.texts import with_texts

if TYPE_CHECKING:
    from boardwright.games.queens.game import QueensGame

# The players' colours in seat order (QUE-COMP-01, QUE-SETUP-04), the one table of them
# (`QueensGame.info`).
SEATS = (Seat("Red", "#d8322a", "bold red"), Seat("Blue", "#2a64d8", "bold blue"),
         Seat("Green", "#2f9e44", "bold green"), Seat("Yellow", "#e5b914", "bold yellow"))
COLOURS = tuple(seat.name for seat in SEATS)
NOBODY = -1
ELIMINATED_SCORE = -1


def colour(seat: int) -> str:
    return COLOURS[seat] if 0 <= seat < len(COLOURS) else f"Seat {seat}"


def xy(coord: Coord) -> str:
    return f"({coord[0]},{coord[1]})"


def standing(fields: int, cities: int, princes: int) -> int:
    """The score: Fields, then Cities, then Princes as tie-breaks (QUE-END-04), in one number
    whose digits read 'Fields, Cities, Princes' (10 Fields, 3 Cities, 4 Princes -> 1034)."""
    return 100 * fields + 10 * cities + princes


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
            self._add_prince(seat, pos(coord))
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

    # -- legal actions -------------------------------------------------------------------------

    def _sides(self, seat: int) -> tuple[int, int, int]:
        """(own mobile pieces, enemy targets, passable spaces) for `seat` as bit masks.

        Targets are enemy mobile pieces and enemy Cities: ending there is an attack
        (QUE-ATK-02), passing through them is forbidden (QUE-MOVE-06)."""
        own = self.mobile_bits[seat]
        targets = 0
        for other, bits in enumerate(self.mobile_bits):
            if other != seat:
                targets |= bits | self.city_bits[other]
        return own, targets, self.game.board.plains & ~targets

    def legal_actions(self) -> list[Any]:
        """Queen moves, then each Prince's moves and attacks (Princes by space), then JOINTs,
        FOUND and SOWs; PASS only when there is nothing else (QUE-TURN-02)."""
        if self.over:
            return []
        game = self.game
        board = game.board
        p = self.to_play
        own, targets, passable = self._sides(p)
        moves = game.moves
        out: list[Any] = []
        append = out.append
        qpos = self.queen[p]
        dests = reach(board, qpos, QUEEN_MOVE, passable) & ~own & ~targets
        row = moves[qpos]
        while dests:
            low = dests & -dests
            append(row[low.bit_length() - 1])
            dests ^= low
        to_queen = board.distance[qpos]
        candidates: dict[int, list[int]] | None = None
        defence: dict[int, int] = {}
        princes = self.prince_bits[p]
        while princes:
            low = princes & -princes
            princes ^= low
            s = low.bit_length() - 1
            mv = PRINCE_BASE - to_queen[s]  # QUE-MOVE-04
            dests = reach(board, s, mv if mv > 1 else 1, passable) & ~own
            attacked = dests & targets
            if attacked:
                dests ^= attacked
                while attacked:
                    low = attacked & -attacked
                    attacked ^= low
                    t = low.bit_length() - 1
                    value = PRINCE_BASE - to_queen[t]  # QUE-VAL-01/02
                    if value <= 0:
                        continue
                    if t not in defence:
                        defence[t] = defence_value(self, t)
                    if value > defence[t]:
                        dests |= low
                    if candidates is None:
                        candidates = {}
                    candidates.setdefault(t, []).append(s)
            row = moves[s]
            while dests:
                low = dests & -dests
                append(row[low.bit_length() - 1])
                dests ^= low
        if candidates:
            for t, starts in candidates.items():
                if len(starts) > 1 and 2 * (PRINCE_BASE - to_queen[t]) > defence[t]:
                    for i, a in enumerate(starts):
                        for b in starts[i + 1:]:
                            append(game.joint_action(a, b, t))
        if self._can_found(p):
            append(game.found)
        if self.field_supply[p] > 0 and self.city_bits[p]:
            row = game.sows
            spots = self._sow_spots(p)
            while spots:
                low = spots & -spots
                append(row[low.bit_length() - 1])
                spots ^= low
        if not out:
            append(PASS_ACTION)
        return out

    def _can_found(self, seat: int) -> bool:
        """QUE-CITY-01/04: a City in supply, a building-free space under the Queen, and fewer
        than 3 Cities on the board."""
        q = self.queen[seat]
        return (self.city_supply[seat] > 0 and self.city[q] < 0 and self.field[q] < 0
                and self.city_bits[seat].bit_count() < CITIES_PER_PLAYER)

    def _sow_spots(self, seat: int) -> int:
        """QUE-FIELD-01/02: building-free plains next to one of the seat's Cities, without an
        enemy mobile piece (a friendly one does not matter)."""
        buildings = 0
        for c, f in zip(self.city_bits, self.field_bits):
            buildings |= c | f
        enemy_mobile = 0
        for other, bits in enumerate(self.mobile_bits):
            if other != seat:
                enemy_mobile |= bits
        board = self.game.board
        return board.expand(self.city_bits[seat]) & board.plains & ~buildings & ~enemy_mobile

    # -- applying an action ------------------------------------------------------------------

    def apply(self, action: Any) -> None:
        action = coerce_action(self.game, action, ACTION_CLASSES)
        if self.over:
            raise GameOverError("the game is over; no action can be applied")
        cls = type(action)
        p = self.to_play
        stacks_before = self.stack_bits[p]
        if cls is Move:
            captured = self._apply_move(p, action)
        elif cls is Sow:
            self._apply_sow(p, action)
            captured = NOBODY
        elif cls is Joint:
            captured = self._apply_joint(p, action)
        elif cls is Found:
            self._apply_found(p)
            captured = NOBODY
        elif cls is Pass:
            if self.legal_actions() != [PASS_ACTION]:
                raise IllegalActionError(f"{colour(p)} may pass only when no other action is "
                                         "legal (QUE-TURN-02)")
            captured = NOBODY
        else:
            raise MalformedActionError(f"not a Queens action: {short_repr(action)}")
        self.history.append(action)
        self._end_turn(p, stacks_before, captured)
        self.turn += 1

    def _space(self, coord: Any) -> int:
        """The bit position of a coordinate an action names; MalformedActionError if none."""
        if not is_coord(coord) or not self.game.board.contains(coord):
            raise MalformedActionError(
                f"{short_repr(coord)} is not a space of the board (axial (q, r) with "
                f"max(|q|, |r|, |q+r|) <= {self.game.board.radius})")
        return self.game.board.pos(coord)

    def _unreachable(self, what: str, src: Coord, dst: Coord, mv: int) -> IllegalActionError:
        steps = self.game.board.distance[self._space(src)][self._space(dst)]
        if steps > mv:
            why = f"it is {steps} steps away and its movement value is {mv}"
        else:
            why = (f"every path of at most {mv} steps is blocked (a mountain ends a move; enemy "
                   "pieces and enemy Cities cannot be passed)")
        return IllegalActionError(f"the {what} on {xy(src)} cannot reach {xy(dst)}: {why}")

    def _apply_move(self, p: int, action: Move) -> int:
        s, d = self._space(action.src), self._space(action.dst)
        if self.occupant[s] != p:
            raise IllegalActionError(f"{colour(p)} has no Queen or Prince on {xy(action.src)}")
        if s == d:
            raise IllegalActionError("a move must end on a different space (QUE-MOVE-01)")
        is_queen = self.queen[p] == s
        what = "Queen" if is_queen else "Prince"
        own, targets, passable = self._sides(p)
        board = self.game.board
        mv = QUEEN_MOVE if is_queen else movement_value(board.distance[s][self.queen[p]])
        if not reach(board, s, mv, passable) >> d & 1:
            raise self._unreachable(what, action.src, action.dst, mv)
        if own >> d & 1:
            raise IllegalActionError(f"{xy(action.dst)} already holds a piece of {colour(p)}; "
                                     "only a JOINT puts two Princes on one space (QUE-COMP-04/05)")
        captured = NOBODY
        if targets >> d & 1:
            if is_queen:
                raise IllegalActionError(f"a Queen never attacks, so she cannot end on "
                                         f"{xy(action.dst)}, which holds an enemy (QUE-MOVE-08)")
            value, defence = attack_value(self, p, d), defence_value(self, d)
            if value <= defence:
                raise IllegalActionError(
                    f"the attack on {xy(action.dst)} is not allowed: the Prince is worth {value} "
                    f"there and the defence is {defence} (the attack must be higher, QUE-ATK-03/04)")
            captured = self._strike(p, d)
        if is_queen:
            self.occupant[s] = NOBODY
            self.mobile_bits[p] ^= (1 << s) | (1 << d)
            self.queen[p] = d
            self.occupant[d] = p
        else:
            self._remove_prince(p, s)
            self._add_prince(p, d)
        self._capture_field(p, d)
        return captured

    def _apply_joint(self, p: int, action: Joint) -> int:
        a, b, t = (self._space(action.first), self._space(action.second),
                   self._space(action.target))
        if a == b:
            raise IllegalActionError("the two Princes of a JOINT must start on different spaces "
                                     "(QUE-DUO-02/03)")
        queen = self.queen[p]
        for pos, coord in ((a, action.first), (b, action.second)):
            if self.occupant[pos] != p or self.princes_at[pos] == 0:
                raise IllegalActionError(f"{colour(p)} has no Prince on {xy(coord)}")
        _, targets, passable = self._sides(p)
        if not targets >> t & 1:
            raise IllegalActionError(f"a JOINT must be an attack, and {xy(action.target)} holds "
                                     "no enemy piece or City (QUE-DUO-02)")
        board = self.game.board
        for pos, coord in ((a, action.first), (b, action.second)):
            mv = movement_value(board.distance[pos][queen])
            if not reach(board, pos, mv, passable) >> t & 1:
                raise self._unreachable("Prince", coord, action.target, mv)
        value, defence = 2 * attack_value(self, p, t), defence_value(self, t)
        if value <= defence:
            raise IllegalActionError(
                f"the joint attack on {xy(action.target)} is not allowed: the two Princes are "
                f"worth {value} there and the defence is {defence} (QUE-DUO-02)")
        captured = self._strike(p, t)
        self._remove_prince(p, a)
        self._remove_prince(p, b)
        self._add_prince(p, t)
        self._add_prince(p, t)
        self._capture_field(p, t)
        return captured

    def _apply_found(self, p: int) -> None:
        if not self._can_found(p):
            q = self.queen[p]
            if self.city_supply[p] <= 0:
                why = "has no City left in supply"
            elif self.city[q] >= 0 or self.field[q] >= 0:
                why = f"has her Queen on {xy(self.game.board.coord(q))}, which already holds a building"
            else:
                why = f"already has {CITIES_PER_PLAYER} Cities on the board (QUE-CITY-04)"
            raise IllegalActionError(f"{colour(p)} cannot found a City: {colour(p)} {why}")
        q = self.queen[p]
        self.city[q] = p
        self.city_bits[p] |= 1 << q
        self.city_supply[p] -= 1

    def _apply_sow(self, p: int, action: Sow) -> None:
        x = self._space(action.at)
        if self.field_supply[p] <= 0:
            raise IllegalActionError(f"{colour(p)} has no Field left in supply")
        if not self._sow_spots(p) >> x & 1:
            raise IllegalActionError(
                f"{colour(p)} cannot sow on {xy(action.at)}: a Field needs a building-free plain "
                f"next to one of {colour(p)}'s Cities, without an enemy piece (QUE-FIELD-01/02)")
        self.field[x] = p
        self.field_bits[p] |= 1 << x
        self.field_count[p] += 1
        self.field_supply[p] -= 1

    # -- effects -------------------------------------------------------------------------------

    def _add_prince(self, seat: int, pos: int) -> None:
        bit = 1 << pos
        self.occupant[pos] = seat
        self.mobile_bits[seat] |= bit
        self.prince_bits[seat] |= bit
        self.prince_count[seat] += 1
        self.princes_at[pos] += 1
        if self.princes_at[pos] == 2:
            self.stack_bits[seat] |= bit

    def _remove_prince(self, seat: int, pos: int) -> None:
        bit = 1 << pos
        self.prince_count[seat] -= 1
        left = self.princes_at[pos] = self.princes_at[pos] - 1
        if left == 1:
            self.stack_bits[seat] &= ~bit
        elif left == 0:
            self.occupant[pos] = NOBODY
            self.mobile_bits[seat] &= ~bit
            self.prince_bits[seat] &= ~bit

    def _strike(self, p: int, pos: int) -> int:
        """A winning attack on `pos` (QUE-ATK-05..08): enemy pieces there are defeated, an
        enemy City there is destroyed. Returns the seat whose Queen was captured, or -1."""
        coord = self.game.board.coord(pos)
        captured = NOBODY
        seat = self.occupant[pos]
        if seat >= 0:
            if self.queen[seat] == pos:
                self.queen[seat] = NOBODY
                self.occupant[pos] = NOBODY
                self.mobile_bits[seat] &= ~(1 << pos)
                captured = seat
                self._event("queen_captured", seat, coord, by=p)
            else:
                count = self.princes_at[pos]
                for _ in range(count):
                    self._remove_prince(seat, pos)
                self._event("princes_defeated", seat, coord, by=p, count=count)
        owner = self.city[pos]
        if owner >= 0:
            self.city[pos] = NOBODY
            self.city_bits[owner] &= ~(1 << pos)
            self.city_supply[owner] += 1
            self._event("city_destroyed", owner, coord, by=p)
        return captured

    def _capture_field(self, p: int, pos: int) -> None:
        """An enemy Field under a piece that ends its move is swapped for one of the mover's
        (QUE-FIELD-05/06), unless the mover has none left in supply (QUE-FIELD-07)."""
        owner = self.field[pos]
        if owner < 0 or owner == p:
            return
        coord = self.game.board.coord(pos)
        if self.field_supply[p] <= 0:
            self._event("field_kept", owner, coord, by=p)
            return
        bit = 1 << pos
        self.field[pos] = p
        self.field_bits[owner] &= ~bit
        self.field_bits[p] |= bit
        self.field_count[owner] -= 1
        self.field_count[p] += 1
        self.field_supply[owner] += 1
        self.field_supply[p] -= 1
        self._event("field_captured", owner, coord, by=p)

    def _event(self, kind: str, seat: int, coord: Coord | None = None, **extra: Any) -> None:
        entry: dict[str, Any] = {"turn": self.turn + 1, "round": self.round, "event": kind,
                                 "player": seat}
        if coord is not None:
            entry["at"] = [coord[0], coord[1]]
        entry.update(extra)
        self.log.append(entry)

    # -- end of turn -----------------------------------------------------------------------------

    def _end_turn(self, p: int, stacks_before: int, captured: int) -> None:
        """QUE-TURN-03 steps 1-5, after the action's own effects."""
        n = self.game.num_players
        if captured >= 0:
            self.alive[captured] = False
            if n == 2:  # QUE-END-01: the capturer wins at once
                self._finish([p], "queen_captured")
                return
            self._eliminate(captured)
            survivors = [s for s in range(n) if self.alive[s]]
            if len(survivors) == 1:  # QUE-END-06
                self._finish(survivors, "last_survivor")
                return
        # (2) stack upkeep: a stack kept since the start of the turn loses a Prince (QUE-DUO-05/06)
        kept = stacks_before & self.stack_bits[p]
        while kept:
            low = kept & -kept
            kept ^= low
            pos = low.bit_length() - 1
            self._remove_prince(p, pos)
            self._event("stack_penalty", p, self.game.board.coord(pos))
        # (3) the Field race (QUE-END-02)
        if self.field_supply[p] == 0 and not self.final_round:
            self.final_round = True
            self._event("final_round", p)
        # (4) the end of a round (QUE-TURN-04, QUE-END-02/03)
        last = max(s for s in range(n) if self.alive[s])
        if p == last:
            if self.final_round or self.round >= MAX_ROUNDS:
                self._finish(self._best_standing(), "final_round" if self.final_round
                             else "round_limit")
                return
            self.round += 1
        # (5) the next player still in the game
        seat = p
        while True:
            seat = (seat + 1) % n
            if self.alive[seat]:
                break
        self.to_play = seat

    def _eliminate(self, seat: int) -> None:
        """QUE-END-05: the player's Princes and Cities leave the game; their Fields stay."""
        princes = self.prince_bits[seat]
        while princes:
            low = princes & -princes
            princes ^= low
            pos = low.bit_length() - 1
            for _ in range(self.princes_at[pos]):
                self._remove_prince(seat, pos)
        cities = self.city_bits[seat]
        while cities:
            low = cities & -cities
            cities ^= low
            self.city[low.bit_length() - 1] = NOBODY
        self.city_bits[seat] = 0
        self._event("eliminated", seat)

    def _best_standing(self) -> list[int]:
        """QUE-END-04/07: surviving players with the most Fields, then Cities, then Princes."""
        scores = self.scores
        best = max(scores[s] for s in range(self.game.num_players) if self.alive[s])
        return [s for s in range(self.game.num_players) if self.alive[s] and scores[s] == best]

    def _finish(self, winners: list[int], reason: str) -> None:
        self.over = True
        self.winners = winners
        self._event("game_over", NOBODY, winners=list(winners), reason=reason)

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
            "cities_on_board": [bits.bit_count() for bits in self.city_bits],
            "princes_on_board": list(self.prince_count),
            "scores": self.scores,
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
