"""`json_copy`'s shortcut for flat objects (an action, a record's action) gives exactly what
its general path gives: the same copy, or the same refusal."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardwright.core import inputs
from boardwright.core.errors import MalformedActionError
from boardwright.core.inputs import ACTION_LIMITS, MAX_INT, JsonLimits, json_copy

SMALL = JsonLimits(depth=6, string=8, values=5)  # limits small enough to be met

keys = st.one_of(st.text(max_size=10), st.integers(-3, 3), st.booleans(), st.none())
scalars = st.one_of(
    st.none(), st.booleans(), st.floats(allow_nan=False), st.text(max_size=12),
    st.integers(-3, 3), st.sampled_from([MAX_INT - 1, MAX_INT, -MAX_INT, 2**70]),
    st.just("\ud800"), st.just("é"), st.tuples(st.integers()), st.lists(st.integers(), max_size=2),
    st.builds(object))


def outcome(value: Any, limits: JsonLimits) -> tuple[str, Any]:
    try:
        copy = json_copy(value, limits, "action", MalformedActionError)
    except MalformedActionError as exc:
        return "refused", str(exc)
    return "copied", [(k, type(v), v) for k, v in copy.items()]


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(keys, scalars, max_size=7), st.sampled_from([ACTION_LIMITS, SMALL]))
def test_the_flat_shortcut_copies_and_refuses_as_the_general_path(value, limits) -> None:
    fast = outcome(value, limits)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(inputs, "_flat_copy", lambda item, limits: None)
        general = outcome(value, limits)
    assert fast == general


def test_the_copy_is_a_new_object() -> None:
    action = {"type": "place", "x": 1}
    copy = json_copy(action, ACTION_LIMITS, "action", MalformedActionError)
    assert copy == action and copy is not action
