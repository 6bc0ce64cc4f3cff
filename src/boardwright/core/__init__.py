"""Game-agnostic core: protocols, records, errors and the registry. Imports no game."""

from boardwright.core.actions import Action
from boardwright.core.errors import (
    BoardwrightError,
    CorruptRecordError,
    GameOverError,
    IllegalActionError,
    InvalidOptionError,
    MalformedActionError,
    PluginError,
    UnknownGameError,
)
from boardwright.core.game import OMNISCIENT, Game, State, Viewer, rank_returns
from boardwright.core.info import GameInfo, PlayerRange, Seat
from boardwright.core.options import OptionSpec, check_options
from boardwright.core.record import GameRecord
from boardwright.core.registry import (
    available_engines,
    available_games,
    bots_only_options,
    game_info,
    load,
    option_specs,
    register,
    replay,
)

__all__ = [
    "Action", "BoardwrightError", "CorruptRecordError", "GameOverError", "IllegalActionError",
    "InvalidOptionError", "MalformedActionError", "PluginError", "UnknownGameError", "Game",
    "OMNISCIENT", "State", "Viewer", "GameInfo", "PlayerRange", "Seat", "game_info",
    "rank_returns", "GameRecord", "available_engines", "available_games", "bots_only_options",
    "load", "register", "replay", "OptionSpec", "check_options", "option_specs",
]
