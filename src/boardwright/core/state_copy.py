"""The default `State.clone`: a deep copy, fast for the data states are made of.

Bots clone a position for every move they consider, so `copy.deepcopy` (general, and slow)
would dominate a search on a game that relies on the default. This copier walks the plain
containers states hold (lists, dicts, sets, tuples) itself, shares what cannot change
(numbers, text, None, frozen dataclasses such as actions, the game), copies a random generator
by its state, and leaves anything else to `copy.deepcopy`.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

_ATOMS = frozenset((int, float, str, bool, bytes, type(None), complex, range))


def _frozen(value: Any) -> bool:
    params = getattr(type(value), "__dataclass_params__", None)
    return params is not None and params.frozen and dataclasses.is_dataclass(value)


def copy_value(value: Any, memo: dict[int, Any]) -> Any:
    """A copy of `value` that shares nothing mutable with it (what `memo` maps is shared)."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    known = memo.get(id(value))
    if known is not None:
        return known
    if kind is list:  # the common case of numbers and text inline: no call per item
        return [v if type(v) in _ATOMS else copy_value(v, memo) for v in value]
    if kind is dict:
        return {k: v if type(v) in _ATOMS else copy_value(v, memo) for k, v in value.items()}
    if kind is tuple:
        items = tuple(copy_value(v, memo) for v in value)
        return value if all(a is b for a, b in zip(items, value)) else items
    if kind is set:
        return {copy_value(v, memo) for v in value}
    if kind is frozenset or _frozen(value):
        return value
    if kind is random.Random:
        other = random.Random()
        other.setstate(value.getstate())
        return other
    return copy.deepcopy(value, memo)


def clone_state(state: Any) -> Any:
    """A copy of a state (an object with a `__dict__`) sharing its game."""
    memo: dict[int, Any] = {id(state.game): state.game}
    other = object.__new__(type(state))
    other.__dict__.update({k: copy_value(v, memo) for k, v in state.__dict__.items()})
    return other
