"""Battle values (QUE-VAL-01..10) and what a winning attack does (QUE-ATK-05..09).

The fragment the game comes from fixes these numbers; everything here is arithmetic on the
position, so the move generator, the validation of `apply`, the heuristic and the renderer
all use the same functions and cannot disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boardwright.games.queens.state import QueensState

PRINCE_BASE = 5  # a Prince is worth 5 minus its distance to its own Queen (QUE-VAL-02)
QUEEN_VALUE = (4, 7)  # on a plain, on a mountain (QUE-VAL-06)
CITY_VALUE = (3, 5)  # on a plain, on a mountain (QUE-VAL-07)
QUEEN_PLAIN = QUEEN_VALUE[0]


def prince_value(distance_to_queen: int) -> int:
    """5 minus the distance to its Queen, never below 0 (QUE-VAL-02/03)."""
    value = PRINCE_BASE - distance_to_queen
    return value if value > 0 else 0


def movement_value(distance_to_queen: int) -> int:
    """A Prince's movement value, fixed when it sets off: max(1, 5 - d) (QUE-MOVE-04)."""
    value = PRINCE_BASE - distance_to_queen
    return value if value > 1 else 1


def attack_value(state: QueensState, seat: int, pos: int) -> int:
    """What one of `seat`'s Princes attacking `pos` is worth there: never doubled (QUE-VAL-05)."""
    queen = state.queen[seat]
    if queen < 0:
        return 0
    return prince_value(state.game.board.distance[pos][queen])


def defence_value(state: QueensState, pos: int) -> int:
    """The defence of everything enemy on `pos` together.

    A Queen defends with 4/7 and a City with 3/5 (plain/mountain). A Prince defends with its
    value, doubled on a mountain without a City (QUE-VAL-04); two stacked Princes add their
    values (QUE-VAL-10). A piece inside its City adds its *plain* value to the City's value for
    the terrain (QUE-VAL-08/09). Fields add nothing (QUE-FIELD-08).
    """
    board = state.game.board
    mountain = board.is_mountain[pos]
    value = 0
    in_city = state.city[pos] >= 0
    if in_city:
        value += CITY_VALUE[mountain]
    seat = state.occupant[pos]
    if seat >= 0:
        queen = state.queen[seat]
        if queen == pos:
            value += QUEEN_PLAIN if in_city else QUEEN_VALUE[mountain]
        else:
            each = prince_value(board.distance[pos][queen]) if queen >= 0 else 0
            if mountain and not in_city:
                each *= 2
            value += each * state.princes_at[pos]
    return value
