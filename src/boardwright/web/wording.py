"""The words of a move at the web table: the sentence each viewer reads for an action.

The table words moves with the terminal's renderer for the game (render/), falling back on the
engine's own text; a game that words its own moves in a position (`describe_in`) is asked
first. Everything that words a move for the table (the live game, the last action, the legal
moves' texts, hints, replays) goes through `MoveWords`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import boardwright as bw

# describe(state, action, viewer) -> the action's text for that viewer
Describe = Callable[[Any, Any, bw.Viewer], str]


def describe_with(renderer: Any, game: bw.Game, state: Any, action: Any,
                  viewer: bw.Viewer) -> str:
    """The renderer's text of `action` for `viewer`; a renderer gap must not lose the move, so
    the engine's own text (redacted the same way) stands in. A game that words its own moves
    in a position (`describe_in(state, action, viewer)`, e.g. Rise of the Shogun) is asked
    first: the table then reads the same sentences as every other front end of that game."""
    words = getattr(game, "describe_in", None)
    if words is not None:
        try:
            return words(state, action, viewer)
        except Exception:  # noqa: BLE001 - fall back on the renderer's text
            pass
    try:
        return renderer.describe(state, action, viewer)
    except Exception:  # noqa: BLE001
        return game.describe_action(action, viewer, state.current_player)


def table_renderer(game: bw.Game) -> Any:
    """The renderer whose `describe` words the game's moves (the generic one when the game's
    own cannot be made)."""
    from boardwright.render import renderer_for

    try:
        return renderer_for(game, None)
    except Exception:  # noqa: BLE001 - descriptions fall back to the engine's
        from boardwright.render import GenericRenderer

        return GenericRenderer(game)


class MoveWords:
    """The words of one game's moves: `words(state, action, viewer)` is the action's text for
    that viewer in `state` (the position before the action)."""

    def __init__(self, game: bw.Game) -> None:
        self.game = game
        self.renderer = table_renderer(game)

    def __call__(self, state: Any, action: bw.Action, viewer: bw.Viewer) -> str:
        return describe_with(self.renderer, self.game, state, action, viewer)
