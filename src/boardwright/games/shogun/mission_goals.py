"""What a held mission asks at its castle, and how much of it is met (content §4, SHO-CLAIM-06).

A mission card gives its goal with a number ("at least 2 peasants adjacent to this castle"),
but the castle it is dealt with decides what can be reached: Shima and Awa (Boso) have a single
neighbour, so two adjacent peasants could never stand there. Content §4 reads m1 at such a castle
as "a peasant on every neighbour that can hold one" (no mission may be impossible where it is
dealt); `need` is that reading, and `progress` the count the table shows ("1/2 peasants").
The engine's check (court.py), the bots' heuristic and the views all use these two.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boardwright.games.shogun.card_texts import player_text
from boardwright.games.shogun.missions import Mission
from boardwright.games.shogun.texts import namer

if TYPE_CHECKING:
    from boardwright.games.shogun.state import ShogunState

UNITS = {"peasants_adjacent_to_castle": ("peasant", "peasants"),
         "prisoners_held": ("prisoner", "prisoners"),
         "hero_beaten": ("opposing hero beaten", "opposing heroes beaten"),
         "shrine_searched": ("shrine searched", "shrines searched"),
         "is_emperor": ("peasant on Heian", "peasants on Heian"),
         "hero_adjacent_with_treasures": ("treasure", "treasures")}


def peasant_spots(board: Any, castle_space: int, castle_at: list[int]) -> int:
    """Neighbours of a castle that an ordinary peasant can ever stand on: every neighbour
    but another castle (castles never move; shrines do, so they do not count against it)."""
    return sum(1 for s in board.neighbours[castle_space] if castle_at[s] < 0)


def need(card: Mission, board: Any, castle_space: int, castle_at: list[int]) -> int:
    """The count the mission asks at this castle: the card's number, capped for m1 at the
    peasant spots around the castle (content §4: no mission is impossible where it is dealt)."""
    if card.goal == "peasants_adjacent_to_castle":
        return max(1, min(card.count, peasant_spots(board, castle_space, castle_at)))
    return card.count


@dataclass(frozen=True)
class Progress:
    """How far a held mission is: `have` of `need` (in `unit`), plus, for m6, whether the hero
    stands next to the castle. `met` is the whole condition."""

    mission: str
    castle: str
    have: int
    need: int
    unit: str
    hero_adjacent: bool | None
    met: bool

    def words(self) -> str:
        """"1/2 peasants", with the hero's place for m6."""
        text = f"{self.have}/{self.need} {self.unit}"
        if self.hero_adjacent is not None:
            text += ", hero adjacent" if self.hero_adjacent else ", hero not adjacent yet"
        return text

    def to_json(self) -> dict[str, Any]:
        return {"mission": self.mission, "castle": self.castle, "have": self.have,
                "need": self.need, "unit": self.unit, "hero_adjacent": self.hero_adjacent,
                "met": self.met, "text": self.words()}


def progress(state: ShogunState, seat: int) -> Progress | None:
    """The held mission's progress at its courted castle; None without a courtship."""
    m = state.mission[seat]
    c = state.courted_castle(seat)
    if m is None or c < 0:
        return None
    card = state.game.mission[m]
    board = state.game.board
    castle = state.castle_space[c]
    near = board.neighbours[castle]
    wanted = need(card, board, castle, state.castle_at)
    hero_adjacent = None
    if card.goal == "peasants_adjacent_to_castle":
        have = sum(1 for s in near if state.peasant[s] == seat)
        met = have >= wanted
    elif card.goal == "prisoners_held":
        have = state.prisoner_count(seat)
        met = have >= wanted
    elif card.goal == "is_emperor":
        have = int(state.emperor() == seat)
        met = have >= 1
    elif card.goal == "hero_adjacent_with_treasures":
        have = len(state.treasures[seat])
        hero_adjacent = state.hero_pos[seat] in near
        met = hero_adjacent and have >= wanted
    else:  # event missions: met only when the event happens (SHO-CLAIM-06)
        have, met = 0, False
    one, many = UNITS.get(card.goal, ("", ""))
    return Progress(m, board.ids[castle], have, wanted,
                    one if wanted == 1 else many, hero_adjacent, met)


def mission_condition(card: Mission, wanted: int) -> str:
    """The card's condition as it reads at its castle: m1 at a one-neighbour castle asks one
    peasant, and says so."""
    if card.goal == "peasants_adjacent_to_castle" and wanted < card.count:
        spots = "a peasant" if wanted == 1 else f"{wanted} peasants"
        return (f"At least {spots} of yours on the spaces adjacent to this castle (it has only "
                f"{wanted} such space{'s' if wanted > 1 else ''}, so {spots} is enough).")
    return card.condition


def condition_words(state: ShogunState, card: Mission, wanted: int) -> str:
    """`mission_condition` in players' words: no rule ids, provinces by name."""
    return player_text(mission_condition(card, wanted), namer(state.game).spaces)


def mission_view(state: ShogunState, seat: int) -> dict[str, Any] | None:
    """A seat's held mission for its view: its castle by name, the condition as it reads
    there and the progress ("1/2 peasants"). Only the holder sees it until the game is over."""
    found = progress(state, seat)
    if found is None:
        return None
    card = state.game.mission[found.mission]
    return dict(found.to_json(), name=card.name,
                castle_name=namer(state.game).space(found.castle),
                condition=condition_words(state, card, found.need))
