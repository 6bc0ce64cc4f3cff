"""What happens to the pieces once an action is allowed: Princes added and removed (with the
stacks they make), a winning attack striking a space (QUE-ATK-05..08), a Field captured under
a piece that ends its move (QUE-FIELD-05..07), and the event log entry each leaves.

Every change updates the per-space lists and the per-seat bit masks of `QueensState`
together, so the two never disagree."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.games.queens.board import Coord
from boardwright.games.queens.seats import NOBODY

if TYPE_CHECKING:
    from boardwright.games.queens.state import QueensState


def add_prince(state: QueensState, seat: int, pos: int) -> None:
    bit = 1 << pos
    state.occupant[pos] = seat
    state.mobile_bits[seat] |= bit
    state.prince_bits[seat] |= bit
    state.prince_count[seat] += 1
    state.princes_at[pos] += 1
    if state.princes_at[pos] == 2:
        state.stack_bits[seat] |= bit


def remove_prince(state: QueensState, seat: int, pos: int) -> None:
    bit = 1 << pos
    state.prince_count[seat] -= 1
    left = state.princes_at[pos] = state.princes_at[pos] - 1
    if left == 1:
        state.stack_bits[seat] &= ~bit
    elif left == 0:
        state.occupant[pos] = NOBODY
        state.mobile_bits[seat] &= ~bit
        state.prince_bits[seat] &= ~bit


def strike(state: QueensState, p: int, pos: int) -> int:
    """A winning attack on `pos` (QUE-ATK-05..08): enemy pieces there are defeated, an
    enemy City there is destroyed. Returns the seat whose Queen was captured, or -1."""
    coord = state.game.board.coord(pos)
    captured = NOBODY
    seat = state.occupant[pos]
    if seat >= 0:
        if state.queen[seat] == pos:
            state.queen[seat] = NOBODY
            state.occupant[pos] = NOBODY
            state.mobile_bits[seat] &= ~(1 << pos)
            captured = seat
            event(state, "queen_captured", seat, coord, by=p)
        else:
            count = state.princes_at[pos]
            for _ in range(count):
                remove_prince(state, seat, pos)
            event(state, "princes_defeated", seat, coord, by=p, count=count)
    owner = state.city[pos]
    if owner >= 0:
        state.city[pos] = NOBODY
        state.city_bits[owner] &= ~(1 << pos)
        state.city_supply[owner] += 1
        event(state, "city_destroyed", owner, coord, by=p)
    return captured


def capture_field(state: QueensState, p: int, pos: int) -> None:
    """An enemy Field under a piece that ends its move is swapped for one of the mover's
    (QUE-FIELD-05/06), unless the mover has none left in supply (QUE-FIELD-07)."""
    owner = state.field[pos]
    if owner < 0 or owner == p:
        return
    coord = state.game.board.coord(pos)
    if state.field_supply[p] <= 0:
        event(state, "field_kept", owner, coord, by=p)
        return
    bit = 1 << pos
    state.field[pos] = p
    state.field_bits[owner] &= ~bit
    state.field_bits[p] |= bit
    state.field_count[owner] -= 1
    state.field_count[p] += 1
    state.field_supply[owner] += 1
    state.field_supply[p] -= 1
    event(state, "field_captured", owner, coord, by=p)


def event(state: QueensState, kind: str, seat: int, coord: Coord | None = None,
          **extra: Any) -> None:
    """One entry of the state's event log (what the views and the texts report)."""
    entry: dict[str, Any] = {"turn": state.turn + 1, "round": state.round, "event": kind,
                             "player": seat}
    if coord is not None:
        entry["at"] = [coord[0], coord[1]]
    entry.update(extra)
    state.log.append(entry)
