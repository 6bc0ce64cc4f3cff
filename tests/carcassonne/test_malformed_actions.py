"""Bad actions never change a state: malformed ones raise MalformedActionError, well-formed but
illegal ones IllegalActionError, and anything applied to a finished game GameOverError.

Hypothesis generates the malformed JSON (one defect added to a valid action, or random objects
that an independent grammar of the action format rejects) and the illegal actions (random
Place/Deploy/Pass at random points of random games, kept only if no legal action is equivalent).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

pytest.register_assert_rewrite("randomgames")  # detailed failures from the shared checks

from randomgames import config, state_at, tiles_by_xy  # noqa: E402

import boardwright as bw  # noqa: E402
from boardwright.games.carcassonne import Deploy, Pass, Place  # noqa: E402
from boardwright.games.carcassonne.scenario import build  # noqa: E402
from boardwright.games.carcassonne.state import CarcassonneState  # noqa: E402

# The action format (docs/rules/carcassonne.md and ARCHITECTURE.md), restated independently.
ROTATIONS = (0, 90, 180, 270)
MAX_COORD = 511
PART_NAMES = frozenset(("N", "E", "S", "W", "NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR",
                        "IN1", "IN2"))
FIGURE = "follower"
PLACE_KEYS = frozenset(("type", "x", "y", "rotation"))
DEPLOY_KEYS = frozenset(("type", "x", "y", "location", "figure"))
SETTINGS = settings(max_examples=400, deadline=None,
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


def is_well_formed(data: Any) -> bool:
    """Whether `data` is a syntactically valid action (legal or not)."""
    if not isinstance(data, dict):
        return False
    kind = data.get("type")
    coords_ok = all(is_int(data.get(k)) and abs(data[k]) <= MAX_COORD for k in ("x", "y"))
    if kind == "pass":
        return set(data) == {"type"}
    if kind == "place":
        return set(data) == PLACE_KEYS and coords_ok and data["rotation"] in ROTATIONS \
            and is_int(data["rotation"])
    if kind == "deploy":
        return ((PLACE_KEYS - {"rotation"}) | {"location"} <= set(data) <= DEPLOY_KEYS
                and coords_ok and is_location(data["location"])
                and data.get("figure", FIGURE) == FIGURE)
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
            data["type"] = draw(json_values.filter(lambda v: v not in ("place", "deploy", "pass")))
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
                                                    "monastery", "NW", "IN3", "E W"]))
                                .filter(lambda v: not is_location(v)))
    elif defect == "figure":
        data["figure"] = draw(json_values.filter(lambda v: v != FIGURE)
                              | st.sampled_from(["Follower", "meeple", "abbot", "mayor"]))
    return data


non_dicts = (json_values.filter(lambda v: not isinstance(v, dict))
             | st.tuples(st.just("place"), small_coords, small_coords)
             | st.builds(object))
fuzzed = st.fixed_dictionaries(
    {"type": st.sampled_from(["place", "deploy", "pass"]) | json_values},
    optional={"x": small_coords | json_values, "y": small_coords | json_values,
              "rotation": st.sampled_from(ROTATIONS) | json_values,
              "location": valid_locations | json_values,
              "figure": st.just(FIGURE) | json_values, "extra": json_values},
).filter(lambda d: not is_well_formed(d))
malformed_actions = with_defect() | non_dicts | fuzzed


# -- states ----------------------------------------------------------------------------------

# (game index, random actions played): fresh game, deploy phase, mid-game both phases, late game.
PROBE_POINTS = [(0, 0), (1, 1), (2, 40), (3, 41), (4, 120), (11, 97)]


@lru_cache(maxsize=None)
def _probe_state(index: int, steps: int) -> CarcassonneState:
    return state_at(config(index), steps)


def probe_state(point: tuple[int, int]) -> CarcassonneState:
    """A fresh copy of a cached position (tests mutate nothing, but a failure might)."""
    state = _probe_state(*point).clone()
    assert not state.is_terminal
    return state


@lru_cache(maxsize=None)
def finished_state(index: int) -> CarcassonneState:
    state = state_at(config(index), 10**6)
    assert state.is_terminal
    return state


def assert_rejected(state: CarcassonneState, action: Any,
                    error: type[bw.BoardwrightError]) -> bw.BoardwrightError:
    before = state.signature()
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

def _equivalent_placement(state: CarcassonneState, action: Place) -> bool:
    """Whether a legal placement shows the same tile at the same spot (equal rotations)."""
    variants = state.game.tile_types[state.tile].variants  # type: ignore[index]
    key = lambda q: sorted((f.kind, f.location, f.pennants)  # noqa: E731
                           for f in variants[q].features)
    return any(isinstance(legal, Place) and (legal.x, legal.y) == (action.x, action.y)
               and key(legal.rotation // 90) == key(action.rotation // 90)
               for legal in state.legal_actions())


def is_legal(state: CarcassonneState, action: Any) -> bool:
    if isinstance(action, Place):
        return _equivalent_placement(state, action)
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


def test_equivalent_rotations_count_as_legal() -> None:
    """Guards the oracle above: every offered action is legal, and so is an equivalent rotation
    that is not offered (it is accepted and recorded in its offered form)."""
    state = _b_south_of_d()
    for point in PROBE_POINTS:
        probe = probe_state(point)
        assert all(is_legal(probe, action) for action in probe.legal_actions())
    assert Place(0, 1, 90) not in state.legal_actions() and is_legal(state, Place(0, 1, 90))
    state.apply(Place(0, 1, 90))
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
