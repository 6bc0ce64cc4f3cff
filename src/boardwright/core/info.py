"""What a game is, declared once: `GameInfo`.

Every front end and adapter needs the same few facts about a game before it plays one: what to
call it, how many may play (and with which options), whether a seat sees everything, where its
chance comes from, what each seat is called and in which colour it is drawn, and which of the
optional hooks of `Game` it offers. A game declares them once as its class attribute `info`;
the web lobby, the OpenSpiel adapter, the terminal and the pages read them there instead of
loading the game with one player count after another or probing it for attributes.

A game that declares no `info` (an older plug-in) gets a default derived from its class
(`default_info`), and the hooks it offers are always read from the class itself
(`offered_hooks`), so they cannot disagree with what the class does.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, Literal, Mapping

from boardwright.core.errors import PluginError

Information = Literal["perfect", "imperfect"]
Chance = Literal["deterministic", "seeded", "explicit"]
INFORMATION: Final = ("perfect", "imperfect")
# deterministic: nothing is left to chance; seeded: chance is dealt from `new_game(seed)` only;
# explicit: the game also offers its random events as chance nodes (`Game.new_chance_game`).
CHANCE: Final = ("deterministic", "seeded", "explicit")
# The player counts of a game that declares none: what plug-ins were offered before they could
# say (the games refuse the counts they do not take, naming them).
DEFAULT_PLAYERS: Final = (2, 8)


@dataclass(frozen=True)
class Seat:
    """What a seat is called and how it is drawn: `name` ("Red"), `colour` (a CSS colour, the
    web's pieces and swatches) and `style` (the Rich style of its name in a terminal, where
    the CSS colour may read badly: a black seat is drawn bright black)."""

    name: str
    colour: str
    style: str = ""

    def __post_init__(self) -> None:
        if not (isinstance(self.name, str) and self.name and isinstance(self.colour, str)
                and self.colour and isinstance(self.style, str)):
            raise PluginError(f"a seat needs a name and a colour (strings), not "
                              f"{self.name!r}, {self.colour!r}")

    @property
    def terminal_style(self) -> str:
        """The Rich style of the seat's name: `style`, else the colour in bold."""
        return self.style or f"bold {self.colour}"

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "colour": self.colour}


def other_seat(seat: int) -> Seat:
    """A seat beyond a game's table (never one of a valid game): named by number, grey."""
    return Seat(f"Seat {seat + 1}", "#888888", "bold")


# The seats of a game that declares none (a plug-in): eight, so any default count has one.
DEFAULT_SEATS: Final = (
    Seat("Red", "#d33b2f", "bold red"), Seat("Blue", "#2a6fdb", "bold blue"),
    Seat("Green", "#2e9e45", "bold green"), Seat("Yellow", "#e0b81c", "bold yellow"),
    Seat("Black", "#333333", "bold bright_black"), Seat("Purple", "#b05fd6", "bold magenta"),
    Seat("Orange", "#e8772e", "bold dark_orange"), Seat("Teal", "#1c9c9c", "bold cyan"),
)


@dataclass(frozen=True)
class PlayerRange:
    """The player counts, `low` to `high`, that a set of options allows: `options` are those
    options (beyond the defaults) and `note` says so in words ("with Abbey & Mayor")."""

    low: int
    high: int
    options: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""

    def __post_init__(self) -> None:
        if not (type(self.low) is int and type(self.high) is int and 1 <= self.low <= self.high):
            raise PluginError(f"a player range runs from a whole number >= 1 to one no smaller, "
                              f"not {self.low!r} to {self.high!r}")
        # the game's own, read-only: a caller's later edits change nothing
        object.__setattr__(self, "options", MappingProxyType(copy.deepcopy(dict(self.options))))

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(range(self.low, self.high + 1))

    def to_json(self) -> dict[str, Any]:
        return {"min": self.low, "max": self.high, "options": copy.deepcopy(dict(self.options)),
                "note": self.note}


@dataclass(frozen=True)
class GameInfo:
    """What a game is (see the module's docstring). `players` lists the player ranges by
    option set, the default options' first; `seats` holds one `Seat` per seat of the largest
    game, in seat order; `hooks` names the optional hooks of `Game` the game's class overrides
    (filled in from the class: a declaration leaves it empty); `description` is one line on
    the game (the first of its class's docstring when not given)."""

    title: str
    players: tuple[PlayerRange, ...]
    information: Information
    chance: Chance
    seats: tuple[Seat, ...] = DEFAULT_SEATS
    hooks: frozenset[str] = frozenset()
    description: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.title, str) or not self.title.strip():
            raise PluginError(f"a game's title must be a non-empty string, not {self.title!r}")
        players = tuple(self.players)
        if not players or not all(isinstance(p, PlayerRange) for p in players):
            raise PluginError(f"{self.title}: players must be one PlayerRange or more")
        if self.information not in INFORMATION:
            raise PluginError(f"{self.title}: information must be one of "
                              f"{', '.join(INFORMATION)}, not {self.information!r}")
        if self.chance not in CHANCE:
            raise PluginError(f"{self.title}: chance must be one of {', '.join(CHANCE)}, not "
                              f"{self.chance!r}")
        seats = tuple(self.seats)
        most = max(p.high for p in players)
        if len(seats) < most or not all(isinstance(s, Seat) for s in seats):
            raise PluginError(f"{self.title}: seats must hold a Seat for each of the {most} "
                              f"seats of its largest game, not {len(seats)}")
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "seats", seats)
        object.__setattr__(self, "hooks", frozenset(self.hooks))

    @property
    def min_players(self) -> int:
        return min(p.low for p in self.players)

    @property
    def max_players(self) -> int:
        return max(p.high for p in self.players)

    @property
    def player_counts(self) -> tuple[int, ...]:
        """Every count some option set allows, in order."""
        return tuple(sorted({n for p in self.players for n in p.counts}))

    @property
    def perfect_information(self) -> bool:
        return self.information == "perfect"

    def offers(self, hook: str) -> bool:
        """Whether the game's class overrides the optional hook `hook` of `Game`."""
        return hook in self.hooks

    def seat(self, seat: int) -> Seat:
        """Seat `seat` (0-based); one named by number beyond the table."""
        return self.seats[seat] if 0 <= seat < len(self.seats) else other_seat(seat)

    def seats_for(self, players: int) -> tuple[Seat, ...]:
        """The seats of a game of `players` players."""
        return tuple(self.seat(s) for s in range(players))

    def to_json(self) -> dict[str, Any]:
        """What the web pages read (the lobby's catalog): CSS colours, no terminal styles."""
        return {"title": self.title, "description": self.description,
                "players": list(self.player_counts),
                "min_players": self.min_players, "max_players": self.max_players,
                "player_ranges": [p.to_json() for p in self.players],
                "information": self.information, "chance": self.chance,
                "seats": [s.to_json() for s in self.seats], "hooks": sorted(self.hooks)}


def default_info(name: str, title: str = "", *, perfect: bool = False,
                 explicit_chance: bool = False) -> GameInfo:
    """The info of a game that declares none: its `title` (else its name, "liars_dice" ->
    "Liars dice"), DEFAULT_PLAYERS, imperfect information unless it says `perfect`, chance
    explicit when it has a chance mode else seeded, and DEFAULT_SEATS."""
    words = (title or name.replace("_", " ").replace("-", " ").strip().capitalize()
             or "Unnamed game")
    return GameInfo(title=words, players=(PlayerRange(*DEFAULT_PLAYERS),),
                    information="perfect" if perfect else "imperfect",
                    chance="explicit" if explicit_chance else "seeded")
