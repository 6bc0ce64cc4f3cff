"""Bad input never changes a state: malformed actions raise MalformedActionError, well-formed
but illegal ones IllegalActionError, a finished game GameOverError, bad options
InvalidOptionError; each message names the problem.

Hypothesis generates random JSON objects (checked against an independent grammar of the action
format) and random well-formed actions at random points of random games: an action must apply
exactly when the move generator lists it, and otherwise fail without changing anything.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from queens_helpers import custom, move, new_game, seat

import boardwright as bw
from boardwright.games.queens import Found, Joint, Move, Pass, Sow
from boardwright.games.queens.state import QueensState

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def unchanged_after(state: QueensState, action: Any, error: type[Exception], match: str) -> None:
    before = state.signature()
    with pytest.raises(error, match=match):
        state.apply(action)
    assert state.signature() == before


# -- malformed actions ---------------------------------------------------------------------------

@pytest.mark.parametrize("data, match", [
    ([], "must be a JSON object, not list"),
    ("move", "must be a JSON object, not str"),
    ({}, "unknown action type None"),
    ({"type": "attack"}, "unknown action type 'attack'"),
    ({"type": "move", "from": [0, 4]}, r"needs the field\(s\) \['to'\]"),
    ({"type": "move", "from": [0, 4], "to": [0, 2], "by": "queen"}, "unknown move field"),
    ({"type": "move", "from": [0, 4], "to": [0]}, "'to' must be a pair of integers"),
    ({"type": "move", "from": [0, 4], "to": [0, 2, 1]}, "'to' must be a pair"),
    ({"type": "move", "from": [0, True], "to": [0, 2]}, "'from' must be a pair"),
    ({"type": "move", "from": [0, 4.0], "to": [0, 2]}, "'from' must be a pair"),
    ({"type": "move", "from": "0,4", "to": [0, 2]}, "'from' must be a pair"),
    ({"type": "move", "from": [0, 4], "to": [3, 3]}, r"\(3, 3\) is not a space of the board"),
    ({"type": "joint", "from": [0, 4], "to": [0, 2]}, "'from' must list two spaces"),
    ({"type": "joint", "from": [[0, 4]], "to": [0, 2]}, "'from' must list two spaces"),
    ({"type": "joint", "from": [[0, 4], [0, "x"]], "to": [0, 2]}, "'from' must be a pair"),
    ({"type": "sow"}, r"needs the field\(s\) \['at'\]"),
    ({"type": "sow", "at": [-6, 0]}, "not a space of the board"),
    ({"type": "found", "at": [0, 4]}, "unknown found field"),
    ({"type": "pass", "x": 1}, "unknown pass field"),
])
def test_malformed_json_is_named_and_changes_nothing(data: Any, match: str) -> None:
    state = new_game()
    with pytest.raises(bw.MalformedActionError, match=match):
        state.game.action_from_json(data)
    # apply parses dicts; anything else is not an action at all
    unchanged_after(state, data, bw.MalformedActionError,
                    match if isinstance(data, dict) else "not a Queens action")


@pytest.mark.parametrize("action, match", [
    (Move((0, 4), (9, 9)), r"\(9, 9\) is not a space"),
    (Move("a", (0, 2)), "'a' is not a space"),  # type: ignore[arg-type]
    (Move((0, 4.0), (0, 2)), "is not a space"),  # type: ignore[arg-type]
    (Joint((0, 4), (1, 3), (7, 0)), "is not a space"),
    (Sow((True, 0)), "is not a space"),  # type: ignore[arg-type]
    ("found", "not a Queens action"),
    (object(), "not a Queens action"),
])
def test_malformed_action_objects_change_nothing(action: Any, match: str) -> None:
    unchanged_after(new_game(), action, bw.MalformedActionError, match)


# -- illegal actions ----------------------------------------------------------------------------

@pytest.mark.parametrize("action, match", [
    (Move((0, -4), (0, -3)), "Red has no Queen or Prince on b7"),
    (Move((2, 2), (2, 1)), "Red has no Queen or Prince on h17"),
    (Move((0, 4), (0, 0)), "4 steps away and its movement value is 2"),
    (Move((1, 4), (1, 3)), "i16 already holds a piece of Red"),
    (Joint((1, 3), (-1, 4), (0, 2)), "must be an attack"),
    (Joint((0, 4), (1, 3), (0, -4)), "no Prince on j15"),
    (Sow((0, 2)), "cannot sow on h13"),
    (Sow((0, 4)), "cannot sow on j15"),
    (Found(), "already holds a building"),
    (Pass(), "only when no other action"),
])
def test_illegal_actions_are_explained_and_change_nothing(action: Any, match: str) -> None:
    state = new_game()
    assert action not in state.legal_actions()
    unchanged_after(state, action, bw.IllegalActionError, match)
    unchanged_after(state, action.to_json(), bw.IllegalActionError, match)


def test_a_finished_game_accepts_nothing() -> None:
    state = custom(seat((0, -3), princes=[(1, -4), (-1, -3)]), seat((0, -4)))
    state.apply(Joint((-1, -3), (1, -4), (0, -4)))
    assert state.is_terminal
    unchanged_after(state, Move((0, -3), (0, -2)), bw.GameOverError, "game is over")
    unchanged_after(state, Pass(), bw.GameOverError, "game is over")


# -- options -------------------------------------------------------------------------------------

@pytest.mark.parametrize("options, match", [
    ({"colour": "red"}, "unknown Queens option.*'colour'.*known: map, position"),
    ({"expansions": ["abbey_mayor"]}, "unknown Queens option"),
    ({"map": ["default"]}, "option 'map' must be a map name"),
    ({"position": []}, "option 'position': must be an object"),
    ({"position": {"seats": [{}]}}, "one entry per player"),
    ({"position": {"seats": [{}, {}], "turn": 3}}, "unknown key.*'turn'"),
    ({"position": {"seats": [{}, {"wizard": [0, 0]}]}}, "seat 1 has unknown key.*'wizard'"),
    ({"position": {"seats": [{}, {}], "to_play": 2}}, "'to_play' must be a seat from 0 to 1"),
    ({"position": {"seats": [{}, {}], "round": 51}}, "'round' must be a whole number from 1 to 50"),
    ({"position": {"seats": [{}, {}], "final_round": "yes"}}, "'final_round' must be true"),
    ({"position": {"seats": [{"queen": [0, 9]}, {}]}}, r"seat 0 queen \[0, 9\] is off the board"),
    ({"position": {"seats": [{"queen": None}, {}]}}, "seat 0 has no Queen"),
    ({"position": {"seats": [{}, {"eliminated": True}]}}, "nobody is eliminated"),
    ({"position": {"seats": [{"princes": [[1, 1]] * 5}, {}]}}, "5 Princes"),
    ({"position": {"seats": [{"field_supply": 11}, {}]}}, "field_supply must be a whole number"),
    ({"position": {"seats": [{"city_supply": -1}, {}]}}, "city_supply must be a whole number"),
    ({"position": {"seats": [{"fields": [[0, 0]]}, {}]}}, "on a mountain"),
    ({"position": {"seats": [{"princes": [[0, -4]]}, {}]}}, "two mobile pieces"),
    ({"position": {"seats": [{"princes": [[1, -3]]}, {"cities": [[1, -3]]}]}}, "enemy City"),
    ({"position": {"seats": [{"princes": [[0, 3], [0, 3]], "cities": [[0, 3]]}, {}]}},
     "stacked in a City"),
    ({"position": {"seats": [{}, {}, {"eliminated": True, "queen": None}]}}, "one entry per"),
])
def test_bad_options_are_named(options: dict, match: str) -> None:
    with pytest.raises(bw.InvalidOptionError, match=match):
        bw.load("queens", 2, options)


def test_eliminated_three_player_positions_are_checked() -> None:
    with pytest.raises(bw.InvalidOptionError, match="at least two players"):
        bw.load("queens", 3, {"position": {"seats": [
            {}, {"eliminated": True}, {"eliminated": True}]}})
    with pytest.raises(bw.InvalidOptionError, match="to_play must be a seat still in the game"):
        bw.load("queens", 3, {"position": {"seats": [{}, {"eliminated": True}, {}],
                                           "to_play": 1}})
    with pytest.raises(bw.InvalidOptionError, match="has no Queen, Princes or Cities"):
        bw.load("queens", 3, {"position": {"seats": [
            {}, {"eliminated": True, "princes": [[-4, 1]]}, {}]}})


# -- random malformed and illegal input --------------------------------------------------------

COORD_VALUES = st.one_of(st.integers(-7, 7), st.booleans(), st.floats(allow_nan=False),
                         st.text(max_size=2), st.none())
JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-7, 7), st.text(max_size=5)),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=8)
ACTION_LIKE = st.fixed_dictionaries(
    {"type": st.sampled_from(["move", "joint", "sow", "found", "pass", "MOVE", "x"])},
    optional={"from": st.one_of(JSONISH, st.lists(st.lists(COORD_VALUES, max_size=3), max_size=3),
                                st.lists(COORD_VALUES, max_size=3)),
              "to": st.one_of(JSONISH, st.lists(COORD_VALUES, max_size=3)),
              "at": st.one_of(JSONISH, st.lists(COORD_VALUES, max_size=3)),
              "extra": JSONISH})


def is_pair(value: Any) -> bool:
    return (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            and max(abs(value[0]), abs(value[1]), abs(value[0] + value[1])) <= 5)


def well_formed(data: Any) -> bool:
    """The action format of docs/rules/queens.md, restated independently of the parser."""
    if not isinstance(data, dict):
        return False
    kind = data.get("type")
    keys = set(data) - {"type"}
    if kind == "move":
        return keys == {"from", "to"} and is_pair(data["from"]) and is_pair(data["to"])
    if kind == "joint":
        starts = data.get("from")
        return (keys == {"from", "to"} and isinstance(starts, list) and len(starts) == 2
                and all(is_pair(s) for s in starts) and is_pair(data["to"]))
    if kind == "sow":
        return keys == {"at"} and is_pair(data["at"])
    return kind in ("found", "pass") and not keys


@lru_cache(maxsize=None)
def states_along_a_game(seed: int) -> tuple[QueensState, ...]:
    """Positions of one random 2-player game (every 7th), to test actions against."""
    state = new_game(seed=seed)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal:
        if state.turn % 7 == 0:
            out.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    return tuple(out)


@SETTINGS
@given(data=st.one_of(ACTION_LIKE, JSONISH), seed=st.integers(0, 3), index=st.integers(0, 20))
def test_random_json_is_parsed_exactly_when_well_formed(data: Any, seed: int, index: int) -> None:
    states = states_along_a_game(seed)
    state = states[index % len(states)].clone()
    before = state.signature()
    try:
        action = state.game.action_from_json(data)
    except bw.MalformedActionError:
        assert not well_formed(data)
        with pytest.raises(bw.MalformedActionError):
            state.apply(data)
        assert state.signature() == before
        return
    assert well_formed(data)
    assert action.to_json() == data or type(action) is Joint  # a JOINT may reorder its starts
    legal = state.legal_actions()
    if action in legal:
        state.apply(data)
        assert state.turn == len(state.history)
    else:
        with pytest.raises(bw.IllegalActionError):
            state.apply(data)
        assert state.signature() == before


SPACES = st.tuples(st.integers(-5, 5), st.integers(-5, 5)).filter(
    lambda c: max(abs(c[0]), abs(c[1]), abs(c[0] + c[1])) <= 5)
ACTIONS = st.one_of(
    st.builds(Move, SPACES, SPACES), st.builds(Joint, SPACES, SPACES, SPACES),
    st.builds(Sow, SPACES), st.just(Found()), st.just(Pass()))


@SETTINGS
@given(action=ACTIONS, seed=st.integers(0, 5), index=st.integers(0, 20))
def test_an_action_applies_exactly_when_it_is_listed(action: Any, seed: int, index: int) -> None:
    """The validation in `apply` and the move generator must agree on every action."""
    states = states_along_a_game(seed)
    state = states[index % len(states)].clone()
    before = state.signature()
    if action in state.legal_actions():
        state.apply(action)
        assert state.history[-1] == action
    else:
        with pytest.raises(bw.IllegalActionError):
            state.apply(action)
        assert state.signature() == before


def test_a_listed_attack_is_offered_near_enemies() -> None:
    """Sanity check for the generated positions above: attacks and joints do come up."""
    kinds = set()
    for seed in range(6):
        for state in states_along_a_game(seed):
            for action in state.legal_actions():
                if isinstance(action, Move) and state.occupant[
                        state.game.board.pos(action.dst)] not in (-1, state.current_player):
                    kinds.add("attack")
                kinds.add(type(action).__name__)
    assert {"attack", "Move", "Sow", "Found"} <= kinds
    assert move((0, 4), (0, 2)) in new_game().legal_actions()
