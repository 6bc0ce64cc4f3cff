"""Rise of the Shogun in words: provinces, cards, missions, treasures, actions and events by
their names, never by the ids of the data files ("m5", "t_raiju", "sam_katana_cut", "higo").

Everything is read from the game's own content (the map, the decks, the mission and treasure
cards); the texts are the cards' own, with rule references in brackets left out and province
ids inside them replaced by the provinces' names.
"""

from __future__ import annotations

import math
import re
from typing import Any

from boardwright.core.actions import Action
from boardwright.core.game import Game

RULE_REF = re.compile(r"\s*\((?:SHO-[A-Z]+-\d+|-\d+)(?:[,/ ]+(?:SHO-[A-Z]+-)?-?\d+)*\)")
CATEGORIES = {"basic_attack": "basic attack", "attack_modifier": "attack modifier",
              "basic_block": "basic block", "block_modifier": "block modifier",
              "modifier_own_side": "modifier (own side)", "special": "special"}
TARGETS = {"hero": "a hero", "peasant": "an ordinary peasant",
           "controlled_castle": "a castle another player controls"}
COURT_KINDS = {"recruit": "recruit", "move": "move the hero", "convert": "convert",
               "reorganise": "reorganise"}
PENDING = {
    "free_move": "may move the hero into the space just won",
    "theft": "may take one of the beaten hero's treasures",
    "relocate_hero": "may move the beaten hero",
    "relocate_shrine": "must move the searched shrine",
    "recruit": "recruits peasants",
    "reorganise": "reorganises peasants",
    "reorganise_to": "puts the reorganised peasant down",
    "take_peasant": "takes a court marker back",
    "exchange": "exchanges prisoners",
    "clear": "clears pile tops",
    "sandals": "moves with the sandals",
    "before_decree": "may act before the emperor's decree",
    "defy": "accepts or defies the decree",
    "keep": "keeps one of the treasures found",
    "overflow": "returns a treasure over the limit of 3",
    "gift": "gives a treasure for a completed mission",
    "kill": "picks a second peasant for the monster",
    "convert_pick": "picks the peasant to convert",
    "decree": "decrees",
}
DIRECTIONS = ("E", "NE", "N", "NW", "W", "SW", "S", "SE")


class Words:
    """The names of one game's things, and sentences built from them."""

    def __init__(self, game: Game) -> None:
        self.game = game
        g: Any = game
        self.board = g.board
        self.catalogue = g.catalogue
        self.treasures = g.treasure
        self.missions = g.mission
        self.colours: tuple[str, ...] = tuple(g.colours)
        self._space_ids = re.compile(r"\b(" + "|".join(sorted(self.board.ids, key=len,
                                                                 reverse=True)) + r")\b")

    # -- names ------------------------------------------------------------------------------

    def space(self, space_id: Any) -> str:
        """A province's name ("Heian (Yamashiro)" for "heian")."""
        if isinstance(space_id, int):
            return self.board.spaces[space_id].name
        if space_id in self.board:
            return self.board.space(space_id).name
        return str(space_id)

    def card(self, card_id: str) -> str:
        """A card's name: an action card, a treasure or a mission."""
        if card_id in self.catalogue:
            return self.catalogue[card_id].name
        if card_id in self.treasures:
            return self.treasures[card_id].name
        if card_id in self.missions:
            return self.missions[card_id].name
        return card_id

    def card_brief(self, card_id: str) -> str:
        """A card's name with the number it brings to a duel: "Katana Cut (value 5)",
        "Oni (attack 6)"."""
        if card_id in self.catalogue and self.catalogue[card_id].value is not None:
            return f"{self.card(card_id)} (value {self.catalogue[card_id].value})"
        if card_id in self.treasures and self.treasures[card_id].is_monster:
            return f"{self.card(card_id)} (attack {self.treasures[card_id].attack_value})"
        return self.card(card_id)

    def colour(self, seat_or_colour: Any) -> str:
        if isinstance(seat_or_colour, int):
            if 0 <= seat_or_colour < len(self.colours):
                return self.colours[seat_or_colour].capitalize()
            return "nobody"
        return str(seat_or_colour).capitalize()

    @staticmethod
    def hero(hero: str | None) -> str:
        return hero.capitalize() if hero else "-"

    def text(self, text: str) -> str:
        """A card's text for the screen: rule references in brackets left out, province ids
        replaced by their names."""
        text = RULE_REF.sub("", text)
        return self._space_ids.sub(lambda m: self.space(m.group(1)), text)

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
        for key, words in (("vp", "{} VP while held"), ("vp_per_castle", "{} VP per castle"),
                           ("move", "moves {}"), ("attack_range", "attack range {}"),
                           ("block_bonus", "+{} block"), ("clear", "clears {}"),
                           ("court_actions", "{} court actions")):
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

    # -- actions ----------------------------------------------------------------------------

    def action(self, action: Action, done: str = "done") -> str:
        """An action in words (the caller has checked the reader may see all of it); `done`
        is what "done" means at this moment."""
        data = action.to_json()
        kind = data["type"]
        sp = lambda key="space": self.space(data[key])  # noqa: E731
        cd = lambda key="card": self.card(data[key])  # noqa: E731
        simple = {
            "choose_hero": lambda: f"choose the {self.hero(data['hero'])} as your hero",
            "place_castle": lambda: f"place a castle in {sp()}",
            "place_shrine": lambda: f"place a shrine in {sp()}",
            "choose_home": lambda: f"choose {sp()} as your home castle",
            "place_hero": lambda: f"place your hero in {sp()}",
            "discard_card": lambda: f"discard {cd()}",
            "clear_pile": lambda: f"clear the top of your {data['attribute'].capitalize()} pile",
            "move": lambda: f"move the hero to {sp()}",
            "search": lambda: "search the shrine",
            "claim": lambda: f"claim the castle in {sp()}",
            "abandon": lambda: "abandon your mission",
            "attack": lambda: f"attack {sp()} with {self.card_brief(data['opening'])}",
            "convert": lambda: (f"convert the peasant in {sp('target')} from {sp('source')} "
                                f"with {cd()}"),
            "convert_pick": lambda: f"convert the peasant in {sp()}",
            "recruit": lambda: f"recruit a peasant into {sp()}",
            "reorganise": lambda: f"pick up the peasant in {sp('source')} to reorganise it",
            "place_peasant": lambda: f"put the peasant down in {sp()}",
            "cancel_reorganise": lambda: "put the peasant back (cancel the reorganisation)",
            "decree": lambda: f"decree: {COURT_KINDS.get(data['kind'], data['kind'])} only",
            "defy": lambda: f"defy the decree, discarding {cd('treasure')}",
            "use_item": lambda: f"use {cd('treasure')}",
            "discard_treasure": lambda: f"discard {cd('treasure')}",
            "keep_treasure": lambda: f"keep {cd('treasure')}",
            "return_treasure": lambda: f"return {cd('treasure')}",
            "relocate_shrine": lambda: f"move the shrine to {sp()}",
            "relocate_hero": lambda: f"move the beaten hero to {sp()}",
            "exchange": lambda: (f"give {self.colour(data['opponent'])} a "
                                 f"{self.colour(data['colour'])} prisoner"),
            "play_special": lambda: f"play {cd()}" + (
                f" against {self.colour(data['opponent'])}" if "opponent" in data else ""),
            "take_peasant": lambda: f"take the court marker back from {sp()}",
            "kill": lambda: f"kill the peasant in {sp()} too",
            "take_treasure": lambda: "take one of the beaten hero's treasures at random",
            "done": lambda: done,
            "duel_play": lambda: f"play {self.card_brief(data['card'])}" + (
                f" on play #{data['target']}" if "target" in data else ""),
            "duel_item": lambda: f"use {self.card(data['item'])}",
            "duel_pass": lambda: "pass (play nothing now)",
            "duel_discard": lambda: f"discard {cd()}",
            "duel_pick": lambda: f"make them discard {cd()}",
            "duel_clear": lambda: f"clear {cd()} from the top of its pile",
            "duel_recall": lambda: f"take {cd()} back from your discard pile",
            "duel_done": lambda: "stop",
        }
        if kind in simple:
            return simple[kind]()
        return kind.replace("_", " ")

    # -- events -----------------------------------------------------------------------------

    def event(self, entry: dict[str, Any]) -> str | None:
        """A logged event as a sentence after its seat's colour, None for events the move
        line already tells (or that say nothing to a player)."""
        kind = entry["event"]
        sp = lambda key="space": self.space(entry[key])  # noqa: E731
        if kind == "duel":
            result = "succeeds" if entry.get("success") else "fails"
            return (f"'s attack on {sp()} {result} ({entry.get('attack')} against "
                    f"{entry.get('block')}, defended by {self.colour(entry['defender'])})")
        if kind == "capture":
            return f" takes a {self.colour(entry['colour'])} peasant prisoner in {sp()}"
        if kind == "kill":
            return f" kills a {self.colour(entry['colour'])} peasant in {sp()}"
        if kind == "steal":
            return f" steals from {self.colour(entry['defender'])} in {sp()}"
        if kind == "converted":
            return f" converts the {self.colour(entry['colour'])} peasant in {sp()}"
        if kind == "cut_off":
            lost = ", ".join(self.space(s) for s in entry.get("spaces", ()))
            how = (f", taken prisoner by {self.colour(entry['captured_by'])}"
                   if entry.get("captured_by", -1) >= 0 else ", back to the reserve")
            return f" loses cut-off peasants in {lost}{how}"
        if kind == "mission_completed":
            return (f" completes the mission {self.card(entry['mission'])} at the castle in "
                    f"{sp()}")
        if kind == "decree":
            return f" decrees: {COURT_KINDS.get(entry['kind'], entry['kind'])} only"
        if kind == "search":
            return f" searches the shrine in {sp()}"
        if kind == "treasure_taken":
            return f" takes a treasure from {self.colour(entry['source'])}"
        if kind == "decree_impossible":
            return " cannot follow the decree: it lapses"
        return None


def pending_text(kind: str) -> str:
    return PENDING.get(kind, kind.replace("_", " "))


__all__ = ["Words", "pending_text"]
