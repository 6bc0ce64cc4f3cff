"""Carcassonne: the base game (2nd edition), registered as "carcassonne"."""

from boardwright.core.registry import register
from boardwright.games.carcassonne.actions import Deploy, Pass, Place
from boardwright.games.carcassonne.game import CarcassonneGame
from boardwright.games.carcassonne.state import CarcassonneState

register("carcassonne", CarcassonneGame)

__all__ = ["CarcassonneGame", "CarcassonneState", "Deploy", "Pass", "Place"]
