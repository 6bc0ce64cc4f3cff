"""boardwright: an engine for tabletop board games.

    import boardwright as bw
    game = bw.load("carcassonne", players=2)
    state = game.new_game(seed=7)
"""

import importlib
from collections.abc import Mapping
from typing import Any

from boardwright.core import (
    Action,
    BoardwrightError,
    CorruptRecordError,
    Game,
    GameInfo,
    GameOverError,
    GameRecord,
    IllegalActionError,
    InvalidOptionError,
    MalformedActionError,
    OMNISCIENT,
    OptionSpec,
    PlayerRange,
    PluginError,
    Seat,
    State,
    UnknownGameError,
    Viewer,
    available_engines,
    available_games,
    bots_only_options,
    game_info,
    load,
    option_specs,
    register,
    replay,
)

__version__ = "0.1.0"


def register_agent(name: str, factory: Any, parameters: Mapping[str, Any] | None = None) -> None:
    """Make an agent class or factory available to agent strings under `name` (parameters:
    agent-string name -> type, or (keyword, type)); see `boardwright.agents.registry`.

    The agents are a layer above this facade: they are imported by name on first use, as the
    registry imports the built-in games, so `import boardwright` stays the engine alone."""
    importlib.import_module("boardwright.agents.registry").register_agent(
        name, factory, parameters)


def available_agents() -> list[str]:
    """The agent names agent strings may use: built-in, registered, and installed plugins."""
    return importlib.import_module("boardwright.agents").available_agents()


__all__ = [
    "Action", "BoardwrightError", "CorruptRecordError", "Game", "GameInfo", "GameOverError",
    "GameRecord", "PlayerRange", "Seat", "game_info",
    "IllegalActionError", "InvalidOptionError", "MalformedActionError", "OMNISCIENT",
    "PluginError", "State", "UnknownGameError", "Viewer", "available_agents", "available_engines",
    "available_games", "bots_only_options", "load", "option_specs", "OptionSpec", "register", "register_agent", "replay",
    "__version__",
]
