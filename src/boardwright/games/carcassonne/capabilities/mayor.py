"""The mayor (Abbey & Mayor): a follower for cities whose strength is the city's pennants."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.games.carcassonne.capabilities.base import Capability
from boardwright.games.carcassonne.features import FeatureGraph
from boardwright.games.carcassonne.figures import FigureRule
from boardwright.games.carcassonne.tiles import CITY

if TYPE_CHECKING:
    from boardwright.games.carcassonne.state import CarcassonneState


def pennant_strength(graph: FeatureGraph, root: int) -> int:
    """A mayor counts as many followers as its city has pennants (0 without any)."""
    return graph.pennants[root]


MAYOR = FigureRule("mayor", frozenset((CITY,)), pennant_strength, constant_strength=False)


class MayorCapability(Capability):
    name = "mayor"

    def __init__(self, count: int, lies_flat: bool) -> None:
        self.count = count
        self.lies_flat = lies_flat

    def supply(self) -> dict[str, int]:
        return {"mayor": self.count}

    def figures(self) -> list[FigureRule]:
        return [MAYOR]

    def view(self, state: CarcassonneState, view: dict[str, Any]) -> None:
        # The unofficial "mayor lies flat" option changes only how a mayor is shown.
        for figure in view["followers"]:
            if figure["figure"] == "mayor":
                figure["lying"] = self.lies_flat
