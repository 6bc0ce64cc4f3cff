"""Recruiting and the network (SHO-RECR-01..08), claiming castles and missions
(SHO-CLAIM-01..12)."""

from __future__ import annotations

import pytest
from game_helpers import (
    BLUE, DONE, GREEN, KATANA, RED, act, attack, controller, courted_by, legal_json,
    peasant_at, refused, scene, space, total_peasants, types,
)

from boardwright.games.shogun.network import connected
from test_shogun_turn import end_turn


@pytest.mark.rule("SHO-RECR-01", "SHO-BOARD-04")
def test_recruit_two_from_the_reserve() -> None:
    state = scene(phase="court", castles={"kaga": GREEN}, reserve={GREEN: 5},
                  hero_at={GREEN: "etchu"}, shrines=["hida"])
    refused(state, {"type": "recruit", "space": "etchu"})  # the hero stands there
    refused(state, {"type": "recruit", "space": "hida"})  # a shrine
    refused(state, {"type": "recruit", "space": "kaga"})  # the castle
    act(state, {"type": "recruit", "space": "noto"}, {"type": "recruit", "space": "echizen"})
    assert state.reserve[GREEN] == 3
    assert peasant_at(state, "noto") == GREEN and peasant_at(state, "echizen") == GREEN


@pytest.mark.rule("SHO-RECR-02")
def test_recruits_go_next_to_the_network() -> None:
    state = scene(phase="court", castles={"kaga": GREEN}, hero_at={GREEN: "mutsu"})
    refused(state, {"type": "recruit", "space": "shinano"})
    act(state, {"type": "recruit", "space": "etchu"}, {"type": "recruit", "space": "echigo"})
    assert peasant_at(state, "echigo") == GREEN


@pytest.mark.rule("SHO-RECR-03")
def test_peasants_must_be_connected() -> None:
    state = scene(castles={"satsuma": RED}, peasants={"higo": RED, "chikugo": RED})
    board = state.game.board
    linked = connected(board.neighbours, state.peasant, RED, state.castles_of(RED))
    assert linked == {space(state, "higo"), space(state, "chikugo")}
    state.peasant[space(state, "higo")] = -1
    assert connected(board.neighbours, state.peasant, RED, state.castles_of(RED)) == set()


@pytest.mark.rule("SHO-RECR-04", "SHO-RECR-07")
def test_cut_off_peasants_return_to_the_reserve_after_a_kill() -> None:
    state = scene(castles={"satsuma": RED}, peasants={"higo": RED, "chikugo": RED},
                  hero_at={GREEN: "hyuga"}, treasures={GREEN: ["t_oni"]})
    reserve = state.reserve[RED]
    attack(state, "higo", "t_oni")
    assert peasant_at(state, "chikugo") == -1 and peasant_at(state, "higo") == -1
    assert state.reserve[RED] == reserve + 2 and state.prisoner_count(GREEN) == 0
    assert total_peasants(state, RED) == 15


@pytest.mark.rule("SHO-RECR-05", "SHO-CLAIM-11")
def test_court_markers_are_no_network_but_roof_lords_are() -> None:
    state = scene(phase="court", courts={"kaga": GREEN}, missions={GREEN: "m1"},
                  hero_at={GREEN: "mutsu"})
    refused(state, {"type": "recruit", "space": "noto"})
    state.complete_mission(GREEN)
    state.legal_cache = None
    act(state, {"type": "recruit", "space": "noto"})


@pytest.mark.rule("SHO-RECR-06")
def test_recruits_are_limited_by_the_reserve() -> None:
    state = scene(phase="court", castles={"kaga": GREEN}, reserve={GREEN: 1},
                  hero_at={GREEN: "mutsu"})
    act(state, {"type": "recruit", "space": "noto"})
    assert state.reserve[GREEN] == 0
    refused(state, {"type": "recruit", "space": "etchu"})


@pytest.mark.rule("SHO-RECR-08", "SHO-CONV-08")
def test_a_castle_changing_hands_removes_cut_offs_at_once() -> None:
    state = scene(phase="court", castles={"aki": BLUE, "hoki": GREEN},
                  peasants={"bingo": GREEN, "suo": BLUE, "nagato": BLUE},
                  hero_at={GREEN: "mutsu"}, hands={GREEN: [KATANA]}, players=3)
    act(state, {"type": "convert", "source": "bingo", "target": "aki", "card": KATANA})
    from game_helpers import passes
    passes(state)
    assert controller(state, "aki") == GREEN
    assert peasant_at(state, "suo") == GREEN  # next to the castle: converted with it
    assert peasant_at(state, "nagato") == -1  # linked only through aki: back to the reserve
    assert state.prisoner_count(GREEN) == 0 and total_peasants(state, BLUE) == 15


@pytest.mark.rule("SHO-CLAIM-01", "SHO-CLAIM-12")
def test_claim_needs_a_free_castle_next_to_the_hero() -> None:
    state = scene(castles={"kaga": None}, hero_at={GREEN: "noto"})
    act(state, {"type": "claim", "space": "kaga"})
    taken = scene(courts={"kaga": RED}, missions={RED: "m2"}, hero_at={GREEN: "noto"},
                  hands={GREEN: [KATANA]})
    refused(taken, {"type": "claim", "space": "kaga"})
    assert {"type": "attack", "space": "kaga", "opening": KATANA} in legal_json(taken)
    owned = scene(castles={"kaga": RED}, hero_at={GREEN: "noto"})
    refused(owned, {"type": "claim", "space": "kaga"})


@pytest.mark.rule("SHO-CLAIM-02")
def test_claim_procedure() -> None:
    state = scene(castles={"kaga": None}, hero_at={GREEN: "noto"})
    deck = len(state.mission_deck)
    act(state, {"type": "claim", "space": "kaga"})
    assert courted_by(state, "kaga") == GREEN
    assert state.mission[GREEN] is not None and len(state.mission_deck) == deck - 1
    assert state.view(RED)["seats"][GREEN]["mission"] is None
    assert state.view(GREEN)["seats"][GREEN]["mission"] == state.mission[GREEN]


@pytest.mark.rule("SHO-CLAIM-03")
def test_courting_with_an_empty_reserve_takes_a_board_peasant() -> None:
    state = scene(castles={"satsuma": GREEN, "kaga": None},
                  peasants={"higo": GREEN, "chikugo": GREEN}, reserve={GREEN: 0},
                  hero_at={GREEN: "noto"})
    act(state, {"type": "claim", "space": "kaga"})
    assert types(state) == ["take_peasant", "take_peasant"]
    act(state, {"type": "take_peasant", "space": "higo"})
    assert courted_by(state, "kaga") == GREEN
    assert peasant_at(state, "chikugo") == -1 and state.reserve[GREEN] == 1


@pytest.mark.rule("SHO-CLAIM-04")
def test_a_new_claim_abandons_the_old_courtship() -> None:
    state = scene(courts={"kaga": GREEN}, castles={"suruga": None}, missions={GREEN: "m2"},
                  hero_at={GREEN: "izu"}, mission_deck=["m1", "m3", "m4", "m5", "m6"])
    act(state, {"type": "claim", "space": "suruga"})
    assert state.mission_deck[-1] == "m2"
    assert courted_by(state, "kaga") == -1 and courted_by(state, "suruga") == GREEN
    assert state.mission[GREEN] == "m1"


@pytest.mark.rule("SHO-CLAIM-05", "SHO-CLAIM-07")
def test_completing_a_mission() -> None:
    state = scene(phase="court", castles={"mutsu": GREEN}, courts={"kaga": GREEN},
                  missions={GREEN: "m1"}, peasants={"echigo": GREEN, "etchu": GREEN,
                                                    "noto": GREEN}, hero_at={GREEN: "dewa"})
    before = state.vp(GREEN)
    act(state, DONE)
    assert controller(state, "kaga") == GREEN and courted_by(state, "kaga") == -1
    assert state.mission_deck[-1] == "m1"
    assert len(state.mission_deck) + sum(m is not None for m in state.mission) == 6
    assert state.castle_count(GREEN) == 2 and state.vp(GREEN) >= before + 4
    fewer = scene(phase="court", castles={"mutsu": GREEN}, courts={"kaga": GREEN},
                  missions={GREEN: "m1"}, peasants={"echigo": GREEN, "etchu": GREEN},
                  hero_at={GREEN: "dewa"})
    act(fewer, DONE)
    assert courted_by(fewer, "kaga") == GREEN


@pytest.mark.rule("SHO-CLAIM-06")
def test_state_missions_are_checked_at_the_end_of_the_turn() -> None:
    state = scene(castles={"kaga": None, "mutsu": GREEN}, peasants={"heian": GREEN},
                  hero_at={GREEN: "noto"}, mission_deck=["m5", "m1", "m2", "m3", "m4", "m6"])
    act(state, {"type": "claim", "space": "kaga"})
    assert state.mission[GREEN] == "m5" and courted_by(state, "kaga") == GREEN
    act(state, DONE)
    assert courted_by(state, "kaga") == GREEN  # not yet: checked after the Court phase
    act(state, DONE)
    assert controller(state, "kaga") == GREEN


@pytest.mark.rule("SHO-CLAIM-08")
def test_missions_have_no_time_limit() -> None:
    state = scene(courts={"kaga": GREEN}, missions={GREEN: "m2"}, castles={"satsuma": RED},
                  hero_at={GREEN: "noto", RED: "osumi"}, phase="court")
    for _ in range(20):
        end_turn(state)
    assert state.mission[GREEN] == "m2" and courted_by(state, "kaga") == GREEN


@pytest.mark.rule("SHO-CLAIM-09")
def test_abandoning() -> None:
    state = scene(courts={"kaga": GREEN}, missions={GREEN: "m2"}, hero_at={GREEN: "mutsu"},
                  phase="court")
    reserve = state.reserve[GREEN]
    act(state, {"type": "abandon"})
    assert state.reserve[GREEN] == reserve + 1
    assert courted_by(state, "kaga") == -1 and controller(state, "kaga") == -1
    assert state.mission[GREEN] is None and state.mission_deck[-1] == "m2"


@pytest.mark.rule("SHO-CLAIM-10", "SHO-REORG-04", "SHO-MON-07")
def test_lords_are_protected() -> None:
    state = scene(castles={"kaga": RED, "mutsu": GREEN}, courts={"suruga": RED},
                  missions={RED: "m2"}, hero_at={GREEN: "noto"}, hands={GREEN: [KATANA]},
                  treasures={GREEN: ["t_oni"]})
    refused(state, {"type": "attack", "space": "kaga", "opening": KATANA})
    near = scene(courts={"suruga": RED}, missions={RED: "m2"}, hero_at={GREEN: "izu"},
                 treasures={GREEN: ["t_oni"]}, castles={"mutsu": GREEN})
    refused(near, {"type": "attack", "space": "suruga", "opening": "t_oni"})
    assert not any(a.get("space") == "suruga" for a in legal_json(near))
    court = scene(phase="court", castles={"satsuma": GREEN}, peasants={"higo": GREEN},
                  hero_at={GREEN: "mutsu"})
    refused(court, {"type": "reorganise", "source": "satsuma"})
