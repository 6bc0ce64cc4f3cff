"""Rule tests for fields and farmers: CAR-BASE-FIELD-01 .. CAR-BASE-FIELD-05.

The scenarios of section 4.7 of the catalogue are played on FX-START / FX-FIELD: the farmers are
deployed in the turn their tile is placed, and the game ends by letting the draw pile run out,
so final farmer scoring is reached through the real turn flow. The `farmers = false` option is
checked under CAR-BASE-FIELD-03.
"""

from __future__ import annotations

from typing import Any, Sequence

import pytest
from fixtures import FX_FIELD, FX_START
from helpers import feature_root, turn

import boardwright as bw
from boardwright.games.carcassonne import Deploy, Pass, Place
from boardwright.games.carcassonne.scenario import build
from boardwright.games.carcassonne.state import CarcassonneState

RED, BLUE, YELLOW = 0, 1, 2
NO_FARMERS = {"farmers": False}

# Field locations in board orientation.
U_NORTH = "EL.NL.NR.WR"          # U@(.,.)/0, field touching N
U_SOUTH = "ER.SL.SR.WL"          # U@(.,.)/0, field touching S
V_LARGE = "EL.ER.NL.NR.SL.WR"    # V@(.,.)/0, the large field (touches N)
E180_FIELD = "EL.ER.NL.NR.WL.WR"  # E@(.,.)/180, its only field
D_NORTH = "EL.WR"                # D@(0,0)/0, the strip between city and road


# -- helpers ----------------------------------------------------------------------------------

def field_events(state: CarcassonneState) -> list[tuple[int, list[int]]]:
    """(points, winners) of every field scoring in the log."""
    return [(e["points"], e["players"]) for e in state.log if e["feature"] == "field"]


def fx_field_by_play(red_farmer: str | None, blue_farmer: str | None = None,
                     extra: Sequence[str] = (), options: dict[str, Any] | None = None,
                     ) -> CarcassonneState:
    """Build FX-FIELD through play from FX-START: Red U@(1,0)/0 (farmer at `red_farmer`),
    Blue E@(0,-1)/180 (farmer at `blue_farmer`). The pile holds those two tiles plus `extra`,
    so with no extra tiles the game ends after Blue's turn."""
    state = build(FX_START, pile=["U", "E", *extra], options=options)
    turn(state, 1, 0, 0, red_farmer)
    turn(state, 0, -1, 180, blue_farmer)
    return state


# -- CAR-BASE-FIELD-01 ------------------------------------------------------------------------

def v_then_u() -> CarcassonneState:
    """FX-START, Red V@(1,0)/0 with a farmer on its field touching N; Blue has placed U@(-1,0)/0
    and is now in the figure step."""
    state = build(FX_START, pile=["V", "U", "U"])
    turn(state, 1, 0, 0, V_LARGE)
    state.apply(Place(-1, 0, 0))
    return state


@pytest.mark.rule("CAR-BASE-FIELD-01")
def test_field_joined_through_d_to_an_occupied_field_refuses_a_farmer() -> None:
    """U's north field joins D's {EL,WR} and through it V's large field (Red's farmer)."""
    state = v_then_u()
    assert feature_root(state, -1, 0, U_NORTH) == feature_root(state, 1, 0, V_LARGE)
    before = state.signature()
    with pytest.raises(bw.IllegalActionError):
        state.apply(Deploy(-1, 0, U_NORTH))
    assert state.signature() == before


@pytest.mark.rule("CAR-BASE-FIELD-01")
def test_field_on_the_other_side_of_the_road_is_separate_and_free() -> None:
    """U's south field = D's south field + V's small {SR,WL} field: unoccupied, so legal.

    The offered deploys are exactly: pass, the road (unoccupied) and this south field.
    """
    state = v_then_u()
    assert feature_root(state, -1, 0, U_SOUTH) == feature_root(state, 1, 0, "SR.WL")
    assert feature_root(state, -1, 0, U_SOUTH) != feature_root(state, 1, 0, V_LARGE)
    assert set(state.legal_actions()) == {Pass(), Deploy(-1, 0, "E.W"), Deploy(-1, 0, U_SOUTH)}
    state.apply(Deploy(-1, 0, U_SOUTH))
    assert sorted((f["player"], f["x"], f["location"]) for f in state.view(None)["followers"]) == [
        (RED, 1, V_LARGE), (BLUE, -1, U_SOUTH)]


# -- CAR-BASE-FIELD-02 ------------------------------------------------------------------------

@pytest.mark.rule("CAR-BASE-FIELD-02")
def test_field_on_a_city_tile_but_not_linked_to_the_city_scores_nothing() -> None:
    """Red's farmer in FS (placed with U@(1,0)); E@(0,-1)/180 completes CE and ends the game.

    FS shares tile (0,0) with the completed city CE but borders no city: Red +0.
    """
    state = fx_field_by_play(red_farmer=U_SOUTH)
    assert state.is_terminal
    assert state.scores == [0, 0, 0]
    assert field_events(state) == [(0, [RED])]


@pytest.mark.rule("CAR-BASE-FIELD-02")
def test_bordered_incomplete_city_never_scores_for_farmers() -> None:
    """Built directly: Red's farmer on D's north strip, which borders D's city; that city is
    still open when the game ends, so the farmer earns 0."""
    state = build(FX_START, followers=[(RED, 0, 0, D_NORTH)], pile=[])
    assert state.is_terminal
    assert state.scores == [0, 0, 0]
    assert field_events(state) == [(0, [RED])]


# -- CAR-BASE-FIELD-03 ------------------------------------------------------------------------

@pytest.mark.rule("CAR-BASE-FIELD-03")
def test_farmer_gets_three_per_completed_bordered_city() -> None:
    """Red's farmer in FA (placed with U@(1,0)); FA borders the completed city CE: Red +3."""
    state = fx_field_by_play(red_farmer=U_NORTH)
    assert state.is_terminal
    assert state.scores == [3, 0, 0]
    assert field_events(state) == [(3, [RED])]
    assert [s["follower"] for s in state.view(None)["supply"]] == [7, 7, 7]


@pytest.mark.rule("CAR-BASE-FIELD-03")
def test_farmer_stays_during_play_and_is_only_scored_at_the_end() -> None:
    """While the game runs the completed CE gives the farmer nothing; only final scoring does."""
    state = fx_field_by_play(red_farmer=U_NORTH, extra=["U"])
    assert not state.is_terminal
    assert state.scores == [0, 0, 0]
    assert [(f["player"], f["role"]) for f in state.view(None)["followers"]] == [(RED, "farmer")]
    assert turn(state, -1, 0, 0) == [3, 0, 0]  # Yellow plays the last tile: final scoring
    assert state.is_terminal


@pytest.mark.rule("CAR-BASE-FIELD-03")
def test_no_farmers_option_offers_no_field_deploys() -> None:
    """`farmers = false`: after U@(1,0)/0 only the road (and pass) are offered; a field deploy
    is rejected and leaves the state unchanged."""
    state = build(FX_START, pile=["U", "E"], options=NO_FARMERS)
    state.apply(Place(1, 0, 0))
    assert set(state.legal_actions()) == {Pass(), Deploy(1, 0, "E.W")}
    before = state.signature()
    for location in (U_NORTH, U_SOUTH):
        with pytest.raises(bw.IllegalActionError):
            state.apply(Deploy(1, 0, location))
    assert state.signature() == before


@pytest.mark.rule("CAR-BASE-FIELD-03")
def test_no_farmers_option_scores_no_field_in_play() -> None:
    """`farmers = false`, FX-FIELD played out with everyone passing: no field entry in the log,
    no points, although the field FA borders the completed city CE."""
    state = fx_field_by_play(red_farmer=None, options=NO_FARMERS)
    assert state.is_terminal
    assert state.scores == [0, 0, 0]
    assert state.log == []


@pytest.mark.rule("CAR-BASE-FIELD-03")
def test_no_farmers_option_never_scores_a_field() -> None:
    """`farmers = false` switches section 4.7 off: fields score nothing at the end (docs/rules
    Options table). A farmer can only appear through a built position; the engine must then
    either refuse to build it or score the field 0 — never 3."""
    try:
        state = build(FX_FIELD, followers=[(RED, 1, 0, U_NORTH)], pile=[], options=NO_FARMERS)
    except (bw.IllegalActionError, bw.InvalidOptionError):
        return  # refusing the impossible position is an acceptable answer
    assert state.is_terminal
    assert state.scores == [0, 0, 0]


# -- CAR-BASE-FIELD-04 ------------------------------------------------------------------------

@pytest.mark.rule("CAR-BASE-FIELD-04")
def test_city_scores_again_for_each_separate_field_bordering_it() -> None:
    """Red's farmer in FA (with U@(1,0)), Blue's in FB (with E@(0,-1)); both border CE and are
    separate fields -> Red +3 and Blue +3."""
    state = fx_field_by_play(red_farmer=U_NORTH, blue_farmer=E180_FIELD)
    assert state.is_terminal
    assert feature_root(state, 1, 0, U_NORTH) != feature_root(state, 0, -1, E180_FIELD)
    assert state.scores == [3, 3, 0]
    assert sorted(field_events(state)) == [(3, [RED]), (3, [BLUE])]


# -- CAR-BASE-FIELD-05 ------------------------------------------------------------------------

@pytest.mark.rule("CAR-BASE-FIELD-05")
def test_merged_field_counts_a_city_once_and_ties_share() -> None:
    """FIELD-04's position, then Yellow's B@(1,-1)/0 (the last tile) merges FA and FB.

    The merged field touches CE on two tiles but counts it once: 3 points, tie 1-1 -> 3 each.
    """
    state = fx_field_by_play(red_farmer=U_NORTH, blue_farmer=E180_FIELD, extra=["B"])
    state.apply(Place(1, -1, 0))
    assert feature_root(state, 1, 0, U_NORTH) == feature_root(state, 0, -1, E180_FIELD)
    state.apply(Pass())
    assert state.is_terminal
    assert state.scores == [3, 3, 0]
    assert field_events(state) == [(3, [RED, BLUE])]


@pytest.mark.rule("CAR-BASE-FIELD-05")
def test_more_farmers_in_one_field_take_it_all() -> None:
    """Built directly: merged FX-FIELD field with 2 Red farmers and 1 Blue farmer, bordering the
    completed city CE -> Red +3, Blue +0."""
    state = build(FX_FIELD + " B@(1,-1)/0",
                  followers=[(RED, 0, 0, D_NORTH), (RED, 1, 0, U_NORTH), (BLUE, 0, -1, E180_FIELD)],
                  pile=[])
    assert state.is_terminal
    assert state.scores == [3, 0, 0]
    assert field_events(state) == [(3, [RED])]
    assert [s["follower"] for s in state.view(None)["supply"]] == [7, 7, 7]
