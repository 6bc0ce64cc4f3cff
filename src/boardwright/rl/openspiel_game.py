"""The pyspiel classes of each boardwright game: a `pyspiel.Game` and `pyspiel.State` made per
game name, the observer OpenSpiel reads tensors and strings through, and `register`, which
registers every available game with pyspiel (see `boardwright.rl.openspiel` for what they
do)."""

from __future__ import annotations

import json
import random
import warnings
from typing import Any

import numpy as np
import pyspiel

import boardwright as bw
from boardwright.core.errors import BoardwrightError, IllegalActionError, InvalidOptionError
from boardwright.core.game import Game
from boardwright.core.inputs import short_repr
from boardwright.rl.openspiel_params import (
    encode_options, game_type, parse_options, parse_players, short_name, spec_of,
)
from boardwright.rl.openspiel_positions import action_for_id, legal_action_ids
from boardwright.rl.openspiel_shared import Shared, shared_for

#: The module the classes are found in by pickle (and which users import): it gives them from
#: `CLASSES`, which `make_game_class` fills.
PUBLIC_MODULE = "boardwright.rl.openspiel"
#: The classes made so far, by name (`BoardwrightQueensGame`, `BoardwrightQueensState`, ...).
CLASSES: dict[str, type] = {}


def make_game_class(name: str) -> tuple[Any, type]:
    """The game type and the `pyspiel.Game` class of game `name` (its `State` class made
    with it)."""
    kind_of_game = game_type(name)

    class BoardwrightGame(pyspiel.Game):
        def __init__(self, params: dict | None = None) -> None:
            params = dict(params or {})
            players = parse_players(name, params.get("players", 2))
            options_text = encode_options(parse_options(params.get("options", "")))
            seed = params.get("seed", 0)
            if type(seed) is not int or seed < 0:
                raise InvalidOptionError(f"seed must be a whole number >= 0, not "
                                         f"{short_repr(seed)}")
            engine = params.get("engine", "")
            if not isinstance(engine, str):
                raise InvalidOptionError(f"engine must be a string, not {short_repr(engine)}")
            # the engine by name, so that a change of the default makes another shared game
            shared = shared_for(name, players, options_text, seed,
                                engine or bw.available_engines(name)[0])
            bw_game = shared.game
            max_length = bw_game.max_decisions()
            if max_length is None:
                raise InvalidOptionError(f"{name} with these options sets no bound on the "
                                         "length of a game")
            info = pyspiel.GameInfo(
                num_distinct_actions=shared.space.size,
                max_chance_outcomes=bw_game.chance_outcome_count,
                num_players=players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=max_length,
            )
            kept = {"players": players, "options": options_text}
            if spec_of(name).seeded:
                kept["seed"] = seed
            if engine:
                kept["engine"] = engine
            super().__init__(kind_of_game, info, kept)
            self._shared = shared

        def new_initial_state(self) -> BoardwrightState:
            return BoardwrightState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
            return Observer(self._shared, perfect_recall=bool(
                iig_obs_type is not None and iig_obs_type.perfect_recall))

        @property
        def bw_game(self) -> Game:
            """The boardwright game the states play."""
            return self._shared.game

    class BoardwrightState(pyspiel.State):
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self._pos = game._shared.new_position()

        @property
        def bw_state(self) -> Any:
            """The underlying boardwright state: a native chance-mode Carcassonne state
            (`new_chance_game(native=True)`) on the compiled engine, else an
            `ExplicitChanceState`."""
            return self._pos.state

        def current_player(self) -> int:
            return self._pos.player()

        def _legal_actions(self, player: int) -> list[int]:
            position = self._pos
            if player != position.player() or player < 0:
                return []
            return legal_action_ids(position)

        # `is_chance_node` and `legal_actions` answer Python callers here, as OpenSpiel's
        # `State` does, without its round trips from C++ back into this class (a few
        # microseconds each, several per call, at every step); C++ callers get the same
        # answers through `current_player`, `_legal_actions` and `chance_outcomes`.

        def is_chance_node(self) -> bool:
            return self._pos.player() == pyspiel.PlayerId.CHANCE

        def legal_actions(self, player: Any = None) -> list[int]:
            """The legal actions of `player` (default: the player to move): the chance
            outcomes at a chance node, none for a seat not to move or at the end."""
            position = self._pos
            current = position.player()
            if current == pyspiel.PlayerId.TERMINAL:
                return []
            if current == pyspiel.PlayerId.CHANCE:
                return [outcome for outcome, _ in position.state.chance_outcomes()]
            if player is None or player == current:
                return legal_action_ids(position)
            if type(player) is not int or player < 0:
                raise IllegalActionError(f"no seat {short_repr(player)} has legal actions")
            return []

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return self._pos.state.chance_outcomes()

        def _apply_action(self, action: int) -> None:
            self._pos.apply(action)

        def _action_to_string(self, player: int, action: int) -> str:
            shared, state = self._pos.shared, self._pos.state
            game = shared.game
            if player == pyspiel.PlayerId.CHANCE:
                return game.chance_outcome_text(int(action))
            # `player` reads it; the action is the one the seat to move would take (an id that
            # names no legal action here is described by its meaning in the space alone)
            try:
                chosen = action_for_id(self._pos, action)
            except BoardwrightError:
                return shared.space.describe(int(action))
            return game.describe_action(chosen, player, state.current_player)

        def is_terminal(self) -> bool:
            return self._pos.state.is_terminal

        def returns(self) -> list[float]:
            return [float(r) for r in self._pos.state.returns()]

        def observation_tensor(self, player: Any = None) -> np.ndarray:
            """`player`'s observation (default: the player to move) as a new float32 array of
            `observation_tensor_shape()`, filled directly: the values OpenSpiel's C++ side
            reads through the observer, without a list of Python floats."""
            shared = self._pos.shared
            seat = self._pos.player() if player is None else player
            if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) \
                    or not 0 <= seat < shared.players:
                raise IllegalActionError(f"no seat {short_repr(seat)} observes this game "
                                         f"(seats 0 to {shared.players - 1})")
            out = np.empty(shared.tensor_shape, np.float32)
            shared.observe(out, self._pos, int(seat))
            return out

        def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
            """A state of `player_id`'s information set, hidden information re-dealt by the
            game's `determinize` (seeded from the sampler). Its history is this state's; its
            serialization replays that history, i.e. gives this state, not the sample."""
            seed = int(probability_sampler() * 2**53)
            other = self.clone()
            other._pos.state = self._pos.state.determinize(int(player_id), random.Random(seed))
            return other

        def __str__(self) -> str:
            view = self._pos.view(None)
            if view is None:
                return f"{name}: set-up chance node"
            view.pop("log", None)
            return json.dumps(view, sort_keys=True, separators=(",", ":"))

    def max_chance_nodes_in_history(self: Any) -> int:
        """The game's bound on its chance nodes; Shogun derives none (a step may draw and
        discard at random as often as the cards it plays say), so it refuses rather than
        let OpenSpiel fall back on `max_game_length`, which is no bound on chance nodes."""
        bound = self._shared.game.max_chance_events()
        if bound is None:
            raise InvalidOptionError(f"{name} sets no bound on its chance nodes")
        return int(bound)

    BoardwrightGame.max_chance_nodes_in_history = max_chance_nodes_in_history

    # Module-level names of the public module, so that pickle finds the classes.
    for cls, kind in ((BoardwrightGame, "Game"), (BoardwrightState, "State")):
        cls.__name__ = cls.__qualname__ = f"Boardwright{name.title()}{kind}"
        cls.__module__ = PUBLIC_MODULE
        CLASSES[cls.__name__] = cls
    return kind_of_game, BoardwrightGame



class Observer:
    """PyObserver (OpenSpiel's observer protocol for Python games): `tensor`, a flat float32
    buffer written in place by `set_from`, and `dict`, its one piece "observation" in the
    observation's shape (Carcassonne: `(C + 1, 31, 31)`), which is what OpenSpiel's C++ side
    copies and reports as `observation_tensor_shape()`. Strings: see the docstring of
    `boardwright.rl.openspiel` (`perfect_recall`: the information-state string)."""

    def __init__(self, shared: Shared, perfect_recall: bool = False) -> None:
        self.shared = shared
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(int(np.prod(shared.tensor_shape)), np.float32)
        self._shaped = self.tensor.reshape(shared.tensor_shape)
        self.dict = {"observation": self._shaped}

    def set_from(self, state: Any, player: int) -> None:
        self.shared.observe(self._shaped, state._pos, player)

    def string_from(self, state: Any, player: int) -> str:
        if self.perfect_recall:
            return self.shared.information_state_string(state._pos, player)
        return self.shared.observation_string(state._pos, player)



def register() -> None:
    """Register every available game with pyspiel, the built-in ones and the installed plugins
    (once; importing `boardwright.rl.openspiel` does it). A plugin that does not load is left
    out with a warning; the others are registered."""
    registered = set(pyspiel.registered_names())
    for name in bw.available_games():
        if short_name(name) in registered:
            continue
        try:
            kind_of_game, cls = make_game_class(name)
        except BoardwrightError as exc:
            warnings.warn(f"{name} is not registered with OpenSpiel: {exc}", stacklevel=2)
            continue
        pyspiel.register_game(kind_of_game, cls)

