"""Queens & Princes, registered as "queens": a hex-board war game for 2 to 4 players."""

from boardwright.core.registry import register
from boardwright.games.queens.actions import Found, Joint, Move, Pass, Sow
from boardwright.games.queens.game import QueensGame
from boardwright.games.queens.state import QueensState

register("queens", QueensGame)

__all__ = ["Found", "Joint", "Move", "Pass", "QueensGame", "QueensState", "Sow"]
