"""Rule tests for the end of the game: CAR-BASE-END-01 .. CAR-BASE-END-05.

"The game ends" is produced the way the engine defines it: the draw pile runs out, so the turn
in which its last tile is placed (or discarded) is followed by final scoring and no more turns.
Each test checks the exact final score deltas of its catalogue scenario (section 4.6).
"""

from __future__ import annotations

import pytest
from fixtures import FX_EAST, FX_RING, FX_START
from helpers import edited, events, turn

import boardwright as bw
from boardwright.games.carcassonne import Pass, Place
from boardwright.games.carcassonne.scenario import build
from boardwright.games.carcassonne.state import CarcassonneState

RED, BLUE, YELLOW = 0, 1, 2


# -- helpers ----------------------------------------------------------------------------------

def assert_over(state: CarcassonneState) -> None:
    """A finished game: no player to move, no actions, and apply refuses everything."""
    view = state.view(None)
    assert state.is_terminal
    assert view["phase"] == "game_over"
    assert state.current_player == -1
    assert state.legal_actions() == []
    assert view["draw_pile_size"] == 0
    with pytest.raises(bw.GameOverError):
        state.apply(Place(-1, 0, 0))
    with pytest.raises(bw.GameOverError):
        state.apply(Pass())


# -- CAR-BASE-END-01 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-BASE-END-01")
def test_game_ends_after_the_turn_that_places_the_last_tile() -> None:
    """The pile holds only U: after Red's turn the game is over and Blue never gets a turn."""
    state = build(FX_START, pile=["U"])
    assert state.current_player == RED and state.view(None)["draw_pile_size"] == 0
    state.apply(Place(1, 0, 0))
    assert not state.is_terminal  # Red still has the figure step of this last turn
    assert state.current_player == RED
    state.apply(Pass())
    assert_over(state)
    assert [type(a).__name__ for a in state.history] == ["Place", "Pass"]


@pytest.mark.rule("CAR-BASE-END-01")
def test_game_ends_when_the_last_tile_is_discarded_as_unplaceable() -> None:
    """After Red's U the pile's last tile C fits nowhere: it is removed and the game ends."""
    state = build("D@(0,0)/0 E@(0,-1)/180", pile=["U", "C"])
    turn(state, 1, 0, 0)
    assert_over(state)
    assert state.view(None)["discarded"] == ["C"]
    assert len(state.graph.board) == 3


@pytest.mark.rule("CAR-BASE-END-01")
def test_final_scoring_runs_when_the_game_ends() -> None:
    """Red's follower on an incomplete road is scored by final scoring and returns to supply."""
    state = build(FX_START, pile=["U"])
    turn(state, 1, 0, 0, "E.W")
    assert_over(state)
    assert events(state) == [("road", False, 2, [RED])]
    assert state.view(None)["followers"] == []
    assert [s["follower"] for s in state.view(None)["supply"]] == [7, 7, 7]


@pytest.mark.rule("CAR-BASE-END-01")
def test_empty_pile_at_set_up_ends_at_once() -> None:
    """With nothing left to draw, no turn is played: the built position goes straight to final
    scoring (Red's highwayman on D's road: 1 tile = 1 point)."""
    state = build(FX_START, followers=[(RED, 0, 0, "E.W")], pile=[])
    assert_over(state)
    assert state.scores == [1, 0, 0]


# -- CAR-BASE-END-02 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-BASE-END-02")
def test_incomplete_road_scores_one_per_tile_at_the_end() -> None:
    """Red placed U@(1,0)/0 with a highwayman; the game ends -> road of 2 tiles: Red +2."""
    state = build(FX_START, pile=["U"])
    assert turn(state, 1, 0, 0, "E.W") == [2, 0, 0]
    assert state.is_terminal
    assert events(state) == [("road", False, 2, [RED])]


@pytest.mark.rule("CAR-BASE-END-02")
def test_incomplete_road_at_the_end_goes_to_the_majority() -> None:
    """Majority applies at the end too: Red 2 highwaymen vs Blue 1 on the 2-tile road -> Red +2."""
    state = build("D@(0,0)/0 U@(1,0)/0 U@(-1,0)/0 U@(2,0)/0",
                  followers=[(RED, -1, 0, "E.W"), (RED, 2, 0, "E.W"), (BLUE, 1, 0, "E.W")],
                  pile=[])
    assert state.scores == [4, 0, 0]
    assert events(state) == [("road", False, 4, [RED])]


# -- CAR-BASE-END-03 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-BASE-END-03")
def test_incomplete_city_scores_one_per_tile_and_pennant_at_the_end() -> None:
    """Red placed F@(0,-1)/90 with a knight; the game ends -> 2 tiles + 1 pennant: Red +3."""
    state = build(FX_START, pile=["F"])
    assert turn(state, 0, -1, 90, "N.S") == [3, 0, 0]
    assert state.is_terminal
    assert events(state) == [("city", False, 3, [RED])]


# -- CAR-BASE-END-04 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-BASE-END-04")
def test_incomplete_monastery_scores_one_plus_surrounding_tiles_at_the_end() -> None:
    """FX-RING without E@(1,2)/90; Red B@(0,1)/0 with a monk; game ends -> 1 + 7 = Red +8."""
    ring_minus_one = FX_RING.replace(" E@(1,2)/90", "")
    assert ring_minus_one != FX_RING
    state = build(ring_minus_one, pile=["B"])
    assert turn(state, 0, 1, 0, "MONASTERY") == [8, 0, 0]
    assert state.is_terminal
    assert events(state) == [("monastery", False, 8, [RED])]


# -- CAR-BASE-END-05 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-BASE-END-05")
def test_players_sharing_the_top_score_share_the_victory() -> None:
    """Final scores Red 50, Blue 50, Yellow 41 -> winners Red and Blue.

    Built directly: the scores before the last turn are set on the state (no public setter
    exists), then Red plays the last tile without scoring anything.
    """
    state = edited(build(FX_START, pile=["U"]),
                   lambda python: setattr(python, "_scores", [50, 50, 41]))
    assert state.view(None)["winners"] == []  # nobody has won while the game runs
    assert turn(state, 1, 0, 0) == [0, 0, 0]
    assert state.is_terminal
    assert state.scores == [50, 50, 41]
    assert state.view(None)["winners"] == [RED, BLUE]
    assert state.returns() == [0.5, 0.5, -1.0]


@pytest.mark.rule("CAR-BASE-END-05")
def test_tie_for_the_lead_reached_by_play_is_shared() -> None:
    """Same rule reached through real scoring: Yellow's G is the last tile and ties Red and
    Blue on the FX-EAST city (6 each) -> winners Red and Blue, Yellow last."""
    state = build(FX_EAST, followers=[(RED, 1, -1, "E"), (BLUE, 3, -1, "W")],
                  pile=["G"], turn_player=YELLOW)
    turn(state, 2, -1, 0)
    assert state.is_terminal
    assert state.scores == [6, 6, 0]
    assert state.view(None)["winners"] == [RED, BLUE]
    assert state.returns() == [0.5, 0.5, -1.0]


@pytest.mark.rule("CAR-BASE-END-05")
def test_single_highest_score_wins_alone() -> None:
    """Control for the tie: with a strict leader only that player is a winner."""
    state = build(FX_START, pile=["U"])
    turn(state, 1, 0, 0, "E.W")
    assert state.scores == [2, 0, 0]
    assert state.view(None)["winners"] == [RED]
    assert state.returns() == [1.0, -0.5, -0.5]
