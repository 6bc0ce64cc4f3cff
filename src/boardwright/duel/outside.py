"""Playing a special card outside a duel (SHO-DUEL-24).

Specials whose text does not refer to a duel (draw, clear, recall, make an opponent discard,
look at a hand, limit a cleanup) may be played during the owner's own action phase with no
duel running. The card is paid for as usual and its effects resolve through the same
`EffectRunner` as inside a duel, so a choice they need (which cards to discard, clear or
recall) is again a decision of the right player through `legal_actions()`.
"""

from __future__ import annotations

from typing import Any

from boardwright.core.errors import IllegalActionError
from boardwright.duel.actions import DuelAction, parse_duel_action
from boardwright.duel.cards import Category, Speed
from boardwright.duel.effects import CleanupLimit, Discard, LookHand, who_in
from boardwright.duel.holdings import CardTable
from boardwright.duel.resolver import EffectRunner, Queued


def needs_opponent(card_effects: tuple) -> bool:
    """True if the effects name an opponent, whom the player must choose outside a duel."""
    return bool(who_in(card_effects) & {"opponent", "chosen_opponent"})


class OutsidePlay:
    """One special card played outside a duel, until its effects are resolved."""

    __slots__ = ("table", "seat", "card", "opponent", "runner", "exclusive_used")

    @staticmethod
    def reason(table: CardTable, seat: int, card_id: str, *, exclusive_free: bool = True,
               opponent: int | None = None) -> str | None:
        """Why `seat` may not play `card_id` outside a duel now (None: they may).

        The caller (the game) checks that it is the player's own action phase.
        """
        card = table.catalogue.get(card_id)
        if card is None:
            return f"unknown card {card_id!r}"
        holder = table[seat]
        if card_id not in holder.hand:
            return f"{card.name} is not in your hand"
        if card.category is not Category.SPECIAL:
            return (f"{card.name} is a {card.category.value.replace('_', ' ')}; it can be played "
                    "only inside a duel (SHO-DUEL-24)")
        if card.duel_only:
            return (f"{card.name} acts on a duel (its text refers to this duel); it can be played "
                    "only inside one (SHO-DUEL-24)")
        if card.speed is Speed.EXCLUSIVE and not exclusive_free:
            return (f"{card.name} is exclusive and the exclusive slot is already used this turn "
                    "(SHO-TURN-08)")
        if not holder.can_pay(card, table.catalogue):
            return (f"{card.name} costs {card.cost} but the {card.attribute} pile has "
                    f"{holder.room(card.attribute, table.catalogue)} left (SHO-DUEL-03)")
        if needs_opponent(card.effects):
            if opponent is None:
                return f"{card.name} needs an opponent to be chosen"
            if opponent == seat or not 0 <= opponent < len(table):
                return f"seat {opponent} is not an opponent of seat {seat}"
        elif opponent is not None:
            return f"{card.name} names no opponent"
        return None

    @staticmethod
    def playable(table: CardTable, seat: int, *, exclusive_free: bool = True) -> list[str]:
        """The card ids `seat` could play outside a duel now (for some opponent, if needed)."""
        out = []
        for card_id in table.sorted_ids(table[seat].hand):
            card = table.catalogue.get(card_id)
            if card is None:
                continue
            # Any opponent will do for the check: only the cost and timing differ by card.
            opponent = (seat + 1) % len(table) if needs_opponent(card.effects) else None
            if OutsidePlay.reason(table, seat, card_id, exclusive_free=exclusive_free,
                                  opponent=opponent) is None:
                out.append(card_id)
        return out

    @classmethod
    def start(cls, table: CardTable, seat: int, card_id: str, *, exclusive_free: bool = True,
              opponent: int | None = None) -> OutsidePlay:
        """Pay for the card and start resolving it; IllegalActionError (nothing changed) if it
        cannot be played."""
        reason = cls.reason(table, seat, card_id, exclusive_free=exclusive_free,
                            opponent=opponent)
        if reason:
            raise IllegalActionError(reason)
        card = table.catalogue[card_id]
        table[seat].place(card, table.catalogue)
        play = cls.__new__(cls)
        play.table = table
        play.seat = seat
        play.card = card_id
        play.opponent = opponent
        play.exclusive_used = card.speed is Speed.EXCLUSIVE
        play.runner = EffectRunner()
        victim = seat if opponent is None else opponent
        play.runner.push(
            Queued(e, seat, victim if isinstance(e, (Discard, CleanupLimit, LookHand)) else seat,
                   card_id) for e in card.on_play)
        play.runner.run(table, play._locks)
        return play

    def _locks(self, seat: int) -> set[str]:
        # The card lies on top of its own pile while it resolves: it never clears itself.
        return {self.table.catalogue[self.card].attribute} if seat == self.seat else set()

    def clone(self, table: CardTable) -> OutsidePlay:
        other = OutsidePlay.__new__(OutsidePlay)
        other.table = table
        other.seat = self.seat
        other.card = self.card
        other.opponent = self.opponent
        other.exclusive_used = self.exclusive_used
        other.runner = self.runner.clone()
        return other

    @property
    def is_over(self) -> bool:
        return not self.runner.busy

    @property
    def current_player(self) -> int:
        return -1 if self.runner.choice is None else self.runner.choice.chooser

    def legal_actions(self) -> list[DuelAction]:
        return self.runner.actions(self.table, self._locks)

    def apply(self, action: DuelAction | dict[str, Any], player: int | None = None) -> None:
        if isinstance(action, dict):
            action = parse_duel_action(action)
        if self.is_over:
            raise IllegalActionError(f"{self.card} is already resolved")
        if player is not None and player != self.current_player:
            raise IllegalActionError(f"seat {self.current_player} must choose now, not seat "
                                     f"{player}")
        self.runner.apply(self.table, action, self._locks)

    def view(self, viewer: int | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat, "card": self.card, "opponent": self.opponent,
            "pending": self.runner.choice.to_json() if self.runner.choice else None,
            "events": list(self.runner.events),
        }
        revealed = self.runner.revealed
        if revealed is not None and viewer is not None and revealed[0] == viewer:
            out["revealed_hand"] = sorted(self.table[revealed[1]].hand)
        return out
