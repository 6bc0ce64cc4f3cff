"""The HeroCard duel as a state machine: attack, block, exchange, resolution (SHO-DUEL-07..23).

A `Duel` is created when an attack is declared, with its basic attack already chosen
(`Duel.begin` or one of the named constructors), and then advances one decision at a time:
`current_player` says who must decide, `legal_actions()` lists their options and
`apply(action)` carries one out, until `is_over`; `outcome` then says whether the attack
succeeded and what the embedding game must do with treasures. Board consequences (captures,
conversions, thefts) are the game's business: the duel only decides success.

The duel borrows the players' cards from a `CardTable` and changes them in place (cards move
from hand to piles, purged cards to discard piles, draws and discards happen at once). It
keeps only what is particular to this duel: the list of plays, which are purged, whose turn it
is, and any effect waiting for a choice.

Invariant relied on by Purge: on every pile, the cards played in this duel lie above the cards
that were there before, in play order. Clear effects may not take a card of the current duel
(see `resolver`), so nothing can be slipped between them.

This module holds the duel's state and its steps (declaring, playing, passing, purging,
resolving, finishing). Beside it: `model` (the data: targets, monsters, items, plays, the
outcome), `opening` (which basic attacks may open a duel), `legality` (which plays and items
are allowed, and why not) and `tally` (which plays count and the totals).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from boardwright.core.errors import IllegalActionError
from boardwright.duel.actions import DuelAction, Pass, PlayCard, UseItem, parse_duel_action
from boardwright.duel.cards import Category, CardDef, Speed
from boardwright.duel.effects import CleanupLimit, Discard, Effect, LookHand, Purge
from boardwright.duel.holdings import CardTable
from boardwright.duel.legality import card_reason, decisions, item_reason
from boardwright.duel.model import (
    AFTERMATH, BLOCK, EXCHANGE, OVER, DuelItem, DuelOutcome, DuelTarget, Monster, Opening, Play,
    TargetKind, find_item,
)
from boardwright.duel.opening import opening_reason, openings
from boardwright.duel.resolver import EffectRunner, Queued
from boardwright.duel.tally import active_plays, totals

# The duel's data types are re-exported here, where the package has always imported them.
__all__ = ["Duel", "DuelItem", "DuelOutcome", "DuelTarget", "Monster", "Opening", "Play",
           "TargetKind"]


class Duel:
    """One duel between an attacker and a defender; see the package docstring for its use."""

    __slots__ = ("table", "attacker", "defender", "target", "conversion", "plays", "purged",
                 "phase", "to_act", "passes", "block_play", "block_declined", "items",
                 "used_items", "exclusive_free", "exclusive_used", "runner", "returned",
                 "outcome", "_next", "_pending_result")

    # -- starting a duel -----------------------------------------------------------------------

    opening_reason = staticmethod(opening_reason)
    openings = staticmethod(openings)

    @classmethod
    def begin(cls, table: CardTable, attacker: int, defender: int, opening: Opening,
              target: DuelTarget, *, exclusive_free: bool = True, conversion: bool = False,
              items: Mapping[int, Iterable[DuelItem]] | None = None) -> Duel:
        """Declare an attack: `attacker` at once plays `opening` as the basic attack and
        `defender` gets the block step (SHO-DUEL-07, -08).

        `exclusive_free` says whether the attacker's exclusive slot is still unused this turn;
        a conversion (SHO-DUEL-28) may open with any basic attack card without using it, and
        never with a monster. `items` lists the duel-usable treasures each participant holds.
        Raises IllegalActionError (and changes nothing) if the opening is not allowed.
        """
        seats = range(len(table))
        if attacker not in seats or defender not in seats:
            raise IllegalActionError(f"a duel needs two seats of the table, not {attacker} and "
                                     f"{defender}")
        if attacker == defender:
            raise IllegalActionError("a player cannot attack themselves (SHO-ATK-15)")
        reason = cls.opening_reason(table, attacker, opening, exclusive_free=exclusive_free,
                                    conversion=conversion)
        if reason:
            raise IllegalActionError(reason)
        duel = cls.__new__(cls)
        duel.table = table
        duel.attacker = attacker
        duel.defender = defender
        duel.target = target
        duel.conversion = conversion
        duel.phase = BLOCK
        duel.to_act = defender
        duel.passes = 0
        duel.block_play = None
        duel.block_declined = False
        duel.items = {seat: tuple(found) for seat, found in (items or {}).items()
                      if seat in (attacker, defender)}
        duel.used_items = []
        duel.exclusive_free = exclusive_free
        duel.runner = EffectRunner()
        duel.returned = []
        duel.outcome = None
        duel._pending_result = (False, 0, 0)
        if isinstance(opening, Monster):
            duel.plays = [Play(0, attacker, opening.card, opening.card, Category.BASIC_ATTACK,
                               None, opening.value, None, frozenset(), None, None, True)]
            duel.exclusive_used = True
            effects: tuple[Effect, ...] = ()
        else:
            card = table.catalogue[opening]
            table[attacker].place(card, table.catalogue)
            duel.plays = [Play.of_card(0, attacker, card, None)]
            duel.exclusive_used = card.speed is Speed.EXCLUSIVE and not conversion
            effects = card.on_play
        duel.purged = [False]
        duel._queue(attacker, effects, duel.plays[0].card)
        duel._next = "block"
        duel._advance()
        return duel

    @classmethod
    def hero_attack(cls, table: CardTable, attacker: int, hero_owner: int, opening: Opening,
                    space: str | None = None, **options: Any) -> Duel:
        """An attack on a hero: the hero's player defends (SHO-ATK-03)."""
        return cls.begin(table, attacker, hero_owner, opening,
                         DuelTarget(TargetKind.HERO, space), **options)

    @classmethod
    def peasant_attack(cls, table: CardTable, attacker: int, peasant_owner: int,
                       opening: Opening, space: str | None = None, **options: Any) -> Duel:
        """An attack on an ordinary peasant: a peasant has no cards, so its owner defends
        with their own hand and piles (SHO-DUEL-27)."""
        return cls.begin(table, attacker, peasant_owner, opening,
                         DuelTarget(TargetKind.PEASANT, space), **options)

    @classmethod
    def alliance_attack(cls, table: CardTable, attacker: int, courting_player: int,
                        opening: Opening, space: str | None = None, **options: Any) -> Duel:
        """An attack on a courted castle (stealing a mission): the courting player defends
        (SHO-DUEL-27, SHO-ATK-10)."""
        return cls.begin(table, attacker, courting_player, opening,
                         DuelTarget(TargetKind.COURTED_CASTLE, space), **options)

    @classmethod
    def castle_attack(cls, table: CardTable, attacker: int, controller: int, monster: Monster,
                      space: str | None = None, **options: Any) -> Duel:
        """A monster allowed to attack a controlled castle: its controller defends
        (SHO-MON-08)."""
        if not isinstance(monster, Monster):
            raise IllegalActionError("only a monster whose card allows it may attack a "
                                     "controlled castle (SHO-ATK-12, SHO-MON-08)")
        return cls.begin(table, attacker, controller, monster,
                         DuelTarget(TargetKind.CONTROLLED_CASTLE, space), **options)

    @classmethod
    def conversion_duel(cls, table: CardTable, converter: int, target_owner: int,
                        opening: str, space: str | None = None, **options: Any) -> Duel:
        """The conversion duel of the Court phase (SHO-DUEL-28, SHO-CONV-02): the converter
        attacks with any basic attack card, the exclusive slot untouched; the owner of the
        target peasant or roof lord defends. Monsters are not allowed."""
        options["conversion"] = True
        return cls.begin(table, converter, target_owner, opening,
                         DuelTarget(TargetKind.CONVERSION, space), **options)

    # -- copying -------------------------------------------------------------------------------

    def clone(self, table: CardTable) -> Duel:
        """A copy bound to `table`, the clone of this duel's table made by the caller."""
        other = Duel.__new__(Duel)
        other.table = table
        other.attacker = self.attacker
        other.defender = self.defender
        other.target = self.target
        other.conversion = self.conversion
        other.plays = self.plays[:]
        other.purged = self.purged[:]
        other.phase = self.phase
        other.to_act = self.to_act
        other.passes = self.passes
        other.block_play = self.block_play
        other.block_declined = self.block_declined
        other.items = self.items
        other.used_items = self.used_items[:]
        other.exclusive_free = self.exclusive_free
        other.exclusive_used = self.exclusive_used
        other.runner = self.runner.clone()
        other.returned = self.returned[:]
        other.outcome = self.outcome
        other._next = self._next
        other._pending_result = self._pending_result
        return other

    def deal_items(self, seat: int, items: Iterable[DuelItem]) -> None:
        """Give `seat` a new list of duel-usable items: a determinization has dealt that
        seat's face-down treasures again, so what it can still use must come from them. Items
        already used in this duel are public and stay; the list is replaced, never mutated
        (clones share it)."""
        if seat not in (self.attacker, self.defender):
            raise IllegalActionError(f"seat {seat} takes no part in this duel")
        used = {item_id for s, item_id in self.used_items if s == seat}
        kept = [i for i in self.items.get(seat, ()) if i.id in used]
        fresh = [i for i in items if i.id not in used]
        self.items = {**self.items, seat: tuple(kept + fresh)}

    # -- the state -----------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def current_player(self) -> int:
        """The seat that must decide now (-1 once the duel is over)."""
        if self.phase == OVER:
            return -1
        if self.runner.choice is not None:
            return self.runner.choice.chooser
        if self.phase == BLOCK:
            return self.defender
        return self.to_act

    @property
    def exclusive_available(self) -> bool:
        return self.exclusive_free and not self.exclusive_used

    def other(self, seat: int) -> int:
        return self.defender if seat == self.attacker else self.attacker

    def active(self) -> list[bool]:
        """Which plays count now (SHO-DUEL-17; `tally.active_plays`)."""
        return active_plays(self)

    def totals(self, active: list[bool] | None = None) -> tuple[int, int]:
        """The attack and block totals if the duel were resolved now (`tally.totals`)."""
        return totals(self, active)

    def _item(self, seat: int, item_id: str) -> DuelItem:
        return find_item(self.items, seat, item_id)

    def _locks(self, seat: int) -> set[str]:
        """Piles whose top belongs to this duel: a Clear may not touch them."""
        return {p.attribute for p in self.plays
                if p.seat == seat and p.attribute is not None and not self.purged[p.index]}

    # -- legality (see `legality`) -------------------------------------------------------------

    def card_reason(self, seat: int, card_id: str, target: int | None = None,
                    active: list[bool] | None = None) -> str | None:
        """Why `seat` may not play `card_id` (at `target`) now; None if the play is legal."""
        return card_reason(self, seat, card_id, target, active)

    def item_reason(self, seat: int, item_id: str) -> str | None:
        """Why `seat` may not use `item_id` now; None if it may."""
        return item_reason(self, seat, item_id)

    def legal_actions(self) -> list[DuelAction]:
        """The decisions of `current_player`, in a fixed order: card plays (by card id, then
        target), items, then Pass; or the answers to a pending effect choice."""
        if self.phase == OVER:
            return []
        if self.runner.choice is not None:
            return self.runner.actions(self.table, self._locks)
        return decisions(self)

    # -- applying ------------------------------------------------------------------------------

    def apply(self, action: DuelAction | dict[str, Any], player: int | None = None) -> None:
        """Carry out one decision of `current_player` (or of `player`, checked to be them).

        Raises IllegalActionError, changing nothing, if the action is not legal now.
        """
        if isinstance(action, dict):
            action = parse_duel_action(action)
        if self.phase == OVER:
            raise IllegalActionError("the duel is over")
        actor = self.current_player
        if player is not None and player != actor:
            if player not in (self.attacker, self.defender):
                raise IllegalActionError(f"seat {player} takes no part in this duel between "
                                         f"seats {self.attacker} and {self.defender} "
                                         "(SHO-DUEL-06)")
            raise IllegalActionError(f"seat {actor} must act now, not seat {player}")
        if self.runner.choice is not None:
            self.runner.apply(self.table, action, self._locks)
            self._advance()
            return
        if isinstance(action, PlayCard):
            reason = self.card_reason(actor, action.card, action.target)
            if reason:
                raise IllegalActionError(reason)
            self._play(actor, self.table.catalogue[action.card], action.target)
        elif isinstance(action, UseItem):
            reason = self.item_reason(actor, action.item)
            if reason:
                raise IllegalActionError(reason)
            self._use_item(actor, self._item(actor, action.item))
        elif isinstance(action, Pass):
            self._pass()
        else:
            raise IllegalActionError(f"{action.to_json()['type']} answers an effect choice, and "
                                     "no effect is waiting for one")

    def _play(self, seat: int, card: CardDef, target: int | None) -> None:
        self.table[seat].place(card, self.table.catalogue)
        play = Play.of_card(len(self.plays), seat, card, target)
        self.plays.append(play)
        self.purged.append(False)
        if card.speed is Speed.EXCLUSIVE:
            self.exclusive_used = True
        if isinstance(card.targeting, Purge) and target is not None:
            self._purge(target)
        self._queue(seat, card.on_play, card.id)
        if self.phase == BLOCK:
            self.block_play = play.index
            self._next = "exchange"
        else:
            self.passes = 0
            self._next = "turn"
        self._advance()

    def _use_item(self, seat: int, item: DuelItem) -> None:
        self.used_items.append((seat, item.id))
        self.returned.append(item.id)
        self._queue(seat, item.effects, item.id)
        if self.phase == BLOCK:
            self._next = "block"  # an item does not use up the block step
        else:
            self.passes = 0
            self._next = "turn"
        self._advance()

    def _pass(self) -> None:
        if self.phase == BLOCK:
            self.block_declined = True
            self._next = "exchange"
            self._advance()
            return
        self.passes += 1
        if self.passes >= 2:
            self._resolve()
        else:
            self.to_act = self.other(self.to_act)

    def _purge(self, target: int) -> None:
        """Remove a play from the duel at once: its card to its owner's discard pile (a
        monster to the treasure deck's bottom), its cost freed (SHO-DUEL-16)."""
        aimed = self.plays[target]
        self.purged[target] = True
        if aimed.monster or aimed.attribute is None:
            self.returned.append(aimed.card)
            return
        depth = sum(1 for p in self.plays[target + 1:]
                    if p.seat == aimed.seat and p.attribute == aimed.attribute
                    and not self.purged[p.index])
        self.table[aimed.seat].remove_from_pile(aimed.attribute, depth, aimed.card)

    def _queue(self, owner: int, effects: Iterable[Effect], source: str) -> None:
        items = []
        for effect in effects:
            victim = owner
            if isinstance(effect, (Discard, CleanupLimit, LookHand)):
                victim = {"attacker": self.attacker, "defender": self.defender}.get(
                    effect.who, self.other(owner))
            items.append(Queued(effect, owner, victim, source))
        self.runner.push(items)

    def _resolve(self) -> None:
        """Both passed in a row: settle the result, then the on-success / on-failure texts of
        the cards active now, in play order (SHO-DUEL-11, -22)."""
        active = self.active()
        attack, block = self.totals(active)
        success = active[0] and attack > block
        self._pending_result = (success, attack, block)
        self.phase = AFTERMATH
        for play in self.plays:
            if not active[play.index] or play.monster:
                continue
            card = self.table.catalogue[play.card]
            self._queue(play.seat, card.on_success if success else card.on_failure, card.id)
        self._next = "finish"
        self._advance()

    def _advance(self) -> None:
        """Run queued effects; once none waits for a choice, move the duel on."""
        self.runner.run(self.table, self._locks)
        if self.runner.busy:
            return
        step, self._next = self._next, None
        if step == "exchange":
            self.phase = EXCHANGE
            self.to_act = self.attacker
            self.passes = 0
        elif step == "turn":
            self.to_act = self.other(self.to_act)
        elif step == "finish":
            self._finish()

    def _finish(self) -> None:
        success, attack, block = self._pending_result
        opening = self.plays[0]
        if opening.monster and not self.purged[0]:
            self.returned.append(opening.card)
        self.phase = OVER
        self.outcome = DuelOutcome(
            attacker=self.attacker, defender=self.defender, target=self.target,
            success=success, attack_total=attack, block_total=block,
            exclusive_used=self.exclusive_used,
            monster=opening.card if opening.monster else None,
            items_used=tuple(self.used_items), returned_treasures=tuple(self.returned))

    # -- what players see ----------------------------------------------------------------------

    def view(self, viewer: int | None = None) -> dict[str, Any]:
        """The duel as `viewer` sees it. Everything played is public (SHO-DUEL-26); a hand
        shows only to the player who looks at it for a pick."""
        active = self.active()
        attack, block = self.totals(active)
        out: dict[str, Any] = {
            "attacker": self.attacker,
            "defender": self.defender,
            "target": self.target.to_json(),
            "conversion": self.conversion,
            "phase": self.phase,
            "current_player": self.current_player,
            "passes": self.passes,
            "block_declined": self.block_declined,
            "plays": [{"index": p.index, "seat": p.seat, "card": p.card,
                       "category": p.category.value, "value": p.value, "target": p.target,
                       "active": active[p.index], "purged": self.purged[p.index],
                       "monster": p.monster} for p in self.plays],
            "items_used": [list(x) for x in self.used_items],
            "attack_total": attack,
            "block_total": block,
            "exclusive_used": self.exclusive_used,
            "pending": self.runner.choice.to_json() if self.runner.choice else None,
            "events": list(self.runner.events),
            "outcome": self.outcome.to_json() if self.outcome else None,
        }
        revealed = self.runner.revealed
        if revealed is not None and viewer is not None and revealed[0] == viewer:
            out["revealed_hand"] = sorted(self.table[revealed[1]].hand)
        return out
