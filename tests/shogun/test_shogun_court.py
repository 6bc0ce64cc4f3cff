"""Conversion (SHO-CONV-01..11), reorganising (SHO-REORG-01..05), the emperor
(SHO-EMP-01..08)."""

from __future__ import annotations

from typing import Any

import pytest
from game_helpers import (
    BLUE, DONE, GREEN, KATANA, RED, YELLOW, act, attack, controller, legal_json, passes,
    peasant_at, refused, reorg, scene, types,
)

from test_shogun_turn import end_turn


def convert(state: Any, source: str, target: str, card: str = KATANA) -> Any:
    act(state, {"type": "convert", "source": source, "target": target, "card": card})
    return passes(state)


def aki_scene(**extra: Any) -> Any:
    """Blue (seat 2) holds aki with peasants on iwami and bingo; Green converts from izumo."""
    base: dict[str, Any] = dict(players=3, phase="court", castles={"aki": BLUE, "hoki": GREEN},
                                peasants={"izumo": GREEN, "iwami": BLUE, "bingo": BLUE},
                                hero_at={GREEN: "mutsu"}, hands={GREEN: [KATANA]})
    base.update(extra)
    return scene(**base)


@pytest.mark.rule("SHO-CONV-01")
def test_conversion_targets_are_adjacent() -> None:
    state = aki_scene(peasants={"izumo": GREEN, "iwami": BLUE, "suo": BLUE})
    targets = {(a["source"], a["target"]) for a in legal_json(state) if a["type"] == "convert"}
    assert targets == {("izumo", "iwami")}


@pytest.mark.rule("SHO-CONV-02")
def test_conversion_duel_uses_the_converters_cards() -> None:
    state = aki_scene(hands={GREEN: [KATANA], BLUE: ["nin_vanish"]})
    act(state, {"type": "convert", "source": "izumo", "target": "iwami", "card": KATANA})
    assert state.duel is not None and state.current_player == BLUE
    assert state.table[GREEN].piles["body"] == [KATANA]
    assert state.game.board.distance("mutsu", "iwami") > 5


@pytest.mark.rule("SHO-CONV-03", "SHO-CONV-06")
def test_conversion_spreads_to_the_ring() -> None:
    state = aki_scene(players=4, peasants={"izumo": GREEN, "iwami": BLUE, "bingo": BLUE,
                                           "suo": YELLOW}, castles={"aki": BLUE, "hoki": GREEN,
                                                                    "tosa": YELLOW})
    reserve = state.reserve[BLUE]
    convert(state, "izumo", "iwami")
    assert peasant_at(state, "iwami") == GREEN and peasant_at(state, "bingo") == GREEN
    assert controller(state, "aki") == GREEN and state.reserve[BLUE] == reserve + 3
    assert peasant_at(state, "suo") == -1  # yellow: not converted, but cut off from tosa


@pytest.mark.rule("SHO-CONV-04")
def test_only_one_ring() -> None:
    state = scene(players=3, phase="court", castles={"aki": BLUE, "inaba": GREEN},
                  peasants={"hoki": GREEN, "izumo": BLUE, "iwami": BLUE, "suo": BLUE},
                  hero_at={GREEN: "mutsu"}, hands={GREEN: [KATANA]})
    convert(state, "hoki", "izumo")
    assert peasant_at(state, "izumo") == GREEN and peasant_at(state, "iwami") == GREEN
    assert peasant_at(state, "suo") == BLUE and controller(state, "aki") == BLUE


@pytest.mark.rule("SHO-CONV-05")
def test_short_reserve_lets_the_converter_choose() -> None:
    state = aki_scene(reserve={GREEN: 2})
    convert(state, "izumo", "iwami")
    assert sorted(a.space for a in state.legal_actions()) == ["aki", "bingo"]
    act(state, {"type": "convert_pick", "space": "aki"})
    assert controller(state, "aki") == GREEN and peasant_at(state, "bingo") == -1
    assert state.reserve[GREEN] == 0


@pytest.mark.rule("SHO-CONV-07")
def test_converting_a_castle() -> None:
    state = scene(players=3, phase="court", castles={"aki": BLUE, "hoki": GREEN},
                  peasants={"bingo": GREEN}, hero_at={GREEN: "mutsu"}, hands={GREEN: [KATANA]})
    green, blue = state.vp(GREEN), state.vp(BLUE)
    convert(state, "bingo", "aki")
    assert controller(state, "aki") == GREEN
    assert state.vp(BLUE) == blue - 4 and state.vp(GREEN) >= green + 4


@pytest.mark.rule("SHO-CONV-09")
def test_court_markers_and_lords_in_conversions() -> None:
    state = scene(phase="court", courts={"kaga": RED}, missions={RED: "m2"},
                  castles={"mutsu": GREEN}, peasants={"noto": GREEN}, hero_at={GREEN: "dewa"},
                  hands={GREEN: [KATANA]})
    assert "convert" not in types(state)
    lord = scene(phase="court", castles={"aki": RED, "suo": GREEN}, hero_at={GREEN: "mutsu"},
                 peasants={"nagato": RED}, hands={GREEN: [KATANA]})
    refused(lord, {"type": "convert", "source": "suo", "target": "nagato", "card": KATANA})


@pytest.mark.rule("SHO-CONV-10")
def test_conversion_needs_a_reserve_peasant() -> None:
    assert "convert" not in types(aki_scene(reserve={GREEN: 0}))
    assert "convert" in types(aki_scene())


@pytest.mark.rule("SHO-CONV-11")
def test_failed_conversion() -> None:
    strong = scene(players=3, phase="court", castles={"aki": BLUE, "hoki": GREEN},
                   peasants={"izumo": GREEN, "iwami": BLUE}, hero_at={GREEN: "mutsu"},
                   heroes=("samurai", "ninja", "prince"),
                   hands={GREEN: [KATANA], BLUE: ["pri_blackmail"]})
    peasants = strong.peasant[:]
    act(strong, {"type": "convert", "source": "izumo", "target": "iwami", "card": KATANA},
        {"type": "duel_pass"}, {"type": "duel_pass"},
        {"type": "duel_play", "card": "pri_blackmail", "target": 0})
    passes(strong)
    assert strong.peasant == peasants


def reorg_scene(**extra: Any) -> Any:
    base: dict[str, Any] = dict(phase="court", castles={"satsuma": GREEN},
                                peasants={"higo": GREEN, "chikugo": GREEN},
                                hero_at={GREEN: "mutsu"})
    base.update(extra)
    return scene(**base)


@pytest.mark.rule("SHO-REORG-01")
def test_up_to_three_peasants() -> None:
    state = reorg_scene(peasants={"higo": GREEN, "chikugo": GREEN, "hyuga": GREEN,
                                  "osumi": GREEN})
    act(state, *reorg("chikugo", "bungo"),
        *reorg("hyuga", "chikuzen"))
    act(state, DONE)
    assert state.court_used == ["reorganise"]
    three = reorg_scene(peasants={"higo": GREEN, "chikugo": GREEN, "hyuga": GREEN,
                                  "osumi": GREEN})
    act(three, *reorg("chikugo", "bungo"),
        *reorg("hyuga", "chikuzen"),
        *reorg("osumi", "hizen"))
    refused(three, {"type": "reorganise", "source": "higo"})


@pytest.mark.rule("SHO-REORG-02")
def test_destinations_are_empty() -> None:
    state = reorg_scene(shrines=["osumi"], hero_at={GREEN: "hyuga"})
    act(state, {"type": "reorganise", "source": "chikugo"})
    refused(state, {"type": "place_peasant", "space": "osumi"})
    refused(state, {"type": "place_peasant", "space": "hyuga"})


@pytest.mark.rule("SHO-REORG-03")
def test_reorganising_must_keep_everyone_connected() -> None:
    state = reorg_scene()
    act(state, *reorg("higo", "osumi"))
    assert "done" not in types(state)  # chikugo would be cut off
    act(state, {"type": "cancel_reorganise"})
    assert peasant_at(state, "higo") == GREEN and peasant_at(state, "osumi") == -1
    ok = reorg_scene()
    act(ok, *reorg("higo", "osumi"),
        *reorg("chikugo", "hyuga"), DONE)
    assert peasant_at(ok, "osumi") == GREEN and peasant_at(ok, "hyuga") == GREEN


@pytest.mark.rule("SHO-REORG-03")
def test_a_refused_reorganisation_leaves_the_court_action() -> None:
    state = reorg_scene()
    act(state, *reorg("higo", "osumi"), {"type": "cancel_reorganise"})
    assert state.phase == "court" and state.pending == [] and state.court_used == []
    assert state.log[-1]["event"] == "reorganise_cancelled"
    kinds = set(types(state))
    assert {"recruit", "move"} <= kinds  # the court action is still to be taken
    assert "reorganise" not in kinds  # but not a second reorganisation this phase
    act(state, {"type": "recruit", "space": "osumi"}, DONE)
    assert peasant_at(state, "osumi") == GREEN and state.court_used == ["recruit"]
    picked = reorg_scene()  # refused at once, before any peasant moved
    act(picked, {"type": "reorganise", "source": "higo"}, {"type": "cancel_reorganise"})
    assert picked.court_used == [] and "move" in types(picked)


@pytest.mark.rule("SHO-REORG-03", "SHO-EMP-03")
def test_a_refused_decreed_reorganisation_leaves_the_restricted_actions() -> None:
    state = emperor_scene(peasants={"heian": RED, "tanba": RED, "iwami": GREEN, "izumo": RED,
                                    "bingo": GREEN})
    act(state, {"type": "decree", "kind": "reorganise"})
    act(state, {"type": "reorganise", "source": "bingo"}, {"type": "cancel_reorganise"})
    assert state.current_player == GREEN and types(state) == ["done"]
    act(state, DONE)
    assert state.active == RED


@pytest.mark.rule("SHO-REORG-05")
def test_between_networks() -> None:
    state = reorg_scene(castles={"satsuma": GREEN, "kaga": GREEN}, peasants={"higo": GREEN})
    act(state, *reorg("higo", "noto"), DONE)
    assert peasant_at(state, "noto") == GREEN


def emperor_scene(open_court: bool = True, **extra: Any) -> Any:
    """Red (seat 1) is emperor; Green (seat 0) starts its Court phase and, with `open_court`,
    lets the step before the decree pass (the emperor decrees next)."""
    base: dict[str, Any] = dict(phase="court", castles={"wakasa": RED, "aki": GREEN},
                                peasants={"heian": RED, "tanba": RED, "iwami": GREEN,
                                          "izumo": RED}, hero_at={GREEN: "mutsu"},
                                hands={GREEN: [KATANA]})
    base.update(extra)
    state = scene(**base)
    if open_court and state.pending and state.pending[0][0] == "before_decree":
        act(state, DONE)
    return state


@pytest.mark.rule("SHO-EMP-01")
def test_recruiting_onto_heian_makes_an_emperor() -> None:
    state = scene(phase="court", castles={"wakasa": GREEN}, peasants={"omi": GREEN},
                  hero_at={GREEN: "mutsu"})
    assert state.emperor() == -1
    act(state, {"type": "recruit", "space": "heian"})
    assert state.emperor() == GREEN


@pytest.mark.rule("SHO-EMP-02", "SHO-EMP-03")
def test_the_emperor_decrees() -> None:
    state = emperor_scene()
    assert state.current_player == RED
    assert sorted(a.kind for a in state.legal_actions()) == ["convert", "move", "recruit",
                                                             "reorganise"]
    act(state, {"type": "decree", "kind": "recruit"})
    refused(state, {"type": "convert", "source": "iwami", "target": "izumo", "card": KATANA})
    kinds = set(types(state))
    assert "recruit" in kinds and "move" not in kinds and "done" in kinds
    act(state, DONE)
    assert state.active == RED


@pytest.mark.rule("SHO-EMP-04")
def test_impossible_decree_passes_the_court_phase() -> None:
    state = emperor_scene(reserve={GREEN: 0})
    act(state, {"type": "decree", "kind": "recruit"})
    assert state.active == GREEN and state.phase == "court" and state.pending == []
    assert state.log[-1]["event"] == "decree_impossible"
    assert types(state) == ["done"]  # no court action; nothing restricted to do either
    act(state, DONE)
    assert state.active == RED and state.court_used == []


@pytest.mark.rule("SHO-EMP-04", "SHO-TURN-09")
def test_impossible_decree_leaves_the_restricted_actions() -> None:
    state = emperor_scene(reserve={GREEN: 0}, courts={"kaga": GREEN}, missions={GREEN: "m2"},
                          treasures={GREEN: ["t_great_bow"]},
                          prisoners={GREEN: {RED: 1}, RED: {GREEN: 1}})
    act(state, {"type": "decree", "kind": "recruit"})
    act(state, DONE)  # no defiance
    assert state.active == GREEN and state.phase == "court"
    kinds = set(types(state))
    assert {"use_item", "exchange", "abandon", "discard_treasure", "done"} == kinds
    act(state, {"type": "exchange", "opponent": RED, "colour": "red"})
    assert state.pending == [] and state.reserve[GREEN] == 1
    assert "recruit" in types(state)  # a peasant back in the reserve: the decree is possible
    act(state, {"type": "abandon"})
    assert state.mission[GREEN] is None and state.active == GREEN
    act(state, DONE)
    assert state.active == RED


@pytest.mark.rule("SHO-EMP-05")
def test_defying_a_decree() -> None:
    state = emperor_scene(treasures={GREEN: ["t_oni"]})
    act(state, {"type": "decree", "kind": "recruit"})
    assert state.current_player == GREEN and "defy" in types(state)
    act(state, {"type": "defy", "treasure": "t_oni"})
    act(state, {"type": "convert", "source": "iwami", "target": "izumo", "card": KATANA})
    assert state.treasure_deck[-1] == "t_oni"


@pytest.mark.rule("SHO-EMP-06")
def test_no_transfer_actions() -> None:
    import boardwright as bw
    import random
    game = bw.load("shogun", 3, {"max_rounds": 6})
    seen: set[str] = set()
    for seed in range(8):
        state = game.new_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            seen.update(a.to_json()["type"] for a in legal)
            state.apply(rng.choice(legal))
    assert not {t for t in seen if "give" in t or "trade" in t or "deal" in t
                or "transfer" in t}


@pytest.mark.rule("SHO-EMP-07")
def test_no_decree_for_the_emperor() -> None:
    state = emperor_scene(active=RED, hero_at={RED: "mutsu"})
    assert state.current_player == RED and "decree" not in types(state)
    act(state, *reorg("tanba", "settsu"))


@pytest.mark.rule("SHO-EMP-08")
def test_emperor_read_when_the_court_phase_starts() -> None:
    state = emperor_scene(phase="hero", hero_at={GREEN: "omi"})
    attack(state, "heian", KATANA)
    act(state, DONE, DONE)
    assert state.phase == "court" and state.current_player == GREEN
    assert "decree" not in types(state)


def test_imperial_letter_two_court_actions() -> None:
    state = emperor_scene(open_court=False, treasures={GREEN: ["t_imperial_letter"]})
    assert state.current_player == GREEN
    act(state, {"type": "use_item", "treasure": "t_imperial_letter"})
    act(state, {"type": "recruit", "space": "bingo"}, DONE)
    act(state, {"type": "move", "space": "dewa"})
    assert state.court_used == ["recruit", "move"] and state.decree is None
    refused(state, {"type": "recruit", "space": "suo"})


def test_turn_ends_after_court() -> None:
    state = emperor_scene()
    act(state, {"type": "decree", "kind": "move"})
    end_turn(state)
    assert state.active == RED
