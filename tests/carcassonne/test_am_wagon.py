"""Rule tests for the wagon of Abbey & Mayor: CAR-AM-WAGON-01 .. 16, 50 and 51.

Each test replays the `test:` scenario of its rule in the catalogue (section 4.11, and 4.14 for
the wagon/abbey interactions) on the fixtures of section 2.8, and checks the exact outcome:
score deltas per seat, the exact set of wagon moves offered, who decides, where the wagon ends
(board or supply) and that illegal moves are refused with the position unchanged.

Wagon moves are compared in two ways: as the exact set of `Deploy` actions (one per part the
wagon may be put on) and as the set of target *features* (union-find roots), because the rules
speak of target features while the engine offers parts.
"""

from __future__ import annotations

from typing import Any

import pytest
from fixtures import (
    FX_BARN,
    FX_CITY3,
    FX_EAST,
    FX_HOLE_CITY,
    FX_RING,
    FX_ROAD_HOLE,
    FX_START,
    FX_TWO_WAGONS,
    FX_WAGON_LINKS,
)
from helpers import assert_illegal, events, feature_root

import boardwright as bw
from boardwright.games.carcassonne import Deploy, Draw, Pass, Place, PlaceAbbey
from boardwright.games.carcassonne.scenario import build
from boardwright.games.carcassonne.state import CarcassonneState

RED, BLUE, YELLOW = 0, 1, 2
AM: dict[str, Any] = {"expansions": ["abbey_mayor"]}
CONNECTED: dict[str, Any] = {**AM, "wagon_adjacency": "connected"}
TRAVERSE: dict[str, Any] = {**CONNECTED, "wagon_traverse": True}

Spot = tuple[int, int, str]  # (x, y, location) in board orientation


# -- helpers ----------------------------------------------------------------------------------

def delta(state: CarcassonneState, before: list[int]) -> list[int]:
    """Score change per seat since `before`."""
    return [now - was for now, was in zip(state.scores, before)]


def play(state: CarcassonneState, x: int, y: int, rotation: int,
         location: str | None = None, figure: str = "follower") -> list[int]:
    """Place the drawn tile and put `figure` on `location` of it (None passes); return the
    score change of the turn's scoring step (wagon decisions may still be pending)."""
    before = state.scores
    state.apply(Place(x, y, rotation))
    state.apply(Pass() if location is None else Deploy(x, y, location, figure))
    return delta(state, before)


def abbey_turn(state: CarcassonneState, x: int, y: int,
               location: str | None = None, figure: str = "follower") -> list[int]:
    """Play the abbey into the hole (x, y) instead of drawing, with an optional figure on it."""
    before = state.scores
    state.apply(PlaceAbbey(x, y))
    state.apply(Pass() if location is None else Deploy(x, y, location, figure))
    return delta(state, before)


def wagon_moves(state: CarcassonneState) -> set[Spot]:
    """The wagon moves offered now, as (x, y, location); checks that the state waits for a
    wagon decision and that "take it back" (Pass) is always among the choices."""
    assert state.phase == "wagon_move"
    actions = state.legal_actions()
    assert Pass() in actions
    spots: set[Spot] = set()
    for action in actions:
        if action == Pass():
            continue
        assert isinstance(action, Deploy) and action.figure == "wagon", action
        spots.add((action.x, action.y, action.location))
    assert len(spots) == len(actions) - 1  # no duplicates
    return spots


def roots(state: CarcassonneState, spots: set[Spot]) -> set[int]:
    """The features (union-find roots) that the given parts belong to."""
    return {feature_root(state, x, y, location) for x, y, location in spots}


def targets(state: CarcassonneState) -> set[int]:
    """The target features of the wagon now deciding."""
    return roots(state, wagon_moves(state))


def on_board(state: CarcassonneState) -> list[tuple[int, int, int, str, str]]:
    """(seat, x, y, location, figure) of every figure on the board, from the public view."""
    return sorted((f["player"], f["x"], f["y"], f["location"], f["figure"])
                  for f in state.view(None)["followers"])


def wagons_in_supply(state: CarcassonneState) -> list[int]:
    return [s["wagon"] for s in state.view(None)["supply"]]


def move_wagon(state: CarcassonneState, x: int, y: int, location: str) -> None:
    state.apply(Deploy(x, y, location, "wagon"))


def assert_not_targets(state: CarcassonneState, spots: list[Spot]) -> None:
    """Moving the deciding wagon to any of these parts is refused, position unchanged."""
    offered = wagon_moves(state)
    for x, y, location in spots:
        assert (x, y, location) not in offered
        assert_illegal(state, Deploy(x, y, location, "wagon"))


# -- scenario builders --------------------------------------------------------------------------

def city3_with_wagon(turn_player: int, pile: list[str] | None = None) -> CarcassonneState:
    """FX-CITY3 with Red's wagon on the city of G@(0,-1) (location N.S after the turn)."""
    return build(FX_CITY3, followers=[(RED, 0, -1, "N.S", "wagon")],
                 pile=pile or ["E", "U", "U"], options=AM, turn_player=turn_player)


def two_wagons(players: int, turn_player: int, monk: bool = True) -> CarcassonneState:
    """FX-TWO-WAGONS with Blue's wagon on the road of (1,0), Red's wagon on the city of
    (2,-1) and (optionally) Red's monk on B@(1,-1); L is the next tile."""
    followers: list[Any] = [(BLUE, 1, 0, "E.W", "wagon"), (RED, 2, -1, "S", "wagon")]
    if monk:
        followers.append((RED, 1, -1, "MONASTERY"))
    return build(FX_TWO_WAGONS, followers=followers, pile=["L", "U", "U"], players=players,
                 options=AM, turn_player=turn_player)


def links_scored(options: dict[str, Any]) -> CarcassonneState:
    """FX-WAGON-LINKS, Red's wagon on the road of U@(-1,0); Red places A@(-2,0)/270, which
    completes that road: the state waits for Red's wagon decision."""
    state = build(FX_WAGON_LINKS, followers=[(RED, -1, 0, "E.W", "wagon")],
                  pile=["A", "U", "U"], options=options)
    assert play(state, -2, 0, 270) == [4, 0, 0]
    assert events(state) == [("road", True, 4, [RED])]
    assert state.current_player == RED
    return state


def hole_city_scored(options: dict[str, Any], monk_on_abbey: bool = False) -> CarcassonneState:
    """FX-HOLE-CITY, Red's wagon on CI; Blue fills the hole (0,1) with the abbey, which
    completes CI (Red +2): the state waits for Red's wagon decision."""
    state = build(FX_HOLE_CITY, followers=[(RED, -1, 1, "E", "wagon")], pile=["U", "U"],
                  options=options, turn_player=BLUE)
    assert state.phase == "choose_tile"
    location = "MONASTERY" if monk_on_abbey else None
    assert abbey_turn(state, 0, 1, location) == [2, 0, 0]
    assert events(state) == [("city", True, 2, [RED])]
    assert state.current_player == RED and state.turn_player == BLUE
    return state


# -- CAR-AM-WAGON-01 ----------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-WAGON-01")
def test_wagon_occupies_its_road_so_a_highwayman_is_rejected() -> None:
    """Red's wagon on the road of U@(1,0) makes the road occupied for Blue's U@(-1,0)."""
    state = build(FX_START, pile=["U", "U", "U"], options=AM)
    assert play(state, 1, 0, 0, "E.W", "wagon") == [0, 0, 0]
    assert on_board(state) == [(RED, 1, 0, "E.W", "wagon")]
    assert wagons_in_supply(state) == [0, 1, 1]
    assert state.current_player == BLUE
    state.apply(Place(-1, 0, 0))
    offered = state.legal_actions()
    assert all(a.location != "E.W" for a in offered if isinstance(a, Deploy))
    assert_illegal(state, Deploy(-1, 0, "E.W"))
    assert_illegal(state, Deploy(-1, 0, "E.W", "wagon"))
    # Blue's fields on the same tile are still free.
    state.apply(Deploy(-1, 0, "EL.NL.NR.WR"))
    assert on_board(state) == [(RED, 1, 0, "E.W", "wagon"), (BLUE, -1, 0, "EL.NL.NR.WR", "follower")]


@pytest.mark.rule("CAR-AM-WAGON-01")
def test_wagon_follows_the_normal_placement_rules() -> None:
    """Like any follower, the wagon goes only on the tile just placed and only from supply."""
    state = build(FX_START, pile=["U", "U", "U"], options=AM, supply={RED: {"wagon": 0}})
    state.apply(Place(1, 0, 0))
    assert not any(isinstance(a, Deploy) and a.figure == "wagon" for a in state.legal_actions())
    assert_illegal(state, Deploy(1, 0, "E.W", "wagon"))  # none left in supply

    state = build(FX_START, pile=["U", "U", "U"], options=AM)
    state.apply(Place(1, 0, 0))
    assert_illegal(state, Deploy(0, 0, "E.W", "wagon"))  # not the tile just placed


# -- CAR-AM-WAGON-02 ----------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-WAGON-02")
def test_wagon_on_a_road_is_accepted_on_a_field_rejected() -> None:
    """On U@(1,0) the only wagon placement is the road; both fields are refused."""
    state = build(FX_START, pile=["U", "U", "U"], options=AM)
    state.apply(Place(1, 0, 0))
    wagon_spots = {(a.x, a.y, a.location) for a in state.legal_actions()
                   if isinstance(a, Deploy) and a.figure == "wagon"}
    assert wagon_spots == {(1, 0, "E.W")}
    assert_illegal(state, Deploy(1, 0, "EL.NL.NR.WR", "wagon"))
    assert_illegal(state, Deploy(1, 0, "ER.SL.SR.WL", "wagon"))
    state.apply(Deploy(1, 0, "E.W", "wagon"))
    assert on_board(state) == [(RED, 1, 0, "E.W", "wagon")]


@pytest.mark.rule("CAR-AM-WAGON-02")
def test_wagon_on_a_city_is_accepted() -> None:
    """E@(0,-1)/180 offers the wagon its city, never its field."""
    state = build(FX_START, pile=["E", "U", "U"], options=AM)
    state.apply(Place(0, -1, 180))
    wagon_spots = {(a.x, a.y, a.location) for a in state.legal_actions()
                   if isinstance(a, Deploy) and a.figure == "wagon"}
    assert wagon_spots == {(0, -1, "S")}
    assert_illegal(state, Deploy(0, -1, "EL.ER.NL.NR.WL.WR", "wagon"))


@pytest.mark.rule("CAR-AM-WAGON-02")
def test_wagon_on_a_monastery_is_accepted_and_scores_at_once() -> None:
    """FX-RING: B@(0,1) fills the ring, so the wagon on its monastery scores 9 immediately."""
    state = build(FX_RING, pile=["B", "U", "U"], options=AM)
    state.apply(Draw())  # Red holds an abbey and (0,1) is a hole: she draws instead
    state.apply(Place(0, 1, 0))
    assert Deploy(0, 1, "MONASTERY", "wagon") in state.legal_actions()
    assert_illegal(state, Deploy(0, 1, "EL.ER.NL.NR.SL.SR.WL.WR", "wagon"))
    before = state.scores
    state.apply(Deploy(0, 1, "MONASTERY", "wagon"))
    assert delta(state, before) == [9, 0, 0]
    assert events(state) == [("monastery", True, 9, [RED])]
    assert state.phase == "wagon_move" and state.current_player == RED


# -- CAR-AM-WAGON-03 ----------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-WAGON-03")
def test_wagon_ties_with_one_knight() -> None:
    """FX-EAST: Red's wagon and Blue's knight each count 1 when G@(2,-1) joins their cities."""
    state = build(FX_EAST, followers=[(RED, 1, -1, "E", "wagon"), (BLUE, 3, -1, "W")],
                  pile=["G", "U", "U"], options=AM, turn_player=YELLOW)
    assert play(state, 2, -1, 0) == [6, 6, 0]
    assert events(state) == [("city", True, 6, [RED, BLUE])]
    assert [s["follower"] for s in state.view(None)["supply"]] == [7, 7, 7]
    assert state.current_player == RED  # the wagon then waits for Red's decision


@pytest.mark.rule("CAR-AM-WAGON-03")
def test_wagon_strength_does_not_depend_on_pennants() -> None:
    """Against a mayor in a city without pennant (strength 0), the wagon's 1 wins alone; with
    F (one pennant) the mayor reaches 1 and the two tie."""
    followers = [(RED, 1, -1, "E", "wagon"), (BLUE, 3, -1, "W", "mayor")]
    state = build(FX_EAST, followers=followers, pile=["G", "U"], options=AM, turn_player=YELLOW)
    assert play(state, 2, -1, 0) == [6, 0, 0]
    state = build(FX_EAST, followers=followers, pile=["F", "U"], options=AM, turn_player=YELLOW)
    assert play(state, 2, -1, 0) == [8, 8, 0]


# -- CAR-AM-WAGON-04 ----------------------------------------------------------------------------

def city3_played_by_turns() -> CarcassonneState:
    """FX-START; Red places G@(0,-1)/90 with the wagon on its city; Blue places E@(0,-2)/180."""
    state = build(FX_START, pile=["G", "E", "U", "U"], options=AM)
    assert play(state, 0, -1, 90, "N.S", "wagon") == [0, 0, 0]
    assert play(state, 0, -2, 180) == [6, 0, 0]
    return state


@pytest.mark.rule("CAR-AM-WAGON-04")
def test_owner_is_offered_exactly_return_or_the_road_of_the_start_tile() -> None:
    """In Blue's turn Red decides: take the wagon back or move it to the road of (0,0)."""
    state = city3_played_by_turns()
    assert events(state) == [("city", True, 6, [RED])]
    assert state.turn_player == BLUE and state.current_player == RED
    assert state.view(None)["waiting_wagons"] == [{"player": RED, "x": 0, "y": -1}]
    assert on_board(state) == []  # it has left the scored city
    assert set(state.legal_actions()) == {Pass(), Deploy(0, 0, "E.W", "wagon")}


@pytest.mark.rule("CAR-AM-WAGON-04")
def test_returning_the_wagon_puts_it_back_into_supply() -> None:
    state = city3_played_by_turns()
    assert wagons_in_supply(state) == [0, 1, 1]
    state.apply(Pass())
    assert wagons_in_supply(state) == [1, 1, 1]
    assert on_board(state) == []
    assert state.turn_player == YELLOW and state.phase == "place_tile"


@pytest.mark.rule("CAR-AM-WAGON-04")
def test_moving_the_wagon_puts_it_on_the_target_not_into_supply() -> None:
    state = city3_played_by_turns()
    move_wagon(state, 0, 0, "E.W")
    assert on_board(state) == [(RED, 0, 0, "E.W", "wagon")]
    assert wagons_in_supply(state) == [0, 1, 1]
    assert state.scores == [6, 0, 0]  # moving scores nothing
    assert state.turn_player == YELLOW and state.current_player == YELLOW


@pytest.mark.rule("CAR-AM-WAGON-04")
def test_wagon_moves_even_when_its_owner_lost_the_majority() -> None:
    """Blue's two knights beat Red's wagon in the city joined by Q@(2,-1) (4 tiles, 1 pennant):
    Blue +10, Red +0, yet Red still decides where her wagon goes."""
    state = build(FX_EAST + " B@(1,-2)/0 E@(2,-2)/180",
                  followers=[(RED, 1, -1, "E", "wagon"), (BLUE, 3, -1, "W"), (BLUE, 2, -2, "S")],
                  pile=["Q", "U"], options=AM)
    state.apply(Draw())  # (2,-1) is a hole; Red draws rather than play her abbey
    assert play(state, 2, -1, 0) == [0, 10, 0]
    assert state.current_player == RED
    assert wagon_moves(state) == {(1, -2, "MONASTERY"), (0, 0, "N"), (0, 0, "E.W"),
                                  (1, 0, "E.W"), (2, 0, "E.W")}
    assert [s["follower"] for s in state.view(None)["supply"]] == [7, 7, 7]


@pytest.mark.rule("CAR-AM-WAGON-04")
def test_only_return_or_a_wagon_move_is_accepted_while_the_wagon_waits() -> None:
    """During the decision nothing else of the turn flow is possible: no tile, no abbey, no
    other figure, no move to a part that does not exist."""
    state = city3_played_by_turns()
    for action in [Place(1, 0, 0), Draw(), PlaceAbbey(0, 1), Deploy(0, 0, "E.W"),
                   Deploy(0, 0, "E.W", "mayor"), Deploy(0, 0, "E.W", "barn"),
                   Deploy(5, 5, "E.W", "wagon"), Deploy(0, 0, "XX", "wagon")]:
        assert_illegal(state, action)


# -- CAR-AM-WAGON-05 ----------------------------------------------------------------------------

TWO_WAGONS_NON_TARGETS: list[Spot] = [
    (1, -1, "MONASTERY"),  # Red's monk stands there
    (0, -1, "S"), (0, 0, "N"),  # the city completed earlier
    (1, 0, "E.W"), (0, 0, "E.W"),  # the road just completed
    (2, -1, "S"), (2, 0, "N"),  # the city just completed
    (2, 0, "EL.WR"), (1, 0, "EL.NL.NR.WR"),  # fields are never targets
]


@pytest.mark.rule("CAR-AM-WAGON-05")
def test_targets_are_incomplete_unoccupied_roads_cities_and_monasteries() -> None:
    """FX-TWO-WAGONS, three players, Blue places L@(2,0)/0: for both wagons the only targets are
    the two open roads of L touching E and touching S."""
    state = two_wagons(players=3, turn_player=BLUE)
    assert play(state, 2, 0, 0) == [4, 4, 0]
    assert state.current_player == BLUE  # the turn player's wagon first
    assert wagon_moves(state) == {(2, 0, "E"), (2, 0, "S")}
    assert_not_targets(state, TWO_WAGONS_NON_TARGETS)
    state.apply(Pass())
    assert state.current_player == RED  # Yellow has no wagon waiting
    assert wagon_moves(state) == {(2, 0, "E"), (2, 0, "S")}
    assert_not_targets(state, TWO_WAGONS_NON_TARGETS)


@pytest.mark.rule("CAR-AM-WAGON-05")
def test_owner_chooses_among_the_parts_of_a_target_that_lie_in_range() -> None:
    """From (-1,1) the road RD is in range through its parts on (-1,0) and (0,0), not through
    the part on (1,0): the wagon may be put on either of the first two, not on the third."""
    state = hole_city_scored(AM)
    road = [(-1, 0, "E.W"), (0, 0, "E.W")]
    assert set(road) <= wagon_moves(state)
    assert_not_targets(state, [(1, 0, "E.W")])
    for x, y, location in road:
        branch = state.clone()
        move_wagon(branch, x, y, location)
        assert on_board(branch) == [(RED, x, y, location, "wagon")]


@pytest.mark.rule("CAR-AM-WAGON-05")
def test_completed_unoccupied_monastery_is_not_a_target() -> None:
    """FX-RING with B@(0,1) already complete and empty; Red's wagon on the city of E@(0,2)
    scores when Red's E@(0,3)/0 closes it (Red +4): the monastery next to it is complete and
    therefore no target, while the four open E cities in range are."""
    state = build(FX_RING + " B@(0,1)/0", followers=[(RED, 0, 2, "S", "wagon")],
                  pile=["E", "U"], options=AM)
    assert play(state, 0, 3, 0) == [4, 0, 0]
    assert wagon_moves(state) == {(-1, 1, "W"), (1, 1, "E"), (-1, 2, "W"), (1, 2, "E")}
    assert_not_targets(state, [(0, 1, "MONASTERY")])


# -- CAR-AM-WAGON-06 ----------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-WAGON-06")
def test_nearby_range_is_the_wagon_tile_and_the_eight_around_it() -> None:
    """FX-WAGON-LINKS: from (-1,0) the monastery of (-2,0) and the city of (0,0) are in range;
    the monastery of (2,0) and L's open road touching S (on (1,0)) are not."""
    state = links_scored(AM)
    assert wagon_moves(state) == {(-2, 0, "MONASTERY"), (0, 0, "N")}
    assert_not_targets(state, [(2, 0, "MONASTERY"), (1, 0, "S")])


@pytest.mark.rule("CAR-AM-WAGON-06")
def test_default_adjacency_is_nearby() -> None:
    """Saying `wagon_adjacency = nearby` explicitly changes nothing."""
    state = links_scored({**AM, "wagon_adjacency": "nearby"})
    assert wagon_moves(state) == {(-2, 0, "MONASTERY"), (0, 0, "N")}


# -- CAR-AM-WAGON-07 ----------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-WAGON-07")
def test_range_centred_on_the_wagon_tile_reaches_the_start_road() -> None:
    """(a) The wagon stood on (0,-1): the road of (0,0) is in range, the only target."""
    state = city3_with_wagon(turn_player=BLUE)
    assert play(state, 0, -2, 180) == [6, 0, 0]
    assert wagon_moves(state) == {(0, 0, "E.W")}


@pytest.mark.rule("CAR-AM-WAGON-07")
def test_range_centred_on_the_far_end_of_the_city_reaches_nothing() -> None:
    """(b) Red's wagon on the city of E@(0,-2), the tile that completes the city: Red +6, and
    from (0,-2) no incomplete road, city or monastery is in range (the road of (0,0) is two
    rows away although it borders the same city's tiles)."""
    state = build(FX_CITY3, pile=["E", "U", "U"], options=AM)
    assert play(state, 0, -2, 180, "S", "wagon") == [6, 0, 0]
    assert state.view(None)["wagon"] == {"player": RED, "from": {"x": 0, "y": -2}}
    assert wagon_moves(state) == set()
    assert_not_targets(state, [(0, 0, "E.W")])


# -- CAR-AM-WAGON-08 ----------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-WAGON-08")
def test_target_need_not_be_connected_and_fields_are_never_offered() -> None:
    """The road of (0,0) is cut off from the city by D's field {EL,WR} and still offered; no
    field of (0,0), (0,-1) or (0,-2) is a target."""
    state = city3_with_wagon(turn_player=BLUE)
    play(state, 0, -2, 180)
    assert wagon_moves(state) == {(0, 0, "E.W")}
    assert_not_targets(state, [(0, 0, "EL.WR"), (0, 0, "ER.SL.SR.WL"),
                               (0, -1, "EL.ER"), (0, -1, "WL.WR"),
                               (0, -2, "EL.ER.NL.NR.WL.WR")])


# -- CAR-AM-WAGON-09 ----------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-WAGON-09")
def test_no_target_in_range_forces_the_return() -> None:
    """(b) of CAR-AM-WAGON-07: only "return" is offered; the wagon ends in Red's supply."""
    state = build(FX_CITY3, pile=["E", "U", "U"], options=AM)
    play(state, 0, -2, 180, "S", "wagon")
    assert state.legal_actions() == [Pass()]
    assert wagons_in_supply(state) == [0, 1, 1]
    state.apply(Pass())
    assert wagons_in_supply(state) == [1, 1, 1]
    assert on_board(state) == []
    assert state.turn_player == BLUE and state.phase == "place_tile"


# -- CAR-AM-WAGON-10 ----------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-WAGON-10")
def test_wagons_are_resolved_after_every_scoring_of_the_turn() -> None:
    """Blue's L@(2,0) completes the road (Blue +4) and the city (Red +4); both scorings are done
    before the first wagon decision, the waiting wagons occupy nothing, and the two completed
    features are offered to neither wagon."""
    state = two_wagons(players=3, turn_player=BLUE, monk=False)
    assert play(state, 2, 0, 0) == [4, 4, 0]
    assert state.phase == "wagon_move"
    assert events(state) == [("road", True, 4, [BLUE]), ("city", True, 4, [RED])]
    assert state.view(None)["waiting_wagons"] == [{"player": BLUE, "x": 1, "y": 0},
                                                  {"player": RED, "x": 2, "y": -1}]
    assert on_board(state) == []
    assert not state.graph.figures[feature_root(state, 2, 0, "N")]
    assert not state.graph.figures[feature_root(state, 2, 0, "W")]
    completed = [(1, 0, "E.W"), (2, 0, "W"), (2, -1, "S"), (2, 0, "N")]
    assert wagon_moves(state) == {(1, -1, "MONASTERY"), (2, 0, "E"), (2, 0, "S")}
    assert_not_targets(state, completed)
    state.apply(Pass())
    assert state.current_player == RED
    assert wagon_moves(state) == {(1, -1, "MONASTERY"), (2, 0, "E"), (2, 0, "S")}
    assert_not_targets(state, completed)
    state.apply(Pass())
    assert state.scores == [4, 4, 0] and len(state.log) == 2


@pytest.mark.rule("CAR-AM-WAGON-10")
def test_barn_scoring_comes_before_the_wagon_decision() -> None:
    """FX-BARN, Red's wagon on the city of E@(2,1), Blue's farmer on S0: Red's E@(1,1)/90 with
    the barn completes CN (Red +4) and triggers the barn scoring (Blue +6) - both before Red
    decides on her wagon."""
    state = build(FX_BARN, followers=[(RED, 2, 1, "W", "wagon"),
                                      (BLUE, 0, 1, "EL.ER.NL.NR.SL.SR.WL.WR")],
                  pile=["E", "U"], options=AM)
    assert play(state, 1, 1, 90, "NW", "barn") == [4, 6, 0]
    assert state.phase == "wagon_move" and state.current_player == RED
    log = state.log
    assert [(e["feature"], e["points"], e["players"]) for e in log] == [
        ("city", 4, [RED]), ("field", 6, [BLUE])]
    assert log[1]["reason"] == "barn placed"
    assert wagon_moves(state) == {(1, 0, "E.W"), (2, 0, "E.W")}


# -- CAR-AM-WAGON-11 ----------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-WAGON-11")
def test_wagons_decide_clockwise_from_the_turn_player_each_after_the_other() -> None:
    """Two players, Blue places L@(2,0): Blue decides first between the roads touching E and S
    and takes S; Red, deciding next in Blue's turn, is left with the road touching E only."""
    state = two_wagons(players=2, turn_player=BLUE)
    assert play(state, 2, 0, 0) == [4, 4]
    assert state.turn_player == BLUE and state.current_player == BLUE
    assert wagon_moves(state) == {(2, 0, "E"), (2, 0, "S")}
    move_wagon(state, 2, 0, "S")
    assert state.turn_player == BLUE and state.current_player == RED
    assert "legal_actions" in state.view(RED) and "legal_actions" not in state.view(BLUE)
    assert wagon_moves(state) == {(2, 0, "E")}
    assert_not_targets(state, [(2, 0, "S")])
    move_wagon(state, 2, 0, "E")
    assert on_board(state) == [(RED, 1, -1, "MONASTERY", "follower"), (RED, 2, 0, "E", "wagon"),
                               (BLUE, 2, 0, "S", "wagon")]
    assert state.turn_player == RED and state.phase == "place_tile"


@pytest.mark.rule("CAR-AM-WAGON-11")
def test_order_starts_at_the_turn_player_even_without_a_wagon_of_his_own() -> None:
    """Three players, Yellow places L@(2,0): clockwise from Yellow, Red decides before Blue."""
    state = two_wagons(players=3, turn_player=YELLOW)
    assert play(state, 2, 0, 0) == [4, 4, 0]
    assert state.current_player == RED
    move_wagon(state, 2, 0, "S")
    assert state.current_player == BLUE
    assert wagon_moves(state) == {(2, 0, "E")}
    state.apply(Pass())
    assert wagons_in_supply(state) == [0, 1, 1]
    assert state.turn_player == RED and state.current_player == RED  # after Yellow comes Red


# -- CAR-AM-WAGON-12 ----------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-WAGON-12")
def test_wagon_placed_scored_and_moved_in_one_turn() -> None:
    """FX-START: Red's E@(0,-1)/180 with the wagon closes the city (Red +4); in the same turn
    Red may move the wagon to the road of (0,0)."""
    state = build(FX_START, pile=["E", "U", "U"], options=AM)
    assert play(state, 0, -1, 180, "S", "wagon") == [4, 0, 0]
    assert state.turn_player == RED and state.current_player == RED
    assert wagon_moves(state) == {(0, 0, "E.W")}
    move_wagon(state, 0, 0, "E.W")
    assert on_board(state) == [(RED, 0, 0, "E.W", "wagon")]
    assert state.current_player == BLUE


@pytest.mark.rule("CAR-AM-WAGON-12")
def test_wagon_move_is_part_of_the_record_and_replays() -> None:
    """The same turn in a real game: the move is recorded after the deploy and replays exactly."""
    game = bw.load("carcassonne", players=3, options={**AM, "draw_order": ["E", "U", "U"]})
    state = game.new_game(1)
    state.apply(Place(0, -1, 180))
    state.apply(Deploy(0, -1, "S", "wagon"))
    state.apply({"type": "deploy", "x": 0, "y": 0, "location": "E.W", "figure": "wagon"})
    assert state.scores == [4, 0, 0]
    assert state.record.actions[-1] == {"type": "deploy", "x": 0, "y": 0, "location": "E.W",
                                        "figure": "wagon"}
    assert bw.replay(state.record) == state


# -- CAR-AM-WAGON-13 ----------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-WAGON-13")
def test_placing_a_figure_and_moving_the_wagon_in_the_same_turn() -> None:
    """Red places E@(0,-2)/180 with a farmer, the city is scored (Red +6) and Red still moves
    her wagon: Red's farmer on (0,-2) and her wagon on the road of (0,0)."""
    state = city3_with_wagon(turn_player=RED)
    assert play(state, 0, -2, 180, "EL.ER.NL.NR.WL.WR") == [6, 0, 0]
    assert wagon_moves(state) == {(0, 0, "E.W")}
    move_wagon(state, 0, 0, "E.W")
    assert on_board(state) == [(RED, 0, -2, "EL.ER.NL.NR.WL.WR", "follower"),
                               (RED, 0, 0, "E.W", "wagon")]
    supply = state.view(None)["supply"][RED]
    assert (supply["follower"], supply["wagon"]) == (6, 0)
    assert state.current_player == BLUE


@pytest.mark.rule("CAR-AM-WAGON-13")
def test_no_wagon_move_in_a_turn_in_which_the_wagon_is_not_scored() -> None:
    """Red's U@(1,0) scores nothing: the figure step offers no wagon (it is on the board, not in
    supply), moving it instead of a placement is refused, and the turn passes to Blue."""
    state = city3_with_wagon(turn_player=RED, pile=["U", "U", "U"])
    state.apply(Place(1, 0, 0))
    assert not any(isinstance(a, Deploy) and a.figure == "wagon" for a in state.legal_actions())
    assert_illegal(state, Deploy(1, 0, "E.W", "wagon"))
    assert_illegal(state, Deploy(0, 0, "E.W", "wagon"))
    state.apply(Pass())
    assert state.phase == "place_tile" and state.current_player == BLUE
    assert on_board(state) == [(RED, 0, -1, "N.S", "wagon")]


# -- CAR-AM-WAGON-14 ----------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-WAGON-14")
def test_wagon_counts_as_one_follower_at_final_scoring_and_is_not_moved() -> None:
    """FX-START, Red's last tile U@(1,0) with the wagon; the game ends: Red +2, no move."""
    state = build(FX_START, pile=["U"], options=AM)
    assert play(state, 1, 0, 0, "E.W", "wagon") == [2, 0, 0]
    assert events(state) == [("road", False, 2, [RED])]
    assert state.is_terminal and state.phase == "game_over"
    assert state.legal_actions() == []
    assert state.view(None)["waiting_wagons"] == []


@pytest.mark.rule("CAR-AM-WAGON-14")
def test_wagon_freed_by_the_last_tile_moves_before_final_scoring() -> None:
    """The feature completed by the last tile is scored during play, so that wagon still moves;
    final scoring then counts it in its new feature: Red +4, then +1 for the 1-tile road."""
    state = build(FX_START, pile=["E"], options=AM)
    assert play(state, 0, -1, 180, "S", "wagon") == [4, 0, 0]
    assert not state.is_terminal
    assert wagon_moves(state) == {(0, 0, "E.W")}
    move_wagon(state, 0, 0, "E.W")
    assert state.is_terminal
    assert state.scores == [5, 0, 0]
    assert events(state) == [("city", True, 4, [RED]), ("road", False, 1, [RED])]


# -- CAR-AM-WAGON-15 ----------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-WAGON-15")
def test_connected_adjacency_follows_tile_links() -> None:
    """FX-WAGON-LINKS, option on: targets are the monastery of (-2,0) (the road enters it) and
    L's open road touching S (through L's junction, two tiles away: distance does not matter);
    the city of (0,0) (no gate) and the monastery of (2,0) (not adjacent) are not."""
    state = links_scored(CONNECTED)
    assert wagon_moves(state) == {(-2, 0, "MONASTERY"), (1, 0, "S")}
    assert_not_targets(state, [(0, 0, "N"), (2, 0, "MONASTERY"), (1, 0, "E")])
    move_wagon(state, 1, 0, "S")
    assert on_board(state) == [(RED, 1, 0, "S", "wagon")]


GATE = "D@(0,0)/0 T@(1,0)/90 E@(1,-1)/180 E@(1,1)/0"


def gate_scored(options: dict[str, Any]) -> CarcassonneState:
    """D's road runs east into the gate of the 3-tile city of T@(1,0)/90; Red's wagon stands on
    the road of (0,0), and Red's A@(-1,0)/270 completes that road (3 tiles, Red +3)."""
    state = build(GATE, followers=[(RED, 0, 0, "E.W", "wagon")], pile=["A", "U"],
                  options=options)
    assert play(state, -1, 0, 270) == [3, 0, 0]
    return state


@pytest.mark.rule("CAR-AM-WAGON-15")
def test_connected_road_into_a_city_gate_reaches_the_whole_city() -> None:
    """The road enters T's city through its gate: that city is adjacent and the wagon may be
    put on any of its parts; D's city, which the road passes without a gate, is not adjacent
    (under `nearby` it would be in range)."""
    nearby = gate_scored(AM)
    city = feature_root(nearby, 1, 0, "E.N.S")
    monastery = feature_root(nearby, -1, 0, "MONASTERY")
    start_city = feature_root(nearby, 0, 0, "N")
    assert targets(nearby) == {city, monastery, start_city}

    state = gate_scored(CONNECTED)
    assert targets(state) == {city, monastery}
    assert_not_targets(state, [(0, 0, "N")])
    # Each part of the city is offered, and each is accepted.
    assert wagon_moves(state) == {(1, -1, "S"), (1, 0, "E.N.S"), (1, 1, "N"), (-1, 0, "MONASTERY")}
    for x, y, location in [(1, -1, "S"), (1, 0, "E.N.S"), (1, 1, "N")]:
        branch = state.clone()
        move_wagon(branch, x, y, location)
        assert on_board(branch) == [(RED, x, y, location, "wagon")]


@pytest.mark.rule("CAR-AM-WAGON-15", "CAR-AM-WAGON-51")
def test_connected_city_closed_by_an_abbey_is_adjacent_to_it() -> None:
    """FX-HOLE-CITY with the option: CI faces the abbey, so the abbey is the only target; RD,
    CD and the monastery of (0,2), all in nearby range, are not adjacent."""
    state = hole_city_scored(CONNECTED)
    assert wagon_moves(state) == {(0, 1, "MONASTERY")}
    assert_not_targets(state, [(0, 0, "E.W"), (0, 0, "N"), (0, 2, "MONASTERY")])


@pytest.mark.rule("CAR-AM-WAGON-15", "CAR-AM-WAGON-50")
def test_connected_abbey_facing_only_fields_has_no_target() -> None:
    """FX-RING with the option: every neighbour shows the abbey a field side, so the wagon that
    scored the abbey has nothing adjacent and must return."""
    state = build(FX_RING, pile=["U", "U"], options=CONNECTED)
    assert abbey_turn(state, 0, 1, "MONASTERY", "wagon") == [9, 0, 0]
    assert state.legal_actions() == [Pass()]
    state.apply(Pass())
    assert wagons_in_supply(state) == [1, 1, 1]


# -- CAR-AM-WAGON-16 ----------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-WAGON-16")
def test_traverse_reaches_through_a_completed_feature() -> None:
    """Both options on: in addition to the CAR-AM-WAGON-15 targets, the monastery of (2,0),
    reached through the completed road of L's segment touching E and A@(2,0)."""
    state = links_scored(TRAVERSE)
    assert wagon_moves(state) == {(-2, 0, "MONASTERY"), (1, 0, "S"), (2, 0, "MONASTERY")}
    assert_not_targets(state, [(0, 0, "N"), (1, 0, "E")])
    move_wagon(state, 2, 0, "MONASTERY")
    assert on_board(state) == [(RED, 2, 0, "MONASTERY", "wagon")]


AM05_ROAD = "D@(0,0)/0 AM05@(1,0)/0"


def am05_scored(options: dict[str, Any], monk: bool) -> CarcassonneState:
    """D's road runs east into the monastery of AM05@(1,0); Red's wagon on the road of (0,0),
    optionally Blue's monk on AM05; Red's A@(-1,0)/270 completes the road (Red +3)."""
    followers: list[Any] = [(RED, 0, 0, "E.W", "wagon")]
    if monk:
        followers.append((BLUE, 1, 0, "MONASTERY"))
    state = build(AM05_ROAD, followers=followers, pile=["A", "U"], options=options)
    assert play(state, -1, 0, 270) == [3, 0, 0]
    return state


@pytest.mark.rule("CAR-AM-WAGON-16")
def test_traverse_passes_an_unoccupied_incomplete_monastery() -> None:
    """Without traversing the wagon reaches the two monasteries its road enters; with it, also
    the three other roads of AM05, through its unoccupied monastery."""
    monasteries = {(-1, 0, "MONASTERY"), (1, 0, "MONASTERY")}
    assert wagon_moves(am05_scored(CONNECTED, monk=False)) == monasteries
    assert wagon_moves(am05_scored(TRAVERSE, monk=False)) == monasteries | {
        (1, 0, "N"), (1, 0, "E"), (1, 0, "S")}


@pytest.mark.rule("CAR-AM-WAGON-16")
def test_traverse_is_blocked_by_an_occupied_incomplete_feature() -> None:
    """Blue's monk on AM05's incomplete monastery: it is neither a target nor a way through."""
    state = am05_scored(TRAVERSE, monk=True)
    assert wagon_moves(state) == {(-1, 0, "MONASTERY")}
    assert_not_targets(state, [(1, 0, "MONASTERY"), (1, 0, "N"), (1, 0, "E"), (1, 0, "S")])


ROAD_HOLE_CLOSED = FX_ROAD_HOLE + " B@(3,1)/0"


def road_hole_abbey(options: dict[str, Any]) -> CarcassonneState:
    """FX-ROAD-HOLE plus B@(3,1), so the hole (2,0) has all eight neighbours: Red's abbey there
    with the wagon is complete at once (Red +9) and closes the roads R1 and R2 facing it."""
    state = build(ROAD_HOLE_CLOSED, pile=["U", "U"], options=options)
    assert abbey_turn(state, 2, 0, "MONASTERY", "wagon") == [9, 0, 0]
    assert not state.graph.figures[feature_root(state, 1, 0, "E.W")]
    assert state.graph.open[feature_root(state, 1, 0, "E.W")] == 0
    assert state.graph.open[feature_root(state, 3, 0, "W")] == 0
    return state


@pytest.mark.rule("CAR-AM-WAGON-15", "CAR-AM-WAGON-16")
def test_abbey_edges_link_to_the_roads_facing_them() -> None:
    """The roads facing the abbey are adjacent to it but were completed by it, so under
    `connected` alone nothing is left; traversing them reaches the monasteries they enter,
    A@(-1,0) and A@(3,0)."""
    assert road_hole_abbey(CONNECTED).legal_actions() == [Pass()]
    state = road_hole_abbey(TRAVERSE)
    assert wagon_moves(state) == {(-1, 0, "MONASTERY"), (3, 0, "MONASTERY")}
    assert_not_targets(state, [(1, -1, "MONASTERY"), (3, -1, "N"), (1, 0, "E.W")])


# -- CAR-AM-WAGON-50 ----------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-WAGON-50")
def test_wagon_on_an_abbey_scores_it_and_moves_on() -> None:
    """FX-RING: Red's abbey at (0,1) with the wagon is complete at once (Red +9); seven targets
    are in range: the road of (-1,0)/(0,0)/(1,0), the city of (0,0) and five separate E cities."""
    state = build(FX_RING, pile=["U", "U"], options=AM)
    assert state.legal_actions() == [Draw(), PlaceAbbey(0, 1)]
    state.apply(PlaceAbbey(0, 1))
    assert Deploy(0, 1, "MONASTERY", "wagon") in state.legal_actions()
    before = state.scores
    state.apply(Deploy(0, 1, "MONASTERY", "wagon"))
    assert delta(state, before) == [9, 0, 0]
    assert events(state) == [("monastery", True, 9, [RED])]
    cities = {(0, 0, "N"), (-1, 1, "W"), (1, 1, "E"), (-1, 2, "W"), (0, 2, "S"), (1, 2, "E")}
    road = {(-1, 0, "E.W"), (0, 0, "E.W"), (1, 0, "E.W")}
    assert wagon_moves(state) == cities | road
    assert len(targets(state)) == 7
    move_wagon(state, 1, 2, "E")
    assert on_board(state) == [(RED, 1, 2, "E", "wagon")]
    assert state.view(None)["supply"][RED]["abbey"] == 0


# -- CAR-AM-WAGON-51 ----------------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-WAGON-51")
def test_wagon_may_move_onto_the_abbey_placed_this_turn() -> None:
    """FX-HOLE-CITY: Blue's abbey (no figure) completes CI (Red +2); from (-1,1) Red's targets
    are RD, CD, the new abbey and the monastery of (0,2)."""
    state = hole_city_scored(AM)
    assert targets(state) == {
        feature_root(state, 0, 0, "E.W"), feature_root(state, 0, 0, "N"),
        feature_root(state, 0, 1, "MONASTERY"), feature_root(state, 0, 2, "MONASTERY")}
    assert wagon_moves(state) == {(-1, 0, "E.W"), (0, 0, "E.W"), (0, 0, "N"),
                                  (0, 1, "MONASTERY"), (0, 2, "MONASTERY")}
    move_wagon(state, 0, 1, "MONASTERY")
    assert on_board(state) == [(RED, 0, 1, "MONASTERY", "wagon")]
    assert state.turn_player == YELLOW and state.current_player == YELLOW


@pytest.mark.rule("CAR-AM-WAGON-51")
def test_abbey_with_a_monk_is_not_a_target() -> None:
    """If Blue puts a monk on the abbey it is occupied and drops out of Red's targets."""
    state = hole_city_scored(AM, monk_on_abbey=True)
    assert wagon_moves(state) == {(-1, 0, "E.W"), (0, 0, "E.W"), (0, 0, "N"),
                                  (0, 2, "MONASTERY")}
    assert_not_targets(state, [(0, 1, "MONASTERY")])
