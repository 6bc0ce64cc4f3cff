"""How a search asks a game to play a position on (`Game.playout`): the playout policies and
`PlayoutStop`, when a playout ends. Data only, shared by the games and the searches."""

from __future__ import annotations

from dataclasses import dataclass


PLAYOUT_POLICIES = ("random", "game", "greedy")


@dataclass(frozen=True)
class PlayoutStop:
    """When a search's playout stops: after `min_plies` at least; then, with `turn_leaves`,
    when seat `me` is about to begin a turn for the `turns`-th time (or after `max_plies`); at
    the end of the game in any case."""

    me: int
    min_plies: int = 0
    turn_leaves: bool = True
    max_plies: int = 200
    turns: int = 1
