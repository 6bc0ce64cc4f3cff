"""The words of a move at the web table: the sentence each viewer reads for an action.

The words are the game's own (`Game.describe`, each built-in game's `texts.py`), the same as
every other front end's; the game also decides what each viewer may read of a move. Everything
that words a move for the table (the live game, the last action, the legal moves' texts,
hints, replays) goes through `MoveWords`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import boardwright as bw

log = logging.getLogger("boardwright.web")

# describe(state, action, viewer) -> the action's text for that viewer
Describe = Callable[[Any, Any, bw.Viewer], str]


def describe_with(game: bw.Game, state: Any, action: Any, viewer: bw.Viewer) -> str:
    """The game's words for `action` as `viewer` may read them (`Game.describe`). A gap in a
    game's wording (a plug-in's) must not lose the move, so its plain text (redacted the same
    way) stands in."""
    try:
        return game.describe(state, action, viewer)
    except Exception:  # noqa: BLE001 - a plug-in's words must never cost the table a move
        log.exception("describing a move of %s failed", game.name)
        return game.describe_action(action, viewer, state.current_player)


class MoveWords:
    """The words of one game's moves: `words(state, action, viewer)` is the action's text for
    that viewer in `state` (the position before the action)."""

    def __init__(self, game: bw.Game) -> None:
        self.game = game

    def __call__(self, state: Any, action: bw.Action, viewer: bw.Viewer) -> str:
        return describe_with(self.game, state, action, viewer)
