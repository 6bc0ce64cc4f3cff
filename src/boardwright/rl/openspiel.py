"""OpenSpiel adapter: each boardwright game registered as a Python game with `pyspiel`.

Importing this module registers `python_boardwright_carcassonne`, `python_boardwright_queens`,
`python_boardwright_shogun` and `python_boardwright_<name>` for every installed game plugin:

    import pyspiel, boardwright.rl.openspiel
    game = pyspiel.load_game("python_boardwright_carcassonne", {"players": 2})

Parameters: `players` (int, default 2; outside the game's range, or below 2, is an
`InvalidOptionError` naming the range), `options` (the game options as a JSON object;
Shogun's default is `{"max_rounds": 30}`) and `engine` (one of the game's engines,
Carcassonne's "native" or "python"; default "": the game's default engine, the compiled one
where it is built; an engine changes the speed, never the ids, chance outcomes or results).
Bad JSON, a bad option or an unknown engine raises `InvalidOptionError` (a `BoardwrightError`)
with the problem named. The game string keeps the options readable
when they hold no `,`, `(`, `)` or `=` (`options={"max_rounds":2}`); otherwise it carries them
as `b64:` + URL-safe base64 of the JSON, which `load_game` reads back (either form is
accepted as input).

Chance is **EXPLICIT_STOCHASTIC** (Carcassonne, Shogun): every random event is a chance node
with its probabilities, built by the games themselves (`Game.new_chance_game`,
`core/chance.py`). Nothing is shuffled in advance, so no state holds a future draw: a tile is
drawn uniformly from the tiles left, a card from the cards its deck may hold. OpenSpiel's
MCTS samples the draws in its simulations instead of seeing them, `new_initial_state()` is
the same state every time, and `history()` replays on a fresh initial state.
Queens has no chance (DETERMINISTIC).

Chance outcome ids: Carcassonne, the drawn tile's index in the game's tile list (base tiles,
then the expansion's); Shogun, hero-deck cards by catalogue index, then treasures, missions
and (for the first player) seats (`games/shogun/chance.py`); `action_to_string` names them.
Carcassonne runs on the compiled engine wherever its game does (the default where the
extension is built): `CarcassonneGame.new_chance_game(native=True)`, a native state that stops
at each draw itself, with the outcome ids, probabilities, legal action ids and positions of
the Python engine's chance game (`tests/rl/test_rl_openspiel_native.py` compares them step by
step), a native `clone` and a compiled `apply`. Elsewhere it runs on the Python engine's
`new_chance_game()`; the ids are the same on both engines.

Information: Carcassonne and Queens are PERFECT_INFORMATION once the draw order does not exist
(tiles left are public); Shogun is IMPERFECT_INFORMATION (hands, missions, treasures, decks)
and implements `resample_from_infostate` with the game's `determinize`, so OpenSpiel's ISMCTS
runs on it. ZERO_SUM: `returns()` are rank based (each beaten opponent +1, each tie 1/2, scaled
to [-1, 1]) and add up to 0. `max_game_length()` is a bound derived from the options
(`Game.max_decisions`; Shogun's is the decision cap `max_decisions`, SHO-SCORE-09, set from the
round limit unless given: the rules set no limit on a turn's decisions), `max_chance_nodes_in_history()`
likewise (`Game.max_chance_events`; Shogun has none and raises `InvalidOptionError`).

Observations: the tensor is the seat's observation (`boardwright.rl.observations`) in the
encoder's tensor form (`encoder.tensor(encoder.encode_state(state, seat))`): for Carcassonne the
lossless observation, float32 `(C + 1, 31, 31)` (board planes, then a plane of scalars), for the
other games their flat vector; `observation_tensor_shape()` is that shape. On the native engine
the compiled writer of the same layout writes it straight into the float array
(`observation_tensor_into`), and the legal ids come from the compiled numbering of the learning
space. `state.observation_tensor(seat)` returns a new float32 numpy array of that shape (not a
list: no float objects by the hundred thousand); C++ callers and
`observation.make_observation` read the same values through the observer. A chance node
observes zeros: no seat decides there. (A plugin's own encoder with `encode` alone gives its
flat vector of the seat's view.)

Strings: in the perfect-information games (Carcassonne, Queens, plugins that say so) every
seat sees everything, so both strings are the same for every seat: the observation string is
the JSON of the public view (`state.view(None)`) without its log, the information-state
string the public history (every OpenSpiel action id so far, chance outcomes included, comma
separated), which names the state. In Shogun the observation string is the JSON of the seat's
view, and the information-state string that plus the history as the seat may know it (its own
actions whole, other seats' actions in their public form, chance outcomes only when they are
public: the first player). It recalls every step; what a seat was once shown and its view no
longer holds (another seat's hand looked at by a Shogun card) is not in it. The
information-state tensor is the observation tensor: the present view, not a recall of the
past.

Serialization: `serialize_game_and_state`, `pickle` and `clone` work for every game and
state; a state pickles as its history, replayed on load.

Action ids are those of the game's learning action space (`boardwright.rl.action_spaces.
action_space_for`: Carcassonne's `games/carcassonne/learning_space.py`, the stable ids of
Queens and Shogun), so `num_distinct_actions` is its `size`; an id's meaning may depend on the
position it is played in (Carcassonne's overflow slots). They are converted in
`legal_action_ids` and `action_for_id` only.

Installed game plugins are registered too, as their `Game.info` says (most players,
information, chance; a plugin declaring none: up to 8 players, imperfect information unless
its Game says `perfect_information = True`), their length bound from `Game.max_decisions()`
(required). A plugin with an explicit-chance mode (`Game.new_chance_game`, or draws through
`State.draw` with a `chance_outcome_count`) gets chance nodes as the built-in games do. One
without is DETERMINISTIC for its `seed` parameter (default 0): `new_initial_state()` is
`new_game(seed)`, its draws fixed by the seed before the first move, so a search on the state
sees them; it serializes as every game does (as SAMPLED_STOCHASTIC it could not: OpenSpiel
would ask a Python game for a C++ RNG state).
"""

from __future__ import annotations

import base64
import binascii
import json
import random
import warnings
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import pyspiel

import boardwright as bw
from boardwright.core.chance import CHANCE, ExplicitChanceState
from boardwright.core.errors import BoardwrightError, IllegalActionError, InvalidOptionError
from boardwright.core.game import Game
from boardwright.core.inputs import short_repr
from boardwright.games.carcassonne.learning_space import CarcassonneLegalIds
from boardwright.games.shogun.game import decision_cap
from boardwright.rl import DEFAULT_OPTIONS
from boardwright.rl.action_spaces import action_space_for
from boardwright.rl.observations import encoder_for


@dataclass(frozen=True)
class Spec:
    """What OpenSpiel's game type says of a game (static for all its options), from the
    game's `GameInfo`."""

    max_players: int
    perfect: bool
    chance: bool
    seeded: bool = False  # no explicit-chance mode: chance sampled from a `seed` parameter


MIN_PLAYERS = 2  # zero-sum, rank-based returns need an opponent
B64 = "b64:"
UNSAFE = set(",()=")  # characters OpenSpiel's game strings use as syntax


def has_chance_mode(game: Game) -> bool:
    """Whether a game offers explicit chance nodes: a `Game.new_chance_game` of its own, or
    the base class's for a game that draws through `State.draw` (`Game.draws_chance`)."""
    return type(game).info.chance == "explicit" or game.draws_chance


@lru_cache(maxsize=None)
def spec_of(name: str) -> Spec:
    """The game type's facts of game `name`, read from its `GameInfo` (no game is created):
    its most players, its information, and its chance: explicit chance nodes when it has a
    chance mode, sampled from a `seed` parameter when it has chance but no chance mode, none
    when it is deterministic. PluginError when it does not load, InvalidOptionError when it has no
    configuration of 2 or more players."""
    info = bw.game_info(name)
    if info.max_players < MIN_PLAYERS:
        raise InvalidOptionError(f"{name} cannot be played by 2 or more players")
    seeded = info.chance == "seeded"
    return Spec(max_players=info.max_players, perfect=info.perfect_information,
                chance=info.chance != "deterministic", seeded=seeded)


# -- the two conversions between OpenSpiel action ids and engine actions ----------------------

def legal_action_ids(position: Any) -> list[int]:
    """The OpenSpiel ids of the legal actions at a decision: the ids of the learning action
    space, sorted."""
    return position.legal_ids()


def action_for_id(position: Any, action_id: int) -> Any:
    """The engine action of an OpenSpiel action id at a decision; IllegalActionError /
    MalformedActionError for an id that names no legal action here."""
    return position.action(action_id)


# -- parameters ---------------------------------------------------------------------------

def parse_options(text: Any) -> dict[str, Any]:
    """The options of the `options` parameter: "" (none), a JSON object, or `b64:` + its
    URL-safe base64."""
    if text is None or text == "":
        return {}
    if not isinstance(text, str):
        raise InvalidOptionError(f"options must be a JSON object as a string, not "
                                 f"{short_repr(text)}")
    raw = text
    if text.startswith(B64):
        body = text[len(B64):]
        try:
            raw = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_",
                                   validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError) as error:
            raise InvalidOptionError(f"options {short_repr(text)} are not valid base64 JSON: "
                                     f"{error}") from None
    try:
        options = json.loads(raw)
    except json.JSONDecodeError as error:
        raise InvalidOptionError(f"options must be a JSON object; {short_repr(raw)} is not "
                                 f"JSON: {error}") from None
    if not isinstance(options, dict):
        raise InvalidOptionError(f"options must be a JSON object, not {short_repr(options)}")
    return options


def encode_options(options: dict[str, Any]) -> str:
    """The `options` parameter as the game string carries it (see the module docstring)."""
    if not options:
        return ""
    text = json.dumps(options, sort_keys=True, separators=(",", ":"))
    if not UNSAFE & set(text):
        return text
    return B64 + base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def parse_players(name: str, value: Any) -> int:
    spec = spec_of(name)
    if type(value) is not int or not MIN_PLAYERS <= value <= spec.max_players:
        raise InvalidOptionError(
            f"players must be a whole number from {MIN_PLAYERS} to {spec.max_players} for "
            f"python_boardwright_{name} (zero-sum, rank-based returns), not {short_repr(value)}")
    return value


# -- shared per configured game -----------------------------------------------------------

class _Shared:
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
            return _NativePosition(self, self.initial.clone(), [])
        return _Position(self, self.initial.clone(), [])

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self

    def __reduce__(self) -> tuple:
        return (shared_for, self.key)


@lru_cache(maxsize=32)
def shared_for(name: str, players: int, options_text: str, seed: int = 0,
               engine: str = "") -> _Shared:
    return _Shared(name, players, options_text, seed, engine)


class _Position:
    """A boardwright explicit-chance state and the OpenSpiel ids that led to it.

    `clone` (deep copy) uses the state's cheap `clone()`; pickling keeps only the ids and
    replays them on load."""

    def __init__(self, shared: _Shared, state: ExplicitChanceState, ids: list[int],
                 public: dict[int, list[str]] | None = None) -> None:
        self.shared = shared
        self.state = state
        self.ids = ids
        # per viewer, the history as that seat may know it, as far as it was asked for
        self.public: dict[int, list[str]] = {} if public is None else public
        self._legal: Any = None  # the legal ids of this decision, read once (OpenSpiel asks
        # for the legal actions, then applies one of them)

    def player(self) -> int:
        """OpenSpiel's current player: a seat, CHANCE or TERMINAL."""
        state = self.state
        if state.is_chance_node:
            return pyspiel.PlayerId.CHANCE
        if state.is_terminal:
            return pyspiel.PlayerId.TERMINAL
        return state.current_player

    def legal(self) -> Any:
        """The learning space's legal ids of the game's own state at this decision."""
        if self._legal is None:
            self._legal = self.shared.space.legal(self.state.inner)
        return self._legal

    def legal_ids(self) -> list[int]:
        return self.legal().ids.tolist()

    def action(self, action_id: Any) -> Any:
        return self.legal().action(action_id)

    def decision_state(self) -> Any:
        """The game's own state at a decision or at the end; None at a chance node."""
        state = self.state
        return None if state.is_chance_node else state.inner

    def view(self, viewer: int | None) -> dict[str, Any] | None:
        """The state's view (None before the set-up's first chance outcome)."""
        state = self.state
        return state.view(viewer) if state.has_position else None

    def public_history(self, viewer: int) -> list[str]:
        """`public_history` of the state for `viewer`, extended from what was kept."""
        known = self.public.setdefault(viewer, [])
        steps = self.state.steps
        if len(known) < len(steps):
            known.extend(public_steps(self.shared.game, steps[len(known):], viewer))
        return known

    def apply(self, action_id: int) -> None:
        state = self.state
        if state.is_chance_node:
            state.apply_chance(int(action_id))
        else:
            state.apply(action_for_id(self, action_id))
        self._legal = None
        self.ids.append(int(action_id))

    def __deepcopy__(self, memo: dict) -> _Position:
        return _Position(self.shared, self.state.clone(), self.ids.copy(),
                         {viewer: known.copy() for viewer, known in self.public.items()})

    def __reduce__(self) -> tuple:
        return (replay_position, (self.shared, tuple(self.ids)))


class _NativePosition:
    """A native chance-mode Carcassonne state (`new_chance_game(native=True)`) and the
    OpenSpiel ids that led to it: chance outcomes and decisions go straight to the compiled
    engine (a decision by its stable id, no action object), the legal learning ids come from
    the compiled numbering (`_learning_ids`, the learning space's, sorted), `clone` is the
    native clone, and pickling keeps only the ids, replayed on load."""

    __slots__ = ("_legal", "ids", "shared", "state")

    def __init__(self, shared: _Shared, state: Any, ids: list[int]) -> None:
        self.shared = shared
        self.state = state
        self.ids = ids
        self._legal: CarcassonneLegalIds | None = None

    def player(self) -> int:
        player = self.state.current_player  # a seat, CHANCE (-2) or -1 when over
        if player >= 0:
            return player
        return pyspiel.PlayerId.CHANCE if player == CHANCE else pyspiel.PlayerId.TERMINAL

    def legal(self) -> CarcassonneLegalIds:
        """This decision's legal actions (learning ids, sorted, and their stable ids)."""
        if self._legal is None:
            ids, stable = self.state._learning_ids(self.shared.obs_spec)
            self._legal = CarcassonneLegalIds(self.shared.space, ids, stable)
        return self._legal

    def legal_ids(self) -> list[int]:
        return self.legal().ids.tolist()

    def stable_id(self, action_id: Any) -> int:
        return self.legal().stable_id(action_id)

    def action(self, action_id: Any) -> Any:
        return self.shared.action_object(self.stable_id(action_id))

    def decision_state(self) -> Any:
        state = self.state
        return None if state.is_chance_node else state

    def view(self, viewer: int | None) -> dict[str, Any]:
        return self.state.view(viewer)

    def apply(self, action_id: int) -> None:
        state = self.state
        if state.is_chance_node:
            state.apply_chance(int(action_id))
        else:
            state._apply_id(self.stable_id(action_id))
        self._legal = None
        self.ids.append(int(action_id))

    def __deepcopy__(self, memo: dict) -> _NativePosition:
        return _NativePosition(self.shared, self.state.clone(), self.ids.copy())

    def __reduce__(self) -> tuple:
        return (replay_position, (self.shared, tuple(self.ids)))


def replay_position(shared: _Shared, ids: tuple[int, ...]) -> Any:
    position = shared.new_position()
    for action_id in ids:
        position.apply(action_id)
    return position


# -- the OpenSpiel classes -----------------------------------------------------------------

def _short_name(name: str) -> str:
    return f"python_boardwright_{name}"


def _game_type(name: str) -> Any:
    spec = spec_of(name)
    info = pyspiel.GameType.Information
    mode = pyspiel.GameType.ChanceMode
    # A seeded game is deterministic for one `seed` parameter: its draws are fixed before the
    # first move. (SAMPLED_STOCHASTIC would make OpenSpiel's serialization ask the game for
    # its C++ RNG state, which a Python game cannot give: "GetRNGState unimplemented".)
    chance = (mode.EXPLICIT_STOCHASTIC if spec.chance and not spec.seeded
              else mode.DETERMINISTIC)
    parameters: dict[str, Any] = {"players": 2, "options": "", "engine": ""}
    if spec.seeded:
        parameters["seed"] = 0
    return pyspiel.GameType(
        short_name=_short_name(name),
        long_name=f"Python boardwright {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=info.PERFECT_INFORMATION if spec.perfect else info.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=MIN_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def _make_game_class(name: str) -> tuple[Any, type]:
    game_type = _game_type(name)

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
            super().__init__(game_type, info, kept)
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

    # Module-level names, so that pickle finds the classes (`register` binds them).
    for cls, kind in ((BoardwrightGame, "Game"), (BoardwrightState, "State")):
        cls.__name__ = cls.__qualname__ = f"Boardwright{name.title()}{kind}"
        globals()[cls.__name__] = cls
    return game_type, BoardwrightGame


class Observer:
    """PyObserver (OpenSpiel's observer protocol for Python games): `tensor`, a flat float32
    buffer written in place by `set_from`, and `dict`, its one piece "observation" in the
    observation's shape (Carcassonne: `(C + 1, 31, 31)`), which is what OpenSpiel's C++ side
    copies and reports as `observation_tensor_shape()`. Strings: see the module docstring
    (`perfect_recall`: the information-state string)."""

    def __init__(self, shared: _Shared, perfect_recall: bool = False) -> None:
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


def public_steps(game: Game, steps: list[tuple[str, Any, int]], viewer: int) -> list[str]:
    """Each step (`ExplicitChanceState.steps`) as `viewer` may know it: actions through
    `Game.public_action` (whole for their actor), chance outcomes by `Game.chance_outcome_public`."""
    out = []
    for kind, value, actor in steps:
        if kind == "chance":
            out.append(f"c{value}" if game.chance_outcome_public(value) else "c?")
        else:
            public = game.public_action(value, actor, viewer)
            out.append(f"{actor}:" + json.dumps(public, sort_keys=True, separators=(",", ":")))
    return out


def register() -> None:
    """Register every available game with pyspiel, the built-in ones and the installed plugins
    (once; importing this module does it). A plugin that does not load is left out with a
    warning; the others are registered."""
    registered = set(pyspiel.registered_names())
    for name in bw.available_games():
        if _short_name(name) in registered:
            continue
        try:
            game_type, cls = _make_game_class(name)
        except BoardwrightError as exc:
            warnings.warn(f"{name} is not registered with OpenSpiel: {exc}", stacklevel=2)
            continue
        pyspiel.register_game(game_type, cls)


register()
