"""The Carcassonne heuristic (greedy agent, MCTS leaves): what it credits, and that its fast
path for uncontested features agrees with full majority scoring."""

from __future__ import annotations

import random

import boardwright as bw
from boardwright.games.carcassonne.capabilities.barn import barn_field_part
from boardwright.games.carcassonne.heuristic import (
    COMPLETION_CREDIT,
    FOLLOWER_IN_HAND,
    potential_scores,
)
from boardwright.games.carcassonne.scenario import build
from boardwright.games.carcassonne.scoring import feature_value, majority
from boardwright.games.carcassonne.tiles import CITY, FIELD


def reference_scores(state) -> list[float]:
    """The heuristic spelled out: majority over every occupied feature, no shortcuts."""
    values = [float(s) for s in state.scores]
    graph = state.graph
    groups: dict[int, list[int]] = {}
    for part in state.occupant:
        groups.setdefault(graph.find(part), []).append(part)
    for root, parts in groups.items():
        if graph.kind[root] == FIELD:
            points = 3 * len(graph.completed_cities(root))
        else:
            points = feature_value(graph, root, False, state.game.small_city_scoring)
            if graph.kind[root] == CITY:
                points += COMPLETION_CREDIT * points
        owners = [state.occupant[p][0] for p in parts]
        for seat in majority(owners, state.strengths(root, tuple(parts))):
            values[seat] += points
    for point, seat in state.barn_owner.items():
        values[seat] += 4 * len(graph.completed_cities(graph.find(barn_field_part(graph, point))))
    for seat, supply in enumerate(state.supply):
        values[seat] += FOLLOWER_IN_HAND * supply.get("follower", 0)
    return values


def test_heuristic_agrees_with_full_majority_scoring_in_random_games() -> None:
    rng = random.Random(4)
    game = bw.load("carcassonne", 3, {"expansions": ["abbey_mayor"]})
    checked = 0
    for seed in range(12):
        state = game.new_game(seed)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            assert potential_scores(state) == reference_scores(state)
            checked += 1
    assert checked > 1000


def test_an_open_city_is_credited_half_its_completion_bonus() -> None:
    # A city cap on D's north side: one tile, no pennant; a follower of Red in it.
    state = build("D@(0,0)/0", followers=[(0, 0, 0, "N")], pile=["E", "E"], players=2)
    values = potential_scores(state)
    assert values[0] - values[1] == 1 * (1 + COMPLETION_CREDIT) - FOLLOWER_IN_HAND
