"""Figures that occupy features: where each may stand and how strong it is in a majority.

The base game has one kind, the follower. Expansions add more (the mayor, the wagon) by
contributing FigureRule objects; the turn flow treats every rule the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from boardwright.games.carcassonne.features import FeatureGraph
from boardwright.games.carcassonne.tiles import CITY, FIELD, MONASTERY, ROAD


def _one(graph: FeatureGraph, root: int) -> int:
    return 1


@dataclass(frozen=True)
class FigureRule:
    """A kind of figure that is placed on a feature part and counts in majorities."""

    name: str
    kinds: frozenset[int]  # feature kinds it may be placed on
    strength: Callable[[FeatureGraph, int], int] = _one
    constant_strength: bool = True  # strength is always 1 (lets scoring skip the lookup)


FOLLOWER = FigureRule("follower", frozenset((CITY, ROAD, FIELD, MONASTERY)))
FOLLOWER_NO_FARMERS = FigureRule("follower", frozenset((CITY, ROAD, MONASTERY)))
