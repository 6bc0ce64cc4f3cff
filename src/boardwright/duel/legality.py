"""What a participant may do in the block step and the exchange: whether a card may be played
(at a target) or an item used, with the rule that forbids it (SHO-DUEL-03..10, -16, -17;
SHO-TURN-08; SHO-ITEM-02), and the list of those decisions in a fixed order.

Answers to an effect waiting for a choice are the effect runner's business (`resolver`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardwright.duel.actions import PASS, DuelAction, PlayCard, UseItem
from boardwright.duel.cards import Category, Speed
from boardwright.duel.effects import Ignore, Purge
from boardwright.duel.model import ATTACK_SIDE, BLOCK, BLOCK_SIDE, EXCHANGE, IGNORE_KINDS
from boardwright.duel.tally import active_plays

if TYPE_CHECKING:
    from boardwright.duel.duel import Duel


def card_reason(duel: Duel, seat: int, card_id: str, target: int | None = None,
                active: list[bool] | None = None) -> str | None:
    """Why `seat` may not play `card_id` (at `target`) now; None if the play is legal."""
    if duel.phase not in (BLOCK, EXCHANGE) or duel.runner.choice is not None:
        return "no card can be played now"
    card = duel.table.catalogue.get(card_id)
    if card is None:
        return f"unknown card {card_id!r}"
    holder = duel.table[seat]
    if card_id not in holder.hand:
        return f"{card.name} is not in your hand"
    attacking = seat == duel.attacker
    category = card.category
    if duel.phase == BLOCK:
        if category is not Category.BASIC_BLOCK:
            return ("in the block step the defender may only play a basic block, use an "
                    "item or decline (SHO-DUEL-08)")
    elif category is Category.BASIC_ATTACK:
        return "an attack has one basic attack, played when it is declared (SHO-DUEL-07)"
    elif category is Category.BASIC_BLOCK:
        reason = ("the block was declined" if duel.block_declined
                  else "a basic block was already played")
        return f"a basic block can only be played in the block step; {reason} (SHO-DUEL-08)"
    elif category is Category.ATTACK_MODIFIER and not attacking:
        return f"{card.name} is an attack modifier; only the attacker plays those"
    elif category is Category.BLOCK_MODIFIER and attacking:
        return f"{card.name} is a block modifier; only the defender plays those"
    if category in ATTACK_SIDE | BLOCK_SIDE:
        basic = 0 if attacking else duel.block_play
        if basic is None:
            return (f"{card.name} needs a basic block in the duel, and there is none "
                    "(SHO-DUEL-10)")
        if duel.purged[basic]:
            return (f"{card.name} needs the basic {'attack' if attacking else 'block'} in "
                    "the duel, and it was purged (SHO-DUEL-10)")
    if attacking:
        if card.speed is Speed.EXCLUSIVE and not duel.exclusive_available:
            return (f"{card.name} is exclusive and the exclusive slot is already used this "
                    "turn (SHO-TURN-08)")
    elif card.speed is not Speed.FAST:
        return (f"{card.name} is {card.speed.value}: outside their own action phase a "
                "player plays only fast cards (SHO-DUEL-04)")
    if not holder.can_pay(card, duel.table.catalogue):
        return (f"{card.name} costs {card.cost} but the {card.attribute} pile has "
                f"{holder.room(card.attribute, duel.table.catalogue)} of "
                f"{holder.scores[card.attribute]} left (SHO-DUEL-03)")
    targeting = card.targeting
    if targeting is None:
        if target is not None:
            return f"{card.name} targets no card"
        return None
    verb = "ignore" if isinstance(targeting, Ignore) else "purge"
    if target is None:
        return f"{card.name} must name the play it will {verb}"
    if not 0 <= target < len(duel.plays):
        return f"there is no play #{target} in this duel"
    aimed = duel.plays[target]
    if aimed.seat == seat:
        return f"{card.name} may {verb} only a card the opponent played in this duel"
    if isinstance(targeting, Purge):
        if duel.purged[target]:
            return f"{aimed.name} (#{target}) is already purged (SHO-DUEL-16)"
        return None
    if active is None:
        active = active_plays(duel)
    if not active[target]:
        return f"{aimed.name} (#{target}) is not active; an ignore needs an active card"
    kinds = IGNORE_KINDS[targeting.kind]
    if kinds is not None and aimed.category not in kinds:
        return f"{card.name} ignores only a {targeting.kind} card, and {aimed.name} is not one"
    return None


def item_reason(duel: Duel, seat: int, item_id: str) -> str | None:
    """Why `seat` may not use `item_id` now; None if it may."""
    if duel.phase not in (BLOCK, EXCHANGE) or duel.runner.choice is not None:
        return "no item can be used now"
    item = next((i for i in duel.items.get(seat, ()) if i.id == item_id), None)
    if item is None:
        return f"{item_id!r} is not an item you can use in this duel"
    if (seat, item_id) in duel.used_items:
        return f"{item.name} was already used"
    role = "attacker" if seat == duel.attacker else "defender"
    if item.side not in ("any", role):
        return f"{item.name} can be used only by the {item.side}"
    if role == "defender" and item.speed is not Speed.FAST:
        return (f"{item.name} is {item.speed.value}: outside their own action phase a "
                "player uses only fast items (SHO-ITEM-02)")
    return None


def decisions(duel: Duel) -> list[DuelAction]:
    """The card plays (by card id, then target), items, then Pass open to `current_player`
    when no effect waits for a choice."""
    seat = duel.current_player
    active = active_plays(duel)
    out: list[DuelAction] = []
    for card_id in duel.table.sorted_ids(duel.table[seat].hand):
        card = duel.table.catalogue.get(card_id)
        if card is not None and card.targeting is not None:
            out.extend(PlayCard(card_id, t) for t in range(len(duel.plays))
                       if card_reason(duel, seat, card_id, t, active) is None)
        elif card_reason(duel, seat, card_id, None, active) is None:
            out.append(PlayCard(card_id))
    out.extend(UseItem(item.id) for item in duel.items.get(seat, ())
               if item_reason(duel, seat, item.id) is None)
    out.append(PASS)
    return out
