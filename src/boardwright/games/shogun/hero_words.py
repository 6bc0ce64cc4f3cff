"""A hero as a player choosing one reads it: its Body, Mind and Ki scores and what its deck is
good at, in one line ("Samurai (Body 9, Mind 6, Ki 5): the biggest attacks and blocks, almost
no tricks").

The scores come from the deck's attribute cards (each is the most the costs on that pile may
add up to, so the room for cards of that attribute in a duel); the ability lines are the
game's words for the designed decks (content §3.1). Every place a hero is chosen shows this
line: the set-up's choice (`texts.describe`) and the lobby's "Heroes" option.
"""

from __future__ import annotations

from boardwright.duel import HeroDeck
from boardwright.games.shogun.decks import ATTRIBUTE_NAMES, HEROES, load_decks

ABILITIES = {
    "samurai": "the biggest attacks and blocks, almost no tricks",
    "ninja": "cheap attacks, draws cards and makes opponents discard",
    "miko": "the strongest Mind and Ki cards, purges and takes cards back; a weak Body",
    "prince": "weak basic cards boosted by Intrigue combos that ignore or purge the "
              "opponent's cards",
}


def hero_scores(deck: HeroDeck) -> str:
    """"Body 9, Mind 6, Ki 5"."""
    return ", ".join(f"{ATTRIBUTE_NAMES.get(a.attribute, a.name)} {a.score}"
                     for a in deck.attributes)


def hero_line(deck: HeroDeck) -> str:
    """The hero's name, scores and ability: "Samurai (Body 9, Mind 6, Ki 5): the biggest
    attacks and blocks, almost no tricks" (a custom deck: no ability line)."""
    ability = ABILITIES.get(deck.hero)
    line = f"{deck.name} ({hero_scores(deck)})"
    return f"{line}: {ability}" if ability else line


def hero_labels() -> tuple[tuple[str, str], ...]:
    """(hero id, line) of the four designed heroes, in content order: the lobby's choices."""
    decks = load_decks()
    return tuple((hero, hero_line(decks[hero])) for hero in HEROES)
