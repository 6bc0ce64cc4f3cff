"""HeroCard cards and decks: categories, speeds, card definitions and hero decks.

These are the static parts of the duel system. A `CardDef` is one action card as a deck file
gives it (SHO-DUEL-02); a `HeroDeck` is a hero's three attribute cards and action cards
(SHO-DUEL-01, SHO-COMP-06). Everything is frozen and shared by every state; the zones of a game
(hands, piles, decks) hold card ids, because copies of a card are indistinguishable.

`parse_card` and `parse_deck` validate raw data (a table from a TOML file, or a custom deck
given as an option) against the HeroCard deck schema and raise InvalidOptionError naming the
deck and the card at fault.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Iterable, Mapping

from boardwright.core.errors import InvalidOptionError
from boardwright.duel.effects import (
    Clear, Combo, Discard, Draw, Effect, Ignore, LookHand, OnFailure, OnSuccess, Purge, Recall,
    CleanupLimit, parse_effects, who_in,
)

SCORE_RANGE = (3, 10)  # attribute scores (public description of the HeroCard core rules)
COST_RANGE = (2, 6)  # card costs (content §2.1)
DECK_SIZE = 30  # action cards per hero deck (SHO-COMP-06)


class Category(str, Enum):
    """What a card does in a duel (SHO-DUEL-02)."""

    BASIC_ATTACK = "basic_attack"
    ATTACK_MODIFIER = "attack_modifier"
    BASIC_BLOCK = "basic_block"
    BLOCK_MODIFIER = "block_modifier"
    MODIFIER_OWN_SIDE = "modifier_own_side"
    SPECIAL = "special"


class Speed(str, Enum):
    """When a card may be played (SHO-DUEL-04)."""

    FAST = "fast"
    RESTRICTED = "restricted"
    EXCLUSIVE = "exclusive"


MODIFIERS = frozenset((Category.ATTACK_MODIFIER, Category.BLOCK_MODIFIER,
                       Category.MODIFIER_OWN_SIDE))
BASICS = frozenset((Category.BASIC_ATTACK, Category.BASIC_BLOCK))


@dataclass(frozen=True)
class CardDef:
    """One action card: its fields as the deck file gives them, and its parsed effects.

    The derived fields sort the effects by when they act: `targeting` (the Ignore or Purge
    aimed when the card is played), `combo`, `on_play` (applied at once), `on_success` and
    `on_failure` (after resolution). `duel_only` is true for cards that can be played only
    inside a duel (SHO-DUEL-24): every non-special card, and specials that ignore, purge or
    name a duel role.
    """

    id: str
    name: str
    category: Category
    speed: Speed
    attribute: str
    cost: int
    value: int | None
    tags: frozenset[str] = frozenset()
    text: str = ""
    effect: str = ""
    effects: tuple[Effect, ...] = ()
    targeting: Ignore | Purge | None = field(init=False, compare=False)
    combo: Combo | None = field(init=False, compare=False)
    on_play: tuple[Effect, ...] = field(init=False, compare=False)
    on_success: tuple[Effect, ...] = field(init=False, compare=False)
    on_failure: tuple[Effect, ...] = field(init=False, compare=False)
    duel_only: bool = field(init=False, compare=False)

    def __post_init__(self) -> None:
        targeting = next((e for e in self.effects if isinstance(e, (Ignore, Purge))), None)
        combo = next((e for e in self.effects if isinstance(e, Combo)), None)
        on_play = tuple(e for e in self.effects
                        if isinstance(e, (Draw, Discard, Clear, Recall, CleanupLimit, LookHand)))
        success = tuple(x for e in self.effects if isinstance(e, OnSuccess) for x in e.effects)
        failure = tuple(x for e in self.effects if isinstance(e, OnFailure) for x in e.effects)
        duel_only = (self.category is not Category.SPECIAL or targeting is not None
                     or bool(success or failure)
                     or bool(who_in(self.effects) & {"attacker", "defender"}))
        object.__setattr__(self, "targeting", targeting)
        object.__setattr__(self, "combo", combo)
        object.__setattr__(self, "on_play", on_play)
        object.__setattr__(self, "on_success", success)
        object.__setattr__(self, "on_failure", failure)
        object.__setattr__(self, "duel_only", duel_only)

    @property
    def is_modifier(self) -> bool:
        return self.category in MODIFIERS

    @property
    def is_basic(self) -> bool:
        return self.category in BASICS

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "category": self.category.value,
                "speed": self.speed.value, "attribute": self.attribute, "cost": self.cost,
                "value": self.value, "tags": sorted(self.tags), "text": self.text,
                "effect": self.effect}


@dataclass(frozen=True)
class AttributeCard:
    """One of a hero's three attribute cards: the score caps the total cost on its pile."""

    id: str
    attribute: str
    name: str
    score: int


@dataclass(frozen=True)
class HeroDeck:
    """A hero's deck: three attribute cards and the action cards with their quantities."""

    hero: str
    name: str
    attributes: tuple[AttributeCard, ...]
    cards: tuple[CardDef, ...]
    quantities: tuple[int, ...]
    edition: str = "custom"

    @property
    def scores(self) -> dict[str, int]:
        """Attribute -> score, in the deck's attribute order."""
        return {a.attribute: a.score for a in self.attributes}

    @property
    def attribute_names(self) -> tuple[str, ...]:
        return tuple(a.attribute for a in self.attributes)

    def action_cards(self) -> list[str]:
        """Every action card of the deck, copies included, in deck order."""
        return [card.id for card, qty in zip(self.cards, self.quantities, strict=True)
                for _ in range(qty)]

    def counts(self) -> Counter[str]:
        return Counter(dict(zip((card.id for card in self.cards), self.quantities, strict=True)))

    def card(self, card_id: str) -> CardDef:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise InvalidOptionError(f"the {self.name} deck has no card {card_id!r}")

    @property
    def size(self) -> int:
        return sum(self.quantities)


# -- validation of raw data ----------------------------------------------------------------------

CARD_KEYS = frozenset(("id", "name", "qty", "category", "speed", "attribute", "cost", "value",
                       "tags", "text", "effect"))
REQUIRED_CARD_KEYS = frozenset(("id", "name", "category", "speed", "attribute", "cost"))
DECK_KEYS = frozenset(("hero", "name", "prefix", "edition", "attributes", "cards",
                       "composition"))
ATTRIBUTE_KEYS = frozenset(("id", "attribute", "name", "score"))


def _fail(where: str, message: str) -> InvalidOptionError:
    return InvalidOptionError(f"{where}: {message}")


def _int(raw: Mapping[str, Any], key: str, where: str, low: int, high: int) -> int:
    value = raw.get(key)
    if type(value) is not int or not low <= value <= high:
        raise _fail(where, f"{key!r} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _str(raw: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = raw.get(key, default)
    if not isinstance(value, str) or (default is None and not value):
        raise _fail(where, f"{key!r} must be a non-empty string, not {value!r}")
    return value


def parse_card(raw: Any, where: str, attributes: Iterable[str]) -> tuple[CardDef, int]:
    """One action card row and its quantity; InvalidOptionError when it breaks the schema."""
    if not isinstance(raw, Mapping):
        raise _fail(where, "a card must be a table")
    card_where = f"{where}, card {raw.get('id', '?')!r}"
    unknown = sorted(set(raw) - CARD_KEYS)
    if unknown:
        raise _fail(card_where, f"unknown key(s) {', '.join(unknown)}")
    missing = sorted(REQUIRED_CARD_KEYS - set(raw))
    if missing:
        raise _fail(card_where, f"missing key(s) {', '.join(missing)}")
    card_id = _str(raw, "id", card_where)
    if not card_id.replace("_", "").isalnum() or card_id != card_id.lower() \
            or not card_id.isascii():
        raise _fail(card_where, "a card id is lowercase ASCII letters, digits and '_'")
    try:
        category = Category(raw["category"])
    except ValueError:
        raise _fail(card_where, f"unknown category {raw['category']!r}; known: "
                    f"{', '.join(c.value for c in Category)}") from None
    try:
        speed = Speed(raw["speed"])
    except ValueError:
        raise _fail(card_where, f"unknown speed {raw['speed']!r}; known: "
                    f"{', '.join(s.value for s in Speed)}") from None
    allowed = tuple(attributes)
    attribute = raw["attribute"]
    if attribute not in allowed:
        raise _fail(card_where, f"attribute {attribute!r} is not one of {', '.join(allowed)}")
    cost = _int(raw, "cost", card_where, *COST_RANGE)
    if category is Category.SPECIAL:
        if "value" in raw:
            raise _fail(card_where, "a special card has no value")
        value = None
    else:
        value = _int(raw, "value", card_where, 1, 99)
    tags_raw = raw.get("tags", [])
    if not isinstance(tags_raw, list) or not all(isinstance(t, str) and t for t in tags_raw):
        raise _fail(card_where, "'tags' must be a list of words")
    qty = _int(raw, "qty", card_where, 1, DECK_SIZE) if "qty" in raw else 1
    effect = _str(raw, "effect", card_where, default="")
    effects = parse_effects(effect, card_where)
    card = CardDef(id=card_id, name=_str(raw, "name", card_where), category=category,
                   speed=speed, attribute=attribute, cost=cost, value=value,
                   tags=frozenset(tags_raw), text=_str(raw, "text", card_where, default=""),
                   effect=effect, effects=effects)
    if card.targeting is not None and card.category is not Category.SPECIAL:
        raise _fail(card_where, "only special cards may ignore or purge")
    if card.combo is not None and card.category is Category.SPECIAL:
        raise _fail(card_where, "a special card has no value for a combo to add to")
    return card, qty


def parse_deck(raw: Any, where: str, attributes: tuple[str, ...] = ("body", "mind", "ki"),
               size: int = DECK_SIZE) -> HeroDeck:
    """A hero deck: exactly one attribute card per attribute name, `size` action cards.

    Checks the schema of every row, unique ids, and the [composition] table when present
    (the counts by category, attribute and speed, and the total).
    """
    if not isinstance(raw, Mapping):
        raise _fail(where, "a deck must be a table")
    unknown = sorted(set(raw) - DECK_KEYS)
    if unknown:
        raise _fail(where, f"unknown key(s) {', '.join(unknown)}")
    hero = _str(raw, "hero", where)
    name = _str(raw, "name", where, default=hero.capitalize())
    attr_rows = raw.get("attributes")
    if not isinstance(attr_rows, list) or len(attr_rows) != len(attributes):
        raise _fail(where, f"a deck has exactly {len(attributes)} attribute cards "
                    f"({', '.join(attributes)})")
    attribute_cards: list[AttributeCard] = []
    for row in attr_rows:
        if not isinstance(row, Mapping) or set(row) - ATTRIBUTE_KEYS:
            raise _fail(where, "an attribute card has the keys "
                        f"{', '.join(sorted(ATTRIBUTE_KEYS))}")
        attribute = _str(row, "attribute", where)
        attribute_cards.append(AttributeCard(
            id=_str(row, "id", where, default=f"{hero}_attr_{attribute}"), attribute=attribute,
            name=_str(row, "name", where, default=attribute.capitalize()),
            score=_int(row, "score", f"{where}, attribute {attribute!r}", *SCORE_RANGE)))
    if sorted(a.attribute for a in attribute_cards) != sorted(attributes):
        raise _fail(where, f"the attribute cards must be {', '.join(attributes)}, not "
                    f"{', '.join(a.attribute for a in attribute_cards)}")
    order = {name: i for i, name in enumerate(attributes)}
    attribute_cards.sort(key=lambda a: order[a.attribute])
    card_rows = raw.get("cards")
    if not isinstance(card_rows, list) or not card_rows:
        raise _fail(where, "'cards' must list the action cards")
    cards: list[CardDef] = []
    quantities: list[int] = []
    for row in card_rows:
        card, qty = parse_card(row, where, attributes)
        if any(c.id == card.id for c in cards):
            raise _fail(where, f"card id {card.id!r} is listed twice")
        cards.append(card)
        quantities.append(qty)
    ids = {a.id for a in attribute_cards}
    if len(ids) != len(attribute_cards) or ids & {c.id for c in cards}:
        raise _fail(where, "attribute card ids must be unique and differ from action card ids")
    total = sum(quantities)
    if total != size:
        raise _fail(where, f"a deck has {size} action cards, this one has {total}")
    deck = HeroDeck(hero=hero, name=name, attributes=tuple(attribute_cards), cards=tuple(cards),
                    quantities=tuple(quantities),
                    edition=_str(raw, "edition", where, default="custom"))
    if "composition" in raw:
        check_composition(deck, raw["composition"], where)
    return deck


def composition(deck: HeroDeck) -> dict[str, Any]:
    """The counts of a deck by category, attribute and speed (copies included)."""
    out: dict[str, Counter[str]] = {"category": Counter(), "attribute": Counter(),
                                    "speed": Counter()}
    for card, qty in zip(deck.cards, deck.quantities, strict=True):
        out["category"][card.category.value] += qty
        out["attribute"][card.attribute] += qty
        out["speed"][card.speed.value] += qty
    return {"total": deck.size, **{k: dict(v) for k, v in out.items()}}


def check_composition(deck: HeroDeck, expected: Any, where: str) -> None:
    """Compare a deck with the composition its file states; InvalidOptionError on a mismatch."""
    if not isinstance(expected, Mapping):
        raise _fail(where, "'composition' must be a table")
    actual = composition(deck)
    for key, wanted in expected.items():
        if key not in actual:
            raise _fail(where, f"unknown composition key {key!r}")
        have = actual[key]
        if isinstance(wanted, Mapping):
            wanted = {k: v for k, v in wanted.items() if v}
        if have != wanted:
            raise _fail(where, f"the cards give {key} {have}, the composition says {wanted}")
