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

from dataclasses import dataclass


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
