"""Duels outside the plain hero attack, and the card system around them: SHO-DUEL-24..30
(cards outside duels, running out of cards, information, peasants and castles, conversion,
monsters, card text that overrides a rule)."""

from __future__ import annotations

import random

import pytest
from shogun_helpers import (
    PASS, cards, finish, item, monster, pair, pile_total, play, run, table,
)

import boardwright as bw
from boardwright.duel import (
    ClearCard, Done, Duel, DuelTarget, OutsidePlay, TargetKind, UseItem,
)


@pytest.mark.rule("SHO-DUEL-24")
def test_cards_outside_duels() -> None:
    t = table(cards(0, "ninja", ["nin_spy_network", "sam_read_the_blade", "nin_caltrops",
                                 "nin_steal_secrets"], deck=["nin_vanish", "nin_feint"]),
              cards(1, "samurai", ["sam_katana_cut"]))
    assert OutsidePlay.playable(t, 0) == ["nin_spy_network", "nin_steal_secrets"]
    assert OutsidePlay.playable(t, 0, exclusive_free=False) == ["nin_spy_network"]
    resolved = OutsidePlay.start(t, 0, "nin_spy_network")
    assert resolved.is_over and "nin_feint" in t[0].hand
    assert t[0].piles["mind"] == ["nin_spy_network"]  # paid as usual
    with pytest.raises(bw.IllegalActionError, match="only inside one"):
        OutsidePlay.start(t, 0, "sam_read_the_blade")
    with pytest.raises(bw.IllegalActionError, match="block modifier; it can be played only"):
        OutsidePlay.start(t, 0, "nin_caltrops")
    steal = OutsidePlay.start(t, 0, "nin_steal_secrets", opponent=1)
    assert steal.current_player == 0 and steal.view(0)["revealed_hand"] == ["sam_katana_cut"]
    assert steal.exclusive_used
    steal.apply({"type": "duel_pick", "card": "sam_katana_cut"})
    assert steal.is_over and t[1].discard == ["sam_katana_cut"]


@pytest.mark.rule("SHO-DUEL-25")
def test_running_out_of_cards() -> None:
    discard = (["nin_vanish"] * 3 + ["nin_tumble"] * 3 + ["nin_feint"] * 2
               + ["nin_shuriken"] * 2)
    player = cards(0, "ninja", ["nin_misdirection"] * 2 + ["nin_smoke_bomb"] * 2,
                   discard=discard)
    assert player.draw_phase_count() == 3
    drawn = player.draw(player.draw_phase_count(), random.Random(4))
    assert len(drawn) == 3 and len(player.hand) == 7
    assert len(player.draw_pile) == 7 and player.discard == []
    assert sorted(player.draw_pile + drawn) == sorted(discard)
    # Both empty: the draw simply does not happen.
    dry = cards(0, "ninja", ["nin_vanish"])
    assert dry.draw(3, random.Random(0)) == [] and dry.hand == ["nin_vanish"]
    # The same seed reshuffles the same way.
    again = cards(0, "ninja", ["nin_misdirection"] * 2 + ["nin_smoke_bomb"] * 2,
                  discard=discard)
    assert again.draw(3, random.Random(4)) == drawn


@pytest.mark.rule("SHO-DUEL-25")
def test_a_draw_inside_a_duel_reshuffles() -> None:
    t = pair("ninja", ["nin_shuriken", "nin_spy_network"], "samurai", [],
             attacker_discard=["nin_vanish", "nin_tumble"])
    run(Duel.peasant_attack(t, 0, 1, "nin_shuriken"), PASS, play("nin_spy_network"))
    assert sorted(t[0].hand) == ["nin_tumble", "nin_vanish"] and t[0].discard == []


@pytest.mark.rule("SHO-DUEL-26")
def test_information() -> None:
    t = pair("samurai", ["sam_katana_cut", "sam_press_the_advantage"], "ninja",
             ["nin_vanish", "nin_feint"], attacker_deck=["sam_iron_guard"],
             defender_discard=["nin_tumble"])
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), play("nin_vanish"))
    seen_by_blue = t.view(1)
    red = seen_by_blue[0]
    assert red["hand"] is None and red["hand_size"] == 1 and red["draw_size"] == 1
    assert red["piles"] == {"body": ["sam_katana_cut"], "mind": [], "ki": []}
    assert red["pile_totals"]["body"] == 4 and red["scores"] == {"body": 9, "mind": 6, "ki": 5}
    assert seen_by_blue[1]["hand"] == ["nin_feint"] and seen_by_blue[1]["discard"] == ["nin_tumble"]
    assert all(p["hand"] is None for p in t.view(None))
    text = repr(duel.view(1)) + repr(t.view(1))
    assert "sam_press_the_advantage" not in text and "sam_iron_guard" not in text
    text = repr(duel.view(0)) + repr(t.view(0))
    assert "nin_feint" not in text


@pytest.mark.rule("SHO-DUEL-27")
def test_the_owner_of_a_peasant_defends() -> None:
    t = pair("samurai", ["sam_katana_cut"], "ninja", ["nin_vanish", "nin_tumble"])
    duel = Duel.peasant_attack(t, 0, 1, "sam_katana_cut", space="higo")
    assert duel.current_player == 1 and duel.target == DuelTarget(TargetKind.PEASANT, "higo")
    assert duel.legal_actions() == [play("nin_vanish"), play("nin_tumble"), PASS]
    duel.apply(play("nin_tumble"))
    assert t[1].piles["body"] == ["nin_tumble"] and pile_total(t, 1, "body") == 2


@pytest.mark.rule("SHO-DUEL-27")
def test_the_courting_player_defends_a_courted_castle() -> None:
    t = table(cards(0, "samurai", ["sam_katana_cut"]), cards(1, "ninja", ["nin_vanish"]),
              cards(2, "miko", ["mik_sacred_barrier"]))
    duel = Duel.alliance_attack(t, 0, 2, "sam_katana_cut", space="kaga")
    assert duel.current_player == 2 and duel.target.kind is TargetKind.COURTED_CASTLE
    assert duel.legal_actions() == [play("mik_sacred_barrier"), PASS]
    finish(run(duel, play("mik_sacred_barrier")))
    assert t[2].piles["mind"] == ["mik_sacred_barrier"] and t[1].piles["mind"] == []
    assert duel.outcome is not None and duel.outcome.defender == 2
    assert duel.outcome.target.space == "kaga" and not duel.outcome.success
    # A controlled castle can be attacked only by a monster allowing it; its controller defends.
    with pytest.raises(bw.IllegalActionError, match="only a monster"):
        Duel.castle_attack(t, 0, 1, "sam_katana_cut")  # type: ignore[arg-type]
    orochi = Duel.castle_attack(t, 0, 1, monster("t_orochi"), space="aki")
    assert orochi.current_player == 1 and orochi.totals() == (7, 0)


@pytest.mark.rule("SHO-DUEL-28")
def test_the_conversion_duel() -> None:
    t = pair("samurai", ["sam_heaven_splitting_blow"], "ninja", ["nin_vanish"])
    with pytest.raises(bw.IllegalActionError, match="exclusive slot is already used"):
        Duel.peasant_attack(t, 0, 1, "sam_heaven_splitting_blow", exclusive_free=False)
    assert Duel.openings(t, 0, exclusive_free=False, conversion=True) == [
        "sam_heaven_splitting_blow"]
    duel = Duel.conversion_duel(t, 0, 1, "sam_heaven_splitting_blow", space="iwami",
                                exclusive_free=False)
    assert duel.conversion and duel.target.kind is TargetKind.CONVERSION
    finish(run(duel, play("nin_vanish")))
    assert duel.outcome is not None and duel.outcome.success
    assert not duel.outcome.exclusive_used
    with pytest.raises(bw.IllegalActionError, match="cannot be fought with a monster"):
        Duel.begin(t, 0, 1, monster("t_oni"), DuelTarget(TargetKind.CONVERSION, "iwami"),
                   conversion=True)
    assert Duel.openings(t, 0, conversion=True, monsters=[monster("t_oni")]) == []


@pytest.mark.rule("SHO-DUEL-28")
def test_a_conversion_with_a_free_slot_keeps_it() -> None:
    t = pair("samurai", ["sam_katana_cut"], "ninja", [])
    duel = finish(Duel.conversion_duel(t, 0, 1, "sam_katana_cut"))
    assert duel.outcome is not None and not duel.outcome.exclusive_used
    t = pair("samurai", ["sam_katana_cut"], "ninja", [])
    duel = finish(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"))
    assert duel.outcome is not None and duel.outcome.exclusive_used


@pytest.mark.rule("SHO-DUEL-29")
def test_a_monster_is_the_basic_attack() -> None:
    t = pair("samurai", ["sam_press_the_advantage"], "samurai", ["sam_sword_parry"])
    duel = Duel.peasant_attack(t, 0, 1, monster("t_oni"), space="higo")
    assert all(p == [] for p in t[0].piles.values())  # no cost, on no pile
    assert duel.totals() == (6, 0) and duel.exclusive_used
    finish(run(duel, play("sam_sword_parry"), play("sam_press_the_advantage")))
    outcome = duel.outcome
    assert outcome is not None and outcome.success and outcome.attack_total == 8
    assert outcome.monster == "t_oni" and outcome.returned_treasures == ("t_oni",)
    with pytest.raises(bw.IllegalActionError, match="exclusive"):
        Duel.peasant_attack(t, 0, 1, monster("t_oni"), exclusive_free=False)


@pytest.mark.rule("SHO-DUEL-29")
def test_a_purged_or_ignored_monster() -> None:
    t = pair("samurai", [], "miko", ["mik_turn_back_time"])
    duel = finish(run(Duel.peasant_attack(t, 0, 1, monster("t_oni")), PASS, PASS,
                      play("mik_turn_back_time", 0)))
    outcome = duel.outcome
    assert outcome is not None and not outcome.success
    assert outcome.returned_treasures == ("t_oni",)  # to the treasure deck, once
    assert t[0].discard == [] and "t_oni" not in t[0].card_counts()
    t = pair("samurai", [], "prince", ["pri_blackmail"])
    duel = finish(run(Duel.hero_attack(t, 0, 1, monster("t_tengu")), PASS, PASS,
                      play("pri_blackmail", 0)))
    assert duel.outcome is not None and not duel.outcome.success
    assert duel.outcome.returned_treasures == ("t_tengu",)


@pytest.mark.rule("SHO-DUEL-30")
def test_great_armor_counts_without_a_basic_block() -> None:
    armor = item("t_great_armor")
    t = pair("ninja", ["nin_shuriken"], "samurai", [])
    duel = Duel.peasant_attack(t, 0, 1, "nin_shuriken", items={1: [armor]})
    assert duel.legal_actions() == [UseItem("t_great_armor"), PASS]
    run(duel, UseItem("t_great_armor"))
    assert duel.phase == "block" and duel.totals() == (3, 3)  # still the block step
    finish(duel)
    outcome = duel.outcome
    assert outcome is not None and not outcome.success and outcome.block_total == 3
    assert outcome.items_used == ((1, "t_great_armor"),)
    assert outcome.returned_treasures == ("t_great_armor",)


@pytest.mark.rule("SHO-DUEL-30")
def test_items_follow_their_timing() -> None:
    armor, sake = item("t_great_armor"), item("t_sacred_sake")
    t = pair("samurai", ["sam_katana_cut"], "ninja", ["nin_vanish"],
             attacker_piles={"ki": ["sam_kiai_shout"]}, defender_piles={"body": ["nin_tumble"]})
    duel = Duel.peasant_attack(t, 0, 1, "sam_katana_cut",
                               items={0: [armor, sake], 1: [armor, sake]})
    assert duel.legal_actions() == [play("nin_vanish"), UseItem("t_great_armor"), PASS]
    with pytest.raises(bw.IllegalActionError, match="restricted: outside their own action"):
        duel.apply(UseItem("t_sacred_sake"))
    run(duel, play("nin_vanish"))
    assert UseItem("t_great_armor") not in duel.legal_actions()  # only for the defender
    run(duel, UseItem("t_sacred_sake"))
    assert duel.legal_actions() == [ClearCard("sam_kiai_shout"), Done()]
    run(duel, ClearCard("sam_kiai_shout"))
    assert t[0].piles["ki"] == [] and t[0].piles["body"] == ["sam_katana_cut"]
    assert duel.current_player == 1
    with pytest.raises(bw.IllegalActionError, match="already used"):
        run(duel, PASS, UseItem("t_sacred_sake"))

