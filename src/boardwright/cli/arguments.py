"""Parsing the arguments commands share: a line-up of seats or agents, `--option key=value`,
`--expansion`, and the options a game adds when only bots play."""

from __future__ import annotations

import json
from typing import Any, Sequence

import boardwright as bw
from boardwright.agents import HUMAN
from boardwright.cli.common import UsageError

# The help of `--option`, shared by the commands that create games (play, simulate).
OPTION_HELP = ("A game option as key=value (value parsed as JSON when it can be); repeat for "
               "several. `boardwright options GAME` lists them.")


def parse_seats(text: str, flag: str = "--players", example: str = "human,random") -> list[str]:
    """`"human,random:seed=3"` -> one entry per seat.

    Agent parameters are comma-separated too (`mcts:iters=200,seed=3`), so an item that is only
    `key=value` continues the agent spec before it instead of starting a new seat. `flag` and
    `example` only word the error messages (`simulate --agents` parses the same way).
    """
    seats: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            raise UsageError(f"{flag} {text!r} has an empty seat; write e.g. {example}")
        if item.lower() == HUMAN:
            item = HUMAN
        if "=" in item and ":" not in item and seats and ":" in seats[-1]:
            seats[-1] += "," + item
        else:
            seats.append(item)
    if not seats:
        raise UsageError(f"{flag} needs at least one seat, e.g. {example}")
    return seats


def parse_option_values(items: Sequence[str]) -> dict[str, Any]:
    """`["farmers=false", "small_city_scoring=first_edition"]` -> {"farmers": False, ...}.

    Values are JSON when they parse as JSON (numbers, true/false, lists), strings otherwise.
    """
    options: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option {item!r} is not key=value (e.g. --option farmers=false)")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        options[key.strip()] = value
    return options


def add_expansions(options: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """Append `--expansion` names to options["expansions"] (kept in order, no duplicates).

    The game validates the names; here only the shape of an `--option expansions=...` that
    they are added to is checked, so the error names the flag that caused it.
    """
    if not names:
        return options
    current = options.get("expansions", [])
    if isinstance(current, str):
        current = [current]
    if not isinstance(current, list):
        raise UsageError(f"--expansion cannot be added to --option expansions={current!r}: "
                         "it must be a list, e.g. expansions='[\"abbey_mayor\"]'")
    merged = list(current)
    for name in names:
        name = name.strip()
        if not name:
            raise UsageError("--expansion needs a name, e.g. --expansion abbey_mayor")
        if name not in merged:
            merged.append(name)
    return {**options, "expansions": merged}


def bots_only_options(game: str, options: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The options of a game only bots play (the game adds its limit, e.g. Rise of the
    Shogun's round cap) and a note of what was added, None when nothing was."""
    options, added = bw.bots_only_options(game, options)
    if not added:
        return options, None
    return options, ", ".join(f"{key} = {value}" for key, value in added.items())


def agent_seed(seed: int, seat: int) -> int:
    """Each bot gets its own seed derived from the game's, so `--seed` fixes the whole game."""
    return seed * 101 + seat + 1
