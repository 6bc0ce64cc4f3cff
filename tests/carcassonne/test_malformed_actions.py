"""Bad actions never change a state: malformed ones raise MalformedActionError, well-formed but
illegal ones IllegalActionError, and anything applied to a finished game GameOverError.

Hypothesis generates the malformed JSON (one defect added to a valid action, or random objects
that an independent grammar of the action format rejects) and the illegal actions (random
Place/Deploy/Pass at random points of random games, kept only if not listed as legal).
The same is done for Abbey & Mayor games, whose actions add Draw, PlaceAbbey and the mayor,
wagon and barn figures, at random points of random games picked in every phase (choosing
between draw and abbey, placing, deploying, moving a wagon, the final abbey round).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st


from carcassonne_engines import per_engine_cache  # noqa: E402
from sizes import sized  # noqa: E402
from randomgames import (  # noqa: E402
    am_config,
    config,
    holes_of,
    new_state,
    pick_action,
    state_at,
    tiles_by_xy,
)

import boardwright as bw  # noqa: E402
from boardwright.games.carcassonne import Deploy, Draw, Pass, Place, PlaceAbbey  # noqa: E402
from boardwright.games.carcassonne.scenario import build  # noqa: E402
from boardwright.games.carcassonne.state import CarcassonneState  # noqa: E402

# The action format (docs/rules/carcassonne.md and ARCHITECTURE.md), restated independently.
ROTATIONS = (0, 90, 180, 270)
MAX_COORD = 511
CORNERS = ("NW", "NE", "SE", "SW")  # barn locations
PART_NAMES = frozenset(("N", "E", "S", "W", "NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR",
                        "IN1", "IN2", *CORNERS))
FIGURE = "follower"
# Figures of the game's options: Abbey & Mayor adds each one whose count is not 0.
FIGURE_OPTIONS = (("mayor", "mayors"), ("wagon", "wagons"), ("barn", "barns"))
AM_FIGURES = ("follower", "mayor", "wagon", "barn")
ACTION_TYPES = ("place", "deploy", "pass", "draw", "abbey")
PLACE_KEYS = frozenset(("type", "x", "y", "rotation"))
DEPLOY_KEYS = frozenset(("type", "x", "y", "location", "figure"))
ABBEY_KEYS = frozenset(("type", "x", "y"))
BASE_FIGURES = frozenset((FIGURE,))
SETTINGS = settings(max_examples=sized(120), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_location(value: Any) -> bool:
    if not isinstance(value, str) or not value:
        return False
    if value == "MONASTERY":
        return True
    parts = value.split(".")
    return all(p in PART_NAMES for p in parts) and len(set(parts)) == len(parts)


def known_figures(game: bw.Game) -> frozenset[str]:
    """The figure names a game's actions may carry: the follower, plus each Abbey & Mayor
    figure its options give the players."""
    options = game.option_summary()
    return BASE_FIGURES | {figure for figure, key in FIGURE_OPTIONS if options.get(key, 0)}


def is_well_formed(data: Any, figures: frozenset[str] = BASE_FIGURES) -> bool:
    """Whether `data` is a syntactically valid action (legal or not) of a game whose figures
    are `figures`."""
    if not isinstance(data, dict):
        return False
    kind = data.get("type")
    coords_ok = all(is_int(data.get(k)) and abs(data[k]) <= MAX_COORD for k in ("x", "y"))
    if kind in ("pass", "draw"):
        return set(data) == {"type"}
    if kind == "abbey":
        return set(data) == ABBEY_KEYS and coords_ok
    if kind == "place":
        return set(data) == PLACE_KEYS and coords_ok and data["rotation"] in ROTATIONS \
            and is_int(data["rotation"])
    if kind == "deploy":
        return ((PLACE_KEYS - {"rotation"}) | {"location"} <= set(data) <= DEPLOY_KEYS
                and coords_ok and is_location(data["location"])
                and any(data.get("figure", FIGURE) == figure for figure in figures))
    return False


# -- strategies ------------------------------------------------------------------------------

json_scalars = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                | st.text(max_size=8))
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=3),
    max_leaves=6)
non_ints = json_values.filter(lambda v: not is_int(v))
small_coords = st.integers(-6, 6)
valid_locations = st.sampled_from(["N", "E.W", "EL.WR", "MONASTERY", "E.N.S.W", "ER.SL.SR.WL",
                                   "IN1", "N.S", "E.S"])


@st.composite
def valid_place(draw: st.DrawFn) -> dict[str, Any]:
    return {"type": "place", "x": draw(small_coords), "y": draw(small_coords),
            "rotation": draw(st.sampled_from(ROTATIONS))}


@st.composite
def valid_deploy(draw: st.DrawFn) -> dict[str, Any]:
    data = {"type": "deploy", "x": draw(small_coords), "y": draw(small_coords),
            "location": draw(valid_locations)}
    if draw(st.booleans()):
        data["figure"] = FIGURE
    return data


valid_actions = valid_place() | valid_deploy() | st.just({"type": "pass"})


@st.composite
def with_defect(draw: st.DrawFn) -> dict[str, Any]:
    """A valid action with exactly one defect of a kind the format forbids."""
    data = dict(draw(valid_actions))
    kind = data["type"]
    ints = [k for k in ("x", "y", "rotation") if k in data]
    defects = ["extra", "type"]
    if kind != "pass":
        defects += ["missing", "wrong_type", "huge"]
    if kind == "place":
        defects += ["rotation"]
    if kind == "deploy":
        defects += ["location", "figure"]
    defect = draw(st.sampled_from(defects))
    if defect == "extra":
        allowed = {"pass": {"type"}, "place": PLACE_KEYS, "deploy": DEPLOY_KEYS}[kind]
        data[draw(st.text(max_size=6).filter(lambda k: k not in allowed))] = draw(json_values)
    elif defect == "type":
        if draw(st.booleans()):
            del data["type"]
        else:
            data["type"] = draw(json_values.filter(lambda v: v not in ACTION_TYPES))
    elif defect == "missing":
        required = ints + (["location"] if kind == "deploy" else [])
        del data[draw(st.sampled_from(required))]
    elif defect == "wrong_type":
        data[draw(st.sampled_from(ints))] = draw(non_ints)
    elif defect == "huge":
        data[draw(st.sampled_from(["x", "y"]))] = draw(
            st.integers(min_value=MAX_COORD + 1) | st.integers(max_value=-MAX_COORD - 1)
            | st.sampled_from([10**12, -(10**40)]))
    elif defect == "rotation":
        data["rotation"] = draw(st.integers().filter(lambda r: r not in ROTATIONS) | non_ints
                                | st.sampled_from([360, -90, 45, 1, 91, 270.0]))
    elif defect == "location":
        data["location"] = draw((json_values | st.text(alphabet="NESWLRIM1.O ", max_size=12)
                                 | st.sampled_from(["", "N.N", "n", "E.W.", ".E", "MONASTERY.N",
                                                    "monastery", "nw", "IN3", "E W", "NWSE"]))
                                .filter(lambda v: not is_location(v)))
    elif defect == "figure":
        data["figure"] = draw(json_values.filter(lambda v: v != FIGURE)
                              | st.sampled_from(["Follower", "meeple", "abbot", "mayor"]))
    return data


non_dicts = (json_values.filter(lambda v: not isinstance(v, dict))
             | st.tuples(st.just("place"), small_coords, small_coords)
             | st.builds(object))
fuzzed = st.fixed_dictionaries(
    {"type": st.sampled_from(ACTION_TYPES) | json_values},
    optional={"x": small_coords | json_values, "y": small_coords | json_values,
              "rotation": st.sampled_from(ROTATIONS) | json_values,
              "location": valid_locations | json_values,
              "figure": st.just(FIGURE) | json_values, "extra": json_values},
).filter(lambda d: not is_well_formed(d))
malformed_actions = with_defect() | non_dicts | fuzzed


# -- states ----------------------------------------------------------------------------------

# (game index, random actions played): fresh game, deploy phase, mid-game both phases, late game.
PROBE_POINTS = [(0, 0), (1, 1), (2, 40), (3, 41), (4, 120), (11, 97)]


@per_engine_cache()
def _probe_state(index: int, steps: int) -> CarcassonneState:
    return state_at(config(index), steps)


def probe_state(point: tuple[int, int]) -> CarcassonneState:
    """A fresh copy of a cached position (tests mutate nothing, but a failure might)."""
    state = _probe_state(*point).clone()
    assert not state.is_terminal
    return state


@per_engine_cache()
def finished_state(index: int) -> CarcassonneState:
    state = state_at(config(index), 10**6)
    assert state.is_terminal
    return state


def assert_rejected(state: CarcassonneState, action: Any, error: type[bw.BoardwrightError],
                    before: Any = None) -> bw.BoardwrightError:
    """`action` is refused with `error` and leaves the position as it was (`before`: its
    signature when the caller already has it, for many actions tried on one position)."""
    before = state.signature() if before is None else before
    with pytest.raises(error) as info:
        state.apply(action)
    assert state.signature() == before, f"{action!r} was rejected but changed the state"
    return info.value


# -- malformed -------------------------------------------------------------------------------

def test_the_grammar_accepts_valid_actions() -> None:
    """Guards the oracle: the valid templates are well-formed and the engine parses them."""
    game = bw.load("carcassonne", 2)
    for data in ({"type": "pass"}, {"type": "place", "x": -3, "y": 511, "rotation": 270},
                 {"type": "deploy", "x": 0, "y": 0, "location": "EL.WR"},
                 {"type": "deploy", "x": 0, "y": 0, "location": "WR.EL", "figure": FIGURE}):
        assert is_well_formed(data)
        assert game.action_from_json(data).to_json()["type"] == data["type"]
    am_game = am_config(0).game()
    assert known_figures(game) == BASE_FIGURES
    assert known_figures(am_game) == frozenset(AM_FIGURES)
    for data in ({"type": "draw"}, {"type": "abbey", "x": 3, "y": -511},
                 {"type": "deploy", "x": 0, "y": 0, "location": "NW", "figure": "barn"},
                 {"type": "deploy", "x": 0, "y": 0, "location": "N", "figure": "mayor"},
                 {"type": "deploy", "x": 0, "y": 0, "location": "E.W", "figure": "wagon"}):
        assert is_well_formed(data, known_figures(am_game))
        assert am_game.action_from_json(data).to_json() == dict(data)


@SETTINGS
@given(data=malformed_actions, point=st.sampled_from(PROBE_POINTS))
def test_malformed_action_is_rejected_and_changes_nothing(data: Any,
                                                          point: tuple[int, int]) -> None:
    state = probe_state(point)
    with pytest.raises(bw.MalformedActionError):
        state.game.action_from_json(data)
    error = assert_rejected(state, data, bw.MalformedActionError)
    assert str(error)


@settings(max_examples=60, deadline=None)
@given(data=malformed_actions)
def test_malformed_action_on_a_finished_game_is_rejected(data: Any) -> None:
    state = finished_state(7).clone()
    assert_rejected(state, data, bw.BoardwrightError)


# -- well-formed but illegal ----------------------------------------------------------------

def is_legal(state: CarcassonneState, action: Any) -> bool:
    """Legal means listed: an unlisted equivalent rotation of a listed placement is illegal."""
    return action in state.legal_actions()


@st.composite
def actions_for(draw: st.DrawFn, state: CarcassonneState) -> Place | Deploy | Pass:
    """A well-formed action biased towards the interesting spots: the board, its free edge,
    the tile just placed and the locations of real tiles."""
    board = tiles_by_xy(state)
    spots = sorted(board) + sorted({(x + dx, y + dy) for x, y in board
                                    for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0))})
    xy = draw(st.sampled_from(spots) | st.tuples(st.integers(-MAX_COORD, MAX_COORD),
                                                 st.integers(-MAX_COORD, MAX_COORD)))
    kind = draw(st.sampled_from(["place", "deploy", "pass"]))
    if kind == "place":
        return Place(*xy, draw(st.sampled_from(ROTATIONS)))
    if kind == "pass":
        return Pass()
    last = state.view(None)["last_placed"]
    if last is not None and draw(st.booleans()):
        xy = (last["x"], last["y"])
    own = [f.location for f in board[xy].features] if xy in board else []
    location = draw(st.sampled_from(own) if own and draw(st.booleans()) else valid_locations)
    return Deploy(*xy, location, FIGURE)


@SETTINGS
@given(index=st.integers(0, 99), steps=st.integers(0, 150), data=st.data())
def test_illegal_action_is_rejected_and_changes_nothing(index: int, steps: int,
                                                        data: st.DataObject) -> None:
    state = state_at(config(index), steps)
    assume(not state.is_terminal)
    action = data.draw(actions_for(state))
    assume(not is_legal(state, action))
    for form in (action, action.to_json()):
        error = assert_rejected(state, form, bw.IllegalActionError)
        assert not isinstance(error, bw.GameOverError)
        assert error.reason  # type: ignore[attr-defined]


def test_equivalent_rotations_are_refused_naming_the_listed_one() -> None:
    """Guards the oracle above: every offered action is legal; an equivalent rotation that is
    not offered is refused (the state unchanged) with a message naming the offered one."""
    state = _b_south_of_d()
    for point in PROBE_POINTS:
        probe = probe_state(point)
        assert all(is_legal(probe, action) for action in probe.legal_actions())
    for rotation in (90, 180, 270):
        assert not is_legal(state, Place(0, 1, rotation))
        error = assert_rejected(state, Place(0, 1, rotation), bw.IllegalActionError)
        assert str(error) == (f"tile B is symmetric: rotation {rotation} is the same placement "
                              "as rotation 0, play that")
        assert_rejected(state, Place(0, 1, rotation).to_json(), bw.IllegalActionError)
    state.apply(Place(0, 1, 0))
    assert state.record.actions == [{"type": "place", "x": 0, "y": 1, "rotation": 0}]


@pytest.mark.parametrize("point", PROBE_POINTS)
def test_every_wrong_phase_action_is_illegal(point: tuple[int, int]) -> None:
    state = probe_state(point)
    legal = state.legal_actions()
    if isinstance(legal[0], Place):
        x, y = legal[0].x, legal[0].y
        wrong: list[Any] = [Pass(), Deploy(x, y, "MONASTERY"), Deploy(0, 0, "N")]
    else:
        wrong = [Place(0, 1, 0), Place(5, 5, 90)]
    for action in wrong:
        assert_rejected(state, action, bw.IllegalActionError)


def test_deploy_without_followers_is_illegal() -> None:
    """With an empty supply only Pass is offered, and a Deploy is rejected."""
    state = build("D@(0,0)/0", followers=[(0, 0, 0, "N")] * 7, pile=["B", "B"], players=2)
    assert state.view(None)["supply"][0]["follower"] == 0
    state.apply(Place(0, 1, 0))
    assert state.legal_actions() == [Pass()]
    assert_rejected(state, Deploy(0, 1, "MONASTERY"), bw.IllegalActionError)


def test_field_deploy_without_farmers_is_illegal() -> None:
    state = build("D@(0,0)/0", pile=["B", "B"], players=2, options={"farmers": False})
    state.apply(Place(0, 1, 0))
    assert set(state.legal_actions()) == {Pass(), Deploy(0, 1, "MONASTERY")}
    assert_rejected(state, Deploy(0, 1, "EL.ER.NL.NR.SL.SR.WL.WR"), bw.IllegalActionError)


# -- action objects with values outside the format ---------------------------------------------

def _b_south_of_d() -> CarcassonneState:
    """Tile B (all field, one distinct rotation) to place; (0, 1) takes it in any rotation."""
    state = build("D@(0,0)/0", pile=["B", "B"], players=2)
    assert Place(0, 1, 0) in state.legal_actions()
    return state


@pytest.mark.parametrize("rotation", [45, -90, 360, "90"])
def test_place_object_with_a_rotation_outside_the_four(rotation: Any) -> None:
    """A rotation is one of 0, 90, 180, 270 (CAR-BASE-PLACE-03); anything else must be
    rejected with a BoardwrightError, not accepted as a nearby rotation and not crash."""
    assert_rejected(_b_south_of_d(), Place(0, 1, rotation), bw.BoardwrightError)


@pytest.mark.parametrize("xy", [(1, 1 - 1024), (512, 1)])
def test_place_object_far_off_the_board_is_not_aliased(xy: tuple[int, int]) -> None:
    """Coordinates beyond the board must not wrap onto a real position (here (0, 1))."""
    assert_rejected(_b_south_of_d(), Place(*xy, 0), bw.BoardwrightError)


def test_deploy_object_far_off_the_board_is_not_aliased() -> None:
    """Otherwise the record holds an off-board Deploy that no longer replays."""
    state = _b_south_of_d()
    state.apply(Place(0, 1, 0))
    assert_rejected(state, Deploy(1, 1 - 1024, "MONASTERY"), bw.BoardwrightError)
    assert bw.replay(state.record).signature() == state.signature()


def test_action_objects_with_wrongly_typed_fields() -> None:
    """Bad input of any kind raises a BoardwrightError (ARCHITECTURE.md), never a TypeError."""
    state = _b_south_of_d()
    assert_rejected(state, Place("0", 1, 0), bw.BoardwrightError)  # type: ignore[arg-type]
    state.apply(Place(0, 1, 0))
    assert_rejected(state, Deploy(0, 1, ["MONASTERY"]), bw.BoardwrightError)  # type: ignore[arg-type]


# -- finished games ------------------------------------------------------------------------------

@pytest.mark.parametrize("index", [7, 8, 9])
def test_any_action_on_a_finished_game_is_game_over(index: int) -> None:
    state = finished_state(index).clone()
    for action in (Pass(), Place(0, 1, 0), Deploy(0, 0, "N"), {"type": "pass"},
                   {"type": "place", "x": 3, "y": 3, "rotation": 90},
                   {"type": "deploy", "x": 0, "y": 0, "location": "N"}):
        error = assert_rejected(state, action, bw.GameOverError)
        assert "over" in str(error)


# -- Abbey & Mayor ---------------------------------------------------------------------------------

AM_PROBE_GAMES = range(0, 36)  # A&M game indexes: every player count and end-of-game rule
AM_PHASES = ("choose_tile", "place_tile", "deploy", "wagon_move", "final_abbey_round")
unknown_figures = (json_values.filter(lambda v: not any(v == f for f in AM_FIGURES))
                   | st.sampled_from(["Follower", "MAYOR", "barns", "abbot", "meeple", "Wagon",
                                      "", " barn", "farmer", "knight", "monk", "abbey"]))
bad_coords = (non_ints | st.sampled_from([True, False, 1.0, "1", None, [0]])
              | st.integers(min_value=MAX_COORD + 1) | st.integers(max_value=-MAX_COORD - 1))


@st.composite
def am_with_defect(draw: st.DrawFn) -> dict[str, Any]:
    """A Draw, PlaceAbbey or figure deployment of Abbey & Mayor with exactly one defect."""
    kind = draw(st.sampled_from(["draw", "abbey", "figure", "barn_location"]))
    if kind == "draw":
        key = draw(st.sampled_from(["x", "y", "tile", "rotation"])
                   | st.text(max_size=6).filter(lambda k: k != "type"))
        return {"type": "draw", key: draw(json_values)}
    if kind == "figure":
        data = draw(valid_deploy())
        data["figure"] = draw(unknown_figures)
        return data
    if kind == "barn_location":
        location = draw((json_values | st.sampled_from(["nw", "N W", "NW.", "NW.NW", "C", "NNW"]))
                        .filter(lambda v: not is_location(v)))
        return {"type": "deploy", "x": draw(small_coords), "y": draw(small_coords),
                "location": location, "figure": "barn"}
    data = {"type": "abbey", "x": draw(small_coords), "y": draw(small_coords)}
    defect = draw(st.sampled_from(["extra", "missing", "wrong_type"]))
    if defect == "extra":
        key = draw(st.sampled_from(["rotation", "location", "figure", "tile"])
                   | st.text(max_size=6).filter(lambda k: k not in ABBEY_KEYS))
        data[key] = draw(json_values)
    elif defect == "missing":
        del data[draw(st.sampled_from(["x", "y"]))]
    else:
        data[draw(st.sampled_from(["x", "y"]))] = draw(bad_coords)
    return data


am_malformed_actions = am_with_defect() | malformed_actions


@lru_cache(maxsize=None)
def am_phase_steps(index: int) -> dict[str, tuple[int, ...]]:
    """For A&M game `index`: the action numbers at which each phase is open."""
    cfg = am_config(index)
    state = new_state(cfg)
    rng = random.Random(cfg.seed)
    steps: dict[str, list[int]] = {}
    step = 0
    while not state.is_terminal:
        steps.setdefault(state.phase, []).append(step)
        state.apply(pick_action(state, rng))
        step += 1
    return {phase: tuple(found) for phase, found in steps.items()}


@per_engine_cache(maxsize=256)
def _am_state(index: int, step: int) -> CarcassonneState:
    return state_at(am_config(index), step)


def am_state(index: int, step: int) -> CarcassonneState:
    """A fresh copy of a cached A&M position."""
    state = _am_state(index, step).clone()
    assert not state.is_terminal
    return state


@st.composite
def am_positions(draw: st.DrawFn) -> CarcassonneState:
    """A position of a random A&M game, the phase chosen first so that rare phases (the abbey
    choice, wagon moves, the final round) come up as often as placing and deploying."""
    phase = draw(st.sampled_from(AM_PHASES))
    games = [i for i in AM_PROBE_GAMES if phase in am_phase_steps(i)]
    index = draw(st.sampled_from(games))
    return am_state(index, draw(st.sampled_from(am_phase_steps(index)[phase])))


def test_am_probe_games_reach_every_phase() -> None:
    """Guards the A&M strategies: the probe games open every phase, several times."""
    for phase in AM_PHASES:
        assert sum(len(am_phase_steps(i).get(phase, ())) for i in AM_PROBE_GAMES) >= 5, phase


@SETTINGS
@given(data=am_malformed_actions, state=am_positions())
def test_am_malformed_action_is_rejected_and_changes_nothing(data: Any,
                                                             state: CarcassonneState) -> None:
    """Draw and abbey actions with extra or missing fields or bad coordinates, unknown
    figures, malformed barn locations (and every base-game defect) are malformed in every
    phase of an A&M game."""
    assume(not is_well_formed(data, known_figures(state.game)))
    with pytest.raises(bw.MalformedActionError):
        state.game.action_from_json(data)
    error = assert_rejected(state, data, bw.MalformedActionError)
    assert str(error)


def _spots(state: CarcassonneState) -> list[tuple[int, int]]:
    """The board, its free edge and the holes, plus the 5x5 around a waiting wagon."""
    board = tiles_by_xy(state)
    spots = set(board) | {(x + dx, y + dy) for x, y in board
                          for dx, dy in ((0, 1), (0, -1), (1, 0), (-1, 0))}
    wagon = state.view(None).get("wagon")
    if wagon is not None:
        fx, fy = wagon["from"]["x"], wagon["from"]["y"]
        spots |= {(fx + dx, fy + dy) for dx in range(-2, 3) for dy in range(-2, 3)}
    return sorted(spots)


@st.composite
def am_actions_for(draw: st.DrawFn, state: CarcassonneState) -> Any:
    """A well-formed A&M action biased towards the interesting cases: Draw, PlaceAbbey on holes,
    the free edge and taken spots, the barn on any location of the new tile, each figure on
    each feature of the new tile, wagons on the tiles around a waiting wagon."""
    board = tiles_by_xy(state)
    holes = sorted(holes_of(board))
    xy = draw(st.sampled_from(_spots(state) + holes)
              | st.tuples(st.integers(-MAX_COORD, MAX_COORD), st.integers(-MAX_COORD, MAX_COORD)))
    kind = draw(st.sampled_from(["draw", "abbey", "pass", "place", "deploy", "deploy"]))
    if kind == "draw":
        return Draw()
    if kind == "pass":
        return Pass()
    if kind == "abbey":
        return PlaceAbbey(*xy)
    if kind == "place":
        return Place(*xy, draw(st.sampled_from(ROTATIONS)))
    last = state.view(None)["last_placed"]
    if last is not None and state.phase == "deploy" and draw(st.booleans()):
        xy = (last["x"], last["y"])
    figure = draw(st.sampled_from(sorted(known_figures(state.game))))
    own = [f.location for f in board[xy].features] if xy in board else []
    locations = st.sampled_from(own) if own and draw(st.booleans()) else (
        valid_locations | st.sampled_from(CORNERS))
    return Deploy(*xy, draw(locations), figure)


@SETTINGS
@given(state=am_positions(), data=st.data())
def test_am_illegal_action_is_rejected_and_changes_nothing(state: CarcassonneState,
                                                           data: st.DataObject) -> None:
    """Draw when not offered, an abbey on a non-hole or out of turn, a barn on a side or a
    feature instead of a corner or at a corner without four field corners, a wagon moved to a
    non-target, any figure where it may not stand, a pass the phase does not allow: each is
    rejected with IllegalActionError (object and JSON form) and changes nothing."""
    action = data.draw(am_actions_for(state))
    assume(not is_legal(state, action))
    for form in (action, action.to_json()):
        error = assert_rejected(state, form, bw.IllegalActionError)
        assert not isinstance(error, bw.GameOverError)
        assert error.reason  # type: ignore[attr-defined]


def _am_positions_in(phase: str, count: int = 6) -> list[tuple[int, int]]:
    """(game index, action number) of up to `count` probe positions in `phase`."""
    found = [(i, step) for i in AM_PROBE_GAMES for step in am_phase_steps(i).get(phase, ())]
    return found[:: max(1, len(found) // count)][:count]


def _illegal_everywhere(state: CarcassonneState, actions: list[Any]) -> None:
    """Every action of `actions` that is not legal here is rejected, in both forms."""
    legal, before = state.legal_actions(), state.signature()
    for action in actions:
        if action not in legal:
            for form in (action, action.to_json()):
                assert_rejected(state, form, bw.IllegalActionError, before)


@pytest.mark.parametrize("phase", [p for p in AM_PHASES if p != "choose_tile"])
def test_am_draw_when_not_offered_is_illegal(phase: str) -> None:
    for point in _am_positions_in(phase):
        state = am_state(*point)
        assert Draw() not in state.legal_actions()
        assert_rejected(state, Draw(), bw.IllegalActionError)
        assert_rejected(state, {"type": "draw"}, bw.IllegalActionError)


@pytest.mark.parametrize("phase", AM_PHASES)
def test_am_abbey_on_a_non_hole_or_out_of_turn_is_illegal(phase: str) -> None:
    """Only holes take an abbey, and only in the abbey choice and the final round."""
    for point in _am_positions_in(phase, count=3):
        state = am_state(*point)
        board = tiles_by_xy(state)
        holes = holes_of(board)
        spots = [xy for xy in _spots(state) if xy not in holes] + [(MAX_COORD, -MAX_COORD)]
        if phase not in ("choose_tile", "final_abbey_round"):
            spots += sorted(holes)
        _illegal_everywhere(state, [PlaceAbbey(*xy) for xy in spots])
        assert not [a for a in state.legal_actions()
                    if isinstance(a, PlaceAbbey) and (a.x, a.y) not in holes]


def test_am_barn_away_from_a_valid_corner_is_illegal() -> None:
    """In the deploy step the barn goes only on a corner of the new tile where four field
    corners meet: on a side, a feature, a corner of another tile or an invalid corner it is
    rejected."""
    checked = 0
    for point in _am_positions_in("deploy", count=30):
        state = am_state(*point)
        if not state.view(None)["supply"][state.turn_player].get("barn", 0):
            continue
        last = state.view(None)["last_placed"]
        x, y = last["x"], last["y"]
        variant = tiles_by_xy(state)[(x, y)]
        locations = [f.location for f in variant.features] + list(CORNERS) + [
            "N", "E.W", "MONASTERY", "IN1"]
        actions = [Deploy(x, y, location, "barn") for location in locations]
        actions += [Deploy(x + 1, y, corner, "barn") for corner in CORNERS]
        _illegal_everywhere(state, actions)
        assert all(a.location in CORNERS for a in state.legal_actions()
                   if isinstance(a, Deploy) and a.figure == "barn")
        checked += 1
    assert checked >= 10


def test_am_wagon_moves_to_non_targets_are_illegal() -> None:
    """In the wagon phase only the offered targets take the wagon: every other part of the
    25 tiles around it, any other figure, placing a tile and drawing are rejected."""
    for point in _am_positions_in("wagon_move", count=5):
        state = am_state(*point)
        board = tiles_by_xy(state)
        actions: list[Any] = [Draw(), Place(0, 0, 0)]
        for xy in _spots(state):
            for location in [f.location for f in board[xy].features] if xy in board else ["N"]:
                actions += [Deploy(*xy, location, figure) for figure in known_figures(state.game)]
        _illegal_everywhere(state, actions)


@pytest.mark.parametrize("phase", ["choose_tile", "final_abbey_round"])
def test_am_abbey_objects_with_bad_coordinates(phase: str) -> None:
    """A PlaceAbbey built in code with values its JSON form cannot carry is malformed, and
    one far off the board is not aliased onto a hole."""
    for point in _am_positions_in(phase, count=3):
        state = am_state(*point)
        hole = next(a for a in state.legal_actions() if isinstance(a, PlaceAbbey))
        for bad in [PlaceAbbey(hole.x + 1024, hole.y), PlaceAbbey(hole.x, hole.y - 1024),
                    PlaceAbbey(True, 0), PlaceAbbey(str(hole.x), hole.y),  # type: ignore[arg-type]
                    PlaceAbbey(float(hole.x), hole.y)]:  # type: ignore[arg-type]
            assert_rejected(state, bad, bw.MalformedActionError)


def test_am_deploy_object_with_an_unknown_figure_is_malformed() -> None:
    """A Deploy built in code naming no figure of the game is malformed, exactly like its JSON
    form, also on a free feature of the tile just placed."""
    for point in _am_positions_in("deploy", count=6):
        state = am_state(*point)
        last = state.view(None)["last_placed"]
        legal = next(a for a in state.legal_actions() if isinstance(a, Deploy)) \
            if len(state.legal_actions()) > 1 else Deploy(last["x"], last["y"], "N")
        for figure in ["abbot", "Follower", "meeple", ""]:
            bad = Deploy(legal.x, legal.y, legal.location, figure)
            assert_rejected(state, bad.to_json(), bw.MalformedActionError)
            assert_rejected(state, bad, bw.MalformedActionError)


def test_am_any_action_on_a_finished_game_is_game_over() -> None:
    state = state_at(am_config(3), 10**6)
    assert state.is_terminal
    for action in (Draw(), PlaceAbbey(0, 1), Deploy(0, 0, "NW", "barn"), Pass(),
                   Deploy(0, 0, "N", "mayor"), {"type": "draw"}, {"type": "abbey", "x": 0, "y": 1},
                   {"type": "deploy", "x": 0, "y": 0, "location": "N", "figure": "wagon"}):
        error = assert_rejected(state, action, bw.GameOverError)
        assert "over" in str(error)
