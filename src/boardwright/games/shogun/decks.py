"""The four hero decks (content §3) and custom decks (SHO-COMP-04..08), as HeroCard decks.

Each designed deck is a data file named after its hero. On top of the HeroCard deck schema
(`boardwright.duel.parse_deck`: three attribute cards, 30 action cards, the stated
composition), a Shogun deck must have the attributes Body, Mind and Ki (Ki is this game's
Attribute X, SHO-COMP-05) and ids that start with the hero's prefix.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from boardwright.core.errors import InvalidOptionError
from boardwright.duel import CardDef, HeroDeck, parse_deck
from boardwright.games.shogun.datafile import fail, read_data

HEROES = ("samurai", "ninja", "miko", "prince")  # content order; each has data/<hero>.toml
ATTRIBUTES = ("body", "mind", "ki")
ATTRIBUTE_NAMES = {"body": "Body", "mind": "Mind", "ki": "Ki"}
EDITIONS = ("base", "expansion")


def parse_hero_deck(raw: Any, where: str, hero: str | None = None) -> HeroDeck:
    """A designed deck: the HeroCard schema plus the Shogun conventions."""
    deck = parse_deck(raw, where, ATTRIBUTES)
    if hero is not None and deck.hero != hero:
        raise fail(where, f"the file is for {hero!r} but says hero = {deck.hero!r}")
    if deck.edition not in EDITIONS:
        raise fail(where, f"'edition' must be one of {', '.join(EDITIONS)}, not {deck.edition!r}")
    prefix = raw.get("prefix") if isinstance(raw, Mapping) else None
    if not isinstance(prefix, str) or not prefix:
        raise fail(where, "'prefix' must name the id prefix of the deck's cards")
    for card_id in [a.id for a in deck.attributes] + [c.id for c in deck.cards]:
        if not card_id.startswith(prefix + "_"):
            raise fail(where, f"card id {card_id!r} does not start with {prefix + '_'!r}")
    for attribute in deck.attributes:
        if attribute.name != ATTRIBUTE_NAMES[attribute.attribute]:
            raise fail(where, f"the {attribute.attribute} attribute card must be named "
                       f"{ATTRIBUTE_NAMES[attribute.attribute]!r}, not {attribute.name!r}")
    return deck


@lru_cache(maxsize=None)
def _load_decks() -> tuple[HeroDeck, ...]:
    decks = tuple(parse_hero_deck(read_data(f"{hero}.toml"), f"deck file {hero}.toml", hero)
                  for hero in HEROES)
    seen: dict[str, str] = {}
    for deck in decks:
        for card in deck.cards:
            if card.id in seen:
                raise InvalidOptionError(f"card id {card.id!r} is in both the {seen[card.id]} "
                                         f"and the {deck.hero} decks")
            seen[card.id] = deck.hero
    return decks


def load_decks() -> dict[str, HeroDeck]:
    """The four designed decks by hero id, in content order."""
    return {deck.hero: deck for deck in _load_decks()}


def hero_deck(hero: str) -> HeroDeck:
    decks = load_decks()
    if hero not in decks:
        raise InvalidOptionError(f"unknown hero {hero!r}; the heroes are {', '.join(HEROES)}")
    return decks[hero]


@lru_cache(maxsize=None)
def _catalogue() -> tuple[tuple[str, CardDef], ...]:
    return tuple((card.id, card) for deck in _load_decks() for card in deck.cards)


def catalogue() -> dict[str, CardDef]:
    """Every action card of the designed decks by id, deck by deck in content order."""
    return dict(_catalogue())


def resolve_deck(choice: Any, custom_decks: bool = False) -> HeroDeck:
    """The deck a player plays: a hero id names a designed deck; a table is a custom deck,
    accepted only with the option `custom_decks` (SHO-COMP-08) and only if it follows the
    deck schema of content §3. A custom card may not reuse a designed card's id for another
    card."""
    if isinstance(choice, str):
        return hero_deck(choice)
    if not custom_decks:
        raise InvalidOptionError("a deck must be one of the heroes "
                                 f"{', '.join(HEROES)}; other decks need the option "
                                 "custom_decks (SHO-COMP-08)")
    name = choice.get("hero", "custom") if isinstance(choice, Mapping) else "custom"
    deck = parse_deck(choice, f"custom deck {name!r}", ATTRIBUTES)
    known = catalogue()
    for card in deck.cards:
        if card.id in known and known[card.id] != card:
            raise InvalidOptionError(f"custom deck {name!r}: card id {card.id!r} belongs to a "
                                     "designed card with other fields")
    return deck
