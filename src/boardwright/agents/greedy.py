"""The greedy agent: the best action by the game's heuristic, one turn ahead.

It looks at every legal action and, while the same player still has to decide afterwards (a
Carcassonne turn is "place the tile" then "deploy a figure"), at every follow-up too, up to
`depth` decisions. Positions are evaluated with `game.heuristic` as "my value minus the best
opponent's". It never looks at hidden information: it searches a determinized copy of the
state (the draw-pile order resampled), so a chance action is judged on a guess, not the truth.
"""

from __future__ import annotations

import random

from boardwright.core.actions import Action
from boardwright.core.game import State


def relative_value(values: list[float], seat: int) -> float:
    """A seat's heuristic value minus the best of the others' (its own value alone if solo)."""
    if len(values) == 1:
        return values[0]
    return values[seat] - max(v for i, v in enumerate(values) if i != seat)


def lookahead_value(state: State, seat: int, depth: int) -> float:
    """Best relative value `seat` can reach while it keeps deciding, up to `depth` decisions."""
    if depth > 0 and not state.is_terminal and state.current_player == seat:
        best = float("-inf")
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            best = max(best, lookahead_value(child, seat, depth - 1))
        return best
    return relative_value(state.game.heuristic(state), seat)


def greedy_action(state: State, actions: list[Action], rng: random.Random,
                  depth: int = 2) -> Action:
    """The action with the best lookahead value for the player to move in `state` (a position
    the caller may read in full: a determinization); ties broken by `rng`."""
    seat = state.current_player
    best: list[Action] = []
    best_value = float("-inf")
    for action in actions:
        child = state.clone()
        child.apply(action)
        value = lookahead_value(child, seat, depth - 1)
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return rng.choice(best)


class GreedyAgent:
    """One-turn lookahead with the game heuristic; ties broken by a seeded generator."""

    name = "greedy"

    def __init__(self, seed: int | None = None, depth: int = 2) -> None:
        self.rng = random.Random(seed)
        self.depth = depth

    def act(self, state: State) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        root = state.determinize(state.current_player, self.rng)
        return greedy_action(root, actions, self.rng, self.depth)
