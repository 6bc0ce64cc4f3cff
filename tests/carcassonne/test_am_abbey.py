"""Rule tests for the abbey tile: CAR-AM-ABBEY-01 .. 14, 50 and 51.

The scenarios are built on the hole fixtures of the catalogue (FX-RING, FX-HOLE-CITY,
FX-ROAD-HOLE, FX-MON-HOLE) with the expansion on. The turn player starts in the "choose_tile"
phase when he or she holds an abbey and a hole exists; the abbey goes in with `PlaceAbbey`, the
figure step follows on the abbey. "The game ends" is reached through the real turn flow: the
pile holds one more landscape tile, placed where it changes nothing the test looks at.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from fixtures import FX_HOLE_CITY, FX_MON_HOLE, FX_RING, FX_ROAD_HOLE, FX_START
from helpers import assert_illegal, events, feature_root, place_options

import boardwright as bw
from boardwright.games.carcassonne import Deploy, Draw, Pass, Place, PlaceAbbey
from boardwright.games.carcassonne.scenario import build
from boardwright.games.carcassonne.state import CarcassonneState

RED, BLUE, YELLOW = 0, 1, 2
AM = {"expansions": ["abbey_mayor"]}
PILE10 = ["U"] * 10

# FX-RING plus a second hole at (2,1): (2,0) shows it a field, (1,1) a city, (3,1) and (2,2)
# fields. Two holes let a test look at a later turn that still has a hole to fill.
TWO_HOLES = FX_RING + " U@(2,0)/0 E@(2,2)/270 U@(3,0)/0 B@(3,1)/0"

# Locations in board orientation.
CI = "E"                       # city of I@(-1,1)/90 facing the hole (0,1)  (FX-HOLE-CITY)
FI = "SL.SR.WL.WR"             # field of I@(-1,1)/90                       (FX-HOLE-CITY)
B_FIELD = "EL.ER.NL.NR.SL.SR.WL.WR"  # field of a B tile
ROAD_WE = "E.W"                # road of D/0 or U/0
R2 = "W"                       # road of A@(3,0)/90                          (FX-ROAD-HOLE)


# -- helpers ----------------------------------------------------------------------------------

def am_build(tiles: str, followers: Sequence[Any] = (), pile: Sequence[str] = tuple(PILE10),
             turn_player: int = RED, **options: Any) -> CarcassonneState:
    """A built position with the expansion on (plus `options`)."""
    return build(tiles, followers=list(followers), pile=list(pile), turn_player=turn_player,
                 options={**AM, **options})


def delta(state: CarcassonneState, *actions: Any) -> list[int]:
    """Apply the actions in order; the score change per seat."""
    before = state.scores
    for action in actions:
        state.apply(action)
    return [after - was for after, was in zip(state.scores, before)]


def abbey_turn(state: CarcassonneState, x: int, y: int, figure: str | None = None) -> list[int]:
    """The current player plays the abbey into (x, y), with a figure on it or none."""
    deploy = Pass() if figure is None else Deploy(x, y, "MONASTERY", figure)
    return delta(state, PlaceAbbey(x, y), deploy)


def land_turn(state: CarcassonneState, x: int, y: int, rotation: int) -> list[int]:
    """The current player draws (choosing to draw if an abbey could be played) and places the
    tile without a figure; the score change per seat, final scoring included."""
    if state.phase == "choose_tile":
        state.apply(Draw())
    return delta(state, Place(x, y, rotation), Pass())


def is_empty(state: CarcassonneState, x: int, y: int) -> bool:
    return not any((t["x"], t["y"]) == (x, y) for t in state.view(None)["board"])


def abbey_choices(state: CarcassonneState) -> set[tuple[int, int]]:
    """Holes offered for the abbey now."""
    return {(a.x, a.y) for a in state.legal_actions() if isinstance(a, PlaceAbbey)}


def supply(state: CarcassonneState, seat: int, piece: str = "abbey") -> int:
    return state.view(None)["supply"][seat][piece]


def pile_size(state: CarcassonneState) -> int:
    return state.view(None)["draw_pile_size"]


def board_tile(state: CarcassonneState, x: int, y: int) -> dict[str, Any]:
    return next(t for t in state.view(None)["board"] if (t["x"], t["y"]) == (x, y))


# -- CAR-AM-ABBEY-01 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-ABBEY-01")
def test_three_players_hold_one_abbey_each() -> None:
    """3-player game: one abbey per seat, three in play; the other three of the box are in no
    supply and not in the pile."""
    state = bw.load("carcassonne", players=3, options=dict(AM)).new_game(5)
    view = state.view(None)
    assert [s["abbey"] for s in view["supply"]] == [1, 1, 1]
    assert sum(s["abbey"] for s in view["supply"]) == 3
    assert "ABBEY" not in view["remaining_tiles"] and view["tile"] != "ABBEY"


@pytest.mark.rule("CAR-AM-ABBEY-01")
def test_abbey_is_used_once() -> None:
    """Two holes. Red plays her abbey into (0,1): Red holds 0. Blue and Yellow draw instead.
    On Red's next turn the hole (2,1) is still there, but Red is offered no abbey choice."""
    state = am_build(TWO_HOLES)
    assert state.phase == "choose_tile"
    assert abbey_choices(state) == {(0, 1), (2, 1)}
    state.apply(PlaceAbbey(0, 1))
    assert_illegal(state, PlaceAbbey(2, 1))  # one abbey per turn, and Red's is used
    state.apply(Pass())
    assert [supply(state, seat) for seat in (RED, BLUE, YELLOW)] == [0, 1, 1]
    for seat, spot in ((BLUE, (-2, 0)), (YELLOW, (4, 0))):
        assert state.current_player == seat and state.phase == "choose_tile"
        land_turn(state, *spot, 0)
    assert state.current_player == RED
    assert abbey_choices(state) == set()
    assert state.phase == "place_tile" and state.tile == "U"
    assert is_empty(state, 2, 1)
    assert_illegal(state, PlaceAbbey(2, 1))
    assert_illegal(state, Draw())


# -- CAR-AM-ABBEY-02 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-ABBEY-02")
def test_abbey_replaces_the_draw() -> None:
    """FX-RING, 10 tiles in the pile, Red holds an abbey: draw and abbey are both offered. Red
    plays the abbey at (0,1): the pile still holds 10 tiles and Red holds no abbey."""
    state = am_build(FX_RING)
    assert state.phase == "choose_tile" and state.current_player == RED
    assert set(state.legal_actions()) == {Draw(), PlaceAbbey(0, 1)}
    assert pile_size(state) == 10 and state.tile is None
    state.apply(PlaceAbbey(0, 1))
    assert pile_size(state) == 10
    assert supply(state, RED) == 0
    assert state.phase == "deploy" and state.current_player == RED
    assert board_tile(state, 0, 1)["tile"] == "ABBEY"
    state.apply(Pass())
    assert pile_size(state) == 9  # Blue's ordinary draw (no hole is left)
    assert state.current_player == BLUE and state.phase == "place_tile"


@pytest.mark.rule("CAR-AM-ABBEY-02")
def test_abbey_choice_as_json() -> None:
    """The same choice through JSON actions: {"type": "abbey"} and the view's legal actions."""
    state = am_build(FX_RING)
    offered = state.view(RED)["legal_actions"]
    assert len(offered) == 2
    assert {"type": "draw"} in offered and {"type": "abbey", "x": 0, "y": 1} in offered
    state.apply({"type": "abbey", "x": 0, "y": 1})
    assert board_tile(state, 0, 1)["tile"] == "ABBEY" and pile_size(state) == 10


@pytest.mark.rule("CAR-AM-ABBEY-02")
def test_choice_is_optional_up_to_the_last_tile() -> None:
    """With a single landscape tile left, drawing is still offered next to the abbey."""
    state = am_build(FX_RING, pile=["U"])
    assert set(state.legal_actions()) == {Draw(), PlaceAbbey(0, 1)}


@pytest.mark.rule("CAR-AM-ABBEY-02")
def test_drawing_instead_keeps_the_abbey() -> None:
    """The choice is optional: Red draws, plays a landscape tile and still holds her abbey."""
    state = am_build(FX_RING)
    state.apply(Draw())
    assert state.phase == "place_tile" and state.tile == "U" and pile_size(state) == 9
    state.apply(Place(2, 0, 0))
    state.apply(Pass())
    assert supply(state, RED) == 1


@pytest.mark.rule("CAR-AM-ABBEY-02")
def test_no_choice_without_an_abbey() -> None:
    """FX-RING but Red holds no abbey: Red's turn begins with a drawn tile."""
    state = build(FX_RING, options=dict(AM), supply={RED: {"abbey": 0}})
    assert state.phase == "place_tile" and state.tile == "U"
    assert_illegal(state, PlaceAbbey(0, 1))


# -- CAR-AM-ABBEY-03 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-ABBEY-03")
def test_ring_has_exactly_one_hole() -> None:
    """FX-RING: (0,1) is the only legal abbey position; a frontier spot that is not a hole and a
    spot touching nothing are rejected with the state unchanged."""
    state = am_build(FX_RING)
    assert abbey_choices(state) == {(0, 1)}
    assert_illegal(state, PlaceAbbey(2, 0))
    assert_illegal(state, PlaceAbbey(0, -1))
    assert_illegal(state, PlaceAbbey(5, 5))
    assert_illegal(state, PlaceAbbey(0, 0))


@pytest.mark.rule("CAR-AM-ABBEY-03")
def test_diagonal_neighbours_do_not_matter() -> None:
    """FX-HOLE-CITY: (0,1) is a hole although the diagonal (-1,2) is empty."""
    state = am_build(FX_HOLE_CITY)
    assert is_empty(state, -1, 2)
    assert abbey_choices(state) == {(0, 1)}
    abbey_turn(state, 0, 1)
    assert board_tile(state, 0, 1) == {"x": 0, "y": 1, "tile": "ABBEY", "rotation": 0}


@pytest.mark.rule("CAR-AM-ABBEY-03")
def test_no_hole_no_abbey_choice() -> None:
    """FX-START: no hole, so Red's turn begins with a drawn tile; an abbey is rejected."""
    state = am_build(FX_START)
    assert state.phase == "place_tile"
    assert all(isinstance(a, Place) for a in state.legal_actions())
    assert supply(state, RED) == 1
    assert_illegal(state, PlaceAbbey(1, 0))
    assert_illegal(state, PlaceAbbey(0, 1))


# -- CAR-AM-ABBEY-04 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-ABBEY-04")
def test_abbey_fits_against_a_city_side() -> None:
    """FX-HOLE-CITY: the hole faces a city side and three field sides; the abbey goes in with
    rotation 0 and closes the city side facing it."""
    state = am_build(FX_HOLE_CITY)
    assert abbey_choices(state) == {(0, 1)}
    state.apply(PlaceAbbey(0, 1))
    assert board_tile(state, 0, 1) == {"x": 0, "y": 1, "tile": "ABBEY", "rotation": 0}
    assert state.graph.open[feature_root(state, -1, 1, CI)] == 0


@pytest.mark.rule("CAR-AM-ABBEY-04")
def test_abbey_fits_between_two_road_ends() -> None:
    """FX-ROAD-HOLE: the hole (2,0) faces two road sides and two field sides: the abbey fits
    and closes both roads."""
    state = am_build(FX_ROAD_HOLE)
    assert abbey_choices(state) == {(2, 0)}
    state.apply(PlaceAbbey(2, 0))
    assert board_tile(state, 2, 0)["rotation"] == 0
    graph = state.graph
    assert graph.open[feature_root(state, 1, 0, ROAD_WE)] == 0
    assert graph.open[feature_root(state, 3, 0, R2)] == 0


@pytest.mark.rule("CAR-AM-ABBEY-04", "CAR-AM-ABBEY-11")
def test_abbey_tile_model() -> None:
    """The abbey: one monastery part, no road, city or field, no side type to match, no field
    corner; all four rotations are the same tile."""
    game = bw.load("carcassonne", players=2, options=dict(AM))
    abbey = game.tile_types["ABBEY"]
    assert abbey.abbey and abbey.count == 0
    assert abbey.distinct == (0,)
    variant = abbey.variants[0]
    assert [f.location for f in variant.features] == ["MONASTERY"]
    assert variant.side_feature == (-1, -1, -1, -1)
    assert variant.half_feature == (-1,) * 8
    assert variant.field_corners == frozenset()


# -- CAR-AM-ABBEY-05 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-ABBEY-05")
def test_no_switch_to_the_abbey_after_drawing() -> None:
    """FX-RING: Red draws and gets U; the abbey at (0,1) is now rejected, U must be placed."""
    state = am_build(FX_RING)
    state.apply(Draw())
    assert state.tile == "U" and state.phase == "place_tile"
    assert_illegal(state, PlaceAbbey(0, 1))
    assert_illegal(state, Draw())
    assert_illegal(state, Pass())
    assert place_options(state)  # only placements of U are offered
    assert (0, 1) not in {(x, y) for x, y, _ in place_options(state)}
    assert supply(state, RED) == 1


@pytest.mark.rule("CAR-AM-ABBEY-05")
def test_unplaceable_draw_does_not_reopen_the_abbey_choice() -> None:
    """FX-ROAD-HOLE: X fits nowhere. Red draws X: it is removed and U drawn in its place; the
    abbey stays out of reach for this turn."""
    state = am_build(FX_ROAD_HOLE, pile=["X", "U", "U", "U"])
    state.apply(Draw())
    assert state.view(None)["discarded"] == ["X"]
    assert state.tile == "U" and state.phase == "place_tile"
    assert_illegal(state, PlaceAbbey(2, 0))
    assert supply(state, RED) == 1


# -- CAR-AM-ABBEY-06 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-ABBEY-06")
def test_figures_offered_on_the_abbey() -> None:
    """FX-HOLE-CITY, Red's abbey at (0,1): offered are a monk and the wagon on the abbey (and
    passing); no mayor, no barn, nothing on the tiles around."""
    state = am_build(FX_HOLE_CITY)
    state.apply(PlaceAbbey(0, 1))
    assert set(state.legal_actions()) == {
        Pass(), Deploy(0, 1, "MONASTERY", "follower"), Deploy(0, 1, "MONASTERY", "wagon")}
    assert_illegal(state, Deploy(-1, 1, CI, "follower"))
    assert_illegal(state, Deploy(-1, 1, FI, "follower"))
    assert_illegal(state, Deploy(0, 2, B_FIELD, "follower"))
    assert_illegal(state, Deploy(1, 1, "MONASTERY", "follower"))
    assert_illegal(state, Deploy(0, 1, "MONASTERY", "mayor"))
    for corner in ("NW", "NE", "SE", "SW"):
        assert_illegal(state, Deploy(0, 1, corner, "barn"))


@pytest.mark.rule("CAR-AM-ABBEY-06")
@pytest.mark.parametrize("figure", ["follower", "wagon"])
def test_monk_or_wagon_stands_on_the_abbey(figure: str) -> None:
    """The chosen figure stands on the abbey's monastery, taken from Red's supply."""
    state = am_build(FX_HOLE_CITY)
    abbey_turn(state, 0, 1, figure)
    assert state.view(None)["followers"] == [
        {"player": RED, "x": 0, "y": 1, "location": "MONASTERY", "figure": figure,
         "role": "monk"}]
    assert supply(state, RED, figure) == (6 if figure == "follower" else 0)


# -- CAR-AM-ABBEY-07 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-ABBEY-07")
def test_abbey_complete_when_placed() -> None:
    """FX-RING: all eight positions around (0,1) hold tiles, so Red's abbey with a monk is
    complete at once: Red +9, the monk returns."""
    state = am_build(FX_RING)
    assert abbey_turn(state, 0, 1, "follower") == [9, 0, 0]
    assert events(state) == [("monastery", True, 9, [RED])]
    assert supply(state, RED, "follower") == 7


@pytest.mark.rule("CAR-AM-ABBEY-07")
def test_incomplete_abbey_at_the_end() -> None:
    """FX-HOLE-CITY: Red's abbey with a monk has 7 neighbours; Blue places the last tile away
    from (-1,2); at the end Red +8."""
    state = am_build(FX_HOLE_CITY, pile=["U"])
    assert abbey_turn(state, 0, 1, "follower") == [0, 0, 0]
    assert state.graph.open[feature_root(state, 0, 1, "MONASTERY")] == 1
    assert land_turn(state, 2, 0, 0) == [8, 0, 0]
    assert state.is_terminal
    assert events(state) == [("monastery", False, 8, [RED])]


@pytest.mark.rule("CAR-AM-ABBEY-07")
def test_abbey_completed_later_by_a_landscape_tile() -> None:
    """FX-HOLE-CITY: Red's abbey with a monk; Blue fills (-1,2) with E@(-1,2)/180: the abbey
    has 8 neighbours, Red +9 in Blue's turn."""
    state = am_build(FX_HOLE_CITY, pile=["E", "U", "U"])
    abbey_turn(state, 0, 1, "follower")
    assert state.current_player == BLUE
    assert land_turn(state, -1, 2, 180) == [9, 0, 0]
    assert events(state) == [("monastery", True, 9, [RED])]


# -- CAR-AM-ABBEY-08 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-ABBEY-08")
def test_abbey_closes_a_road_without_extending_it() -> None:
    """FX-ROAD-HOLE, Red's highwayman on R1 (tile (1,0)). Yellow's abbey at (2,0) completes R1
    with 3 tiles: Red +3 (not 4)."""
    state = am_build(FX_ROAD_HOLE, followers=[(RED, 1, 0, ROAD_WE)], turn_player=YELLOW)
    assert state.current_player == YELLOW and state.phase == "choose_tile"
    assert abbey_turn(state, 2, 0) == [3, 0, 0]
    assert events(state) == [("road", True, 3, [RED])]
    r1 = feature_root(state, 1, 0, ROAD_WE)
    assert state.graph.tile_count(r1) == 3
    assert supply(state, RED, "follower") == 7


# -- CAR-AM-ABBEY-09 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-ABBEY-09")
def test_abbey_closes_a_city_without_extending_it() -> None:
    """FX-HOLE-CITY, Red's knight on CI. Blue's abbey at (0,1) completes CI: 1 tile, no pennant,
    Red +2."""
    state = am_build(FX_HOLE_CITY, followers=[(RED, -1, 1, CI)], turn_player=BLUE)
    assert abbey_turn(state, 0, 1) == [2, 0, 0]
    assert events(state) == [("city", True, 2, [RED])]
    ci = feature_root(state, -1, 1, CI)
    assert state.graph.tile_count(ci) == 1 and state.graph.pennants[ci] == 0


# -- CAR-AM-ABBEY-10 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-ABBEY-10")
def test_roads_on_both_sides_of_the_abbey_stay_separate() -> None:
    """FX-ROAD-HOLE, Red's highwayman on R1, Blue's on R2. Yellow's abbey at (2,0): two
    completed roads, Red +3 and Blue +1 (not one shared road)."""
    state = am_build(FX_ROAD_HOLE, followers=[(RED, 1, 0, ROAD_WE), (BLUE, 3, 0, R2)],
                     turn_player=YELLOW)
    assert abbey_turn(state, 2, 0) == [3, 1, 0]
    assert sorted(events(state)) == [("road", True, 1, [BLUE]), ("road", True, 3, [RED])]
    assert feature_root(state, 1, 0, ROAD_WE) != feature_root(state, 3, 0, R2)


# -- CAR-AM-ABBEY-11 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-ABBEY-11")
def test_fields_end_at_the_abbey() -> None:
    """FX-HOLE-CITY, Red's farmer on FS (field of (0,2)), Blue's on FI. Yellow's abbey at (0,1)
    completes CI; Red places the last tile away. At the end: Red +3 (FS borders only C2),
    Blue +6 (FI borders C2 and CI)."""
    state = am_build(FX_HOLE_CITY, followers=[(RED, 0, 2, B_FIELD), (BLUE, -1, 1, FI)],
                     pile=["U"], turn_player=YELLOW)
    fs, fi = feature_root(state, 0, 2, B_FIELD), feature_root(state, -1, 1, FI)
    assert abbey_turn(state, 0, 1) == [0, 0, 0]
    assert feature_root(state, 0, 2, B_FIELD) == fs != feature_root(state, -1, 1, FI) == fi
    assert land_turn(state, 2, 0, 0) == [3, 6, 0]
    assert state.is_terminal
    assert sorted(events(state)) == [("field", False, 3, [RED]), ("field", False, 6, [BLUE])]


# -- CAR-AM-ABBEY-12 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-ABBEY-12")
def test_abbey_completes_a_neighbouring_monastery() -> None:
    """FX-MON-HOLE, Blue's monk on B@(0,1). Red's abbey at (1,1) is its eighth neighbour:
    Blue +9 during Red's turn."""
    state = am_build(FX_MON_HOLE, followers=[(BLUE, 0, 1, "MONASTERY")])
    assert state.graph.open[feature_root(state, 0, 1, "MONASTERY")] == 1
    assert abbey_turn(state, 1, 1) == [0, 9, 0]
    assert events(state) == [("monastery", True, 9, [BLUE])]
    assert supply(state, BLUE, "follower") == 7


@pytest.mark.rule("CAR-AM-ABBEY-12")
def test_abbey_counts_for_an_incomplete_monastery_at_the_end() -> None:
    """FX-MON-HOLE, Blue's monk on B@(2,1), which has 3 neighbours ((1,0), (2,0), (1,2)). Red's
    abbey at (1,1) is a fourth; Blue places the last tile away: at the end Blue +5."""
    state = am_build(FX_MON_HOLE, followers=[(BLUE, 2, 1, "MONASTERY")], pile=["U"])
    assert state.graph.open[feature_root(state, 2, 1, "MONASTERY")] == 5
    abbey_turn(state, 1, 1)
    assert state.graph.open[feature_root(state, 2, 1, "MONASTERY")] == 4
    assert land_turn(state, -2, 0, 0) == [0, 5, 0]
    assert state.is_terminal
    assert events(state) == [("monastery", False, 5, [BLUE])]


# Two holes on a diagonal: (0,1) and (1,2); every other position around them holds a tile.
DIAGONAL_HOLES = ("D@(0,0)/0 U@(-1,0)/0 B@(-1,1)/0 U@(1,0)/0 B@(1,1)/0 B@(-1,2)/0 B@(0,2)/0 "
                  "B@(2,1)/0 B@(2,2)/0 B@(2,3)/0 B@(1,3)/0")


@pytest.mark.rule("CAR-AM-ABBEY-12")
def test_abbey_completes_a_diagonal_abbey() -> None:
    """Red's abbey with a monk at (0,1) has 7 neighbours; Blue's abbey at (1,2) is the eighth:
    Red +9 during Blue's turn."""
    state = am_build(DIAGONAL_HOLES)
    assert abbey_choices(state) == {(0, 1), (1, 2)}
    assert abbey_turn(state, 0, 1, "follower") == [0, 0, 0]
    assert state.graph.open[feature_root(state, 0, 1, "MONASTERY")] == 1
    assert state.current_player == BLUE and abbey_choices(state) == {(1, 2)}
    assert abbey_turn(state, 1, 2) == [9, 0, 0]
    assert events(state) == [("monastery", True, 9, [RED])]


# -- CAR-AM-ABBEY-13 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-ABBEY-13")
def test_abbey_turn_scores_for_the_majority_not_the_placer() -> None:
    """FX-ROAD-HOLE, Blue's highwayman on R1, nobody on R2. Red's abbey at (2,0) without a
    figure: R1 gives Blue +3; R2 is completed empty and scores nothing; Red +0."""
    state = am_build(FX_ROAD_HOLE, followers=[(BLUE, 1, 0, ROAD_WE)])
    assert abbey_turn(state, 2, 0) == [0, 3, 0]
    assert events(state) == [("road", True, 3, [BLUE])]
    assert state.graph.is_complete(feature_root(state, 3, 0, R2))
    assert state.current_player == BLUE


# -- CAR-AM-ABBEY-14 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-ABBEY-14")
def test_unplaced_abbey_gives_nothing_with_option_none() -> None:
    """`abbey_end_of_game = none`, FX-HOLE-CITY with Red's highwayman on RD: Red draws the last
    tile and extends RD to 4 tiles; the game ends with Red's abbey unplaced. Red's score is the
    road only: +4."""
    state = am_build(FX_HOLE_CITY, followers=[(RED, 0, 0, ROAD_WE)], pile=["U"],
                     abbey_end_of_game="none")
    assert state.phase == "choose_tile"
    assert land_turn(state, 2, 0, 0) == [4, 0, 0]
    assert state.is_terminal
    assert events(state) == [("road", False, 4, [RED])]
    assert [supply(state, seat) for seat in (RED, BLUE, YELLOW)] == [1, 1, 1]


@pytest.mark.rule("CAR-AM-ABBEY-14")
def test_unplaced_abbey_without_a_hole_gives_nothing() -> None:
    """Default option, FX-START (no hole ever): Red's road of 2 tiles gives +2 at the end and
    the abbeys still held change nothing."""
    state = am_build(FX_START, followers=[(RED, 0, 0, ROAD_WE)], pile=["U"])
    assert land_turn(state, 1, 0, 0) == [2, 0, 0]
    assert state.is_terminal
    assert state.scores == [2, 0, 0]
    assert [supply(state, seat) for seat in (RED, BLUE, YELLOW)] == [1, 1, 1]


# -- CAR-AM-ABBEY-50 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-ABBEY-50")
def test_abbey_completes_a_city_with_a_strength_zero_mayor() -> None:
    """FX-HOLE-CITY, Red's mayor on CI. Blue's abbey at (0,1) completes CI (value 2, no
    pennant): the mayor has strength 0, nobody scores, the mayor returns to Red."""
    state = am_build(FX_HOLE_CITY, followers=[(RED, -1, 1, CI, "mayor")], turn_player=BLUE)
    assert supply(state, RED, "mayor") == 0
    assert abbey_turn(state, 0, 1) == [0, 0, 0]
    assert all(e["players"] == [] for e in state.log)
    assert state.view(None)["followers"] == []
    assert supply(state, RED, "mayor") == 1


# -- CAR-AM-ABBEY-51 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-ABBEY-51")
def test_city_closed_by_abbey_not_counted_without_the_abbey() -> None:
    """FX-HOLE-CITY, Blue's farmer on FI; the game ends with no abbey at (0,1): FI borders the
    completed C2 and the incomplete CI: Blue +3."""
    state = am_build(FX_HOLE_CITY, followers=[(BLUE, -1, 1, FI)], pile=["U"],
                     abbey_end_of_game="none")
    assert land_turn(state, 2, 0, 0) == [0, 3, 0]
    assert state.is_terminal
    assert events(state) == [("field", False, 3, [BLUE])]


@pytest.mark.rule("CAR-AM-ABBEY-51")
def test_city_closed_by_abbey_counts_for_farmers() -> None:
    """Same position; Red places her abbey at (0,1) before the end, completing CI: Blue +6."""
    state = am_build(FX_HOLE_CITY, followers=[(BLUE, -1, 1, FI)], pile=["U"])
    abbey_turn(state, 0, 1)
    assert land_turn(state, 2, 0, 0) == [0, 6, 0]
    assert state.is_terminal
    assert events(state) == [("field", False, 6, [BLUE])]
