"""Rule tests for the mayor of Abbey & Mayor: CAR-AM-MAYOR-01 .. CAR-AM-MAYOR-11 and
CAR-AM-MAYOR-50 (mayor and wagon of one player add up).

Each test replays the `test:` scenario of its rule in the rule catalogue (sections 4.10 and
4.14) on the board fixtures of section 2.8. Where the scenario says who placed a tile with which
figure, the turns are played through `apply`, so the real figure step and scoring step are what
get tested; positions "built directly" use `scenario.build`. Outcomes are checked exactly:
score deltas per seat, the figures offered, rejections with the state unchanged, and the
supply each figure returns to.
"""

from __future__ import annotations

from typing import Any

import pytest
from fixtures import FX_EAST, FX_MAYOR2, FX_RING, FX_START
from helpers import assert_illegal

import boardwright as bw
from boardwright.games.carcassonne import Deploy, Draw, Pass, Place, PlaceAbbey
from boardwright.games.carcassonne.scenario import build
from boardwright.games.carcassonne.state import CarcassonneState

RED, BLUE, YELLOW = 0, 1, 2
AM = {"expansions": ["abbey_mayor"]}

# Locations in board orientation.
F90_CITY = "N.S"             # F@(.,.)/90: the pennant city band, turned to run N-S
E180_CITY = "S"              # E@(.,.)/180: the cap facing south
E90_CITY = "E"               # E@(.,.)/90: the cap facing east (FX-EAST (1,-1))
E270_CITY = "W"              # E@(.,.)/270: the cap facing west (FX-EAST (3,-1))
M180_CITY = "E.S"            # M@(0,-1)/180 in FX-MAYOR2
K_CITY = "N"                 # K@(1,0)/0 in FX-MAYOR2
BAND_CITY = "E.W"            # F or G at rotation 0
U_ROAD = "E.W"               # U@(.,.)/0
U_NORTH = "EL.NL.NR.WR"      # U@(.,.)/0, field touching N
U_SOUTH = "ER.SL.SR.WL"      # U@(.,.)/0, field touching S
MONASTERY = "MONASTERY"


# -- helpers ----------------------------------------------------------------------------------

def am_build(tiles: str, pile: list[str], options: dict[str, Any] | None = None,
             **kwargs: Any) -> CarcassonneState:
    """A position built directly with Abbey & Mayor switched on (extra options merged in)."""
    return build(tiles, pile=pile, options={**AM, **(options or {})}, **kwargs)


def play(state: CarcassonneState, x: int, y: int, rotation: int, location: str | None = None,
         figure: str = "follower") -> list[int]:
    """One whole turn of the current player: place the drawn tile, then put `figure` on
    `location` (None passes). Returns the score change per seat."""
    before = state.scores
    state.apply(Place(x, y, rotation))
    state.apply(Pass() if location is None else Deploy(x, y, location, figure))
    return [after - was for after, was in zip(state.scores, before)]


def in_supply(state: CarcassonneState, seat: int, figure: str) -> int:
    """How many pieces of one kind a seat holds, read from the public view."""
    return state.view(None)["supply"][seat][figure]


def on_board(state: CarcassonneState) -> list[tuple[int, int, int, str, str]]:
    """(seat, x, y, location, figure) of every figure on the board, from the public view."""
    return sorted((f["player"], f["x"], f["y"], f["location"], f["figure"])
                  for f in state.view(None)["followers"])


def offered_figures(state: CarcassonneState, figure: str) -> set[tuple[int, int, str]]:
    """(x, y, location) of every placement of `figure` offered in the figure step."""
    return {(a.x, a.y, a.location) for a in state.legal_actions()
            if isinstance(a, Deploy) and a.figure == figure}


def fx_east(red_mayor: bool = True, blue_knight: bool = True, blue_mayor: bool = False,
            pile: tuple[str, ...] = ("G", "U", "U"), east_city: bool = True,
            ) -> CarcassonneState:
    """FX-EAST built directly, Red's mayor on the city of (1,-1) and Blue's knight (or mayor)
    on the city of (3,-1); then Red's turn, drawing the first tile of `pile`."""
    tiles = FX_EAST if east_city else FX_EAST.replace(" E@(3,-1)/270", "")
    figures: list[Any] = []
    if red_mayor:
        figures.append((RED, 1, -1, E90_CITY, "mayor"))
    if blue_knight:
        figures.append((BLUE, 3, -1, E270_CITY))
    if blue_mayor:
        figures.append((BLUE, 3, -1, E270_CITY, "mayor"))
    return am_build(tiles, list(pile), followers=figures)


def mayor2_by_play(options: dict[str, Any] | None = None) -> CarcassonneState:
    """FX-MAYOR2 reached by play from FX-START: Red M@(0,-1)/180 with the mayor on its city,
    Blue K@(1,0)/0 with a knight on its (separate) city; Yellow has drawn the closing M."""
    state = am_build(FX_START, ["M", "K", "M", "U"], options)
    assert play(state, 0, -1, 180, M180_CITY, "mayor") == [0, 0, 0]
    assert play(state, 1, 0, 0, K_CITY) == [0, 0, 0]
    assert state.current_player == YELLOW and state.tile == "M"
    return state


# -- CAR-AM-MAYOR-01 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-MAYOR-01")
def test_mayor_occupies_its_city_and_scores_it_like_a_follower() -> None:
    """Red's mayor on F's pennant city keeps Blue's knight out; the closing tile scores the
    city for Red (strength 1 from the one pennant) and the mayor goes home."""
    state = am_build(FX_START, ["F", "E", "U", "U"])
    state.apply(Place(0, -1, 90))
    assert (0, -1, F90_CITY) in offered_figures(state, "mayor")
    state.apply(Deploy(0, -1, F90_CITY, "mayor"))
    assert on_board(state) == [(RED, 0, -1, F90_CITY, "mayor")]
    assert in_supply(state, RED, "mayor") == 0
    assert in_supply(state, RED, "follower") == 7  # the mayor is not taken from the followers

    assert state.current_player == BLUE
    state.apply(Place(0, -2, 180))
    # E's city is occupied by the mayor; only E's field is left for a follower.
    assert offered_figures(state, "follower") == {(0, -2, "EL.ER.NL.NR.WL.WR")}
    assert_illegal(state, Deploy(0, -2, E180_CITY))
    assert_illegal(state, Deploy(0, -2, E180_CITY, "mayor"))
    before = state.scores
    state.apply(Pass())
    assert [a - b for a, b in zip(state.scores, before)] == [8, 0, 0]
    assert on_board(state) == []
    assert in_supply(state, RED, "mayor") == 1


@pytest.mark.rule("CAR-AM-MAYOR-01")
def test_mayor_cannot_join_a_city_already_occupied() -> None:
    """The normal placement rule holds for the mayor: Blue's knight on D's city already
    occupies the city that Red's E@(0,-1)/180 joins, so Red's mayor is refused there."""
    state = am_build(FX_START, ["E", "U"], followers=[(BLUE, 0, 0, "N")])
    state.apply(Place(0, -1, 180))
    assert offered_figures(state, "mayor") == set()
    assert_illegal(state, Deploy(0, -1, E180_CITY, "mayor"))


@pytest.mark.rule("CAR-AM-MAYOR-01")
def test_one_mayor_per_player_only_while_in_supply() -> None:
    """Each player has one mayor: once it stands on the board no second mayor is offered."""
    state = am_build(FX_START, ["F", "U", "U", "E"])
    assert play(state, 0, -1, 90, F90_CITY, "mayor") == [0, 0, 0]
    play(state, 1, 0, 0)
    play(state, 2, 0, 0)
    assert state.current_player == RED and state.tile == "E"
    state.apply(Place(1, -1, 90))  # a separate one-tile city facing (2,-1)
    assert offered_figures(state, "mayor") == set()
    assert_illegal(state, Deploy(1, -1, E90_CITY, "mayor"))


# -- CAR-AM-MAYOR-02 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-MAYOR-02")
def test_mayor_refused_on_road_and_fields() -> None:
    """U@(1,0)/0 has a road and two fields but no city: no mayor placement at all."""
    state = am_build(FX_START, ["U", "U"])
    state.apply(Place(1, 0, 0))
    assert offered_figures(state, "mayor") == set()
    for location in (U_ROAD, U_NORTH, U_SOUTH):
        assert_illegal(state, Deploy(1, 0, location, "mayor"))


@pytest.mark.rule("CAR-AM-MAYOR-02")
def test_mayor_accepted_on_a_city_part() -> None:
    """E@(0,-1)/180 instead: its city is the only place offered for the mayor, and taking it
    is accepted (the city closes at once; MAYOR-09 covers that scoring)."""
    state = am_build(FX_START, ["E", "U"])
    state.apply(Place(0, -1, 180))
    assert offered_figures(state, "mayor") == {(0, -1, E180_CITY)}
    state.apply(Deploy(0, -1, E180_CITY, "mayor"))
    assert state.current_player == BLUE
    assert state.history[-1] == Deploy(0, -1, E180_CITY, "mayor")


@pytest.mark.rule("CAR-AM-MAYOR-02")
def test_mayor_refused_on_a_monastery() -> None:
    """A monk's place is not a city: B@(0,1)/0's monastery takes a follower or the wagon,
    never the mayor."""
    state = am_build(FX_START, ["B", "U"])
    state.apply(Place(0, 1, 0))
    assert offered_figures(state, "mayor") == set()
    assert (0, 1, MONASTERY) in offered_figures(state, "follower")
    assert_illegal(state, Deploy(0, 1, MONASTERY, "mayor"))


@pytest.mark.rule("CAR-AM-MAYOR-02")
def test_mayor_refused_on_an_abbey() -> None:
    """FX-RING: Red plays her abbey into (0,1); the mayor may not stand on it."""
    state = am_build(FX_RING, ["U", "U"])
    state.apply(PlaceAbbey(0, 1))
    assert offered_figures(state, "mayor") == set()
    assert offered_figures(state, "follower") == {(0, 1, MONASTERY)}
    assert_illegal(state, Deploy(0, 1, MONASTERY, "mayor"))


# -- CAR-AM-MAYOR-03 / 06 ---------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-MAYOR-03")
def test_mayor_strength_counts_pennants_added_by_later_merges() -> None:
    """Red's mayor came with one pennant; the closing M brings the second. At scoring Red has
    strength 2 against Blue's 1, so Red alone takes the 12 points (a strength frozen at
    placement would have tied 1-1)."""
    state = mayor2_by_play()
    assert play(state, 1, -1, 270) == [12, 0, 0]
    assert on_board(state) == []
    assert in_supply(state, RED, "mayor") == 1 and in_supply(state, BLUE, "follower") == 7


@pytest.mark.rule("CAR-AM-MAYOR-03")
def test_mayor_strength_on_the_built_fixture() -> None:
    """The same scenario on FX-MAYOR2 built directly (mayor and knight already standing)."""
    state = am_build(FX_MAYOR2, ["M", "U"], turn_player=YELLOW,
                     followers=[(RED, 0, -1, M180_CITY, "mayor"), (BLUE, 1, 0, K_CITY)])
    assert play(state, 1, -1, 270) == [12, 0, 0]


@pytest.mark.rule("CAR-AM-MAYOR-03")
def test_mayor_with_one_pennant_ties_one_knight() -> None:
    """Before the merge the pennant count is 1: a 1-pennant city with a mayor and a knight is a
    1-1 tie. FX-EAST closed by F@(2,-1)/0 (one pennant): both score."""
    state = fx_east(pile=("F", "U"))
    assert play(state, 2, -1, 0) == [8, 8, 0]


@pytest.mark.rule("CAR-AM-MAYOR-06")
def test_mayor_of_strength_two_gets_the_plain_city_value() -> None:
    """4 tiles x 2 + 2 pennants x 2 = 12, exactly: strength 2 wins, it does not multiply."""
    state = mayor2_by_play()
    before = len(state.log)
    assert play(state, 1, -1, 270) == [12, 0, 0]
    new = state.log[before:]
    assert [(e["feature"], e["complete"], e["points"], e["players"]) for e in new] == [
        ("city", True, 12, [RED])]


@pytest.mark.rule("CAR-AM-MAYOR-06")
def test_mayor_city_at_the_end_is_worth_one_per_tile_and_pennant() -> None:
    """At final scoring the same city (still open) is worth 1 per tile and 1 per pennant:
    FX-START + F@(0,-1)/90 = 2 tiles + 1 pennant = 3, not more for the mayor."""
    state = am_build(FX_START, ["F"])
    assert play(state, 0, -1, 90, F90_CITY, "mayor") == [3, 0, 0]
    assert state.is_terminal


# -- CAR-AM-MAYOR-04 / 07 ---------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-MAYOR-04")
def test_mayor_in_a_city_without_pennant_has_strength_zero() -> None:
    """G@(2,-1)/0 closes a 3-tile city with no pennant: Red's mayor 0, Blue's knight 1."""
    state = fx_east()
    assert play(state, 2, -1, 0) == [0, 6, 0]
    assert [(e["feature"], e["points"], e["players"]) for e in state.log] == [
        ("city", 6, [BLUE])]


@pytest.mark.rule("CAR-AM-MAYOR-07")
def test_mayor_returns_even_when_its_owner_scored_nothing() -> None:
    """After the MAYOR-04 scoring Red's mayor (0 points) and Blue's knight are both home."""
    state = fx_east()
    assert in_supply(state, RED, "mayor") == 0
    play(state, 2, -1, 0)
    assert on_board(state) == []
    assert in_supply(state, RED, "mayor") == 1
    assert in_supply(state, BLUE, "follower") == 7


@pytest.mark.rule("CAR-AM-MAYOR-07")
def test_returned_mayor_can_be_placed_again() -> None:
    """Back in supply means usable: in Red's next turn the mayor is offered again, on the
    city of E@(0,-1)/180 (which joins D's city)."""
    state = fx_east(pile=("G", "U", "U", "E", "U"))
    play(state, 2, -1, 0)
    play(state, 4, 0, 0)
    play(state, -1, 0, 0)
    assert state.current_player == RED and state.tile == "E"
    state.apply(Place(0, -1, 180))
    assert offered_figures(state, "mayor") == {(0, -1, E180_CITY)}


# -- CAR-AM-MAYOR-05 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-MAYOR-05")
def test_mayor_and_knight_tie_and_both_score_in_full() -> None:
    """F@(2,-1)/0: 3 tiles + 1 pennant = 8; Red's mayor (strength 1) ties Blue's knight."""
    state = fx_east(pile=("F", "U"))
    assert play(state, 2, -1, 0) == [8, 8, 0]
    assert [(e["feature"], e["points"], e["players"]) for e in state.log] == [
        ("city", 8, [RED, BLUE])]


@pytest.mark.rule("CAR-AM-MAYOR-05")
def test_two_knights_beat_a_mayor_of_strength_one() -> None:
    """Totals decide: FX-EAST + B@(1,-2)/0 + E@(2,-2)/180 with Blue's knights on (3,-1) and
    (2,-2) and Red's mayor on (1,-1); Red closes all three with Q@(2,-1)/0 (4 tiles + 1
    pennant = 10). Blue 2 beats Red's mayor of strength 1."""
    state = am_build(FX_EAST + " B@(1,-2)/0 E@(2,-2)/180", ["Q", "U"], followers=[
        (RED, 1, -1, E90_CITY, "mayor"), (BLUE, 3, -1, E270_CITY), (BLUE, 2, -2, E180_CITY)],
        supply={RED: {"abbey": 0}})
    assert play(state, 2, -1, 0) == [0, 10, 0]


# -- CAR-AM-MAYOR-08 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-MAYOR-08")
def test_city_holding_only_a_zero_strength_mayor_is_occupied() -> None:
    """FX-EAST without E@(3,-1): Blue's G@(2,-1)/0 extends Red's pennant-less city, whose
    only figure is Red's mayor (strength 0) -- no knight, mayor or wagon may join it."""
    state = fx_east(blue_knight=False, east_city=False, pile=("U", "G", "U"))
    play(state, 4, 0, 0)  # Red's turn passes harmlessly; Blue draws G
    assert state.current_player == BLUE and state.tile == "G"
    state.apply(Place(2, -1, 0))
    assert offered_figures(state, "follower") == {(2, -1, "NL.NR"), (2, -1, "SL.SR")}
    for figure in ("follower", "mayor", "wagon"):
        assert_illegal(state, Deploy(2, -1, BAND_CITY, figure))


# -- CAR-AM-MAYOR-09 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-MAYOR-09")
def test_lone_mayor_in_a_pennantless_city_scores_nothing() -> None:
    """FX-START, Red's E@(0,-1)/180 with the mayor closes a 2-tile city worth 4; Red's
    strength is 0, so nobody scores and the mayor returns."""
    state = am_build(FX_START, ["E", "U"])
    assert play(state, 0, -1, 180, E180_CITY, "mayor") == [0, 0, 0]
    assert all(e["players"] == [] for e in state.log)
    assert on_board(state) == []
    assert in_supply(state, RED, "mayor") == 1


@pytest.mark.rule("CAR-AM-MAYOR-09")
def test_two_mayors_at_strength_zero_nobody_scores() -> None:
    """A pennant-less city holding only Red's and Blue's mayors is completed: the best total
    is 0, so nobody receives the 6 points; both mayors return."""
    state = fx_east(blue_knight=False, blue_mayor=True)
    assert play(state, 2, -1, 0) == [0, 0, 0]
    assert all(e["players"] == [] for e in state.log)
    assert on_board(state) == []
    assert in_supply(state, RED, "mayor") == 1 and in_supply(state, BLUE, "mayor") == 1


# -- CAR-AM-MAYOR-10 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-MAYOR-10")
def test_mayor_at_final_scoring_counts_the_pennants_of_the_open_city() -> None:
    """F@(0,-1)/90 is the last tile: the open city is worth 2 + 1 = 3 and Red's mayor has
    strength 1, so Red +3 at final scoring."""
    state = am_build(FX_START, ["F"])
    state.apply(Place(0, -1, 90))
    state.apply(Deploy(0, -1, F90_CITY, "mayor"))
    assert state.is_terminal
    assert state.scores == [3, 0, 0]
    assert [(e["feature"], e["complete"], e["points"], e["players"]) for e in state.log] == [
        ("city", False, 3, [RED])]


@pytest.mark.rule("CAR-AM-MAYOR-10")
def test_mayor_at_final_scoring_without_pennant_scores_nothing() -> None:
    """The same with G@(0,-1)/90 (no pennant): the city is worth 2, Red's strength is 0."""
    state = am_build(FX_START, ["G"])
    state.apply(Place(0, -1, 90))
    state.apply(Deploy(0, -1, F90_CITY, "mayor"))
    assert state.is_terminal
    assert state.scores == [0, 0, 0]


@pytest.mark.rule("CAR-AM-MAYOR-10")
def test_knight_beats_a_pennantless_mayor_at_final_scoring() -> None:
    """At the end, too, a knight (1) beats a mayor in a city without pennant (0): FX-EAST
    without E@(3,-1), plus G@(2,-1)/0, built with an empty pile (the game is over). The open
    city of (1,-1) and (2,-1) is worth 2; Blue's knight wins it against Red's mayor."""
    state = am_build(FX_EAST.replace(" E@(3,-1)/270", "") + " G@(2,-1)/0", [],
                     followers=[(RED, 1, -1, E90_CITY, "mayor"), (BLUE, 2, -1, BAND_CITY)])
    assert state.is_terminal
    assert state.scores == [0, 2, 0]


# -- CAR-AM-MAYOR-11 --------------------------------------------------------------------------

def mayor3_run(lies_flat: bool) -> tuple[list[Any], list[dict[str, Any]], CarcassonneState]:
    """CAR-AM-MAYOR-03 played with the display option set; returns the legal actions seen at
    every decision, the public views after every action, and the final state."""
    state = am_build(FX_START, ["M", "K", "M", "U"], {"mayor_lies_flat": lies_flat})
    script = [Place(0, -1, 180), Deploy(0, -1, M180_CITY, "mayor"), Place(1, 0, 0),
              Deploy(1, 0, K_CITY), Place(1, -1, 270), Pass()]
    legal: list[Any] = []
    views: list[dict[str, Any]] = []
    for action in script:
        legal.append(state.legal_actions())
        state.apply(action)
        views.append(state.view(None))
    return legal, views, state


def without_lying(view: dict[str, Any]) -> dict[str, Any]:
    """The view with the mayor display flag removed from every figure."""
    out = dict(view)
    out["followers"] = [{k: v for k, v in f.items() if k != "lying"} for f in view["followers"]]
    return out


@pytest.mark.rule("CAR-AM-MAYOR-11")
def test_mayor_lies_flat_changes_only_the_display_flag() -> None:
    """Same legal moves, same positions and the same result (Red +12) with the option off and
    on; only the `lying` flag of the standing mayor differs."""
    legal_off, views_off, off = mayor3_run(False)
    legal_on, views_on, on = mayor3_run(True)
    assert legal_off == legal_on
    assert off.signature() == on.signature()
    assert off.scores == on.scores == [12, 0, 0]
    assert [without_lying(v) for v in views_off] == [without_lying(v) for v in views_on]
    mayor_off = [f for f in views_off[1]["followers"] if f["figure"] == "mayor"]
    mayor_on = [f for f in views_on[1]["followers"] if f["figure"] == "mayor"]
    assert [f["lying"] for f in mayor_off] == [False]
    assert [f["lying"] for f in mayor_on] == [True]


@pytest.mark.rule("CAR-AM-MAYOR-11")
def test_mayor_lies_flat_is_off_by_default_and_needs_the_expansion() -> None:
    """Default display: standing. Without Abbey & Mayor the option is refused."""
    state = am_build(FX_START, ["F", "U"])
    play(state, 0, -1, 90, F90_CITY, "mayor")
    assert [f["lying"] for f in state.view(None)["followers"]] == [False]
    with pytest.raises(bw.InvalidOptionError):
        bw.load("carcassonne", players=3, options={"mayor_lies_flat": True})


# -- CAR-AM-MAYOR-50 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-MAYOR-50")
def test_mayor_and_wagon_of_one_player_add_up() -> None:
    """Q@(2,-1)/0 joins the three cities: 4 tiles + 1 pennant = 10. Red's mayor (1) and wagon
    (1) make 2 against Blue's knight (1): Red +10, Blue +0. The mayor goes home and the wagon
    may move only to the monastery of (1,-2), the one target in range of (2,-2)."""
    state = am_build(FX_EAST, ["B", "E", "Q", "U"], turn_player=YELLOW,
                     followers=[(RED, 1, -1, E90_CITY, "mayor"), (BLUE, 3, -1, E270_CITY)])
    assert play(state, 1, -2, 0) == [0, 0, 0]
    assert play(state, 2, -2, 180, E180_CITY, "wagon") == [0, 0, 0]
    # (2,-1) is now a hole and Blue holds an abbey: Blue chooses to draw, and gets Q.
    assert state.current_player == BLUE and state.phase == "choose_tile"
    state.apply(Draw())
    assert state.tile == "Q"
    assert play(state, 2, -1, 0) == [10, 0, 0]
    assert in_supply(state, RED, "mayor") == 1
    assert in_supply(state, BLUE, "follower") == 7
    assert state.phase == "wagon_move" and state.current_player == RED
    assert set(state.legal_actions()) == {Pass(), Deploy(1, -2, MONASTERY, "wagon")}
    state.apply(Deploy(1, -2, MONASTERY, "wagon"))
    assert on_board(state) == [(RED, 1, -2, MONASTERY, "wagon")]
    assert state.phase == "place_tile" and state.current_player == YELLOW
