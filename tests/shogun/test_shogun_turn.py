"""Turn structure and movement (SHO-TURN-01..14, SHO-MOVE-01..08)."""

from __future__ import annotations

from typing import Any

import pytest
from game_helpers import (
    BLUE, DONE, GREEN, KATANA, PARRY, RED, SHURIKEN, TANTO, act, attack, legal_json, refused,
    scene, space, types,
)


def end_turn(state: Any) -> None:
    seat = state.active
    guard = 0
    while state.active == seat and not state.over:
        legal = legal_json(state)
        state.apply(DONE if DONE in legal else legal[0])
        guard += 1
        assert guard < 50


@pytest.mark.rule("SHO-TURN-01")
def test_six_phases_in_order() -> None:
    state = scene(phase="discard", castles={"satsuma": GREEN}, hero_at={GREEN: "higo"},
                  hands={GREEN: [KATANA]}, piles={GREEN: {"body": [PARRY]}})
    act(state, DONE, DONE, DONE)  # discard, cleanup, movement
    assert state.phase == "hero"
    refused(state, {"type": "move", "space": "hyuga"})
    act(state, DONE)
    assert state.phase_log == ["DISCARD", "DRAW", "CLEANUP", "MOVEMENT", "HERO", "COURT"]
    act(state, DONE)
    assert state.active == RED


@pytest.mark.rule("SHO-TURN-02")
def test_discard_any_number() -> None:
    hand = [KATANA, KATANA, PARRY, PARRY, "sam_iron_guard", "sam_still_mind", SHURIKEN]
    state = scene(phase="discard", hands={GREEN: hand}, hero_at={GREEN: "kai"})
    act(state, {"type": "discard_card", "card": KATANA}, {"type": "discard_card", "card": PARRY},
        {"type": "discard_card", "card": SHURIKEN})
    cards = state.table[GREEN]
    assert len(cards.hand) == 4 and len(cards.discard) == 3


@pytest.mark.rule("SHO-TURN-03", "SHO-TURN-04")
@pytest.mark.parametrize("held, drawn", [(6, 1), (2, 3), (7, 0)])
def test_draw_up_to_three_never_above_seven(held: int, drawn: int) -> None:
    state = scene(phase="discard", hands={GREEN: [PARRY] * held}, hero_at={GREEN: "kai"})
    deck = len(state.table[GREEN].draw_pile)
    act(state, DONE)
    assert len(state.table[GREEN].hand) == held + drawn
    assert len(state.table[GREEN].draw_pile) == deck - drawn


@pytest.mark.rule("SHO-TURN-04", "SHO-DUEL-24")
def test_a_draw_effect_stops_at_seven() -> None:
    hand = ["nin_spy_network"] + ["nin_vanish"] * 6
    state = scene(heroes=("ninja", "samurai"), hands={GREEN: hand}, hero_at={GREEN: "kai"})
    deck = len(state.table[GREEN].draw_pile)
    act(state, {"type": "play_special", "card": "nin_spy_network"})
    assert len(state.table[GREEN].hand) == 7
    assert len(state.table[GREEN].draw_pile) == deck - 1


@pytest.mark.rule("SHO-TURN-05", "SHO-DUEL-14")
def test_cleanup_clears_three_tops() -> None:
    piles = {"body": [KATANA, "sam_press_the_advantage"], "mind": ["sam_still_mind"],
             "ki": ["sam_kiai_shout"]}
    state = scene(phase="cleanup", piles={GREEN: piles}, hero_at={GREEN: "kai"})
    act(state, {"type": "clear_pile", "attribute": "body"})
    assert state.table[GREEN].discard == ["sam_press_the_advantage"]  # the top goes first
    act(state, {"type": "clear_pile", "attribute": "body"}, {"type": "clear_pile", "attribute": "ki"})
    assert state.table[GREEN].piles == {"body": [], "mind": ["sam_still_mind"], "ki": []}
    assert state.phase in ("movement", "hero")


@pytest.mark.rule("SHO-TURN-06", "SHO-ITEM-04")
def test_any_combination_of_hero_phase_actions() -> None:
    state2 = scene(castles={"kaga": RED, "suruga": None}, courts={"suruga": GREEN},
                   missions={GREEN: "m2"}, peasants={"etchu": RED}, hero_at={GREEN: "kozuke"},
                   hands={GREEN: [KATANA]}, treasures={GREEN: ["t_great_bow"]})
    refused(state2, {"type": "attack", "space": "etchu", "opening": KATANA})  # distance 2
    act(state2, {"type": "use_item", "treasure": "t_great_bow"})
    attack(state2, "etchu", KATANA)  # range 2 with the bow, exclusive slot still free
    act(state2, {"type": "abandon"})
    assert state2.exclusive_used and state2.mission[GREEN] is None
    assert state2.prisoner_count(GREEN) == 1


@pytest.mark.rule("SHO-TURN-07")
def test_restricted_attacks_leave_the_exclusive_slot() -> None:
    base = dict(heroes=("ninja", "samurai"), castles={"kaga": None, "mutsu": RED},
                peasants={"etchu": RED, "echigo": RED}, hero_at={GREEN: "hida"})
    state = scene(hands={GREEN: [SHURIKEN]}, **base)
    attack(state, "etchu", SHURIKEN)
    act(state, DONE)  # decline the free move into etchu
    assert not state.exclusive_used
    act(state, {"type": "claim", "space": "kaga"})
    other = scene(hands={GREEN: [TANTO]}, **base)
    attack(other, "etchu", TANTO)
    act(other, DONE)
    refused(other, {"type": "claim", "space": "kaga"})


@pytest.mark.rule("SHO-TURN-08")
def test_one_exclusive_per_turn() -> None:
    state = scene(heroes=("ninja", "samurai"), shrines=["owari"],
                  hero_at={GREEN: "owari", RED: "mutsu"}, hands={GREEN: ["nin_steal_secrets"]},
                  castles={"satsuma": GREEN})
    assert types(state) == ["search"]
    act(state, {"type": "search"})
    act(state, state.legal_actions()[0])  # the player on the right relocates the shrine
    while state.pending:
        act(state, state.legal_actions()[0])
    refused(state, {"type": "play_special", "card": "nin_steal_secrets", "opponent": RED})
    act(state, DONE)
    end = state.active
    while state.active == end:
        act(state, DONE if DONE in legal_json(state) else state.legal_actions()[0])
    assert not state.exclusive_used


@pytest.mark.rule("SHO-TURN-09")
def test_restricted_actions_in_the_court_phase() -> None:
    state = scene(phase="court", castles={"kaga": GREEN}, hero_at={GREEN: "mutsu"},
                  piles={GREEN: {"body": [KATANA]}}, treasures={GREEN: ["t_sacred_sake"]})
    act(state, {"type": "recruit", "space": "etchu"}, {"type": "recruit", "space": "noto"})
    act(state, {"type": "use_item", "treasure": "t_sacred_sake"},
        {"type": "clear_pile", "attribute": "body"})
    assert state.table[GREEN].piles["body"] == []
    assert state.court_used == ["recruit"]


@pytest.mark.rule("SHO-TURN-10")
def test_one_court_action() -> None:
    state = scene(phase="court", castles={"kaga": GREEN}, peasants={"hida": GREEN},
                  hero_at={GREEN: "mutsu"})
    act(state, {"type": "recruit", "space": "etchu"}, DONE)
    refused(state, {"type": "reorganise", "source": "hida"})
    act(state, DONE)
    assert state.active == RED


@pytest.mark.rule("SHO-TURN-11", "SHO-DUEL-28")
def test_conversion_after_an_exclusive_attack() -> None:
    state = scene(castles={"hoki": GREEN, "aki": RED}, peasants={"izumo": GREEN, "bingo": RED,
                  "iwami": RED, "mimasaka": RED}, hero_at={GREEN: "bitchu"},
                  hands={GREEN: [KATANA, KATANA]})
    attack(state, "mimasaka", KATANA)
    assert state.exclusive_used
    act(state, DONE, DONE)  # no free move, end of the Hero phase
    act(state, {"type": "convert", "source": "izumo", "target": "iwami", "card": KATANA})
    assert state.duel is not None


@pytest.mark.rule("SHO-TURN-12", "SHO-DUEL-04")
def test_only_fast_cards_on_another_players_turn() -> None:
    state = scene(castles={"satsuma": RED}, peasants={"higo": RED}, hero_at={GREEN: "hyuga"},
                  hands={GREEN: [KATANA], RED: [PARRY, "sam_press_the_advantage"]})
    act(state, {"type": "attack", "space": "higo", "opening": KATANA})
    assert state.current_player == RED
    refused(state, {"type": "play_special", "card": "nin_spy_network"})
    assert {"type": "duel_play", "card": PARRY} in legal_json(state)
    act(state, {"type": "duel_play", "card": PARRY})


@pytest.mark.rule("SHO-TURN-13")
def test_turns_pass_clockwise() -> None:
    state = scene(players=3, active=BLUE, phase="court", hero_at={BLUE: "kai"})
    act(state, DONE)
    assert state.active == GREEN


@pytest.mark.rule("SHO-TURN-14")
def test_no_elimination() -> None:
    state = scene(castles={"kaga": None, "aki": GREEN}, hero_at={RED: "noto", GREEN: "bingo"},
                  active=GREEN, phase="court")
    assert state.castle_count(RED) == 0 and state.board_count(RED) == 0
    act(state, DONE)
    assert state.active == RED and state.phase_log[0] == "DISCARD"
    while state.phase != "hero":
        act(state, DONE)
    assert state.phase_log == ["DISCARD", "DRAW", "CLEANUP", "MOVEMENT", "HERO"]
    act(state, {"type": "claim", "space": "kaga"})


@pytest.mark.rule("SHO-MOVE-01")
def test_movement_phase_three_spaces() -> None:
    state = scene(phase="movement", hero_at={GREEN: "kai"})
    act(state, {"type": "move", "space": "izu"})
    assert state.hero_pos[GREEN] == space(state, "izu") and state.phase == "hero"
    refused(state, {"type": "move", "space": "suruga"})
    far = scene(phase="movement", hero_at={GREEN: "kai"})
    refused(far, {"type": "move", "space": "wakasa"})  # 4 steps from kai


@pytest.mark.rule("SHO-MOVE-02")
def test_court_move_adds_three_more() -> None:
    state = scene(phase="movement", hero_at={GREEN: "izu"})
    act(state, {"type": "move", "space": "shinano"}, DONE)  # izu-suruga-shinano
    act(state, {"type": "move", "space": "echigo"})  # court: shinano-echigo
    assert state.hero_pos[GREEN] == space(state, "echigo")
    other = scene(phase="movement", hero_at={GREEN: "izu"})
    act(other, {"type": "move", "space": "mino"}, DONE)  # izu-suruga-shinano-mino
    act(other, {"type": "move", "space": "wakasa"})  # court: mino-omi-wakasa
    assert other.hero_pos[GREEN] == space(other, "wakasa")


@pytest.mark.rule("SHO-MOVE-03")
def test_blocked_spaces() -> None:
    state = scene(phase="movement", hero_at={GREEN: "izu"}, peasants={"sagami": RED})
    refused(state, {"type": "move", "space": "sagami"})
    legal = {a.space for a in state.legal_actions() if hasattr(a, "space")}
    assert "suruga" in legal and "sagami" not in legal


@pytest.mark.rule("SHO-MOVE-04")
def test_own_peasants_cost_nothing_but_cannot_be_a_stop() -> None:
    state = scene(phase="movement", hero_at={GREEN: "kai"},
                  peasants={"shinano": GREEN, "mino": GREEN})
    refused(state, {"type": "move", "space": "mino"})
    act(state, {"type": "move", "space": "noto"})  # 0 + 0 + 1 + 1 + 1


@pytest.mark.rule("SHO-MOVE-05")
def test_own_peasant_step_cost_option() -> None:
    state = scene(phase="movement", hero_at={GREEN: "kai"},
                  peasants={"shinano": GREEN, "mino": GREEN},
                  options={"own_peasant_step_cost": 1})
    refused(state, {"type": "move", "space": "wakasa"})  # kai-shinano-mino-omi-wakasa costs 4
    act(state, {"type": "move", "space": "echizen"})  # kai-shinano-mino-echizen costs 3
    free = scene(phase="movement", hero_at={GREEN: "kai"},
                 peasants={"shinano": GREEN, "mino": GREEN})
    act(free, {"type": "move", "space": "wakasa"})  # the same path costs 2 by default


@pytest.mark.rule("SHO-MOVE-06", "SHO-SHRINE-01")
def test_entering_a_shrine_ends_movement_and_commits_the_search() -> None:
    state = scene(phase="movement", hero_at={GREEN: "mikawa"}, shrines=["owari"],
                  castles={"kaga": None}, hands={GREEN: [KATANA]})
    act(state, {"type": "move", "space": "owari"})
    assert state.phase == "hero" and types(state) == ["search"]
    refused(state, DONE)
    near = scene(hero_at={GREEN: "mikawa"}, shrines=["owari"])
    assert "search" not in types(near)


@pytest.mark.rule("SHO-MOVE-07")
def test_court_move_never_enters_a_shrine() -> None:
    state = scene(phase="court", hero_at={GREEN: "mikawa"}, shrines=["owari"])
    refused(state, {"type": "move", "space": "owari"})
    act(state, {"type": "move", "space": "mino"})


@pytest.mark.rule("SHO-MOVE-08")
def test_interaction_needs_adjacency() -> None:
    state = scene(castles={"kaga": None}, hero_at={GREEN: "noto"})
    act(state, {"type": "claim", "space": "kaga"})
    far = scene(castles={"kaga": None}, hero_at={GREEN: "echigo"})
    refused(far, {"type": "claim", "space": "kaga"})
