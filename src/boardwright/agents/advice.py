"""What the bot would play here, for a person: its best moves with their expected margins.

A hint is the search's paired comparison made readable: the most promising moves by the greedy
prior are played out on the same samples (the same hidden tiles, the same replies), each to the
searcher's next turn, where the game's evaluation gives every seat's expected final score. A
move's expected margin is the mean, over those samples, of the mover's lead over the best other
seat (its own score in a one-player game). The moves come back best first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boardwright.agents.mcts import MCTSAgent
from boardwright.core.errors import InvalidOptionError
from boardwright.core.game import State


@dataclass(frozen=True)
class Suggestion:
    action: Any
    margin: float  # the mover's expected lead, in points, after this move
    samples: int  # playouts behind the figure


def suggest(state: State, count: int = 3, seconds: float | None = 1.0,
            iterations: int | None = None, candidates: int = 8,
            seed: int | None = None) -> list[Suggestion]:
    """The `count` best moves of the player to move, with their expected margins.

    `candidates` moves (the best by prior) are compared on `seconds` of search, or on
    `iterations` playouts (reproducible with a seed)."""
    if state.is_terminal:
        raise InvalidOptionError("the game is over: there is no move to suggest")
    if count < 1 or candidates < 1:
        raise InvalidOptionError("count and candidates must be at least 1")
    actions = state.legal_actions()
    if iterations is not None:
        seconds = None
    # No race: the moves shown are compared on the same samples, each margin over all of them.
    agent = MCTSAgent(seed=seed, iterations=iterations, seconds=seconds,
                      paired=max(count, candidates), reuse=False, workers=1, race=0.0)
    agent.adopt(state.game)
    agent.min_candidates = count
    agent.search(state, actions)
    ranked = sorted(agent.margins.items(), key=lambda item: -item[1][0] / item[1][1])
    return [Suggestion(action, total / samples, samples)
            for action, (total, samples) in ranked[:count]]
