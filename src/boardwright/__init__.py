"""boardwright: an engine for tabletop board games.

    import boardwright as bw
    game = bw.load("carcassonne", players=2)
    state = game.new_game(seed=7)
"""

from boardwright.core import (
    Action,
    BoardwrightError,
    CorruptRecordError,
    Game,
    GameOverError,
    GameRecord,
    IllegalActionError,
    InvalidOptionError,
    MalformedActionError,
    OMNISCIENT,
    State,
    UnknownGameError,
    Viewer,
    available_engines,
    available_games,
    bots_only_options,
    load,
    register,
    replay,
)

__version__ = "0.1.0"

__all__ = [
    "Action", "BoardwrightError", "CorruptRecordError", "Game", "GameOverError", "GameRecord",
    "IllegalActionError", "InvalidOptionError", "MalformedActionError", "OMNISCIENT", "State",
    "UnknownGameError", "Viewer", "available_engines", "available_games", "bots_only_options",
    "load", "register", "replay", "__version__",
]
