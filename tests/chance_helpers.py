"""What a test of Carcassonne's explicit chance expects at a draw."""

from __future__ import annotations

from collections import Counter
from typing import Any


def tiles_left(state: Any) -> Counter:
    """The tiles an explicit-chance Carcassonne state may draw next, by name and count: the
    position's pile less the tiles drawn (and discarded as unplaceable) since its last
    decision. A native chance-mode state (no `steps`) holds the draw under way: its pile."""
    if not hasattr(state, "steps"):
        return +Counter(state.pile)
    left = Counter(state.inner.pile)
    for kind, outcome, _ in reversed(state.steps):
        if kind != "chance":
            break
        left[state.game._tile_names[outcome]] -= 1
    return +left
