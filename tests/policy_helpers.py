"""Policy files for tests: a Carcassonne linear policy with weights set by hand (it beats
`random` without any training), and a Queens linear policy in the first format of
examples/learn_queens.py (no "format" in its meta)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

import boardwright as bw
from boardwright.rl.policies import carcassonne_linear, queens_linear, save_policy

# Close one's own cities and roads, put figures on cities, roads and monasteries rather than
# fields, keep away from the other seat's features.
CARCASSONNE_WEIGHTS = {
    "city_mine": 1.0, "road_mine": 0.5, "closes_city_mine": 3.0, "closes_road_mine": 2.0,
    "extends_city_mine": 1.0, "extends_road_mine": 0.5, "closes_city_theirs": -1.0,
    "extends_city_theirs": -1.0, "city_theirs": -0.5, "new_city": 0.5, "neighbours": 1.0,
    "monastery_neighbours": 1.0, "my_monasteries": 0.5, "deploy_city": 1.0, "deploy_road": 0.5,
    "deploy_monastery": 1.5, "deploy_field": -2.0, "deploy_city_complete": 2.0,
    "deploy_road_complete": 1.5, "deploy_monastery_neighbours": 2.0,
    "deploy_field_progress": 2.0, "deploy_city_open": -1.0,
}


def carcassonne_policy(path: Path, players: int = 2, options: dict[str, Any] | None = None,
                       weights: dict[str, float] | None = None) -> Path:
    model = carcassonne_linear.Model()
    for name, value in (CARCASSONNE_WEIGHTS if weights is None else weights).items():
        model.theta[carcassonne_linear.COLUMN[name]] = value
    save_policy(path, bw.load("carcassonne", players, options or {}), model,
                training_games=0, note="weights set by hand")
    return path


def queens_policy(path: Path, sow: float = 1.5) -> Path:
    """The first learn_queens.py format: theta, value, feature names and a training meta."""
    theta = np.zeros(len(queens_linear.ACTION_FEATURES))
    theta[queens_linear.ACTION_FEATURES.index("sow")] = sow
    theta[queens_linear.ACTION_FEATURES.index("takes_enemy_field")] = 1.0
    with open(path, "wb") as out:
        np.savez(out, theta=theta, value=np.zeros(len(queens_linear.STATE_FEATURES)),
                 action_features=np.array(queens_linear.ACTION_FEATURES),
                 state_features=np.array(queens_linear.STATE_FEATURES),
                 meta=json.dumps({"training_games": 48, "training_seconds": 1.5}))
    return path
