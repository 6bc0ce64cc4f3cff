"""Content data: components (SHO-COMP-01..08), the four decks card by card, missions and
treasures, and the validation of corrupted copies of the data files."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from shogun_helpers import CONTENT, DECKS, raw

import boardwright as bw
from boardwright.duel import Category, HeroCards, Speed, composition
from boardwright.games.shogun.content import (
    check_player_count, choose_hero, colours_for, parse_components,
)
from boardwright.games.shogun.decks import (
    HEROES, parse_hero_deck, resolve_deck,
)
from boardwright.games.shogun.missions import parse_missions
from boardwright.games.shogun.treasures import parse_treasures

# -- SHO-COMP --------------------------------------------------------------------------------------


@pytest.mark.rule("SHO-COMP-01")
def test_two_to_four_players() -> None:
    for players in (2, 3, 4):
        assert check_player_count(players) == players
    for players in (1, 5, 0, "2", True):
        with pytest.raises(bw.InvalidOptionError, match="2, 3, 4 players"):
            check_player_count(players)


@pytest.mark.rule("SHO-COMP-02")
def test_component_inventory() -> None:
    comp = CONTENT.components
    assert comp.castles == 8
    assert comp.shrines == 4
    assert comp.missions == len(CONTENT.missions) == 6
    assert comp.treasures == len(CONTENT.treasures) == 13
    assert comp.peasants == 60 and comp.peasants_per_colour == 15 and len(comp.colours) == 4
    assert len(CONTENT.decks) == 4  # one action deck per hero


@pytest.mark.rule("SHO-COMP-03")
def test_starting_kit_per_player() -> None:
    comp = CONTENT.components
    # One hero, one action deck and 15 peasants of the player's own colour.
    assert comp.peasants_per_colour == 15
    for players in (2, 3, 4):
        assert len(colours_for(players)) == players
        assert len(comp.heroes) >= players
    for deck in DECKS.values():
        assert deck.size == 30


@pytest.mark.rule("SHO-COMP-04")
def test_four_heroes_each_chosen_once() -> None:
    assert tuple(DECKS) == HEROES == ("samurai", "ninja", "miko", "prince")
    assert [DECKS[h].edition for h in HEROES] == ["base", "base", "expansion", "expansion"]
    taken: list[str] = []
    for hero in ("samurai", "ninja", "miko", "prince"):
        taken.append(choose_hero(taken, hero))
    assert len(set(taken)) == 4
    with pytest.raises(bw.IllegalActionError, match="already taken"):
        choose_hero(["samurai"], "samurai")
    with pytest.raises(bw.IllegalActionError, match="unknown hero"):
        choose_hero([], "monk")


@pytest.mark.rule("SHO-COMP-05")
def test_three_attributes_body_mind_ki() -> None:
    for deck in DECKS.values():
        assert [a.name for a in deck.attributes] == ["Body", "Mind", "Ki"]
        assert deck.attribute_names == ("body", "mind", "ki")


@pytest.mark.rule("SHO-COMP-06")
def test_deck_shape_33_cards() -> None:
    for deck in DECKS.values():
        assert len(deck.attributes) + deck.size == 33
        dealt = HeroCards.deal(0, deck, random.Random(3))
        assert all(pile == [] for pile in dealt.piles.values())  # attribute cards laid out
        assert len(dealt.hand) + len(dealt.draw_pile) == 30
        assert len(dealt.hand) == 7 and len(dealt.draw_pile) == 23 and dealt.discard == []
        assert dealt.card_counts() == deck.counts()


@pytest.mark.rule("SHO-COMP-06")
def test_fixed_deck_order_is_used_top_first() -> None:
    deck = DECKS["ninja"]
    order = sorted(deck.action_cards())
    dealt = HeroCards.deal(0, deck, random.Random(0), order_top_first=order)
    assert dealt.hand == order[:7]
    assert dealt.draw_pile[-1] == order[7]  # the next card drawn
    with pytest.raises(bw.IllegalActionError, match="exactly once"):
        HeroCards.deal(0, deck, random.Random(0), order_top_first=order[:-1])


@pytest.mark.rule("SHO-COMP-07")
def test_player_colours() -> None:
    assert CONTENT.components.colours == ("green", "red", "blue", "yellow")
    two = colours_for(2)
    assert len(set(two)) == 2 and set(two) <= {"green", "red", "blue", "yellow"}
    assert len(set(colours_for(4))) == 4


def _custom_deck() -> dict:
    data = raw("samurai.toml")
    data["hero"] = "ronin"
    data["name"] = "Ronin"
    data.pop("composition")
    return data


@pytest.mark.rule("SHO-COMP-08")
def test_custom_decks_need_the_option() -> None:
    with pytest.raises(bw.InvalidOptionError, match="custom_decks"):
        resolve_deck(_custom_deck(), custom_decks=False)
    deck = resolve_deck(_custom_deck(), custom_decks=True)
    assert deck.hero == "ronin" and len(deck.attributes) + deck.size == 33
    assert resolve_deck("miko") is DECKS["miko"]
    with pytest.raises(bw.InvalidOptionError, match="unknown hero"):
        resolve_deck("ronin")


@pytest.mark.rule("SHO-COMP-08")
def test_custom_decks_follow_the_schema() -> None:
    short = _custom_deck()
    short["cards"][0]["qty"] -= 1
    with pytest.raises(bw.InvalidOptionError, match="30 action cards"):
        resolve_deck(short, custom_decks=True)
    no_speed = _custom_deck()
    del no_speed["cards"][2]["speed"]
    with pytest.raises(bw.InvalidOptionError, match="missing key.*speed"):
        resolve_deck(no_speed, custom_decks=True)
    clash = _custom_deck()
    clash["cards"][0]["value"] = 9  # sam_katana_cut with other fields
    with pytest.raises(bw.InvalidOptionError, match="belongs to a designed card"):
        resolve_deck(clash, custom_decks=True)


# -- the decks, row by row -----------------------------------------------------------------------


def test_deck_scores_and_totals() -> None:
    scores = {h: d.scores for h, d in DECKS.items()}
    assert scores == {"samurai": {"body": 9, "mind": 6, "ki": 5},
                      "ninja": {"body": 7, "mind": 8, "ki": 6},
                      "miko": {"body": 4, "mind": 9, "ki": 8},
                      "prince": {"body": 5, "mind": 9, "ki": 6}}
    assert {h: sum(s.values()) for h, s in scores.items()} == {
        "samurai": 20, "ninja": 21, "miko": 21, "prince": 20}


def test_deck_compositions_match_the_content() -> None:
    assert composition(DECKS["samurai"]) == {
        "total": 30,
        "category": {"basic_attack": 9, "attack_modifier": 7, "basic_block": 8,
                     "block_modifier": 5, "special": 1},
        "attribute": {"body": 18, "mind": 7, "ki": 5},
        "speed": {"exclusive": 8, "restricted": 8, "fast": 14}}
    assert composition(DECKS["prince"])["category"] == {
        "basic_attack": 8, "modifier_own_side": 3, "attack_modifier": 2, "basic_block": 5,
        "block_modifier": 3, "special": 9}
    assert composition(DECKS["miko"])["speed"] == {"exclusive": 7, "restricted": 7, "fast": 16}
    assert composition(DECKS["ninja"])["attribute"] == {"body": 9, "mind": 13, "ki": 8}
    assert [len(d.cards) for d in DECKS.values()] == [14, 15, 16, 15]


def test_some_card_rows_exactly() -> None:
    cut = CONTENT.catalogue["sam_katana_cut"]
    assert (cut.name, cut.category, cut.speed, cut.attribute, cut.cost, cut.value) == (
        "Katana Cut", Category.BASIC_ATTACK, Speed.EXCLUSIVE, "body", 4, 5)
    assert DECKS["samurai"].counts()["sam_katana_cut"] == 4
    steal = CONTENT.catalogue["nin_steal_secrets"]
    assert (steal.category, steal.speed, steal.attribute, steal.cost, steal.value) == (
        Category.SPECIAL, Speed.EXCLUSIVE, "ki", 3, None)
    assert steal.effect == ("look_hand(chosen_opponent); "
                            "discard(chosen_opponent,1,picked_by_owner)")
    assert steal.text == ("Look at an opponent's hand and choose 1 card in it; that opponent "
                          "discards it.")
    blackmail = CONTENT.catalogue["pri_blackmail"]
    assert blackmail.tags == frozenset({"intrigue"}) and blackmail.cost == 4
    favor = CONTENT.catalogue["pri_favor_of_the_court"]
    assert (favor.category, favor.value, favor.combo.bonus) == (  # type: ignore[union-attr]
        Category.MODIFIER_OWN_SIDE, 1, 2)
    retribution = CONTENT.catalogue["mik_heavenly_retribution"]
    assert retribution.effect == "on_failure(discard(attacker,2,random))"
    assert DECKS["miko"].counts()["mik_purifying_arrow"] == 3
    intrigue = Counter()
    for card, qty in zip(DECKS["prince"].cards, DECKS["prince"].quantities, strict=True):
        if "intrigue" in card.tags:
            intrigue[card.id] = qty
    assert sum(intrigue.values()) == 7


def test_card_ids_are_prefixed_and_unique() -> None:
    prefixes = {"samurai": "sam_", "ninja": "nin_", "miko": "mik_", "prince": "pri_"}
    ids = [c.id for d in DECKS.values() for c in d.cards]
    assert len(ids) == len(set(ids)) == len(CONTENT.catalogue) == 60
    for hero, deck in DECKS.items():
        assert all(c.id.startswith(prefixes[hero]) for c in deck.cards)
        assert [a.id for a in deck.attributes] == [f"{prefixes[hero]}attr_{a}"
                                                   for a in ("body", "mind", "ki")]


# -- missions and treasures ----------------------------------------------------------------------


def test_missions_rows() -> None:
    missions = {m.id: m for m in CONTENT.missions}
    assert list(missions) == ["m1", "m2", "m3", "m4", "m5", "m6"]
    assert [m.check for m in CONTENT.missions] == ["state", "state", "event", "event", "state",
                                                   "state"]
    assert missions["m1"].name == "Loyal Villages" and missions["m1"].count == 2
    assert missions["m3"].goal == "hero_beaten"
    assert missions["m6"].gift == 1 and missions["m6"].count == 2
    assert missions["m5"].condition == ("The holder is the emperor: one of their ordinary "
                                        "peasants is on heian.")


def test_treasure_rows() -> None:
    t = {x.id: x for x in CONTENT.treasures}
    assert sum(x.is_monster for x in CONTENT.treasures) == 6
    assert (t["t_oni"].attack_value, t["t_oni"].range, t["t_oni"].targets) == (
        6, 1, ("hero", "peasant"))
    assert (t["t_tengu"].attack_value, t["t_tengu"].range) == (5, 3)
    assert t["t_orochi"].targets == ("controlled_castle",) and t["t_orochi"].attack_value == 7
    assert t["t_jorogumo"].targets == ("peasant",)
    assert t["t_raiju"].discards == 2 and t["t_raiju"].range == 2
    assert t["t_an_heir"].vp == 5 and t["t_an_heir"].is_scoring
    assert t["t_ancestral_scrolls"].vp_per_castle == 1
    assert t["t_great_armor"].subtype == "fast" and t["t_great_armor"].block_bonus == 3
    assert t["t_great_bow"].attack_range == 2
    assert t["t_imperial_letter"].court_actions == 2
    armor = t["t_great_armor"].duel_item()
    assert armor is not None and armor.side == "defender" and armor.bonus == 3
    assert t["t_sacred_sake"].duel_item() is not None
    assert t["t_great_bow"].duel_item() is None
    assert t["t_oni"].as_monster().value == 6
    with pytest.raises(bw.IllegalActionError):
        t["t_an_heir"].as_monster()


# -- corrupted copies ----------------------------------------------------------------------------


def _deck_error(data: dict, match: str, hero: str = "samurai") -> None:
    with pytest.raises(bw.InvalidOptionError, match=match):
        parse_hero_deck(data, f"deck file {hero}.toml", hero)


def test_the_shipped_decks_parse() -> None:
    for hero in HEROES:
        assert parse_hero_deck(raw(f"{hero}.toml"), hero, hero) == DECKS[hero]


def test_corrupted_decks_are_rejected() -> None:
    data = raw("samurai.toml")
    data["cards"][0]["qty"] = 5
    _deck_error(data, "31")
    data = raw("samurai.toml")
    data["cards"][0]["category"] = "basic_block"  # total kept, composition broken
    _deck_error(data, "composition says")
    data = raw("samurai.toml")
    data["cards"][-1]["effect"] = "ignore(opponent,everything)"
    _deck_error(data, "sam_read_the_blade.*kind of ignore")
    data = raw("samurai.toml")
    data["cards"][3]["effect"] = "draw(2"
    _deck_error(data, "sam_swift_draw.*expected '\\)'")
    data = raw("samurai.toml")
    data["cards"][1]["cost"] = 7
    _deck_error(data, "'cost' must be a whole number from 2 to 6")
    data = raw("samurai.toml")
    data["cards"][-1]["value"] = 1
    _deck_error(data, "special card has no value")
    data = raw("samurai.toml")
    data["cards"][0]["speed"] = "slow"
    _deck_error(data, "unknown speed 'slow'")
    data = raw("samurai.toml")
    data["cards"][0]["id"] = "nin_katana_cut"
    _deck_error(data, "does not start with 'sam_'")
    data = raw("samurai.toml")
    data["attributes"].pop()
    _deck_error(data, "exactly 3 attribute cards")
    data = raw("samurai.toml")
    data["attributes"][2]["name"] = "Spirit"
    _deck_error(data, "named 'Ki'")
    data = raw("samurai.toml")
    data["attributes"][0]["score"] = 11
    _deck_error(data, "from 3 to 10")
    data = raw("samurai.toml")
    data["cards"].append(dict(data["cards"][0]))
    _deck_error(data, "listed twice")
    data = raw("samurai.toml")
    data["cards"][0]["attribute"] = "spirit"
    _deck_error(data, "attribute 'spirit'")
    data = raw("ninja.toml")
    data["cards"][-2]["effect"] = "discard(chosen_opponent,1,picked_by_owner)"
    _deck_error(data, "look_hand", "ninja")


def test_corrupted_missions_treasures_components_are_rejected() -> None:
    data = raw("missions.toml")
    data["missions"].pop()
    with pytest.raises(bw.InvalidOptionError, match="6 mission cards, not 5"):
        parse_missions(data)
    data = raw("missions.toml")
    data["missions"][2]["check"] = "state"
    with pytest.raises(bw.InvalidOptionError, match="'m3'.*event mission"):
        parse_missions(data)
    data = raw("missions.toml")
    data["missions"][1]["id"] = "m1"
    with pytest.raises(bw.InvalidOptionError, match="listed twice"):
        parse_missions(data)
    data = raw("treasures.toml")
    data["treasures"][0]["type"] = "item"
    with pytest.raises(bw.InvalidOptionError, match="t_oni"):
        parse_treasures(data)
    data = raw("treasures.toml")
    data["treasures"].pop()
    with pytest.raises(bw.InvalidOptionError, match="13 treasure cards, not 12"):
        parse_treasures(data)
    data = raw("treasures.toml")
    data["treasures"][1]["targets"] = ["castle"]
    with pytest.raises(bw.InvalidOptionError, match="'targets'"):
        parse_treasures(data)
    data = raw("components.toml")
    data["castles_in_play"] = {"2": 6, "3": 7}
    with pytest.raises(bw.InvalidOptionError, match="each player count"):
        parse_components(data)
    data = raw("components.toml")
    data["colours"] = ["green", "red", "red", "yellow"]
    with pytest.raises(bw.InvalidOptionError, match="distinct colour"):
        parse_components(data)
