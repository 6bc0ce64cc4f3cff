"""HeroCard: Rise of the Shogun, registered as "shogun": heroes, castles, missions, shrines and
the HeroCard duel system (`boardwright.duel`) on a map of feudal Japan, for 2 to 4 players.

The content (map, hero decks, missions, treasures) ships as data files with their loaders;
`game.py` and `state.py` run the rules of play.
"""

from boardwright.core.registry import register
from boardwright.games.shogun.game import ShogunGame
from boardwright.games.shogun.state import ShogunState

register("shogun", ShogunGame)

__all__ = ["ShogunGame", "ShogunState"]
