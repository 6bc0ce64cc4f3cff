"""Rule tests for the Abbey & Mayor components and new landscape tiles: CAR-AM-TILES-01 .. 12.

The set-up rules (01, 02) are checked on fresh games through the public API. The tile rules
(03 .. 12) are played from FX-START with the expansion on: every tile of a scenario is drawn
from a fixed pile and placed by the seat whose turn it is (Red, Blue, Yellow, Red, ...), with
the figure the scenario names, so completion scoring and final scoring run through the real
turn flow. Locations are in board orientation (after rotation).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from fixtures import FX_START
from helpers import assert_illegal, events, feature_root

import boardwright as bw
from boardwright.games.carcassonne import Deploy, Pass, Place
from boardwright.games.carcassonne.scenario import build
from boardwright.games.carcassonne.state import CarcassonneState
from boardwright.games.carcassonne.tiles import CITY, FIELD, ROAD

RED, BLUE, YELLOW = 0, 1, 2
AM = {"expansions": ["abbey_mayor"]}
AM_TILES = [f"AM{n:02d}" for n in range(1, 13)]
# Padding so that the game goes on after the tiles a scenario names.
MORE = ["U"] * 5
# The 71 tiles of the base draw pile (the 72 base tiles minus the start tile D).
BASE_PILE = {
    "A": 2, "B": 4, "C": 1, "D": 3, "E": 5, "F": 2, "G": 1, "H": 3, "I": 2, "J": 3, "K": 3,
    "L": 3, "M": 2, "N": 3, "O": 2, "P": 3, "Q": 1, "R": 3, "S": 2, "T": 1, "U": 8, "V": 9,
    "W": 4, "X": 1,
}
FULL_SUPPLY = {"follower": 7, "mayor": 1, "wagon": 1, "barn": 1, "abbey": 1}


# -- helpers ----------------------------------------------------------------------------------

def new_am_game(players: int, seed: int = 0) -> CarcassonneState:
    """A fresh game with the expansion, through the public API (not a built scenario)."""
    state = bw.load("carcassonne", players=players, options=dict(AM)).new_game(seed)
    assert isinstance(state, bw.State)
    return state


def am_start(tiles: str, pile: Sequence[str], turn_player: int = RED) -> CarcassonneState:
    """A built expansion position whose turn begins with drawing `pile[0]` (no hole exists,
    so no abbey choice interrupts the scenarios of this file)."""
    state = build(tiles, pile=list(pile), options=dict(AM), turn_player=turn_player)
    assert state.phase == "place_tile" and state.tile == pile[0]
    return state


def play(state: CarcassonneState, x: int, y: int, rotation: int, location: str | None = None,
         figure: str = "follower") -> list[int]:
    """One whole turn of the current player: place the drawn tile, put `figure` on `location`
    of it (None passes); returns the score change per seat, final scoring included."""
    before = state.scores
    state.apply(Place(x, y, rotation))
    state.apply(Pass() if location is None else Deploy(x, y, location, figure))
    return [after - was for after, was in zip(state.scores, before)]


def place_only(state: CarcassonneState, x: int, y: int, rotation: int) -> None:
    """Place the drawn tile and stay in the figure step."""
    state.apply(Place(x, y, rotation))
    assert state.phase == "deploy"


def pile_contents(state: CarcassonneState) -> Counter[str]:
    """The whole draw pile at set-up: still face down plus the tile in the first player's hand
    (the engine draws it while creating the game)."""
    view = state.view(None)
    contents = Counter(view["remaining_tiles"])
    assert view["tile"] is not None
    contents[view["tile"]] += 1
    return contents


def figures_at(state: CarcassonneState) -> list[tuple[int, int, int, str, str]]:
    """(player, x, y, location, figure) of every figure on the board."""
    return [(f["player"], f["x"], f["y"], f["location"], f["figure"])
            for f in state.view(None)["followers"]]


def is_complete(state: CarcassonneState, x: int, y: int, location: str) -> bool:
    return state.graph.is_complete(feature_root(state, x, y, location))


def tile_variant(name: str, rotation: int) -> Any:
    """The tile type `name` turned by `rotation`, from an expansion game's tile set."""
    game = bw.load("carcassonne", players=2, options=dict(AM))
    return game.tile_types[name].variants[rotation // 90]


def locations(variant: Any, kind: int) -> set[str]:
    return {f.location for f in variant.features if f.kind == kind}


# -- CAR-AM-TILES-01 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-TILES-01")
def test_four_player_supplies_hold_the_new_pieces() -> None:
    """Four players: each supply is 7 followers + mayor + wagon + barn + abbey; the abbeys of
    the two unused colours are nowhere: not in a supply, not in the pile."""
    state = new_am_game(4)
    view = state.view(None)
    assert view["supply"] == [FULL_SUPPLY] * 4
    assert sum(s["abbey"] for s in view["supply"]) == 4
    assert "ABBEY" not in pile_contents(state)
    assert all(t["tile"] != "ABBEY" for t in view["board"])


@pytest.mark.rule("CAR-AM-TILES-01")
@pytest.mark.parametrize("players", [1, 2, 3, 5, 6])
def test_every_seat_gets_the_same_supply(players: int) -> None:
    """The supply does not depend on the player count (six colours with the expansion)."""
    state = new_am_game(players)
    assert state.view(None)["supply"] == [FULL_SUPPLY] * players


@pytest.mark.rule("CAR-AM-TILES-01")
def test_base_game_has_no_expansion_pieces() -> None:
    """Without the expansion nobody holds a mayor, wagon, barn or abbey."""
    state = bw.load("carcassonne", players=4, options={}).new_game(0)
    assert state.view(None)["supply"] == [{"follower": 7}] * 4


# -- CAR-AM-TILES-02 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-TILES-02")
@pytest.mark.parametrize("seed", [0, 7, 2024])
def test_draw_pile_holds_base_and_the_twelve_new_tiles(seed: int) -> None:
    """New expansion game: 83 tiles = the 71 base tiles + AM01..AM12 once each, no abbey."""
    state = new_am_game(3, seed)
    contents = pile_contents(state)
    assert sum(contents.values()) == 83
    assert contents == Counter({**BASE_PILE, **{name: 1 for name in AM_TILES}})
    assert state.view(None)["board"] == [{"x": 0, "y": 0, "tile": "D", "rotation": 0}]


@pytest.mark.rule("CAR-AM-TILES-02")
def test_new_tiles_can_be_switched_off() -> None:
    """`abbey_mayor_tiles = false` keeps the 71-tile base pile (the pieces stay)."""
    game = bw.load("carcassonne", players=3, options={**AM, "abbey_mayor_tiles": False})
    state = game.new_game(3)
    assert pile_contents(state) == Counter(BASE_PILE)
    assert state.view(None)["supply"] == [FULL_SUPPLY] * 3


# -- CAR-AM-TILES-03 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-TILES-03")
def test_am11_road_completes_only_when_all_three_branches_are_closed() -> None:
    """FX-START + A@(-1,0)/270. Red AM11@(1,0)/0 with a highwayman; Blue A@(2,0)/90 leaves the
    branch toward (1,-1) open; Yellow L@(1,-1)/0 closes it: 5 tiles, Red +5."""
    state = am_start(FX_START + " A@(-1,0)/270", ["AM11", "A", "L", *MORE])
    assert play(state, 1, 0, 0, "E.N.W") == [0, 0, 0]
    assert play(state, 2, 0, 90) == [0, 0, 0]
    assert not is_complete(state, 1, 0, "E.N.W")
    assert state.graph.open[feature_root(state, 1, 0, "E.N.W")] == 1
    assert figures_at(state) == [(RED, 1, 0, "E.N.W", "follower")]
    assert play(state, 1, -1, 0) == [5, 0, 0]
    assert events(state) == [("road", True, 5, [RED])]
    assert figures_at(state) == []


@pytest.mark.rule("CAR-AM-TILES-03")
def test_am11_is_one_road_part() -> None:
    """Tile model: AM11 has a single road part touching N, E and W, whatever the rotation."""
    for rotation, sides in ((0, "E.N.W"), (90, "E.N.S"), (180, "E.S.W"), (270, "N.S.W")):
        assert locations(tile_variant("AM11", rotation), ROAD) == {sides}


# -- CAR-AM-TILES-04 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-TILES-04")
def test_am12_fields_north_and_south_of_its_city() -> None:
    """FX-START. Blue U@(-1,0)/0 with a farmer on its south field; Yellow E@(0,-1)/180;
    Red AM12@(1,0)/90 (city N-S, road W-E). Its field touching W meets both fields of D, so it
    is joined to Blue's farmer: rejected. The field touching only EL is separate: accepted."""
    state = am_start(FX_START, ["U", "E", "AM12", *MORE], turn_player=BLUE)
    play(state, -1, 0, 0, "ER.SL.SR.WL")
    play(state, 0, -1, 180)
    assert state.current_player == RED
    place_only(state, 1, 0, 90)
    west = feature_root(state, 1, 0, "WL.WR")
    assert west == feature_root(state, -1, 0, "ER.SL.SR.WL")
    assert west == feature_root(state, 0, 0, "EL.WR")
    assert_illegal(state, Deploy(1, 0, "WL.WR"))
    offered = {a for a in state.legal_actions() if isinstance(a, Deploy) and a.figure == "follower"}
    assert offered == {Deploy(1, 0, "E.W"), Deploy(1, 0, "N.S"), Deploy(1, 0, "EL"),
                       Deploy(1, 0, "ER")}
    state.apply(Deploy(1, 0, "EL"))
    assert (RED, 1, 0, "EL", "follower") in figures_at(state)


@pytest.mark.rule("CAR-AM-TILES-04")
def test_am12_road_runs_under_the_city() -> None:
    """FX-START. Red AM12@(1,0)/90 with a highwayman on its road; Blue A@(2,0)/90, Yellow
    A@(-1,0)/270 close the road {(-1,0),(0,0),(1,0),(2,0)}: Red +4; AM12's city stays open."""
    state = am_start(FX_START, ["AM12", "A", "A", *MORE])
    assert play(state, 1, 0, 90, "E.W") == [0, 0, 0]
    assert play(state, 2, 0, 90) == [0, 0, 0]
    assert play(state, -1, 0, 270) == [4, 0, 0]
    assert events(state) == [("road", True, 4, [RED])]
    city = feature_root(state, 1, 0, "N.S")
    assert not state.graph.is_complete(city)
    assert state.graph.pennants[city] == 1
    assert city != feature_root(state, 1, 0, "E.W")


@pytest.mark.rule("CAR-AM-TILES-04")
def test_am12_tile_model() -> None:
    """Rotation 0: one road N-S, one city W-E with 1 pennant, fields NL, NR and SL+SR."""
    variant = tile_variant("AM12", 0)
    assert locations(variant, ROAD) == {"N.S"}
    assert locations(variant, CITY) == {"E.W"}
    assert locations(variant, FIELD) == {"NL", "NR", "SL.SR"}
    assert [f.pennants for f in variant.features if f.kind == CITY] == [1]


# -- CAR-AM-TILES-05 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-TILES-05")
def test_am02_crossing_cities_are_separate() -> None:
    """FX-START. Red AM02@(0,-1)/0 with a knight on the W-E city; Blue E@(0,-2)/180 with a
    knight completes the N-S pennant city {(0,0),(0,-1),(0,-2)}: Blue +8, Red's knight stays."""
    state = am_start(FX_START, ["AM02", "E", *MORE])
    assert play(state, 0, -1, 0, "E.W") == [0, 0, 0]
    assert play(state, 0, -2, 180, "S") == [0, 8, 0]
    assert events(state) == [("city", True, 8, [BLUE])]
    assert figures_at(state) == [(RED, 0, -1, "E.W", "follower")]
    assert not is_complete(state, 0, -1, "E.W")
    assert feature_root(state, 0, -1, "E.W") != feature_root(state, 0, -1, "N.S")


@pytest.mark.rule("CAR-AM-TILES-05")
def test_am02_knight_in_one_city_leaves_the_other_free() -> None:
    """With Red's knight on the W-E city, the N-S city of the same tile is still offered."""
    state = am_start(FX_START, ["AM02", *MORE])
    place_only(state, 0, -1, 0)
    offered = {a.location for a in state.legal_actions()
               if isinstance(a, Deploy) and a.figure == "follower"}
    assert offered == {"N.S", "E.W", "IN1", "IN2"}


# -- CAR-AM-TILES-06 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-TILES-06")
def test_am03_pennant_city_completes_with_d() -> None:
    """FX-START. Red AM03@(0,-1)/180 with a knight on its city touching S: 2 tiles + 1 pennant,
    Red +6. The W-E city is a separate open feature; the field touching N borders both."""
    state = am_start(FX_START, ["AM03", *MORE])
    assert play(state, 0, -1, 180, "S") == [6, 0, 0]
    assert events(state) == [("city", True, 6, [RED])]
    graph = state.graph
    pennant_city = feature_root(state, 0, -1, "S")
    band = feature_root(state, 0, -1, "E.W")
    assert pennant_city == feature_root(state, 0, 0, "N")
    assert band != pennant_city and not graph.is_complete(band)
    north = feature_root(state, 0, -1, "NL.NR")
    assert {graph.find(c) for c in graph.cities[north]} == {pennant_city, band}
    assert graph.completed_cities(north) == {pennant_city}
    inner = feature_root(state, 0, -1, "IN1")
    assert {graph.find(c) for c in graph.cities[inner]} == {pennant_city, band}


# -- CAR-AM-TILES-07 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-TILES-07")
def test_enclosed_meadow_farmer_scores_the_completed_city() -> None:
    """FX-START. Red AM02@(0,-1)/0 with a farmer on IN1; Blue E@(0,-2)/180 completes the N-S
    city. Game ends: the meadow borders that city and the open W-E city: Red +3."""
    state = am_start(FX_START, ["AM02", "E"])
    play(state, 0, -1, 0, "IN1")
    in1, in2 = feature_root(state, 0, -1, "IN1"), feature_root(state, 0, -1, "IN2")
    assert in1 != in2
    assert state.graph.figures[in2] == ()
    assert play(state, 0, -2, 180) == [3, 0, 0]
    assert state.is_terminal
    assert events(state) == [("field", False, 3, [RED])]


@pytest.mark.rule("CAR-AM-TILES-07")
def test_enclosed_meadows_never_join() -> None:
    """IN1 and IN2 stay one-part features however the tiles around are laid."""
    state = am_start(FX_START, ["AM02", "E", "E", "E", *MORE])
    play(state, 0, -1, 0)
    play(state, 0, -2, 180)
    play(state, -1, -1, 90)
    play(state, 1, -1, 270)
    graph = state.graph
    for location in ("IN1", "IN2"):
        root = feature_root(state, 0, -1, location)
        assert graph.size[root] == 1
    assert tile_variant("AM02", 0).field_corners == frozenset()
    assert tile_variant("AM03", 0).field_corners == frozenset()


# -- CAR-AM-TILES-08 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-TILES-08")
def test_am05_roads_end_at_its_monastery() -> None:
    """FX-START + A@(-1,0)/270. Red AM05@(1,0)/0 with a highwayman on its road touching W:
    road {(-1,0),(0,0),(1,0)} complete, Red +3; the other three roads stay separate and open."""
    state = am_start(FX_START + " A@(-1,0)/270", ["AM05", *MORE])
    assert play(state, 1, 0, 0, "W") == [3, 0, 0]
    assert events(state) == [("road", True, 3, [RED])]
    graph = state.graph
    roots = {feature_root(state, 1, 0, side) for side in ("N", "E", "S")}
    assert len(roots) == 3
    for root in roots:
        assert graph.tile_count(root) == 1 and graph.open[root] == 1
    monastery = feature_root(state, 1, 0, "MONASTERY")
    assert monastery not in roots and not graph.is_complete(monastery)


# -- CAR-AM-TILES-09 --------------------------------------------------------------------------

def am07_with_farmer(location: str) -> CarcassonneState:
    """FX-START; Red AM07@(0,-1)/180 (city S, road W-N) with a farmer at `location`; it is the
    last tile, so the game ends after this turn."""
    state = am_start(FX_START, ["AM07"])
    play(state, 0, -1, 180, location)
    return state


@pytest.mark.rule("CAR-AM-TILES-09")
def test_am07_pocket_field_borders_the_city() -> None:
    """The pocket touching only WL borders the completed city {(0,0),(0,-1)}: no knight, no
    score at completion; at the end Red's farmer there scores 3."""
    state = am07_with_farmer("WL")
    assert is_complete(state, 0, 0, "N")
    assert state.is_terminal
    assert state.scores == [3, 0, 0]
    assert events(state) == [("field", False, 3, [RED])]


@pytest.mark.rule("CAR-AM-TILES-09")
def test_am07_corner_field_borders_no_city() -> None:
    """The corner field {NL,WR} between road and tile edge borders no city: 0 points."""
    state = am07_with_farmer("NL.WR")
    assert state.is_terminal
    assert state.scores == [0, 0, 0]


@pytest.mark.rule("CAR-AM-TILES-09")
@pytest.mark.parametrize("name", ["AM07", "AM08"])
def test_am07_am08_have_three_fields_two_bordering_the_city(name: str) -> None:
    """Tile model: three field parts; exactly two of them border the city."""
    variant = tile_variant(name, 0)
    fields = [f for f in variant.features if f.kind == FIELD]
    assert len(fields) == 3
    assert sorted(len(f.borders) for f in fields) == [0, 1, 1]


# -- CAR-AM-TILES-10 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-TILES-10")
def test_am10_dead_end_closes_a_road() -> None:
    """FX-START + A@(-1,0)/270. Red AM10@(1,0)/90 with a highwayman: road {(-1,0),(0,0),(1,0)}
    complete, Red +3."""
    state = am_start(FX_START + " A@(-1,0)/270", ["AM10", *MORE])
    assert play(state, 1, 0, 90, "W") == [3, 0, 0]
    assert events(state) == [("road", True, 3, [RED])]


@pytest.mark.rule("CAR-AM-TILES-10")
def test_am06_gate_road_is_not_part_of_the_city() -> None:
    """FX-START. Red AM06@(0,-1)/180 with a knight: city {(0,0),(0,-1)} complete, Red +4; the
    road of (0,-1) touching E is a separate open road."""
    state = am_start(FX_START, ["AM06", *MORE])
    assert play(state, 0, -1, 180, "S") == [4, 0, 0]
    assert events(state) == [("city", True, 4, [RED])]
    road = feature_root(state, 0, -1, "E")
    assert road != feature_root(state, 0, 0, "N")
    assert state.graph.open[road] == 1 and state.graph.tile_count(road) == 1


@pytest.mark.rule("CAR-AM-TILES-10")
def test_am04_each_road_ends_at_its_own_gate() -> None:
    """Tile model: AM04's two roads each touch one side and are not the cities' parts."""
    variant = tile_variant("AM04", 0)
    assert locations(variant, ROAD) == {"E", "S"}
    assert locations(variant, CITY) == {"N", "W"}


# -- CAR-AM-TILES-11 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-TILES-11")
def test_am01_two_pennants_count_for_the_city() -> None:
    """FX-START. Red AM01@(0,-1)/0 with a knight; Blue E@(-1,-1)/90, Yellow E@(1,-1)/270, Red
    E@(0,-2)/180: city of 5 tiles and 2 pennants complete, Red +14."""
    state = am_start(FX_START, ["AM01", "E", "E", "E", *MORE])
    assert play(state, 0, -1, 0, "E.N.S.W") == [0, 0, 0]
    assert play(state, -1, -1, 90) == [0, 0, 0]
    assert play(state, 1, -1, 270) == [0, 0, 0]
    assert play(state, 0, -2, 180) == [14, 0, 0]
    assert events(state) == [("city", True, 14, [RED])]


@pytest.mark.rule("CAR-AM-TILES-11")
def test_am01_pennants_give_mayor_strength_two() -> None:
    """Both pennants count for a mayor: Red's mayor (strength 2) beats Blue's knight (1);
    with one pennant counted they would tie and both score."""
    state = build(FX_START + " AM01@(0,-1)/0 E@(-1,-1)/90 E@(1,-1)/270",
                  followers=[(RED, 0, -1, "E.N.S.W", "mayor"), (BLUE, 0, 0, "N")],
                  pile=["E", *MORE], options=dict(AM))
    assert play(state, 0, -2, 180) == [14, 0, 0]


# -- CAR-AM-TILES-12 --------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-TILES-12")
@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_am09_has_no_field_corner(rotation: int) -> None:
    """Tile model: no rotation of AM09 has a field corner."""
    assert tile_variant("AM09", rotation).field_corners == frozenset()


@pytest.mark.rule("CAR-AM-TILES-12")
def test_am09_three_separate_fields() -> None:
    """FX-START; AM09@(0,1)/0: its field touching N joins D's south field; the fields touching
    E and S are two further separate features, each bordering the pennant city."""
    state = am_start(FX_START, ["AM09", *MORE])
    place_only(state, 0, 1, 0)
    assert not any(isinstance(a, Deploy) and a.figure == "barn" for a in state.legal_actions())
    north = feature_root(state, 0, 1, "NL.NR")
    east = feature_root(state, 0, 1, "EL.ER")
    south = feature_root(state, 0, 1, "SL.SR")
    assert north == feature_root(state, 0, 0, "ER.SL.SR.WL")
    assert len({north, east, south}) == 3
    city = feature_root(state, 0, 1, "W")
    graph = state.graph
    for root in (east, south):
        assert {graph.find(c) for c in graph.cities[root]} == {city}
    assert city in {graph.find(c) for c in graph.cities[north]}
