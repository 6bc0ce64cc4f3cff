"""Card effects inside a duel: SHO-DUEL-15..23 (ignore, purge, draw, discards, clear, combo,
on success / on failure, own-side modifiers)."""

from __future__ import annotations

import random

import pytest
from shogun_helpers import (
    CATALOGUE, PASS, cards, finish, index_of, pair, pile_total, play, run, table,
)

import boardwright as bw
from boardwright.duel import (
    ClearCard, DiscardCard, Done, Duel, OutsidePlay, PickCard, RecallCard,
)


@pytest.mark.rule("SHO-DUEL-15")
def test_ignore_makes_a_card_count_for_nothing() -> None:
    t = pair("samurai", ["sam_katana_cut", "sam_press_the_advantage", "sam_kiai_shout"],
             "prince", ["pri_blackmail"])
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), PASS, PASS,
               play("pri_blackmail", 0), play("sam_press_the_advantage"), PASS,
               play("sam_kiai_shout"), PASS, PASS)
    outcome = duel.outcome
    assert outcome is not None and not outcome.success and outcome.attack_total == 0
    assert t[0].piles["body"] == ["sam_katana_cut", "sam_press_the_advantage"]
    assert duel.active() == [False, True, True, True]


@pytest.mark.rule("SHO-DUEL-15")
def test_ignore_needs_an_active_card_of_its_kind() -> None:
    t = pair("samurai", ["sam_katana_cut", "sam_press_the_advantage"], "prince",
             ["pri_bribe", "pri_blackmail", "pri_counter_intrigue"])
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), PASS,
               play("sam_press_the_advantage"))
    offered = duel.legal_actions()
    assert play("pri_bribe", 1) in offered and play("pri_bribe", 0) not in offered
    assert play("pri_blackmail", 0) in offered and play("pri_blackmail", 1) not in offered
    assert not any(a.to_json().get("card") == "pri_counter_intrigue" for a in offered)
    with pytest.raises(bw.IllegalActionError, match="ignores only a modifier card"):
        duel.apply(play("pri_bribe", 0))
    with pytest.raises(bw.IllegalActionError, match="must name the play"):
        duel.apply(play("pri_bribe"))
    run(duel, play("pri_bribe", 1), PASS)
    with pytest.raises(bw.IllegalActionError, match="not active"):
        duel.apply(play("pri_blackmail", 1))


@pytest.mark.rule("SHO-DUEL-16")
def test_purge_removes_the_card_and_frees_its_cost() -> None:
    t = pair("samurai", ["sam_heaven_splitting_blow"], "miko", ["mik_turn_back_time"])
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_heaven_splitting_blow"), PASS, PASS)
    assert pile_total(t, 0, "body") == 6
    run(duel, play("mik_turn_back_time", 0))
    assert t[0].discard == ["sam_heaven_splitting_blow"] and pile_total(t, 0, "body") == 0
    finish(duel)
    assert duel.outcome is not None and not duel.outcome.success


@pytest.mark.rule("SHO-DUEL-16")
def test_purge_reaches_below_the_top_and_is_final() -> None:
    t = pair("ninja", ["nin_tanto_thrust", "nin_poisoned_edge", "nin_smoke_bomb"], "miko",
             ["mik_turn_back_time"])
    duel = run(Duel.peasant_attack(t, 0, 1, "nin_tanto_thrust"), PASS,
               play("nin_poisoned_edge"))
    assert t[0].piles["body"] == ["nin_tanto_thrust", "nin_poisoned_edge"]
    run(duel, play("mik_turn_back_time", 0))  # Tanto Thrust lies under Poisoned Edge
    assert t[0].piles["body"] == ["nin_poisoned_edge"] and t[0].discard == ["nin_tanto_thrust"]
    run(duel, play("nin_smoke_bomb", index_of(duel, "mik_turn_back_time")))
    assert duel.active()[index_of(duel, "mik_turn_back_time")] is False
    assert duel.purged[0] and not duel.active()[0]  # ignoring the purge brings nothing back
    finish(duel)
    assert duel.outcome is not None and not duel.outcome.success


@pytest.mark.rule("SHO-DUEL-17")
def test_ignoring_an_ignore() -> None:
    t = pair("prince", ["pri_courtiers_blade", "pri_blackmail"], "ninja",
             ["nin_vanish", "nin_smoke_bomb"])
    duel = run(Duel.peasant_attack(t, 0, 1, "pri_courtiers_blade"), play("nin_vanish"),
               play("pri_blackmail", 1))
    assert duel.totals() == (5, 0)  # Vanish ignored; Combo on from the Intrigue card
    run(duel, play("nin_smoke_bomb", 2))
    assert duel.active() == [True, True, False, True]  # Vanish active again
    assert duel.totals() == (5, 5)
    finish(duel)
    assert duel.outcome is not None and not duel.outcome.success


@pytest.mark.rule("SHO-DUEL-17")
def test_a_purged_ignore_restores_its_target() -> None:
    t = pair("miko", ["mik_foxfire", "mik_turn_back_time"], "ninja",
             ["nin_smoke_bomb", "nin_vanish"])
    duel = run(Duel.peasant_attack(t, 0, 1, "mik_foxfire"), PASS, PASS,
               play("nin_smoke_bomb", 0))
    assert duel.totals() == (0, 0)
    run(duel, play("mik_turn_back_time", 1))
    assert duel.active()[0] and duel.totals() == (6, 0)
    assert t[1].discard == ["nin_smoke_bomb"]


@pytest.mark.rule("SHO-DUEL-18")
def test_draw_up_to_the_hand_limit() -> None:
    deck = ["nin_feint", "nin_vanish", "nin_tumble"]
    t = table(cards(0, "ninja", ["nin_spy_network", "nin_shuriken", "nin_tumble",
                                 "nin_vanish"], deck=deck), cards(1, "samurai"))
    OutsidePlay.start(t, 0, "nin_spy_network")
    assert len(t[0].hand) == 5 and t[0].hand[-2:] == ["nin_feint", "nin_vanish"]
    # With a full hand only one card comes in (7 - 1 = 6 after paying).
    full = ["nin_spy_network"] + ["nin_tumble"] * 2 + ["nin_vanish"] * 3 + ["nin_feint"]
    t = table(cards(0, "ninja", full, deck=deck), cards(1, "samurai"))
    OutsidePlay.start(t, 0, "nin_spy_network")
    assert len(t[0].hand) == 7 and len(t[0].draw_pile) == 2


@pytest.mark.rule("SHO-DUEL-18")
def test_draw_inside_a_duel() -> None:
    t = pair("ninja", ["nin_shuriken", "nin_feint", "nin_spy_network"], "samurai", [],
             attacker_deck=["nin_vanish", "nin_tumble", "nin_caltrops"])
    duel = run(Duel.peasant_attack(t, 0, 1, "nin_shuriken"), PASS, play("nin_feint"))
    assert t[0].hand == ["nin_spy_network", "nin_vanish"]
    run(duel, PASS, play("nin_spy_network"))
    assert t[0].hand == ["nin_vanish", "nin_tumble", "nin_caltrops"]
    assert duel.current_player == 1 and duel.totals() == (4, 0)


@pytest.mark.rule("SHO-DUEL-19")
def test_forced_discard_of_choice() -> None:
    t = pair("samurai", ["sam_katana_cut", "sam_sword_parry", "sam_still_mind"], "ninja",
             ["nin_tumble", "nin_caltrops"])
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), play("nin_tumble"), PASS,
               play("nin_caltrops"))
    assert duel.current_player == 0  # the attacker chooses what to discard
    assert duel.legal_actions() == [DiscardCard("sam_sword_parry"), DiscardCard("sam_still_mind")]
    with pytest.raises(bw.IllegalActionError):
        duel.apply(PASS)
    duel.apply(DiscardCard("sam_still_mind"))
    assert t[0].hand == ["sam_sword_parry"] and t[0].discard == ["sam_still_mind"]
    assert duel.current_player == 0 and duel.runner.choice is None  # then the attacker's turn
    assert duel.legal_actions() == [PASS]


@pytest.mark.rule("SHO-DUEL-19")
def test_forced_discard_at_random() -> None:
    def poisoned(seed: int) -> list[str]:
        t = pair("ninja", ["nin_tanto_thrust", "nin_poisoned_edge"], "samurai",
                 ["sam_katana_cut", "sam_sword_parry", "sam_still_mind"], seed=seed)
        duel = finish(run(Duel.peasant_attack(t, 0, 1, "nin_tanto_thrust"), PASS,
                          play("nin_poisoned_edge")))
        assert duel.outcome is not None and duel.outcome.success
        assert len(t[1].hand) == 2
        return t[1].discard

    seen = {tuple(poisoned(seed)) for seed in range(20)}
    assert all(len(d) == 1 for d in seen) and len(seen) > 1  # the RNG picks, no choice asked
    assert poisoned(5) == poisoned(5)


@pytest.mark.rule("SHO-DUEL-19")
def test_fewer_cards_than_asked_discards_all_and_picks_are_seen() -> None:
    t = pair("ninja", ["nin_shuriken", "nin_sabotage"], "samurai", ["sam_still_mind"])
    duel = run(Duel.peasant_attack(t, 0, 1, "nin_shuriken"), PASS, play("nin_sabotage"))
    assert duel.current_player == 1 and duel.legal_actions() == [DiscardCard("sam_still_mind")]
    duel.apply(DiscardCard("sam_still_mind"))
    assert t[1].hand == [] and duel.runner.choice is None and duel.current_player == 1
    t = pair("ninja", ["nin_shuriken", "nin_steal_secrets"], "samurai",
             ["sam_still_mind", "sam_katana_cut"])
    duel = run(Duel.hero_attack(t, 0, 1, "nin_shuriken"), PASS, play("nin_steal_secrets"))
    assert duel.current_player == 0
    assert duel.view(0)["revealed_hand"] == ["sam_katana_cut", "sam_still_mind"]
    assert "revealed_hand" not in duel.view(1) and "revealed_hand" not in duel.view(None)
    assert duel.legal_actions() == [PickCard("sam_katana_cut"), PickCard("sam_still_mind")]
    duel.apply(PickCard("sam_katana_cut"))
    assert t[1].hand == ["sam_still_mind"] and t[1].discard == ["sam_katana_cut"]
    assert "revealed_hand" not in duel.view(0)


@pytest.mark.rule("SHO-DUEL-20")
def test_clear_never_takes_the_card_itself() -> None:
    t = pair("ninja", ["nin_shuriken", "nin_patience_of_shadows"], "samurai", [],
             attacker_piles={"body": ["nin_tumble"], "mind": ["nin_vanish"]})
    duel = run(Duel.peasant_attack(t, 0, 1, "nin_shuriken"), PASS,
               play("nin_patience_of_shadows"))
    assert t[0].piles["ki"] == ["nin_shuriken", "nin_patience_of_shadows"]
    assert duel.legal_actions() == [ClearCard("nin_tumble"), ClearCard("nin_vanish"), Done()]
    with pytest.raises(bw.IllegalActionError, match="cannot be cleared"):
        duel.apply(ClearCard("nin_patience_of_shadows"))
    run(duel, ClearCard("nin_vanish"), ClearCard("nin_tumble"))
    assert t[0].piles == {"body": [], "mind": [],
                          "ki": ["nin_shuriken", "nin_patience_of_shadows"]}
    assert duel.runner.choice is None and duel.current_player == 1


@pytest.mark.rule("SHO-DUEL-20")
def test_clear_may_stop_early_and_spares_the_duels_cards() -> None:
    t = pair("miko", ["mik_gohei_strike", "mik_oracles_insight"], "ninja", [],
             attacker_piles={"ki": ["mik_ofuda_ward"]}, attacker_deck=["mik_blessing"])
    duel = run(Duel.peasant_attack(t, 0, 1, "mik_gohei_strike"), PASS,
               play("mik_oracles_insight"))
    assert "mik_blessing" in t[0].hand  # draw 1 first
    # Body holds the Gohei Strike of this duel, Mind the Insight itself: only Ki is offered.
    assert duel.legal_actions() == [ClearCard("mik_ofuda_ward"), Done()]
    run(duel, Done())
    assert t[0].piles["ki"] == ["mik_ofuda_ward"] and duel.current_player == 1


@pytest.mark.rule("SHO-DUEL-21")
def test_combo_counts_intrigue_played_before_or_after() -> None:
    t = pair("prince", ["pri_courtiers_blade", "pri_bribe"], "samurai",
             ["sam_sword_parry", "sam_lacquered_armor"])
    duel = run(Duel.peasant_attack(t, 0, 1, "pri_courtiers_blade"), play("sam_sword_parry"),
               PASS, play("sam_lacquered_armor"))
    assert duel.totals() == (3, 6)
    run(duel, play("pri_bribe", 2))
    assert duel.totals() == (5, 4)
    finish(duel)
    assert duel.outcome is not None and duel.outcome.success
    t = pair("prince", ["pri_courtiers_blade"], "samurai", [])
    duel = finish(Duel.peasant_attack(t, 0, 1, "pri_courtiers_blade"))
    assert duel.outcome is not None and duel.outcome.attack_total == 3


@pytest.mark.rule("SHO-DUEL-21")
def test_combo_counts_an_ignored_intrigue_but_not_an_ignored_combo_card() -> None:
    t = pair("prince", ["pri_courtiers_blade", "pri_blackmail"], "ninja",
             ["nin_vanish", "nin_smoke_bomb"])
    duel = run(Duel.peasant_attack(t, 0, 1, "pri_courtiers_blade"), play("nin_vanish"),
               play("pri_blackmail", 1), play("nin_smoke_bomb", 2))
    assert duel.totals() == (5, 5)  # the ignored Blackmail still switches the Combo on
    t = pair("prince", ["pri_hired_swordsman", "pri_bribe"], "ninja", ["nin_smoke_bomb"],
             defender_piles={})
    duel = run(Duel.peasant_attack(t, 0, 1, "pri_hired_swordsman"), PASS, PASS,
               play("nin_smoke_bomb", 0))
    assert duel.totals() == (0, 0)


@pytest.mark.rule("SHO-DUEL-22")
def test_on_failure_applies_only_when_active() -> None:
    t = pair("samurai", ["sam_katana_cut", "sam_press_the_advantage", "sam_sword_parry"],
             "miko", ["mik_sacred_barrier", "mik_heavenly_retribution"], seed=3)
    duel = finish(run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"),
                      play("mik_sacred_barrier"), PASS, play("mik_heavenly_retribution")))
    assert duel.outcome is not None and not duel.outcome.success
    assert t[0].hand == [] and sorted(t[0].discard) == ["sam_press_the_advantage",
                                                        "sam_sword_parry"]
    # The attack succeeds: nothing happens.
    t = pair("miko", ["mik_purifying_arrow", "mik_favor_of_the_kami", "mik_blessing"], "miko",
             ["mik_step_aside", "mik_heavenly_retribution"])
    duel = finish(run(Duel.peasant_attack(t, 0, 1, "mik_purifying_arrow"),
                      play("mik_step_aside"), PASS, play("mik_heavenly_retribution")))
    assert duel.outcome is not None and duel.outcome.success
    assert t[0].hand == ["mik_favor_of_the_kami", "mik_blessing"] and t[0].discard == []
    # Ignored at resolution: no effect either.
    t = pair("samurai", ["sam_katana_cut", "sam_read_the_blade", "sam_sword_parry"], "miko",
             ["mik_sacred_barrier", "mik_heavenly_retribution"])
    duel = finish(run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"),
                      play("mik_sacred_barrier"), PASS, play("mik_heavenly_retribution"),
                      play("sam_read_the_blade", 2)))
    assert duel.outcome is not None and not duel.outcome.success
    assert t[0].hand == ["sam_sword_parry"]


@pytest.mark.rule("SHO-DUEL-22")
def test_on_success_effects_in_play_order() -> None:
    t = pair("ninja", ["nin_strike_from_the_shadows", "nin_poisoned_edge"], "samurai",
             ["sam_sword_parry", "sam_katana_cut", "sam_still_mind"], seed=1)
    duel = run(Duel.peasant_attack(t, 0, 1, "nin_strike_from_the_shadows"),
               play("sam_sword_parry"), play("nin_poisoned_edge"), PASS, PASS)
    # Strike from the Shadows (played first): the defender discards 1 of their choice...
    assert not duel.is_over and duel.current_player == 1
    assert duel.legal_actions() == [DiscardCard("sam_katana_cut"), DiscardCard("sam_still_mind")]
    duel.apply(DiscardCard("sam_still_mind"))
    # ...then Poisoned Edge: 1 at random, the only card left.
    assert duel.is_over and t[1].hand == [] and t[1].discard == ["sam_still_mind",
                                                                 "sam_katana_cut"]
    assert duel.outcome is not None and duel.outcome.success


@pytest.mark.rule("SHO-DUEL-23")
def test_own_side_modifier_for_a_defender() -> None:
    t = pair("samurai", ["sam_katana_cut"], "prince",
             ["pri_retainers_shield", "pri_favor_of_the_court"])
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), play("pri_retainers_shield"),
               PASS, play("pri_favor_of_the_court"))
    assert duel.totals() == (5, 5)
    t = pair("samurai", ["sam_katana_cut", "sam_press_the_advantage"], "prince",
             ["pri_retainers_shield", "pri_favor_of_the_court", "pri_bribe"])
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), play("pri_retainers_shield"),
               play("sam_press_the_advantage"), play("pri_favor_of_the_court"), PASS,
               play("pri_bribe", 2))
    assert duel.totals() == (5, 7)  # 4 + (1 + 2 with Combo); Press ignored


@pytest.mark.rule("SHO-DUEL-23")
def test_own_side_modifier_for_an_attacker() -> None:
    t = pair("prince", ["pri_fan_flick", "pri_favor_of_the_court"], "samurai", [])
    duel = run(Duel.peasant_attack(t, 0, 1, "pri_fan_flick"), PASS,
               play("pri_favor_of_the_court"))
    assert duel.totals() == (3, 0)
    assert CATALOGUE["pri_favor_of_the_court"].speed.value == "fast"


def test_recall_takes_cards_back_from_the_discard_pile() -> None:
    t = table(cards(0, "miko", ["mik_return_of_spring"],
                    discard=["mik_foxfire", "mik_blessing", "mik_foxfire"]),
              cards(1, "samurai"), seed=0)
    resolving = OutsidePlay.start(t, 0, "mik_return_of_spring")
    assert resolving.legal_actions() == [RecallCard("mik_foxfire"), RecallCard("mik_blessing"),
                                         Done()]
    resolving.apply(RecallCard("mik_foxfire"))
    resolving.apply(RecallCard("mik_foxfire"))
    assert resolving.is_over and t[0].hand == ["mik_foxfire", "mik_foxfire"]
    assert t[0].discard == ["mik_blessing"]


def test_curse_limits_the_next_cleanup() -> None:
    t = table(cards(0, "miko", ["mik_curse_of_the_kami"]), cards(1, "samurai"),
              cards(2, "ninja"))
    with pytest.raises(bw.IllegalActionError, match="needs an opponent"):
        OutsidePlay.start(t, 0, "mik_curse_of_the_kami")
    assert OutsidePlay.start(t, 0, "mik_curse_of_the_kami", opponent=2).is_over
    assert t[2].cleanup_allowance() == 1 and t[1].cleanup_allowance() == 3
    rng = random.Random(0)
    assert t[2].draw(0, rng) == []
