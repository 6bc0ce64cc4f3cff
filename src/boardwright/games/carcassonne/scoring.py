"""Feature values and majorities: the arithmetic of Carcassonne scoring.

Kept apart from turn flow so that expansions (mayor strength, barns) can replace one piece.
"""

from __future__ import annotations

from boardwright.games.carcassonne.features import FeatureGraph
from boardwright.games.carcassonne.tiles import CITY, MONASTERY, ROAD

SMALL_CITY_STANDARD = "standard"
SMALL_CITY_FIRST_EDITION = "first_edition"


def feature_value(graph: FeatureGraph, root: int, complete: bool, small_city: str) -> int:
    """Points a road, city or monastery is worth, completed or at the end of the game."""
    kind = graph.kind[root]
    if kind == ROAD:
        return graph.tile_count(root)
    if kind == CITY:
        tiles = graph.tile_count(root)
        pennants = graph.pennants[root]
        if complete and not (small_city == SMALL_CITY_FIRST_EDITION and tiles == 2):
            return 2 * (tiles + pennants)
        return tiles + pennants
    if kind == MONASTERY:
        return 9 - graph.open[root]
    raise ValueError("fields have no feature value")


def majority(owners: list[int], strengths: list[int] | None = None) -> list[int]:
    """Seats with the highest total strength among the figures' owners (ties all win).

    `owners` has one entry per figure; strength 1 each unless given. Nobody wins when the best
    total is 0.
    """
    totals: dict[int, int] = {}
    for index, owner in enumerate(owners):
        totals[owner] = totals.get(owner, 0) + (1 if strengths is None else strengths[index])
    if not totals:
        return []
    best = max(totals.values())
    if best <= 0:
        return []
    return sorted(seat for seat, total in totals.items() if total == best)
