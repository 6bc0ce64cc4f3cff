"""Where a piece can go (QUE-MOVE-01..08), computed for all paths at once on bitboards.

A piece takes 1 to MV steps between adjacent spaces. Every space it passes through on the way
must be *passable*: a plain (entering a mountain ends the move, QUE-MOVE-05) holding no enemy
mobile piece and no enemy City (QUE-MOVE-06). Its own pieces, its own Cities and every Field
are passable. The last step may enter anything on the board; which of those end spaces are
allowed (own pieces, attacks) is decided by the caller.

The search is a breadth-first flood over bit masks: each step expands the newly reached
passable spaces with six shifts, so its cost does not depend on how many paths there are.
"""

from __future__ import annotations

from boardwright.games.queens.board import Board

QUEEN_MOVE = 2  # QUE-MOVE-02


def reach(board: Board, start: int, steps: int, passable: int) -> int:
    """Every space `start` can end on within `steps` steps, end-space rules not applied."""
    reached = board.neighbour_mask[start]
    frontier = reached & passable
    unseen = board.full & ~(reached | (1 << start))
    w = board.width
    w1 = w - 1
    for _ in range(steps - 1):
        if not frontier:
            break
        new = ((frontier << 1) | (frontier >> 1) | (frontier << w) | (frontier >> w)
               | (frontier << w1) | (frontier >> w1)) & unseen
        reached |= new
        unseen ^= new
        frontier = new & passable
    return reached


def passable_mask(board: Board, enemy_mobile: int, enemy_cities: int) -> int:
    """Spaces a piece may pass through: plains without an enemy piece or enemy City."""
    return board.plains & ~(enemy_mobile | enemy_cities)
