"""Carcassonne's search settings per player count (`CarcassonneGame.search_defaults`).

Why these: a paired root over the best moves, played out greedily a few turns on, leaves judged
by the game's current evaluation (the fitted linear weights), is the setting that measured
strongest (`benchmarks/match.py`; figures in docs/bots.md#strength).

With 2 players the eight best moves by prior are each played out to the searcher's fourth turn
from now (at the next turn the same search won about three games in four against greedy; three
turns on, nearly every game at the same time per move), those that clearly trail dropped
(`race`) so the playouts go to the moves still in question. Against the four unraced moves of
`mcts-v2`, played out to the third turn, this beat the bar of two games in three on equal
playouts and in equal time, where the third turn won about 61%.

With more players only finishing first wins, and every other player's turn is a greedy turn of
the playout too. So the root compares the six best moves, stops sampling those that clearly
trail (`race`), and values a playout by the searcher's lead over its best rival
(`objective="first"`); playouts run to the third turn with 3 or 4 players (twelve greedy turns
with 4) and to the second with 5 or 6. Against three greedy bots this came first in 64.6% of
48 games at 200 playouts a decision, ahead of every variant screened with it. Only 2 and 4
players are measured.
"""

from __future__ import annotations

from typing import Any


def search_horizon(players: int) -> int:
    """The turns of the searcher a playout runs through: 4 with 2 players, 3 with 3 or 4, 2 with
    5 or 6, so a playout is at most about twelve greedy turns long. With 2 players the fourth
    turn won more games against `mcts-v2` than the third, both on the same playouts and in the
    same quarter second."""
    return 4 if players == 2 else 3 if players <= 4 else 2


def search_settings(players: int) -> dict[str, Any]:
    """Carcassonne's search defaults for `players` players (the reasons: this module's text)."""
    settings: dict[str, Any] = {"paired": 8, "race": 2.0, "greedy_playouts": True,
                                "horizon": search_horizon(players)}
    if players > 2:
        settings.update(paired=6, objective="first")
    return settings
