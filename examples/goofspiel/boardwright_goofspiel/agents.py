"""An agent for Goofspiel, declared as the `matcher` entry point of this package.

It plays the classic rule of thumb: bid the prize's own value (plus `offset`), or the nearest
card above it, or the lowest card when none is that high. Agent strings give it its parameter
as for the built-in agents: "matcher", "matcher:offset=1".
"""

from __future__ import annotations

from typing import Any

from boardwright.core.errors import InvalidOptionError


class MatchPrizeAgent:
    """Bids the card matching the prize (plus `offset`) when it can."""

    name = "matcher"
    # agent-string parameter -> type (or (constructor keyword, type)); `seed` is always accepted
    parameters = {"offset": int}

    def __init__(self, seed: int | None = None, offset: int = 0) -> None:
        self.offset = offset  # deterministic: the seed is accepted and not needed

    def act(self, state: Any) -> Any:
        if state.game.name != "goofspiel":
            raise InvalidOptionError(f"the matcher agent plays Goofspiel, not {state.game.name}")
        view = state.view(state.current_player)
        wanted = view["prize"] + self.offset
        hand = view["hand"]
        above = [card for card in hand if card >= wanted]
        card = min(above) if above else min(hand)
        return state.game.action_from_json({"type": "bid", "card": card})
