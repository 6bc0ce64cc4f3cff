"""Random Carcassonne games and the invariants every position of them must satisfy.

Shared by the property tests (`test_properties.py`) and the malformed/illegal action tests.
The checks recompute what they can from the board itself (side matching, features by a plain
graph search, follower counts) instead of trusting the engine's incremental bookkeeping, so a
bug in the union-find or in the open-side counters shows up as a disagreement.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterator

import boardwright as bw
from boardwright.core.game import rank_returns
from boardwright.games.carcassonne import Deploy, Pass, Place
from boardwright.games.carcassonne.actions import pack, unpack
from boardwright.games.carcassonne.state import CarcassonneState
from boardwright.games.carcassonne.tiles import CITY, FIELD, MONASTERY, ROAD, TileVariant

FOLLOWERS = 7
BASE_SET_SIZE = 72
SMALL_CITY_VALUES = ("standard", "first_edition")
# Start tiles other than the default D used by a few games (the set still has 72 tiles).
OTHER_START_TILES = ("A", "B", "C", "E", "F", "K", "L", "R", "U", "V", "W", "X")
# (dx, dy) of the neighbour through side N, E, S, W: x grows east, y grows south.
SIDE_STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))
AROUND = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))

Action = Place | Deploy | Pass


@dataclass(frozen=True)
class Config:
    """One random game: its configuration and the seed of both the pile and the random player."""

    index: int
    players: int
    farmers: bool
    small_city_scoring: str
    starting_seat: int
    start_tile: str

    @property
    def seed(self) -> int:
        return 1_000_003 * self.index + 17

    def options(self) -> dict[str, Any]:
        return {"farmers": self.farmers, "small_city_scoring": self.small_city_scoring,
                "starting_seat": self.starting_seat, "start_tile": self.start_tile}

    def game(self) -> bw.Game:
        return _load(self.players, self.farmers, self.small_city_scoring, self.starting_seat,
                     self.start_tile)

    def __str__(self) -> str:
        return (f"game #{self.index} (seed {self.seed}, {self.players} players, "
                f"options {self.options()})")


@lru_cache(maxsize=None)
def _load(players: int, farmers: bool, small: str, seat: int, start: str) -> bw.Game:
    """Games are immutable configuration; sharing them keeps thousands of games cheap."""
    return bw.load("carcassonne", players, {"farmers": farmers, "small_city_scoring": small,
                                            "starting_seat": seat, "start_tile": start})


def config(index: int) -> Config:
    """A deterministic configuration that cycles through every option combination.

    Player counts cycle fastest, then farmers, then small-city scoring, so any 20 consecutive
    indexes cover all 1-5 player / farmers / scoring combinations; the starting seat and, for one
    game in eight, the start tile vary with the index too.
    """
    players = 1 + index % 5
    farmers = (index // 5) % 2 == 0
    small = SMALL_CITY_VALUES[(index // 10) % 2]
    seat = (index // 20) % players
    start = OTHER_START_TILES[(index // 8) % len(OTHER_START_TILES)] if index % 8 == 7 else "D"
    return Config(index, players, farmers, small, seat, start)


def configs(start: int, count: int) -> list[Config]:
    return [config(i) for i in range(start, start + count)]


def new_state(cfg: Config) -> CarcassonneState:
    return cfg.game().new_game(cfg.seed)  # type: ignore[return-value]


def random_steps(state: CarcassonneState, rng: random.Random,
                 limit: int | None = None) -> Iterator[Action]:
    """Apply random legal actions in place (at most `limit`), yielding each one after it is applied."""
    done = 0
    while not state.is_terminal and (limit is None or done < limit):
        action = rng.choice(state.legal_actions())
        state.apply(action)
        done += 1
        yield action


def play(cfg: Config, on_step: Callable[[CarcassonneState, CarcassonneState, Action], None]
         | None = None) -> CarcassonneState:
    """Play one complete random game; `on_step(before, after, action)` runs after every action.

    `before` is a clone taken before the action, so callbacks can compare positions; cloning is
    skipped when there is no callback.
    """
    state = new_state(cfg)
    rng = random.Random(cfg.seed)
    while not state.is_terminal:
        action = rng.choice(state.legal_actions())
        before = state.clone() if on_step is not None else None
        state.apply(action)
        if on_step is not None:
            on_step(before, state, action)  # type: ignore[arg-type]
    return state


def state_at(cfg: Config, steps: int) -> CarcassonneState:
    """The position after `steps` random actions of game `cfg` (or its end, if sooner)."""
    state = new_state(cfg)
    for _ in random_steps(state, random.Random(cfg.seed), steps):
        pass
    return state


# -- independent recomputation of the board -------------------------------------------------

Node = tuple[tuple[int, int], int]  # ((x, y), local feature index)


def tiles_by_xy(state: CarcassonneState) -> dict[tuple[int, int], TileVariant]:
    return {unpack(pos): variant for pos, (variant, _) in state.graph.board.items()}


def _feature_on_side(variant: TileVariant, side: int) -> int:
    for feature in variant.features:
        if side in feature.sides:
            return feature.index
    return -1


def _field_on_half(variant: TileVariant, half: int) -> int:
    for feature in variant.features:
        if feature.kind == FIELD and half in feature.halves:
            return feature.index
    return -1


def _links(board: dict[tuple[int, int], TileVariant], node: Node) -> tuple[list[Node], int]:
    """Nodes joined to `node` across its tile's edges, and how many of its edges are open."""
    (x, y), local = node
    feature = board[(x, y)].features[local]
    linked: list[Node] = []
    open_edges = 0
    if feature.kind in (CITY, ROAD):
        for side in feature.sides:
            dx, dy = SIDE_STEP[side]
            neighbour = board.get((x + dx, y + dy))
            if neighbour is None:
                open_edges += 1
            else:
                other = _feature_on_side(neighbour, (side + 2) % 4)
                assert other >= 0, f"side {side} of {(x, y)} meets no feature of the same kind"
                linked.append(((x + dx, y + dy), other))
    elif feature.kind == FIELD:
        for half in feature.halves:
            side, right = divmod(half, 2)
            dx, dy = SIDE_STEP[side]
            neighbour = board.get((x + dx, y + dy))
            if neighbour is not None:
                # The left half looking out meets the neighbour's right half looking back.
                other = _field_on_half(neighbour, 2 * ((side + 2) % 4) + (1 - right))
                assert other >= 0, f"half-edge {half} of {(x, y)} meets no field"
                linked.append(((x + dx, y + dy), other))
    return linked, open_edges


@dataclass
class BoardFeature:
    """A feature found by searching the board: its parts and whether it is completed."""

    kind: int
    nodes: list[Node]
    complete: bool


def board_features(state: CarcassonneState) -> list[BoardFeature]:
    """Every feature of the board by a breadth-first search over matching edges."""
    board = tiles_by_xy(state)
    seen: set[Node] = set()
    found: list[BoardFeature] = []
    for xy, variant in board.items():
        for feature in variant.features:
            start = (xy, feature.index)
            if start in seen:
                continue
            seen.add(start)
            nodes, queue, open_edges = [start], [start], 0
            while queue:
                linked, opened = _links(board, queue.pop())
                open_edges += opened
                for other in linked:
                    if other not in seen:
                        seen.add(other)
                        nodes.append(other)
                        queue.append(other)
            if feature.kind == MONASTERY:
                x, y = xy
                complete = all((x + dx, y + dy) in board for dx, dy in AROUND)
            else:
                complete = feature.kind != FIELD and open_edges == 0
            found.append(BoardFeature(feature.kind, nodes, complete))
    return found


def follower_nodes(state: CarcassonneState) -> dict[Node, int]:
    """Where the followers stand according to the spectator view: node -> seat."""
    board = tiles_by_xy(state)
    out: dict[Node, int] = {}
    for f in state.view(None)["followers"]:
        variant = board[(f["x"], f["y"])]
        out[((f["x"], f["y"]), variant.location_index[f["location"]])] = f["player"]
    return out


# -- invariants ------------------------------------------------------------------------------

def check_tiles_match(state: CarcassonneState) -> None:
    """Every placed tile shows the same side type as each neighbour on the shared side."""
    board = tiles_by_xy(state)
    for (x, y), variant in board.items():
        for side, (dx, dy) in enumerate(SIDE_STEP):
            neighbour = board.get((x + dx, y + dy))
            if neighbour is not None:
                assert variant.side_types[side] == neighbour.side_types[(side + 2) % 4], (
                    f"tile {variant.tile}/{variant.rotation} at {(x, y)} does not match "
                    f"{neighbour.tile}/{neighbour.rotation} at {(x + dx, y + dy)} on side {side}")


def check_followers_conserved(state: CarcassonneState) -> None:
    """Supply plus followers on the board is 7 for every seat, and no supply is negative."""
    view = state.view(None)
    on_board = Counter(f["player"] for f in view["followers"])
    for seat in range(state.game.num_players):
        supply = view["supply"][seat]["follower"]
        assert supply >= 0, f"seat {seat} has a negative supply {supply}"
        assert supply + on_board[seat] == FOLLOWERS, (
            f"seat {seat}: supply {supply} + on board {on_board[seat]} != {FOLLOWERS}")
    assert set(on_board) <= set(range(state.game.num_players))


def check_features(state: CarcassonneState, turn_over: bool) -> None:
    """The engine's features agree with a plain board search, and figures sit where they should.

    - each searched feature is exactly one union-find component, with the same completion;
    - the figures the engine keeps on each root are exactly the followers on that feature;
    - once a turn is over (`turn_over`), no follower stands on a completed road, city or
      monastery: scoring must have sent it back.
    """
    graph = state.graph
    followers = follower_nodes(state)
    roots: set[int] = set()
    for feature in board_features(state):
        parts = [graph.board[pack(*xy)][1] + local for xy, local in feature.nodes]
        feature_roots = {graph.find(p) for p in parts}
        assert len(feature_roots) == 1, f"feature {feature.nodes} is split over {feature_roots}"
        root = feature_roots.pop()
        assert root not in roots, f"root {root} covers two separate features"
        roots.add(root)
        if feature.kind != FIELD:
            assert graph.is_complete(root) == feature.complete, (
                f"feature {feature.nodes}: engine complete={graph.is_complete(root)}, "
                f"board says {feature.complete}")
        expected = sorted(graph.board[pack(*xy)][1] + local for xy, local in feature.nodes
                          if (xy, local) in followers)
        assert sorted(graph.figures[root]) == expected, (
            f"feature {feature.nodes}: engine figures {graph.figures[root]}, board {expected}")
        if turn_over and feature.complete:
            assert not expected, f"followers stay on the completed feature {feature.nodes}"
    assert len(roots) == len({graph.find(p) for p in range(len(graph.parent))})


def check_log_matches_scores(state: CarcassonneState) -> None:
    """Scores are exactly the sum of the logged scoring events; no event takes points away."""
    totals = [0] * state.game.num_players
    for event in state.log:
        assert event["points"] >= 0, f"negative score event {event}"
        assert event["players"] == sorted(set(event["players"])), f"bad winners in {event}"
        for seat in event["players"]:
            totals[seat] += event["points"]
    assert totals == state.scores, f"log adds up to {totals}, scores are {state.scores}"


def check_replays(state: CarcassonneState) -> None:
    """The record, also after a JSON round trip, rebuilds exactly this position."""
    record = state.record
    assert bw.replay(record).signature() == state.signature()
    assert bw.replay(bw.GameRecord.loads(record.dumps())).signature() == state.signature()


def check_finished(state: CarcassonneState) -> None:
    """The end of a default-set game: pile used up, every tile placed or discarded, all scored."""
    assert state.is_terminal and state.current_player == -1
    assert state.legal_actions() == []
    view = state.view(None)
    assert view["phase"] == "game_over" and view["is_terminal"]
    assert view["draw_pile_size"] == 0 and view["remaining_tiles"] == {} and state.pile == []
    assert view["tile"] is None
    assert len(view["board"]) + len(view["discarded"]) == BASE_SET_SIZE
    assert view["followers"] == [], "final scoring must return every follower"
    assert view["supply"] == [{"follower": FOLLOWERS}] * state.game.num_players
    best = max(state.scores)
    assert view["winners"] == [s for s, score in enumerate(state.scores) if score == best]
    assert state.returns() == rank_returns(state.scores)


def check_end_of_game(state: CarcassonneState) -> None:
    """Every end-of-game invariant (run for all random games)."""
    check_finished(state)
    check_tiles_match(state)
    check_followers_conserved(state)
    check_features(state, turn_over=True)
    check_log_matches_scores(state)
    check_replays(state)


def check_position(state: CarcassonneState) -> None:
    """The invariants that hold after every single action."""
    check_tiles_match(state)
    check_followers_conserved(state)
    check_features(state, turn_over=state.view(None)["phase"] != "deploy")
    check_log_matches_scores(state)
    if not state.is_terminal:
        assert state.returns() == [0.0] * state.game.num_players


def check_step(before: CarcassonneState, after: CarcassonneState, action: Action) -> None:
    """What one action may change: scores only grow, a new follower stands alone."""
    for seat, (old, new) in enumerate(zip(before.scores, after.scores)):
        assert new >= old, f"seat {seat}'s score fell from {old} to {new} after {action}"
    if isinstance(action, Deploy):
        # A follower may only join an unoccupied feature; sharing comes only from merging.
        graph = before.graph
        pos = pack(action.x, action.y)
        variant, base = graph.board[pos]
        root = graph.find(base + variant.location_index[action.location])
        assert graph.figures[root] == (), f"{action} joined an occupied feature"


# -- hidden information ------------------------------------------------------------------------

def contains_sequence(value: Any, target: list[str]) -> bool:
    """Whether `target` appears as a list anywhere inside a JSON-like value."""
    if isinstance(value, (list, tuple)):
        if list(value) == target:
            return True
        return any(contains_sequence(v, target) for v in value)
    if isinstance(value, dict):
        return any(contains_sequence(v, target) for v in value.values())
    return False


def check_views_hide_pile(state: CarcassonneState, rng: random.Random, rounds: int = 2) -> None:
    """No view changes when the pile is reshuffled, and none holds the pile order itself."""
    signature = state.signature()
    pile = list(state.pile)
    for viewer in [None, *range(state.game.num_players)]:
        view = state.view(viewer)
        json.dumps(view)  # JSON-able
        assert ("legal_actions" in view) == (viewer is not None and viewer == state.current_player)
        if len(pile) >= 3:
            assert not contains_sequence(view, pile) and not contains_sequence(view, pile[::-1])
        for _ in range(rounds):
            other = state.determinize(0 if viewer is None else viewer, rng)
            assert Counter(other.pile) == Counter(pile)
            assert other.signature()[:3] + other.signature()[4:] == signature[:3] + signature[4:]
            assert other.view(viewer) == view
    assert state.signature() == signature, "determinize changed the original state"


def check_legal_actions(state: CarcassonneState) -> None:
    """The legal actions are non-empty, distinct, match the rules, and each applies to a clone."""
    actions = state.legal_actions()
    assert actions, "no legal action in a running game"
    assert len(set(actions)) == len(actions), "duplicate legal actions"
    if isinstance(actions[0], Place):
        assert set(actions) == expected_placements(state)
    else:
        assert set(actions) == expected_deployments(state)
    signature = state.signature()
    for action in actions:
        twin = state.clone()
        twin.apply(action)
    assert state.signature() == signature


def _equivalent(a: TileVariant, b: TileVariant) -> bool:
    key = lambda v: sorted((f.kind, f.location, f.pennants) for f in v.features)  # noqa: E731
    return key(a) == key(b)


def expected_placements(state: CarcassonneState) -> set[Place]:
    """Every (position, rotation) where the drawn tile fits, one rotation per distinct look."""
    board = tiles_by_xy(state)
    variants = state.game.tile_types[state.tile].variants
    distinct: list[int] = []
    for q, variant in enumerate(variants):
        if not any(_equivalent(variant, variants[d]) for d in distinct):
            distinct.append(q)
    free = {(x + dx, y + dy) for x, y in board for dx, dy in SIDE_STEP} - set(board)
    out: set[Place] = set()
    for x, y in free:
        for q in distinct:
            variant = variants[q]
            if all(board.get((x + dx, y + dy)) is None
                   or board[(x + dx, y + dy)].side_types[(s + 2) % 4] == variant.side_types[s]
                   for s, (dx, dy) in enumerate(SIDE_STEP)):
                out.add(Place(x, y, 90 * q))
    return out


def expected_deployments(state: CarcassonneState) -> set[Deploy | Pass]:
    """Pass, plus a follower on each unoccupied feature of the tile just placed (if any left)."""
    view = state.view(None)
    out: set[Deploy | Pass] = {Pass()}
    if view["supply"][state.current_player]["follower"] == 0:
        return out
    x, y = view["last_placed"]["x"], view["last_placed"]["y"]
    followers = follower_nodes(state)
    occupied = {node for feature in board_features(state) for node in feature.nodes
                if any(n in followers for n in feature.nodes)}
    variant = tiles_by_xy(state)[(x, y)]
    for feature in variant.features:
        if feature.kind == FIELD and not state.game.options["farmers"]:
            continue
        if ((x, y), feature.index) not in occupied:
            out.add(Deploy(x, y, feature.location, "follower"))
    return out


def apply_checking_clone(state: CarcassonneState, action: Action, rng: random.Random) -> None:
    """Apply `action` to `state` while a clone looks on: neither may affect the other.

    The clone must equal the original, stay as it was while the original moves, and playing
    the clone on afterwards must leave the (moved) original untouched.
    """
    before = state.signature()
    twin = state.clone()
    assert twin == state and twin.signature() == before
    state.apply(action)
    assert twin.signature() == before, f"applying {action} to the original changed its clone"
    after = state.signature()
    for _ in random_steps(twin, random.Random(rng.random()), 4):
        pass
    assert state.signature() == after, "playing the clone changed the original"


@contextmanager
def about(cfg: Config, step: int | None = None) -> Iterator[None]:
    """Prefix a failing check with the game (and action number) so it can be replayed."""
    try:
        yield
    except AssertionError as exc:
        where = "" if step is None else f", action #{step}"
        raise AssertionError(f"{cfg}{where}: {exc}") from exc
