"""A quick value per seat for greedy play and search leaves.

Victory points dominate; around them count what turns into points later: a courtship with its
mission (4 VP if completed) and how close the mission is, the hero's distance to a castle it
could claim, peasants on the board (chain material, mission conditions), the hero's cards
(duels are won with cards in hand and room on the piles), treasures, and being the emperor. A
running duel counts as its likely result: the side ahead on the current totals is credited
with part of what winning brings. A won game is worth far more than any of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardwright.games.shogun.mission_goals import need
from boardwright.games.shogun.setup import SETUP_PHASES

if TYPE_CHECKING:
    from boardwright.games.shogun.state import ShogunState

WIN = 1000.0
DUEL_STAKE = 1.5  # what a won duel is worth, roughly: a prisoner, a mission, a treasure


def mission_progress(state: ShogunState, seat: int) -> float:
    """Between 0 and 1: how much of the held mission is already met."""
    m = state.mission[seat]
    c = state.courted_castle(seat)
    if m is None or c < 0:
        return 0.0
    card = state.game.mission[m]
    castle = state.castle_space[c]
    near = state.game.board.neighbours[castle]
    if card.goal == "peasants_adjacent_to_castle":
        wanted = need(card, state.game.board, castle, state.castle_at)
        return min(1.0, sum(1 for s in near if state.peasant[s] == seat) / wanted)
    if card.goal == "prisoners_held":
        return min(1.0, state.prisoner_count(seat) / card.count)
    if card.goal == "is_emperor":
        return 1.0 if state.emperor() == seat else 0.0
    if card.goal == "hero_adjacent_with_treasures":
        return (0.5 * (state.hero_pos[seat] in near)
                + 0.5 * min(1.0, len(state.treasures[seat]) / card.count))
    return 0.0


def castle_distance(state: ShogunState, seat: int) -> int:
    """Steps from the hero to the nearest castle it could claim (0 if none is free)."""
    pos = state.hero_pos[seat]
    free = [state.castle_space[c] for c in range(len(state.castle_space))
            if state.roof[c] < 0 and state.court[c] < 0]
    if pos < 0 or not free:
        return 0
    row = state.game.board.dist[pos]
    return min(row[s] for s in free)


def evaluate(state: ShogunState) -> list[float]:
    n = state.game.num_players
    if state.over:
        return [WIN if s in state.winners else 0.0 for s in range(n)]
    playing = state.phase not in SETUP_PHASES
    emperor = state.emperor() if playing else -1
    duel_edge = [0.0] * n
    if state.duel is not None:
        attack, block = state.duel.totals()
        ahead = 1.0 if attack > block else -0.5
        duel_edge[state.duel.attacker] += DUEL_STAKE * ahead
        duel_edge[state.duel.defender] -= DUEL_STAKE * ahead
    values = []
    for seat in range(n):
        value = float(state.vp(seat)) + duel_edge[seat]
        if state.courted_castle(seat) >= 0:
            value += 1.0 + 2.0 * mission_progress(state, seat)
        elif playing:
            value -= 0.2 * castle_distance(state, seat)
        value += 0.25 * state.peasant.count(seat)
        value += 0.3 * len(state.treasures[seat])
        if seat == emperor:
            value += 0.8
        table = state.table
        if table is not None:
            holder = table[seat]
            value += 0.15 * len(holder.hand)
            room = sum(holder.room(a, table.catalogue) for a in holder.piles)
            value += 0.05 * room
        values.append(value)
    return values
