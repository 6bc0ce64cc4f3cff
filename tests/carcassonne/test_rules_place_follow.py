"""Rule tests for tile and follower placement: CAR-BASE-PLACE-01..04 and CAR-BASE-FOLLOW-01..05.

Each test reproduces the `test:` scenario of its rule in the catalogue
(rule catalogue, sections 4.3 and 4.4) on the board fixtures of section
2.8 and asserts the exact outcome given there. Locations are in board orientation (after
rotation), as the catalogue names them. Seats: 0 = Red, 1 = Blue, 2 = Yellow.
"""

from __future__ import annotations

from typing import Any

import pytest
from fixtures import FX_EAST, FX_FIELD, FX_HOLE_CITY, FX_RING, FX_ROAD_HOLE, FX_START
from helpers import assert_illegal, feature_root, place_options

import boardwright as bw
from boardwright.games.carcassonne import Deploy, Pass, Place
from boardwright.games.carcassonne.actions import pack
from boardwright.games.carcassonne.scenario import build
from boardwright.games.carcassonne.state import CarcassonneState
from boardwright.games.carcassonne.tiles import HALVES, SIDES

RED, BLUE, YELLOW = 0, 1, 2

# Locations of U@(x,y)/0: its road, its field touching N and its field touching S.
U_ROAD, U_NORTH, U_SOUTH = "E.W", "EL.NL.NR.WR", "ER.SL.SR.WL"
# D@(0,0)/0: city, road, field between city and road (FN), field south of the road (FS).
D_CITY, D_ROAD, D_FN, D_FS = "N", "E.W", "EL.WR", "ER.SL.SR.WL"

# FX-EAST without E@(3,-1)/270 (CAR-BASE-FOLLOW-02).
FX_EAST_WEST_CITY_ONLY = FX_EAST.replace(" E@(3,-1)/270", "")


# -- helpers ------------------------------------------------------------------------------------


def assert_legal(state: CarcassonneState, action: Any) -> CarcassonneState:
    """The action is accepted (tried on a clone, so `state` itself is untouched)."""
    trial = state.clone()
    trial.apply(action)
    return trial


def deploy_options(state: CarcassonneState) -> set[tuple[int, int, str]]:
    """The legal follower placements as (x, y, location); Pass must always be among them."""
    actions = state.legal_actions()
    assert Pass() in actions
    others = [a for a in actions if a != Pass()]
    assert all(isinstance(a, Deploy) and a.figure == "follower" for a in others), others
    return {(a.x, a.y, a.location) for a in others}  # type: ignore[union-attr]


def tile_at(state: CarcassonneState, x: int, y: int) -> tuple[str, int]:
    """(tile letter, rotation) of the tile at (x, y) as the board shows it."""
    variant, _ = state.graph.board[pack(x, y)]
    return variant.tile, variant.rotation


def knights_on(state: CarcassonneState, x: int, y: int, location: str) -> list[int]:
    """Seats owning the followers in the feature of (x, y, location), sorted."""
    root = feature_root(state, x, y, location)
    return sorted(state.occupant[part][0] for part in state.graph.figures[root])


def roles(state: CarcassonneState) -> set[tuple[int, int, int, str, str]]:
    """(seat, x, y, location, role) of every follower on the board."""
    return {(f["player"], f["x"], f["y"], f["location"], f["role"])
            for f in state.view(None)["followers"]}


# -- CAR-BASE-PLACE-01 ----------------------------------------------------------------------------


@pytest.mark.rule("CAR-BASE-PLACE-01")
def test_place_position_needs_a_shared_side() -> None:
    """FX-START: U@(1,0)/0 legal; U@(1,1)/0 illegal (diagonal only); U@(2,0)/0 illegal."""
    state = build(FX_START, pile=["U", "U"], turn_player=RED)
    placed = assert_legal(state, Place(1, 0, 0))
    assert tile_at(placed, 1, 0) == ("U", 0)
    assert_illegal(state, Place(1, 1, 0))
    assert_illegal(state, Place(2, 0, 0))
    assert_illegal(state, {"type": "place", "x": 1, "y": 1, "rotation": 0})


@pytest.mark.rule("CAR-BASE-PLACE-01")
def test_place_position_must_be_empty() -> None:
    """The start tile's own position is taken, whatever the rotation."""
    state = build(FX_START, pile=["U", "U"], turn_player=RED)
    for rotation in (0, 90, 180, 270):
        assert_illegal(state, Place(0, 0, rotation))


@pytest.mark.rule("CAR-BASE-PLACE-01")
def test_place_positions_offered_are_orthogonal_neighbours_only() -> None:
    """B (fits any field side) is offered exactly at the free orthogonal neighbours that show
    it a field side — never diagonally: on FX-START only (0,1)."""
    state = build(FX_START, pile=["B", "U"], turn_player=RED)
    assert place_options(state) == {(0, 1, 0)}
    for x, y in [(1, 1), (-1, 1), (1, -1), (-1, -1), (0, 2)]:
        assert_illegal(state, Place(x, y, 0))


# -- CAR-BASE-PLACE-02 ----------------------------------------------------------------------------


@pytest.mark.rule("CAR-BASE-PLACE-02")
def test_matching_sides_fx_start_e() -> None:
    """FX-START: E@(0,-1)/0 illegal (field faces D's city); E@(0,-1)/180 legal."""
    state = build(FX_START, pile=["E", "U"], turn_player=RED)
    assert_illegal(state, Place(0, -1, 0))
    assert tile_at(assert_legal(state, Place(0, -1, 180)), 0, -1) == ("E", 180)


@pytest.mark.rule("CAR-BASE-PLACE-02")
@pytest.mark.parametrize("rotation", [0, 90, 270])
def test_matching_sides_e_only_one_rotation_at_city(rotation: int) -> None:
    """Every other rotation of E at (0,-1) puts a field side against D's city."""
    state = build(FX_START, pile=["E", "U"], turn_player=RED)
    assert_illegal(state, Place(0, -1, rotation))


@pytest.mark.rule("CAR-BASE-PLACE-02")
def test_matching_sides_fx_start_u() -> None:
    """FX-START: U@(1,0)/90 illegal (field faces D's road); U@(1,0)/0 legal; U@(1,0)/180 is
    the same picture as rotation 0, which is the one offered, so it is refused with a message
    saying so; 270 is illegal like 90."""
    state = build(FX_START, pile=["U", "U"], turn_player=RED)
    assert_illegal(state, Place(1, 0, 90))
    assert_illegal(state, Place(1, 0, 270))
    assert (1, 0, 0) in place_options(state) and (1, 0, 180) not in place_options(state)
    with pytest.raises(bw.IllegalActionError, match="rotation 180 is the same placement as "
                                                    "rotation 0, play that"):
        state.clone().apply(Place(1, 0, 180))
    assert_illegal(state, Place(1, 0, 180))
    assert tile_at(assert_legal(state, Place(1, 0, 0)), 1, 0) == ("U", 0)


@pytest.mark.rule("CAR-BASE-PLACE-02")
def test_matching_sides_all_neighbours_fx_ring() -> None:
    """FX-RING: U@(0,1)/0 illegal (its W road faces a field although N matches); B@(0,1)/0
    legal (four field contacts)."""
    state = build(FX_RING, pile=["U", "U"], turn_player=RED)
    for rotation in (0, 90, 180, 270):
        assert_illegal(state, Place(0, 1, rotation))
    assert not {p for p in place_options(state) if p[:2] == (0, 1)}

    state = build(FX_RING, pile=["B", "U"], turn_player=RED)
    assert (0, 1, 0) in place_options(state)
    assert tile_at(assert_legal(state, Place(0, 1, 0)), 0, 1) == ("B", 0)
    for rotation in (90, 180, 270):  # all rotations of B are the same picture: only 0 is offered
        assert (0, 1, rotation) not in place_options(state)
        assert_illegal(state, Place(0, 1, rotation))


@pytest.mark.rule("CAR-BASE-PLACE-02")
def test_matching_sides_three_of_four_is_not_enough() -> None:
    """FX-HOLE-CITY: the hole (0,1) sees fields on N, E, S and city CI on W. B matches three
    neighbours but not the fourth → illegal; only E@(0,1)/270 (city W) fits there."""
    state = build(FX_HOLE_CITY, pile=["B", "U"], turn_player=RED)
    assert_illegal(state, Place(0, 1, 0))
    state = build(FX_HOLE_CITY, pile=["E", "U"], turn_player=RED)
    assert {p for p in place_options(state) if p[:2] == (0, 1)} == {(0, 1, 270)}
    for rotation in (0, 90, 180):
        assert_illegal(state, Place(0, 1, rotation))
    assert_legal(state, Place(0, 1, 270))


# -- CAR-BASE-PLACE-03 ----------------------------------------------------------------------------


@pytest.mark.rule("CAR-BASE-PLACE-03")
def test_rotation_e_180() -> None:
    """E with rotation 180 has its city on S and its field on {NL,NR,EL,ER,WL,WR}."""
    state = build(FX_START, pile=["E", "U"], turn_player=RED)
    state.apply(Place(0, -1, 180))
    assert deploy_options(state) == {(0, -1, "S"), (0, -1, "EL.ER.NL.NR.WL.WR")}
    # The city joined D's city through E's (rotated) S side.
    assert feature_root(state, 0, -1, "S") == feature_root(state, 0, 0, D_CITY)


@pytest.mark.rule("CAR-BASE-PLACE-03")
def test_rotation_v_90() -> None:
    """V with rotation 90 has its road on N and W, its small field on {WR,NL} and its large
    field on {NR,EL,ER,SL,SR,WL}; the features connect in that orientation."""
    state = build(FX_START, pile=["V", "U"], turn_player=RED)
    state.apply(Place(1, 0, 90))
    assert deploy_options(state) == {(1, 0, "N.W"), (1, 0, "NL.WR"), (1, 0, "EL.ER.NR.SL.SR.WL")}
    # W road meets D's road; WR meets D's EL (field FN); WL meets D's ER (field FS).
    assert feature_root(state, 1, 0, "N.W") == feature_root(state, 0, 0, D_ROAD)
    assert feature_root(state, 1, 0, "NL.WR") == feature_root(state, 0, 0, D_FN)
    assert feature_root(state, 1, 0, "EL.ER.NR.SL.SR.WL") == feature_root(state, 0, 0, D_FS)
    assert feature_root(state, 0, 0, D_FN) != feature_root(state, 0, 0, D_FS)


@pytest.mark.rule("CAR-BASE-PLACE-03")
@pytest.mark.parametrize("quarter", [1, 2, 3])
def test_rotation_maps_every_tile_clockwise(quarter: int) -> None:
    """For every tile, a clockwise turn by 90·q sends side s to side s+q and half-edge h to
    h+2q (N→E, NL→EL, WR→NR, …) for every feature part."""
    game = bw.load("carcassonne", players=2)
    for name, tile_type in game.tile_types.items():
        base, turned = tile_type.variants[0], tile_type.variants[quarter]
        assert turned.rotation == 90 * quarter
        for side in range(4):
            assert turned.side_types[(side + quarter) % 4] == base.side_types[side], name

        def rotated(location: str) -> str:
            if location == "MONASTERY":
                return location
            names = []
            for part in location.split("."):
                if part in SIDES:
                    names.append(SIDES[(SIDES.index(part) + quarter) % 4])
                else:
                    names.append(HALVES[(HALVES.index(part) + 2 * quarter) % 8])
            return ".".join(sorted(names))

        assert sorted(f.location for f in turned.features) == sorted(
            rotated(f.location) for f in base.features), name


# -- CAR-BASE-PLACE-04 ----------------------------------------------------------------------------


def fx_start_red_highwayman() -> CarcassonneState:
    """FX-START after Red placed U@(1,0)/0 with a highwayman on its road; Blue holds a U."""
    state = build(FX_START, pile=["U", "U", "U"], turn_player=RED)
    state.apply(Place(1, 0, 0))
    state.apply(Deploy(1, 0, U_ROAD))
    assert (state.current_player, state.tile) == (BLUE, "U")
    return state


@pytest.mark.rule("CAR-BASE-PLACE-04")
def test_features_join_road_across_sides() -> None:
    """Blue places U@(-1,0)/0: the road now runs (-1,0)–(0,0)–(1,0) and holds Red's
    highwayman, so a highwayman there is illegal; a farmer on the field touching N is legal."""
    state = fx_start_red_highwayman()
    state.apply(Place(-1, 0, 0))
    road = feature_root(state, -1, 0, U_ROAD)
    assert road == feature_root(state, 0, 0, D_ROAD) == feature_root(state, 1, 0, U_ROAD)
    assert state.graph.tile_count(road) == 3
    assert state.graph.open[road] == 2  # the far ends of the two U tiles
    assert knights_on(state, -1, 0, U_ROAD) == [RED]

    assert_illegal(state, Deploy(-1, 0, U_ROAD))
    assert deploy_options(state) == {(-1, 0, U_NORTH), (-1, 0, U_SOUTH)}
    after = assert_legal(state, Deploy(-1, 0, U_NORTH))
    assert (BLUE, -1, 0, U_NORTH, "farmer") in roles(after)


@pytest.mark.rule("CAR-BASE-PLACE-04")
def test_features_join_fields_half_edge_to_half_edge() -> None:
    """U@(1,0)/0's north field joins D's field FN (EL↔WR), its south field joins FS (ER↔WL);
    the two fields stay separate (the road divides them)."""
    state = build(FX_START, pile=["U", "U"], turn_player=RED)
    state.apply(Place(1, 0, 0))
    assert feature_root(state, 1, 0, U_NORTH) == feature_root(state, 0, 0, D_FN)
    assert feature_root(state, 1, 0, U_SOUTH) == feature_root(state, 0, 0, D_FS)
    assert feature_root(state, 1, 0, U_NORTH) != feature_root(state, 1, 0, U_SOUTH)


@pytest.mark.rule("CAR-BASE-PLACE-04")
def test_features_join_merges_several_features() -> None:
    """FX-EAST: G@(2,-1)/0 merges the two separate one-tile cities into one completed
    3-tile city."""
    state = build(FX_EAST, pile=["G", "U"], turn_player=RED)
    west, east = feature_root(state, 1, -1, "E"), feature_root(state, 3, -1, "W")
    assert west != east
    state.apply(Place(2, -1, 0))
    city = feature_root(state, 2, -1, "E.W")
    assert city == feature_root(state, 1, -1, "E") == feature_root(state, 3, -1, "W")
    assert state.graph.tile_count(city) == 3
    assert state.graph.is_complete(city)


# -- CAR-BASE-FOLLOW-01 ---------------------------------------------------------------------------


@pytest.mark.rule("CAR-BASE-FOLLOW-01")
def test_follower_spots_are_the_parts_of_the_placed_tile() -> None:
    """FX-START, Red places U@(1,0)/0 → the legal spots are exactly its road, its field
    touching N and its field touching S; the city of (0,0) is rejected."""
    state = build(FX_START, pile=["U", "U"], turn_player=RED)
    state.apply(Place(1, 0, 0))
    assert deploy_options(state) == {(1, 0, U_ROAD), (1, 0, U_NORTH), (1, 0, U_SOUTH)}
    assert_illegal(state, Deploy(0, 0, D_CITY))
    assert_illegal(state, Deploy(0, 0, D_FS))  # any part of another tile
    assert_illegal(state, Deploy(1, 0, "N"))  # no such part on U


@pytest.mark.rule("CAR-BASE-FOLLOW-01")
@pytest.mark.parametrize("location,role", [(U_ROAD, "highwayman"), (U_NORTH, "farmer"),
                                           (U_SOUTH, "farmer")])
def test_follower_placed_on_chosen_part(location: str, role: str) -> None:
    """Each offered spot works: the follower leaves Red's supply for that part."""
    state = build(FX_START, pile=["U", "U"], turn_player=RED)
    state.apply(Place(1, 0, 0))
    state.apply(Deploy(1, 0, location))
    assert roles(state) == {(RED, 1, 0, location, role)}
    assert state.view(None)["supply"][RED] == {"follower": 6}


@pytest.mark.rule("CAR-BASE-FOLLOW-01")
def test_at_most_one_follower_per_turn() -> None:
    """After one follower the turn is over: a second deployment is rejected."""
    state = build(FX_START, pile=["U", "U"], turn_player=RED)
    state.apply(Place(1, 0, 0))
    state.apply(Deploy(1, 0, U_ROAD))
    assert state.current_player == BLUE
    assert_illegal(state, Deploy(1, 0, U_NORTH))
    assert len(roles(state)) == 1


@pytest.mark.rule("CAR-BASE-FOLLOW-01")
def test_monastery_is_a_follower_spot() -> None:
    """A monastery tile offers its monastery as well as its field."""
    state = build(FX_START, pile=["B", "U"], turn_player=RED)
    state.apply(Place(0, 1, 0))
    assert deploy_options(state) == {(0, 1, "MONASTERY"), (0, 1, "EL.ER.NL.NR.SL.SR.WL.WR")}


@pytest.mark.rule("CAR-BASE-FOLLOW-01")
def test_no_field_spots_without_farmers() -> None:
    """With `farmers = false` only the road remains; a field deployment is rejected."""
    state = build(FX_START, pile=["U", "U"], turn_player=RED, options={"farmers": False})
    state.apply(Place(1, 0, 0))
    assert deploy_options(state) == {(1, 0, U_ROAD)}
    assert_illegal(state, Deploy(1, 0, U_NORTH))


# -- CAR-BASE-FOLLOW-02 ---------------------------------------------------------------------------


def east_city_with_red_knight(turn_player: int) -> CarcassonneState:
    """FX-EAST without E@(3,-1)/270, Red's knight on the city of (1,-1); G placed at (2,-1)."""
    state = build(FX_EAST_WEST_CITY_ONLY, followers=[(RED, 1, -1, "E")], pile=["G", "U"],
                  turn_player=turn_player)
    state.apply(Place(2, -1, 0))
    return state


@pytest.mark.rule("CAR-BASE-FOLLOW-02")
def test_occupied_city_rejects_a_knight() -> None:
    """Blue places G@(2,-1)/0 → a knight on its city is rejected (Red's knight is in it); a
    farmer on its field touching N is accepted."""
    state = east_city_with_red_knight(BLUE)
    assert knights_on(state, 2, -1, "E.W") == [RED]
    assert_illegal(state, Deploy(2, -1, "E.W"))
    assert deploy_options(state) == {(2, -1, "NL.NR"), (2, -1, "SL.SR")}
    after = assert_legal(state, Deploy(2, -1, "NL.NR"))
    assert (BLUE, 2, -1, "NL.NR", "farmer") in roles(after)


@pytest.mark.rule("CAR-BASE-FOLLOW-02")
def test_own_follower_also_blocks() -> None:
    """The placing player's own knight blocks too: Red cannot add a second knight."""
    state = east_city_with_red_knight(RED)
    assert_illegal(state, Deploy(2, -1, "E.W"))
    assert (2, -1, "E.W") not in deploy_options(state)


@pytest.mark.rule("CAR-BASE-FOLLOW-02")
def test_occupied_field_rejects_a_farmer() -> None:
    """Occupation is judged on the whole field after joining: Red's farmer on D's field FN
    blocks Blue's farmer on U@(1,0)'s north field, not on its south field."""
    state = build(FX_START, followers=[(RED, 0, 0, D_FN)], pile=["U", "U"], turn_player=BLUE)
    state.apply(Place(1, 0, 0))
    assert_illegal(state, Deploy(1, 0, U_NORTH))
    assert deploy_options(state) == {(1, 0, U_ROAD), (1, 0, U_SOUTH)}


# -- CAR-BASE-FOLLOW-03 ---------------------------------------------------------------------------


@pytest.mark.rule("CAR-BASE-FOLLOW-03")
def test_farmer_stays_when_city_is_completed() -> None:
    """FX-FIELD by play: Red put a farmer on the field of (1,0) touching N when placing U; Blue's
    E@(0,-1)/180 then completes city CE → the farmer stays and Red scores 0 that turn."""
    state = build(FX_START, pile=["U", "E", "U"], turn_player=RED)
    state.apply(Place(1, 0, 0))
    state.apply(Deploy(1, 0, U_NORTH))
    state.apply(Place(0, -1, 180))
    state.apply(Pass())
    assert sorted(t["tile"] + str((t["x"], t["y"])) for t in state.view(None)["board"]) == sorted(
        ["D(0, 0)", "U(1, 0)", "E(0, -1)"])  # the FX-FIELD board
    assert state.graph.is_complete(feature_root(state, 0, 0, D_CITY))
    assert roles(state) == {(RED, 1, 0, U_NORTH, "farmer")}
    assert state.scores == [0, 0, 0]
    assert state.view(None)["supply"][RED] == {"follower": 6}
    assert state.log == []


@pytest.mark.rule("CAR-BASE-FOLLOW-03")
def test_farmer_stays_in_built_fx_field() -> None:
    """Same scenario built directly from the FX-FIELD tile list minus its last tile."""
    board = FX_FIELD.replace(" E@(0,-1)/180", "")
    state = build(board, followers=[(RED, 1, 0, U_NORTH)], pile=["E", "U"], turn_player=BLUE)
    state.apply(Place(0, -1, 180))
    state.apply(Pass())
    assert roles(state) == {(RED, 1, 0, U_NORTH, "farmer")}
    assert state.scores == [0, 0, 0]


@pytest.mark.rule("CAR-BASE-FOLLOW-03")
def test_roles_follow_the_feature_kind() -> None:
    """Highwayman on a road, knight in a city, monk on a monastery, farmer in a field."""
    state = build(FX_START + " B@(0,1)/0",
                  followers=[(RED, 0, 0, D_ROAD), (BLUE, 0, 0, D_CITY),
                             (YELLOW, 0, 1, "MONASTERY"), (RED, 0, 0, D_FN)],
                  pile=["U", "U"], turn_player=RED)
    assert roles(state) == {
        (RED, 0, 0, D_ROAD, "highwayman"), (BLUE, 0, 0, D_CITY, "knight"),
        (YELLOW, 0, 1, "MONASTERY", "monk"), (RED, 0, 0, D_FN, "farmer"),
    }


@pytest.mark.rule("CAR-BASE-FOLLOW-03")
def test_highwayman_leaves_farmer_stays_on_road_completion() -> None:
    """FX-ROAD-HOLE: Red's highwayman on R1 and farmer on FS. Blue's U@(2,0)/0 completes the
    5-tile road → Red +5, the highwayman returns to supply, the farmer stays."""
    state = build(FX_ROAD_HOLE, followers=[(RED, 1, 0, U_ROAD), (RED, 0, 0, D_FS)],
                  pile=["U", "U"], turn_player=BLUE)
    state.apply(Place(2, 0, 0))
    state.apply(Pass())
    assert state.scores == [5, 0, 0]
    assert roles(state) == {(RED, 0, 0, D_FS, "farmer")}
    assert state.view(None)["supply"][RED] == {"follower": 6}


# -- CAR-BASE-FOLLOW-04 ---------------------------------------------------------------------------

# Seven separate unoccupied features of FX-RING: D's city and road, and the five E cities.
RED_SEVEN = [(RED, 0, 0, D_CITY), (RED, 0, 0, D_ROAD), (RED, -1, 1, "W"), (RED, 1, 1, "E"),
             (RED, -1, 2, "W"), (RED, 0, 2, "S"), (RED, 1, 2, "E")]


@pytest.mark.rule("CAR-BASE-FOLLOW-04")
def test_no_follower_without_supply() -> None:
    """Built directly: all 7 of Red's followers are on the board. Red places a tile → no
    follower placement is offered (only Pass) and a deployment is rejected."""
    state = build(FX_RING, followers=RED_SEVEN, pile=["B", "U"], turn_player=RED)
    assert state.view(None)["supply"][RED] == {"follower": 0}
    state.apply(Place(0, 1, 0))
    assert state.legal_actions() == [Pass()]
    assert_illegal(state, Deploy(0, 1, "MONASTERY"))
    assert_illegal(state, Deploy(0, 1, "EL.ER.NL.NR.SL.SR.WL.WR"))


@pytest.mark.rule("CAR-BASE-FOLLOW-04")
def test_empty_supply_is_per_player() -> None:
    """Contrast: Blue, whose supply is full, gets the monastery on the same placement."""
    state = build(FX_RING, followers=RED_SEVEN, pile=["B", "U"], turn_player=BLUE)
    state.apply(Place(0, 1, 0))
    assert (0, 1, "MONASTERY") in deploy_options(state)


@pytest.mark.rule("CAR-BASE-FOLLOW-04")
def test_followers_come_back_through_scoring() -> None:
    """Red's E@(0,-1)/180 completes D's city holding Red's knight → Red +4 and one follower
    back; on Red's next turn a follower placement is offered again."""
    state = build(FX_RING, followers=RED_SEVEN, pile=["E", "U", "U", "B", "U"], turn_player=RED)
    state.apply(Place(0, -1, 180))
    assert state.legal_actions() == [Pass()]
    state.apply(Pass())
    assert state.scores == [4, 0, 0]
    assert state.view(None)["supply"][RED] == {"follower": 1}
    state.apply(Place(2, 0, 0))  # Blue
    state.apply(Pass())
    state.apply(Place(-2, 0, 0))  # Yellow
    state.apply(Pass())
    assert (state.current_player, state.tile) == (RED, "B")
    state.apply(Place(0, 1, 0))
    assert (0, 1, "MONASTERY") in deploy_options(state)


# -- CAR-BASE-FOLLOW-05 ---------------------------------------------------------------------------


@pytest.mark.rule("CAR-BASE-FOLLOW-05", "CAR-BASE-SCORE-08")
def test_merging_occupied_cities_is_legal() -> None:
    """FX-EAST: Red's knight on the city of (1,-1), Blue's on the city of (3,-1). Yellow places
    G@(2,-1)/0 → legal; the city holds one Red and one Blue knight; on completion both score
    the full 6 points."""
    state = build(FX_EAST, followers=[(RED, 1, -1, "E"), (BLUE, 3, -1, "W")],
                  pile=["G", "U"], turn_player=YELLOW)
    assert (2, -1, 0) in place_options(state)
    state.apply(Place(2, -1, 0))
    assert knights_on(state, 2, -1, "E.W") == [RED, BLUE]
    assert_illegal(state, Deploy(2, -1, "E.W"))  # Yellow cannot join the occupied city
    state.apply(Pass())
    assert state.scores == [6, 6, 0]
    assert state.view(None)["supply"] == [{"follower": 7}] * 3


@pytest.mark.rule("CAR-BASE-FOLLOW-05")
def test_merging_with_pennant_tile() -> None:
    """Same merge with F@(2,-1)/0 (pennant): both knights share the 8 points."""
    state = build(FX_EAST, followers=[(RED, 1, -1, "E"), (BLUE, 3, -1, "W")],
                  pile=["F", "U"], turn_player=YELLOW)
    state.apply(Place(2, -1, 0))
    assert knights_on(state, 2, -1, "E.W") == [RED, BLUE]
    state.apply(Pass())
    assert state.scores == [8, 8, 0]


@pytest.mark.rule("CAR-BASE-FOLLOW-05")
def test_merging_two_knights_of_one_player() -> None:
    """Two knights of the same player may end up in one city by merging; the city scores
    once for that player and both knights return."""
    state = build(FX_EAST, followers=[(RED, 1, -1, "E"), (RED, 3, -1, "W")],
                  pile=["G", "U"], turn_player=BLUE)
    state.apply(Place(2, -1, 0))
    assert knights_on(state, 2, -1, "E.W") == [RED, RED]
    state.apply(Pass())
    assert state.scores == [6, 0, 0]
    assert state.view(None)["supply"][RED] == {"follower": 7}
