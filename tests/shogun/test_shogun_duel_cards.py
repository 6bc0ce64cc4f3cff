"""The duel's cards and piles: SHO-DUEL-01..06, and the effect-text parser."""

from __future__ import annotations

import pytest
from shogun_helpers import (
    CATALOGUE, DECKS, PASS, cards, finish, pair, pile_total, play, run, table,
)

import boardwright as bw
from boardwright.duel import Category, Duel, PlayCard, Speed, parse_effects
from boardwright.duel.effects import (
    Clear, Combo, Discard, Draw, Ignore, LookHand, OnFailure, Purge, effects_text,
)


@pytest.mark.rule("SHO-DUEL-01")
def test_attribute_scores_cap_the_piles() -> None:
    assert DECKS["samurai"].scores == {"body": 9, "mind": 6, "ki": 5}
    samurai = cards(0, "samurai", ["sam_heaven_splitting_blow", "sam_press_the_advantage",
                                   "sam_kiai_shout", "sam_lacquered_armor"])
    samurai.place(CATALOGUE["sam_heaven_splitting_blow"], CATALOGUE)
    samurai.place(CATALOGUE["sam_press_the_advantage"], CATALOGUE)
    assert samurai.pile_total("body", CATALOGUE) == 8 and samurai.room("body", CATALOGUE) == 1
    with pytest.raises(bw.IllegalActionError, match="body pile has 1 of 9 left"):
        samurai.place(CATALOGUE["sam_lacquered_armor"], CATALOGUE)


@pytest.mark.rule("SHO-DUEL-02")
def test_card_anatomy() -> None:
    categories = {c.value for c in Category}
    for card in CATALOGUE.values():
        assert card.category.value in categories
        assert card.speed in (Speed.FAST, Speed.RESTRICTED, Speed.EXCLUSIVE)
        assert card.attribute in ("body", "mind", "ki")
        assert 2 <= card.cost <= 6
        if card.category is Category.SPECIAL:
            assert card.value is None
        else:
            assert isinstance(card.value, int) and card.value >= 1
    assert parse_effects(CATALOGUE["nin_steal_secrets"].effect) == (
        LookHand("chosen_opponent"), Discard("chosen_opponent", 1, "picked_by_owner"))


def test_effect_parser_round_trips_every_card() -> None:
    for card in CATALOGUE.values():
        assert parse_effects(effects_text(card.effects)) == card.effects
    assert parse_effects("on_failure(discard(attacker,2,random))") == (
        OnFailure((Discard("attacker", 2, "random"),)),)
    assert parse_effects("combo(intrigue,+3)") == (Combo("intrigue", 3),)
    assert parse_effects("draw(1); clear(1)") == (Draw(1), Clear(1))
    assert parse_effects("ignore(opponent,basic)") == (Ignore("basic"),)
    assert parse_effects("purge(opponent,any)") == (Purge("any"),)
    assert parse_effects("—") == ()
    for bad, message in [("draw(0)", "at least 1"), ("fly(2)", "unknown keyword 'fly'"),
                         ("draw(1) clear(1)", "unexpected 'clear'"),
                         ("discard(me,1,choice)", "who discards"),
                         ("on_success(purge(opponent,any))", "may hold only"),
                         ("ignore(opponent,any); purge(opponent,any)", "only one card")]:
        with pytest.raises(bw.InvalidOptionError, match=message):
            parse_effects(bad, "test card")


def test_duel_only_cards() -> None:
    assert not CATALOGUE["nin_spy_network"].duel_only
    assert not CATALOGUE["nin_steal_secrets"].duel_only
    assert not CATALOGUE["mik_curse_of_the_kami"].duel_only
    for card_id in ("sam_read_the_blade", "pri_web_of_favors", "sam_katana_cut",
                    "nin_caltrops", "pri_favor_of_the_court"):
        assert CATALOGUE[card_id].duel_only


@pytest.mark.rule("SHO-DUEL-03")
def test_costs_are_paid_on_the_cards_own_pile() -> None:
    samurai = cards(0, "samurai", ["sam_katana_cut", "sam_press_the_advantage"],
                    piles={"body": ["sam_heaven_splitting_blow"]})
    assert not samurai.can_pay(CATALOGUE["sam_katana_cut"], CATALOGUE)  # 6 + 4 > 9
    assert samurai.can_pay(CATALOGUE["sam_press_the_advantage"], CATALOGUE)  # 6 + 2 <= 9
    with pytest.raises(bw.IllegalActionError, match="costs 4 but the body pile has 3 of 9"):
        samurai.place(CATALOGUE["sam_katana_cut"], CATALOGUE)
    assert samurai.room("mind", CATALOGUE) == 6  # another pile's room is no help
    t = table(samurai, cards(1, "ninja", ["nin_tumble"]))
    assert Duel.openings(t, 0) == []
    with pytest.raises(bw.IllegalActionError, match="costs 4 but the body pile has 3 left"):
        Duel.peasant_attack(t, 0, 1, "sam_katana_cut")
    assert samurai.hand == ["sam_katana_cut", "sam_press_the_advantage"]


@pytest.mark.rule("SHO-DUEL-03")
def test_in_a_duel_only_affordable_cards_are_offered() -> None:
    t = pair("samurai", ["sam_heaven_splitting_blow", "sam_press_the_advantage",
                         "sam_kiai_shout", "sam_unwavering_will"],
             "ninja", ["nin_tumble"], attacker_piles={"ki": ["sam_counter_cut"]})
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_heaven_splitting_blow"), PASS)
    assert pile_total(t, 0, "body") == 6
    offered = [a.card for a in duel.legal_actions() if isinstance(a, PlayCard)]
    # Press the Advantage (Body 2) fits, Kiai Shout (Ki 2 on Ki 3/5) fits too.
    assert offered == ["sam_press_the_advantage", "sam_unwavering_will", "sam_kiai_shout"]
    run(duel, play("sam_kiai_shout"), PASS)
    assert [a.card for a in duel.legal_actions() if isinstance(a, PlayCard)] == [
        "sam_press_the_advantage", "sam_unwavering_will"]
    with pytest.raises(bw.IllegalActionError):
        duel.apply(play("sam_kiai_shout"))


@pytest.mark.rule("SHO-DUEL-04")
def test_speeds() -> None:
    # The defender plays fast cards only; a restricted special is refused.
    t = pair("samurai", ["sam_katana_cut"], "samurai",
             ["sam_sword_parry", "sam_lacquered_armor", "sam_press_the_advantage",
              "nin_spy_network"])
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), play("sam_sword_parry"), PASS)
    assert duel.current_player == 1
    offered = duel.legal_actions()
    assert play("sam_lacquered_armor") in offered
    assert play("sam_press_the_advantage") not in offered
    assert play("nin_spy_network") not in offered
    with pytest.raises(bw.IllegalActionError, match="restricted: outside their own action phase"):
        duel.apply(play("nin_spy_network"))
    with pytest.raises(bw.IllegalActionError, match="only the attacker plays those"):
        duel.apply(play("sam_press_the_advantage"))
    duel.apply(play("sam_lacquered_armor"))
    assert t[1].piles["body"] == ["sam_sword_parry", "sam_lacquered_armor"]


@pytest.mark.rule("SHO-DUEL-04")
def test_exclusive_cards_need_the_free_slot() -> None:
    # An exclusive opening uses the slot: an exclusive special is then refused.
    t = pair("ninja", ["nin_tanto_thrust", "nin_steal_secrets"], "samurai", ["sam_still_mind"])
    duel = run(Duel.hero_attack(t, 0, 1, "nin_tanto_thrust"), PASS)
    with pytest.raises(bw.IllegalActionError, match="exclusive slot is already used"):
        duel.apply(play("nin_steal_secrets"))
    # A restricted opening (Shuriken) leaves it free.
    t = pair("ninja", ["nin_shuriken", "nin_steal_secrets"], "samurai", ["sam_still_mind"])
    duel = run(Duel.hero_attack(t, 0, 1, "nin_shuriken"), PASS)
    assert not duel.exclusive_used
    duel.apply(play("nin_steal_secrets"))
    assert duel.exclusive_used
    # A game that has already used the slot this turn says so when the duel starts.
    t = pair("ninja", ["nin_shuriken", "nin_tanto_thrust"], "samurai", [])
    assert Duel.openings(t, 0, exclusive_free=False) == ["nin_shuriken"]


@pytest.mark.rule("SHO-DUEL-05")
def test_cards_stay_on_piles_after_the_duel() -> None:
    t = pair("samurai", ["sam_katana_cut"], "samurai", ["sam_iron_guard"])
    duel = finish(run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), play("sam_iron_guard")))
    assert not duel.outcome.success  # type: ignore[union-attr]
    assert t[1].piles["body"] == ["sam_iron_guard"]
    assert t[0].piles["body"] == ["sam_katana_cut"]
    assert t[1].room("body", CATALOGUE) == 4  # still spent on the defender's next turn
    assert t[1].clear_top("body") == "sam_iron_guard"  # until the owner clears it
    assert t[1].discard == ["sam_iron_guard"]


@pytest.mark.rule("SHO-DUEL-06")
def test_only_the_two_participants_act() -> None:
    t = table(cards(0, "samurai", ["sam_katana_cut"]), cards(1, "ninja", ["nin_vanish"]),
              cards(2, "miko", ["mik_sacred_barrier"]),
              cards(3, "prince", ["pri_bribe", "pri_retainers_shield"]))
    duel = Duel.peasant_attack(t, 0, 1, "sam_katana_cut")
    with pytest.raises(bw.IllegalActionError, match="seat 3 takes no part"):
        duel.apply(play("pri_retainers_shield"), player=3)
    with pytest.raises(bw.IllegalActionError, match="seat 1 must act now, not seat 0"):
        duel.apply(PASS, player=0)
    duel.apply(play("nin_vanish"), player=1)
    with pytest.raises(bw.IllegalActionError, match="seat 3 takes no part"):
        duel.apply(play("pri_bribe"), player=3)
    assert t[3].hand == ["pri_bribe", "pri_retainers_shield"]
    finish(duel)
    assert duel.outcome is not None and {duel.outcome.attacker, duel.outcome.defender} == {0, 1}
