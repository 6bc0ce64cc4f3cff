"""Which basic attacks may open a duel now (SHO-DUEL-07, -28; SHO-TURN-08; SHO-DUEL-03): the
question a game asks before it offers an attack, and that `Duel.begin` asks again."""

from __future__ import annotations

from typing import Sequence

from boardwright.duel.cards import Category, Speed
from boardwright.duel.holdings import CardTable
from boardwright.duel.model import Monster, Opening


def opening_reason(table: CardTable, attacker: int, opening: Opening, *,
                   exclusive_free: bool = True, conversion: bool = False) -> str | None:
    """Why `opening` cannot open an attack now (None: it can) (SHO-DUEL-07, -28)."""
    if isinstance(opening, Monster):
        if conversion:
            return "a conversion duel cannot be fought with a monster (SHO-DUEL-28)"
        if not exclusive_free:
            return ("summoning a monster is exclusive and the exclusive slot is used "
                    "(SHO-TURN-08)")
        return None
    if opening not in table.catalogue:
        return f"unknown card {opening!r}"
    card = table.catalogue[opening]
    holder = table[attacker]
    if opening not in holder.hand:
        return f"{card.name} is not in the attacker's hand"
    if card.category is not Category.BASIC_ATTACK:
        return f"{card.name} is not a basic attack; an attack opens with one (SHO-DUEL-07)"
    if card.speed is Speed.EXCLUSIVE and not exclusive_free and not conversion:
        return (f"{card.name} is exclusive and the exclusive slot is already used this turn "
                "(SHO-TURN-08)")
    if not holder.can_pay(card, table.catalogue):
        return (f"{card.name} costs {card.cost} but the {card.attribute} pile has "
                f"{holder.room(card.attribute, table.catalogue)} left (SHO-DUEL-03)")
    return None


def openings(table: CardTable, attacker: int, *, exclusive_free: bool = True,
             conversion: bool = False, monsters: Sequence[Monster] = ()) -> list[Opening]:
    """Every basic attack the attacker could open with now: affordable basic attack cards
    of the hand (one per card id), then the given monsters. Empty: no attack can be
    declared (SHO-DUEL-07)."""
    out: list[Opening] = [
        card_id for card_id in table.sorted_ids(table[attacker].hand)
        if opening_reason(table, attacker, card_id, exclusive_free=exclusive_free,
                          conversion=conversion) is None]
    out.extend(m for m in monsters
               if opening_reason(table, attacker, m, exclusive_free=exclusive_free,
                                 conversion=conversion) is None)
    return out
