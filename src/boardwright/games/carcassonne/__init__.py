"""Carcassonne (2nd edition) with the Abbey & Mayor expansion, registered as "carcassonne"."""

from boardwright.core.registry import register
from boardwright.games.carcassonne.actions import Deploy, Draw, Pass, Place, PlaceAbbey
from boardwright.games.carcassonne.game import CarcassonneGame
from boardwright.games.carcassonne.state import CarcassonneState

register("carcassonne", CarcassonneGame)

__all__ = ["CarcassonneGame", "CarcassonneState", "Deploy", "Draw", "Pass", "Place", "PlaceAbbey"]
