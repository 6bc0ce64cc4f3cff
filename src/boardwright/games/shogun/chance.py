"""Rise of the Shogun with explicit chance (`ShogunGame.new_chance_game`).

Chance in Shogun: the first player (SHO-SETUP-01), the shuffled hero decks and every draw and
reshuffle of them (SHO-SETUP-17, SHO-TURN-03, SHO-DUEL-25), random discards from a hand, the
treasure taken from a beaten hero (SHO-ATK-07) and the shuffled treasure and mission decks
(SHO-SETUP-16). In chance mode nothing is shuffled: a deck is an unordered collection and each
card taken from it is a chance event uniform over the cards it may be, which is how a shuffled
deck deals. Cards put back under the treasure or mission deck (SHO-SHRINE-05, SHO-CLAIM-09)
come out in the order they went in, after the cards dealt at set-up: each deck counts how many
of its top cards are still the set-up's unseen ones.

Outcome ids: hero-deck cards by catalogue index, then treasures (content order), missions
(content order) and seats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.core.chance import ScriptedRandom

if TYPE_CHECKING:
    from boardwright.games.shogun.game import ShogunGame


def outcome_layout(game: ShogunGame) -> tuple[dict[str, int], dict[str, int], dict[str, int], int]:
    """The outcome ids of cards, treasures and missions, and the first seat outcome."""
    cards = {card_id: i for i, card_id in enumerate(game.catalogue)}
    base = len(cards)
    treasures = {t: base + i for i, t in enumerate(game.treasure_order)}
    base += len(treasures)
    missions = {m: base + i for i, m in enumerate(game.mission)}
    return cards, treasures, missions, base + len(missions)


class ShogunChance(ScriptedRandom):
    """The random source of a chance-mode Shogun state (it stands in for its `rng`): hero
    cards are its own items; treasures and missions are taken from the top of their decks."""

    def __init__(self, game: ShogunGame) -> None:
        cards, treasures, missions, seats = outcome_layout(game)
        super().__init__(cards, base=seats)
        self.treasure_ids = treasures
        self.mission_ids = missions
        fixed = game.config.fixed
        self.treasure_unseen = 0 if fixed.treasure is not None else len(treasures)
        self.mission_unseen = 0 if fixed.missions is not None else len(missions)

    def take_treasure(self, deck: list[str]) -> str:
        """The top treasure of the deck (index 0), a chance event while set-up cards are
        still unseen."""
        if self.treasure_unseen > 0:
            self.to_top(deck, 0, self.treasure_unseen, self.treasure_ids)
            self.treasure_unseen -= 1
        return deck.pop(0)

    def take_mission(self, deck: list[str]) -> str:
        if self.mission_unseen > 0:
            self.to_top(deck, 0, self.mission_unseen, self.mission_ids)
            self.mission_unseen -= 1
        return deck.pop(0)

    def pick_treasure(self, held: list[str]) -> int:
        """The index of the treasure taken at random from a beaten hero's."""
        return self.pick_index(held, self.treasure_ids)

    def getstate(self) -> Any:
        """What a signature compares: the unseen counts (nothing is drawn from a generator)."""
        return ("chance", self.treasure_unseen, self.mission_unseen)
