"""Named baselines: earlier bots kept as they were, so that a stronger bot can be measured
against them ("beats mcts-v1 in 75% of games").

`mcts-v1` is the search of the first published strength figures (77.5% against greedy with
Abbey & Mayor): MCTS at 0.25 s per decision with Carcassonne's settings of that time (a paired
root over the four best-prior moves, greedy playouts to the searcher's next turn, leaves judged by
the evaluation of that time, which Carcassonne keeps as its "v1" evaluation in
data/evaluation-v1.toml), searching on the Python engine whatever engine the game runs on.
Its settings are written out here rather than read from the game, so later changes to a game's
search defaults leave it alone; for the same reason a refitted evaluation goes in a new data file
and the game keeps the earlier one by name.
"""

from __future__ import annotations

from typing import Any

from boardwright.agents.mcts import MCTSAgent
from boardwright.core.actions import Action
from boardwright.core.game import State

V1_SETTINGS: dict[str, Any] = {
    "seconds": 0.25, "exploration": 0.7, "rollout_plies": 0, "value_scale": 12.0,
    "prior_weight": 1.0, "widening": 2.0, "max_nodes": 200_000, "ordered_expansion": 12,
    "root_widening": 0.15, "game_rollouts": True, "centered": True, "reuse": True,
    "turn_leaves": True, "paired": 4, "greedy_playouts": True, "horizon": 1,
}


class MCTSv1Agent(MCTSAgent):
    """The first published MCTS bot: fixed settings, the Python engine."""

    name = "mcts-v1"

    def __init__(self, seed: int | None = None) -> None:
        settings = dict(V1_SETTINGS)
        super().__init__(seed=seed, iterations=None, seconds=settings.pop("seconds"), **settings)

    def evaluate(self, state: State) -> list[float]:
        """The "v1" evaluation where the game has refitted its evaluation since, else the
        game's only one."""
        game = state.game
        version = "v1" if "v1" in game.evaluation_versions else "current"
        return game.evaluation_of(version, state)

    def adopt(self, game: Any) -> None:
        """Every setting is given: nothing is taken from the game."""
        self._game = game

    def act(self, state: State) -> Action:
        to_python = getattr(state, "to_python", None)
        if to_python is None:
            return super().act(state)
        # A position of a compiled engine: searched on its Python twin. Actions are values, so
        # the choice is legal on the original position as it is.
        return super().act(to_python())
