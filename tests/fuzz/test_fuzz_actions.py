"""Fuzzed actions against positions of random games, for every game: garbage JSON, mutations of
legal actions' JSON, foreign Python objects and junk action ids.

Whatever comes in, only a `BoardwrightError` may come out, and a refused input leaves the
position exactly as it was (its signature, its record, its public view, `==` a clone taken
before). An input that is accepted must have been a legal action.
"""

from __future__ import annotations

from typing import Any

import pytest
from carcassonne_engines import over_games
from sizes import sized
from fuzz_support import (
    FAMILIES, action_ids, assert_unchanged, foreign_objects, json_values, mutated, position,
    snapshot,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardwright as bw

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=sized(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
indexes = st.integers(0, 1_000)


def apply_or_refuse(state: Any, action: Any) -> bool:
    """Apply `action`; True if it was accepted (and legal), False if it was refused cleanly."""
    legal = [a.to_json() for a in state.legal_actions()] if not state.is_terminal else []
    twin = state.clone()
    before = snapshot(state)
    try:
        state.apply(action)
    except bw.BoardwrightError as exc:
        assert str(exc) and len(str(exc)) <= 1000
        assert_unchanged(state, before, twin)
        return False
    parsed = action if not isinstance(action, dict) else state.game.action_from_json(action)
    assert parsed.to_json() in legal, f"an illegal action was accepted: {parsed}"
    twin.apply(parsed)
    assert twin == state
    return True


def check_json_actions(family: str, index: int, data: st.DataObject, source: Any) -> None:
    state = position(family, index)
    action = data.draw(source)
    game = state.game
    try:
        parsed = game.action_from_json(action)
    except bw.BoardwrightError:
        parsed = None
    if parsed is not None:
        try:
            action_id = game.action_id(parsed)
        except bw.MalformedActionError:
            pass
        else:
            assert game.action_from_id(action_id) == parsed
    apply_or_refuse(state, action)


@over_games("family", FAMILIES)
@FUZZ
@given(index=indexes, data=st.data())
def test_garbage_json_actions(family: str, index: int, data: st.DataObject) -> None:
    check_json_actions(family, index, data, json_values)


@over_games("family", FAMILIES)
@FUZZ
@given(index=indexes, data=st.data())
def test_mutated_legal_actions(family: str, index: int, data: st.DataObject) -> None:
    state = position(family, index)
    legal = [a.to_json() for a in state.legal_actions()] or [{"type": "pass"}]
    original = data.draw(st.sampled_from(legal))
    check_json_actions(family, index, data, mutated(original))


@over_games("family", FAMILIES)
@FUZZ
@given(index=indexes, data=st.data())
def test_foreign_objects(family: str, index: int, data: st.DataObject) -> None:
    state = position(family, index)
    thing = data.draw(foreign_objects(state))
    game = state.game
    for call in (game.action_id, game.describe_action):
        try:
            call(thing)
        except bw.BoardwrightError:
            pass
        except Exception:  # noqa: BLE001 - describing junk may fail, as long as apply refuses it
            if call is game.action_id:
                raise
    try:
        game.action_from_json(thing)
    except bw.BoardwrightError:
        pass
    assert not apply_or_refuse(state, thing) or isinstance(thing, dict)


@over_games("family", FAMILIES)
@FUZZ
@given(index=indexes, data=st.data())
def test_action_ids(family: str, index: int, data: st.DataObject) -> None:
    state = position(family, index)
    game = state.game
    action_id = data.draw(action_ids(game.num_distinct_actions))
    try:
        action = game.action_from_id(action_id)
    except bw.MalformedActionError:
        return
    assert game.action_id(action) == action_id
    apply_or_refuse(state, action)


@pytest.mark.slow
@over_games("family", FAMILIES)
@SLOW
@given(index=indexes, data=st.data())
def test_many_mutated_and_foreign_actions(family: str, index: int, data: st.DataObject) -> None:
    state = position(family, index)
    legal = [a.to_json() for a in state.legal_actions()] or [{"type": "pass"}]
    choice = data.draw(st.integers(0, 2))
    if choice == 0:
        check_json_actions(family, index, data, mutated(data.draw(st.sampled_from(legal)), 5))
    elif choice == 1:
        check_json_actions(family, index, data, json_values)
    else:
        apply_or_refuse(state, data.draw(foreign_objects(state)))
