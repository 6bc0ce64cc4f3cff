"""The table's outlook on a Carcassonne position (`outlook.py`): projected end-of-game scores,
the features figure spots join with their points now, and the final scoring by feature.

Positions are built on FX-BARN (tests/carcassonne/fixtures.py, drawn in test_am_barn.py):

    y=0   D(0,0)        U(1,0)        U(2,0)        road W-E through all three
    y=1   B(0,1)        (1,1) free    E(2,1)/270    monastery; city CN facing W
    y=2   E(0,2)/180    city CA (completed) with E(0,3)/0
"""

from __future__ import annotations

import random
from typing import Any

import boardwright as bw
from fixtures import FX_BARN

from boardwright.games.carcassonne import Deploy, Pass, Place
from boardwright.games.carcassonne.outlook import (
    breakdown, final_account, project, projected_scores, spot_features, table_data,
)
from boardwright.games.carcassonne.scenario import build

RED, BLUE = 0, 1
AM = {"expansions": ["abbey_mayor"]}
B_FIELD = "EL.ER.NL.NR.SL.SR.WL.WR"


def seg(x: int, y: int, location: str) -> dict[str, Any]:
    return {"x": x, "y": y, "location": location}


def test_projection_scores_every_figure_as_the_end_of_the_game_would() -> None:
    # Red: highwayman on the 3-tile road, farmer in the field of B (it borders the completed
    # city CA: 3). Blue: monk on B (3 neighbours: 4), knight in the open 1-tile city CN (1).
    state = build(FX_BARN, followers=[(RED, 0, 0, "E.W"), (BLUE, 0, 1, "MONASTERY"),
                                      (RED, 0, 1, B_FIELD), (BLUE, 2, 1, "W")],
                  pile=["U"], players=2)
    before = state.scores
    projection = project(state)
    assert projection.scores == [6, 5]
    by_feature = {(s.feature, tuple(s.players)): s for s in projection.scorings}
    assert {k: s.points for k, s in by_feature.items()} == {
        ("road", (RED,)): 3, ("monastery", (BLUE,)): 4, ("field", (RED,)): 3, ("city", (BLUE,)): 1}
    road = by_feature[("road", (RED,))]
    assert road.segments == [seg(0, 0, "E.W"), seg(1, 0, "E.W"), seg(2, 0, "E.W")]
    assert road.figures == [{"player": RED, "figure": "follower", **seg(0, 0, "E.W")}]
    assert by_feature[("monastery", (BLUE,))].segments == [seg(0, 1, "MONASTERY")]
    assert all(s.end and not s.complete for s in projection.scorings)
    # the position itself is untouched
    assert state.scores == before and len(state.view(None)["followers"]) == 4


def test_a_feature_completed_by_the_tile_just_placed_projects_at_its_completion_value() -> None:
    # Red's knight holds the open city CN (1 tile: 1 point at the end). Blue lays E@(1,1)/90,
    # closing CN at 2 tiles: in the figure step, before the turn's scoring, it is worth 4.
    state = build(FX_BARN, followers=[(RED, 2, 1, "W")], pile=["E", "U"], players=2,
                  turn_player=BLUE)
    assert projected_scores(state) == [1, 0]
    state.apply(Place(1, 1, 90))
    assert projected_scores(state) == [4, 0]
    state.apply(Pass())
    assert state.scores == [4, 0]
    assert projected_scores(state) == [4, 0]


def test_spot_features_name_the_feature_its_segments_and_its_points_now() -> None:
    state = build(FX_BARN, followers=[(RED, 2, 1, "W")], pile=["E", "U"], players=2,
                  turn_player=BLUE, options=AM)
    assert spot_features(state) == {"spots": [], "features": []}  # placing a tile: no spot
    state.apply(Place(1, 1, 90))
    data = spot_features(state)
    spots = {(s["location"], s["figure"]): data["features"][s["feature"]] for s in data["spots"]}
    # the city CN is occupied by Red's knight: no spot; the field joins the big field S0,
    # which borders CA and CN (both completed): 6 for a farmer, 8 for the barn at corner (0, 0)
    assert set(spots) == {("NL.NR.SL.SR.WL.WR", "follower"), ("NW", "barn")}
    farmer = spots[("NL.NR.SL.SR.WL.WR", "follower")]
    assert (farmer["kind"], farmer["points"], farmer["complete"]) == ("field", 6, False)
    barn = spots[("NW", "barn")]
    assert (barn["kind"], barn["points"]) == ("barn", 8)
    assert barn["segments"] == farmer["segments"]
    assert seg(1, 1, "NL.NR.SL.SR.WL.WR") in farmer["segments"]
    assert seg(0, 1, B_FIELD) in farmer["segments"]


def test_spot_features_of_a_completed_road_and_of_a_wagon_move() -> None:
    # draw order: Red lays A (monastery, road W) east of the start tile's road with a wagon;
    # Blue passes a turn; Red closes the road with a second A at the west end
    game = bw.load("carcassonne", 2, {**AM, "draw_order": ["A", "B", "A", "U"]})
    state = game.new_game(1)
    state.apply(Place(1, 0, 90))
    data = spot_features(state)
    road = next(data["features"][s["feature"]] for s in data["spots"]
                if s["figure"] == "wagon" and s["location"] == "W")
    assert (road["kind"], road["points"], road["complete"], road["tiles"]) == ("road", 2, False, 2)
    state.apply(Deploy(1, 0, "W", "wagon"))
    state.apply(next(a for a in state.legal_actions() if (a.x, a.y) != (-1, 0)))
    state.apply(Pass())
    state.apply(Place(-1, 0, 270))
    # Blue's B went to (0, 1): the new monastery at (-1, 0) has two neighbours (3 now); the
    # road it closes holds Red's wagon, so it offers no spot
    data = spot_features(state)
    assert state.view(None)["board"][-1] == {"x": -1, "y": 0, "tile": "A", "rotation": 270}
    features = {s["location"]: data["features"][s["feature"]] for s in data["spots"]}
    assert set(features) == {"MONASTERY", "EL.ER.NL.NR.SL.SR.WL.WR"}
    assert (features["MONASTERY"]["kind"], features["MONASTERY"]["points"]) == ("monastery", 3)
    assert features["EL.ER.NL.NR.SL.SR.WL.WR"]["segments"][-1] == seg(1, 0, "EL.ER.NL.NR.SL.SR.WL.WR")
    state.apply(Pass())
    assert state.phase == "wagon_move"
    data = spot_features(state)
    assert data["spots"] and all(s["figure"] == "wagon" for s in data["spots"])
    assert {data["features"][s["feature"]]["kind"] for s in data["spots"]} <= {"road", "city", "monastery"}
    moves = {(a.x, a.y, a.location) for a in state.legal_actions() if isinstance(a, Deploy)}
    assert {(s["x"], s["y"], s["location"]) for s in data["spots"]} == moves


def test_final_account_keeps_the_figures_and_names_each_scoring() -> None:
    # Red: U east of the start tile, a highwayman on the road (2 tiles, open: 2 at the end).
    # Blue: E north of the start tile closes its city (nobody in it) and puts a farmer in E's
    # field, which borders that completed city (3 at the end).
    game = bw.load("carcassonne", 2, {"draw_order": ["U", "E"]})
    state = game.new_game(1)
    state.apply(Place(1, 0, 0))
    state.apply(Deploy(1, 0, "E.W"))
    state.apply(Place(0, -1, 180))
    field = next(a for a in state.legal_actions()
                 if isinstance(a, Deploy) and a.location not in ("S",))
    state.apply(field)
    assert state.is_terminal and state.scores == [2, 3]
    account = final_account(state)
    assert account["figures"] == [
        {"player": BLUE, "x": 0, "y": -1, "location": field.location, "figure": "follower",
         "role": "farmer"},
        {"player": RED, "x": 1, "y": 0, "location": "E.W", "figure": "follower",
         "role": "highwayman"}]
    assert [(s["feature"], s["points"], s["players"], s["end"]) for s in account["scorings"]] == [
        ("road", 2, [RED], True), ("field", 3, [BLUE], True)]
    assert account["scorings"][0]["segments"] == [seg(0, 0, "E.W"), seg(1, 0, "E.W")]
    assert breakdown(account["scorings"], 2) == [
        {"play": {}, "end": {"road": 2}}, {"play": {}, "end": {"field": 3}}]
    data = table_data(state)
    assert data["projected_scores"] == [2, 3] and data["final"]["breakdown"][1]["end"] == {"field": 3}


def test_barns_are_scored_by_field_at_the_end() -> None:
    state = build(FX_BARN + " E@(1,1)/90", pile=["U"], players=2, options=AM,
                  barns=[(BLUE, 0, 0)])
    projection = project(state)
    assert projection.scores == [0, 8]
    barn = next(s for s in projection.scorings if s.feature == "barn")
    assert (barn.points, barn.players, barn.end) == (8, [BLUE], True)
    assert seg(0, 1, B_FIELD) in barn.segments
    assert barn.figures == [{"player": BLUE, "corner": {"x": 0, "y": 0}}]


def test_projection_and_final_account_agree_with_the_engine_over_random_games() -> None:
    """At every position the projection is at least the score; a game that ends on a pass
    projected just before ends with the projected scores; every final account adds up to the
    final scores, scoring by scoring."""
    for seed in range(3):
        game = bw.load("carcassonne", 2, AM if seed % 2 else {})
        state = game.new_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            projected = projected_scores(state)
            assert all(p >= s for p, s in zip(projected, state.scores))
            action = rng.choice(state.legal_actions())
            last = isinstance(action, Pass) and state.phase == "deploy" and not state.pile
            state.apply(action)
            if last and state.is_terminal:
                assert state.scores == projected
        account = final_account(state)
        totals = [sum(sum(part.values()) for part in seat.values())
                  for seat in breakdown(account["scorings"], 2)]
        assert totals == state.scores
        assert all(s["segments"] for s in account["scorings"])
