"""A fast evaluation of a Carcassonne position, for the greedy agent and MCTS leaves.

The value of a seat is what it would score if the game ended now (every occupied feature
scored as at the end, fields and barns included), with incomplete roads and cities credited
part of the way to their completed value, plus a small credit for followers still in supply
(a follower in hand is worth something: it can still claim a feature). Nothing is mutated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardwright.games.carcassonne.capabilities.barn import barn_field_part
from boardwright.games.carcassonne.scoring import feature_value, majority
from boardwright.games.carcassonne.tiles import CITY, FIELD

if TYPE_CHECKING:
    from boardwright.games.carcassonne.state import CarcassonneState

FOLLOWER_IN_HAND = 1.0  # points a follower still in supply is worth
COMPLETION_CREDIT = 0.5  # share of the completion bonus credited to an incomplete city


def potential_scores(state: CarcassonneState) -> list[float]:
    """Each seat's score plus what its figures on the board would still bring."""
    values = [float(s) for s in state._scores]
    graph = state.graph
    find = graph.find
    kinds = graph.kind
    occupant = state.occupant
    rules = state.game.figure_rule
    groups: dict[int, list[int]] = {}
    for part in occupant:
        groups.setdefault(find(part), []).append(part)
    small_city = state.game.small_city_scoring
    for root, parts in groups.items():
        kind = kinds[root]
        if kind == FIELD:
            points: float = 3 * len(graph.completed_cities(root))
        else:
            points = feature_value(graph, root, False, small_city)
            if kind == CITY:
                points += COMPLETION_CREDIT * points
        if len(parts) == 1:  # the common case: one figure, no contest
            seat, figure = occupant[parts[0]]
            if rules[figure].constant_strength or rules[figure].strength(graph, root) > 0:
                values[seat] += points
            continue
        owners = [occupant[p][0] for p in parts]
        for seat in majority(owners, state.strengths(root, tuple(parts))):
            values[seat] += points
    for point, seat in state.barn_owner.items():
        values[seat] += 4 * len(graph.completed_cities(find(barn_field_part(graph, point))))
    for seat, supply in enumerate(state.supply):
        values[seat] += FOLLOWER_IN_HAND * supply.get("follower", 0)
    return values
