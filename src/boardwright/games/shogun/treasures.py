"""The 13 treasure cards (content §5, SHO-SHRINE-10): 6 monsters and 7 items, loaded from
`data/treasures.toml`.

A monster becomes a duel `Monster` (its value as a cost-free basic attack); the items usable
inside a duel become `DuelItem`s (Great Armor's block bonus, Sacred Sake's clear). Everything
else a treasure does happens on the board and is the game's to apply.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from boardwright.core.errors import IllegalActionError, InvalidOptionError
from boardwright.duel import DuelItem, Monster, Speed
from boardwright.duel.effects import Clear
from boardwright.games.shogun.datafile import (
    check_keys, fail, ident, read_data, rows, text, whole,
)

TREASURES_FILE = "treasures.toml"
TREASURE_COUNT = 13
COUNTS = {"monster": 6, "item": 7}
MONSTER_TARGETS = ("hero", "peasant", "controlled_castle")
ABILITIES = ("", "free_move", "kill_one_adjacent", "kill_around_castle", "hero_discards")
SUBTYPES = ("scoring", "restricted", "fast")
COMMON_KEYS = frozenset(("id", "name", "type", "effect"))
MONSTER_KEYS = frozenset(("attack_value", "range", "targets", "ability"))
ITEM_NUMBERS = ("vp", "vp_per_castle", "move", "attack_range", "block_bonus", "clear",
                "court_actions")


@dataclass(frozen=True)
class Treasure:
    """One treasure card. Monster fields are 0/empty for items and the other way round."""

    id: str
    name: str
    type: str  # "monster" | "item"
    effect: str
    subtype: str | None = None  # items: "scoring" | "restricted" | "fast"
    attack_value: int = 0
    range: int = 0
    targets: tuple[str, ...] = ()
    ability: str = ""
    discards: int = 0
    vp: int = 0
    vp_per_castle: int = 0
    move: int = 0
    attack_range: int = 0
    block_bonus: int = 0
    clear: int = 0
    court_actions: int = 0

    @property
    def is_monster(self) -> bool:
        return self.type == "monster"

    @property
    def is_scoring(self) -> bool:
        return self.subtype == "scoring"

    def as_monster(self) -> Monster:
        if not self.is_monster:
            raise IllegalActionError(f"{self.name} is not a monster (SHO-MON-01)")
        return Monster(self.id, self.attack_value)

    def duel_item(self) -> DuelItem | None:
        """The item as the duel sees it, or None if it has no use inside a duel."""
        if self.block_bonus:
            return DuelItem(self.id, self.name, Speed(self.subtype), "defender",
                            bonus=self.block_bonus)
        if self.clear:
            return DuelItem(self.id, self.name, Speed(self.subtype), "any",
                            effects=(Clear(self.clear),))
        return None


def _treasure(row: Any, where: str) -> Treasure:
    twhere = f"{where}, treasure {row.get('id') if isinstance(row, dict) else None!r}"
    kind = row.get("type") if isinstance(row, dict) else None
    if kind == "monster":
        entry = check_keys(row, twhere, COMMON_KEYS | MONSTER_KEYS, frozenset(("discards",)))
        targets = entry["targets"]
        if not isinstance(targets, list) or not targets \
                or not all(t in MONSTER_TARGETS for t in targets) \
                or len(set(targets)) != len(targets):
            raise fail(twhere, f"'targets' must list some of {', '.join(MONSTER_TARGETS)}")
        ability = text(entry, "ability", twhere, empty=True)
        if ability not in ABILITIES:
            raise fail(twhere, f"unknown ability {ability!r}; known: {', '.join(ABILITIES[1:])}")
        if (ability == "hero_discards") != ("discards" in entry):
            raise fail(twhere, "'discards' goes with the ability 'hero_discards' only")
        return Treasure(
            id=ident(entry, "id", twhere), name=text(entry, "name", twhere), type="monster",
            effect=text(entry, "effect", twhere), attack_value=whole(entry, "attack_value",
                                                                     twhere, 1, 20),
            range=whole(entry, "range", twhere, 1, 10), targets=tuple(targets), ability=ability,
            discards=whole(entry, "discards", twhere, 1, 7) if "discards" in entry else 0)
    if kind == "item":
        entry = check_keys(row, twhere, COMMON_KEYS | {"subtype"}, frozenset(ITEM_NUMBERS))
        subtype = text(entry, "subtype", twhere)
        if subtype not in SUBTYPES:
            raise fail(twhere, f"'subtype' must be one of {', '.join(SUBTYPES)}, not {subtype!r}")
        numbers = {key: whole(entry, key, twhere, 1, 10) for key in ITEM_NUMBERS if key in entry}
        if len(numbers) != 1:
            raise fail(twhere, f"an item has exactly one of {', '.join(ITEM_NUMBERS)}")
        if (subtype == "scoring") != bool(set(numbers) & {"vp", "vp_per_castle"}):
            raise fail(twhere, "scoring items, and only they, give vp or vp_per_castle")
        if "block_bonus" in numbers and subtype != "fast":
            raise fail(twhere, "a block bonus is used while defending, so the item must be fast")
        return Treasure(id=ident(entry, "id", twhere), name=text(entry, "name", twhere),
                        type="item", effect=text(entry, "effect", twhere), subtype=subtype,
                        **numbers)
    raise fail(twhere, f"'type' must be monster or item, not {kind!r}")


def parse_treasures(raw: Any, where: str = f"data file {TREASURES_FILE}") -> tuple[Treasure, ...]:
    """The treasure cards; InvalidOptionError naming the card at fault."""
    table = check_keys(raw, where, frozenset(("treasures",)))
    treasures: list[Treasure] = []
    for row in rows(table, "treasures", where):
        treasure = _treasure(row, where)
        if any(t.id == treasure.id for t in treasures):
            raise fail(where, f"treasure id {treasure.id!r} is listed twice")
        treasures.append(treasure)
    if len(treasures) != TREASURE_COUNT:
        raise fail(where, f"there are {TREASURE_COUNT} treasure cards, not {len(treasures)}")
    for kind, count in COUNTS.items():
        found = sum(1 for t in treasures if t.type == kind)
        if found != count:
            raise fail(where, f"there are {count} {kind} treasures, not {found}")
    return tuple(treasures)


@lru_cache(maxsize=None)
def load_treasures() -> tuple[Treasure, ...]:
    return parse_treasures(read_data(TREASURES_FILE))


def treasure(treasure_id: str) -> Treasure:
    for t in load_treasures():
        if t.id == treasure_id:
            return t
    raise InvalidOptionError(f"unknown treasure {treasure_id!r}")
