"""The end of a Queens turn and of the game (QUE-TURN-03/04, QUE-END-01..07), and the score
that decides it.

After an action's own effects, `end_turn` runs the end-of-turn sequence: a captured Queen is
handled at once (the capturer wins a two-player game; otherwise the player is out), then stack
upkeep, the Field-race trigger, the end of the round and the next player."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardwright.games.queens.effects import event, remove_prince
from boardwright.games.queens.position import MAX_ROUNDS
from boardwright.games.queens.seats import NOBODY

if TYPE_CHECKING:
    from boardwright.games.queens.state import QueensState

ELIMINATED_SCORE = -1


def standing(fields: int, cities: int, princes: int) -> int:
    """The score: Fields, then Cities, then Princes as tie-breaks (QUE-END-04), in one number
    whose digits read 'Fields, Cities, Princes' (10 Fields, 3 Cities, 4 Princes -> 1034)."""
    return 100 * fields + 10 * cities + princes


def end_turn(state: QueensState, p: int, stacks_before: int, captured: int) -> None:
    """QUE-TURN-03 steps 1-5, after the action's own effects."""
    n = state.game.num_players
    if captured >= 0:
        state.alive[captured] = False
        if n == 2:  # QUE-END-01: the capturer wins at once
            finish(state, [p], "queen_captured")
            return
        eliminate(state, captured)
        survivors = [s for s in range(n) if state.alive[s]]
        if len(survivors) == 1:  # QUE-END-06
            finish(state, survivors, "last_survivor")
            return
    # (2) stack upkeep: a stack kept since the start of the turn loses a Prince (QUE-DUO-05/06)
    kept = stacks_before & state.stack_bits[p]
    while kept:
        low = kept & -kept
        kept ^= low
        pos = low.bit_length() - 1
        remove_prince(state, p, pos)
        event(state, "stack_penalty", p, state.game.board.coord(pos))
    # (3) the Field race (QUE-END-02)
    if state.field_supply[p] == 0 and not state.final_round:
        state.final_round = True
        event(state, "final_round", p)
    # (4) the end of a round (QUE-TURN-04, QUE-END-02/03)
    last = max(s for s in range(n) if state.alive[s])
    if p == last:
        if state.final_round or state.round >= MAX_ROUNDS:
            finish(state, best_standing(state), "final_round" if state.final_round
                   else "round_limit")
            return
        state.round += 1
    # (5) the next player still in the game
    seat = p
    while True:
        seat = (seat + 1) % n
        if state.alive[seat]:
            break
    state.to_play = seat


def eliminate(state: QueensState, seat: int) -> None:
    """QUE-END-05: the player's Princes and Cities leave the game; their Fields stay."""
    princes = state.prince_bits[seat]
    while princes:
        low = princes & -princes
        princes ^= low
        pos = low.bit_length() - 1
        for _ in range(state.princes_at[pos]):
            remove_prince(state, seat, pos)
    cities = state.city_bits[seat]
    while cities:
        low = cities & -cities
        cities ^= low
        state.city[low.bit_length() - 1] = NOBODY
    state.city_bits[seat] = 0
    event(state, "eliminated", seat)


def best_standing(state: QueensState) -> list[int]:
    """QUE-END-04/07: surviving players with the most Fields, then Cities, then Princes."""
    scores = state.scores
    n = state.game.num_players
    best = max(scores[s] for s in range(n) if state.alive[s])
    return [s for s in range(n) if state.alive[s] and scores[s] == best]


def finish(state: QueensState, winners: list[int], reason: str) -> None:
    state.over = True
    state.winners = winners
    event(state, "game_over", NOBODY, winners=list(winners), reason=reason)
