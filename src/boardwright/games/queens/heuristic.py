"""A quick evaluation of a Queens position, for the greedy agent and MCTS leaves.

Each seat's value, in points where a Field is worth 3:
- material: Fields of its colour on the board (the race that decides the game), Cities (they
  defend, and every Field must be sown next to one) and Princes;
- prospects: free spaces to sow on (as many as its supply can still fill) and a Queen ready to
  found a City;
- safety: a Queen that two enemy Princes could take next turn, and Princes a single enemy
  Prince could beat, are counted as lost, fully when the enemy moves first and a little when
  their owner can still react.
Reachability is judged by distance only (paths are not searched), which keeps it cheap.
A finished game is worth +WIN to each winner and -WIN to everyone else. Nothing is mutated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardwright.games.queens.battle import defence_value, movement_value, prince_value
from boardwright.games.queens.board import bit_positions
from boardwright.games.queens.legal import can_found, sow_spots

if TYPE_CHECKING:
    from boardwright.games.queens.state import QueensState

WIN = 1000.0
FIELD = 3.0
CITY = 4.0
PRINCE = 3.5
SOW_SPOT = 0.4
READY_TO_FOUND = 1.0
QUEEN_IN_DANGER = 60.0
PRINCE_IN_DANGER = 0.8  # share of a Prince's worth lost when it hangs
REACTING = 0.1  # share of a threat that counts when its victim moves next


def _threat(state: QueensState, seat: int, pos: int, defence: int, needed: int) -> bool:
    """Whether `needed` Princes of one enemy could reach `pos` next turn and together beat
    `defence` there (distance within their movement value, paths not searched)."""
    distance = state.game.board.distance
    for enemy, queen in enumerate(state.queen):
        if enemy == seat or queen < 0 or not state.alive[enemy]:
            continue
        value = prince_value(distance[pos][queen])
        if value * needed <= defence:
            continue
        count = 0
        for p in bit_positions(state.prince_bits[enemy]):
            if distance[p][pos] <= movement_value(distance[p][queen]):
                count += min(state.princes_at[p], 1)
                if count >= needed:
                    return True
    return False


def evaluate(state: QueensState) -> list[float]:
    n = state.game.num_players
    if state.over:
        return [WIN if s in state.winners else -WIN for s in range(n)]
    values = []
    for seat in range(n):
        if not state.alive[seat]:
            values.append(-WIN)
            continue
        urgency = REACTING if seat == state.to_play else 1.0
        value = (FIELD * state.field_count[seat] + CITY * state.city_bits[seat].bit_count()
                 + PRINCE * state.prince_count[seat])
        if state.field_supply[seat] and state.city_bits[seat]:
            spots = sow_spots(state, seat).bit_count()
            value += SOW_SPOT * min(spots, state.field_supply[seat])
        if can_found(state, seat):
            value += READY_TO_FOUND
        queen = state.queen[seat]
        if _threat(state, seat, queen, defence_value(state, queen), 2):
            value -= QUEEN_IN_DANGER * urgency
        for pos in bit_positions(state.prince_bits[seat]):
            if _threat(state, seat, pos, defence_value(state, pos), 1):
                value -= PRINCE * PRINCE_IN_DANGER * urgency * state.princes_at[pos]
        values.append(value)
    return values
