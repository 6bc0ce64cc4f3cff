"""What the linear architectures share: a policy over named action features (`theta`) and a
baseline over named state features (`value`), stored in a policy file with the names, so a
file made for other features is refused instead of misread."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def linear_weights(theta: np.ndarray, value: np.ndarray, action_features: Sequence[str],
                   state_features: Sequence[str]) -> dict[str, np.ndarray]:
    """The arrays a linear policy saves."""
    return {"theta": theta, "value": value, "action_features": np.array(action_features),
            "state_features": np.array(state_features)}


def read_linear(weights: dict[str, np.ndarray], action_features: Sequence[str],
                state_features: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Copies of `theta` and `value` from saved arrays, as float64; ValueError when their
    shapes are not those of these features (the names are each architecture's to check)."""
    theta = np.asarray(weights["theta"], np.float64)
    value = np.asarray(weights["value"], np.float64)
    if theta.shape != (len(action_features),) or value.shape != (len(state_features),):
        raise ValueError(f"theta has shape {theta.shape} and value {value.shape}; expected "
                         f"({len(action_features)},) and ({len(state_features)},)")
    return theta.copy(), value.copy()
