"""Everything in the box (SHO-COMP-01..08): the components table, and one object gathering
the map, the hero decks, the missions and the treasures.

`load_content()` reads and validates every data file once per process; a corrupted file raises
InvalidOptionError naming it. The small checks below (player count, colours, hero choice) are
the component rules that do not need a game in progress.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Collection, Mapping

from boardwright.core.errors import IllegalActionError, InvalidOptionError
from boardwright.duel import CardDef, HeroDeck
from boardwright.games.shogun.board import Board, load_board
from boardwright.games.shogun.datafile import check_keys, fail, read_data, whole
from boardwright.games.shogun.decks import HEROES, catalogue, load_decks
from boardwright.games.shogun.missions import MISSION_COUNT, Mission, load_missions
from boardwright.games.shogun.treasures import TREASURE_COUNT, Treasure, load_treasures

COMPONENTS_FILE = "components.toml"
COMPONENT_KEYS = frozenset(("player_counts", "colours", "peasants_per_colour", "castles",
                            "shrines", "missions", "treasures", "castles_in_play", "heroes"))


@dataclass(frozen=True)
class Components:
    """The component counts of the box (SHO-COMP-02, -03, -07) and castles by player count
    (SHO-SETUP-03)."""

    player_counts: tuple[int, ...]
    colours: tuple[str, ...]
    peasants_per_colour: int
    castles: int
    shrines: int
    missions: int
    treasures: int
    castles_in_play: Mapping[int, int]
    heroes: tuple[str, ...]

    @property
    def peasants(self) -> int:
        return self.peasants_per_colour * len(self.colours)


def parse_components(raw: Any, where: str = f"data file {COMPONENTS_FILE}") -> Components:
    table = check_keys(raw, where, COMPONENT_KEYS)
    counts = table["player_counts"]
    if not isinstance(counts, list) or not counts or not all(type(n) is int and n >= 1
                                                             for n in counts):
        raise fail(where, "'player_counts' must list whole numbers")
    colours = table["colours"]
    if not isinstance(colours, list) or len(set(colours)) != len(colours) \
            or len(colours) < max(counts) or not all(isinstance(c, str) and c for c in colours):
        raise fail(where, "'colours' must list one distinct colour per seat of the largest game")
    heroes = table["heroes"]
    if list(heroes) != list(HEROES):
        raise fail(where, f"'heroes' must be {', '.join(HEROES)}, the decks the data holds")
    if len(heroes) < max(counts):
        raise fail(where, "there must be a hero for every seat (SHO-COMP-04)")
    castles = whole(table, "castles", where, 1, 64)
    in_play_raw = table["castles_in_play"]
    if not isinstance(in_play_raw, Mapping) or sorted(in_play_raw) != sorted(map(str, counts)):
        raise fail(where, "'castles_in_play' must give a number for each player count")
    in_play = {int(k): whole(in_play_raw, k, where, 1, castles) for k in in_play_raw}
    components = Components(
        player_counts=tuple(counts), colours=tuple(colours),
        peasants_per_colour=whole(table, "peasants_per_colour", where, 1, 99), castles=castles,
        shrines=whole(table, "shrines", where, 1, 64),
        missions=whole(table, "missions", where, MISSION_COUNT, MISSION_COUNT),
        treasures=whole(table, "treasures", where, TREASURE_COUNT, TREASURE_COUNT),
        castles_in_play=in_play, heroes=tuple(heroes))
    return components


@lru_cache(maxsize=None)
def load_components() -> Components:
    return parse_components(read_data(COMPONENTS_FILE))


@dataclass(frozen=True)
class ShogunContent:
    """All static content of the game, validated. Shared by every game and state."""

    components: Components
    board: Board
    decks: Mapping[str, HeroDeck]
    catalogue: Mapping[str, CardDef]
    missions: tuple[Mission, ...]
    treasures: tuple[Treasure, ...]

    def treasure(self, treasure_id: str) -> Treasure:
        for t in self.treasures:
            if t.id == treasure_id:
                return t
        raise InvalidOptionError(f"unknown treasure {treasure_id!r}")

    def mission(self, mission_id: str) -> Mission:
        for m in self.missions:
            if m.id == mission_id:
                return m
        raise InvalidOptionError(f"unknown mission {mission_id!r}")


@lru_cache(maxsize=None)
def load_content() -> ShogunContent:
    """Read and check every data file (once per process)."""
    return ShogunContent(components=load_components(), board=load_board(), decks=load_decks(),
                         catalogue=catalogue(), missions=load_missions(),
                         treasures=load_treasures())


def check_player_count(players: Any) -> int:
    """2, 3 or 4 players (SHO-COMP-01); InvalidOptionError otherwise."""
    counts = load_components().player_counts
    if type(players) is not int or players not in counts:
        raise InvalidOptionError(f"HeroCard: Rise of the Shogun is for "
                                 f"{', '.join(map(str, counts))} players, not {players!r}")
    return players


def colours_for(players: int) -> tuple[str, ...]:
    """The colour of each seat: the first `players` colours of the box (SHO-COMP-07)."""
    return load_components().colours[:check_player_count(players)]


def choose_hero(taken: Collection[str], hero: str) -> str:
    """A hero choice is legal if the hero exists and nobody has it yet (SHO-COMP-04)."""
    if hero not in load_components().heroes:
        raise IllegalActionError(f"unknown hero {hero!r}; the heroes are {', '.join(HEROES)}")
    if hero in taken:
        raise IllegalActionError(f"the {hero} is already taken; each hero is chosen by at most "
                                 "one player (SHO-COMP-04)")
    return hero
