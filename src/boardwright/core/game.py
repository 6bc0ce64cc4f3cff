"""Game and State: the game-agnostic API every rule module implements.

The shape follows OpenSpiel: a `Game` holds static data and validated options and creates
`State`s; a `State` is mutable, applies actions in place and can be cloned cheaply. Chance is
resolved inside `apply` from data fixed at `new_game(seed)`, so seed + actions replay exactly.
For game-theoretic tools a game may also offer `new_chance_game()`: the same rules with every
random event an explicit chance node (`core/chance.py`).

The `Game` base class lives here with its optional hooks (`OPTIONAL_HOOKS`, `offered_hooks`);
the `State` base class in `core/state.py`, viewers in `core/viewers.py` and playout settings
in `core/playout.py`. Every name of those is importable from here too.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Final, Sequence

from boardwright.core.action_list import ActionList
from boardwright.core.action_space import LearningActionSpace
from boardwright.core.analysis_unit import POINTS, AnalysisUnit
from boardwright.core.actions import Action, JsonDict
from boardwright.core.errors import BoardwrightError, InvalidOptionError, PluginError
from boardwright.core.info import GameInfo, default_info
from boardwright.core.inputs import copy_options, short_repr
from boardwright.core.options import OptionSpec, changed_words, derive_specs
from boardwright.core.playout import PLAYOUT_POLICIES, PlayoutStop
from boardwright.core.state import _CHANCE_SCRIPT, State, rank_returns
from boardwright.core.viewers import OMNISCIENT, Viewer

# Names defined in the modules above and long imported from here.
__all__ = [
    "Game", "State", "OMNISCIENT", "Viewer", "PLAYOUT_POLICIES", "PlayoutStop",
    "OPTIONAL_HOOKS", "offered_hooks", "rank_returns",
]


# The optional hooks of `Game`: methods with a default that a game may override. `GameInfo.hooks`
# names those a game's class overrides, read from the class (`offered_hooks`).
OPTIONAL_HOOKS: Final = (
    "option_specs", "bots_only_options", "learning_action_space", "observation_encoder",
    "heuristic", "evaluation", "final_values", "table_data", "rollout_action", "playout",
    "secret_fields", "undoable", "new_chance_game", "max_decisions", "setup_words",
    "score_words")


class Game(ABC):
    """A configured game: rules, static data and validated options.

    What the game is (title, player counts, information and chance, seats and their colours)
    is its class attribute `info`, a `core.info.GameInfo` declared once; a class that declares
    none gets `core.info.default_info` from its `name`, `title` and `perfect_information`."""

    name: str = ""
    version: str = "1"
    info: ClassVar[GameInfo]
    _declared_info: ClassVar[GameInfo | None] = None
    # Read only when `info` is not declared (older plug-ins): the title, and whether every seat
    # sees everything.
    title: ClassVar[str] = ""
    perfect_information: ClassVar[bool] = False
    options_help: ClassVar[Mapping[str, str]] = {}  # option name -> text (see option_specs)
    # The implementations of the rules a game offers, the first being its default. A game may
    # have a compiled engine beside the Python one (the rules reference); which one plays is
    # not an option of the game and is not recorded: a record replays on any of them.
    engines: tuple[str, ...] = ("python",)
    engine: str = "python"  # the engine this Game object plays with (set by games with several)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Completes the class's `info`: its own declaration, else the nearest declared one
        of its bases, else the default from its attributes; the hooks from the class."""
        super().__init_subclass__(**kwargs)
        own = cls.__dict__.get("info")
        if own is not None and not isinstance(own, GameInfo):
            raise PluginError(f"{cls.__qualname__}.info must be a GameInfo, not {own!r}")
        declared = own if own is not None else cls._declared_info
        cls._declared_info = declared
        base = declared if declared is not None else default_info(
            cls.name, cls.title, perfect=cls.perfect_information is True,
            explicit_chance=(_defined_by(cls, "new_chance_game") is not Game
                             or _defined_by(cls, "chance_outcome_count") is not Game))
        doc = (cls.__doc__ or "").strip().splitlines()
        cls.info = dataclasses.replace(base, hooks=offered_hooks(cls),
                                       description=base.description or (doc[0] if doc else ""))

    def __init__(self, players: int, options: JsonDict) -> None:
        self.num_players = players
        self._options = copy_options(options)

    # -- engines -------------------------------------------------------------------------------

    @classmethod
    def default_engine(cls) -> str:
        """The engine used when none is asked for."""
        return cls.engines[0]

    @classmethod
    def engine_unavailable(cls, engine: str) -> str:
        """Why `engine` (one of `engines`) cannot run on this machine; "" when it can. A game
        whose compiled engine may be missing (not built at install time) says so here."""
        return ""

    @classmethod
    def choose_engine(cls, engine: object = None) -> str:
        """The engine to play with: the default for None, else `engine` when the game offers it
        and it can run here; InvalidOptionError naming the engines otherwise."""
        if engine is None:
            return cls.default_engine()
        game, offered = cls.name or cls.__name__, ", ".join(cls.engines)
        if not isinstance(engine, str):
            raise InvalidOptionError(f"engine must be a string, one of {offered} for {game}, "
                                     f"not {short_repr(engine)}")
        if engine not in cls.engines:
            raise InvalidOptionError(
                f"unknown engine {short_repr(engine)} for {game}; engines: {offered}")
        reason = cls.engine_unavailable(engine)
        if reason:
            raise InvalidOptionError(f"the {engine} engine of {game} is not available here: "
                                     f"{reason}")
        return engine

    @classmethod
    def option_specs(cls, players: int) -> list[OptionSpec]:
        """The options this game takes with `players` seats, one `core.options.OptionSpec`
        each (type, default, choices, range, help): the single description the game validates
        with and every front end shows (the web lobby's form, the CLI). Games override it. The
        default, for games that declare nothing, is derived from what they have: the options
        a game created with none holds (typed from their values) and the texts of an
        `options_help` class attribute (option name -> text); empty when the game cannot be
        created with no options."""
        help_texts = dict(cls.options_help) if isinstance(cls.options_help, Mapping) else {}
        try:
            defaults = cls(players, {}).option_summary()  # type: ignore[call-arg]
        except (BoardwrightError, TypeError):  # needs options, or another constructor
            defaults = {}
        return derive_specs(defaults if isinstance(defaults, dict) else {}, help_texts)

    @property
    def options(self) -> JsonDict:
        """The validated options (a deep copy: the game's own cannot be changed from outside)."""
        return copy.deepcopy(self._options)

    @abstractmethod
    def new_game(self, seed: int | None = None) -> State:
        """A fresh state; all chance comes from `seed`, a whole number from 0 to 2**64 - 1 (a
        random one when None). Games check it with `core.inputs.check_seed`."""

    # -- actions: the conversions come for free from `all_actions` ----------------------------

    def all_actions(self) -> Sequence[Action] | None:
        """Every distinct action of this configured game, in id order (an action's id is its
        position), or None (the default) for a game that converts its actions itself. A game
        that lists them gets `action_from_json`, `action_id`, `action_from_id`,
        `num_distinct_actions` and the checks of `State.apply` for free
        (`core.action_list`). Called once; the list is kept."""
        return None

    def action_list(self) -> ActionList | None:
        """The numbered `all_actions()` (None when the game lists none), made once."""
        listed = self.__dict__.get("_action_list", False)
        if listed is False:
            actions = self.all_actions()
            listed = None if actions is None else ActionList(self.name or type(self).__name__,
                                                              actions)
            self.__dict__["_action_list"] = listed
        return listed

    def _listed(self, what: str) -> ActionList:
        listed = self.action_list()
        if listed is None:
            raise NotImplementedError(f"{type(self).__name__} must implement {what} or list "
                                      "its actions in all_actions()")
        return listed

    def action_classes(self) -> tuple[type, ...]:
        """The classes of the game's action objects, which `State.apply` takes as they are
        (anything else but their JSON form is refused): by default those of `all_actions()`,
        else those of the `action_types` class attribute, if any."""
        listed = self.action_list()
        if listed is not None:
            return tuple(listed.types)
        return tuple(getattr(self, "action_types", ()))

    def action_from_json(self, data: Any) -> Action:
        """Parse an action from its JSON form; MalformedActionError when it cannot."""
        return self._listed("action_from_json").from_json(data)

    def action_id(self, action: Action) -> int:
        """The stable integer id of an action in [0, num_distinct_actions)."""
        return self._listed("action_id").action_id(action)

    def action_from_id(self, action_id: int) -> Action:
        """The action with that id; MalformedActionError for an id outside the space."""
        return self._listed("action_from_id").from_id(action_id)

    @property
    def num_distinct_actions(self) -> int:
        """Size of the fixed action-id space (for RL action masks)."""
        return len(self._listed("num_distinct_actions"))

    def observation_encoder(self) -> Any:
        """The game's own observation encoder for learning (`rl.observations.Encoder`, or an
        object with its `size`, `layout` and `encode(view, seat)`), or None (the default): the
        RL adapters then use a generic one."""
        return None

    def learning_action_space(self) -> LearningActionSpace | None:
        """A compact numbering of each position's legal actions for learning
        (`core.action_space`), or None (the default) when the stable ids are small enough to
        serve as they are: the RL adapters then use those."""
        return None

    def heuristic(self, state: State) -> list[float]:
        """A quick value per seat of a position (higher is better), for greedy play and search
        leaves. Games override it; the default is the current scores."""
        return [float(s) for s in state.scores]

    def evaluation(self, state: State) -> list[float]:
        """The value per seat a search judges its leaves by (higher is better). It may differ
        from `heuristic`, which the greedy agent plays by: a search that judges positions
        exactly as its greedy opponent does can only out-guess it by its extra lookahead. The
        default is the heuristic."""
        return self.heuristic(state)

    # What an analysis measures a lead in (core/analysis_unit.py): the evaluation's points by
    # default; a game whose evaluation is not in a unit players count in gives its own.
    analysis_unit: ClassVar[AnalysisUnit] = POINTS

    def final_values(self, state: State) -> list[float]:
        """What a finished game is worth per seat to a search, on the scale of `evaluation`, so
        that a playout that ends the game and one judged before the end compare: by default the
        evaluation of the final position (a win counts as the evaluation counts wins). A game
        whose evaluation estimates the final scores returns the scores themselves."""
        return self.evaluation(state)

    def table_data(self, state: State) -> JsonDict:
        """Public data a table shows beside the view, derived by the game's rules from the
        position (Carcassonne: the feature a figure spot joins and its points now, the scores
        if the game ended now, the final scoring by feature). Every seat and spectator receives
        it, so it must hold nothing hidden. The default: nothing."""
        return {}

    evaluation_versions: tuple[str, ...] = ("current",)  # the names `evaluation_of` takes

    def evaluation_of(self, version: str, state: State) -> list[float]:
        """An evaluation by version: "current" is `evaluation`; a game whose evaluation was
        refitted keeps the earlier ones under their names (Carcassonne: "v1"), so that a named
        baseline bot keeps judging as it did. A game with one evaluation has only "current"."""
        if version != "current":
            raise InvalidOptionError(f"{self.name} has no evaluation named {version!r}")
        return self.evaluation(state)

    @property
    def search_defaults(self) -> dict[str, Any]:
        """The search settings (`MCTSConfig` fields) that measured best for this game; an
        agent string's own parameters take precedence. Empty: the engine's defaults."""
        return {}

    def rollout_action(self, state: State, actions: list[Action], rng: random.Random) -> Action:
        """The move of a fast playout policy (search rollouts). Games may override it with
        something cheap but less erratic than uniform; the default is uniform."""
        return rng.choice(actions)

    def playout(self, state: State, policy: str, rng: random.Random, stop: PlayoutStop,
                evaluation: str = "current") -> tuple[list[float], bool] | None:
        """Play `state` on in place with a playout policy ("random": uniform; "game": the
        game's `rollout_action`; "greedy": the greedy agent's choice) until `stop`, and return
        (the final scores if the game ended, else the leaf judged by `evaluation_of(evaluation)`;
        whether it ended). A game with compiled playouts runs them here without a Python step
        per move; None means it has none for this state and the search plays the moves itself.
        A search passes `evaluation` only when it is not "current" (a game with one evaluation
        may leave it out)."""
        return None

    # -- what other seats may know of an action ------------------------------------------------
    #
    # Some decisions are secret: which treasure a player keeps is theirs to know. The game says
    # so here, once, and every front end (web frames, the terminal game, logs) shows actions
    # through `public_action` / `describe_action` for the seat looking at them.

    def secret_fields(self, action: Action) -> tuple[str, ...]:
        """The fields of the action's JSON form that only the acting seat may see (the game's
        knowledge). The default: none, every action is public."""
        return ()

    def public_action(self, action: Action, actor: int | None, viewer: Viewer) -> JsonDict:
        """The JSON form of `action`, taken by seat `actor`, as `viewer` may know it: a seat,
        None for a spectator, or OMNISCIENT. The acting seat and OMNISCIENT get the whole form;
        everyone else gets it without the `secret_fields` (an unknown actor counts as another
        seat, so nothing is shown by mistake)."""
        data = action.to_json()
        if viewer is OMNISCIENT or (viewer is not None and viewer == actor):
            return data
        secret = self.secret_fields(action)
        return {k: v for k, v in data.items() if k not in secret} if secret else data

    def hides_from(self, action: Action, actor: int | None, viewer: Viewer) -> bool:
        """Whether `viewer` may not see all of `action` (taken by `actor`)."""
        return self.public_action(action, actor, viewer) != action.to_json()

    def describe_action(self, action: Action, viewer: Viewer = None,
                        actor: int | None = None) -> str:
        """A short human-readable text of `action` (taken by seat `actor`) for `viewer`: the
        whole text (`action_text`) when the viewer may see the whole action, else the text of
        its public form (`secret_action_text`). The defaults give what a spectator may read;
        menus pass the deciding seat as both viewer and actor."""
        public = self.public_action(action, actor, viewer)
        if public == action.to_json():
            return self.action_text(action)
        return self.secret_action_text(public)

    def describe(self, state: State, action: Action, viewer: Viewer = None) -> str:
        """The game's own words for `action`, taken in `state` (before it is applied) by the
        seat to move, as `viewer` may read it: what every front end (web log and menus,
        terminal, replays) shows of a move. Games word it with what the position tells
        (games/<game>/texts.py), asking `hides_from` first; the default is `describe_action`."""
        return self.describe_action(action, viewer, state.current_player)

    def action_text(self, action: Action) -> str:
        """The whole text of an action, secret fields included. Games override it."""
        return str(action.to_json())

    def secret_action_text(self, public: JsonDict) -> str:
        """The text of an action's public form (secret fields left out). Games with secret
        fields override it; the default names the kind of action."""
        kind = str(public.get("type", "action")).replace("_", " ")
        rest = " ".join(f"{k}={v}" for k, v in public.items() if k != "type")
        return f"{kind} {rest} (hidden)".replace("  ", " ")

    # -- taking a step back by agreement ----------------------------------------------------

    def undoable(self, before: State, action: Action, after: State) -> bool:
        """Whether the step from `before` to `after` by `action` may be taken back when the
        players agree: it drew nothing at random and showed no one anything hidden. Taking
        back a draw or a revealed secret would let a player choose again knowing it (Board
        Game Arena's policy), so only deterministic steps that reveal nothing qualify.

        `before` and `after` are read, never changed. The default, False, is the safe side:
        a game that does not answer is never undone by agreement (games played alone against
        bots keep their own free undo, which needs no agreement)."""
        return False

    # -- explicit chance (core/chance.py) ---------------------------------------------------

    def new_chance_game(self) -> State:
        """A fresh state whose random events are chance nodes (`core.chance.
        ExplicitChanceState`): deterministic, with no seed and no hidden order; for
        game-theoretic tools (OpenSpiel, expectimax, ISMCTS). A game whose states draw
        through `State.draw` and that declares its `chance_outcome_count` gets it for free:
        `new_game` runs with each draw an explicit chance event. Games with chance of their
        own implement it; the default refuses the others."""
        if not self.draws_chance:
            raise InvalidOptionError(f"{self.name or type(self).__name__} has no "
                                     "explicit-chance mode")
        from boardwright.core.chance import ExplicitChanceState  # chance builds on this module

        def start(script: Any) -> State:
            token = _CHANCE_SCRIPT.set(script)
            try:
                return self.new_game(0)
            finally:
                _CHANCE_SCRIPT.reset(token)

        return ExplicitChanceState(self, start)

    @property
    def draws_chance(self) -> bool:
        """Whether the game's chance is the base class's (`State.draw`) and its explicit
        chance mode the default `new_chance_game`: it declares `chance_outcome_count` and
        does not implement `new_chance_game` itself."""
        return (type(self).new_chance_game is Game.new_chance_game
                and self.chance_outcome_count > 0)

    @property
    def chance_outcome_count(self) -> int:
        """The size of the space of chance outcome ids (0: the game has no chance)."""
        return 0

    def chance_outcome_text(self, outcome: int) -> str:
        """A short text of a chance outcome id."""
        return f"chance outcome {outcome}"

    def chance_outcome_public(self, outcome: int) -> bool:
        """Whether every seat sees a chance outcome when it happens (a tile drawn face up), or
        only what its own view shows of it (a card drawn into a hand): the default, as the
        safe side of hidden information."""
        return False

    def max_decisions(self) -> int | None:
        """An upper bound on the decisions of one game under these options (None: the game
        knows none)."""
        return None

    def max_chance_events(self) -> int | None:
        """An upper bound on the chance nodes of one explicit-chance game (None: unknown)."""
        return 0 if self.chance_outcome_count == 0 else None

    @classmethod
    def bots_only_options(cls, options: JsonDict) -> tuple[JsonDict, JsonDict]:
        """The options for a game only bots play, and the entries added to them (shown to the
        user). Games whose rules may not end between bots add a limit here; options that
        already set it are left alone. The default adds nothing."""
        return dict(options), {}

    @classmethod
    def setup_words(cls, options: Mapping[str, Any], players: int) -> list[str]:
        """The options of a game that matter to someone choosing it, in words, for listings
        such as the web lobby's rows ("Abbey & Mayor", "standard map"). Read from the class:
        no game is created. The default names the options set away from their defaults
        (advanced ones left out); games say what matters to their players instead."""
        try:
            specs = cls.option_specs(players)
        except BoardwrightError:
            return []
        return changed_words(specs, options)

    @classmethod
    def score_words(cls, scores: Sequence[Any]) -> list[str]:
        """Each seat's public score (`State.scores` as every seat sees it) as people read it,
        for listings: the number itself by default. A game whose score encodes something
        (a ranking folded into one number) words it here."""
        return [str(score) for score in scores]

    def option_summary(self) -> JsonDict:
        """The options as they are recorded (JSON-able; a deep copy each time)."""
        return copy.deepcopy(self._options)


def _defined_by(cls: type, attribute: str) -> type | None:
    """The class of `cls`'s method resolution order that defines `attribute`."""
    return next((k for k in cls.__mro__ if attribute in k.__dict__), None)


def offered_hooks(cls: type) -> frozenset[str]:
    """The optional hooks (OPTIONAL_HOOKS) a game class overrides."""
    return frozenset(h for h in OPTIONAL_HOOKS if _defined_by(cls, h) is not Game)
