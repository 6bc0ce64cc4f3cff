"""What a search's playouts are worth to each seat: leads in points turned into returns.

Kept apart from the search itself (agents/mcts.py) because hints and analyses read the same
leads (`lead`) that the search backs up as returns (`soft_returns`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def lead(values: Sequence[float], seat: int) -> float:
    """A seat's lead in points over the best other seat (its own value when it plays alone)."""
    others = [v for i, v in enumerate(values) if i != seat]
    return values[seat] - max(others) if others else values[seat]


OBJECTIVES = ("mean", "first")


def soft_returns(values: list[float], scale: float,
                 base: list[float] | None = None, objective: str = "mean") -> list[float]:
    """Heuristic values turned into returns in [-1, 1]: each pairwise lead, measured from the
    lead at the root (`base`) when given, through tanh(lead / scale), averaged.

    Measuring from the root matters: a search only compares positions reachable from the root,
    and once a game is lopsided (a 30-point lead) absolute leads all saturate the tanh and
    every move looks the same.

    With `objective="first"` a seat's return is its lead over the best other seat instead
    (measured from that lead at the root): with three or more players only finishing first
    wins, and points taken from the leading rival are worth more than points taken from the
    last. With two players both objectives are the same."""
    n = len(values)
    if objective == "first" and n > 2:
        leads = [lead(values, seat) for seat in range(n)]
        if base is not None:
            leads = [now - lead(base, seat) for seat, now in enumerate(leads)]
        return [math.tanh(x / scale) for x in leads]
    if base is not None:
        values = [v - b for v, b in zip(values, base)]
    if n == 1:
        return [math.tanh(values[0] / (4 * scale))]
    return [sum(math.tanh((values[i] - values[j]) / scale) for j in range(n) if j != i) / (n - 1)
            for i in range(n)]
