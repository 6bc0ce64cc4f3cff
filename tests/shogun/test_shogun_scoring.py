"""Scoring and victory (SHO-SCORE-01..08), chains (SHO-CHAIN-01..09)."""

from __future__ import annotations

from typing import Any

import pytest
from game_helpers import BLUE, DONE, GREEN, KATANA, RED, attack, scene

import boardwright as bw
from boardwright.games.shogun.network import chain_vp


def chains(castles: list[str], peasants: list[str]) -> int:
    state = scene(castles={c: GREEN for c in castles}, peasants={p: GREEN for p in peasants})
    return state.chain_points(GREEN)


@pytest.mark.rule("SHO-SCORE-01")
def test_victory_points() -> None:
    state = scene(castles={"satsuma": GREEN, "chikuzen": GREEN},
                  peasants={"higo": GREEN, "chikugo": GREEN},
                  prisoners={GREEN: {RED: 3}}, treasures={GREEN: ["t_an_heir"]})
    assert state.vp(GREEN) == 8 + 2 + 3 + 5 == 18


def near_win(players: int, vp_castles: int, **extra: Any) -> Any:
    """Green has `vp_castles` castles and can capture a Red peasant for one more VP."""
    spaces = ["mutsu", "kazusa", "izu", "noto", "tosa", "hizen"][:vp_castles]
    castles = {s: GREEN for s in spaces}
    castles["satsuma"] = RED
    return scene(players=players, castles=castles, peasants={"higo": RED},
                 hero_at={GREEN: "hyuga"}, hands={GREEN: [KATANA]}, **extra)


@pytest.mark.rule("SHO-SCORE-02")
def test_three_player_threshold() -> None:
    state = near_win(3, 5, prisoners={GREEN: {BLUE: 1}})
    assert state.vp(GREEN) == 21 and not state.is_terminal
    attack(state, "higo", KATANA)
    assert state.is_terminal and state.winners == [GREEN]
    two = near_win(2, 5, prisoners={GREEN: {RED: 2}})
    attack(two, "higo", KATANA)
    assert two.vp(GREEN) == 23 and not two.is_terminal


@pytest.mark.rule("SHO-SCORE-03")
def test_four_player_threshold() -> None:
    state = near_win(4, 4, prisoners={GREEN: {BLUE: 3}})
    attack(state, "higo", KATANA)
    assert state.vp(GREEN) == 20 and state.is_terminal and state.winners == [GREEN]


@pytest.mark.rule("SHO-SCORE-04")
def test_the_game_ends_in_the_middle_of_a_turn() -> None:
    state = near_win(2, 5, prisoners={GREEN: {RED: 3}})
    attack(state, "higo", KATANA)
    assert state.is_terminal and state.phase == "hero"
    assert state.legal_actions() == []
    with pytest.raises(bw.GameOverError):
        state.apply(DONE)


@pytest.mark.rule("SHO-SCORE-05")
def test_several_players_over_the_threshold() -> None:
    state = scene(players=3, castles={"mutsu": GREEN, "satsuma": RED})
    state.prisoners[GREEN][BLUE] = 18
    state.prisoners[RED][BLUE] = 19
    state.check_victory()
    assert state.winners == [RED]
    tie = scene(players=3, castles={"mutsu": GREEN, "satsuma": RED})
    tie.prisoners[GREEN][BLUE] = 19
    tie.prisoners[RED][BLUE] = 19
    tie.check_victory()
    assert tie.winners == [GREEN]  # the active player
    after = scene(players=3, active=BLUE,
                  castles={"mutsu": GREEN, "satsuma": RED})
    after.prisoners[GREEN][BLUE] = 19
    after.prisoners[RED][BLUE] = 19
    after.check_victory()
    assert after.winners == [GREEN]  # first after Blue in turn order


@pytest.mark.rule("SHO-SCORE-06")
def test_a_face_down_heir_wins() -> None:
    state = near_win(2, 4, prisoners={GREEN: {RED: 2}}, treasures={GREEN: ["t_an_heir"]})
    assert state.view(RED)["seats"][GREEN]["vp"] == 18
    attack(state, "higo", KATANA)
    assert state.is_terminal and state.winners == [GREEN]
    assert state.view(RED)["seats"][GREEN]["treasures"] == ["t_an_heir"]


@pytest.mark.rule("SHO-SCORE-07")
def test_threshold_options() -> None:
    state = near_win(4, 4, prisoners={GREEN: {BLUE: 3}}, options={"vp_threshold_4p": 24})
    attack(state, "higo", KATANA)
    assert not state.is_terminal
    custom = near_win(2, 2, options={"vp_threshold": 9})
    attack(custom, "higo", KATANA)
    assert custom.is_terminal
    with pytest.raises(bw.InvalidOptionError):
        bw.load("shogun", 2, {"vp_threshold": 0})


@pytest.mark.rule("SHO-SCORE-08")
def test_round_cap() -> None:
    game = bw.load("shogun", 2, {"max_rounds": 1})
    state = game.new_game(3)
    while not state.is_terminal:
        legal = [a.to_json() for a in state.legal_actions()]
        state.apply(DONE if DONE in legal else legal[0])
    assert state.end_reason == "max_rounds" and state.round == 1 and state.turn == 2
    keys = [(state.vp(s), state.castle_count(s), state.prisoner_count(s)) for s in (0, 1)]
    assert state.winners == [s for s in (0, 1) if keys[s] == max(keys)]
    with pytest.raises(bw.InvalidOptionError):
        bw.load("shogun", 2, {"max_rounds": 0})


@pytest.mark.rule("SHO-SCORE-09")
def test_decision_cap() -> None:
    """The game ends once `max_decisions` decisions are taken, wherever it stands, scored as
    at the round cap; a record of it replays."""
    game = bw.load("shogun", 2, {"max_decisions": 23})
    state = game.new_game(5)
    while not state.is_terminal:
        state.apply(state.legal_actions()[-1])
    assert state.end_reason == "max_decisions" and len(state.history) == 23
    keys = [(state.vp(s), state.castle_count(s), state.prisoner_count(s)) for s in (0, 1)]
    assert state.winners == [s for s in (0, 1) if keys[s] == max(keys)]
    assert bw.replay(state.record).end_reason == "max_decisions"
    for bad in (0, "x", 10**9):
        with pytest.raises(bw.InvalidOptionError, match="max_decisions"):
            bw.load("shogun", 2, {"max_decisions": bad})


@pytest.mark.rule("SHO-CHAIN-01", "SHO-CHAIN-06")
def test_a_chain() -> None:
    assert chains(["satsuma", "chikuzen"], ["higo", "chikugo"]) == 2
    state = scene(castles={"satsuma": GREEN, "chikuzen": GREEN},
                  peasants={"higo": GREEN, "chikugo": GREEN})
    assert state.vp(GREEN) == 10


@pytest.mark.rule("SHO-CHAIN-02")
def test_only_the_shortest() -> None:
    assert chains(["satsuma", "chikuzen"], ["higo", "chikugo", "hizen"]) == 2


@pytest.mark.rule("SHO-CHAIN-03")
def test_one_chain_per_pair() -> None:
    assert chains(["satsuma", "chikuzen"], ["higo", "chikugo", "bungo"]) == 2


@pytest.mark.rule("SHO-CHAIN-04")
def test_branches_do_not_count() -> None:
    assert chains(["satsuma", "chikuzen"], ["higo", "chikugo", "hyuga"]) == 2


SIX = ["higo", "chikugo", "bungo", "buzen", "nagato", "suo"]


@pytest.mark.rule("SHO-CHAIN-05", "SHO-CHAIN-08")
def test_no_peasant_counted_twice_and_the_best_choice() -> None:
    assert chains(["satsuma", "chikuzen", "aki"], SIX) == 6


@pytest.mark.rule("SHO-CHAIN-07")
def test_chains_do_not_pass_through_castles() -> None:
    assert chains(["satsuma", "chikuzen", "aki"], ["higo", "chikugo", "nagato", "suo"]) == 4


@pytest.mark.rule("SHO-CHAIN-09")
def test_unlinked_castles_score_nothing() -> None:
    assert chains(["satsuma"], SIX) == 0
    assert chains(["satsuma", "kaga"], ["higo", "noto"]) == 0
    state = scene(castles={"satsuma": GREEN, "chikuzen": GREEN},
                  peasants={"higo": GREEN, "chikugo": GREEN})
    board = state.game.board
    assert chain_vp(board.neighbours, state.peasant, GREEN, state.castles_of(GREEN)) == 2
