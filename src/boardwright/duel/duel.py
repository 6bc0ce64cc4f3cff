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
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Iterable, Mapping, Sequence

from boardwright.core.errors import IllegalActionError
from boardwright.duel.actions import (
    PASS, DuelAction, Pass, PlayCard, UseItem, parse_duel_action,
)
from boardwright.duel.cards import Category, CardDef, Speed
from boardwright.duel.effects import Combo, Discard, Effect, CleanupLimit, Ignore, LookHand, Purge
from boardwright.duel.holdings import CardTable
from boardwright.duel.resolver import EffectRunner, Queued

BLOCK, EXCHANGE, AFTERMATH, OVER = "block", "exchange", "aftermath", "over"
ATTACK_SIDE = frozenset((Category.ATTACK_MODIFIER, Category.MODIFIER_OWN_SIDE))
BLOCK_SIDE = frozenset((Category.BLOCK_MODIFIER, Category.MODIFIER_OWN_SIDE))
IGNORE_KINDS: Mapping[str, frozenset[Category] | None] = {
    "any": None,
    "modifier": frozenset((Category.ATTACK_MODIFIER, Category.BLOCK_MODIFIER,
                           Category.MODIFIER_OWN_SIDE)),
    "basic": frozenset((Category.BASIC_ATTACK, Category.BASIC_BLOCK)),
    "special": frozenset((Category.SPECIAL,)),
}


class TargetKind(str, Enum):
    """What the attack is aimed at. The duel runs the same for all; the game reads it back
    from the outcome to apply the right consequence."""

    HERO = "hero"
    PEASANT = "peasant"
    COURTED_CASTLE = "courted_castle"  # an alliance attack: the courting player defends
    CONTROLLED_CASTLE = "controlled_castle"  # a monster allowed to attack a castle
    CONVERSION = "conversion"  # a peasant sent against a peasant or a roof lord


@dataclass(frozen=True)
class DuelTarget:
    kind: TargetKind
    space: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "space": self.space}


@dataclass(frozen=True)
class Monster:
    """A monster treasure summoned as the basic attack: its printed value, no cost, on no
    pile (SHO-MON-01, SHO-DUEL-29)."""

    card: str
    value: int


@dataclass(frozen=True)
class DuelItem:
    """A treasure usable inside a duel, as the game offers it to one participant.

    `side` is "attacker", "defender" or "any"; a defender may use only fast items. `bonus` is
    added to the user's total; on the block side it applies even without a basic block (the
    card text of Great Armor, SHO-DUEL-30). `effects` run when it is used (e.g. a Clear).
    Items are no cards: they sit on no pile and cannot be ignored or purged.
    """

    id: str
    name: str
    speed: Speed
    side: str = "any"
    bonus: int = 0
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class Play:
    """One card put into the duel. `index` is its position in the duel's play list, which is
    how ignore and purge cards name their target."""

    index: int
    seat: int
    card: str
    name: str
    category: Category
    attribute: str | None  # None for a monster, which sits on no pile
    value: int
    combo: Combo | None
    tags: frozenset[str]
    target: int | None
    targeting: Ignore | Purge | None
    monster: bool = False

    @classmethod
    def of_card(cls, index: int, seat: int, card: CardDef, target: int | None) -> Play:
        return cls(index, seat, card.id, card.name, card.category, card.attribute,
                   card.value or 0, card.combo, card.tags, target, card.targeting)


@dataclass(frozen=True)
class DuelOutcome:
    """The result of a finished duel.

    `returned_treasures` lists, in order, the treasures the game must put at the bottom of
    the treasure deck: items used in the duel and the monster, if one was summoned (purged or
    not, SHO-MON-06, SHO-DUEL-16). `exclusive_used` says whether the attacker's exclusive slot
    was used in this duel (by the basic attack or an exclusive card).
    """

    attacker: int
    defender: int
    target: DuelTarget
    success: bool
    attack_total: int
    block_total: int
    exclusive_used: bool
    monster: str | None
    items_used: tuple[tuple[int, str], ...]
    returned_treasures: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"attacker": self.attacker, "defender": self.defender,
                "target": self.target.to_json(), "success": self.success,
                "attack_total": self.attack_total, "block_total": self.block_total,
                "exclusive_used": self.exclusive_used, "monster": self.monster,
                "items_used": [list(x) for x in self.items_used],
                "returned_treasures": list(self.returned_treasures)}


Opening = str | Monster  # a basic attack card id from the attacker's hand, or a monster


class Duel:
    """One duel between an attacker and a defender; see the package docstring for its use."""

    __slots__ = ("table", "attacker", "defender", "target", "conversion", "plays", "purged",
                 "phase", "to_act", "passes", "block_play", "block_declined", "items",
                 "used_items", "exclusive_free", "exclusive_used", "runner", "returned",
                 "outcome", "_next", "_pending_result")

    # -- starting a duel -----------------------------------------------------------------------

    @staticmethod
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

    @staticmethod
    def openings(table: CardTable, attacker: int, *, exclusive_free: bool = True,
                 conversion: bool = False, monsters: Sequence[Monster] = ()) -> list[Opening]:
        """Every basic attack the attacker could open with now: affordable basic attack cards
        of the hand (one per card id), then the given monsters. Empty: no attack can be
        declared (SHO-DUEL-07)."""
        out: list[Opening] = [
            card_id for card_id in table.sorted_ids(table[attacker].hand)
            if Duel.opening_reason(table, attacker, card_id, exclusive_free=exclusive_free,
                                   conversion=conversion) is None]
        out.extend(m for m in monsters
                   if Duel.opening_reason(table, attacker, m, exclusive_free=exclusive_free,
                                          conversion=conversion) is None)
        return out

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
        """Which plays count now (SHO-DUEL-17): not purged, and not the target of an active
        Ignore. An ignore always targets an earlier play, so one pass from the last play
        backwards settles every chain of ignores."""
        n = len(self.plays)
        active = [False] * n
        ignored = [False] * n
        for k in range(n - 1, -1, -1):
            live = not self.purged[k] and not ignored[k]
            active[k] = live
            play = self.plays[k]
            if live and isinstance(play.targeting, Ignore) and play.target is not None:
                ignored[play.target] = True
        return active

    def _value(self, play: Play, tags: Mapping[int, set[str]]) -> int:
        value = play.value
        if play.combo is not None and play.combo.tag in tags[play.seat]:
            value += play.combo.bonus
        return value

    def totals(self, active: list[bool] | None = None) -> tuple[int, int]:
        """The attack and block totals if the duel were resolved now (SHO-DUEL-11, -21, -23).

        The attack total is 0 without an active basic attack (the attack fails anyway); the
        block total without an active basic block is only the bonuses that apply without one.
        """
        if active is None:
            active = self.active()
        tags: dict[int, set[str]] = {self.attacker: set(), self.defender: set()}
        for play in self.plays:
            tags[play.seat] |= play.tags
        bonus = {self.attacker: 0, self.defender: 0}
        for seat, item_id in self.used_items:
            bonus[seat] += self._item(seat, item_id).bonus
        attack = 0
        if active[0]:
            attack = self._value(self.plays[0], tags) + bonus[self.attacker] + sum(
                self._value(p, tags) for p in self.plays[1:]
                if active[p.index] and p.seat == self.attacker and p.category in ATTACK_SIDE)
        block = bonus[self.defender]
        if self.block_play is not None and active[self.block_play]:
            block += self._value(self.plays[self.block_play], tags) + sum(
                self._value(p, tags) for p in self.plays
                if active[p.index] and p.seat == self.defender and p.category in BLOCK_SIDE)
        return attack, block

    def _item(self, seat: int, item_id: str) -> DuelItem:
        for item in self.items.get(seat, ()):
            if item.id == item_id:
                return item
        raise IllegalActionError(f"seat {seat} has no item {item_id!r} in this duel")

    def _locks(self, seat: int) -> set[str]:
        """Piles whose top belongs to this duel: a Clear may not touch them."""
        return {p.attribute for p in self.plays
                if p.seat == seat and p.attribute is not None and not self.purged[p.index]}

    # -- legality ------------------------------------------------------------------------------

    def card_reason(self, seat: int, card_id: str, target: int | None = None,
                    active: list[bool] | None = None) -> str | None:
        """Why `seat` may not play `card_id` (at `target`) now; None if the play is legal."""
        if self.phase not in (BLOCK, EXCHANGE) or self.runner.choice is not None:
            return "no card can be played now"
        card = self.table.catalogue.get(card_id)
        if card is None:
            return f"unknown card {card_id!r}"
        holder = self.table[seat]
        if card_id not in holder.hand:
            return f"{card.name} is not in your hand"
        attacking = seat == self.attacker
        category = card.category
        if self.phase == BLOCK:
            if category is not Category.BASIC_BLOCK:
                return ("in the block step the defender may only play a basic block, use an "
                        "item or decline (SHO-DUEL-08)")
        elif category is Category.BASIC_ATTACK:
            return "an attack has one basic attack, played when it is declared (SHO-DUEL-07)"
        elif category is Category.BASIC_BLOCK:
            reason = ("the block was declined" if self.block_declined
                      else "a basic block was already played")
            return f"a basic block can only be played in the block step; {reason} (SHO-DUEL-08)"
        elif category is Category.ATTACK_MODIFIER and not attacking:
            return f"{card.name} is an attack modifier; only the attacker plays those"
        elif category is Category.BLOCK_MODIFIER and attacking:
            return f"{card.name} is a block modifier; only the defender plays those"
        if category in ATTACK_SIDE | BLOCK_SIDE:
            basic = 0 if attacking else self.block_play
            if basic is None:
                return (f"{card.name} needs a basic block in the duel, and there is none "
                        "(SHO-DUEL-10)")
            if self.purged[basic]:
                return (f"{card.name} needs the basic {'attack' if attacking else 'block'} in "
                        "the duel, and it was purged (SHO-DUEL-10)")
        if attacking:
            if card.speed is Speed.EXCLUSIVE and not self.exclusive_available:
                return (f"{card.name} is exclusive and the exclusive slot is already used this "
                        "turn (SHO-TURN-08)")
        elif card.speed is not Speed.FAST:
            return (f"{card.name} is {card.speed.value}: outside their own action phase a "
                    "player plays only fast cards (SHO-DUEL-04)")
        if not holder.can_pay(card, self.table.catalogue):
            return (f"{card.name} costs {card.cost} but the {card.attribute} pile has "
                    f"{holder.room(card.attribute, self.table.catalogue)} of "
                    f"{holder.scores[card.attribute]} left (SHO-DUEL-03)")
        targeting = card.targeting
        if targeting is None:
            if target is not None:
                return f"{card.name} targets no card"
            return None
        verb = "ignore" if isinstance(targeting, Ignore) else "purge"
        if target is None:
            return f"{card.name} must name the play it will {verb}"
        if not 0 <= target < len(self.plays):
            return f"there is no play #{target} in this duel"
        aimed = self.plays[target]
        if aimed.seat == seat:
            return f"{card.name} may {verb} only a card the opponent played in this duel"
        if isinstance(targeting, Purge):
            if self.purged[target]:
                return f"{aimed.name} (#{target}) is already purged (SHO-DUEL-16)"
            return None
        if active is None:
            active = self.active()
        if not active[target]:
            return f"{aimed.name} (#{target}) is not active; an ignore needs an active card"
        kinds = IGNORE_KINDS[targeting.kind]
        if kinds is not None and aimed.category not in kinds:
            return f"{card.name} ignores only a {targeting.kind} card, and {aimed.name} is not one"
        return None

    def item_reason(self, seat: int, item_id: str) -> str | None:
        """Why `seat` may not use `item_id` now; None if it may."""
        if self.phase not in (BLOCK, EXCHANGE) or self.runner.choice is not None:
            return "no item can be used now"
        item = next((i for i in self.items.get(seat, ()) if i.id == item_id), None)
        if item is None:
            return f"{item_id!r} is not an item you can use in this duel"
        if (seat, item_id) in self.used_items:
            return f"{item.name} was already used"
        role = "attacker" if seat == self.attacker else "defender"
        if item.side not in ("any", role):
            return f"{item.name} can be used only by the {item.side}"
        if role == "defender" and item.speed is not Speed.FAST:
            return (f"{item.name} is {item.speed.value}: outside their own action phase a "
                    "player uses only fast items (SHO-ITEM-02)")
        return None

    def legal_actions(self) -> list[DuelAction]:
        """The decisions of `current_player`, in a fixed order: card plays (by card id, then
        target), items, then Pass; or the answers to a pending effect choice."""
        if self.phase == OVER:
            return []
        if self.runner.choice is not None:
            return self.runner.actions(self.table, self._locks)
        seat = self.current_player
        active = self.active()
        out: list[DuelAction] = []
        for card_id in self.table.sorted_ids(self.table[seat].hand):
            card = self.table.catalogue.get(card_id)
            if card is not None and card.targeting is not None:
                out.extend(PlayCard(card_id, t) for t in range(len(self.plays))
                           if self.card_reason(seat, card_id, t, active) is None)
            elif self.card_reason(seat, card_id, None, active) is None:
                out.append(PlayCard(card_id))
        out.extend(UseItem(item.id) for item in self.items.get(seat, ())
                   if self.item_reason(seat, item.id) is None)
        out.append(PASS)
        return out

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
