"""The game registry: names to game factories, and replay of records.

Built-in games are imported lazily by name so that loading one game never imports the others.
Games of other installed packages are found the same way, through their `boardwright.games`
entry points (core/plugins.py): their names are listed without importing them, and a plugin is
imported the first time its game is loaded. A built-in name cannot be taken by a plugin.

A game may offer several engines (implementations of the same rules, `Game.engines`); `load`
and `replay` take the one to use, and pass it to the factory only when the game offers more
than one, so factories of single-engine games keep their `(players, options)` signature.
"""

from __future__ import annotations

import copy
import importlib
import types
from typing import Any, Callable

from boardwright.core import plugins
from boardwright.core.errors import (
    BoardwrightError,
    CorruptRecordError,
    InvalidOptionError,
    PluginError,
    UnknownGameError,
)
from boardwright.core.game import Game, State
from boardwright.core.info import GameInfo, default_info
from boardwright.core.inputs import MAX_INT, copy_options, short_repr
from boardwright.core.options import OptionSpec, changed_words
from boardwright.core.record import GameRecord

GameFactory = Callable[[int, dict[str, Any]], Game]

_FACTORIES: dict[str, GameFactory] = {}
_BUILTIN_MODULES: dict[str, str] = {
    "carcassonne": "boardwright.games.carcassonne",
    "queens": "boardwright.games.queens",
    "shogun": "boardwright.games.shogun",
}


def register(name: str, factory: GameFactory) -> None:
    """Make a game available to `load` under `name`."""
    _FACTORIES[name] = factory


def available_games() -> list[str]:
    """The names `load` knows: built-in games, registered ones and installed plugins (listed
    from their metadata, not imported)."""
    return sorted(set(_FACTORIES) | set(_BUILTIN_MODULES) | set(_plugin_games()))


def _plugin_games() -> dict[str, Any]:
    """The `boardwright.games` entry points, without the built-in names they may not take."""
    return {name: point for name, point in plugins.entry_points(plugins.GAMES_GROUP).items()
            if name not in _BUILTIN_MODULES}


def _load_plugin(name: str, point: Any) -> None:
    """Import a plugin game and register it. The entry point names either the game's factory
    (a `Game` subclass or a function of (players, options)), registered under the entry point's
    name, or a module that calls `register` itself when imported."""
    target = plugins.load(point)
    if isinstance(target, types.ModuleType):  # a module: registering is its import's job
        if name not in _FACTORIES:
            raise PluginError(f"{plugins.describe(point)} names a module that registers no "
                              f"game {name!r}: name the Game class (module:Class) instead")
        return
    if not callable(target):
        raise PluginError(f"{plugins.describe(point)} names {short_repr(target)}, which is "
                          "neither a Game class nor a factory of (players, options)")
    declared = getattr(target, "name", "") if isinstance(target, type) else ""
    if isinstance(target, type) and issubclass(target, Game) and declared != name:
        raise PluginError(f"{plugins.describe(point)} names the game class "
                          f"{target.__name__}, whose name is {declared!r}: records name a game "
                          f"by Game.name, so it must be {name!r}")
    register(name, target)


def _factory(name: str) -> GameFactory:
    """The factory registered under `name`, importing a built-in game or a plugin on first
    use."""
    if not isinstance(name, str):
        raise UnknownGameError(f"game name must be a string, not {type(name).__name__}")
    if name not in _FACTORIES and name in _BUILTIN_MODULES:
        importlib.import_module(_BUILTIN_MODULES[name])
    if name not in _FACTORIES:
        point = _plugin_games().get(name)
        if point is not None:
            _load_plugin(name, point)
    if name not in _FACTORIES:
        raise UnknownGameError(f"unknown game {name!r}; available: {', '.join(available_games())}")
    return _FACTORIES[name]


def game_info(name: str) -> GameInfo:
    """What game `name` is (`Game.info`: title, player counts, information and chance, seats),
    read from its class: no game is created. A game registered as a plain factory function
    may carry an `info` attribute; one without gets the default of its name."""
    factory = _factory(name)
    if isinstance(factory, type) and issubclass(factory, Game):
        return factory.info
    info = getattr(factory, "info", None)
    return info if isinstance(info, GameInfo) else default_info(name)


def bots_only_options(name: str, options: dict[str, Any] | None = None
                      ) -> tuple[dict[str, Any], dict[str, Any]]:
    """The options of a game that only bots play, and what was added to them.

    A game whose rules need not end between bots (Rise of the Shogun has no round limit by
    default) says so through its `Game.bots_only_options`; simulations, terminal demos and the
    web table all ask here, so the limit is the game's, not each front end's."""
    factory = _factory(name)
    options = copy_options({} if options is None else options)
    hook = getattr(factory, "bots_only_options", None)
    if hook is None:
        return options, {}
    return hook(options)


def option_specs(name: str, players: int = 2) -> list[OptionSpec]:
    """The options game `name` takes with `players` seats (`Game.option_specs`): what the web
    lobby builds its form from and the CLI lists. A game registered as a plain factory
    function is asked through a game it makes with no options (none when it cannot)."""
    factory = _factory(name)
    if type(players) is not int or not 0 < players < MAX_INT:
        raise InvalidOptionError(f"players must be a whole number, not {short_repr(players)}")
    hook = getattr(factory, "option_specs", None)
    if callable(hook):
        return list(hook(players))
    try:
        game = factory(players, {})
    except BoardwrightError:
        return []
    return list(type(game).option_specs(players))


def setup_words(name: str, options: dict[str, Any], players: int) -> list[str]:
    """The options of a game of `name` that matter to its players, in the game's words
    (`Game.setup_words`); a plain factory function's game words them by the defaults'."""
    factory = _factory(name)
    hook = getattr(factory, "setup_words", None)
    if callable(hook):
        return list(hook(options, players))
    try:
        return changed_words(option_specs(name, players), options)
    except BoardwrightError:
        return []


def score_words(name: str, scores: list[Any]) -> list[str]:
    """Each seat's public score of a game of `name` as people read it (`Game.score_words`)."""
    hook = getattr(_factory(name), "score_words", None)
    return list(hook(scores)) if callable(hook) else [str(score) for score in scores]


def _engines(factory: GameFactory) -> tuple[str, ...]:
    """The engines a factory's game offers (a plain function: the Python engine only)."""
    return tuple(getattr(factory, "engines", Game.engines))


def _choose_engine(factory: GameFactory, engine: object) -> str:
    """The engine `load` uses: the game's default for None; InvalidOptionError for a name the
    game does not offer or one that cannot run on this machine (saying why)."""
    chooser = getattr(factory, "choose_engine", None)
    if not callable(chooser):  # a plain factory function: the Game defaults (Python only)
        chooser = Game.choose_engine
    return chooser(engine)


def available_engines(name: str) -> list[str]:
    """The engines of game `name` that can run on this machine, the default first (a compiled
    engine that was not built at install time is left out)."""
    factory = _factory(name)
    engines = _engines(factory)
    unavailable = getattr(factory, "engine_unavailable", None)
    usable = [e for e in engines if not (callable(unavailable) and unavailable(e))]
    default = _choose_engine(factory, None)
    return sorted(usable, key=lambda e: e != default)


def load(name: str, players: int = 2, options: dict[str, Any] | None = None, *,
         engine: str | None = None) -> Game:
    """Create a configured game. Bad names, player counts, options or engines raise
    BoardwrightError. `engine` is one of the game's engines (None: its default); it changes
    how fast the game runs, never its rules, its options or its records."""
    factory = _factory(name)
    if type(players) is not int or not -MAX_INT < players < MAX_INT:
        raise InvalidOptionError(f"players must be a whole number, not {short_repr(players)}")
    chosen = _choose_engine(factory, engine)
    options = copy_options({} if options is None else options)
    if len(_engines(factory)) > 1:
        return factory(players, options, engine=chosen)  # type: ignore[call-arg]
    return factory(players, options)


def replay(record: GameRecord | dict[str, Any], steps: int | None = None, *,
           engine: str | None = None) -> State:
    """Rebuild the state a record describes (its first `steps` actions when given: a whole
    number from 0 to the number of actions), on `engine` (None: the game's default; records do
    not say which engine made them, and replay on any)."""
    if isinstance(record, GameRecord):
        record.check()
    else:
        record = GameRecord.from_json(record)
    total = len(record.actions)
    if steps is not None and (type(steps) is not int or not 0 <= steps <= total):
        raise InvalidOptionError(f"steps must be a whole number from 0 to {total} (the actions "
                                 f"of this record), not {short_repr(steps)}")
    try:
        factory = _factory(record.game)
    except BoardwrightError as exc:
        raise CorruptRecordError(f"record cannot be loaded: {exc}") from None
    chosen = _choose_engine(factory, engine)  # a bad engine is the caller's error, not the record's
    try:
        game = load(record.game, record.players, record.options, engine=chosen)
    except BoardwrightError as exc:
        raise CorruptRecordError(f"record cannot be loaded: {exc}") from None
    if record.version != game.version:
        raise CorruptRecordError(
            f"record is for {record.game} version {record.version}, engine has {game.version}"
        )
    state = game.new_game(record.seed)
    actions = record.actions if steps is None else record.actions[:steps]
    for index, data in enumerate(actions):
        try:
            state.apply(game.action_from_json(data))
        except BoardwrightError as exc:
            raise CorruptRecordError(f"record action #{index} does not replay: {exc}") from None
    state.meta.update(copy.deepcopy(record.meta))
    return state
