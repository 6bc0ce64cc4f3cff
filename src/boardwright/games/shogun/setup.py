"""The set-up as player decisions (SHO-SETUP-01..18): heroes, castles, shrines, home castles.

Order of play: heroes clockwise from p1 (SHO-SETUP-02); castles clockwise from p1, one each in
turn until 6 / 7 / 8 stand (SHO-SETUP-03, -04); 4 shrines, the rotation continuing
(SHO-SETUP-10); home castles in reversed order, from the last shrine placer counter-clockwise,
each followed by the hero's placement next to it (SHO-SETUP-13..15). Then p1 plays the first
turn (SHO-SETUP-18). Decks are dealt as soon as every hero is known (SHO-SETUP-17).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.duel import CardTable, HeroCards
from boardwright.games.shogun.actions import (
    ChooseHero, ChooseHome, PlaceCastle, PlaceHero, PlaceShrine,
)
from boardwright.games.shogun.placement import castle_spaces, relocation_spaces, shrine_spaces

if TYPE_CHECKING:
    from boardwright.games.shogun.state import ShogunState

SHRINES = 4
SETUP_PHASES = ("heroes", "castles", "shrines", "homes")  # the set-up, one placement a turn


class SetupRules:
    """Set-up decisions of `ShogunState` (mixed into it)."""

    def castles_to_place(self: ShogunState) -> int:
        return self.game.content.components.castles_in_play[self.game.num_players]

    def setup_seat(self: ShogunState, k: int) -> int:
        return self.order[k % self.game.num_players]

    def home_order(self: ShogunState) -> list[int]:
        """The player who placed the last shrine, then counter-clockwise (SHO-SETUP-13)."""
        n = self.game.num_players
        last = (self.castles_to_place() + SHRINES - 1) % n
        return [self.order[(last - k) % n] for k in range(n)]

    def setup_actions(self: ShogunState) -> list[Any]:
        board = self.game.board
        ids = board.ids
        if self.phase == "heroes":
            taken = set(self.heroes)
            return [ChooseHero(h) for h in self.game.hero_ids if h not in taken]
        if self.phase == "castles":
            return [PlaceCastle(ids[s]) for s in
                    castle_spaces(board, self.castle_space, self.empty())]
        if self.phase == "shrines":
            away = self.castle_space + [s for s, here in enumerate(self.shrine) if here]
            return [PlaceShrine(ids[s]) for s in shrine_spaces(board, away, self.empty())]
        if self.home_step == "castle":
            return [ChooseHome(ids[self.castle_space[c]]) for c in range(len(self.castle_space))
                    if self.roof[c] < 0]
        home = self.castles_of(self.active)
        return [PlaceHero(ids[s]) for s in relocation_spaces(board, home, self.empty())]

    def apply_setup(self: ShogunState, action: Any) -> None:
        board = self.game.board
        n = self.game.num_players
        seat = self.active
        if isinstance(action, ChooseHero):
            self.heroes[seat] = action.hero
            self.event("hero_chosen", seat, hero=action.hero)
            self.setup_count += 1
            if self.setup_count < n:
                self.active = self.setup_seat(self.setup_count)
                return
            self.deal()
            self.phase, self.setup_count, self.active = "castles", 0, self.order[0]
        elif isinstance(action, PlaceCastle):
            s = board.index[action.space]
            self.castle_at[s] = len(self.castle_space)
            self.castle_space.append(s)
            self.roof.append(-1)  # castles start unaligned (SHO-SETUP-05)
            self.court.append(-1)
            self.event("castle_placed", seat, space=action.space)
            self.setup_count += 1
            if self.setup_count < self.castles_to_place():
                self.active = self.setup_seat(self.setup_count)
                return
            self.phase = "shrines"
            self.active = self.setup_seat(self.setup_count)
            self.setup_count = 0
        elif isinstance(action, PlaceShrine):
            self.shrine[board.index[action.space]] = True
            self.event("shrine_placed", seat, space=action.space)
            self.setup_count += 1
            if self.setup_count < SHRINES:
                self.active = self.setup_seat(self.castles_to_place() + self.setup_count)
                return
            self.phase, self.setup_count, self.home_step = "homes", 0, "castle"
            self.active = self.home_order()[0]
        elif isinstance(action, ChooseHome):
            c = self.castle_at[board.index[action.space]]
            self.roof[c] = seat  # the home castle is controlled at once (SHO-SETUP-14)
            self.reserve[seat] -= 1
            self.touch()
            self.home_step = "hero"
            self.event("home_chosen", seat, space=action.space)
        elif isinstance(action, PlaceHero):
            s = board.index[action.space]
            self.hero_at[s] = seat
            self.hero_pos[seat] = s
            self.event("hero_placed", seat, space=action.space)
            self.setup_count += 1
            self.home_step = "castle"
            if self.setup_count < n:
                self.active = self.home_order()[self.setup_count]
                return
            self.round = 1
            self.start_turn(self.order[0])  # the first player starts (SHO-SETUP-18)

    def deal(self: ShogunState) -> None:
        """Each player's deck: attribute cards laid out, 30 action cards shuffled (or in the
        fixed order), 7 drawn (SHO-SETUP-17)."""
        decks = self.game.decks_for(self.heroes)
        fixed = self.game.config.fixed.decks
        players = [HeroCards.deal(seat, deck, self.rng, fixed.get(seat))
                   for seat, deck in enumerate(decks)]
        self.table = CardTable(self.game.catalogue, players, self.rng, self.game.card_rank)
