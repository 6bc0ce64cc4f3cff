"""The steps of a duel and its resolution: SHO-DUEL-07..14, and the worked example of
content §2.4."""

from __future__ import annotations

import pytest
from shogun_helpers import (
    CATALOGUE, PASS, cards, finish, index_of, monster, pair, pile_total, play, run, table,
)

import boardwright as bw
from boardwright.duel import ClearCard, Done, Duel, OutsidePlay, PlayCard


@pytest.mark.rule("SHO-DUEL-07")
def test_an_attack_needs_a_basic_attack() -> None:
    # No basic attack in hand: no opening, unless a monster is held.
    t = pair("samurai", ["sam_press_the_advantage", "sam_sword_parry"], "ninja", [])
    assert Duel.openings(t, 0) == []
    oni = monster("t_oni")
    assert Duel.openings(t, 0, monsters=[oni]) == [oni]
    with pytest.raises(bw.IllegalActionError, match="not a basic attack"):
        Duel.hero_attack(t, 0, 1, "sam_press_the_advantage")
    # A basic attack that cannot be paid for does not count either.
    t = pair("samurai", ["sam_heaven_splitting_blow"], "ninja", [],
             attacker_piles={"body": ["sam_katana_cut"]})
    assert Duel.openings(t, 0) == []


@pytest.mark.rule("SHO-DUEL-07")
def test_the_opening_is_paid_at_once_and_sets_the_attack_total() -> None:
    t = pair("samurai", ["sam_katana_cut", "sam_spirit_cleave"], "ninja", [])
    assert Duel.openings(t, 0) == ["sam_katana_cut", "sam_spirit_cleave"]
    duel = Duel.peasant_attack(t, 0, 1, "sam_katana_cut", space="higo")
    assert t[0].piles["body"] == ["sam_katana_cut"] and t[0].hand == ["sam_spirit_cleave"]
    assert duel.totals() == (5, 0)
    assert duel.current_player == 1 and duel.phase == "block"


@pytest.mark.rule("SHO-DUEL-08")
def test_one_basic_block_or_decline() -> None:
    t = pair("samurai", ["sam_katana_cut"], "ninja", ["nin_vanish", "nin_tumble"])
    duel = Duel.peasant_attack(t, 0, 1, "sam_katana_cut")
    assert duel.legal_actions() == [play("nin_vanish"), play("nin_tumble"), PASS]
    run(duel, PASS)  # declines
    assert duel.phase == "exchange" and duel.current_player == 0 and duel.block_declined
    run(duel, PASS)
    assert play("nin_vanish") not in duel.legal_actions()
    with pytest.raises(bw.IllegalActionError, match="the block was declined"):
        duel.apply(play("nin_vanish"))
    # After one block, a second one is refused too.
    t = pair("samurai", ["sam_katana_cut"], "ninja", ["nin_vanish", "nin_tumble"])
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), play("nin_vanish"), PASS)
    with pytest.raises(bw.IllegalActionError, match="a basic block was already played"):
        duel.apply(play("nin_tumble"))


@pytest.mark.rule("SHO-DUEL-08")
def test_a_purged_block_cannot_be_replaced() -> None:
    t = pair("miko", ["mik_gohei_strike", "mik_turn_back_time"], "ninja",
             ["nin_vanish", "nin_tumble"])
    duel = run(Duel.peasant_attack(t, 0, 1, "mik_gohei_strike"), play("nin_vanish"),
               play("mik_turn_back_time", 1))
    assert duel.purged[1] and t[1].discard == ["nin_vanish"]
    assert duel.current_player == 1
    with pytest.raises(bw.IllegalActionError, match="only be played in the block step"):
        duel.apply(play("nin_tumble"))


@pytest.mark.rule("SHO-DUEL-09")
def test_exchange_alternates_until_two_passes_in_a_row() -> None:
    t = pair("samurai", ["sam_katana_cut", "sam_press_the_advantage"], "ninja",
             ["nin_vanish", "nin_misdirection"])
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), play("nin_vanish"))
    assert duel.current_player == 0  # the exchange starts with the attacker
    run(duel, PASS)
    assert duel.current_player == 1
    run(duel, play("nin_misdirection"))
    assert duel.current_player == 0 and duel.passes == 0
    run(duel, PASS)
    assert not duel.is_over
    run(duel, PASS)
    assert duel.is_over and duel.outcome is not None and not duel.outcome.success


@pytest.mark.rule("SHO-DUEL-09")
def test_a_play_reopens_the_exchange() -> None:
    t = pair("samurai", ["sam_katana_cut", "sam_press_the_advantage"], "ninja",
             ["nin_vanish", "nin_misdirection"])
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), play("nin_vanish"), PASS,
               play("nin_misdirection"), play("sam_press_the_advantage"))
    assert duel.current_player == 1 and not duel.is_over  # the defender acts again
    run(duel, PASS)
    assert not duel.is_over
    run(duel, PASS)
    assert duel.is_over


@pytest.mark.rule("SHO-DUEL-10")
def test_modifiers_need_their_basic_card() -> None:
    t = pair("samurai", ["sam_katana_cut"], "ninja", ["sam_lacquered_armor", "nin_smoke_bomb"])
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), PASS, PASS)
    with pytest.raises(bw.IllegalActionError, match="needs a basic block.*SHO-DUEL-10"):
        duel.apply(play("sam_lacquered_armor"))
    assert duel.legal_actions() == [play("nin_smoke_bomb", 0), PASS]
    duel.apply(play("nin_smoke_bomb", 0))
    assert t[1].piles["ki"] == ["nin_smoke_bomb"]


@pytest.mark.rule("SHO-DUEL-10")
def test_attack_modifiers_need_the_attack_in_the_duel() -> None:
    t = pair("samurai", ["sam_katana_cut", "sam_press_the_advantage"], "prince",
             ["pri_blackmail", "pri_web_of_favors"])
    # Ignored (not purged): modifiers may still be added, though they count for nothing.
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), PASS, PASS,
               play("pri_blackmail", 0))
    assert play("sam_press_the_advantage") in duel.legal_actions()
    # Purged: no more attack modifiers.
    t = pair("miko", ["mik_gohei_strike", "mik_prayer_for_victory"], "miko",
             ["mik_turn_back_time"])
    duel = run(Duel.peasant_attack(t, 0, 1, "mik_gohei_strike"), PASS, PASS,
               play("mik_turn_back_time", 0))
    with pytest.raises(bw.IllegalActionError, match="it was purged"):
        duel.apply(play("mik_prayer_for_victory"))


@pytest.mark.rule("SHO-DUEL-11")
def test_totals_and_resolution() -> None:
    t = pair("samurai", ["sam_katana_cut", "sam_press_the_advantage"], "ninja",
             ["nin_vanish", "nin_misdirection"])
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), play("nin_vanish"),
               play("sam_press_the_advantage"), play("nin_misdirection"))
    finish(duel)
    outcome = duel.outcome
    assert outcome is not None
    assert (outcome.attack_total, outcome.block_total, outcome.success) == (7, 7, False)


@pytest.mark.rule("SHO-DUEL-11")
def test_worked_example_of_the_content() -> None:
    t = pair("samurai", ["sam_katana_cut", "sam_press_the_advantage", "sam_kiai_shout"],
             "ninja", ["nin_vanish", "nin_misdirection", "nin_smoke_bomb"])
    duel = Duel.peasant_attack(t, 0, 1, "sam_katana_cut")
    assert pile_total(t, 0, "body") == 4 and duel.totals()[0] == 5
    run(duel, play("nin_vanish"))
    assert pile_total(t, 1, "mind") == 3 and duel.totals() == (5, 5)
    run(duel, play("sam_press_the_advantage"))
    assert pile_total(t, 0, "body") == 6 and duel.totals() == (7, 5)
    run(duel, play("nin_misdirection"))
    assert pile_total(t, 1, "mind") == 5 and duel.totals() == (7, 7)
    run(duel, play("sam_kiai_shout"))
    assert pile_total(t, 0, "ki") == 2 and duel.totals() == (10, 7)
    run(duel, play("nin_smoke_bomb", index_of(duel, "sam_kiai_shout")))
    assert pile_total(t, 1, "ki") == 4 and duel.totals() == (7, 7)
    run(duel, PASS, PASS)
    assert duel.outcome is not None and not duel.outcome.success
    assert t[0].piles == {"body": ["sam_katana_cut", "sam_press_the_advantage"], "mind": [],
                          "ki": ["sam_kiai_shout"]}
    assert t[1].piles == {"body": [], "mind": ["nin_vanish", "nin_misdirection"],
                          "ki": ["nin_smoke_bomb"]}
    assert not duel.active()[index_of(duel, "sam_kiai_shout")]
    # The Samurai has Body 3, Mind 6 and Ki 3 left while the Ninja plays.
    assert [t[0].room(a, CATALOGUE) for a in ("body", "mind", "ki")] == [3, 6, 3]


@pytest.mark.rule("SHO-DUEL-12")
def test_ties_favour_the_defender() -> None:
    t = pair("samurai", ["sam_katana_cut"], "ninja", ["nin_vanish"])
    duel = finish(run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), play("nin_vanish")))
    assert (duel.outcome.attack_total, duel.outcome.block_total) == (5, 5)  # type: ignore[union-attr]
    assert not duel.outcome.success  # type: ignore[union-attr]
    t = pair("miko", ["mik_foxfire"], "ninja", ["nin_vanish"])
    duel = finish(run(Duel.peasant_attack(t, 0, 1, "mik_foxfire"), play("nin_vanish")))
    assert (duel.outcome.attack_total, duel.outcome.block_total) == (6, 5)  # type: ignore[union-attr]
    assert duel.outcome.success  # type: ignore[union-attr]


@pytest.mark.rule("SHO-DUEL-13")
def test_no_block() -> None:
    t = pair("ninja", ["nin_shuriken"], "samurai", ["sam_sword_parry"])
    duel = finish(Duel.peasant_attack(t, 0, 1, "nin_shuriken"))
    outcome = duel.outcome
    assert outcome is not None and outcome.success
    assert (outcome.attack_total, outcome.block_total) == (3, 0)
    assert t[1].hand == ["sam_sword_parry"]


@pytest.mark.rule("SHO-DUEL-14")
def test_clearing_takes_pile_tops_only() -> None:
    samurai = cards(0, "samurai", piles={"body": ["sam_iron_guard", "sam_lacquered_armor"]})
    with pytest.raises(bw.IllegalActionError, match="clear sam_lacquered_armor first"):
        samurai.clear(CATALOGUE["sam_iron_guard"])
    samurai.clear(CATALOGUE["sam_lacquered_armor"])
    samurai.clear(CATALOGUE["sam_iron_guard"])
    assert samurai.piles["body"] == [] and samurai.discard == ["sam_lacquered_armor",
                                                               "sam_iron_guard"]
    with pytest.raises(bw.IllegalActionError, match="empty"):
        samurai.clear_top("body")


@pytest.mark.rule("SHO-DUEL-14")
def test_clear_effects_offer_only_tops() -> None:
    t = table(cards(0, "ninja", ["nin_patience_of_shadows"],
                    piles={"body": ["nin_tumble", "nin_caltrops"]}), cards(1, "samurai"))
    resolving = OutsidePlay.start(t, 0, "nin_patience_of_shadows")
    assert resolving.legal_actions() == [ClearCard("nin_caltrops"), Done()]
    with pytest.raises(bw.IllegalActionError, match="cannot be cleared now"):
        resolving.apply(ClearCard("nin_tumble"))
    resolving.apply(ClearCard("nin_caltrops"))
    assert resolving.legal_actions() == [ClearCard("nin_tumble"), Done()]
    resolving.apply(ClearCard("nin_tumble"))
    assert resolving.is_over and t[0].discard == ["nin_caltrops", "nin_tumble"]
    assert t[0].piles["ki"] == ["nin_patience_of_shadows"]


def test_a_play_is_checked_before_anything_changes() -> None:
    t = pair("samurai", ["sam_katana_cut", "sam_press_the_advantage"], "ninja", ["nin_vanish"])
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), play("nin_vanish"))
    before = (t[0].hand[:], {a: p[:] for a, p in t[0].piles.items()}, len(duel.plays))
    for bad in [play("sam_press_the_advantage", 1), play("sam_sword_parry"),
                play("nope"), PlayCard("sam_press_the_advantage", 9)]:
        with pytest.raises(bw.IllegalActionError):
            duel.apply(bad)
    assert (t[0].hand, t[0].piles, len(duel.plays)) == before
