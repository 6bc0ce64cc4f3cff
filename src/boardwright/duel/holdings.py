"""The cards a player holds (hand, draw deck, discard pile, attribute piles) and the table of
all players' cards with the random source they draw from.

These objects belong to the embedding game's state: piles persist from duel to duel and from
turn to turn (SHO-DUEL-05), and the game runs the Discard, Draw and Cleanup phases on them. A
`Duel` only borrows them. All randomness of the card system (shuffles, random discards) comes
from `CardTable.rng`, the game state's seeded RNG, so a record replays exactly, and
`CardTable.resample_hidden` gives a state consistent with one player's view for
determinization. In chance mode (`core.chance`) the RNG is a `ScriptedRandom`: shuffles keep
the order, and the card drawn or discarded at random is an explicit chance event.

Zones hold card ids. The draw pile's top is its *last* element (drawing pops it); a discard
pile's most recent card is its last element; a pile lists its cards bottom first.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Iterable, Mapping, Sequence

from boardwright.core.chance import ScriptedRandom
from boardwright.core.errors import IllegalActionError
from boardwright.duel.cards import CardDef, HeroDeck

HAND_LIMIT = 7  # a hand never holds more (SHO-TURN-04)
OPENING_HAND = 7  # cards drawn at set-up (SHO-SETUP-17)
DRAW_PER_TURN = 3  # the Draw phase draws at most this many (SHO-TURN-03)
CLEANUP_PER_TURN = 3  # the Cleanup phase clears at most this many (SHO-TURN-05)


class HeroCards:
    """One player's cards: attribute scores and piles, hand, draw pile, discard pile.

    `cleanup_limit` is set by effects that limit the player's next Cleanup phase (None: the
    usual 3).
    """

    __slots__ = ("seat", "hero", "scores", "piles", "hand", "draw_pile", "discard",
                 "cleanup_limit")

    def __init__(self, seat: int, hero: str, scores: Mapping[str, int],
                 hand: Iterable[str] = (), piles: Mapping[str, Iterable[str]] | None = None,
                 draw_top_first: Iterable[str] = (), discard: Iterable[str] = ()) -> None:
        self.seat = seat
        self.hero = hero
        self.scores: Mapping[str, int] = scores  # shared, never mutated
        self.piles: dict[str, list[str]] = {a: [] for a in scores}
        for attribute, cards in (piles or {}).items():
            if attribute not in self.piles:
                raise IllegalActionError(f"{hero} has no attribute {attribute!r}")
            self.piles[attribute] = list(cards)
        self.hand: list[str] = list(hand)
        self.draw_pile: list[str] = list(draw_top_first)[::-1]
        self.discard: list[str] = list(discard)
        self.cleanup_limit: int | None = None

    @classmethod
    def deal(cls, seat: int, deck: HeroDeck, rng: random.Random,
             order_top_first: Sequence[str] | None = None,
             opening: int = OPENING_HAND) -> HeroCards:
        """Set-up (SHO-SETUP-17): empty piles, the action cards shuffled (or in the given
        order, top first), `opening` cards drawn."""
        cards = deck.action_cards()
        if order_top_first is not None:
            if Counter(order_top_first) != Counter(cards):
                raise IllegalActionError(f"a fixed order for the {deck.name} deck must list its "
                                         f"{len(cards)} action cards exactly once each")
            top_first = list(order_top_first)
        else:
            top_first = cards
            rng.shuffle(top_first)
        out = cls(seat, deck.hero, deck.scores, draw_top_first=top_first)
        out.draw(opening, rng)
        return out

    def clone(self) -> HeroCards:
        other = HeroCards.__new__(HeroCards)
        other.seat = self.seat
        other.hero = self.hero
        other.scores = self.scores
        other.piles = {a: cards[:] for a, cards in self.piles.items()}
        other.hand = self.hand[:]
        other.draw_pile = self.draw_pile[:]
        other.discard = self.discard[:]
        other.cleanup_limit = self.cleanup_limit
        return other

    # -- piles -------------------------------------------------------------------------------

    def pile_total(self, attribute: str, catalogue: Mapping[str, CardDef]) -> int:
        return sum(catalogue[c].cost for c in self.piles[attribute])

    def room(self, attribute: str, catalogue: Mapping[str, CardDef]) -> int:
        """Cost still payable on that pile (SHO-DUEL-03)."""
        return self.scores[attribute] - self.pile_total(attribute, catalogue)

    def can_pay(self, card: CardDef, catalogue: Mapping[str, CardDef]) -> bool:
        return card.attribute in self.piles and card.cost <= self.room(card.attribute, catalogue)

    def place(self, card: CardDef, catalogue: Mapping[str, CardDef]) -> None:
        """Play `card` from hand onto the top of its attribute pile, paying its cost."""
        if card.id not in self.hand:
            raise IllegalActionError(f"{card.name} is not in the hand")
        if card.attribute not in self.piles:
            raise IllegalActionError(f"{self.hero} has no {card.attribute} pile for {card.name}")
        room = self.room(card.attribute, catalogue)
        if card.cost > room:
            raise IllegalActionError(
                f"{card.name} costs {card.cost} but the {card.attribute} pile has {room} of "
                f"{self.scores[card.attribute]} left")
        self.hand.remove(card.id)
        self.piles[card.attribute].append(card.id)

    def top(self, attribute: str) -> str | None:
        pile = self.piles.get(attribute)
        return pile[-1] if pile else None

    def clear_top(self, attribute: str) -> str:
        """Clear the top card of a pile into the discard pile (SHO-TURN-05, SHO-DUEL-14)."""
        pile = self.piles.get(attribute)
        if not pile:
            raise IllegalActionError(f"the {attribute} pile is empty")
        card = pile.pop()
        self.discard.append(card)
        return card

    def clear(self, card: CardDef) -> None:
        """Clear a named card: legal only while it is the top of its pile (SHO-DUEL-14)."""
        if self.top(card.attribute) != card.id:
            if card.id in self.piles.get(card.attribute, ()):
                raise IllegalActionError(
                    f"{card.name} is not the top of the {card.attribute} pile; clear "
                    f"{self.top(card.attribute)} first")
            raise IllegalActionError(f"{card.name} is not on the {card.attribute} pile")
        self.clear_top(card.attribute)

    def remove_from_pile(self, attribute: str, depth: int, card_id: str) -> None:
        """Take the card `depth` places below the top of a pile (0 = the top) to the discard
        pile: the Purge of SHO-DUEL-16, which may reach below the top."""
        pile = self.piles[attribute]
        index = len(pile) - 1 - depth
        if not 0 <= index < len(pile) or pile[index] != card_id:
            raise IllegalActionError(f"{card_id} is not where the duel put it on the "
                                     f"{attribute} pile")
        del pile[index]
        self.discard.append(card_id)

    # -- hand and decks -----------------------------------------------------------------------

    def draw(self, n: int, rng: random.Random) -> list[str]:
        """Draw up to `n` cards, one at a time, stopping at the hand limit (SHO-TURN-04,
        SHO-DUEL-18). An empty draw pile is first replaced by the shuffled discard pile; with
        both empty the draw stops (SHO-DUEL-25)."""
        drawn: list[str] = []
        for _ in range(n):
            if len(self.hand) >= HAND_LIMIT:
                break
            if not self.draw_pile:
                if not self.discard:
                    break
                self.reshuffle(rng)
            if type(rng) is not random.Random and isinstance(rng, ScriptedRandom):
                rng.to_top(self.draw_pile)  # chance mode: the card drawn is a chance event
            card = self.draw_pile.pop()
            self.hand.append(card)
            drawn.append(card)
        return drawn

    def reshuffle(self, rng: random.Random) -> None:
        """The discard pile, shuffled, becomes the draw pile (SHO-DUEL-25)."""
        cards = self.discard + self.draw_pile
        rng.shuffle(cards)
        self.draw_pile = cards
        self.discard = []

    def draw_phase_count(self) -> int:
        """How many cards the Draw phase draws: min(3, 7 - hand) (SHO-TURN-03)."""
        return max(0, min(DRAW_PER_TURN, HAND_LIMIT - len(self.hand)))

    def discard_from_hand(self, card_id: str) -> None:
        if card_id not in self.hand:
            raise IllegalActionError(f"{card_id} is not in the hand")
        self.hand.remove(card_id)
        self.discard.append(card_id)

    def discard_random(self, n: int, rng: random.Random) -> list[str]:
        """Discard `n` cards picked uniformly at random (all of them if fewer)."""
        out: list[str] = []
        for _ in range(min(n, len(self.hand))):
            if type(rng) is not random.Random and isinstance(rng, ScriptedRandom):
                card = self.hand.pop(rng.pick_index(self.hand))  # chance mode
            else:
                card = self.hand.pop(rng.randrange(len(self.hand)))
            self.discard.append(card)
            out.append(card)
        return out

    def recall(self, card_id: str) -> None:
        """Take a card of the discard pile back to hand (the recall keyword)."""
        if len(self.hand) >= HAND_LIMIT:
            raise IllegalActionError(f"the hand already holds {HAND_LIMIT} cards")
        if card_id not in self.discard:
            raise IllegalActionError(f"{card_id} is not in the discard pile")
        # The most recent copy leaves the pile; copies are indistinguishable.
        index = len(self.discard) - 1 - self.discard[::-1].index(card_id)
        del self.discard[index]
        self.hand.append(card_id)

    def cleanup_allowance(self) -> int:
        """How many cards the next Cleanup phase may clear (3, or less after a limit)."""
        if self.cleanup_limit is None:
            return CLEANUP_PER_TURN
        return min(CLEANUP_PER_TURN, self.cleanup_limit)

    def limit_cleanup(self, n: int) -> None:
        self.cleanup_limit = n if self.cleanup_limit is None else min(self.cleanup_limit, n)

    # -- checks and views --------------------------------------------------------------------

    def card_counts(self) -> Counter[str]:
        """Every action card this player owns, wherever it is (for conservation checks)."""
        counts = Counter(self.hand)
        counts.update(self.draw_pile)
        counts.update(self.discard)
        for cards in self.piles.values():
            counts.update(cards)
        return counts

    def view(self, full: bool, catalogue: Mapping[str, CardDef]) -> dict[str, Any]:
        """What a viewer sees: scores, piles and discard pile always (SHO-DUEL-26); the hand's
        cards only if `full` (the owner). Sizes are public. The draw pile's order never shows."""
        return {
            "seat": self.seat,
            "hero": self.hero,
            "scores": dict(self.scores),
            "piles": {a: list(cards) for a, cards in self.piles.items()},
            "pile_totals": {a: self.pile_total(a, catalogue) for a in self.piles},
            "hand": sorted(self.hand) if full else None,
            "hand_size": len(self.hand),
            "draw_size": len(self.draw_pile),
            "discard": list(self.discard),
            "cleanup_allowance": self.cleanup_allowance(),
        }


class CardTable:
    """All players' `HeroCards` by seat, the card catalogue, and the RNG they draw with.

    The embedding game keeps one and clones it with its state (`clone(rng)` takes the state's
    new RNG so both share one random source). `catalogue` maps every card id that may appear
    to its definition; it is static and shared.
    """

    __slots__ = ("catalogue", "rank", "players", "rng")

    def __init__(self, catalogue: Mapping[str, CardDef], players: Sequence[HeroCards],
                 rng: random.Random, rank: Mapping[str, int] | None = None) -> None:
        self.catalogue = catalogue
        # A fixed order of card ids, so that legal actions come out in the same order however
        # a hand happens to be arranged (and after determinization).
        self.rank: Mapping[str, int] = rank if rank is not None else {
            card_id: i for i, card_id in enumerate(catalogue)}
        self.players: list[HeroCards] = list(players)
        for seat, cards in enumerate(self.players):
            if cards.seat != seat:
                raise IllegalActionError(f"the cards of seat {cards.seat} are listed at {seat}")
        self.rng = rng

    def __getitem__(self, seat: int) -> HeroCards:
        return self.players[seat]

    def __len__(self) -> int:
        return len(self.players)

    def card(self, card_id: str) -> CardDef:
        try:
            return self.catalogue[card_id]
        except KeyError:
            raise IllegalActionError(f"unknown card {card_id!r}") from None

    def sorted_ids(self, ids: Iterable[str]) -> list[str]:
        """Distinct card ids in catalogue order."""
        return sorted(set(ids), key=lambda c: self.rank.get(c, len(self.rank)))

    def clone(self, rng: random.Random | None = None) -> CardTable:
        if rng is None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        return CardTable(self.catalogue, [p.clone() for p in self.players], rng, self.rank)

    def view(self, viewer: int | None) -> list[dict[str, Any]]:
        """Every player's cards as `viewer` sees them (None: a spectator sees no hand)."""
        return [p.view(p.seat == viewer, self.catalogue) for p in self.players]

    def resample_hidden(self, viewer: int | None, rng: random.Random,
                        known_hands: Iterable[int] = ()) -> None:
        """Reshuffle what `viewer` cannot see, in place (use it on a clone).

        Another player's hand and draw pile are pooled, shuffled and dealt back in the same
        sizes; a hand in `known_hands` (one the viewer has just looked at) stays as it is. The
        viewer's own draw pile order is unknown to them too, so it is shuffled.
        """
        keep = set(known_hands)
        for player in self.players:
            if player.seat == viewer or player.seat in keep:
                rng.shuffle(player.draw_pile)
                continue
            pool = player.hand + player.draw_pile
            rng.shuffle(pool)
            size = len(player.hand)
            player.hand = pool[:size]
            player.draw_pile = pool[size:]
