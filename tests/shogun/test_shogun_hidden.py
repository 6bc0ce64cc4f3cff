"""Hidden information: what the other seats see never depends on face-down cards, and a
determinized state is consistent as a whole (SHO-DUEL-26, SHO-ITEM-01)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from game_helpers import BLUE, DONE, GREEN, KATANA, RED, act, scene, types

LETTER = "t_imperial_letter"
OTHER = "t_oni"  # a face-down treasure that scores nothing: the public VP stay equal


def court_scene(treasure: str, emperor: bool) -> Any:
    """Green (seat 0) ends its Hero phase holding one face-down treasure; with `emperor`,
    Red (seat 1) holds Heian and will decree."""
    peasants = {"tanba": RED, "iwami": GREEN, "izumo": RED}
    if emperor:
        peasants["heian"] = RED
    state = scene(players=3, phase="hero", castles={"wakasa": RED, "aki": GREEN},
                  peasants=peasants, hero_at={GREEN: "mutsu"}, hands={GREEN: [KATANA]},
                  treasures={GREEN: [treasure], BLUE: ["t_kappa"]})
    act(state, DONE)  # to the Court phase
    return state


def others_see(state: Any) -> list[Any]:
    """Every view but Green's own: the other seats and the spectator."""
    return [state.view(seat) for seat in (RED, BLUE, None)]


def first_court_decision(state: Any) -> Any:
    """The first court decision that is not the Letter: the same for both positions."""
    return next(a for a in state.legal_actions()
                if a.to_json() != {"type": "use_item", "treasure": LETTER})


@pytest.mark.parametrize("emperor", [False, True])
def test_other_seats_cannot_tell_the_letter(emperor: bool) -> None:
    letter, other = court_scene(LETTER, emperor), court_scene(OTHER, emperor)
    assert letter.phase == other.phase == "court"
    assert letter.current_player == other.current_player == GREEN
    assert others_see(letter) == others_see(other)
    assert letter.log == other.log
    own = [a.to_json() for a in letter.legal_actions()]
    assert {"type": "use_item", "treasure": LETTER} in own  # only the holder's choices differ
    decision = first_court_decision(letter)
    assert decision == first_court_decision(other)
    act(letter, decision)
    act(other, decision)
    assert others_see(letter) == others_see(other)
    assert letter.log == other.log
    if emperor:  # the step before the decree passed: the emperor decrees, whoever holds what
        assert letter.current_player == other.current_player == RED
        assert "decree" in types(letter) and types(letter) == types(other)


@pytest.mark.rule("SHO-ITEM-01")
def test_letter_without_emperor_is_a_court_restricted_action() -> None:
    state = scene(phase="hero", castles={"aki": GREEN}, peasants={"iwami": GREEN},
                  hero_at={GREEN: "mutsu"}, treasures={GREEN: [LETTER]})
    use = {"type": "use_item", "treasure": LETTER}
    assert use not in [a.to_json() for a in state.legal_actions()]  # not in the Hero phase
    act(state, DONE)
    assert state.phase == "court" and state.pending == []
    assert use in [a.to_json() for a in state.legal_actions()]
    act(state, use, {"type": "recruit", "space": "izumo"}, DONE)
    act(state, {"type": "move", "space": "dewa"})
    assert state.court_used == ["recruit", "move"]


def test_letter_is_gone_once_a_court_action_is_taken() -> None:
    state = scene(phase="court", castles={"aki": GREEN}, peasants={"iwami": GREEN},
                  hero_at={GREEN: "mutsu"}, treasures={GREEN: [LETTER]})
    act(state, {"type": "move", "space": "dewa"})
    assert {"type": "use_item", "treasure": LETTER} not in [a.to_json()
                                                           for a in state.legal_actions()]


@pytest.mark.parametrize("emperor", [False, True])
def test_determinized_letter_matches_its_steps(emperor: bool) -> None:
    """Seen from Blue, Green may or may not hold the Letter: the pending steps are the same
    either way and the determinized legal actions follow the sampled treasures."""
    state = court_scene(LETTER, emperor)
    rng = random.Random(5)
    held = set()
    for _ in range(60):
        copy = state.determinize(BLUE, rng)
        assert copy.pending == state.pending and copy.current_player == GREEN
        has = LETTER in copy.treasures[GREEN]
        offered = {"type": "use_item", "treasure": LETTER} in [a.to_json()
                                                               for a in copy.legal_actions()]
        assert offered == has
        held.add(has)
        while not copy.is_terminal and copy.turn == state.turn:
            copy.apply(rng.choice(copy.legal_actions()))
    assert held == {False, True}


# -- determinization inside a duel ----------------------------------------------------------------

ARMOR = "t_great_armor"
ALL_TREASURES = 13


def armor_duel(armor_used: bool = False) -> Any:
    """Green attacks Red's hero; Red holds Great Armor and Kappa, and may have used the Armor."""
    state = scene(castles={"satsuma": RED, "mutsu": GREEN}, peasants={"higo": RED},
                  hero_at={GREEN: "hyuga", RED: "bungo"},
                  hands={GREEN: [KATANA, "sam_swift_draw"], RED: ["sam_sword_parry"]},
                  treasures={RED: [ARMOR, "t_kappa"], GREEN: ["t_oni"]})
    act(state, {"type": "attack", "space": "bungo", "opening": KATANA})
    assert state.duel is not None and state.current_player == RED
    if armor_used:
        act(state, {"type": "duel_item", "item": ARMOR})
    return state


def treasures_in_play(state: Any) -> list[str]:
    """Every treasure card where the state keeps it: deck, holdings, drawn cards waiting, and a
    summoned monster still in a duel."""
    cards = list(state.treasure_deck) + [t for row in state.treasures for t in row]
    cards += [t for step in state.pending if step[0] == "keep" for t in step[2]]
    if state.duel is not None:
        cards += [p.card for p in state.duel.plays if p.monster]
    return cards


def duel_items_follow_treasures(copy: Any) -> None:
    for seat in (copy.duel.attacker, copy.duel.defender):
        expected = {i.id for i in copy.duel_items(seat)[seat]}
        assert {i.id for i in copy.duel.items.get(seat, ())} == expected


@pytest.mark.parametrize("armor_used", [False, True])
def test_determinized_duel_items_follow_the_resampled_treasures(armor_used: bool) -> None:
    state = armor_duel(armor_used)
    rng = random.Random(3)
    holds_armor = set()
    for _ in range(80):
        copy = state.determinize(GREEN, rng)
        duel_items_follow_treasures(copy)
        held = copy.treasures[RED]
        if armor_used:  # public: used in this duel, it stays Red's until the duel ends
            assert ARMOR in held and (RED, ARMOR) in copy.duel.used_items
        holds_armor.add(ARMOR in held)
        offered = {a.item for a in copy.legal_actions() if a.to_json()["type"] == "duel_item"}
        assert offered <= set(held)
        assert sorted(treasures_in_play(copy)) == sorted(treasures_in_play(state))
    assert holds_armor == ({True} if armor_used else {False, True})


def test_determinized_duels_play_on_consistently() -> None:
    """Many determinizations of a running duel, from every seat, play to the end of the game
    with random decisions: no error, and no treasure is ever lost or duplicated."""
    for armor_used in (False, True):
        state = armor_duel(armor_used)
        for seed in range(12):
            rng = random.Random(seed)
            copy = state.determinize(seed % 2, rng)
            steps = 0
            while not copy.is_terminal and steps < 400:
                copy.apply(rng.choice(copy.legal_actions()))
                steps += 1
                cards = treasures_in_play(copy)
                assert len(cards) == len(set(cards)) == ALL_TREASURES, (seed, steps)
