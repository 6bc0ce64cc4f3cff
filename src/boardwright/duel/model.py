"""What a duel is made of, as data: what is attacked (`DuelTarget`), the monster or treasure
items a side can bring (`Monster`, `DuelItem`), each card put into it (`Play`) and its result
(`DuelOutcome`); and the fixed tables the rules read (the steps, which categories count on each
side, what an ignore may aim at).

Kept apart from the `Duel` state machine so its steps, its legality and its tally share them
without importing each other."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Mapping

from boardwright.core.errors import IllegalActionError
from boardwright.duel.cards import Category, CardDef, Speed
from boardwright.duel.effects import Combo, Effect, Ignore, Purge

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


def find_item(items: Mapping[int, tuple[DuelItem, ...]], seat: int, item_id: str) -> DuelItem:
    """The item `item_id` that `seat` brought into the duel; IllegalActionError if none."""
    for item in items.get(seat, ()):
        if item.id == item_id:
            return item
    raise IllegalActionError(f"seat {seat} has no item {item_id!r} in this duel")
