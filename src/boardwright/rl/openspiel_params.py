"""What OpenSpiel is told of a boardwright game before any is created: its game type (most
players, information, chance mode, parameters) read from the game's `GameInfo`, and the
parameters `players` and `options` checked and written back into the game string (see
`boardwright.rl.openspiel` for what they mean)."""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pyspiel

import boardwright as bw
from boardwright.core.errors import InvalidOptionError
from boardwright.core.game import Game
from boardwright.core.inputs import short_repr


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
    """The `options` parameter as the game string carries it (see `boardwright.rl.openspiel`)."""
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


# -- the game type -----------------------------------------------------------------------

def short_name(name: str) -> str:
    """The name game `name` is registered under with pyspiel."""
    return f"python_boardwright_{name}"


def game_type(name: str) -> Any:
    """The `pyspiel.GameType` of game `name`, from its `Spec`."""
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
        short_name=short_name(name),
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

