"""Rule tests for set-up and turn structure: CAR-BASE-SETUP-01..04 and CAR-BASE-TURN-01..03.

Each test reproduces the `test:` scenario of its rule in the catalogue
(rule catalogue, sections 4.1 and 4.2) and asserts the exact outcome
given there; extra cases sharpen the rule where a single scenario would leave room for a
wrong engine to pass. Seats: 0 = Red, 1 = Blue, 2 = Yellow.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from fixtures import FX_START
from helpers import assert_illegal, place_options

import boardwright as bw
from boardwright.games.carcassonne import Deploy, Pass, Place
from boardwright.games.carcassonne.scenario import build
from boardwright.games.carcassonne.state import CarcassonneState

RED, BLUE, YELLOW = 0, 1, 2

# The 71 tiles of the draw pile of a new base game (CAR-BASE-SETUP-03): the 72 of section 3.1
# minus one D, the start tile.
BASE_PILE = {
    "A": 2, "B": 4, "C": 1, "D": 3, "E": 5, "F": 2, "G": 1, "H": 3, "I": 2, "J": 3, "K": 3,
    "L": 3, "M": 2, "N": 3, "O": 2, "P": 3, "Q": 1, "R": 3, "S": 2, "T": 1, "U": 8, "V": 9,
    "W": 4, "X": 1,
}


# -- helpers ------------------------------------------------------------------------------------


def new_game(players: int = 3, seed: int = 0, **options: Any) -> CarcassonneState:
    """A fresh game through the public API (not a built scenario)."""
    game = bw.load("carcassonne", players=players, options=options)
    state = game.new_game(seed)
    assert isinstance(state, bw.State)
    return state


def play_turn(state: CarcassonneState, place: Place, deploy: Deploy | None = None) -> None:
    """One whole turn: place the drawn tile, then deploy the given follower or pass."""
    state.apply(place)
    state.apply(deploy if deploy is not None else Pass())


def east_of_row(state: CarcassonneState) -> Place:
    """A legal U placement extending the W–E road of the start tile eastwards."""
    x = max(t["x"] for t in state.view(None)["board"] if t["y"] == 0) + 1
    return Place(x, 0, 0)


# -- CAR-BASE-SETUP-01 ----------------------------------------------------------------------------


@pytest.mark.rule("CAR-BASE-SETUP-01")
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_setup_base_accepts_one_to_five_players(players: int) -> None:
    """Base game: every count from 1 to 5 sets up, with one supply and one score per seat."""
    state = new_game(players)
    view = state.view(None)
    assert view["players"] == players
    assert state.game.num_players == players
    assert len(state.scores) == players
    assert len(view["supply"]) == players
    assert state.current_player == 0


@pytest.mark.rule("CAR-BASE-SETUP-01")
@pytest.mark.parametrize("players", [0, 6, -1, 7])
def test_setup_base_rejects_other_player_counts(players: int) -> None:
    """Base only: 0 and 6 players (and anything further out) are rejected."""
    with pytest.raises(bw.InvalidOptionError):
        bw.load("carcassonne", players=players)


@pytest.mark.rule("CAR-BASE-SETUP-01")
def test_setup_abbey_and_mayor_rejects_zero_players() -> None:
    """With Abbey & Mayor enabled, 0 players is still rejected."""
    with pytest.raises(bw.InvalidOptionError):
        bw.load("carcassonne", players=0, options={"expansions": ["abbey_mayor"]})


@pytest.mark.rule("CAR-BASE-SETUP-01")
def test_setup_abbey_and_mayor_accepts_six_players() -> None:
    """With Abbey & Mayor, 6 players are accepted and each holds one abbey tile."""
    game = bw.load("carcassonne", players=6, options={"expansions": ["abbey_mayor"]})
    state = game.new_game(0)
    assert [s.get("abbey") for s in state.view(None)["supply"]] == [1] * 6


@pytest.mark.rule("CAR-BASE-SETUP-01")
def test_setup_one_player_takes_turn_after_turn() -> None:
    """A 1-player game: the single seat is the player to move in every turn."""
    state = new_game(1, draw_order=["U"] * 5)
    for _ in range(5):
        assert state.current_player == 0
        play_turn(state, east_of_row(state))
    assert state.is_terminal
    assert len(state.view(None)["board"]) == 6


# -- CAR-BASE-SETUP-02 ----------------------------------------------------------------------------


@pytest.mark.rule("CAR-BASE-SETUP-02")
def test_setup_supply_seven_followers_and_zero_score() -> None:
    """New 3-player base game: each supply is exactly 7 normal followers; all scores are 0."""
    state = new_game(3)
    view = state.view(None)
    assert view["supply"] == [{"follower": 7}] * 3
    assert state.scores == [0, 0, 0]
    assert view["scores"] == [0, 0, 0]
    assert view["followers"] == []


@pytest.mark.rule("CAR-BASE-SETUP-02")
@pytest.mark.parametrize("players", [1, 2, 4, 5])
def test_setup_supply_is_per_player_for_every_count(players: int) -> None:
    """The supply and the zero score do not depend on the number of players."""
    state = new_game(players)
    assert state.view(None)["supply"] == [{"follower": 7}] * players
    assert state.scores == [0] * players


# -- CAR-BASE-SETUP-03 ----------------------------------------------------------------------------


def pile_contents(state: CarcassonneState) -> Counter[str]:
    """The 71 tiles of the pile at set-up.

    The engine draws Red's first tile as part of creating the game (step 1 of turn 1), so the
    pile of the spec's scenario is what is still face down plus the tile in Red's hand.
    """
    view = state.view(None)
    contents = Counter(view["remaining_tiles"])
    assert view["tile"] is not None
    contents[view["tile"]] += 1
    return contents


@pytest.mark.rule("CAR-BASE-SETUP-03")
@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_setup_start_tile_and_draw_pile(seed: int) -> None:
    """New base game: only D@(0,0)/0 on the board; the pile is the 71 listed tiles."""
    state = new_game(3, seed)
    view = state.view(None)
    assert view["board"] == [{"x": 0, "y": 0, "tile": "D", "rotation": 0}]
    assert view["draw_pile_size"] + 1 == 71  # + the tile Red has just drawn
    assert pile_contents(state) == Counter(BASE_PILE)
    assert sum(BASE_PILE.values()) == 71
    assert view["discarded"] == []


@pytest.mark.rule("CAR-BASE-SETUP-03")
def test_setup_pile_is_shuffled_by_seed() -> None:
    """The pile is shuffled: the same seed gives the same order, other seeds other orders."""
    orders = {seed: tuple(new_game(3, seed).pile) for seed in range(5)}
    assert tuple(new_game(3, 3).pile) == orders[3]
    assert len(set(orders.values())) == 5


# -- CAR-BASE-SETUP-04 ----------------------------------------------------------------------------


def turn_takers(players: int, turns: int, **options: Any) -> list[int]:
    """The seat to move at the start of each of the first `turns` turns (U tiles, no followers)."""
    state = new_game(players, draw_order=["U"] * (turns + 1), **options)
    takers = []
    for _ in range(turns):
        takers.append(state.current_player)
        place = east_of_row(state)
        state.apply(place)
        assert state.current_player == takers[-1]  # the deploy step is still the same turn
        state.apply(Pass())
    return takers


@pytest.mark.rule("CAR-BASE-SETUP-04")
def test_turn_order_default_starts_with_seat_zero() -> None:
    """Default option: turns 1–4 are taken by Red, Blue, Yellow, Red."""
    assert turn_takers(3, 4) == [RED, BLUE, YELLOW, RED]


@pytest.mark.rule("CAR-BASE-SETUP-04")
def test_turn_order_with_starting_seat_two() -> None:
    """`starting_seat = 2`: Yellow, Red, Blue (and round again)."""
    assert turn_takers(3, 3, starting_seat=2) == [YELLOW, RED, BLUE]
    assert turn_takers(3, 6, starting_seat=2) == [YELLOW, RED, BLUE, YELLOW, RED, BLUE]


@pytest.mark.rule("CAR-BASE-SETUP-04")
def test_turn_order_wraps_for_five_players() -> None:
    """Seat order wraps around after the last seat whatever the player count."""
    assert turn_takers(5, 7, starting_seat=3) == [3, 4, 0, 1, 2, 3, 4]


@pytest.mark.rule("CAR-BASE-SETUP-04")
@pytest.mark.parametrize("seat", [3, -1, "1", True])
def test_starting_seat_must_be_a_seat(seat: Any) -> None:
    """A starting seat that is not a seat of the game is rejected."""
    with pytest.raises(bw.InvalidOptionError):
        bw.load("carcassonne", players=3, options={"starting_seat": seat})


# -- CAR-BASE-TURN-01 -----------------------------------------------------------------------------


@pytest.mark.rule("CAR-BASE-TURN-01")
def test_turn_sequence_scores_and_returns_knight_within_the_turn() -> None:
    """FX-START, Red draws E, places E@(0,-1)/180 with a knight on its city → in the same turn
    the city scores (Red +4) and the knight is back in supply before Blue's turn begins."""
    state = build(FX_START, pile=["E", "U", "U"], turn_player=RED)
    assert (state.current_player, state.tile, state.view(None)["phase"]) == (RED, "E", "place_tile")

    state.apply(Place(0, -1, 180))
    view = state.view(None)
    assert (view["phase"], state.current_player) == ("deploy", RED)
    assert state.scores == [0, 0, 0]  # scoring is step 4, after the figure placement

    state.apply(Deploy(0, -1, "S"))
    view = state.view(None)
    assert state.scores == [4, 0, 0]
    assert view["supply"] == [{"follower": 7}] * 3
    assert view["followers"] == []
    assert view["log"] == [{"turn": view["turn"], "feature": "city", "complete": True,
                            "points": 4, "players": [RED],
                            "text": f"Turn {view['turn']}: Red +4 (city, completed)",
                            "words": [f"Turn {view['turn']}: ", {"seat": RED}, " +4 (city, completed)"]}]
    # Blue's turn begins only now: Blue holds the next tile, in the placement phase.
    assert (state.current_player, state.tile, view["phase"]) == (BLUE, "U", "place_tile")
    assert view["draw_pile_size"] == 1


@pytest.mark.rule("CAR-BASE-TURN-01")
def test_turn_sequence_steps_are_enforced_in_order() -> None:
    """Placing comes before the figure step, and the figure step before the next placement."""
    state = build(FX_START, pile=["E", "U"], turn_player=RED)
    assert_illegal(state, Deploy(0, 0, "E.W"))  # no figure before the tile is placed
    assert_illegal(state, Pass())
    state.apply(Place(0, -1, 180))
    assert_illegal(state, Place(1, 0, 0))  # a second tile in the same turn
    state.apply(Pass())
    assert state.current_player == BLUE


# -- CAR-BASE-TURN-02 -----------------------------------------------------------------------------


@pytest.mark.rule("CAR-BASE-TURN-02")
def test_placeable_tile_offers_only_placements() -> None:
    """FX-START, Red draws U → only placement actions are offered (no pass, no discard)."""
    state = build(FX_START, pile=["U", "U"], turn_player=RED)
    assert state.tile == "U"
    assert place_options(state) == {(1, 0, 0), (-1, 0, 0), (0, 1, 0)}
    view = state.view(RED)
    assert {a["type"] for a in view["legal_actions"]} == {"place"}


@pytest.mark.rule("CAR-BASE-TURN-02")
def test_placeable_tile_cannot_be_passed() -> None:
    """Passing (or deploying) instead of placing a placeable tile is rejected; nothing changes."""
    state = build(FX_START, pile=["U", "U"], turn_player=RED)
    assert_illegal(state, Pass())
    assert_illegal(state, {"type": "pass"})
    assert_illegal(state, Deploy(0, 0, "N"))
    assert (state.current_player, state.tile, state.discarded) == (RED, "U", [])


# -- CAR-BASE-TURN-03 -----------------------------------------------------------------------------

BOARD_CLOSED_CITY = "D@(0,0)/0 E@(0,-1)/180"


@pytest.mark.rule("CAR-BASE-TURN-03")
def test_unplaceable_tile_is_removed_and_same_player_draws_again() -> None:
    """Board D@(0,0)/0, E@(0,-1)/180; pile [C, U, …]. Red draws C, which fits nowhere → C is
    removed from the game; Red draws U and must place it. The pile shrank by 2."""
    pile = ["C", "U", "U", "U"]
    state = build(BOARD_CLOSED_CITY, pile=pile, turn_player=RED)
    view = state.view(None)
    assert (state.current_player, state.tile, view["phase"]) == (RED, "U", "place_tile")
    assert view["draw_pile_size"] == len(pile) - 2
    assert view["discarded"] == ["C"]
    assert "C" not in view["remaining_tiles"]
    assert "C" not in {t["tile"] for t in view["board"]}
    assert place_options(state)  # U must be placed: only placements are offered


@pytest.mark.rule("CAR-BASE-TURN-03")
def test_unplaceable_tile_drawn_at_turn_change() -> None:
    """Same rule reached by play: Yellow's turn ends, Red draws C (unplaceable) then U."""
    state = build(FX_START, pile=["E", "C", "U", "U"], turn_player=YELLOW)
    play_turn(state, Place(0, -1, 180))
    view = state.view(None)
    assert (state.current_player, state.tile) == (RED, "U")
    assert view["discarded"] == ["C"]
    assert view["draw_pile_size"] == 1
    assert "C" not in {t["tile"] for t in view["board"]}


@pytest.mark.rule("CAR-BASE-TURN-03")
def test_several_unplaceable_tiles_in_a_row_are_all_removed() -> None:
    """Removal repeats until a placeable tile comes up (C, C, C all discarded, in order)."""
    state = build(BOARD_CLOSED_CITY, pile=["C", "C", "C", "B", "U"], turn_player=BLUE)
    view = state.view(None)
    assert (state.current_player, state.tile) == (BLUE, "B")
    assert view["discarded"] == ["C", "C", "C"]
    assert view["draw_pile_size"] == 1


@pytest.mark.rule("CAR-BASE-TURN-03")
def test_placeable_tile_is_not_discarded() -> None:
    """Contrast: on FX-START the city is open, so C fits at (0,-1) and is kept for Red."""
    state = build(FX_START, pile=["C", "U"], turn_player=RED)
    assert (state.tile, state.discarded) == ("C", [])
    assert place_options(state) == {(0, -1, 0)}


@pytest.mark.rule("CAR-BASE-TURN-03", "CAR-BASE-END-01")
def test_pile_ending_with_unplaceable_tiles_ends_the_game() -> None:
    """Red places U with a highwayman; the rest of the pile (C, C) is unplaceable → both are
    removed, the pile is empty and the game ends with final scoring (road of 2 tiles: Red +2)."""
    state = build(BOARD_CLOSED_CITY, pile=["U", "C", "C"], turn_player=RED)
    play_turn(state, Place(1, 0, 0), Deploy(1, 0, "E.W"))
    view = state.view(None)
    assert state.is_terminal
    assert view["phase"] == "game_over"
    assert state.current_player == -1
    assert view["discarded"] == ["C", "C"]
    assert view["draw_pile_size"] == 0
    assert state.scores == [2, 0, 0]
    assert view["supply"] == [{"follower": 7}] * 3
    assert state.legal_actions() == []
    with pytest.raises(bw.GameOverError):
        state.apply(Pass())


@pytest.mark.rule("CAR-BASE-TURN-03")
def test_only_unplaceable_tiles_left_ends_the_game_at_once() -> None:
    """A pile holding only unplaceable tiles ends the game before anyone moves."""
    state = build(BOARD_CLOSED_CITY, pile=["C"], turn_player=RED)
    assert state.is_terminal
    assert state.discarded == ["C"]
    assert state.scores == [0, 0, 0]
