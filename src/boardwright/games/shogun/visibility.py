"""What other seats may know of a Rise of the Shogun action.

Treasures are hidden from the other players (SHO-DUEL-26, SHO-SCORE-06): which one a player
keeps after a search (SHO-SHRINE-05), returns over the limit (SHO-SHRINE-08), discards
(SHO-SHRINE-09) or gives up to defy a decree (SHO-EMP-05) is known to that player alone. Other
seats (and spectators) learn that it happened, not which treasure: the engine's own log records
these events without the treasure, and `ShogunGame.public_action` leaves the field out.

Everything else a player does is public: cards played, discarded or picked from a hand go to
discard piles everyone sees (SHO-DUEL-26), used treasures are revealed. A new secret decision is
one more entry in SECRET_ACTIONS.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Secret:
    """The fields of an action type only the acting seat may see, and the text the others
    read instead of the whole one."""

    fields: tuple[str, ...]
    text: str


SECRET_ACTIONS: dict[str, Secret] = {
    "keep_treasure": Secret(("treasure",), "keep a treasure"),
    "return_treasure": Secret(("treasure",), "return a treasure"),
    "discard_treasure": Secret(("treasure",), "discard a treasure"),
    "defy": Secret(("treasure",), "defy the decree, discarding a treasure"),
}


def hidden_fingerprint(state: Any) -> tuple[Any, ...] | None:
    """Everything of a position that is random or hidden from some seat: the random source,
    every hand and draw pile, the treasures and missions held, the treasure and mission decks,
    the treasures drawn for a choice. A step that leaves it unchanged drew nothing and moved
    nothing out of (or into) a hidden place, so it showed no one anything. None when the
    position cannot be judged this way: a state in chance mode (its random source is a
    script), or a duel or an out-of-turn play under way (their choices are made from hands)."""
    if type(state.rng) is not random.Random or state.duel is not None \
            or state.outside is not None:
        return None
    table = state.table
    hands = () if table is None else tuple(
        (tuple(sorted(cards.hand)), tuple(cards.draw_pile)) for cards in table.players)
    pending = tuple((step[0], step[1], repr(step[2:])) for step in state.pending)
    return (state.rng.getstate(), hands, tuple(tuple(sorted(t)) for t in state.treasures),
            tuple(state.mission), tuple(state.treasure_deck), tuple(state.mission_deck),
            pending)
