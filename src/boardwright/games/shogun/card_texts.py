"""Rise of the Shogun's cards, missions and treasures in words, and the compass of the map:
a card's printed data as one line, its text with rule references left out and province ids
replaced by names, and where a province lies from the hero as a compass point. The terminal's
panels print these (render/shogun_text.py styles them).

The names of things (provinces, cards, treasures, missions, heroes, seats) and the wording of
actions, log events and waiting steps are in `texts.py` beside this module: one wording for
the web table, the terminal, logs and bots, and one decision of what a seat may see.
"""

from __future__ import annotations

import math
import re
from typing import Any

from boardwright.core.game import Game
from boardwright.games.shogun.texts import GLOSSARY, Namer, namer

# "Basic attack: opens an attack ..." -> "basic attack": the glossary's own term for each.
CATEGORIES = {key: text.split(":", 1)[0].lower() for key, text in
              GLOSSARY["categories"].items()}
RULE_REF = re.compile(r"\s*\((?:SHO-[A-Z]+-\d+|-\d+)(?:[,/ ]+(?:SHO-[A-Z]+-)?-?\d+)*\)")
# Rule ids a card names inside its sentence, in players' words; any other id left in a text
# reads as "the rules" (INLINE_REF), so that no rule id reaches a player.
INLINE_WORDS = {
    "the free move of SHO-ATK-06": "the free move a won attack on a peasant allows",
    "in addition to SHO-MON-09": "in addition to what a beaten hero loses",
    "following SHO-MOVE-01/03/04": "following the usual movement rules",
}
INLINE_REF = re.compile(r"SHO-[A-Z]+-\d+(?:[,/ ]+(?:SHO-[A-Z]+-)?-?\d+)*")


def player_text(text: str, spaces: Any = None) -> str:
    """A card's, treasure's or mission's text as a player reads it: rule references in
    brackets left out, rule ids inside a sentence in words, province ids (`spaces`: id ->
    name, optional) by their names."""
    text = RULE_REF.sub("", text)
    for ref, words in INLINE_WORDS.items():
        text = text.replace(ref, words)
    text = INLINE_REF.sub("the rules", text)
    if spaces:
        pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, spaces), key=len,
                                                     reverse=True)) + r")\b")
        text = pattern.sub(lambda m: spaces[m.group(1)], text)
    return text
TARGETS = {"hero": "a hero", "peasant": "an ordinary peasant",
           "controlled_castle": "a castle another player controls"}
DIRECTIONS = ("E", "NE", "N", "NW", "W", "SW", "S", "SE")
ITEM_FACTS = (("vp", "{} VP while held"), ("vp_per_castle", "{} VP per castle"),
              ("move", "moves {}"), ("attack_range", "attack range {}"),
              ("block_bonus", "+{} block"), ("clear", "clears {}"),
              ("court_actions", "{} court actions"))


class Words:
    """One game's card, mission and treasure texts and map compass; names come from the
    game's `Namer` (`names`)."""

    def __init__(self, game: Game) -> None:
        g: Any = game
        self.game = game
        self.names: Namer = namer(g)
        self.board = g.board
        self.catalogue = g.catalogue
        self.treasures = g.treasure
        self.missions = g.mission
        self._space_ids = re.compile(r"\b(" + "|".join(sorted(self.board.ids, key=len,
                                                                 reverse=True)) + r")\b")

    def hero(self, hero: str | None) -> str:
        """A seat's hero by name, "-" before it is chosen."""
        return self.names.hero(hero) if hero else "-"

    def text(self, text: str) -> str:
        """A card's text for the screen: rule references in brackets left out, province ids
        replaced by their names."""
        text = player_text(text)
        return self._space_ids.sub(lambda m: self.names.space(m.group(1)), text)

    # -- cards ------------------------------------------------------------------------------

    def card_facts(self, card_id: str) -> str:
        """An action card's data: category, speed, attribute and cost, value."""
        card = self.catalogue[card_id]
        facts = [CATEGORIES.get(card.category.value, card.category.value), card.speed.value,
                 f"{card.attribute.capitalize()} cost {card.cost}"]
        if card.value is not None:
            facts.append(f"value {card.value}")
        return ", ".join(facts)

    def card_line(self, card_id: str) -> tuple[str, str, str]:
        """(name, data, text) of an action card."""
        card = self.catalogue[card_id]
        return card.name, self.card_facts(card_id), self.text(card.text)

    def treasure_facts(self, treasure_id: str) -> str:
        t = self.treasures[treasure_id]
        if t.is_monster:
            reach = "adjacent" if t.range == 1 else f"range {t.range}"
            targets = " or ".join(TARGETS.get(x, x) for x in t.targets)
            return f"monster, attack {t.attack_value}, {reach}, attacks {targets}"
        facts = [f"item ({t.subtype})" if t.subtype else "item"]
        for key, words in ITEM_FACTS:
            value = getattr(t, key)
            if value:
                facts.append(words.format(value))
        return ", ".join(facts)

    def treasure_line(self, treasure_id: str) -> tuple[str, str, str]:
        t = self.treasures[treasure_id]
        return t.name, self.treasure_facts(treasure_id), self.text(t.effect)

    def mission_line(self, mission_id: str) -> tuple[str, str, str]:
        """(name, when it is checked, condition and what completing it asks)."""
        m = self.missions[mission_id]
        when = "checked at the end of your turns" if m.check == "state" else \
            "completed when it happens"
        text = self.text(m.condition)
        if m.on_complete:
            text += " " + self.text(m.on_complete)
        return m.name, when, text

    # -- the map ----------------------------------------------------------------------------

    def direction(self, origin: Any, other: Any) -> str:
        """Where `other` lies seen from `origin` on the map, as a compass point."""
        a, b = self.board.space(origin), self.board.space(other)
        angle = math.degrees(math.atan2(a.y - b.y, b.x - a.x))  # y grows downwards
        return DIRECTIONS[round(angle / 45) % 8]


__all__ = ["Words", "player_text"]
