"""Where castles, shrines and heroes may go: spacing rules and their fallbacks, and hero moves.

Pure functions of the map (`Board`) and of what stands where, so the rules can be checked on
any map, synthetic ones included (SHO-SETUP-12's path map).
"""

from __future__ import annotations

from collections import deque
from typing import Collection, Sequence

from boardwright.games.shogun.board import Board

CASTLE_GAP = 3  # at least 2 empty spaces between castles, and from Heian (SHO-SETUP-06, -07)
SHRINE_GAP = 2  # at least 1 space between a shrine and the pieces it keeps away from


def _min_distance(board: Board, space: int, others: Collection[int]) -> int:
    row = board.dist[space]
    return min((row[o] for o in others), default=len(board))


def castle_spaces(board: Board, castles: Collection[int], empty: Sequence[bool]) -> list[int]:
    """Legal castle spaces: empty, outside the no-castle zone, at distance >= 3 from every
    castle (SHO-SETUP-06..08). If there are none, the Heian rule stays strict and the empty
    spaces outside the zone farthest (by minimum distance) from the castles are offered
    (SHO-SETUP-09)."""
    allowed = [s for s in range(len(board)) if empty[s] and s not in board.no_castle_zone]
    strict = [s for s in allowed if _min_distance(board, s, castles) >= CASTLE_GAP]
    if strict or not allowed:
        return strict
    best = max(_min_distance(board, s, castles) for s in allowed)
    return [s for s in allowed if _min_distance(board, s, castles) == best]


def shrine_spaces(board: Board, keep_away: Collection[int], empty: Sequence[bool]) -> list[int]:
    """Legal shrine spaces: empty and at distance >= 2 from Heian and from every piece in
    `keep_away` (setup: shrines and castles, SHO-SETUP-11; relocation: every piece,
    SHO-SHRINE-03). Fallback (SHO-SETUP-12, SHO-SHRINE-04): the empty spaces at distance >= 2
    from Heian whose minimum distance to those pieces is largest; failing that any empty
    space. Empty list: the board has no empty space."""
    heian = board.heian
    free = [s for s in range(len(board)) if empty[s]]
    allowed = [s for s in free if board.dist[heian][s] >= SHRINE_GAP]
    strict = [s for s in allowed if _min_distance(board, s, keep_away) >= SHRINE_GAP]
    if strict:
        return strict
    if allowed:
        best = max(_min_distance(board, s, keep_away) for s in allowed)
        return [s for s in allowed if _min_distance(board, s, keep_away) == best]
    return free


def relocation_spaces(board: Board, castles: Collection[int], empty: Sequence[bool]) -> list[int]:
    """Where the winner may put a beaten hero (SHO-ATK-08): for each castle of the loser, the
    empty spaces next to it, or if none is empty the empty spaces nearest to it."""
    out: set[int] = set()
    for castle in castles:
        row = board.dist[castle]
        free = [s for s in range(len(board)) if empty[s] and s != castle]
        if not free:
            continue
        near = min(row[s] for s in free)
        out.update(s for s in free if row[s] == near)
    return sorted(out)


def hero_destinations(board: Board, start: int, points: int, passable: Sequence[int],
                      stoppable: Sequence[bool], shrines: Sequence[bool],
                      may_enter_shrine: bool) -> dict[int, int]:
    """Where a hero on `start` may end a move of up to `points` (SHO-MOVE-01..07), with the
    cost of the cheapest way there.

    `passable[s]` is the cost of entering s (1 for an empty space, 0 or 1 for a space of one's
    own ordinary peasant; -1 for a blocked space); `stoppable[s]` says whether a move may end
    there (an empty space, not a space of one's own peasant). A
    shrine may be entered only as the last step, and only if `may_enter_shrine` (the Movement
    phase, SHO-MOVE-06, -07).
    """
    far = points + 1
    cost = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        base = cost[here]
        for near in board.neighbours[here]:
            step = passable[near]
            if step < 0:
                continue
            total = base + step
            if total <= points and total < cost.get(near, far):
                cost[near] = total
                if step == 0:
                    queue.appendleft(near)
                else:
                    queue.append(near)
    out = {s: c for s, c in cost.items() if s != start and stoppable[s] and c <= points}
    if may_enter_shrine:
        for here, c in cost.items():
            if c + 1 <= points:
                for near in board.neighbours[here]:
                    if shrines[near] and near not in out:
                        out[near] = c + 1
    return out
