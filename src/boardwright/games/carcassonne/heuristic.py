"""A fast evaluation of a Carcassonne position, for the greedy agent and MCTS leaves.

The value of a seat is its score plus what its figures on the board should still bring:

- an open city is credited between its end-of-game value and its completed (double) value,
  by the odds that it gets completed. Each open spot of the city needs one of the tiles left
  in the pile that fit there *and* end the city on that side (a tile that extends it does
  not count); with a share of the owner's remaining turns spread over the open spots, a spot
  gets such a tile with probability 1 - (1 - closing/left)^draws, and the city completes
  when all of its spots do. A spot no remaining tile can close (a dead hole) leaves a city
  its end-of-game value only, which a player must see before making one;
- a figure on an open road or city comes back when the feature completes, so it is credited
  those odds times the value of a follower in hand;
- roads and monasteries are credited what they would score now; farmers 3 per completed
  city of their field and 3 times the odds of each open one, barns 4 per completed city
  (once per owner and field);
- a follower in hand is worth a point and a half while turns remain to use it, less as the
  game runs out (nothing on the last turns).

The weights were tuned by greedy self-play (see `benchmarks/heuristic_tuning.py`). Counting
every fitting tile as closing, greedy lost nearly every game to the plain end-of-game count;
with closing tiles only, the odds work best when just a tenth of the owner's turns count as
draws for a feature, i.e. when they are pessimistic. Crediting monasteries with expected
neighbours made greedy weaker. Nothing is mutated; the pile is read as a multiset, which
every player knows.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from boardwright.games.carcassonne.capabilities.barn import barn_payees
from boardwright.games.carcassonne.features import SIDE_OFFSET
from boardwright.games.carcassonne.scoring import feature_value, majority
from boardwright.games.carcassonne.tiles import CITY, FIELD, TileType

if TYPE_CHECKING:
    from boardwright.games.carcassonne.game import CarcassonneGame
    from boardwright.games.carcassonne.state import CarcassonneState

FOLLOWER_IN_HAND = 1.5  # points a follower in supply is worth while turns remain to use it
HAND_HORIZON = 6.0  # own turns left below which a follower in hand loses value linearly
DRAW_SHARE = 0.1  # share of the owner's remaining turns that counts as draws for one feature
OPEN_CITY_FARM = 1.0  # share of an open city's 3 farm points credited, times the city's odds

# Per tile set (keyed by its tile types' identities: they are loaded once per process and
# never freed), for each side pattern and side mask, the tile names that can close it.
_CLOSERS: dict[tuple[int, ...], dict[int, tuple[str, ...]]] = {}


def closes(tile: TileType, pattern: int, mask: int) -> bool:
    """Whether some rotation of `tile` that fits a spot with side `pattern` ends, on every
    side in `mask`, the road or city there within the tile (it touches no other side)."""
    sides = [s for s in range(4) if mask >> s & 1]
    return any(
        all(variant.side_feature[s] >= 0
            and all(mask >> t & 1 for t in variant.features[variant.side_feature[s]].sides)
            for s in sides)
        for variant in (tile.variants[q] for q in tile.fits[pattern])
    )


class PileOdds:
    """What the odds of one layout and one pile share: the pile's counts, the closing-tile
    counts per spot pattern, and per feature root its odds and credited points. Kept in the
    layout's memo (`FeatureGraph.memo`), so every position with the same tiles laid and the
    same tiles left (the figure choices after a placement, the replies over the determinized
    piles) computes each of them once."""

    __slots__ = ("left", "turns", "counts", "types", "closers", "closing_counts", "odds",
                 "credits")

    def __init__(self, pile: list[str], game: CarcassonneGame) -> None:
        self.left = len(pile)
        self.turns = self.left / game.num_players
        self.counts = Counter(pile)
        self.types = types = game.tile_types
        self.closers = _CLOSERS.setdefault(tuple(map(id, types.values())), {})
        self.closing_counts: dict[int, int] = {}
        self.odds: dict[int, float] = {}
        self.credits: dict[int, tuple[float, float]] = {}


class CompletionOdds:
    """Completion odds of the open roads and cities of one position, cached per feature (and
    shared with every position of the same layout and pile, see `PileOdds`)."""

    __slots__ = ("graph", "pile")

    def __init__(self, state: CarcassonneState) -> None:
        self.graph = graph = state.graph
        pile = state.pile
        # The tuning script changes the constants at run time: they are part of the key.
        key = (DRAW_SHARE, OPEN_CITY_FARM, tuple(sorted(pile)))
        shared = graph.memo.get(key)
        if shared is None:
            shared = graph.memo[key] = PileOdds(pile, state.game)
        self.pile = shared

    @property
    def turns(self) -> float:
        """Turns left per player (the pile shared out)."""
        return self.pile.turns

    @property
    def credits(self) -> dict[int, tuple[float, float]]:
        """Feature root -> (points for its majority, completion odds), as computed so far."""
        return self.pile.credits

    def closing(self, pattern: int, mask: int) -> int:
        """How many tiles left can be laid on a spot with side `pattern` so that they end
        the feature facing the sides in `mask`."""
        key = pattern << 4 | mask
        pile = self.pile
        count = pile.closing_counts.get(key)
        if count is None:
            names = pile.closers.get(key)
            if names is None:
                names = tuple(name for name, tile in pile.types.items()
                              if closes(tile, pattern, mask))
                pile.closers[key] = names
            counts = pile.counts
            count = sum(counts[name] for name in names)
            pile.closing_counts[key] = count
        return count

    def open_spots(self, root: int) -> dict[int, int]:
        """Free positions next to an open road or city -> the sides of each facing it."""
        graph = self.graph
        board = graph.board
        frontier = graph.frontier
        find = graph.find
        spots: dict[int, int] = {}
        for pos in graph.tiles[root] or ():
            variant, base = board[pos]
            side_feature = variant.side_feature
            for side in range(4):
                local = side_feature[side]
                if local >= 0:
                    spot = pos + SIDE_OFFSET[side]
                    if spot in frontier and find(base + local) == root:
                        spots[spot] = spots.get(spot, 0) | 1 << ((side + 2) & 3)
        return spots

    def of(self, root: int) -> float:
        """Odds that the open road or city rooted at `root` is completed before the end."""
        cache = self.pile.odds
        cached = cache.get(root)
        if cached is not None:
            return cached
        spots = self.open_spots(root)
        left = self.pile.left
        odds = 1.0 if spots and left else 0.0
        if odds:
            frontier = self.graph.frontier
            draws = DRAW_SHARE * self.pile.turns / len(spots)
            for spot, mask in spots.items():
                closing = self.closing(frontier[spot], mask)
                if closing == 0:
                    odds = 0.0
                    break
                odds *= 1.0 - (1.0 - closing / left) ** draws
        cache[root] = odds
        return odds


def follower_value(odds: CompletionOdds) -> float:
    """What a follower in hand is worth with the turns left."""
    return FOLLOWER_IN_HAND * min(1.0, odds.turns / HAND_HORIZON)


def feature_credit(state: CarcassonneState, odds: CompletionOdds, root: int,
                   hand: float) -> tuple[float, float]:
    """(points the feature's majority should get, each figure's expected return)."""
    credit = odds.credits.get(root)
    if credit is None:
        credit = odds.credits[root] = _layout_credit(state, odds, root)
    points, done = credit
    return points, done * hand


def _layout_credit(state: CarcassonneState, odds: CompletionOdds,
                   root: int) -> tuple[float, float]:
    """(points the feature's majority should get, its completion odds; 0 where figures do not
    come back by completion): what the layout and the pile alone decide."""
    graph = state.graph
    kind = graph.kind[root]
    if kind == FIELD:
        cities = {graph.find(c) for c in graph.cities[root] or ()}
        done_cities = [c for c in cities if not graph.open[c]]
        points = 3.0 * len(done_cities)
        open_cities = cities.difference(done_cities)
        points += OPEN_CITY_FARM * 3.0 * sum(odds.of(c) for c in open_cities)
        return points, 0.0
    small_city = state.game.small_city_scoring
    points = float(feature_value(graph, root, False, small_city))
    if not graph.open[root] or graph.tiles[root] is None:  # complete, or a monastery
        return points, 0.0
    done = odds.of(root)
    if kind == CITY:
        points += done * (feature_value(graph, root, True, small_city) - points)
    return points, done


def potential_scores(state: CarcassonneState) -> list[float]:
    """Each seat's score plus what its figures on the board should still bring."""
    values = [float(s) for s in state._scores]
    graph = state.graph
    find = graph.find
    occupant = state.occupant
    rules = state.game.figure_rule
    odds = CompletionOdds(state)
    hand = follower_value(odds)
    groups: dict[int, list[int]] = {}
    for part in occupant:
        groups.setdefault(find(part), []).append(part)
    for root, parts in groups.items():
        points, back = feature_credit(state, odds, root, hand)
        if len(parts) == 1:  # the common case: one figure, no contest
            seat, figure = occupant[parts[0]]
            if rules[figure].constant_strength or rules[figure].strength(graph, root) > 0:
                values[seat] += points
            values[seat] += back
            continue
        owners = [occupant[p][0] for p in parts]
        for seat in majority(owners, state.strengths(root, tuple(parts))):
            values[seat] += points
        for seat in owners:
            values[seat] += back
    for seat, root in barn_payees(graph, state.barn_owner):
        values[seat] += 4 * len(graph.completed_cities(root))
    for seat, supply in enumerate(state.supply):
        values[seat] += hand * supply.get("follower", 0)
    return values
