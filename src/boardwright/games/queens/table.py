"""The numbers a player needs at the table, computed by the game so no front end redoes the
rules' arithmetic: what every piece and City is worth in defence and how far each mobile piece
moves (QUE-VAL, QUE-MOVE-02/04), what the seat to move would bring against each enemy space
(one Prince, two together), and which of its stacks must split this turn (QUE-DUO-05).

Spaces are named by their board labels (`texts.label`) beside their axial coordinates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.games.queens.battle import (
    CITY_VALUE, PRINCE_BASE, QUEEN_PLAIN, QUEEN_VALUE, attack_value, defence_value,
    movement_value, prince_value,
)
from boardwright.games.queens.movement import QUEEN_MOVE
from boardwright.games.queens.texts import label

if TYPE_CHECKING:
    from boardwright.games.queens.state import QueensState


def _why(state: QueensState, pos: int) -> str:
    """How the defence of a space adds up, in the rules' terms (e.g. "Prince 5 − 2 = 3,
    doubled on a mountain")."""
    board = state.game.board
    mountain = board.is_mountain[pos]
    terrain = "mountain" if mountain else "plain"
    parts: list[str] = []
    in_city = state.city[pos] >= 0
    if in_city:
        parts.append(f"City {CITY_VALUE[mountain]} ({terrain})")
    seat = state.occupant[pos]
    if seat >= 0:
        queen = state.queen[seat]
        if queen == pos:
            parts.append(f"Queen {QUEEN_PLAIN} (plain value, in her City)" if in_city
                         else f"Queen {QUEEN_VALUE[mountain]} ({terrain})")
        elif queen >= 0:
            d = board.distance[pos][queen]
            each = prince_value(d)
            words = f"Prince {PRINCE_BASE} − {d} from its Queen = {each}" if each else \
                f"Prince 0 ({d} from its Queen)"
            if state.princes_at[pos] == 2:
                words = f"two Princes, each {PRINCE_BASE} − {d} = {each}"
            if in_city:
                words += " (plain value, in the City)"
            elif mountain and each:
                words += ", doubled on the mountain"
            parts.append(words)
    return " + ".join(parts)


def piece_rows(state: QueensState) -> list[dict[str, Any]]:
    """One row per occupied space (a mobile piece or a City): its owner, what stands there,
    its defence (`strength`, with `why`) and, for a mobile piece, how many steps it may move
    from there (`movement`: 2 for a Queen, max(1, 5 − distance) for a Prince)."""
    board = state.game.board
    rows = []
    for pos in board.spaces:
        seat = state.occupant[pos]
        city = state.city[pos]
        if seat < 0 and city < 0:
            continue
        coord = board.coord(pos)
        row: dict[str, Any] = {"at": list(coord), "label": label(coord, board.radius),
                               "seat": seat if seat >= 0 else city,
                               "strength": defence_value(state, pos), "why": _why(state, pos),
                               "city": city >= 0}
        if seat >= 0:
            queen = state.queen[seat]
            if queen == pos:
                row.update(kind="queen", movement=QUEEN_MOVE)
            else:
                d = board.distance[pos][queen] if queen >= 0 else PRINCE_BASE
                row.update(kind="stack" if state.princes_at[pos] == 2 else "prince",
                           movement=movement_value(d), distance=d)
        else:
            row["kind"] = "city"
        rows.append(row)
    return rows


def attack_rows(state: QueensState) -> list[dict[str, Any]]:
    """For the seat to move, every enemy-held space (a piece or a City) with what one of its
    Princes would be worth there (`yours`: 5 − distance to its own Queen, never doubled), two
    together (`joint`) and the space's defence (`theirs`). An attack is legal only with more
    than `theirs` (and a piece that can reach it)."""
    if state.over:
        return []
    me = state.current_player
    board = state.game.board
    rows = []
    for pos in board.spaces:
        owner = state.occupant[pos] if state.occupant[pos] >= 0 else state.city[pos]
        if owner < 0 or owner == me:
            continue
        coord = board.coord(pos)
        yours = attack_value(state, me, pos)
        rows.append({"at": list(coord), "label": label(coord, board.radius), "seat": owner,
                     "yours": yours, "joint": 2 * yours, "theirs": defence_value(state, pos)})
    return rows


def must_split(state: QueensState) -> list[str]:
    """The seat to move's stacks that must split this turn or lose a Prince (QUE-DUO-05), by
    label."""
    if state.over:
        return []
    board = state.game.board
    bits = state.stack_bits[state.current_player]
    return [label(board.coord(pos), board.radius) for pos in board.spaces if bits >> pos & 1]


def table_view(state: QueensState) -> dict[str, Any]:
    """The numbers a view carries: `pieces`, `attacks` and `must_split`."""
    return {"pieces": piece_rows(state), "attacks": attack_rows(state),
            "must_split": must_split(state)}


__all__ = ["attack_rows", "must_split", "piece_rows", "table_view"]
