"""Validation of the Rise of the Shogun options: every key checked, every error names the option.

Options (docs/rules/shogun.md):
- `max_rounds` (default none, as in the rulebook): the game also ends after the last player's
  turn of that round (SHO-SCORE-08). Simulations set it so every game ends.
- `max_decisions` (default none): the game also ends once that many decisions have been
  taken, scored as at the round cap (SHO-SCORE-09). The rules set no limit on a turn's
  decisions, so a round limit alone bounds no game; tools that need a bound (OpenSpiel's
  `max_game_length`) set it.
- `vp_threshold` (default by player count 24 / 22 / 20) and `vp_threshold_4p` (the 4-player
  threshold alone, 20 by default; 24 is the rulebook's other reading) (SHO-SCORE-02, -03, -07).
- `own_peasant_step_cost` (0 or 1, default 0): what entering a space of one's own peasant
  costs a moving hero (SHO-MOVE-04, -05).
- `custom_decks` (default false): decks other than the four heroes may be given in `heroes`
  (SHO-COMP-08).
- `heroes`: one deck per seat (a hero id, or a deck table with `custom_decks`), skipping the
  hero-choice decisions of the set-up. Any hero may sit in any seat.
- `fixed_order`: chance fixed for tests (SHO-SETUP-19): `first_player` (a seat), `treasure`
  and `missions` (deck orders, top first) and `decks` (seat -> action-card order, top first).
"""

from __future__ import annotations

import functools

import copy
from dataclasses import dataclass, field
from typing import Any, Mapping

from boardwright.core.errors import InvalidOptionError
from boardwright.core.options import OptionSpec, check_options
from boardwright.duel import HeroDeck
from boardwright.games.shogun.content import ShogunContent, check_player_count
from boardwright.games.shogun.decks import HEROES, resolve_deck
from boardwright.games.shogun.hero_words import hero_labels

FIXED_KEYS = ("first_player", "treasure", "missions", "decks")
DEFAULT_THRESHOLDS = {2: 24, 3: 22, 4: 20}


@dataclass(frozen=True)
class FixedOrder:
    """Chance replaced by given orders (SHO-SETUP-19); None keeps the RNG."""

    first_player: int | None = None
    treasure: tuple[str, ...] | None = None
    missions: tuple[str, ...] | None = None
    decks: Mapping[int, tuple[str, ...]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.first_player is not None:
            out["first_player"] = self.first_player
        if self.treasure is not None:
            out["treasure"] = list(self.treasure)
        if self.missions is not None:
            out["missions"] = list(self.missions)
        if self.decks:
            out["decks"] = {str(k): list(v) for k, v in sorted(self.decks.items())}
        return out


@dataclass(frozen=True)
class ShogunOptions:
    """Validated options; `raw` is what the record keeps."""

    players: int
    max_rounds: int | None
    threshold: int
    own_peasant_step_cost: int
    custom_decks: bool
    heroes: tuple[HeroDeck, ...] | None
    fixed: FixedOrder
    raw: Mapping[str, Any]
    max_decisions: int | None = None

    def to_json(self) -> dict[str, Any]:
        return copy.deepcopy(dict(self.raw))


def _whole(raw: Mapping[str, Any], key: str, low: int, high: int) -> int:
    value = raw[key]
    if type(value) is not int or not low <= value <= high:
        raise InvalidOptionError(f"option {key!r} must be a whole number from {low} to {high}, "
                                 f"not {value!r}")
    return value


def _order(value: Any, key: str, allowed: set[str], size: int) -> tuple[str, ...]:
    if (not isinstance(value, list) or not all(isinstance(v, str) for v in value)
            or sorted(value) != sorted(allowed) or len(value) != size):
        raise InvalidOptionError(f"option fixed_order.{key} must list the {size} card ids "
                                 f"{', '.join(sorted(allowed))} once each, top first")
    return tuple(value)


# Options that may be given as null, meaning "not set" (what records of earlier games hold).
NULLABLE = ("max_rounds", "max_decisions", "vp_threshold", "vp_threshold_4p", "heroes",
            "fixed_order")


def option_specs(players: int) -> list[OptionSpec]:
    """The options of Rise of the Shogun with `players` seats (the module's docstring): the
    one description the options are validated with and the lobby and CLI show."""
    return list(_specs(players))


@functools.lru_cache(maxsize=16)
def _specs(players: int) -> tuple[OptionSpec, ...]:
    """The specs, built once per player count (they are immutable)."""
    return (
        OptionSpec("max_rounds", "int", None, min=1, max=10_000, label="Last round",
                   help="end the game after this round (not set: the rulebook's game, which "
                        "ends on victory points; 30 when only bots play)"),
        OptionSpec("max_decisions", "int", None, min=1, max=100_000_000, advanced=True,
                   label="Stop after this many moves (for testing tools)",
                   help="end the game once this many decisions were taken"),
        OptionSpec("vp_threshold", "int", DEFAULT_THRESHOLDS.get(players), min=1, max=1000,
                   label="Victory points to win",
                   help="victory points that win (24 / 22 / 20 for 2 / 3 / 4 players)"),
        OptionSpec("vp_threshold_4p", "int", DEFAULT_THRESHOLDS[4], min=1, max=1000,
                   advanced=True, label="Victory points to win with 4 players",
                   help="the 4-player threshold alone (24 is the rulebook's other reading); "
                        "vp_threshold takes precedence"),
        OptionSpec("own_peasant_step_cost", "int", 0, min=0, max=1, advanced=True,
                   label="Cost of stepping onto your own peasant",
                   help="what entering a space of one's own peasant costs a moving hero"),
        OptionSpec("custom_decks", "bool", False, advanced=True, label="Custom decks",
                   help="decks other than the four heroes may be given in heroes (as tables)"),
        OptionSpec("heroes", "list", None, choices=HEROES, min=players, max=players,
                   label="Heroes", labels=hero_labels(),
                   help="one hero per seat, in seat order, skipping the hero choice of the "
                        "set-up"),
        OptionSpec("fixed_order", "object", None, advanced=True, label="Fixed chance",
                   help="chance fixed for tests: first_player, treasure, missions, decks "
                        "(everyone can read it in the lobby)"),
    )


def parse_options(raw: Mapping[str, Any], players: int,
                  content: ShogunContent) -> ShogunOptions:
    """Check every option against `option_specs`, then what the specs cannot say (one deck
    per seat, the fixed orders); InvalidOptionError names the one at fault."""
    check_player_count(players)
    given = {k: v for k, v in raw.items() if v is not None or k not in NULLABLE}
    values = check_options(option_specs(players), given, "Shogun", own=("heroes", "fixed_order"))
    max_rounds = values.get("max_rounds")
    max_decisions = values.get("max_decisions")
    threshold = values["vp_threshold_4p"] if players == 4 else DEFAULT_THRESHOLDS[players]
    if "vp_threshold" in given:
        threshold = values["vp_threshold"]
    cost = values["own_peasant_step_cost"]
    custom = values["custom_decks"]
    heroes: tuple[HeroDeck, ...] | None = None
    if raw.get("heroes") is not None:
        listed = raw["heroes"]
        if not isinstance(listed, list) or len(listed) != players:
            raise InvalidOptionError(f"option 'heroes' must list one deck per seat ({players}), "
                                     f"not {listed!r}")
        try:
            decks = tuple(resolve_deck(choice, custom) for choice in listed)
        except InvalidOptionError as exc:  # named, as every option error is
            raise InvalidOptionError(f"option 'heroes': {exc}") from None
        names = [d.hero for d in decks]
        if len(set(names)) != len(names):
            raise InvalidOptionError("option 'heroes': each hero can be chosen by at most one "
                                     "player (SHO-COMP-04)")
        heroes = decks
    fixed = FixedOrder()
    if raw.get("fixed_order") is not None:
        fixed = _parse_fixed(raw["fixed_order"], players, content, heroes)
    return ShogunOptions(players, max_rounds, threshold, cost, custom, heroes, fixed, dict(raw),
                         max_decisions)


def _parse_fixed(value: Any, players: int, content: ShogunContent,
                 heroes: tuple[HeroDeck, ...] | None) -> FixedOrder:
    if not isinstance(value, Mapping):
        raise InvalidOptionError("option 'fixed_order' must be an object")
    unknown = sorted(set(value) - set(FIXED_KEYS))
    if unknown:
        raise InvalidOptionError(f"unknown fixed_order key(s) {', '.join(unknown)}; known: "
                                 f"{', '.join(FIXED_KEYS)}")
    first = None
    if value.get("first_player") is not None:
        first = value["first_player"]
        if type(first) is not int or not 0 <= first < players:
            raise InvalidOptionError(f"option fixed_order.first_player must be a seat 0.."
                                     f"{players - 1}, not {first!r}")
    treasure = None
    if value.get("treasure") is not None:
        ids = {t.id for t in content.treasures}
        treasure = _order(value["treasure"], "treasure", ids, len(ids))
    missions = None
    if value.get("missions") is not None:
        ids = {m.id for m in content.missions}
        missions = _order(value["missions"], "missions", ids, len(ids))
    decks: dict[int, tuple[str, ...]] = {}
    raw_decks = value.get("decks") or {}
    if not isinstance(raw_decks, Mapping):
        raise InvalidOptionError("option fixed_order.decks must map seats to card orders")
    for key, order in raw_decks.items():
        try:
            seat = int(key)
        except (TypeError, ValueError):
            raise InvalidOptionError(f"fixed_order.decks key {key!r} is not a seat") from None
        if not 0 <= seat < players:
            raise InvalidOptionError(f"fixed_order.decks key {key!r} is not a seat")
        if not isinstance(order, list) or not all(isinstance(c, str) for c in order):
            raise InvalidOptionError(f"fixed_order.decks[{key}] must list card ids, top first")
        decks[seat] = tuple(order)
    if decks and heroes is None:
        raise InvalidOptionError("fixed_order.decks needs the option 'heroes', so each seat's "
                                 "deck is known before the game starts")
    return FixedOrder(first, treasure, missions, decks)


KNOWN_OPTIONS = tuple(spec.name for spec in option_specs(2))


def known_heroes() -> tuple[str, ...]:
    return HEROES
