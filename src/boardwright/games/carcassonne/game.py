"""The configured Carcassonne game: static tile data, options, capabilities and action ids."""

from __future__ import annotations

import json
import random
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from boardwright.core.chance import ChanceScript, ExplicitChanceState
from boardwright.core.errors import InvalidOptionError, MalformedActionError
from boardwright.core.game import PLAYOUT_POLICIES, Game, PlayoutStop
from boardwright.core.info import GameInfo, PlayerRange, Seat
from boardwright.core.options import OptionSpec
from boardwright.core.inputs import (
    check_action_id, check_action_json, check_seed, copy_options, short_repr,
)
from boardwright.games.carcassonne.actions import (
    DRAW, FIGURES, PASS, Deploy, Draw, Pass, Place, PlaceAbbey, parse_action,
)
from boardwright.games.carcassonne.capabilities.abbey import AbbeyCapability
from boardwright.games.carcassonne.capabilities.barn import BarnCapability
from boardwright.games.carcassonne.capabilities.base import Capability, overrides
from boardwright.games.carcassonne.capabilities.mayor import MayorCapability
from boardwright.games.carcassonne.capabilities.wagon import WagonCapability
from boardwright.games.carcassonne.figures import FOLLOWER, FOLLOWER_NO_FARMERS, FigureRule
from boardwright.games.carcassonne.evaluation import evaluate, offered_versions, version_weights
from boardwright.games.carcassonne.heuristic import potential_scores
from boardwright.games.carcassonne.options import (
    MAX_PLAYERS, CarcassonneOptions, option_specs, parse_options,
)
from boardwright.games.carcassonne import native, texts
from boardwright.games.carcassonne.search import search_settings
from boardwright.games.carcassonne.state import PLACE, CarcassonneState
from boardwright.games.carcassonne.tiles import (
    CORNERS, HALVES, INTERNAL, MONASTERY_LOCATION, SIDES, TileType, load_tile_set,
)

FOLLOWERS_PER_PLAYER = 7
ROLLOUT_PASS = 1.0  # chance that a playout keeps its figure when it could put one
HOOKS = ("begin_turn", "deploy_actions", "figure_released", "after_scoring",
         "before_next_turn", "next_turn", "pile_empty", "final_scoring")


def build_capabilities(config: CarcassonneOptions, tile_types: dict[str, TileType]) -> list[Capability]:
    """The capabilities the options switch on (none for the base game)."""
    capabilities: list[Capability] = []
    if config.abbeys:
        capabilities.append(AbbeyCapability(config.abbeys, config.abbey_end_of_game,
                                            tile_types["ABBEY"].variants[0]))
    if config.mayors:
        capabilities.append(MayorCapability(config.mayors, config.mayor_lies_flat))
    if config.wagons:
        capabilities.append(WagonCapability(config.wagons, config.wagon_adjacency,
                                            config.wagon_traverse))
    if config.barns:
        capabilities.append(BarnCapability(config.barns))
    return capabilities


@dataclass(frozen=True)
class ActionDecoder:
    """The action with a given (valid) id: the layout of `_build_action_space`, kept apart
    from the game so the native engine's table of action objects can hold it without holding
    the game."""

    radius: int
    width: int
    deploy_base: int
    abbey_base: int
    draw_id: int
    pass_id: int
    locations: tuple[str, ...]
    figures: tuple[str, ...]

    def __call__(self, action_id: int) -> Any:
        if action_id == self.pass_id:
            return PASS
        if action_id == self.draw_id:
            return DRAW
        r = self.radius
        if action_id >= self.abbey_base:
            x, y = divmod(action_id - self.abbey_base, self.width)
            return PlaceAbbey(x - r, y - r)
        if action_id < self.deploy_base:
            cell, quarter = divmod(action_id, 4)
            x, y = divmod(cell, self.width)
            return Place(x - r, y - r, 90 * quarter)
        rest, figure = divmod(action_id - self.deploy_base, len(self.figures))
        cell, location = divmod(rest, len(self.locations))
        x, y = divmod(cell, self.width)
        return Deploy(x - r, y - r, self.locations[location], self.figures[figure])


@dataclass(frozen=True)
class RandomGames:
    """What `CarcassonneGame.random_games` played: how many games and actions, and the final
    scores of each game."""

    games: int
    actions: int
    scores: list[list[int]]


# The engine of games created without naming one; None: the native engine wherever it is
# built, else the Python one. (Tests set it to run a whole suite on either engine.)
DEFAULT_ENGINE: str | None = None


def _rebuild_game(cls: type, players: int, options: dict[str, Any], engine: str,
                  extra_reach: int) -> CarcassonneGame:
    game = cls(players, options, engine)
    if extra_reach:
        game.reach_further(extra_reach)
    return game


# The native engine's data of the configurations made last: building it (every tile variant's
# tables as plain data) took about 3 ms of the 5 ms of loading a native game, and a process
# that creates many games (tests, simulations, the web table) creates them in few configurations.
_SPEC_DATA: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
SPEC_DATA_KEPT = 32


def native_spec_data(game: CarcassonneGame) -> dict[str, Any]:
    """`native.spec.game_spec(game)`: its tables kept per configuration (the class, the
    players, the validated options and the reach beyond the pile: everything they are made
    from), its heuristic part (the evaluation's weights, which a test may swap) read anew."""
    from boardwright.games.carcassonne.native.spec import game_spec, heuristic_data

    key = (type(game), game.num_players, json.dumps(game._options, sort_keys=True, default=repr),
           game._extra_reach)
    data = _SPEC_DATA.get(key)
    if data is None:
        data = game_spec(game)
        _SPEC_DATA[key] = data
        while len(_SPEC_DATA) > SPEC_DATA_KEPT:
            _SPEC_DATA.popitem(last=False)
        return data
    _SPEC_DATA.move_to_end(key)
    return {**data, "heuristic": heuristic_data(game)}


def make_native_spec(game: CarcassonneGame) -> Any:
    return native._engine.Spec(native_spec_data(game), game._decoder)


# The players' colours in seat order, the one table of them: the rules name the first three
# (Red, Blue, Yellow: docs/rules/carcassonne.md, CAR-BASE-SETUP-04); the base game's other two
# colours follow, then the sixth that Abbey & Mayor brings.
SEATS = (
    Seat("Red", "#d8322a", "bold red"), Seat("Blue", "#2a64d8", "bold blue"),
    Seat("Yellow", "#e5b914", "bold yellow"), Seat("Green", "#2f9e44", "bold green"),
    Seat("Black", "#303030", "bold bright_black"), Seat("Pink", "#c35bd6", "bold magenta"),
)


class CarcassonneGame(Game):
    """Carcassonne (2nd edition), with the Abbey & Mayor expansion as an option."""

    name = "carcassonne"
    version = "1"
    # 1 player for puzzles and study (CAR-BASE-SETUP-01); the tiles left are public, so
    # without a draw order every seat sees everything.
    info = GameInfo(
        title="Carcassonne",
        players=(PlayerRange(1, MAX_PLAYERS[False], note="the base game"),
                 PlayerRange(1, MAX_PLAYERS[True], {"expansions": ["abbey_mayor"]},
                             note="with Abbey & Mayor")),
        information="perfect", chance="explicit", seats=SEATS)
    engines = ("python", "native")

    @classmethod
    def default_engine(cls) -> str:
        """The native engine where it is built, else the Python one (`DEFAULT_ENGINE`, read
        at each call, overrides this)."""
        if DEFAULT_ENGINE is not None:
            return DEFAULT_ENGINE
        return "native" if native.AVAILABLE else "python"

    @classmethod
    def engine_unavailable(cls, engine: str) -> str:
        """The native engine runs only when its extension was built at install time."""
        if engine == "native":
            return "" if native.AVAILABLE else native.UNAVAILABLE_REASON
        return ""

    @classmethod
    def option_specs(cls, players: int) -> list[OptionSpec]:
        return option_specs(players)

    @classmethod
    def setup_words(cls, options: Any, players: int) -> list[str]:
        return texts.setup_words(options)

    def __init__(self, players: int, options: dict[str, Any], engine: str | None = None) -> None:
        self.engine = self.choose_engine(engine)
        options = copy_options(options)  # the game's own: later edits by the caller change nothing
        base = load_tile_set("base_tiles.toml").types
        expansion = load_tile_set("abbey_mayor_tiles.toml").types
        expansion_landscapes = {name for name, t in expansion.items() if not t.abbey}
        self.config = parse_options(options, players, set(base), expansion_landscapes)
        super().__init__(players, self.config.to_json())
        self.tile_types: dict[str, TileType] = dict(base)
        if self.config.abbey_mayor:
            self.tile_types.update(
                {n: t for n, t in expansion.items() if t.abbey or self.config.abbey_mayor_tiles})
        self.farmers = self.config.farmers
        self.small_city_scoring = self.config.small_city_scoring
        self.starting_seat = self.config.starting_seat
        # Capabilities and the hooks each implements, so the state calls only what does work.
        self.capabilities = build_capabilities(self.config, self.tile_types)
        for hook in HOOKS:
            setattr(self, f"{hook}_hooks", [c for c in self.capabilities if overrides(c, hook)])
        self.phase_owner = {phase: c for c in self.capabilities for phase in c.phases}
        self.turn_start_phases = frozenset(
            (PLACE, *(phase for c in self.capabilities for phase in c.turn_start_phases)))
        self.figure_rules: list[FigureRule] = [FOLLOWER if self.farmers else FOLLOWER_NO_FARMERS]
        for capability in self.capabilities:
            self.figure_rules.extend(capability.figures())
        self.figure_rule = {rule.name: rule for rule in self.figure_rules}
        self.figures = tuple(f for f in FIGURES if f in self.figure_rule or (
            f == "barn" and self.config.barns))
        self.supply_per_player = {"follower": FOLLOWERS_PER_PLAYER}
        for capability in self.capabilities:
            self.supply_per_player.update(capability.supply())
        self._location_names = frozenset(SIDES + HALVES + INTERNAL + CORNERS)
        self._special_locations = frozenset((MONASTERY_LOCATION,))
        self._extra_reach = 0  # tiles beyond the pile's (reach_further)
        self._learning_space: Any = None
        self._build_action_space()
        self._tile_names = list(self.tile_types)
        self._tile_list = list(self.tile_types.values())
        self._tile_index = {name: index for index, name in enumerate(self._tile_names)}
        self._native_spec = None
        if self.engine == "native":
            self._native_spec = make_native_spec(self)

    def __reduce__(self) -> tuple:
        """Pickled as what makes it (players, validated options, engine, extra reach): the
        native engine's data is rebuilt where it is loaded."""
        return (_rebuild_game, (type(self), self.num_players, self._options, self.engine,
                                self._extra_reach))

    def reach_further(self, tiles: int) -> None:
        """Widen the action space for `tiles` more tiles than the pile holds: a position built
        directly (`scenario.build`) lays tiles that were never drawn, and every position next
        to them must still have action ids (for the native engine, actions are their ids)."""
        self._extra_reach += tiles
        self._build_action_space()
        if self.engine == "native":
            self._native_spec = make_native_spec(self)

    def _build_action_space(self) -> None:
        """Fixed id ranges: place, deploy, abbey, draw, pass. Every position within `radius`
        of the start tile can be reached, so the space covers every legal action."""
        self.radius = (len(self._tile_bag()) + self.config.abbeys * self.num_players
                       + self._extra_reach)
        self._width = 2 * self.radius + 1
        self._positions = self._width * self._width
        locations = {f.location for t in self.tile_types.values()
                     for v in t.variants for f in v.features}
        self._locations = sorted(locations | set(CORNERS))
        self._location_id = {loc: i for i, loc in enumerate(self._locations)}
        self._deploy_base = self._positions * 4
        self._abbey_base = self._deploy_base + self._positions * len(self._locations) * len(self.figures)
        self._draw_id = self._abbey_base + self._positions
        self._pass_id = self._draw_id + 1
        self.pile_size = len(self._tile_bag())  # tiles drawn over a game (the start tile aside)
        self._decoder = ActionDecoder(self.radius, self._width, self._deploy_base,
                                      self._abbey_base, self._draw_id, self._pass_id,
                                      tuple(self._locations), self.figures)

    # -- set-up -------------------------------------------------------------------------------

    def _tile_bag(self) -> list[str]:
        """The tiles of the draw pile, in data order (before shuffling)."""
        if self.config.draw_order is not None:
            return list(self.config.draw_order)
        bag = [name for name, t in self.tile_types.items() for _ in range(t.count)]
        bag.remove(self.config.start_tile)
        return bag

    def new_game(self, seed: int | None = None) -> CarcassonneState:
        seed = check_seed(seed)
        bag = self._tile_bag()
        if self.config.draw_order is None:
            random.Random(seed).shuffle(bag)
        bag.reverse()  # the state draws from the end of the list
        if self.engine == "native":
            from boardwright.games.carcassonne.native.state import NativeCarcassonneState
            return NativeCarcassonneState(self, seed, bag)
        return CarcassonneState(self, seed, bag, self.config.start_tile)

    # -- explicit chance ----------------------------------------------------------------------

    def new_chance_game(self, native: bool = False) -> Any:
        """A state whose tile draws are chance nodes: the pile is unordered, and each draw
        (a re-draw after an unplaceable tile too) is a chance event uniform over the tiles left,
        its outcome the tile's index (`chance_outcome_text`). A draw with one tile type left
        is no chance node, and a `draw_order` leaves no chance at all.

        By default an `ExplicitChanceState` on the Python engine, the rules reference (a game
        made for the native engine plays it on a Python twin with the same options and action
        ids): it keeps the steps and, at a chance node, the position before the step.

        `native=True`: the same chance game on the compiled engine, a `NativeCarcassonneState`
        in chance mode that stops at each draw itself (`is_chance_node`, `chance_outcomes`,
        `apply_chance`, `current_player` CHANCE at a chance node; `inner` is the state itself)
        with the same outcome ids, probabilities and positions at every decision: what
        OpenSpiel plays when the game's engine is native. It is opt-in because it is not an
        `ExplicitChanceState`: at a chance node it holds the position with the draw under way
        (not the one before the step) and it keeps no `steps`. InvalidOptionError when the
        native engine is not built."""
        if native:
            return self._native_chance_game()
        game = self if self.engine == "python" else self._python_twin()
        bag = game._tile_bag()
        bag.reverse()

        def start(script: ChanceScript) -> CarcassonneState:
            state = CarcassonneState.__new__(CarcassonneState)
            state.setup(game, 0, list(bag), game.config.start_tile)
            state.chance = script
            state.start_turn()
            return state

        return ExplicitChanceState(game, start)

    def _native_chance_game(self) -> Any:
        """`new_chance_game(native=True)`: the pile in data order, drawn by chance."""
        game = self if self.engine == "native" else self._native_twin()
        from boardwright.games.carcassonne.native.state import NativeCarcassonneState
        bag = game._tile_bag()
        bag.reverse()  # as the Python chance game holds it (the same pile, the same swaps)
        return NativeCarcassonneState(game, 0, bag,
                                      explicit_chance=game.config.draw_order is None)

    def _native_twin(self) -> CarcassonneGame:
        """This game on the native engine (made once, then kept); InvalidOptionError naming
        the reason when the extension is not built."""
        reason = self.engine_unavailable("native")
        if reason:
            raise InvalidOptionError(f"no native chance game: {reason}")
        twin = self.__dict__.get("_native")
        if twin is None or twin._extra_reach != self._extra_reach:
            twin = _rebuild_game(type(self), self.num_players, self._options, "native",
                                 self._extra_reach)
            self.__dict__["_native"] = twin
        return twin

    def _python_twin(self) -> CarcassonneGame:
        """This game on the Python engine (made once, then kept)."""
        twin = self.__dict__.get("_twin")
        if twin is None or twin._extra_reach != self._extra_reach:
            twin = _rebuild_game(type(self), self.num_players, self._options, "python",
                                 self._extra_reach)
            self.__dict__["_twin"] = twin
        return twin

    @property
    def chance_outcome_count(self) -> int:
        """Chance outcomes are tile indices: one per tile type of the game."""
        return len(self._tile_names)

    def chance_outcome_text(self, outcome: int) -> str:
        if type(outcome) is not int or not 0 <= outcome < len(self._tile_names):
            raise MalformedActionError(f"no tile has the chance outcome {short_repr(outcome)}")
        return f"draw tile {self._tile_names[outcome]}"

    def chance_outcome_public(self, outcome: int) -> bool:
        """A drawn tile is shown to everyone."""
        return True

    def max_chance_events(self) -> int:
        """Each tile of the pile is drawn once: one chance event per tile at most."""
        return self.pile_size

    def max_decisions(self) -> int:
        """An upper bound on the decisions of one game: each tile of the pile is drawn once
        (an unplaceable one is discarded and needs none) and makes a turn of at most place,
        figure, the choice between drawing and an abbey when abbeys are in play, and one move
        per wagon in the game; each abbey makes a turn of abbey, figure and wagon moves; the
        final abbey round adds one decision (a pass) per seat."""
        wagons = self.config.wagons * self.num_players
        abbeys = self.config.abbeys * self.num_players
        per_tile = 2 + (1 if abbeys else 0) + wagons
        return (self.pile_size * per_tile + abbeys * (2 + wagons)
                + (self.num_players if abbeys else 0))

    # -- actions ------------------------------------------------------------------------------

    def action_from_json(self, data: Any) -> Place | Deploy | Pass | Draw | PlaceAbbey:
        return parse_action(check_action_json(data), self.figures, self._location_names,
                            self._special_locations)

    def _position_index(self, x: int, y: int) -> int:
        r = self.radius
        if type(x) is not int or type(y) is not int or abs(x) > r or abs(y) > r:
            raise MalformedActionError(f"position ({short_repr(x)}, {short_repr(y)}) is outside "
                                       f"the action space (±{r})")
        return (x + r) * self._width + (y + r)

    @property
    def num_distinct_actions(self) -> int:
        return self._pass_id + 1

    def action_id(self, action: Any) -> int:
        cls = type(action)
        if cls is Place:
            if action.rotation not in (0, 90, 180, 270):
                raise MalformedActionError(
                    f"rotation {short_repr(action.rotation)} is not 0, 90, 180 or 270")
            return self._position_index(action.x, action.y) * 4 + action.rotation // 90
        if cls is Deploy:
            location = self._location_id.get(action.location)
            if location is None or action.figure not in self.figures:
                raise MalformedActionError(
                    f"no id for {short_repr(action)}: unknown location or figure")
            cell = self._position_index(action.x, action.y) * len(self._locations) + location
            return self._deploy_base + cell * len(self.figures) + self.figures.index(action.figure)
        if cls is PlaceAbbey:
            return self._abbey_base + self._position_index(action.x, action.y)
        if cls is Draw:
            return self._draw_id
        if cls is Pass:
            return self._pass_id
        raise MalformedActionError(f"not a Carcassonne action: {short_repr(action)}")

    def action_from_id(self, action_id: int) -> Any:
        check_action_id(action_id, self.num_distinct_actions)
        return self._decoder(action_id)

    def learning_action_space(self) -> Any:
        """The compact action numbering the RL adapters use (`learning_space`: board planes
        within 15 cells of the start tile, a slot table for the tile just placed, an overflow
        list), built on first use and again after `reach_further`. Needs numpy."""
        space = self._learning_space
        if space is None or space.tiles != self.radius + 1:
            from boardwright.games.carcassonne.learning_space import CarcassonneActionSpace
            space = self._learning_space = CarcassonneActionSpace(self)
        return space

    def undoable(self, before: Any, action: Any, after: Any) -> bool:
        """When no tile was drawn: the draw pile's order is the game's only hidden
        information, and the draw at the end of a turn its only chance. Laying a tile (its
        figure not yet decided) can be taken back; the decision that ends a turn draws the
        next tile (and any tile discarded as unplaceable) and cannot. Read from the public
        view, so the Python and compiled engines answer alike."""
        return before.view(None)["draw_pile_size"] == after.view(None)["draw_pile_size"]

    def heuristic(self, state: Any) -> list[float]:
        if type(state) is not CarcassonneState:  # the native engine computes it natively
            return state.heuristic()
        return potential_scores(state)

    def evaluation(self, state: Any) -> list[float]:
        """The learned evaluation (`evaluation.py`): the heuristic's terms and the figures in
        hand, weighed by what they were worth at the end of greedy self-play games."""
        if type(state) is not CarcassonneState:
            return state.evaluation()
        return evaluate(state)

    def final_values(self, state: Any) -> list[float]:
        """The final scores: the evaluation estimates them, so they are on its scale."""
        return [float(score) for score in state.scores]

    def table_data(self, state: Any) -> dict[str, Any]:
        """Projected scores, the features of the figure spots and the final scoring by
        feature (`outlook.table_data`): all public."""
        from boardwright.games.carcassonne.outlook import table_data

        return table_data(state)

    @property
    def evaluation_versions(self) -> tuple[str, ...]:  # type: ignore[override]
        """"current", the kept "v1" and "v2", and "learned" where a network is shipped for the
        player count (`evaluation.offered_versions`)."""
        return offered_versions(self.num_players)

    def evaluation_of(self, version: str, state: Any) -> list[float]:
        """The current evaluation, the weights of an earlier fit for the game's player count
        (`evaluation.WEIGHTS_FILES`; "v1": fitted on greedy 2-player self-play,
        data/evaluation-v1.toml; "v2": the weights of `mcts-v2`, data/evaluation-v2*.toml), or
        "learned": the current weights plus the shipped network. A native position is judged
        natively: its engine carries every version's weights (and the network)."""
        if version == "current":
            return self.evaluation(state)
        weights, net = version_weights(version, self.num_players)  # (named errors)
        if type(state) is not CarcassonneState:
            return state.evaluation(version)
        return evaluate(state, weights, net)

    @property
    def search_defaults(self) -> dict[str, Any]:
        """The search settings of this player count: `search.search_settings`, whose module
        text says why each was chosen."""
        return search_settings(self.num_players)

    def random_games(self, games: int, seed: int) -> RandomGames:
        """Play `games` whole games with uniformly random legal actions and return their final
        scores. On the native engine the games are dealt and played entirely in compiled code
        (with their own generator: they are not the deals of `new_game`); on the Python engine
        they are `new_game(seed + i)` played through the public API. For throughput and
        score statistics of random play at scale."""
        if type(games) is not int or games < 0:
            raise InvalidOptionError(f"games must be a whole number, not {short_repr(games)}")
        check_seed(seed)
        if self.engine == "native":
            actions, flat = self._native_spec.random_games(games, seed)
            n = self.num_players
            return RandomGames(games, actions, [flat[i * n:(i + 1) * n] for i in range(games)])
        rng = random.Random(seed)
        actions, scores = 0, []
        for index in range(games):
            state = self.new_game((seed + index) % 2**64)
            while not state.is_terminal:
                state.apply(rng.choice(state.legal_actions()))
                actions += 1
            scores.append(state.scores)
        return RandomGames(games, actions, scores)

    def playout(self, state: Any, policy: str, rng: random.Random, stop: PlayoutStop,
                evaluation: str = "current") -> tuple[list[float], bool] | None:
        """Native states play whole playouts in compiled code (the same policies, the same
        evaluation, or the kept `evaluation` version a named baseline judges by); Python
        states leave the moves to the search."""
        if type(state) is CarcassonneState:
            return None
        if state.explicit_chance:
            raise InvalidOptionError("a chance-mode state (new_chance_game(native=True)) plays "
                                     "no compiled playouts: its draws wait for apply_chance")
        if policy not in PLAYOUT_POLICIES:
            raise InvalidOptionError(f"unknown playout policy {short_repr(policy)}; "
                                     f"known: {', '.join(PLAYOUT_POLICIES)}")
        if evaluation not in self.evaluation_versions:
            raise InvalidOptionError(f"no evaluation named {short_repr(evaluation)} with "
                                     f"{self.num_players} players; known: "
                                     f"{', '.join(self.evaluation_versions)}")
        values, terminal = state.playout(PLAYOUT_POLICIES.index(policy), rng.getrandbits(64),
                                         stop.me, stop.min_plies, stop.turn_leaves,
                                         stop.max_plies, stop.turns, evaluation)
        return values, terminal

    def rollout_action(self, state: Any, actions: list[Any], rng: random.Random) -> Any:
        """Playouts place tiles at random but keep their figures (always `Pass` when a figure
        could be put): random figures would scatter over fields and scraps of road and swamp
        the evaluation of the position the search is judging."""
        if PASS in actions and len(actions) > 1 and rng.random() < ROLLOUT_PASS:
            return PASS
        return rng.choice(actions)

    def describe(self, state: Any, action: Any, viewer: Any = None) -> str:
        """The move as the log reads it after the seat's name (`texts.describe`)."""
        return texts.describe(self, state, action, viewer)

    def action_text(self, action: Any) -> str:
        """Every action is public (a drawn tile is shown to all): one text for everyone."""
        cls = type(action)
        if cls is Place:
            return f"place at ({action.x}, {action.y}) turned {action.rotation}°"
        if cls is Deploy:
            return f"{action.figure} on {action.location} of ({action.x}, {action.y})"
        if cls is PlaceAbbey:
            return f"abbey into the hole at ({action.x}, {action.y})"
        if cls is Draw:
            return "draw a tile"
        if cls is Pass:
            return "pass"
        return str(action)
