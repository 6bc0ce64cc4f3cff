"""Attacks (SHO-ATK-01..15) and prisoners (SHO-PRIS-01..06)."""

from __future__ import annotations

from typing import Any

import pytest
from game_helpers import (
    BLUE, DONE, GREEN, KATANA, PARRY, RED, YELLOW, act, attack, courted_by, legal_json,
    peasant_at, refused, scene, space, total_peasants, types,
)


def targets(state: object, opening: str = KATANA) -> set[str]:
    return {a["space"] for a in legal_json(state)
            if a["type"] == "attack" and a["opening"] == opening}


@pytest.mark.rule("SHO-ATK-01", "SHO-ATK-15")
def test_hero_attack_targets() -> None:
    state = scene(castles={"aki": RED, "kaga": None, "mutsu": GREEN}, courts={"inaba": RED},
                  missions={RED: "m2"},
                  peasants={"tajima": RED, "harima": GREEN},
                  hero_at={GREEN: "tanba", RED: "tango"}, hands={GREEN: [KATANA]})
    assert targets(state) == {"tango", "tajima"}
    near = scene(castles={"aki": RED, "mutsu": GREEN}, courts={"inaba": RED},
                 missions={RED: "m2"}, peasants={"hoki": RED, "mimasaka": GREEN},
                 hero_at={GREEN: "tajima", RED: "harima"}, hands={GREEN: [KATANA]})
    assert targets(near) == {"inaba", "harima"}
    refused(near, {"type": "attack", "space": "mimasaka", "opening": KATANA})  # own peasant


@pytest.mark.rule("SHO-ATK-02", "SHO-ITEM-04")
def test_range_needs_the_great_bow() -> None:
    state = scene(castles={"satsuma": RED, "mutsu": GREEN}, peasants={"higo": RED},
                  hero_at={GREEN: "bungo"}, hands={GREEN: [KATANA]},
                  treasures={GREEN: ["t_great_bow"]})
    assert targets(state) == {"higo"}
    far = scene(castles={"satsuma": RED, "mutsu": GREEN}, peasants={"osumi": RED},
                hero_at={GREEN: "bungo"}, hands={GREEN: [KATANA]},
                treasures={GREEN: ["t_great_bow"]})
    refused(far, {"type": "attack", "space": "osumi", "opening": KATANA})
    act(far, {"type": "use_item", "treasure": "t_great_bow"})
    attack(far, "osumi", KATANA)
    assert far.prisoner_count(GREEN) == 1 and not far.pending  # no free move at range


@pytest.mark.rule("SHO-ATK-03", "SHO-DUEL-27", "SHO-DUEL-06")
def test_the_owner_of_the_target_defends() -> None:
    state = scene(players=4, castles={"satsuma": BLUE}, peasants={"higo": BLUE},
                  hero_at={RED: "hyuga", YELLOW: "chikugo"}, active=RED,
                  hands={RED: [KATANA], BLUE: [PARRY], YELLOW: [PARRY]})
    act(state, {"type": "attack", "space": "higo", "opening": KATANA})
    assert state.current_player == BLUE
    refused(state, {"type": "duel_play", "card": "nin_vanish"})
    act(state, {"type": "duel_play", "card": PARRY})
    assert state.table[BLUE].piles["body"] == [PARRY] and state.table[YELLOW].hand == [PARRY]


@pytest.mark.rule("SHO-ATK-04", "SHO-PRIS-01")
def test_beating_a_peasant_captures_it() -> None:
    state = scene(castles={"satsuma": RED}, peasants={"higo": RED, "osumi": RED},
                  hero_at={GREEN: "hyuga"}, hands={GREEN: [KATANA, "sam_swift_draw"]})
    attack(state, "higo", KATANA)
    assert peasant_at(state, "higo") == -1 and state.prisoners[GREEN][RED] == 1
    assert state.vp(GREEN) == 1
    act(state, DONE)
    attack(state, "osumi", "sam_swift_draw")
    assert state.prisoners[GREEN][RED] == 2 and state.vp(GREEN) == 2
    assert state.reserve[RED] + state.board_count(RED) == 13


@pytest.mark.rule("SHO-ATK-05", "SHO-ATK-06")
def test_cut_offs_are_captured_and_the_hero_may_follow() -> None:
    state = scene(players=3, castles={"satsuma": RED},
                  peasants={"higo": RED, "chikugo": RED, "chikuzen": RED},
                  hero_at={BLUE: "hyuga"}, hands={BLUE: [KATANA]}, active=BLUE)
    attack(state, "higo", KATANA)
    assert state.prisoners[BLUE][RED] == 3
    assert all(peasant_at(state, s) == -1 for s in ("higo", "chikugo", "chikuzen"))
    refused(state, {"type": "move", "space": "chikugo"})
    act(state, {"type": "move", "space": "higo"})
    assert state.hero_pos[BLUE] == space(state, "higo")
    assert total_peasants(state, RED) == 15


TAKE = {"type": "take_treasure"}


def rich_loser() -> Any:
    """Green beats Red's hero; Red holds Oni and An Heir."""
    state = scene(castles={"mutsu": GREEN}, hero_at={GREEN: "kai", RED: "sagami"},
                  hands={GREEN: [KATANA]}, treasures={RED: ["t_oni", "t_an_heir"]})
    return attack(state, "sagami", KATANA)


@pytest.mark.rule("SHO-ATK-07")
def test_beating_a_hero_takes_a_random_treasure() -> None:
    state = rich_loser()
    assert state.current_player == GREEN and types(state) == ["take_treasure", "done"]
    expected = state.treasures[RED][state.clone().rng.randrange(2)]  # the card the RNG draws
    act(state, TAKE)
    assert state.treasures[GREEN] == [expected] and len(state.treasures[RED]) == 1
    assert set(state.treasures[GREEN] + state.treasures[RED]) == {"t_oni", "t_an_heir"}
    assert state.log[-1] == {"event": "treasure_taken", "seat": GREEN, "turn": state.turn,
                             "round": state.round, "source": RED}  # which card: only the two holders know
    assert state.view(RED)["seats"][GREEN]["treasures"] is None
    poor = scene(castles={"mutsu": GREEN}, hero_at={GREEN: "kai", RED: "sagami"},
                 hands={GREEN: [KATANA]})
    attack(poor, "sagami", KATANA)
    assert poor.treasures == [[], []] and "take_treasure" not in types(poor)


@pytest.mark.rule("SHO-ATK-07")
def test_the_winner_may_leave_the_treasures() -> None:
    state = rich_loser()
    deck = list(state.treasure_deck)
    act(state, DONE)
    assert state.treasures == [[], ["t_oni", "t_an_heir"]] and state.treasure_deck == deck
    assert state.log[-1]["event"] == "treasure_left"
    assert state.phase == "hero" and state.current_player == GREEN  # the Hero phase goes on


@pytest.mark.rule("SHO-ATK-07", "SHO-SHRINE-08")
def test_a_taken_treasure_counts_against_the_limit() -> None:
    held = ["t_tengu", "t_kappa", "t_raiju"]
    state = scene(castles={"mutsu": GREEN, "satsuma": RED}, hero_at={GREEN: "kai", RED: "sagami"},
                  hands={GREEN: [KATANA]}, treasures={RED: ["t_oni"], GREEN: held})
    attack(state, "sagami", KATANA)
    act(state, TAKE)
    assert types(state) == ["return_treasure"] * 4  # before the relocation of the hero
    act(state, {"type": "return_treasure", "treasure": "t_oni"})
    assert state.treasures[GREEN] == held and "relocate_hero" in types(state)


@pytest.mark.rule("SHO-ATK-08")
def test_relocating_the_beaten_hero() -> None:
    state = scene(castles={"satsuma": RED}, peasants={"higo": RED}, hero_at={GREEN: "kai",
                  RED: "sagami"}, hands={GREEN: [KATANA]})
    attack(state, "sagami", KATANA)
    assert [a.space for a in state.legal_actions() if hasattr(a, "space")] == ["osumi"]
    act(state, {"type": "relocate_hero", "space": "osumi"})
    assert state.hero_pos[RED] == space(state, "osumi")
    full = scene(castles={"satsuma": RED}, peasants={"higo": RED, "osumi": RED},
                 hero_at={GREEN: "kai", RED: "sagami"}, hands={GREEN: [KATANA]})
    attack(full, "sagami", KATANA)
    nearest = sorted(a.space for a in full.legal_actions() if hasattr(a, "space"))
    assert nearest == ["bungo", "chikugo", "hyuga"]
    assert all(full.game.board.distance(s, "satsuma") == 2 for s in nearest)


@pytest.mark.rule("SHO-ATK-09")
def test_no_castle_no_relocation() -> None:
    state = scene(castles={"mutsu": GREEN}, hero_at={GREEN: "kai", RED: "sagami"},
                  hands={GREEN: [KATANA]}, treasures={RED: ["t_oni"]})
    attack(state, "sagami", KATANA)
    act(state, TAKE)
    assert state.hero_pos[RED] == space(state, "sagami") and state.treasures[GREEN] == ["t_oni"]
    assert "relocate_hero" not in types(state)


@pytest.mark.rule("SHO-ATK-10")
def test_stealing_a_mission() -> None:
    state = scene(courts={"kaga": RED}, missions={RED: "m4"}, hero_at={GREEN: "noto"},
                  hands={GREEN: [KATANA]})
    reserve = state.reserve[RED]
    attack(state, "kaga", KATANA)
    assert courted_by(state, "kaga") == GREEN and state.mission[GREEN] == "m4"
    assert state.reserve[RED] == reserve + 1 and state.mission[RED] is None


@pytest.mark.rule("SHO-ATK-11")
def test_stealing_while_courting_abandons_first() -> None:
    state = scene(courts={"kaga": RED, "suruga": GREEN}, missions={RED: "m4", GREEN: "m1"},
                  hero_at={GREEN: "noto"}, hands={GREEN: [KATANA]},
                  mission_deck=["m2", "m3", "m5", "m6"])
    reserve = state.reserve[GREEN]
    attack(state, "kaga", KATANA)
    assert state.mission_deck[-1] == "m1" and courted_by(state, "suruga") == -1
    assert courted_by(state, "kaga") == GREEN and state.reserve[GREEN] == reserve
    failed = scene(courts={"kaga": RED, "suruga": GREEN}, missions={RED: "m4", GREEN: "m1"},
                   hero_at={GREEN: "noto"}, hands={GREEN: [KATANA], RED: ["sam_iron_guard"]})
    attack(failed, "kaga", KATANA, block="sam_iron_guard")
    assert courted_by(failed, "suruga") == GREEN and failed.mission[GREEN] == "m1"


@pytest.mark.rule("SHO-ATK-12")
def test_controlled_castles_cannot_be_attacked() -> None:
    state = scene(castles={"kaga": RED}, hero_at={GREEN: "noto"}, hands={GREEN: [KATANA]})
    assert targets(state) == set()


@pytest.mark.rule("SHO-ATK-13", "SHO-EMP-01")
def test_heian_peasants_can_be_attacked() -> None:
    state = scene(castles={"wakasa": RED}, peasants={"heian": RED, "tanba": RED},
                  hero_at={GREEN: "omi"}, hands={GREEN: [KATANA]})
    assert state.emperor() == RED
    attack(state, "heian", KATANA)
    assert state.prisoner_count(GREEN) == 1 and state.emperor() == -1


@pytest.mark.rule("SHO-ATK-14", "SHO-DUEL-05")
def test_failed_attack_changes_nothing_on_the_board() -> None:
    state = scene(castles={"satsuma": RED}, peasants={"higo": RED}, hero_at={GREEN: "hyuga"},
                  hands={GREEN: [KATANA], RED: ["sam_iron_guard"]})
    attack(state, "higo", KATANA, block="sam_iron_guard")
    assert peasant_at(state, "higo") == RED
    assert state.table[GREEN].piles["body"] == [KATANA]
    assert state.table[RED].piles["body"] == ["sam_iron_guard"]


def prisoner_scene(players: int = 3, **extra: object) -> object:
    return scene(players=players, hero_at={GREEN: "kai"}, **extra)


@pytest.mark.rule("SHO-PRIS-02")
def test_one_exchange_per_turn() -> None:
    state = prisoner_scene(prisoners={GREEN: {RED: 1, BLUE: 1}, RED: {GREEN: 1},
                                      BLUE: {GREEN: 1}})
    act(state, {"type": "exchange", "opponent": RED, "colour": "blue"})
    assert types(state) == ["done"]
    act(state, DONE)
    refused(state, {"type": "exchange", "opponent": BLUE, "colour": "red"})


@pytest.mark.rule("SHO-PRIS-03")
def test_exchange_is_one_for_one() -> None:
    state = prisoner_scene(prisoners={GREEN: {BLUE: 1}, RED: {GREEN: 3}})
    act(state, {"type": "exchange", "opponent": RED, "colour": "blue"})
    assert state.pending == [] and state.prisoners[RED][GREEN] == 2


@pytest.mark.rule("SHO-PRIS-04")
def test_where_exchanged_peasants_go() -> None:
    state = prisoner_scene(prisoners={GREEN: {RED: 1, BLUE: 1}, RED: {GREEN: 2}})
    reserves = state.reserve[:]
    act(state, {"type": "exchange", "opponent": RED, "colour": "red"},
        {"type": "exchange", "opponent": RED, "colour": "blue"})
    assert state.reserve[RED] == reserves[RED] + 1 and state.prisoners[RED][BLUE] == 1
    assert state.reserve[GREEN] == reserves[GREEN] + 2


@pytest.mark.rule("SHO-PRIS-05", "SHO-PRIS-06")
def test_the_rulebook_example() -> None:
    state = prisoner_scene(prisoners={GREEN: {BLUE: 2, RED: 1}, RED: {GREEN: 3}})
    vp = [state.vp(GREEN), state.vp(RED)]
    reserve = state.reserve[:]
    act(state, {"type": "exchange", "opponent": RED, "colour": "blue"},
        {"type": "exchange", "opponent": RED, "colour": "blue"},
        {"type": "exchange", "opponent": RED, "colour": "red"})
    assert state.prisoner_count(GREEN) == 0 and state.reserve[GREEN] == reserve[GREEN] + 3
    assert state.prisoners[RED] == [0, 0, 2] and state.reserve[RED] == reserve[RED] + 1
    assert [state.vp(GREEN) - vp[0], state.vp(RED) - vp[1]] == [-3, -1]
    for seat in range(3):
        assert state.prisoners[seat][seat] == 0
