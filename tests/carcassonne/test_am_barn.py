"""Rule tests for the barn of Abbey & Mayor: CAR-AM-BARN-01 .. CAR-AM-BARN-14, CAR-AM-BARN-50
(an abbey never joins fields) and CAR-AM-BARN-51 (no barn at an abbey).

The scenarios of the rule catalogue (sections 4.12 and 4.14) are played on FX-BARN (section 2.8):

    y=0   D(0,0)        U(1,0)        U(2,0)
    y=1   B(0,1)        (1,1) free    E(2,1)/270  (city facing W, open toward (1,1))
    y=2   E(0,2)/180    (city S) --+
    y=3   E(0,3)/0      (city N) --+  CA, completed

`E@(1,1)/90` closes the city CN = {(1,1), (2,1)}; its field joins the big field S0, and
corner(0,0) -- the NW corner of (1,1) -- becomes the only barn point at a corner of (1,1).
Barns are deployed with `Deploy(x, y, corner, "barn")` on the tile just placed. Tiles are played
through `apply` wherever the scenario says who placed what, so the figure step, the scoring step
and the end of the game are the engine's real turn flow.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import boardwright as bw
from fixtures import FX_BARN, FX_RING
from helpers import assert_illegal, feature_root, on_python

from boardwright.games.carcassonne import Deploy, Pass, Place, PlaceAbbey
from boardwright.games.carcassonne.actions import pack
from boardwright.games.carcassonne.position_features import INDEX, seat_features
from boardwright.games.carcassonne.scenario import build
from boardwright.games.carcassonne.state import CarcassonneState

RED, BLUE, YELLOW = 0, 1, 2
AM = {"expansions": ["abbey_mayor"]}
CORNERS = ("NW", "NE", "SE", "SW")
BARN_TERM = INDEX["barn"]

# Locations in board orientation.
B_FIELD = "EL.ER.NL.NR.SL.SR.WL.WR"   # B@(.,.)/0: the field around the monastery
L3_FIELD = "EL.ER.SL.SR.WL.WR"        # E@(0,3)/0: field L3
E90_CITY = "E"                        # E@(1,1)/90: its cap faces E (city CN)
E270_CITY = "W"                       # E@(2,1)/270: its cap faces W
E90_FIELD = "NL.NR.SL.SR.WL.WR"       # E@(1,1)/90: its field (joins S0)
D_CITY = "N"                          # D@(0,0)/0
D_ROAD = "E.W"
U_NORTH = "EL.NL.NR.WR"               # U@(.,.)/0, field touching N
MONASTERY = "MONASTERY"


# -- helpers ----------------------------------------------------------------------------------

def fx_barn(pile: list[str], followers: Sequence[Any] = (), players: int = 3,
            turn_player: int = RED, extra_tiles: str = "", **kwargs: Any) -> CarcassonneState:
    """FX-BARN (plus `extra_tiles`) built directly with Abbey & Mayor on; then
    `turn_player`'s turn with `pile` to draw from."""
    tiles = FX_BARN + (" " + extra_tiles if extra_tiles else "")
    return build(tiles, followers=list(followers), pile=pile, players=players,
                 turn_player=turn_player, options=AM, **kwargs)


def play(state: CarcassonneState, x: int, y: int, rotation: int, location: str | None = None,
         figure: str = "follower") -> list[int]:
    """One whole turn of the current player: place the drawn tile, then put `figure` on
    `location` (None passes). Returns the score change per seat (final scoring included)."""
    before = state.scores
    state.apply(Place(x, y, rotation))
    state.apply(Pass() if location is None else Deploy(x, y, location, figure))
    return [after - was for after, was in zip(state.scores, before)]


def barn_turn(state: CarcassonneState, x: int, y: int, rotation: int, corner: str) -> list[int]:
    """One turn placing a tile and the barn on `corner` of it; the score change per seat."""
    return play(state, x, y, rotation, corner, "barn")


def barn_offers(state: CarcassonneState) -> set[tuple[int, int, str]]:
    """(x, y, corner) of every barn placement offered in the figure step."""
    return {(a.x, a.y, a.location) for a in state.legal_actions()
            if isinstance(a, Deploy) and a.figure == "barn"}


def barns(state: CarcassonneState) -> list[tuple[int, int, int]]:
    """(seat, x, y) of every barn on the board, corner(x, y), from the public view."""
    return sorted((b["player"], b["corner"]["x"], b["corner"]["y"])
                  for b in state.view(None)["barns"])


def on_board(state: CarcassonneState) -> list[tuple[int, int, int, str, str]]:
    """(seat, x, y, location, figure) of every figure on the board, from the public view."""
    return sorted((f["player"], f["x"], f["y"], f["location"], f["figure"])
                  for f in state.view(None)["followers"])


def in_supply(state: CarcassonneState, seat: int, figure: str) -> int:
    """How many pieces of one kind a seat holds, read from the public view."""
    return state.view(None)["supply"][seat][figure]


def field_log(state: CarcassonneState, start: int = 0) -> list[tuple[str, int, list[int], str]]:
    """(feature, points, winners, reason) of the field and barn scorings logged from `start`."""
    return [(e["feature"], e["points"], e["players"], e.get("reason", ""))
            for e in state.log[start:] if e["feature"] in ("field", "barn")]


def delta(before: list[int], state: CarcassonneState) -> list[int]:
    """Score change per seat since `before` (a copy of `state.scores`)."""
    return [after - was for after, was in zip(state.scores, before)]


# -- CAR-AM-BARN-01 ---------------------------------------------------------------------------

def all_red_followers_on_board() -> list[Any]:
    """Red's 7 followers, mayor and wagon, all standing outside field S0 of FX-BARN: the mayor
    on D's city, the wagon on B's monastery, three highwaymen on the road of (0,0)..(2,0) and
    four farmers on the northern field (D {EL,WR} + U's fields touching N)."""
    return [(RED, 0, 0, D_CITY, "mayor"), (RED, 0, 1, MONASTERY, "wagon"),
            (RED, 0, 0, D_ROAD), (RED, 1, 0, D_ROAD), (RED, 2, 0, D_ROAD),
            (RED, 0, 0, "EL.WR"), (RED, 1, 0, U_NORTH), (RED, 2, 0, U_NORTH)]


@pytest.mark.rule("CAR-AM-BARN-01")
def test_barn_needs_no_follower_in_supply() -> None:
    """With every follower of Red on the board (the seventh is taken out of supply too),
    E@(1,1)/90 still offers the barn on corner(0,0), and it is accepted."""
    state = fx_barn(["E", "U"], all_red_followers_on_board(), supply={RED: {"follower": 0}})
    supply = state.view(None)["supply"][RED]
    assert (supply["follower"], supply["mayor"], supply["wagon"], supply["barn"]) == (0, 0, 0, 1)
    state.apply(Place(1, 1, 90))
    assert set(state.legal_actions()) == {Pass(), Deploy(1, 1, "NW", "barn")}
    state.apply(Deploy(1, 1, "NW", "barn"))
    assert barns(state) == [(RED, 0, 0)]
    assert in_supply(state, RED, "barn") == 0
    assert state.current_player == BLUE


@pytest.mark.rule("CAR-AM-BARN-01")
def test_barn_never_stands_on_a_road_city_or_monastery() -> None:
    """The barn is not a follower: it cannot be deployed on a feature, only on a corner."""
    state = fx_barn(["E", "U"])
    state.apply(Place(1, 1, 90))
    for location in (E90_CITY, E90_FIELD):
        assert_illegal(state, Deploy(1, 1, location, "barn"))
    other = fx_barn(["B", "U"], extra_tiles="E@(1,1)/90")
    other.apply(Place(1, 2, 0))
    assert_illegal(other, Deploy(1, 2, MONASTERY, "barn"))


@pytest.mark.rule("CAR-AM-BARN-01")
def test_barn_does_not_occupy_the_city_next_to_it() -> None:
    """After Red's barn on corner(0,0) no feature of the board holds a figure: the barn is
    kept apart from roads, cities, monasteries and fields, and occupies none of them."""
    state = fx_barn(["E", "U"])
    barn_turn(state, 1, 1, 90, "NW")
    graph = state.graph
    assert all(not figures for figures in graph.figures)
    assert on_board(state) == []


@pytest.mark.rule("CAR-AM-BARN-01")
def test_one_barn_per_player() -> None:
    """Red's only barn stands on corner(0,0); later Red makes corner(0,3) a valid point in a
    field without barn (L3), yet no barn is offered to her -- while the same point would be
    offered to a player still holding one (BARN-14)."""
    state = fx_barn(["E", "B", "U", "U", "U"])
    barn_turn(state, 1, 1, 90, "NW")
    play(state, 1, 3, 0)  # Blue
    play(state, 0, 4, 0)  # Yellow
    assert state.current_player == RED
    state.apply(Place(1, 4, 0))
    assert barn_offers(state) == set()
    assert_illegal(state, Deploy(1, 4, "NW", "barn"))


@pytest.mark.rule("CAR-AM-BARN-01")
def test_no_barn_when_the_component_is_off() -> None:
    """With `barns = 0` the game has no barn: corner(0,0) is not offered, and a barn deploy is
    refused as naming a figure the game does not have (the position is unchanged)."""
    state = build(FX_BARN, pile=["E", "U"], options={**AM, "barns": 0})
    state.apply(Place(1, 1, 90))
    assert barn_offers(state) == set()
    before = state.signature()
    with pytest.raises(bw.MalformedActionError):
        state.apply(Deploy(1, 1, "NW", "barn"))
    assert state.signature() == before


# -- CAR-AM-BARN-02 ---------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-BARN-02")
def test_barn_is_the_only_figure_placement_of_the_turn() -> None:
    """Once Red has put the barn, her turn is over: a knight on the city of (1,1) is refused
    and the position is unchanged (Blue is to play)."""
    state = fx_barn(["E", "U", "U"])
    state.apply(Place(1, 1, 90))
    state.apply(Deploy(1, 1, "NW", "barn"))
    assert state.turn_player == BLUE and state.phase == "place_tile"
    assert_illegal(state, Deploy(1, 1, E90_CITY))
    assert on_board(state) == []


@pytest.mark.rule("CAR-AM-BARN-02")
def test_knight_first_then_no_barn() -> None:
    """The other way round: a knight on CN ends the figure step, so no barn follows."""
    state = fx_barn(["E", "U", "U"])
    state.apply(Place(1, 1, 90))
    state.apply(Deploy(1, 1, E90_CITY))
    assert state.turn_player == BLUE
    assert_illegal(state, Deploy(1, 1, "NW", "barn"))
    assert barns(state) == [] and in_supply(state, RED, "barn") == 1


# -- CAR-AM-BARN-03 ---------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-BARN-03")
def test_only_barn_point_at_the_new_tile_is_corner_0_0() -> None:
    """E@(1,1)/90: of its four corners only NW (= corner(0,0)) has four tiles with field
    corners; the other three are refused."""
    state = fx_barn(["E", "U"])
    state.apply(Place(1, 1, 90))
    assert barn_offers(state) == {(1, 1, "NW")}
    for corner in ("NE", "SE", "SW"):
        assert_illegal(state, Deploy(1, 1, corner, "barn"))


@pytest.mark.rule("CAR-AM-BARN-03")
def test_barn_point_must_be_a_corner_of_the_tile_just_placed() -> None:
    """Blue placed E@(1,1)/90 earlier without a barn; Red now places U@(3,0)/0. Corner(0,0)
    is still a valid point but not a corner of (3,0): refused. No corner of (3,0) has four
    tiles, so no barn is offered."""
    state = fx_barn(["U", "U"], extra_tiles="E@(1,1)/90")
    state.apply(Place(3, 0, 0))
    assert barn_offers(state) == set()
    assert_illegal(state, Deploy(1, 1, "NW", "barn"))
    for corner in CORNERS:
        assert_illegal(state, Deploy(3, 0, corner, "barn"))


@pytest.mark.rule("CAR-AM-BARN-03")
def test_barn_point_of_the_earlier_tile_by_play() -> None:
    """The variant played out: Blue E@(1,1)/90 and passes, Yellow U@(-1,0)/0, then Red's
    U@(3,0)/0 offers no barn although corner(0,0) is free and valid."""
    state = fx_barn(["E", "U", "U", "U"], turn_player=BLUE)
    state.apply(Place(1, 1, 90))
    assert barn_offers(state) == {(1, 1, "NW")}
    state.apply(Pass())
    play(state, -1, 0, 0)
    assert state.current_player == RED
    state.apply(Place(3, 0, 0))
    assert barn_offers(state) == set()


# -- CAR-AM-BARN-04 ---------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-BARN-04")
def test_corner_touching_a_city_is_refused() -> None:
    """Corner(1,0) = NE of (1,1): four tiles meet there, but the NE corner of E@(1,1)/90 and
    the NW corner of E@(2,1)/270 touch the city CN."""
    state = fx_barn(["E", "U"])
    state.apply(Place(1, 1, 90))
    assert all(pack(x, y) in state.graph.board for x, y in ((1, 0), (2, 0), (1, 1), (2, 1)))
    assert_illegal(state, Deploy(1, 1, "NE", "barn"))


@pytest.mark.rule("CAR-AM-BARN-04")
def test_corner_between_two_fields_of_am09_is_refused() -> None:
    """AM09's walls split it into three fields; at its corners two different fields meet.
    B@(0,0) B@(1,0) B@(0,1) and AM09@(1,1)/180 (city facing E): the NW corner of AM09 is
    where its W and N fields meet, so corner(0,0) is refused although four tiles meet."""
    state = build("B@(0,0)/0 B@(1,0)/0 B@(0,1)/0", pile=["AM09", "U"], options=AM)
    state.apply(Place(1, 1, 180))
    assert barn_offers(state) == set()
    assert_illegal(state, Deploy(1, 1, "NW", "barn"))


@pytest.mark.rule("CAR-AM-BARN-04")
def test_four_field_corners_make_a_valid_point() -> None:
    """The same square with a plain B instead of AM09: corner(0,0) is offered."""
    state = build("B@(0,0)/0 B@(1,0)/0 B@(0,1)/0", pile=["B", "U"], options=AM)
    state.apply(Place(1, 1, 0))
    assert barn_offers(state) == {(1, 1, "NW")}


# -- CAR-AM-BARN-05 ---------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-BARN-05")
def test_no_second_barn_in_a_barn_field() -> None:
    """Red's barn is on corner(0,0). Blue's B@(1,2)/0 makes corner(0,1) a point with four
    field corners, but its field is S0, which holds Red's barn: Blue's barn is refused."""
    state = fx_barn(["E", "B", "U"])
    barn_turn(state, 1, 1, 90, "NW")
    assert state.current_player == BLUE
    state.apply(Place(1, 2, 0))
    assert barn_offers(state) == set()
    assert_illegal(state, Deploy(1, 2, "NW", "barn"))


@pytest.mark.rule("CAR-AM-BARN-05")
def test_same_point_is_valid_without_the_first_barn() -> None:
    """Control: had Red not placed her barn, Blue's barn on corner(0,1) would be offered."""
    state = fx_barn(["E", "B", "U"])
    play(state, 1, 1, 90)
    state.apply(Place(1, 2, 0))
    assert barn_offers(state) == {(1, 2, "NW")}


JOIN_AT_1_3 = "E@(1,1)/90 B@(1,2)/0 U@(0,4)/0 U@(1,4)/0"


@pytest.mark.rule("CAR-AM-BARN-05")
def test_field_is_judged_after_the_tile_joins_it() -> None:
    """Red's barn on corner(0,0) (S0, which reaches B@(1,2)). L3 reaches U@(0,4) and U@(1,4)
    but holds no barn. Blue's B@(1,3)/0 completes corner(0,3) with four field corners -- and
    at the same time joins L3 to S0 through B@(1,2): the point now lies in a barn field, so
    Blue's barn there is refused."""
    state = fx_barn(["B", "U"], turn_player=BLUE, extra_tiles=JOIN_AT_1_3, barns=[(RED, 0, 0)])
    state.apply(Place(1, 3, 0))
    assert barn_offers(state) == set()
    assert_illegal(state, Deploy(1, 3, "SW", "barn"))


@pytest.mark.rule("CAR-AM-BARN-05")
def test_same_point_without_the_join_is_free() -> None:
    """Control: without B@(1,2) the new tile joins L3 only, and corner(0,3) is offered."""
    state = fx_barn(["B", "U"], turn_player=BLUE, barns=[(RED, 0, 0)],
                    extra_tiles=JOIN_AT_1_3.replace(" B@(1,2)/0", ""))
    state.apply(Place(1, 3, 0))
    assert barn_offers(state) == {(1, 3, "SW")}


# -- CAR-AM-BARN-06 ---------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-BARN-06")
def test_barn_in_a_field_with_the_placers_own_farmer() -> None:
    """Red's farmer stands on S0 (field of B@(0,1)). Her barn on corner(0,0) is accepted; the
    barn scoring gives Red +6 (CA and CN) and her farmer returns."""
    state = fx_barn(["E", "U"], [(RED, 0, 1, B_FIELD)])
    state.apply(Place(1, 1, 90))
    assert (1, 1, "NW") in barn_offers(state)
    before = state.scores
    state.apply(Deploy(1, 1, "NW", "barn"))
    assert delta(before, state) == [6, 0, 0]
    assert on_board(state) == []
    assert in_supply(state, RED, "follower") == 7
    assert barns(state) == [(RED, 0, 0)]


# -- CAR-AM-BARN-07 / 11 ----------------------------------------------------------------------

def barn7() -> CarcassonneState:
    """FX-BARN with Blue's farmer on S0; Red has drawn E (the pile holds more tiles)."""
    return fx_barn(["E", "B", "B", "U"], [(BLUE, 0, 1, B_FIELD)])


@pytest.mark.rule("CAR-AM-BARN-07")
def test_barn_placement_scores_the_farmers_of_its_field() -> None:
    """E@(1,1)/90 closes CN; the barn on corner(0,0) makes S0 score like a final field for its
    farmers: CA and CN, 3 each -> Blue +6, Red +0. Blue's farmer returns, Red's barn stays."""
    state = barn7()
    assert barn_turn(state, 1, 1, 90, "NW") == [0, 6, 0]
    assert field_log(state) == [("field", 6, [BLUE], "barn placed")]
    assert on_board(state) == []
    assert in_supply(state, BLUE, "follower") == 7
    assert barns(state) == [(RED, 0, 0)]
    assert in_supply(state, RED, "barn") == 0


@pytest.mark.rule("CAR-AM-BARN-07")
def test_barn_placement_shared_majority() -> None:
    """Ties share: a Red and a Blue farmer in S0 both get the 6 points of the barn scoring,
    and both return."""
    state = fx_barn(["E", "U"], [(BLUE, 0, 1, B_FIELD), (RED, 1, 0, "ER.SL.SR.WL")])
    assert barn_turn(state, 1, 1, 90, "NW") == [6, 6, 0]
    assert on_board(state) == []


@pytest.mark.rule("CAR-AM-BARN-11")
def test_city_closed_by_the_barn_tile_counts_in_the_barn_scoring() -> None:
    """The barn scoring comes after the features closed by the tile: CN (closed by the very
    tile whose corner got the barn) counts, so Blue gets 6, not 3."""
    state = barn7()
    assert barn_turn(state, 1, 1, 90, "NW") == [0, 6, 0]


@pytest.mark.rule("CAR-AM-BARN-11")
def test_barn_scoring_follows_the_feature_scoring_of_the_turn() -> None:
    """Yellow's knight on the city of E@(2,1): the tile first scores CN for Yellow (+4), then
    the barn scoring gives Blue +6 -- in that order in the log."""
    state = fx_barn(["E", "U"], [(BLUE, 0, 1, B_FIELD), (YELLOW, 2, 1, E270_CITY)])
    assert barn_turn(state, 1, 1, 90, "NW") == [0, 6, 4]
    assert [(e["feature"], e["points"], e["players"]) for e in state.log] == [
        ("city", 4, [YELLOW]), ("field", 6, [BLUE])]


@pytest.mark.rule("CAR-AM-BARN-11")
def test_no_field_holds_a_barn_and_a_farmer_after_any_turn() -> None:
    """After each turn of the BARN-07 and BARN-10 sequences no field root has both."""
    state = fx_barn(["E", "B", "B", "U"], [(BLUE, 0, 3, L3_FIELD), (YELLOW, 0, 1, B_FIELD)])
    for x, y, rotation, corner in ((1, 1, 90, "NW"), (1, 3, 0, None), (1, 2, 0, None)):
        play(state, x, y, rotation, corner, "barn")
        graph = state.graph
        assert not any(graph.barns[r] and graph.figures[r] for r in range(len(graph.parent))
                       if graph.find(r) == r)
    assert state.scores == [0, 2, 6]


# -- CAR-AM-BARN-08 ---------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-BARN-08")
def test_barn_stays_until_the_end() -> None:
    """After BARN-07, B@(1,3)/0 and B@(1,2)/0 are played and the game ends: Red's barn is on
    corner(0,0) after every turn and is scored at the end (Red +8: CA and CN)."""
    state = barn7()
    barn_turn(state, 1, 1, 90, "NW")
    assert barns(state) == [(RED, 0, 0)]
    play(state, 1, 3, 0)
    assert barns(state) == [(RED, 0, 0)]
    play(state, 1, 2, 0)
    assert barns(state) == [(RED, 0, 0)]
    before = state.scores
    play(state, -1, 0, 0)  # the last tile
    assert state.is_terminal
    assert barns(state) == [(RED, 0, 0)]
    assert in_supply(state, RED, "barn") == 0
    assert delta(before, state) == [8, 0, 0]
    assert field_log(state)[-1] == ("barn", 8, [RED], "")


# -- CAR-AM-BARN-09 ---------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-BARN-09")
def test_no_farmer_on_a_tile_joining_a_barn_field() -> None:
    """Blue's B@(1,2)/0 joins S0 (Red's barn): its field is not offered and a farmer there is
    refused; a monk on its monastery is offered and accepted."""
    state = fx_barn(["E", "B", "U"])
    barn_turn(state, 1, 1, 90, "NW")
    state.apply(Place(1, 2, 0))
    assert set(state.legal_actions()) == {
        Pass(), Deploy(1, 2, MONASTERY, "follower"), Deploy(1, 2, MONASTERY, "wagon")}
    assert_illegal(state, Deploy(1, 2, B_FIELD))
    state.apply(Deploy(1, 2, MONASTERY))
    assert on_board(state) == [(BLUE, 1, 2, MONASTERY, "follower")]


@pytest.mark.rule("CAR-AM-BARN-09")
def test_no_farmer_on_a_tile_inside_a_barn_field() -> None:
    """A tile whose field lies wholly in the barn field (U@(-1,0)/0: its south field joins
    D's south field, part of S0) refuses a farmer there, but not on its north field."""
    state = fx_barn(["E", "U", "U"])
    barn_turn(state, 1, 1, 90, "NW")
    state.apply(Place(-1, 0, 0))
    assert_illegal(state, Deploy(-1, 0, "ER.SL.SR.WL"))
    state.apply(Deploy(-1, 0, U_NORTH))
    assert on_board(state) == [(BLUE, -1, 0, U_NORTH, "follower")]


# -- CAR-AM-BARN-10 ---------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-BARN-10")
def test_farmers_joined_to_an_older_barn_score_one_per_city() -> None:
    """Blue's farmer on L3. Red's barn on corner(0,0) scores nothing (no farmer in S0);
    B@(1,3)/0 joins L3 only; B@(1,2)/0 joins L3 and S0 -> the joined field borders CA and CN:
    Blue +2, Blue's farmer returns, the barn stays."""
    state = fx_barn(["E", "B", "B", "U"], [(BLUE, 0, 3, L3_FIELD)])
    assert barn_turn(state, 1, 1, 90, "NW") == [0, 0, 0]
    assert play(state, 1, 3, 0) == [0, 0, 0]
    assert on_board(state) == [(BLUE, 0, 3, L3_FIELD, "follower")]
    assert play(state, 1, 2, 0) == [0, 2, 0]
    assert field_log(state) == [("field", 2, [BLUE], "farmers joined a barn")]
    assert on_board(state) == []
    assert in_supply(state, BLUE, "follower") == 7
    assert barns(state) == [(RED, 0, 0)]


@pytest.mark.rule("CAR-AM-BARN-10")
def test_connection_scoring_only_for_the_majority() -> None:
    """The joined field is scored by farmer majority: L3 already reaches B@(1,3)/0 and
    U@(0,4)/0 (built), with Blue's farmer on (0,3) and Yellow's on (1,3) and (0,4). Red's barn
    on corner(0,0), then Blue's B@(1,2)/0 joins L3 to S0: Yellow (2) beats Blue (1) and alone
    gets 2; all three farmers return."""
    state = fx_barn(["E", "B", "U"], [(BLUE, 0, 3, L3_FIELD), (YELLOW, 1, 3, B_FIELD),
                                      (YELLOW, 0, 4, U_NORTH)],
                    extra_tiles="B@(1,3)/0 U@(0,4)/0")
    assert barn_turn(state, 1, 1, 90, "NW") == [0, 0, 0]
    assert play(state, 1, 2, 0) == [0, 0, 2]
    assert field_log(state) == [("field", 2, [YELLOW], "farmers joined a barn")]
    assert on_board(state) == []
    assert in_supply(state, YELLOW, "follower") == 7 and in_supply(state, BLUE, "follower") == 7


# -- CAR-AM-BARN-12 / 14 ----------------------------------------------------------------------

def barn14() -> CarcassonneState:
    """CAR-AM-BARN-14 up to the last turn, two players: Red E@(1,1)/90 + barn on corner(0,0),
    Blue B@(1,3)/0, Red U@(0,4)/0, Blue U@(1,4)/0 + barn on corner(0,3) (field L3); Red has
    drawn the last tile, B."""
    state = fx_barn(["E", "B", "U", "U", "B"], players=2)
    assert barn_turn(state, 1, 1, 90, "NW") == [0, 0]
    assert play(state, 1, 3, 0) == [0, 0]
    assert play(state, 0, 4, 0) == [0, 0]
    state.apply(Place(1, 4, 0))
    assert (1, 4, "NW") in barn_offers(state)
    state.apply(Deploy(1, 4, "NW", "barn"))
    assert state.scores == [0, 0]
    assert barns(state) == [(RED, 0, 0), (BLUE, 0, 3)]
    assert state.current_player == RED and state.tile == "B"
    return state


@pytest.mark.rule("CAR-AM-BARN-12")
def test_joining_two_barn_fields_scores_nothing() -> None:
    """B@(1,2)/0 joins the field of Red's barn with the field of Blue's barn: no farmer, so no
    scoring in that turn (the final scoring that follows is BARN-14's)."""
    state = barn14()
    log_before = len(state.log)
    state.apply(Place(1, 2, 0))
    root = feature_root(state, 1, 2, B_FIELD)
    assert sorted(state.graph.barns[root]) == [pack(0, 0), pack(0, 3)]  # one field, both barns
    turn_number = state.turn
    state.apply(Pass())
    assert [e for e in state.log[log_before:] if e["turn"] == turn_number
            and e["feature"] == "field"] == []


@pytest.mark.rule("CAR-AM-BARN-12")
def test_joining_two_barn_fields_in_mid_game_scores_nothing() -> None:
    """The same join with tiles still to come: scores and log stay as they were."""
    state = fx_barn(["E", "B", "U", "U", "B", "U"], players=2)
    barn_turn(state, 1, 1, 90, "NW")
    play(state, 1, 3, 0)
    play(state, 0, 4, 0)
    barn_turn(state, 1, 4, 0, "NW")
    log_before = len(state.log)
    assert play(state, 1, 2, 0) == [0, 0]
    assert len(state.log) == log_before
    assert not state.is_terminal


@pytest.mark.rule("CAR-AM-BARN-14", "CAR-AM-BARN-13")
def test_several_barns_in_one_field_each_score_in_full() -> None:
    """Game ends after B@(1,2)/0: the field of both barns borders CA and CN -> Red +8 and
    Blue +8 (4 per completed city each, no majority)."""
    state = barn14()
    assert play(state, 1, 2, 0) == [8, 8]
    assert state.is_terminal
    assert field_log(state) == [("barn", 8, [RED], ""), ("barn", 8, [BLUE], "")]


@pytest.mark.rule("CAR-AM-BARN-13", "CAR-AM-BARN-14")
def test_two_barns_of_one_player_in_one_field_pay_once() -> None:
    """With two barns each: Red E@(1,1)/90 + barn on corner(0,0) (field S0), Blue B@(1,3)/0,
    Red U@(1,4)/0 + barn on corner(0,3) (field L3), Blue B@(1,2)/0 joins S0 and L3, the last
    tile. The field borders CA and CN and holds two barns, both Red's: Red +8 once, not +16."""
    state = build(FX_BARN + " U@(0,4)/0", pile=["E", "B", "U", "B"], players=2,
                  turn_player=RED, options={**AM, "barns": 2})
    assert barn_turn(state, 1, 1, 90, "NW") == [0, 0]
    assert play(state, 1, 3, 0) == [0, 0]
    assert barn_turn(state, 1, 4, 0, "NW") == [0, 0]
    assert barns(state) == [(RED, 0, 0), (RED, 0, 3)]
    # Separate fields still: S0 borders CA and CN, L3 borders CA.
    assert seat_features(on_python(state))[RED][BARN_TERM] == 12.0
    state.apply(Place(1, 2, 0))
    # Joined: the evaluation's barn term pays Red once, as the final scoring will.
    assert seat_features(on_python(state))[RED][BARN_TERM] == 8.0
    state.apply(Pass())
    assert state.scores == [8, 0]
    assert state.is_terminal
    assert field_log(state) == [("barn", 8, [RED], "")]


# -- CAR-AM-BARN-13 ---------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-BARN-13")
def test_final_barn_scoring_four_per_completed_city() -> None:
    """BARN-07 followed at once by the end of the game (E is the last tile): Blue +6 from the
    barn placement, then Red's barn +8 at final scoring (CA and CN)."""
    state = fx_barn(["E"], [(BLUE, 0, 1, B_FIELD)])
    assert barn_turn(state, 1, 1, 90, "NW") == [8, 6, 0]
    assert state.is_terminal
    assert field_log(state) == [("field", 6, [BLUE], "barn placed"), ("barn", 8, [RED], "")]


@pytest.mark.rule("CAR-AM-BARN-13")
def test_fields_without_barn_score_farmers_as_usual() -> None:
    """Next to Red's barn field S0, Blue's farmer on L3 (a separate field bordering CA) is
    scored at the end as a normal farmer: 3 for CA, while Red's barn gets 8."""
    state = fx_barn(["E"], [(BLUE, 0, 3, L3_FIELD)])
    assert barn_turn(state, 1, 1, 90, "NW") == [8, 3, 0]
    assert field_log(state) == [("field", 3, [BLUE], ""), ("barn", 8, [RED], "")]


@pytest.mark.rule("CAR-AM-BARN-13")
def test_barn_in_a_field_without_completed_city_scores_zero() -> None:
    """Four B tiles around corner(0,0): the barn's field borders no city, so it earns 0."""
    state = build("B@(0,0)/0 B@(1,0)/0 B@(0,1)/0", pile=["B"], options=AM)
    assert barn_turn(state, 1, 1, 0, "NW") == [0, 0, 0]
    assert state.is_terminal


# -- CAR-AM-BARN-50 ---------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-BARN-50")
def test_abbey_between_a_barn_field_and_a_farmer_field_joins_nothing() -> None:
    """Yellow B@(1,3)/0, Red E@(1,1)/90 + barn on corner(0,0), Blue B@(2,2)/0; (1,2) is now a
    hole touching S0 (from N, W, E) and L3 (from S). Yellow plays her abbey there: no scoring,
    Blue's farmer on L3 stays. Red plays the last tile; then the game ends: Red +8 (barn: CA
    and CN), Blue +3 (farmer: L3 borders CA)."""
    state = fx_barn(["B", "E", "B", "U"], [(BLUE, 0, 3, L3_FIELD)], turn_player=YELLOW)
    assert play(state, 1, 3, 0) == [0, 0, 0]
    assert barn_turn(state, 1, 1, 90, "NW") == [0, 0, 0]
    assert play(state, 2, 2, 0) == [0, 0, 0]
    assert state.current_player == YELLOW and state.phase == "choose_tile"
    assert PlaceAbbey(1, 2) in state.legal_actions()
    log_before = len(state.log)
    state.apply(PlaceAbbey(1, 2))
    state.apply(Pass())
    assert state.scores == [0, 0, 0]
    assert len(state.log) == log_before
    assert on_board(state) == [(BLUE, 0, 3, L3_FIELD, "follower")]
    assert feature_root(state, 0, 1, B_FIELD) != feature_root(state, 0, 3, L3_FIELD)
    assert state.current_player == RED
    assert play(state, -1, 0, 0) == [8, 3, 0]  # the last tile, then final scoring
    assert state.is_terminal
    assert field_log(state) == [("field", 3, [BLUE], ""), ("barn", 8, [RED], "")]


# -- CAR-AM-BARN-51 ---------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-BARN-51")
def test_no_barn_in_an_abbey_turn() -> None:
    """FX-RING: Red plays her abbey into (0,1). Corner(-1,0) and corner(0,0) would otherwise
    have field corners on all three landscape tiles, but the abbey has none: no barn."""
    state = build(FX_RING, pile=["U", "U"], options=AM)
    assert state.phase == "choose_tile"
    state.apply(PlaceAbbey(0, 1))
    assert barn_offers(state) == set()
    assert set(state.legal_actions()) == {
        Pass(), Deploy(0, 1, MONASTERY, "follower"), Deploy(0, 1, MONASTERY, "wagon")}
    for corner in CORNERS:
        assert_illegal(state, Deploy(0, 1, corner, "barn"))


@pytest.mark.rule("CAR-AM-BARN-51")
def test_no_barn_point_at_an_abbey_corner_later() -> None:
    """An abbey already on the board spoils every point it touches: FX-BARN + E@(1,1)/90 +
    B@(1,3)/0 + B@(2,2)/0 + abbey at (1,2). Red draws and places B@(2,3)/0; corner(1,2)
    (tiles (1,2) abbey, (2,2), (1,3), (2,3)) is refused, and no barn is offered."""
    state = fx_barn(["B", "U"], extra_tiles="E@(1,1)/90 B@(1,3)/0 B@(2,2)/0 ABBEY@(1,2)/0")
    assert state.phase == "place_tile" and state.tile == "B"
    state.apply(Place(2, 3, 0))
    assert barn_offers(state) == set()
    assert_illegal(state, Deploy(2, 3, "NW", "barn"))
