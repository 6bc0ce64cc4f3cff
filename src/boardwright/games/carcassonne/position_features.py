"""What each seat holds in a Carcassonne position, as a vector of numbers.

The learned evaluation (`evaluation.py`) weighs these; `benchmarks/fit_evaluation.py` fits the
weights. The features are the terms of the greedy heuristic (`heuristic.py`) kept apart, so a
fit can weigh each by how much it is really worth at each stage of the game, plus what the
heuristic leaves out: the figures of the expansion still in hand, how many squares a monastery
still lacks, how many figures sit on cities that can no longer be completed.

A feature on the board is credited to the seats that hold its majority (as in scoring), and
the figures' return odds to every seat with a figure on it. Nothing is mutated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardwright.games.carcassonne.capabilities.barn import barn_payees
from boardwright.games.carcassonne.heuristic import CompletionOdds
from boardwright.games.carcassonne.scoring import feature_value, majority
from boardwright.games.carcassonne.tiles import CITY, FIELD

if TYPE_CHECKING:
    from boardwright.games.carcassonne.state import CarcassonneState

FEATURES: tuple[str, ...] = (
    "score",            # points scored so far
    "city",             # open and completed-pending cities: end value + odds x completion bonus
    "city_returns",     # sum over own figures on open cities of their completion odds
    "road",             # open roads: current value
    "road_returns",     # sum over own figures on open roads of their completion odds
    "monastery",        # own monasteries: current value
    "monastery_open",   # own monasteries: empty squares around them
    "farm_done",        # farmers: 3 per completed city of the field
    "farm_odds",        # farmers: 3 x completion odds of each open city of the field
    "farm_open",        # farmers: 3 per open city of the field, whatever its odds
    "barn",             # barns: 4 per completed city of the field
    "followers",        # followers in hand
    "mayor",            # mayors in hand
    "wagon",            # wagons in hand
    "barn_pieces",      # barns in hand
    "abbeys",           # abbey tiles in hand
    "dead_figures",     # own figures on open roads or cities no remaining tile can complete
    "farmers",          # own figures in fields
)
INDEX = {name: i for i, name in enumerate(FEATURES)}
HAND = (("follower", INDEX["followers"]), ("mayor", INDEX["mayor"]),
        ("wagon", INDEX["wagon"]), ("barn", INDEX["barn_pieces"]),
        ("abbey", INDEX["abbeys"]))
_CITY, _CITY_RETURNS = INDEX["city"], INDEX["city_returns"]
_ROAD, _ROAD_RETURNS = INDEX["road"], INDEX["road_returns"]
_MONASTERY, _MONASTERY_OPEN = INDEX["monastery"], INDEX["monastery_open"]
_FARM_DONE, _FARM_ODDS, _FARM_OPEN = INDEX["farm_done"], INDEX["farm_odds"], INDEX["farm_open"]
_DEAD, _FARMERS, _BARN = INDEX["dead_figures"], INDEX["farmers"], INDEX["barn"]
MAJORITY_TERMS = (_CITY, _ROAD, _MONASTERY, _MONASTERY_OPEN, _FARM_DONE, _FARM_ODDS, _FARM_OPEN)


def _feature_terms(state: CarcassonneState, odds: CompletionOdds,
                   root: int) -> tuple[dict[int, float], int, float]:
    """(majority terms of one occupied feature, its returns index or -1, completion odds)."""
    graph = state.graph
    kind = graph.kind[root]
    if kind == FIELD:
        cities = {graph.find(c) for c in graph.cities[root] or ()}
        done = sum(1 for c in cities if not graph.open[c])
        open_cities = [c for c in cities if graph.open[c]]
        return ({_FARM_DONE: 3.0 * done,
                 _FARM_ODDS: 3.0 * sum(odds.of(c) for c in open_cities),
                 _FARM_OPEN: 3.0 * len(open_cities)}, -1, 0.0)
    small_city = state.game.small_city_scoring
    points = float(feature_value(graph, root, False, small_city))
    if graph.tiles[root] is None:  # a monastery: its open count is its empty squares
        return {_MONASTERY: points, _MONASTERY_OPEN: float(graph.open[root])}, -1, 0.0
    if not graph.open[root]:
        return {_CITY if kind == CITY else _ROAD: points}, -1, 0.0
    done = odds.of(root)
    if kind == CITY:
        points += done * (feature_value(graph, root, True, small_city) - points)
        return {_CITY: points}, _CITY_RETURNS, done
    return {_ROAD: points}, _ROAD_RETURNS, done


def seat_features(state: CarcassonneState) -> list[list[float]]:
    """One vector per seat, in the order of `FEATURES`."""
    compiled = getattr(state, "seat_features", None)
    if compiled is not None:  # a native state computes them in compiled code
        return compiled()
    vectors = [[0.0] * len(FEATURES) for _ in range(state.game.num_players)]
    for seat, score in enumerate(state._scores):
        vectors[seat][0] = float(score)
    graph = state.graph
    find = graph.find
    occupant = state.occupant
    rules = state.game.figure_rule
    odds = CompletionOdds(state)
    groups: dict[int, list[int]] = {}
    for part in occupant:
        groups.setdefault(find(part), []).append(part)
    for root, parts in groups.items():
        terms, returns, done = _feature_terms(state, odds, root)
        owners = [occupant[p][0] for p in parts]
        if len(parts) == 1:
            figure = occupant[parts[0]][1]
            strong = rules[figure].constant_strength or rules[figure].strength(graph, root) > 0
            winners = owners if strong else []
        else:
            winners = majority(owners, state.strengths(root, tuple(parts)))
        for seat in set(winners):
            vector = vectors[seat]
            for index, value in terms.items():
                vector[index] += value
        for seat in owners:
            vector = vectors[seat]
            if returns >= 0:
                vector[returns] += done
                if done == 0.0:
                    vector[_DEAD] += 1.0
            elif graph.kind[root] == FIELD:
                vector[_FARMERS] += 1.0
    for seat, root in barn_payees(graph, state.barn_owner):
        vectors[seat][_BARN] += 4.0 * len(graph.completed_cities(root))
    for seat, supply in enumerate(state.supply):
        vector = vectors[seat]
        for piece, index in HAND:
            vector[index] = float(supply.get(piece, 0))
    return vectors
