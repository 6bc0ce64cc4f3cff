"""Shrines and treasures (SHO-SHRINE-01..11), monsters (SHO-MON-01..10), items
(SHO-ITEM-01..04)."""

from __future__ import annotations

import pytest
from game_helpers import (
    BLUE, DONE, GREEN, KATANA, PARRY, RED, act, attack, controller, legal_json, passes,
    peasant_at, refused, scene, space, types,
)

from boardwright.games.shogun.placement import shrine_spaces

ALL = ["t_oni", "t_tengu", "t_kappa", "t_jorogumo", "t_orochi", "t_raiju", "t_an_heir",
       "t_ancestral_scrolls", "t_straw_sandals", "t_great_bow", "t_great_armor",
       "t_sacred_sake", "t_imperial_letter"]


def searcher(players: int = 2, deck: list[str] | None = None, **extra: object) -> object:
    state = scene(players=players, phase="movement", hero_at={GREEN: "mikawa"},
                  shrines=["owari", "mutsu", "hizen", "tosa"], treasure_deck=deck or ALL[:],
                  **extra)
    act(state, {"type": "move", "space": "owari"})
    return state


@pytest.mark.rule("SHO-SHRINE-02", "SHO-SHRINE-11")
def test_the_right_hand_player_relocates_the_shrine() -> None:
    state = searcher(players=3)
    act(state, {"type": "search"})
    assert state.current_player == BLUE  # p3 is on p1's right
    assert types(state)[0] == "relocate_shrine"
    act(state, state.legal_actions()[0])
    assert sum(state.shrine) == 4
    assert state.hero_pos[GREEN] == space(state, "owari") and not state.shrine[space(state, "owari")]
    two = searcher()
    act(two, {"type": "search"})
    assert two.current_player == RED


@pytest.mark.rule("SHO-SHRINE-03")
def test_relocation_keeps_away_from_every_piece() -> None:
    state = searcher(peasants={"dewa": RED, "settsu": GREEN}, castles={"satsuma": RED})
    act(state, {"type": "search"})
    legal = [a.space for a in state.legal_actions()]
    board = state.game.board
    pieces = [s for s in range(len(board)) if state.castle_at[s] >= 0 or state.shrine[s]
              or state.hero_at[s] >= 0 or state.peasant[s] >= 0]
    for sid in legal:
        s = board.index[sid]
        assert board.dist[board.heian][s] >= 2
        assert all(board.dist[s][p] >= 2 for p in pieces)
    assert "echigo" not in legal  # next to the dewa peasant
    refused(state, {"type": "relocate_shrine", "space": "echigo"})


@pytest.mark.rule("SHO-SHRINE-04")
def test_relocation_fallback_when_every_space_is_near_a_piece() -> None:
    state = scene()
    board = state.game.board
    free = {board.index["mutsu"], board.index["dewa"]}
    pieces = [s for s in range(len(board)) if s not in free]
    empty = [s in free for s in range(len(board))]
    assert sorted(shrine_spaces(board, pieces, empty)) == sorted(free)
    assert shrine_spaces(board, pieces, [False] * len(board)) == []


@pytest.mark.rule("SHO-SHRINE-05", "SHO-SETUP-19")
def test_search_keeps_one_of_two() -> None:
    state = searcher()
    act(state, {"type": "search"}, {"type": "relocate_shrine", "space": "suruga"})
    assert types(state) == ["keep_treasure", "keep_treasure"]
    act(state, {"type": "keep_treasure", "treasure": "t_oni"})
    assert state.treasures[GREEN] == ["t_oni"]
    assert state.treasure_deck[-1] == "t_tengu" and len(state.treasure_deck) == 12


@pytest.mark.rule("SHO-SHRINE-06")
def test_short_treasure_deck() -> None:
    state = searcher(deck=["t_oni"], treasures={BLUE: []})
    act(state, {"type": "search"}, {"type": "relocate_shrine", "space": "suruga"},
        {"type": "keep_treasure", "treasure": "t_oni"})
    assert state.treasure_deck == [] and state.treasures[GREEN] == ["t_oni"]
    empty = searcher(deck=[])
    act(empty, {"type": "search"}, {"type": "relocate_shrine", "space": "suruga"})
    assert empty.treasures[GREEN] == [] and sum(empty.shrine) == 4


@pytest.mark.rule("SHO-SHRINE-07")
def test_treasures_are_not_hand_cards() -> None:
    state = scene(phase="discard", hands={GREEN: [PARRY] * 7}, hero_at={GREEN: "kai"},
                  treasures={GREEN: ["t_oni", "t_tengu"]})
    assert all(a["type"] in ("discard_card", "done") for a in legal_json(state))
    act(state, DONE)
    assert len(state.table[GREEN].hand) == 7 and len(state.treasures[GREEN]) == 2


@pytest.mark.rule("SHO-SHRINE-08")
def test_treasure_limit() -> None:
    held = ["t_sacred_sake", "t_great_bow", "t_an_heir"]
    deck = [t for t in ALL if t not in held]
    state = searcher(deck=deck, treasures={GREEN: held})
    act(state, {"type": "search"}, {"type": "relocate_shrine", "space": "suruga"},
        {"type": "keep_treasure", "treasure": "t_oni"})
    assert types(state) == ["return_treasure"] * 4
    act(state, {"type": "return_treasure", "treasure": "t_sacred_sake"})
    assert len(state.treasures[GREEN]) == 3 and state.treasure_deck[-1] == "t_sacred_sake"


@pytest.mark.rule("SHO-SHRINE-09")
def test_discarding_a_treasure() -> None:
    state = scene(hero_at={GREEN: "kai"}, treasures={GREEN: ["t_great_bow", "t_oni"]})
    act(state, {"type": "discard_treasure", "treasure": "t_great_bow"})
    assert state.treasures[GREEN] == ["t_oni"] and state.treasure_deck[-1] == "t_great_bow"


@pytest.mark.rule("SHO-SHRINE-10")
def test_treasure_types() -> None:
    treasures = scene().game.content.treasures
    kinds = [t.type for t in treasures]
    assert kinds.count("monster") == 6 and kinds.count("item") == 7


@pytest.mark.rule("SHO-MON-01", "SHO-MON-04")
def test_a_summoned_monster_kills_without_cost() -> None:
    state = scene(castles={"satsuma": RED}, peasants={"higo": RED}, hero_at={GREEN: "hyuga"},
                  treasures={GREEN: ["t_oni"]})
    act(state, {"type": "attack", "space": "higo", "opening": "t_oni"})
    assert state.duel.totals() == (6, 0)
    assert all(p == [] for p in state.table[GREEN].piles.values())
    reserve = state.reserve[RED]
    passes(state)
    assert state.reserve[RED] == reserve + 1 and state.prisoner_count(GREEN) == 0
    assert state.exclusive_used


@pytest.mark.rule("SHO-MON-02")
def test_monster_range() -> None:
    state = scene(castles={"satsuma": RED}, peasants={"higo": RED, "chikugo": RED},
                  hero_at={GREEN: "buzen"}, treasures={GREEN: ["t_oni", "t_tengu"]})
    refused(state, {"type": "attack", "space": "higo", "opening": "t_oni"})  # distance 3
    act(state, {"type": "attack", "space": "higo", "opening": "t_tengu"})


@pytest.mark.rule("SHO-MON-03", "SHO-DUEL-29")
def test_monsters_are_modified_blocked_and_purged() -> None:
    base = dict(castles={"satsuma": RED}, peasants={"higo": RED}, hero_at={GREEN: "hyuga"},
                treasures={GREEN: ["t_oni"]})
    state = scene(hands={GREEN: ["sam_press_the_advantage"], RED: [PARRY]}, **base)
    act(state, {"type": "attack", "space": "higo", "opening": "t_oni"},
        {"type": "duel_play", "card": PARRY},
        {"type": "duel_play", "card": "sam_press_the_advantage"})
    passes(state)
    assert peasant_at(state, "higo") == -1
    purge = scene(heroes=("samurai", "miko"), hands={RED: ["mik_turn_back_time"]}, **base)
    act(purge, {"type": "attack", "space": "higo", "opening": "t_oni"}, {"type": "duel_pass"},
        {"type": "duel_pass"}, {"type": "duel_play", "card": "mik_turn_back_time", "target": 0})
    passes(purge)
    assert peasant_at(purge, "higo") == RED and purge.treasure_deck[-1] == "t_oni"


@pytest.mark.rule("SHO-MON-05", "SHO-RECR-07")
def test_monster_cut_offs_return_to_the_reserve() -> None:
    state = scene(castles={"satsuma": RED},
                  peasants={"higo": RED, "chikugo": RED, "chikuzen": RED},
                  hero_at={BLUE: "hyuga"}, treasures={BLUE: ["t_oni"]}, players=3, active=BLUE)
    attack(state, "higo", "t_oni")
    assert state.reserve[RED] == 14 and state.prisoner_count(BLUE) == 0


@pytest.mark.rule("SHO-MON-06")
def test_monster_goes_under_the_deck_after_a_failed_attack() -> None:
    state = scene(castles={"satsuma": RED}, peasants={"higo": RED, "chikugo": RED},
                  hero_at={GREEN: "bungo"}, treasures={GREEN: ["t_tengu", "t_oni"]},
                  hands={RED: ["sam_iron_guard"]})
    attack(state, "chikugo", "t_tengu", block="sam_iron_guard")
    assert peasant_at(state, "chikugo") == RED
    assert state.treasure_deck[-1] == "t_tengu" and state.treasures[GREEN] == ["t_oni"]


@pytest.mark.rule("SHO-MON-08")
def test_orochi_kills_around_a_castle() -> None:
    state = scene(castles={"aki": RED}, peasants={"iwami": RED, "bingo": RED},
                  hero_at={GREEN: "suo"}, treasures={GREEN: ["t_orochi"]})
    attack(state, "aki", "t_orochi")
    assert peasant_at(state, "iwami") == -1 and peasant_at(state, "bingo") == -1
    assert controller(state, "aki") == RED and state.reserve[RED] == 14


@pytest.mark.rule("SHO-MON-09")
def test_monster_beats_a_hero() -> None:
    state = scene(castles={"satsuma": RED}, hero_at={GREEN: "kai", RED: "sagami"},
                  treasures={GREEN: ["t_raiju"], RED: ["t_oni"]},
                  hands={RED: [PARRY, PARRY, PARRY]})
    attack(state, "sagami", "t_raiju")
    assert len(state.table[RED].hand) == 1 and types(state) == ["take_treasure", "done"]
    act(state, {"type": "take_treasure"})
    assert state.treasures[GREEN] == ["t_oni"]
    assert types(state)[-1] == "done" and "relocate_hero" in types(state)
    act(state, {"type": "relocate_hero", "space": "higo"})
    assert state.hero_pos[RED] == space(state, "higo")


@pytest.mark.rule("SHO-MON-10")
def test_free_move_only_for_kappa() -> None:
    base = dict(castles={"satsuma": RED}, peasants={"higo": RED}, hero_at={GREEN: "hyuga"})
    oni = scene(treasures={GREEN: ["t_oni"]}, **base)
    attack(oni, "higo", "t_oni")
    assert not oni.pending and "move" not in types(oni)
    kappa = scene(treasures={GREEN: ["t_kappa"]}, **base)
    attack(kappa, "higo", "t_kappa")
    act(kappa, {"type": "move", "space": "higo"})
    assert kappa.hero_pos[GREEN] == space(kappa, "higo")


def test_jorogumo_kills_a_second_peasant() -> None:
    state = scene(castles={"satsuma": RED}, peasants={"higo": RED, "osumi": RED},
                  hero_at={GREEN: "hyuga"}, treasures={GREEN: ["t_jorogumo"]})
    attack(state, "higo", "t_jorogumo")
    act(state, {"type": "kill", "space": "osumi"})
    assert state.reserve[RED] == 14


@pytest.mark.rule("SHO-ITEM-01", "SHO-TURN-09")
def test_sacred_sake_clears_three() -> None:
    piles = {"body": [KATANA, "sam_press_the_advantage"], "mind": ["sam_still_mind"],
             "ki": ["sam_kiai_shout"]}
    state = scene(phase="court", hero_at={GREEN: "kai"}, piles={GREEN: piles},
                  treasures={GREEN: ["t_sacred_sake"]})
    act(state, {"type": "use_item", "treasure": "t_sacred_sake"},
        {"type": "clear_pile", "attribute": "body"}, {"type": "clear_pile", "attribute": "mind"},
        {"type": "clear_pile", "attribute": "ki"})
    assert state.table[GREEN].piles == {"body": [KATANA], "mind": [], "ki": []}
    assert state.treasure_deck[-1] == "t_sacred_sake" and state.phase == "court"


@pytest.mark.rule("SHO-ITEM-02")
def test_great_armor_while_defending() -> None:
    state = scene(castles={"satsuma": RED}, peasants={"higo": RED}, hero_at={GREEN: "hyuga"},
                  hands={GREEN: [KATANA]}, treasures={RED: ["t_great_armor", "t_straw_sandals"]})
    act(state, {"type": "attack", "space": "higo", "opening": KATANA})
    legal = legal_json(state)
    assert {"type": "duel_item", "item": "t_great_armor"} in legal
    assert not any(a.get("item") == "t_straw_sandals" or a.get("treasure") == "t_straw_sandals"
                   for a in legal)
    act(state, {"type": "duel_item", "item": "t_great_armor"})
    assert state.duel.totals() == (5, 3)


@pytest.mark.rule("SHO-ITEM-03", "SHO-SCORE-06")
def test_scoring_items_count_while_held() -> None:
    state = scene(castles={"satsuma": GREEN}, hero_at={GREEN: "kai"},
                  treasures={GREEN: ["t_an_heir", "t_ancestral_scrolls"]})
    refused(state, {"type": "use_item", "treasure": "t_an_heir"})
    refused(state, {"type": "use_item", "treasure": "t_ancestral_scrolls"})
    assert state.vp(GREEN) == 4 + 5 + 1
    assert state.view(RED)["seats"][GREEN]["vp"] == 4


def test_straw_sandals_move_the_hero() -> None:
    state = scene(hero_at={GREEN: "kai"}, treasures={GREEN: ["t_straw_sandals"]},
                  shrines=["sagami"])
    act(state, {"type": "use_item", "treasure": "t_straw_sandals"})
    refused(state, {"type": "move", "space": "sagami"})
    act(state, {"type": "move", "space": "izu"})
    assert state.hero_pos[GREEN] == space(state, "izu")
