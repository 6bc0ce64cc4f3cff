"""Which actions are legal in a Queens position (QUE-TURN-02, QUE-MOVE-*, QUE-ATK-*, QUE-DUO-*,
QUE-CITY-*, QUE-FIELD-*), generated on whole bit masks so the board is never scanned.

`legal_actions` is the move generator; `sides`, `can_found` and `sow_spots` are the shared
questions that `play` (the checks of `apply`) and the heuristic ask too, so all three agree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.games.queens.actions import PASS_ACTION
from boardwright.games.queens.battle import PRINCE_BASE, defence_value
from boardwright.games.queens.movement import QUEEN_MOVE, reach
from boardwright.games.queens.position import CITIES_PER_PLAYER

if TYPE_CHECKING:
    from boardwright.games.queens.state import QueensState


def sides(state: QueensState, seat: int) -> tuple[int, int, int]:
    """(own mobile pieces, enemy targets, passable spaces) for `seat` as bit masks.

    Targets are enemy mobile pieces and enemy Cities: ending there is an attack
    (QUE-ATK-02), passing through them is forbidden (QUE-MOVE-06)."""
    own = state.mobile_bits[seat]
    targets = 0
    for other, bits in enumerate(state.mobile_bits):
        if other != seat:
            targets |= bits | state.city_bits[other]
    return own, targets, state.game.board.plains & ~targets


def legal_actions(state: QueensState) -> list[Any]:
    """Queen moves, then each Prince's moves and attacks (Princes by space), then JOINTs,
    FOUND and SOWs; PASS only when there is nothing else (QUE-TURN-02)."""
    if state.over:
        return []
    game = state.game
    board = game.board
    p = state.to_play
    own, targets, passable = sides(state, p)
    moves = game.moves
    out: list[Any] = []
    append = out.append
    qpos = state.queen[p]
    dests = reach(board, qpos, QUEEN_MOVE, passable) & ~own & ~targets
    row = moves[qpos]
    while dests:
        low = dests & -dests
        append(row[low.bit_length() - 1])
        dests ^= low
    to_queen = board.distance[qpos]
    candidates: dict[int, list[int]] | None = None
    defence: dict[int, int] = {}
    princes = state.prince_bits[p]
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
                    defence[t] = defence_value(state, t)
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
    if can_found(state, p):
        append(game.found)
    if state.field_supply[p] > 0 and state.city_bits[p]:
        row = game.sows
        spots = sow_spots(state, p)
        while spots:
            low = spots & -spots
            append(row[low.bit_length() - 1])
            spots ^= low
    if not out:
        append(PASS_ACTION)
    return out


def can_found(state: QueensState, seat: int) -> bool:
    """QUE-CITY-01/04: a City in supply, a building-free space under the Queen, and fewer
    than 3 Cities on the board."""
    q = state.queen[seat]
    return (state.city_supply[seat] > 0 and state.city[q] < 0 and state.field[q] < 0
            and state.city_bits[seat].bit_count() < CITIES_PER_PLAYER)


def sow_spots(state: QueensState, seat: int) -> int:
    """QUE-FIELD-01/02: building-free plains next to one of the seat's Cities, without an
    enemy mobile piece (a friendly one does not matter)."""
    buildings = 0
    for c, f in zip(state.city_bits, state.field_bits):
        buildings |= c | f
    enemy_mobile = 0
    for other, bits in enumerate(state.mobile_bits):
        if other != seat:
            enemy_mobile |= bits
    board = state.game.board
    return board.expand(state.city_bits[seat]) & board.plains & ~buildings & ~enemy_mobile
