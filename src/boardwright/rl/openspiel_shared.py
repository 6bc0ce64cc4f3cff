"""The part of an OpenSpiel game that every state of it shares (and their clones): the
configured boardwright game, its explicit-chance initial state, its observation encoder and
learning action space; the observation tensor and strings of a position are written here."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import numpy as np

import boardwright as bw
from boardwright.core.chance import ExplicitChanceState
from boardwright.core.errors import InvalidOptionError
from boardwright.core.game import Game
from boardwright.games.shogun.game import decision_cap
from boardwright.rl import DEFAULT_OPTIONS
from boardwright.rl.action_spaces import action_space_for
from boardwright.rl.observations import encoder_for
from boardwright.rl.openspiel_params import has_chance_mode, parse_options, spec_of
from boardwright.rl.openspiel_positions import NativePosition, PythonPosition


class Shared:
    """The boardwright game, its observation encoder and its explicit-chance initial state,
    shared by every state of one OpenSpiel game (and by their clones)."""

    def __init__(self, name: str, players: int, options_text: str, seed: int = 0,
                 engine: str = "") -> None:
        self.key = (name, players, options_text, seed, engine)
        self.name = name
        options = dict(DEFAULT_OPTIONS.get(name, {}))
        options.update(parse_options(options_text))
        if name == "shogun" and options.get("max_decisions") is None:
            if options.get("max_rounds") is None:
                raise InvalidOptionError("python_boardwright_shogun needs max_rounds or "
                                         "max_decisions: the rules bound no game's length")
            options["max_decisions"] = decision_cap(players, options["max_rounds"])
        game = bw.load(name, players, options, engine=engine or None)
        # Carcassonne on the compiled engine: the native chance game (same ids, same draws)
        self.native = name == "carcassonne" and game.engine == "native"
        if self.native:
            self.initial: Any = game.new_chance_game(native=True)
            self.game: Game = game
        else:
            if has_chance_mode(game):
                self.initial = game.new_chance_game()
            else:  # a plugin without chance nodes: its seeded game, chance inside `apply`
                self.initial = ExplicitChanceState(game, lambda script: game.new_game(seed))
            self.game = self.initial.game  # the game the states play (a Python twin)
        self.perfect = spec_of(name).perfect
        self.players = players
        self.encoder = encoder_for(self.game)
        self.space = action_space_for(self.game)
        self.tensor_form = callable(getattr(self.encoder, "encode_state", None)) and callable(
            getattr(self.encoder, "tensor", None))
        self.tensor_shape = self._tensor_shape()
        if self.native:  # the compiled observation writer and learning ids (one layout)
            from boardwright.rl.observations.carcassonne_native import obs_spec
            self.obs_spec = obs_spec(self.encoder, self.space)
            self.scales = np.ascontiguousarray(self.encoder.scales, dtype=np.float32)
            self.action_object = self.game._native_spec.action_object

    def _tensor_shape(self) -> tuple[int, ...]:
        """The observation tensor's shape: the encoder's tensor form of a first position, or
        its flat vector."""
        if not self.tensor_form:
            return (self.encoder.size,)
        encoder = self.encoder
        return tuple(np.shape(encoder.tensor(encoder.encode_state(self.game.new_game(0), 0))))

    def observe(self, out: np.ndarray, position: Any, player: int) -> None:
        """Write `player`'s observation of `position` into `out` (float32, `tensor_shape`)."""
        if self.tensor_form:
            state = position.decision_state()
            if state is None:  # a chance node: no seat decides
                out.fill(0.0)
                return
            if self.native:
                state.observation_tensor_into(self.obs_spec, player, out, self.scales)
                return
            encoder = self.encoder
            out[...] = encoder.tensor(encoder.encode_state(state, player))
            return
        view = position.view(player)
        if view is None:  # before the set-up's first chance outcome
            out.fill(0.0)
            return
        out[...] = self.encoder.encode(view, player)

    def observation_string(self, position: Any, player: int) -> str:
        view = position.view(None if self.perfect else player)
        if view is None:
            return "set-up"
        view.pop("log", None)
        return json.dumps(view, sort_keys=True, separators=(",", ":"))

    def information_state_string(self, position: Any, player: int) -> str:
        if self.perfect:  # the public history names the state, the same for every seat
            return ",".join(map(str, position.ids))
        return (self.observation_string(position, player) + "|"
                + ";".join(position.public_history(player)))

    def new_position(self) -> Any:
        if self.native:
            return NativePosition(self, self.initial.clone(), [])
        return PythonPosition(self, self.initial.clone(), [])

    def __deepcopy__(self, memo: dict) -> Shared:
        return self

    def __reduce__(self) -> tuple:
        return (shared_for, self.key)


@lru_cache(maxsize=32)
def shared_for(name: str, players: int, options_text: str, seed: int = 0,
               engine: str = "") -> Shared:
    return Shared(name, players, options_text, seed, engine)
