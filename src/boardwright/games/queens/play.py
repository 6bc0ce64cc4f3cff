"""Applying one Queens action: each kind checked against the rules (a clear
`IllegalActionError` or `MalformedActionError` naming the problem, raised before anything
changes) and then carried out, followed by the end of the turn (`turn.end_turn`).

MOVE (QUE-MOVE-*, QUE-ATK-*), JOINT (QUE-DUO-*), FOUND (QUE-CITY-*), SOW (QUE-FIELD-*) and
PASS (QUE-TURN-02). The checks ask the same questions as the move generator (`legal`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.core.errors import GameOverError, IllegalActionError, MalformedActionError
from boardwright.core.inputs import coerce_action, short_repr
from boardwright.games.queens.actions import (
    ACTION_CLASSES, PASS_ACTION, Found, Joint, Move, Pass, Sow, is_coord,
)
from boardwright.games.queens.battle import attack_value, defence_value, movement_value
from boardwright.games.queens.board import Coord
from boardwright.games.queens.effects import add_prince, capture_field, remove_prince, strike
from boardwright.games.queens.legal import can_found, legal_actions, sides, sow_spots
from boardwright.games.queens.movement import QUEEN_MOVE, reach
from boardwright.games.queens.position import CITIES_PER_PLAYER
from boardwright.games.queens.seats import NOBODY, colour
from boardwright.games.queens.texts import space_name as _on  # a space by its board label
from boardwright.games.queens.turn import end_turn

if TYPE_CHECKING:
    from boardwright.games.queens.state import QueensState


def apply(state: QueensState, action: Any) -> None:
    """Carry out one action of the player to move, then the end of their turn."""
    action = coerce_action(state.game, action, ACTION_CLASSES)
    if state.over:
        raise GameOverError("the game is over; no action can be applied")
    cls = type(action)
    p = state.to_play
    stacks_before = state.stack_bits[p]
    if cls is Move:
        captured = apply_move(state, p, action)
    elif cls is Sow:
        apply_sow(state, p, action)
        captured = NOBODY
    elif cls is Joint:
        captured = apply_joint(state, p, action)
    elif cls is Found:
        apply_found(state, p)
        captured = NOBODY
    elif cls is Pass:
        if legal_actions(state) != [PASS_ACTION]:
            raise IllegalActionError(f"{colour(p)} may pass only when no other action is "
                                     "legal (QUE-TURN-02)")
        captured = NOBODY
    else:
        raise MalformedActionError(f"not a Queens action: {short_repr(action)}")
    state.history.append(action)
    end_turn(state, p, stacks_before, captured)
    state.turn += 1


def space(state: QueensState, coord: Any) -> int:
    """The bit position of a coordinate an action names; MalformedActionError if none."""
    board = state.game.board
    if not is_coord(coord) or not board.contains(coord):
        raise MalformedActionError(
            f"{short_repr(coord)} is not a space of the board (axial (q, r) with "
            f"max(|q|, |r|, |q+r|) <= {board.radius})")
    return board.pos(coord)


def unreachable(state: QueensState, what: str, src: Coord, dst: Coord,
                mv: int) -> IllegalActionError:
    steps = state.game.board.distance[space(state, src)][space(state, dst)]
    if steps > mv:
        why = f"it is {steps} steps away and its movement value is {mv}"
    else:
        why = (f"every path of at most {mv} steps is blocked (a mountain ends a move; enemy "
               "pieces and enemy Cities cannot be passed)")
    return IllegalActionError(
        f"the {what} on {_on(state, src)} cannot reach {_on(state, dst)}: {why}")


def apply_move(state: QueensState, p: int, action: Move) -> int:
    s, d = space(state, action.src), space(state, action.dst)
    if state.occupant[s] != p:
        raise IllegalActionError(f"{colour(p)} has no Queen or Prince on {_on(state, action.src)}")
    if s == d:
        raise IllegalActionError("a move must end on a different space (QUE-MOVE-01)")
    is_queen = state.queen[p] == s
    what = "Queen" if is_queen else "Prince"
    own, targets, passable = sides(state, p)
    board = state.game.board
    mv = QUEEN_MOVE if is_queen else movement_value(board.distance[s][state.queen[p]])
    if not reach(board, s, mv, passable) >> d & 1:
        raise unreachable(state, what, action.src, action.dst, mv)
    if own >> d & 1:
        raise IllegalActionError(f"{_on(state, action.dst)} already holds a piece of {colour(p)}; "
                                 "only a JOINT puts two Princes on one space (QUE-COMP-04/05)")
    captured = NOBODY
    if targets >> d & 1:
        if is_queen:
            raise IllegalActionError(f"a Queen never attacks, so she cannot end on "
                                     f"{_on(state, action.dst)}, which holds an enemy "
                                     "(QUE-MOVE-08)")
        value, defence = attack_value(state, p, d), defence_value(state, d)
        if value <= defence:
            raise IllegalActionError(
                f"the attack on {_on(state, action.dst)} is not allowed: the Prince is worth "
                f"{value} there and the defence is {defence} (the attack must be higher, "
                "QUE-ATK-03/04)")
        captured = strike(state, p, d)
    if is_queen:
        state.occupant[s] = NOBODY
        state.mobile_bits[p] ^= (1 << s) | (1 << d)
        state.queen[p] = d
        state.occupant[d] = p
    else:
        remove_prince(state, p, s)
        add_prince(state, p, d)
    capture_field(state, p, d)
    return captured


def apply_joint(state: QueensState, p: int, action: Joint) -> int:
    a, b, t = (space(state, action.first), space(state, action.second),
               space(state, action.target))
    if a == b:
        raise IllegalActionError("the two Princes of a JOINT must start on different spaces "
                                 "(QUE-DUO-02/03)")
    queen = state.queen[p]
    for pos, coord in ((a, action.first), (b, action.second)):
        if state.occupant[pos] != p or state.princes_at[pos] == 0:
            raise IllegalActionError(f"{colour(p)} has no Prince on {_on(state, coord)}")
    _, targets, passable = sides(state, p)
    if not targets >> t & 1:
        raise IllegalActionError(f"a JOINT must be an attack, and {_on(state, action.target)} "
                                 "holds no enemy piece or City (QUE-DUO-02)")
    board = state.game.board
    for pos, coord in ((a, action.first), (b, action.second)):
        mv = movement_value(board.distance[pos][queen])
        if not reach(board, pos, mv, passable) >> t & 1:
            raise unreachable(state, "Prince", coord, action.target, mv)
    value, defence = 2 * attack_value(state, p, t), defence_value(state, t)
    if value <= defence:
        raise IllegalActionError(
            f"the joint attack on {_on(state, action.target)} is not allowed: the two Princes are "
            f"worth {value} there and the defence is {defence} (QUE-DUO-02)")
    captured = strike(state, p, t)
    remove_prince(state, p, a)
    remove_prince(state, p, b)
    add_prince(state, p, t)
    add_prince(state, p, t)
    capture_field(state, p, t)
    return captured


def apply_found(state: QueensState, p: int) -> None:
    if not can_found(state, p):
        q = state.queen[p]
        if state.city_supply[p] <= 0:
            why = "has no City left in supply"
        elif state.city[q] >= 0 or state.field[q] >= 0:
            queen = _on(state, state.game.board.coord(q))
            why = f"has her Queen on {queen}, which already holds a building"
        else:
            why = f"already has {CITIES_PER_PLAYER} Cities on the board (QUE-CITY-04)"
        raise IllegalActionError(f"{colour(p)} cannot found a City: {colour(p)} {why}")
    q = state.queen[p]
    state.city[q] = p
    state.city_bits[p] |= 1 << q
    state.city_supply[p] -= 1


def apply_sow(state: QueensState, p: int, action: Sow) -> None:
    x = space(state, action.at)
    if state.field_supply[p] <= 0:
        raise IllegalActionError(f"{colour(p)} has no Field left in supply")
    if not sow_spots(state, p) >> x & 1:
        raise IllegalActionError(
            f"{colour(p)} cannot sow on {_on(state, action.at)}: a Field needs a building-free "
            f"plain next to one of {colour(p)}'s Cities, without an enemy piece (QUE-FIELD-01/02)")
    state.field[x] = p
    state.field_bits[p] |= 1 << x
    state.field_count[p] += 1
    state.field_supply[p] -= 1
