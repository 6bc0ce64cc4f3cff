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

`mcts-v2` is the bot of the second figures: MCTS at 0.25 s per decision with every game's search
defaults of that time written out (`V2_GAMES`; Carcassonne's depend on the player count: a
paired root over the four best-prior moves, greedy playouts to the searcher's third turn, with
more than two players the six best moves, a race and the lead over the best rival), leaves
judged by Carcassonne's learned evaluation of that time, which the game keeps as its "v2"
evaluation (data/evaluation-v2.toml and evaluation-v2-<N>p.toml, one per player count as the
current weights). It searches on the engine the game runs on: on the compiled engine its
playouts run in compiled code and judge by the "v2" weights the engine carries, so it plays as
fast as the bot of its time. A game it has no settings for (one from a plugin) gets that game's
own `search_defaults`, as `mcts` does: there is no earlier bot of such a game to keep.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
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

    def evaluation_version(self, game: Any) -> str:
        """The "v1" evaluation where the game has refitted its evaluation since, else the
        game's only one."""
        return "v1" if "v1" in game.evaluation_versions else "current"

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


# Every MCTSConfig setting as it was when mcts-v2 was kept (its defaults then, at 0.25 s).
V2_SETTINGS: dict[str, Any] = {
    "seconds": 0.25, "exploration": 0.7, "rollout_plies": 0, "value_scale": 12.0,
    "prior_weight": 1.0, "widening": 2.0, "max_nodes": 200_000, "ordered_expansion": 12,
    "workers": 1, "root_widening": 0.15, "game_rollouts": True, "centered": True, "reuse": True,
    "turn_leaves": True, "paired": 0, "greedy_playouts": False, "horizon": 1,
    "distinct_priors": True, "objective": "mean", "race": 0.0,
    "evaluation": "current",  # (its leaves are judged by "v2" all the same: evaluation_version)
}


def v2_carcassonne(players: int) -> dict[str, Any]:
    """Carcassonne's search defaults when mcts-v2 was kept (`search_settings` of that time)."""
    settings: dict[str, Any] = {"paired": 4, "greedy_playouts": True,
                                "horizon": 3 if players <= 4 else 2}
    if players > 2:
        settings.update(paired=6, race=2.0, objective="first")
    return settings


# Per game (by name), its search defaults when mcts-v2 was kept, for a number of players.
V2_GAMES: dict[str, Callable[[int], dict[str, Any]]] = {
    "carcassonne": v2_carcassonne,
    "queens": lambda players: {"paired": 8, "greedy_playouts": True, "horizon": 2,
                               "distinct_priors": False},
    "shogun": lambda players: {"turn_leaves": False},
}


class MCTSv2Agent(MCTSAgent):
    """The MCTS bot of the second figures: every game's settings of that time, Carcassonne's
    "v2" evaluation, the engine the game runs on.

    `iterations` (not reachable from the agent string, which takes no parameters) replaces the
    quarter second by a fixed budget, so that a test can play it reproducibly and fast."""

    name = "mcts-v2"

    def __init__(self, seed: int | None = None, *, iterations: int | None = None) -> None:
        settings = dict(V2_SETTINGS)
        seconds = settings.pop("seconds")
        super().__init__(seed=seed, iterations=iterations,
                         seconds=seconds if iterations is None else None, **settings)

    def adopt(self, game: Any) -> None:
        """The game's settings of that time (`V2_GAMES`); a game without them (a plugin's)
        brings its own `search_defaults`, as for `mcts`."""
        if game is self._game:
            return
        self._game = game
        frozen = V2_GAMES.get(game.name)
        own = frozen(game.num_players) if frozen is not None else dict(game.search_defaults)
        self.config = replace(self._given, **own)

    def evaluation_version(self, game: Any) -> str:
        """The "v2" evaluation where the game keeps one (Carcassonne), else the game's current
        one."""
        return "v2" if "v2" in game.evaluation_versions else "current"
