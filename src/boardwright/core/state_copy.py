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

# Types whose values are shared, never copied: the immutable built-ins, and each frozen
# dataclass (an action) once it has been seen.
_ATOMS: set[type] = {int, float, str, bool, bytes, type(None), complex, range, frozenset}


def _frozen(value: Any) -> bool:
    params = getattr(type(value), "__dataclass_params__", None)
    return params is not None and params.frozen and dataclasses.is_dataclass(value)


def copy_value(value: Any, memo: dict[int, Any]) -> Any:
    """A copy of `value` that shares nothing mutable with it (what `memo` maps is shared)."""
    kind = type(value)
    if kind is list:  # the common case of numbers and text inline: no call per item
        return [v if type(v) in _ATOMS else copy_value(v, memo) for v in value]
    if kind is dict:
        return {k: v if type(v) in _ATOMS else copy_value(v, memo) for k, v in value.items()}
    if kind in _ATOMS:
        return value
    known = memo.get(id(value))
    if known is not None:
        return known
    if kind is tuple:
        items = tuple(copy_value(v, memo) for v in value)
        return value if all(a is b for a, b in zip(items, value)) else items
    if kind is set:
        return {copy_value(v, memo) for v in value}
    if _frozen(value):
        _ATOMS.add(kind)  # from now on shared inline, without a call
        return value
    if kind is random.Random:
        other = random.Random()
        other.setstate(value.getstate())
        return other
    return copy.deepcopy(value, memo)


def clone_state(state: Any) -> Any:
    """A copy of a state (an object with a `__dict__`) sharing its game. The lists its class
    names in `append_only` (items added, never changed: a history, finished rounds) are
    copied shallowly."""
    memo: dict[int, Any] = {id(state.game): state.game}
    other = object.__new__(type(state))
    shallow = getattr(type(state), "append_only", ())
    other.__dict__.update({k: v if type(v) in _ATOMS else v.copy()
                           if k in shallow and type(v) is list else copy_value(v, memo)
                           for k, v in state.__dict__.items()})
    return other
