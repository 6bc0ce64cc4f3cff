"""Set-up as player decisions (SHO-SETUP-01..19)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from game_helpers import DONE, act, refused

import boardwright as bw
from boardwright.games.shogun.board import parse_map
from boardwright.games.shogun.placement import shrine_spaces

HEROES4 = ["samurai", "ninja", "miko", "prince"]


def fresh(players: int, first: int = 0, **options: Any) -> Any:
    opts = {"heroes": HEROES4[:players], "fixed_order": {"first_player": first}, **options}
    return bw.load("shogun", players, opts).new_game(1)


def place(state: Any, kind: str, *spaces: str) -> Any:
    for s in spaces:
        state.apply({"type": kind, "space": s})
    return state


def through_setup(state: Any, pick: int = 0) -> Any:
    """Take the `pick`-th legal option (clamped) until the first turn starts."""
    while state.phase in ("heroes", "castles", "shrines", "homes"):
        options = state.legal_actions()
        state.apply(options[min(pick, len(options) - 1)])
    return state


def seats_of(state: Any, event: str) -> list[int]:
    return [e["seat"] for e in state.log if e["event"] == event]


CONTENT_CASTLES = ("satsuma", "buzen", "tosa", "inaba", "aki", "kaga", "suruga", "mutsu")


@pytest.mark.rule("SHO-SETUP-01")
def test_first_player_is_drawn_and_seats_follow_clockwise() -> None:
    game = bw.load("shogun", 3, {"fixed_order": {"first_player": 1}})
    state = game.new_game(5)
    assert state.first == 1 and state.order == [1, 2, 0]
    plain = bw.load("shogun", 3)
    firsts = {plain.new_game(seed).first for seed in range(30)}
    assert firsts == {0, 1, 2}  # drawn at random ...
    assert plain.new_game(8).order == plain.new_game(8).order  # ... reproducibly
    assert plain.new_game(8).first == random.Random(8).randrange(3)


@pytest.mark.rule("SHO-SETUP-02")
def test_heroes_are_chosen_clockwise_from_the_first_player() -> None:
    state = bw.load("shogun", 3, {"fixed_order": {"first_player": 2}}).new_game(1)
    assert state.phase == "heroes" and state.current_player == 2
    act(state, {"type": "choose_hero", "hero": "samurai"})
    assert state.current_player == 0
    assert sorted(a.hero for a in state.legal_actions()) == ["miko", "ninja", "prince"]
    refused(state, {"type": "choose_hero", "hero": "samurai"})


@pytest.mark.rule("SHO-SETUP-03", "SHO-SETUP-04", "SHO-SETUP-05")
def test_castle_count_rotation_and_unaligned_start() -> None:
    state = fresh(3)
    place(state, "place_castle", *CONTENT_CASTLES[:7])
    assert seats_of(state, "castle_placed") == [0, 1, 2, 0, 1, 2, 0]
    assert len(state.castle_space) == 7  # one castle piece stays out of the game
    assert state.game.content.components.castles - len(state.castle_space) == 1
    assert all(r == -1 for r in state.roof) and all(c == -1 for c in state.court)
    assert state.phase == "shrines"
    for players, count in ((2, 6), (4, 8)):
        other = through_setup(fresh(players))
        assert len(other.castle_space) == count


@pytest.mark.rule("SHO-SETUP-06", "SHO-SETUP-08")
def test_castles_keep_two_empty_spaces_between_them() -> None:
    state = place(fresh(2), "place_castle", "satsuma")
    refused(state, {"type": "place_castle", "space": "chikugo"})  # distance 2
    refused(state, {"type": "place_castle", "space": "satsuma"})  # occupied
    place(state, "place_castle", "chikuzen")  # distance 3
    assert len(state.castle_space) == 2


@pytest.mark.rule("SHO-SETUP-07", "SHO-BOARD-02")
def test_castles_keep_away_from_heian() -> None:
    state = fresh(2)
    refused(state, {"type": "place_castle", "space": "mino"})
    refused(state, {"type": "place_castle", "space": "heian"})
    place(state, "place_castle", "owari")


@pytest.mark.rule("SHO-SETUP-09")
def test_blocked_castle_placement_falls_back_to_the_farthest_space() -> None:
    state = place(fresh(3), "place_castle", "shinano", "bungo", "bingo", "kazusa", "shima",
                  "awaji")
    legal = {a.space for a in state.legal_actions()}
    assert "mutsu" in legal
    assert not state.game.board.in_no_castle_zone("mutsu")
    refused(state, {"type": "place_castle", "space": "kai"})
    refused(state, {"type": "place_castle", "space": "izumi"})
    place(state, "place_castle", "mutsu")


@pytest.mark.rule("SHO-SETUP-10")
@pytest.mark.parametrize("players, seats", [(2, [0, 1, 0, 1]), (3, [1, 2, 0, 1]),
                                            (4, [0, 1, 2, 3])])
def test_shrine_rotation_continues_after_the_castles(players: int, seats: list[int]) -> None:
    state = through_setup(fresh(players))
    assert seats_of(state, "shrine_placed") == seats
    assert sum(state.shrine) == 4


@pytest.mark.rule("SHO-SETUP-11")
def test_shrine_spacing_at_setup() -> None:
    state = place(fresh(2), "place_castle", *CONTENT_CASTLES[:6])
    refused(state, {"type": "place_shrine", "space": "higo"})  # next to the satsuma castle
    refused(state, {"type": "place_shrine", "space": "omi"})  # next to heian
    place(state, "place_shrine", "chikugo")
    refused(state, {"type": "place_shrine", "space": "hizen"})  # next to the chikugo shrine


def path_map() -> Any:
    spaces = []
    names = ["h", "a", "b", "c"]
    for i, sid in enumerate(names):
        near = [names[j] for j in (i - 1, i + 1) if 0 <= j < len(names)]
        spaces.append({"id": sid, "name": sid.upper(), "island": "test", "region": "test",
                       "x": 100 * i, "y": 0, "degree": len(near), "neighbours": near})
    return parse_map({"name": "path", "heian": "h", "spaces": spaces})


@pytest.mark.rule("SHO-SETUP-12")
def test_shrine_fallback_on_a_path_map() -> None:
    board = path_map()
    c = board.index["c"]
    empty = [True, True, True, False]
    assert shrine_spaces(board, [c], empty) == [board.index["b"]]  # a is next to Heian


@pytest.mark.rule("SHO-SETUP-13")
@pytest.mark.parametrize("players, order", [(2, [1, 0]), (3, [1, 0, 2]), (4, [3, 2, 1, 0])])
def test_home_castles_are_chosen_in_reversed_order(players: int, order: list[int]) -> None:
    state = fresh(players)
    assert state.home_order() == order
    through_setup(state)
    assert seats_of(state, "home_chosen") == order


@pytest.mark.rule("SHO-SETUP-14")
def test_home_castle_gets_a_roof_lord() -> None:
    state = through_setup(fresh(2))
    owners = sorted(r for r in state.roof if r >= 0)
    assert owners == [0, 1]
    assert state.reserve == [14, 14]
    assert [4 * state.castle_count(s) for s in (0, 1)] == [4, 4]
    assert state.scores == [4, 4]


@pytest.mark.rule("SHO-SETUP-15")
def test_hero_starts_on_an_empty_space_next_to_home() -> None:
    state = place(fresh(2), "place_castle", *CONTENT_CASTLES[:6])
    place(state, "place_shrine", "owari", "shimosa", "bizen", "mutsu")
    assert state.current_player == 1
    place(state, "choose_home", "satsuma")
    assert sorted(a.space for a in state.legal_actions()) == ["higo", "osumi"]
    refused(state, {"type": "place_hero", "space": "chikugo"})
    place(state, "place_hero", "osumi")
    assert state.hero_pos[1] == state.game.board.index["osumi"]


@pytest.mark.rule("SHO-SETUP-16")
def test_mission_and_treasure_decks_are_shuffled_reproducibly() -> None:
    game = bw.load("shogun", 2)
    state = through_setup(game.new_game(4))
    assert len(state.treasure_deck) == 13 and len(state.mission_deck) == 6
    again = through_setup(game.new_game(4))
    assert again.treasure_deck == state.treasure_deck
    assert again.mission_deck == state.mission_deck
    orders = {tuple(game.new_game(seed).treasure_deck) for seed in range(5)}
    assert len(orders) > 1


@pytest.mark.rule("SHO-SETUP-17", "SHO-COMP-06")
def test_opening_hands() -> None:
    state = through_setup(bw.load("shogun", 3).new_game(2))
    for player in state.table.players:
        assert len(player.hand) == 7 and len(player.draw_pile) == 23
        assert player.discard == [] and all(p == [] for p in player.piles.values())


@pytest.mark.rule("SHO-SETUP-18")
def test_first_player_plays_the_first_turn() -> None:
    state = through_setup(fresh(4, first=2))
    assert state.active == 2 and state.phase in ("discard", "cleanup", "movement", "hero")
    turns = []
    for _ in range(5):
        turns.append(state.active)
        seat = state.active
        while state.active == seat:
            state.apply(DONE if DONE in [a.to_json() for a in state.legal_actions()]
                        else state.legal_actions()[0])
    assert turns == [2, 3, 0, 1, 2]


@pytest.mark.rule("SHO-SETUP-19")
def test_fixed_orders_replace_the_shuffles() -> None:
    order = ["t_oni", "t_tengu", "t_kappa", "t_jorogumo", "t_orochi", "t_raiju", "t_an_heir",
             "t_ancestral_scrolls", "t_straw_sandals", "t_great_bow", "t_great_armor",
             "t_sacred_sake", "t_imperial_letter"]
    state = bw.load("shogun", 3, {"fixed_order": {"treasure": order, "first_player": 2}}
                    ).new_game(3)
    assert state.first == 2 and state.order == [2, 0, 1]
    assert state.treasure_deck[:2] == ["t_oni", "t_tengu"]
    with pytest.raises(bw.InvalidOptionError):
        bw.load("shogun", 2, {"fixed_order": {"treasure": order[:5]}})
