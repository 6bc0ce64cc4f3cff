"""Who looks at a game: the `Viewer` a view or an action's text is made for (a seat, None
for a spectator, or `OMNISCIENT`). Kept apart so that every layer can name a viewer without
importing the rules' base classes."""

from __future__ import annotations

from typing import Final


class _Omniscient:
    """The viewer type of `OMNISCIENT` (one instance)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "OMNISCIENT"


# A viewer who may see every field of every action: the reader of a finished game's record
# (a record carries its seed, so it holds every secret anyway). Seats are ints, spectators None.
OMNISCIENT: Final = _Omniscient()
Viewer = int | None | _Omniscient
