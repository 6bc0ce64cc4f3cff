"""OpenSpiel adapter: each boardwright game registered as a Python game with `pyspiel`.

Importing this module registers `python_boardwright_carcassonne`, `python_boardwright_queens`,
`python_boardwright_shogun` and `python_boardwright_<name>` for every installed game plugin:

    import pyspiel, boardwright.rl.openspiel
    game = pyspiel.load_game("python_boardwright_queens", {"players": 2, "seed": 7})

Parameters: `players` (int, default 2), `seed` (int, default 0: seeds the stream of game seeds
handed to successive `new_initial_state()` calls) and `options` (the game options as a JSON
string; Shogun defaults to `{"max_rounds": 30}`).

Game type: SEQUENTIAL, ZERO_SUM (rank-based `returns()`), TERMINAL rewards. Chance is
**SAMPLED_STOCHASTIC**: there are no chance nodes; a boardwright state draws all its chance from
the seed fixed when it is created (tile order, decks) and resolves it inside `apply`. So a clone
shares the future draws of its original — search algorithms such as MCTS therefore plan with
knowledge of the coming draws (they "see" the shuffled deck; use `determinize` outside OpenSpiel
for fair search). Information is IMPERFECT_INFORMATION for Carcassonne (draw order) and Shogun
(hands, decks, treasures, missions), PERFECT_INFORMATION for Queens. Action ids are those of the
game's learning action space (`boardwright.rl.action_spaces.action_space_for`; Queens and Shogun:
their stable ids; Carcassonne: `boardwright.games.carcassonne.learning_space`), so
`num_distinct_actions` is its `size`; an id's meaning may depend on the position it is played
in. Observations: the tensor is
the seat's encoder vector (`boardwright.rl.observations`), the string the JSON of
`state.view(seat)` without its log; the information-state string (perfect recall) is that
string followed by the ids of the seat's own actions so far.
"""

from __future__ import annotations

import json
import random
import warnings
from typing import Any

import numpy as np
import pyspiel

import boardwright as bw
from boardwright.core.errors import BoardwrightError
from boardwright.rl import make_game
from boardwright.rl.action_spaces import action_space_for
from boardwright.rl.observations import encoder_for

# The built-in games. Any other available game (an installed plugin) is registered too: its most
# players found by trying 2 to 8, imperfect information unless its Game says
# `perfect_information = True`, and its Game's `max_game_length` (decisions in a game at most)
# or DEFAULT_MAX_LENGTH.
MAX_PLAYERS = {"carcassonne": 5, "queens": 4, "shogun": 4}
MAX_LENGTH = {"carcassonne": 1000, "queens": 2000, "shogun": 20000}
PERFECT = {"queens"}
DEFAULT_MAX_LENGTH = 10_000


def _short_name(name: str) -> str:
    return f"python_boardwright_{name}"


def _plugin_facts(name: str) -> tuple[int, bool]:
    """A plugin game's most players (tried from 2 to 8) and whether it has perfect information;
    PluginError when it does not load, InvalidOptionError when it has no 2-player-or-more
    configuration."""
    most, perfect = 0, False
    for players in range(2, 9):
        try:
            game = bw.load(name, players)
        except bw.PluginError:
            raise
        except bw.BoardwrightError:
            continue
        most, perfect = players, bool(getattr(game, "perfect_information", False))
    if not most:
        raise bw.InvalidOptionError(f"{name} cannot be played by 2 to 8 players")
    return most, perfect


def _game_type(name: str) -> Any:
    if name in MAX_PLAYERS:
        most, perfect = MAX_PLAYERS[name], name in PERFECT
    else:
        most, perfect = _plugin_facts(name)
    info = (pyspiel.GameType.Information.PERFECT_INFORMATION if perfect
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION)
    return pyspiel.GameType(
        short_name=_short_name(name),
        long_name=f"Python boardwright {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=info,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=most,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 2, "seed": 0, "options": ""},
    )


class _Shared:
    """Holds the boardwright game and encoder; copied by reference when OpenSpiel clones."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.encoder = encoder_for(game)
        self.space = action_space_for(game)

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self


class _Position:
    """Holds a boardwright state; deep copies use its cheap `clone()`."""

    def __init__(self, state: Any) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict) -> _Position:
        return _Position(self.state.clone())


def _make_game_class(name: str) -> type:
    game_type = _game_type(name)

    class BoardwrightGame(pyspiel.Game):
        def __init__(self, params: dict | None = None) -> None:
            params = dict(params or {})
            players = int(params.get("players", 2))
            options = json.loads(params.get("options") or "{}")
            bw_game = make_game(name, players, options)
            info = pyspiel.GameInfo(
                num_distinct_actions=action_space_for(bw_game).size,
                max_chance_outcomes=0,
                num_players=players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=int(getattr(bw_game, "max_game_length",
                                            MAX_LENGTH.get(name, DEFAULT_MAX_LENGTH))),
            )
            super().__init__(game_type, info, params)
            self._shared = _Shared(bw_game)
            self._seeds = random.Random(int(params.get("seed", 0)))

        def new_initial_state(self) -> BoardwrightState:
            return BoardwrightState(self, self._seeds.randrange(2**62))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
            return Observer(self._shared, perfect_recall=bool(
                iig_obs_type is not None and iig_obs_type.perfect_recall))

    class BoardwrightState(pyspiel.State):
        def __init__(self, game: Any, seed: int) -> None:
            super().__init__(game)
            self._shared = game._shared
            self._pos = _Position(self._shared.game.new_game(seed))

        @property
        def bw_state(self) -> Any:
            """The underlying boardwright state."""
            return self._pos.state

        def current_player(self) -> int:
            state = self._pos.state
            if state.is_terminal:
                return pyspiel.PlayerId.TERMINAL
            return state.current_player

        def _legal_actions(self, player: int) -> list[int]:
            state = self._pos.state
            if state.is_terminal or player != state.current_player:
                return []
            return self._shared.space.legal(state).ids.tolist()

        def _apply_action(self, action: int) -> None:
            state = self._pos.state
            state.apply(self._shared.space.legal(state).action(int(action)))

        def _action_to_string(self, player: int, action: int) -> str:
            # `player` reads it; the action is the one the seat to move would take (an id that
            # is not legal here is described by its meaning in the space alone)
            game, space, state = self._shared.game, self._shared.space, self._pos.state
            try:
                chosen = space.legal(state).action(int(action))
            except BoardwrightError:
                return space.describe(int(action))
            return game.describe_action(chosen, player, state.current_player)

        def is_terminal(self) -> bool:
            return self._pos.state.is_terminal

        def returns(self) -> list[float]:
            return [float(r) for r in self._pos.state.returns()]

        def __str__(self) -> str:
            state = self._pos.state
            return f"{name} turn scores={state.scores} to_move={state.current_player}"

    BoardwrightGame.__name__ = f"Boardwright{name.title()}Game"
    BoardwrightState.__name__ = f"Boardwright{name.title()}State"
    return game_type, BoardwrightGame


class Observer:
    """PyObserver: tensor = the seat's encoder vector; string = its view as JSON."""

    def __init__(self, shared: _Shared, perfect_recall: bool = False) -> None:
        self.shared = shared
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(shared.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: Any, player: int) -> None:
        self.tensor[:] = self.shared.encoder.encode(state.bw_state.view(player), player)

    def string_from(self, state: Any, player: int) -> str:
        view = state.bw_state.view(player)
        view.pop("log", None)
        text = json.dumps(view, sort_keys=True, separators=(",", ":"))
        if self.perfect_recall:
            mine = [a.action for a in state.full_history() if a.player == player]
            text += "|" + ",".join(map(str, mine))
        return text


def register() -> None:
    """Register every available game: the built-in ones and the installed plugins (a plugin
    that does not load is left out with a warning; the others are registered)."""
    registered = set(pyspiel.registered_names())
    for name in bw.available_games():
        if _short_name(name) in registered:
            continue
        try:
            game_type, cls = _make_game_class(name)
        except bw.BoardwrightError as exc:
            warnings.warn(f"{name} is not registered with OpenSpiel: {exc}", stacklevel=2)
            continue
        pyspiel.register_game(game_type, cls)


register()
