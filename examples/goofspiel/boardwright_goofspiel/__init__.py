"""Goofspiel for boardwright: a game (and an agent) of one's own, found through entry points.

Installing this package declares `goofspiel` in the `boardwright.games` entry-point group and
`matcher` in `boardwright.agents` (see pyproject.toml); boardwright imports it the first time
either name is used. Nothing in boardwright itself names this game.
"""

from boardwright_goofspiel.game import Bid, GoofspielGame, GoofspielState

__all__ = ["Bid", "GoofspielGame", "GoofspielState"]
