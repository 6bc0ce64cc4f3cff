"""Random Carcassonne games and the invariants every position of them must satisfy.

Shared by the property tests (`test_properties.py`) and the malformed/illegal action tests.
The checks recompute what they can from the board itself (side matching, features by a plain
graph search, follower counts, holes, barn points, wagon targets) instead of trusting the
engine's incremental bookkeeping, so a bug in the union-find, in the open-side counters or in
a capability's own lists shows up as a disagreement.

Two families of games: the base game (`Config`, `config`) and games with every Abbey & Mayor
component (`AMConfig`, `am_config`). Every check works for both.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Protocol

import boardwright as bw
from boardwright.core.game import rank_returns
from boardwright.games.carcassonne import Deploy, Draw, Pass, Place, PlaceAbbey
from boardwright.games.carcassonne.actions import pack, unpack
from boardwright.games.carcassonne.state import CarcassonneState
from boardwright.games.carcassonne.tiles import CITY, FIELD, MONASTERY, ROAD, TileVariant
from carcassonne_engines import per_engine_cache

FOLLOWERS = 7
BASE_SET_SIZE = 72
AM_SET_SIZE = 12  # AM01..AM12, one of each
ABBEY = "ABBEY"
SMALL_CITY_VALUES = ("standard", "first_edition")
# Start tiles other than the default D used by a few games (the set still has 72 tiles).
OTHER_START_TILES = ("A", "B", "C", "E", "F", "K", "L", "R", "U", "V", "W", "X")
# (dx, dy) of the neighbour through side N, E, S, W: x grows east, y grows south.
SIDE_STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))
AROUND = tuple((dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))
# Abbey & Mayor pieces and the option that gives each seat's starting count.
PIECE_OPTIONS = {"mayor": "mayors", "wagon": "wagons", "barn": "barns", "abbey": "abbeys"}
FIGURES_ON_FEATURES = ("follower", "mayor", "wagon")
# Corner of a tile -> (dx, dy) from the tile to the (x, y) that names the barn point corner(x, y).
CORNER_POINT = {"NW": (-1, -1), "NE": (0, -1), "SW": (-1, 0), "SE": (0, 0)}
# The four tiles around corner(x, y), each with the two half-edges (NL=0 .. WR=7) meeting there:
# (x, y) ER+SL, (x+1, y) SR+WL, (x, y+1) NR+EL, (x+1, y+1) WR+NL.
POINT_TILES = (((0, 0), (3, 4)), ((1, 0), (5, 6)), ((0, 1), (1, 2)), ((1, 1), (7, 0)))

Action = Place | Deploy | Pass | Draw | PlaceAbbey


class GameConfig(Protocol):
    """What the play helpers need from a configuration (base or Abbey & Mayor)."""

    index: int

    @property
    def seed(self) -> int: ...

    def game(self) -> bw.Game: ...


@per_engine_cache(maxsize=256)
def _load_options(players: int, options_json: str) -> bw.Game:
    """Games are immutable configuration; sharing them keeps thousands of games cheap (the
    most recent few hundred: a native game holds its tile data and interned actions)."""
    return bw.load("carcassonne", players, json.loads(options_json))


def load_game(players: int, options: dict[str, Any]) -> bw.Game:
    return _load_options(players, json.dumps(options, sort_keys=True))


# -- base-game configurations ----------------------------------------------------------------

@dataclass(frozen=True)
class Config:
    """One random base game: its configuration and the seed of both the pile and the player."""

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
        return load_game(self.players, self.options())

    def __str__(self) -> str:
        return (f"game #{self.index} (seed {self.seed}, {self.players} players, "
                f"options {self.options()})")


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


# -- Abbey & Mayor configurations ------------------------------------------------------------

END_VALUES = ("mandatory_round", "none", "voluntary_round")
# (wagon_adjacency, wagon_traverse); traversing needs the connected adjacency.
WAGON_MODES = (("nearby", False), ("connected", False), ("connected", True))
# Piece counts per seat (missing keys: the default 1). The defaults weigh most; 0 switches a
# component off and 20 is the largest count allowed.
COUNT_PROFILES: tuple[tuple[tuple[str, int], ...], ...] = (
    (), (), (), (),
    (("abbeys", 2), ("barns", 0)),
    (("mayors", 0), ("wagons", 2)),
    (("abbeys", 0), ("barns", 2)),
    (("abbeys", 3), ("mayors", 2), ("wagons", 0)),
    (("abbeys", 0), ("mayors", 0), ("wagons", 0), ("barns", 0)),
    (("abbeys", 20), ("mayors", 20), ("wagons", 20), ("barns", 20)),
)
KEEP_ABBEY = 0.8  # chance that the random player draws although it could play its abbey
AM_COMBINATION_CYCLE = 6 * len(END_VALUES) * len(WAGON_MODES) * 2


@dataclass(frozen=True)
class AMConfig:
    """One random game with every Abbey & Mayor component (options mixed per index)."""

    index: int
    players: int
    farmers: bool
    abbey_end_of_game: str
    wagon_adjacency: str
    wagon_traverse: bool
    counts: tuple[tuple[str, int], ...]
    starting_seat: int
    small_city_scoring: str
    abbey_mayor_tiles: bool
    mayor_lies_flat: bool
    expansion_name: str

    @property
    def seed(self) -> int:
        return 2_000_029 * self.index + 101

    def count(self, key: str) -> int:
        return dict(self.counts).get(key, 1)

    def options(self) -> dict[str, Any]:
        return {"expansions": [self.expansion_name], "farmers": self.farmers,
                "small_city_scoring": self.small_city_scoring,
                "starting_seat": self.starting_seat,
                "abbey_mayor_tiles": self.abbey_mayor_tiles,
                "abbey_end_of_game": self.abbey_end_of_game,
                "wagon_adjacency": self.wagon_adjacency, "wagon_traverse": self.wagon_traverse,
                "mayor_lies_flat": self.mayor_lies_flat, **dict(self.counts)}

    def game(self) -> bw.Game:
        return load_game(self.players, self.options())

    def __str__(self) -> str:
        return (f"A&M game #{self.index} (seed {self.seed}, {self.players} players, "
                f"options {self.options()})")


def am_config(index: int) -> AMConfig:
    """A deterministic Abbey & Mayor configuration.

    Player counts (1-6) cycle fastest, then the end-of-game abbey rule, then the wagon range
    (nearby / connected / connected with traversal), then farmers, so any 108 consecutive indexes
    cover all those combinations. Piece counts, starting seat, small-city scoring, the expansion
    tiles, the mayor display and the expansion's alias vary pseudo-randomly with the index.
    """
    players = 1 + index % 6
    end = END_VALUES[(index // 6) % len(END_VALUES)]
    adjacency, traverse = WAGON_MODES[(index // 18) % len(WAGON_MODES)]
    farmers = (index // 54) % 2 == 0
    rng = random.Random(index)
    counts = COUNT_PROFILES[rng.randrange(len(COUNT_PROFILES))]
    seat = rng.randrange(players)
    small = rng.choice(SMALL_CITY_VALUES)
    tiles = rng.random() < 0.9
    lies_flat = rng.random() < 0.5
    name = "abbey_and_mayor" if rng.random() < 0.1 else "abbey_mayor"
    return AMConfig(index, players, farmers, end, adjacency, traverse, counts, seat, small,
                    tiles, lies_flat, name)


def am_configs(start: int, count: int) -> list[AMConfig]:
    return [am_config(i) for i in range(start, start + count)]


# -- playing ---------------------------------------------------------------------------------

def new_state(cfg: GameConfig) -> CarcassonneState:
    return cfg.game().new_game(cfg.seed)  # type: ignore[return-value]


def pick_action(state: CarcassonneState, rng: random.Random) -> Action:
    """The random player: a uniform choice among the legal actions, except that before
    drawing it keeps its abbey most of the time, so that many games still hold abbeys when
    the pile runs out and play the final abbey round."""
    actions = state.legal_actions()
    if state.phase == "choose_tile" and rng.random() < KEEP_ABBEY:
        return Draw()
    return rng.choice(actions)


def random_steps(state: CarcassonneState, rng: random.Random,
                 limit: int | None = None) -> Iterator[Action]:
    """Apply random legal actions in place (at most `limit`), yielding each one after it is applied."""
    done = 0
    while not state.is_terminal and (limit is None or done < limit):
        action = pick_action(state, rng)
        state.apply(action)
        done += 1
        yield action


def play(cfg: GameConfig, on_step: Callable[[CarcassonneState, CarcassonneState, Action], None]
         | None = None) -> CarcassonneState:
    """Play one complete random game; `on_step(before, after, action)` runs after every action.

    `before` is a clone taken before the action, so callbacks can compare positions; cloning is
    skipped when there is no callback.
    """
    state = new_state(cfg)
    rng = random.Random(cfg.seed)
    while not state.is_terminal:
        action = pick_action(state, rng)
        before = state.clone() if on_step is not None else None
        state.apply(action)
        if on_step is not None:
            on_step(before, state, action)  # type: ignore[arg-type]
    return state


def state_at(cfg: GameConfig, steps: int) -> CarcassonneState:
    """The position after `steps` random actions of game `cfg` (or its end, if sooner)."""
    state = new_state(cfg)
    for _ in random_steps(state, random.Random(cfg.seed), steps):
        pass
    return state


@dataclass
class ReplayFacts:
    """What a step-by-step replay of a record learns besides the final position."""

    state: CarcassonneState
    abbey_placers: Counter = field(default_factory=Counter)  # seat -> abbeys it placed
    final_round_seats: list[int] = field(default_factory=list)  # who acted in the final round
    events: Counter = field(default_factory=Counter)  # (phase, action type[, figure]) -> count


def replay_facts(record: bw.GameRecord) -> ReplayFacts:
    """Replay a record action by action, noting who placed each abbey (the record itself
    names no seats) and who acted in the final abbey round. The start is `bw.replay`'s (the
    record checked, its game loaded on the default engine); the actions are then applied as
    `bw.replay` applies them, one at a time, to watch who makes each."""
    state: CarcassonneState = bw.replay(record, steps=0)  # type: ignore[assignment]
    game = state.game
    facts = ReplayFacts(state)
    for data in record.actions:
        action = game.action_from_json(data)
        phase = state.phase
        seat = state.current_player
        if isinstance(action, PlaceAbbey):
            facts.abbey_placers[seat] += 1
        if phase == "final_abbey_round":
            facts.final_round_seats.append(seat)
        kind = (phase, type(action).__name__, getattr(action, "figure", None))
        facts.events[kind] += 1
        state.apply(action)
    facts.events["discarded"] = len(state.discarded)
    return facts


# -- independent recomputation of the board -------------------------------------------------

Node = tuple[tuple[int, int], int]  # ((x, y), local feature index)
Point = tuple[int, int]  # a barn point corner(x, y)


def tiles_by_xy(state: CarcassonneState) -> dict[tuple[int, int], TileVariant]:
    """The board from `board_tiles()`, which both engines answer from their own data (a native
    state's `graph` converts the whole position to the Python engine at every read)."""
    types = state.game.tile_types
    return {(t["x"], t["y"]): types[t["tile"]].variants[t["rotation"] // 90]
            for t in state.board_tiles()}


def is_abbey(variant: TileVariant) -> bool:
    return variant.tile == ABBEY


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
    """Nodes joined to `node` across its tile's edges, and how many of its edges are open.

    An abbey joins nothing: a road or city side facing one is closed, a field ends there.
    """
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
            elif not is_abbey(neighbour):
                other = _feature_on_side(neighbour, (side + 2) % 4)
                assert other >= 0, f"side {side} of {(x, y)} meets no feature of the same kind"
                linked.append(((x + dx, y + dy), other))
    elif feature.kind == FIELD:
        for half in feature.halves:
            side, right = divmod(half, 2)
            dx, dy = SIDE_STEP[side]
            neighbour = board.get((x + dx, y + dy))
            if neighbour is not None and not is_abbey(neighbour):
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


def search_features(board: dict[tuple[int, int], TileVariant]) -> list[BoardFeature]:
    """Every feature of the board by a breadth-first search over matching edges."""
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


def board_features(state: CarcassonneState) -> list[BoardFeature]:
    return search_features(tiles_by_xy(state))


def holes_of(board: dict[tuple[int, int], TileVariant]) -> set[tuple[int, int]]:
    """Empty positions whose four orthogonal neighbours all hold a tile (abbey spots)."""
    empty = {(x + dx, y + dy) for x, y in board for dx, dy in SIDE_STEP} - set(board)
    return {(x, y) for x, y in empty
            if all((x + dx, y + dy) in board for dx, dy in SIDE_STEP)}


def barn_point_field(board: dict[tuple[int, int], TileVariant], point: Point) -> Node | None:
    """The field node at corner(x, y) if a barn may stand there: four tiles meet, and each
    shows one single field part on both half-edges touching the point (none is an abbey)."""
    x, y = point
    node = None
    for (dx, dy), (a, b) in POINT_TILES:
        variant = board.get((x + dx, y + dy))
        if variant is None or is_abbey(variant):
            return None
        field_a, field_b = _field_on_half(variant, a), _field_on_half(variant, b)
        if field_a < 0 or field_a != field_b:
            return None
        if node is None:
            node = ((x, y), field_a)
    return node


def follower_nodes(state: CarcassonneState) -> dict[Node, int]:
    """Where the figures stand according to the spectator view: node -> seat."""
    return {node: seat for node, (seat, _) in figure_nodes(state, state.view(None)).items()}


def figure_nodes(state: CarcassonneState, view: dict[str, Any]) -> dict[Node, tuple[int, str]]:
    board = tiles_by_xy(state)
    out: dict[Node, tuple[int, str]] = {}
    for f in view["followers"]:
        variant = board[(f["x"], f["y"])]
        node = ((f["x"], f["y"]), variant.location_index[f["location"]])
        assert node not in out, f"two figures on one part: {f}"
        out[node] = (f["player"], f["figure"])
    return out


class Analysis:
    """One position searched once: its features, who stands where, holes and barns."""

    def __init__(self, state: CarcassonneState) -> None:
        self.state = state
        self.graph = state.graph  # read once: a native state rebuilds it at every read
        self.view = state.view(None)
        self.options = state.game.option_summary()
        self.board = tiles_by_xy(state)
        self.features = search_features(self.board)
        self.feature_of = {node: i for i, f in enumerate(self.features) for node in f.nodes}
        self.figures = figure_nodes(state, self.view)
        self.occupied = {self.feature_of[node] for node in self.figures}
        self.holes = holes_of(self.board)
        self.barn_points: dict[Point, int] = {
            (b["corner"]["x"], b["corner"]["y"]): b["player"] for b in self.view.get("barns", [])}
        self.barn_fields: dict[int, list[Point]] = {}
        for point in self.barn_points:
            node = barn_point_field(self.board, point)
            if node is not None:
                self.barn_fields.setdefault(self.feature_of[node], []).append(point)

    def free(self, index: int) -> bool:
        """An incomplete road, city or monastery without any figure (a wagon target)."""
        feature = self.features[index]
        return feature.kind != FIELD and not feature.complete and index not in self.occupied

    def part_id(self, node: Node) -> int:
        return self.graph.board[pack(*node[0])][1] + node[1]


# -- invariants ------------------------------------------------------------------------------

def start_pieces(state: CarcassonneState) -> dict[str, int]:
    """Each seat's pieces at set-up, from the game's options (0 for an absent component)."""
    options = state.game.option_summary()
    pieces = {"follower": FOLLOWERS}
    pieces.update({piece: options.get(key, 0) for piece, key in PIECE_OPTIONS.items()})
    return pieces


def set_size(state: CarcassonneState) -> int:
    """Landscape tiles of the game, start tile included."""
    return BASE_SET_SIZE + (AM_SET_SIZE if state.game.option_summary().get("abbey_mayor_tiles")
                            else 0)


def check_tiles_match(state: CarcassonneState, board: dict | None = None) -> None:
    """Every landscape tile shows the same side type as each landscape neighbour on the shared
    side; abbeys have no sides, so they are exempt, but each sits in a hole (four neighbours)."""
    board = tiles_by_xy(state) if board is None else board
    for (x, y), variant in board.items():
        if is_abbey(variant):
            assert variant.rotation == 0, f"abbey at {(x, y)} turned {variant.rotation}"
            missing = [(x + dx, y + dy) for dx, dy in SIDE_STEP if (x + dx, y + dy) not in board]
            assert not missing, f"abbey at {(x, y)} has no tile at {missing}"
            continue
        for side, (dx, dy) in enumerate(SIDE_STEP):
            neighbour = board.get((x + dx, y + dy))
            if neighbour is not None and not is_abbey(neighbour):
                assert variant.side_types[side] == neighbour.side_types[(side + 2) % 4], (
                    f"tile {variant.tile}/{variant.rotation} at {(x, y)} does not match "
                    f"{neighbour.tile}/{neighbour.rotation} at {(x + dx, y + dy)} on side {side}")


def check_pieces_conserved(state: CarcassonneState, placers: Counter | None = None,
                           view: dict[str, Any] | None = None) -> None:
    """Per seat: followers, mayors and wagons in supply + on the board (+ wagons waiting for
    their move) = the starting count; barns in supply + placed = start; abbeys in supply +
    abbeys that seat placed = start (`placers`, when known; else only the total is checked)."""
    view = state.view(None) if view is None else view
    start = start_pieces(state)
    n = state.game.num_players
    on_board = Counter((f["player"], f["figure"]) for f in view["followers"])
    assert {figure for _, figure in on_board} <= set(FIGURES_ON_FEATURES), on_board
    waiting = Counter(w["player"] for w in view.get("waiting_wagons", []))
    barns = Counter(b["player"] for b in view.get("barns", []))
    abbeys = sum(1 for t in view["board"] if t["tile"] == ABBEY)
    supplies = view["supply"]
    assert len(supplies) == n
    for seat, supply in enumerate(supplies):
        assert set(supply) <= set(start), f"seat {seat}: unknown pieces in supply {supply}"
        assert all(count >= 0 for count in supply.values()), f"seat {seat}: negative {supply}"
        for figure in FIGURES_ON_FEATURES:
            total = supply.get(figure, 0) + on_board[(seat, figure)] + (
                waiting[seat] if figure == "wagon" else 0)
            assert total == start[figure], (
                f"seat {seat}: {figure}s in supply {supply.get(figure, 0)} + on board "
                f"{on_board[(seat, figure)]} (+ waiting {waiting[seat]}) != {start[figure]}")
        assert supply.get("barn", 0) + barns[seat] == start["barn"], (
            f"seat {seat}: barns in supply {supply.get('barn', 0)} + placed {barns[seat]} "
            f"!= {start['barn']}")
        if placers is not None:
            assert supply.get("abbey", 0) + placers[seat] == start["abbey"], (
                f"seat {seat}: abbeys in supply {supply.get('abbey', 0)} + placed "
                f"{placers[seat]} != {start['abbey']}")
    assert set(on_board) <= {(s, f) for s in range(n) for f in FIGURES_ON_FEATURES}
    in_supply = sum(s.get("abbey", 0) for s in supplies)
    assert in_supply + abbeys == start["abbey"] * n, (
        f"abbeys in supply {in_supply} + on the board {abbeys} != {start['abbey']} x {n}")
    if placers is not None:
        assert sum(placers.values()) == abbeys


def check_followers_conserved(state: CarcassonneState) -> None:
    """Kept for callers of the base-game name: every piece is conserved."""
    check_pieces_conserved(state)


def check_figure_kinds(an: Analysis) -> None:
    """Mayors stand only in cities, wagons never in fields, farmers only when farmers are on;
    only mayors carry the display flag `lying`, equal to the `mayor_lies_flat` option."""
    for shown in an.view["followers"]:
        if shown["figure"] == "mayor":
            assert shown["lying"] is an.options["mayor_lies_flat"], shown
        else:
            assert "lying" not in shown, shown
    for (xy, local), (seat, figure) in an.figures.items():
        kind = an.board[xy].features[local].kind
        where = f"seat {seat}'s {figure} on {an.board[xy].features[local].location} of {xy}"
        if figure == "mayor":
            assert kind == CITY, f"{where} is not in a city"
        elif figure == "wagon":
            assert kind != FIELD, f"{where} is in a field"
        if kind == FIELD:
            assert an.options["farmers"], f"{where}: a farmer although farmers are off"


def check_features(state: CarcassonneState, turn_over: bool, an: Analysis | None = None) -> None:
    """The engine's features agree with a plain board search, and figures sit where they should.

    - each searched feature is exactly one union-find component, with the same completion;
    - the figures the engine keeps on each root are exactly the figures on that feature, and
      the barns it keeps are exactly the barn points in that field;
    - once a turn is over (`turn_over`), no figure stands on a completed road, city or
      monastery (scoring must have sent it back), and no field holds both a barn and a farmer.
    """
    an = Analysis(state) if an is None else an
    graph = an.graph
    roots: set[int] = set()
    for index, feature in enumerate(an.features):
        parts = [an.part_id(node) for node in feature.nodes]
        feature_roots = {graph.find(p) for p in parts}
        assert len(feature_roots) == 1, f"feature {feature.nodes} is split over {feature_roots}"
        root = feature_roots.pop()
        assert root not in roots, f"root {root} covers two separate features"
        roots.add(root)
        if feature.kind != FIELD:
            assert graph.is_complete(root) == feature.complete, (
                f"feature {feature.nodes}: engine complete={graph.is_complete(root)}, "
                f"board says {feature.complete}")
        expected = sorted(an.part_id(node) for node in feature.nodes if node in an.figures)
        assert sorted(graph.figures[root]) == expected, (
            f"feature {feature.nodes}: engine figures {graph.figures[root]}, board {expected}")
        barns = sorted(pack(*point) for point in an.barn_fields.get(index, ()))
        assert sorted(graph.barns[root]) == barns, (
            f"feature {feature.nodes}: engine barns {graph.barns[root]}, board {barns}")
        if turn_over and feature.complete:
            assert not expected, f"figures stay on the completed feature {feature.nodes}"
        if turn_over and barns:
            assert not expected, f"the field {feature.nodes} holds a barn and farmers"
    assert len(roots) == len({graph.find(p) for p in range(len(graph.parent))})


def check_barns(an: Analysis) -> None:
    """Every barn stands on a valid barn point (four tiles, each with a field corner there)."""
    for point, seat in an.barn_points.items():
        assert barn_point_field(an.board, point) is not None, (
            f"seat {seat}'s barn on corner{point} is not at a valid barn point")


def check_phase(an: Analysis) -> None:
    """Who decides and what the phase implies: a waiting wagon's owner decides in the wagon
    phase, the turn player otherwise; an abbey phase needs an abbey in hand and a hole."""
    state, view = an.state, an.view
    phase = view["phase"]
    current = state.current_player
    assert view["current_player"] == current
    waiting = view.get("waiting_wagons", [])
    if phase == "wagon_move":
        wagon = view["wagon"]
        assert waiting, "wagon phase without a waiting wagon"
        assert current == wagon["player"] == waiting[0]["player"], (
            f"current player {current}, wagon {wagon}, waiting {waiting}")
        assert (wagon["from"]["x"], wagon["from"]["y"]) == (waiting[0]["x"], waiting[0]["y"])
        # Owners decide clockwise, starting with the player whose turn it is.
        n = state.game.num_players
        order = [(w["player"] - view["turn_player"]) % n for w in waiting]
        assert order == sorted(order), f"wagons wait out of clockwise order: {waiting}"
    else:
        assert not waiting, f"wagons wait outside the wagon phase: {waiting}"
        if phase != "game_over":
            assert current == view["turn_player"]
    if "holes" in view:
        assert {(h["x"], h["y"]) for h in view["holes"]} == an.holes
    if phase in ("choose_tile", "final_abbey_round"):
        assert view["tile"] is None, f"no tile is in hand in {phase}, yet {view['tile']!r}"
        assert view["supply"][current]["abbey"] > 0 and an.holes, (
            f"{phase} for seat {current} without an abbey in hand and a hole")
        assert (view["draw_pile_size"] > 0) == (phase == "choose_tile")
        if phase == "final_abbey_round":
            assert an.options["abbey_end_of_game"] != "none"
    elif phase == "place_tile":
        assert view["tile"] is not None and view["tile"] != ABBEY


def check_log_matches_scores(state: CarcassonneState) -> None:
    """Scores are exactly the sum of the logged scoring events; no event takes points away."""
    totals = [0] * state.game.num_players
    for event in state.log:
        assert event["points"] >= 0, f"negative score event {event}"
        assert event["players"] == sorted(set(event["players"])), f"bad winners in {event}"
        for seat in event["players"]:
            totals[seat] += event["points"]
    assert totals == state.scores, f"log adds up to {totals}, scores are {state.scores}"


def check_replays(state: CarcassonneState) -> ReplayFacts:
    """The record, through a JSON round trip and replayed action by action from `bw.replay`'s
    start, rebuilds exactly this position. Returns what the replay learned."""
    record = state.record
    round_trip = bw.GameRecord.loads(record.dumps())
    assert round_trip.to_json() == record.to_json()
    facts = replay_facts(round_trip)  # (one replay serves both: it is bw.replay's, step by step)
    assert facts.state.signature() == state.signature()
    return facts


def check_finished(state: CarcassonneState, facts: ReplayFacts | None = None) -> None:
    """The end of a game: pile used up, every tile placed or discarded, all figures home,
    unused abbeys only where the end-of-game rule allows them."""
    facts = replay_facts(state.record) if facts is None else facts
    assert state.is_terminal and state.current_player == -1
    assert state.legal_actions() == []
    view = state.view(None)
    n = state.game.num_players
    assert view["phase"] == "game_over" and view["is_terminal"]
    assert view["draw_pile_size"] == 0 and view["remaining_tiles"] == {} and state.pile == []
    landscapes = [t for t in view["board"] if t["tile"] != ABBEY]
    assert len(landscapes) + len(view["discarded"]) == set_size(state)
    assert view["followers"] == [], "final scoring must return every figure"
    assert not view.get("waiting_wagons")
    start = start_pieces(state)
    barns = Counter(b["player"] for b in view.get("barns", []))
    for seat, supply in enumerate(view["supply"]):
        expected = dict(start, barn=start["barn"] - barns[seat],
                        abbey=start["abbey"] - facts.abbey_placers[seat])
        got = {piece: supply.get(piece, 0) for piece in start}
        assert got == expected and set(supply) <= set(start), f"seat {seat}: supply {supply}"
    end = state.game.option_summary().get("abbey_end_of_game")
    holes = holes_of(tiles_by_xy(state))
    if end == "mandatory_round" and holes:
        # Each seat has one turn in the final round and must place an abbey in it if it holds
        # one and a hole exists then; holes only disappear, so a seat that still holds an
        # abbey while a hole is left must have placed one in the round (it may hold several).
        holders = {s for s, supply in enumerate(view["supply"]) if supply.get("abbey", 0)}
        skipped = sorted(holders - set(facts.final_round_seats))
        assert not skipped, f"seats {skipped} keep an abbey while holes {holes} exist"
    if end == "mandatory_round":
        assert not facts.events[("final_abbey_round", "Pass", None)], "a final-round pass"
    if end in (None, "none"):
        assert not facts.final_round_seats, "a final abbey round was played"
    assert len(set(facts.final_round_seats)) == len(facts.final_round_seats), (
        f"a seat acted twice in the final abbey round: {facts.final_round_seats}")
    best = max(state.scores)
    assert view["winners"] == [s for s, score in enumerate(state.scores) if score == best]
    assert state.returns() == rank_returns(state.scores)
    assert len(state.scores) == n


def check_end_of_game(state: CarcassonneState) -> ReplayFacts:
    """Every end-of-game invariant (run for all random games); returns the replay's facts."""
    facts = check_replays(state)
    check_finished(state, facts)
    an = Analysis(state)
    check_tiles_match(state, an.board)
    check_pieces_conserved(state, facts.abbey_placers, an.view)
    check_figure_kinds(an)
    check_barns(an)
    check_features(state, turn_over=True, an=an)
    check_log_matches_scores(state)
    check_final_barn_scores(an)
    check_no_tile_in_hand(state)
    return facts


def check_final_barn_scores(an: Analysis) -> None:
    """Each field with barns scored once at the end for each owner of a barn in it (however
    many of that owner's barns it holds), for that owner alone: 4 points per completed city
    that the field borders (cities are found from the field's parts, by a board search)."""
    expected = []
    paid: set[tuple[int, int]] = set()
    for point, seat in an.barn_points.items():
        field = an.feature_of[barn_point_field(an.board, point)]
        if (field, seat) in paid:
            continue
        paid.add((field, seat))
        cities = {an.feature_of[(xy, city)] for xy, local in an.features[field].nodes
                  for city in an.board[xy].features[local].borders}
        expected.append(([seat], 4 * sum(an.features[c].complete for c in cities)))
    got = [(e["players"], e["points"]) for e in an.state.log if e["feature"] == "barn"]
    assert sorted(got) == sorted(expected), f"barn scores {got}, board says {expected}"


def check_no_tile_in_hand(state: CarcassonneState) -> None:
    """Nobody holds a tile once the game is over (also after an abbey played last).
    Checked last, so that a failure here never hides the other end-of-game invariants."""
    tile = state.view(None)["tile"]
    assert tile is None, f"the finished game still shows the tile {tile!r} in hand"


def check_position(state: CarcassonneState, placers: Counter | None = None) -> None:
    """The invariants that hold after every single action."""
    an = Analysis(state)
    check_tiles_match(state, an.board)
    check_pieces_conserved(state, placers, an.view)
    check_figure_kinds(an)
    check_barns(an)
    check_phase(an)
    check_features(state, turn_over=an.view["phase"] != "deploy", an=an)
    check_log_matches_scores(state)
    if not state.is_terminal:
        assert state.returns() == [0.0] * state.game.num_players


def check_step(before: CarcassonneState, after: CarcassonneState, action: Action) -> None:
    """What one action may change: scores only grow, a new figure stands alone, an abbey
    goes into a hole of the position before and leaves the pile alone."""
    for seat, (old, new) in enumerate(zip(before.scores, after.scores)):
        assert new >= old, f"seat {seat}'s score fell from {old} to {new} after {action}"
    if isinstance(action, Deploy) and action.figure != "barn":
        # A figure may only join an unoccupied feature; sharing comes only from merging.
        graph = before.graph
        pos = pack(action.x, action.y)
        variant, base = graph.board[pos]
        root = graph.find(base + variant.location_index[action.location])
        assert graph.figures[root] == (), f"{action} joined an occupied feature"
    if isinstance(action, PlaceAbbey):
        assert (action.x, action.y) in holes_of(tiles_by_xy(before)), f"{action} is no hole"
        assert after.pile == before.pile, "placing an abbey changed the draw pile"
        seat = before.current_player
        assert after.view(None)["supply"][seat]["abbey"] == (
            before.view(None)["supply"][seat]["abbey"] - 1)
    if isinstance(action, Draw):
        assert before.phase == "choose_tile"
    if after.phase == "place_tile" and before.phase != "choose_tile":
        # A turn began with an automatic draw: the abbey choice was not due.
        seat = after.turn_player
        assert not (after.view(None)["supply"][seat].get("abbey", 0)
                    and holes_of(tiles_by_xy(after))), (
            f"seat {seat} holds an abbey and a hole exists, yet a tile was drawn for it")
    if not after.is_terminal:
        _check_wagons_return_only_by_choice(before, after, action)


def _check_wagons_return_only_by_choice(before: CarcassonneState, after: CarcassonneState,
                                        action: Action) -> None:
    """During play a wagon enters or leaves a supply only when its owner decides so: placed
    from supply in the deploy step, or taken back (Pass) in the wagon phase. A scored wagon
    waits for that decision instead of going home."""
    old, new = before.view(None)["supply"], after.view(None)["supply"]
    for seat in range(before.game.num_players):
        expected = 0
        if before.phase == "wagon_move" and isinstance(action, Pass) \
                and before.current_player == seat:
            expected = 1
        if before.phase == "deploy" and isinstance(action, Deploy) \
                and action.figure == "wagon" and before.turn_player == seat:
            expected = -1
        delta = new[seat].get("wagon", 0) - old[seat].get("wagon", 0)
        assert delta == expected, f"seat {seat}'s wagons in supply changed by {delta} after {action}"


class AbbeyWatch:
    """Follows a game action by action: who placed which abbey, who acted in the final round."""

    def __init__(self) -> None:
        self.placers: Counter = Counter()
        self.final_round_seats: list[int] = []

    def see(self, before: CarcassonneState, action: Action) -> None:
        if isinstance(action, PlaceAbbey):
            self.placers[before.current_player] += 1
        if before.phase == "final_abbey_round":
            seat = before.current_player
            assert seat not in self.final_round_seats, f"seat {seat} acts twice in the final round"
            self.final_round_seats.append(seat)


# -- hidden information ------------------------------------------------------------------------

def contains_sequence(value: Any, target: list[str]) -> bool:
    """Whether `target` appears as a list anywhere inside a JSON-like value (walked with a
    stack: a late-game view holds thousands of small lists, and only those of the target's
    length are compared)."""
    size = len(target)
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            if len(item) == size and list(item) == target:
                return True
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
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


# -- the legal actions, enumerated independently ------------------------------------------------

def check_legal_actions(state: CarcassonneState) -> list[Any]:
    """The legal actions are non-empty, distinct, match the rules, and each applies to a clone.
    Returns them (callers check their ids)."""
    actions = state.legal_actions()
    assert actions, "no legal action in a running game"
    assert len(set(actions)) == len(actions), "duplicate legal actions"
    an = Analysis(state)
    phase = an.view["phase"]
    if phase == "place_tile":
        assert set(actions) == expected_placements(state)
    elif phase == "deploy":
        assert set(actions) == expected_deployments(state, an)
    elif phase in ("choose_tile", "final_abbey_round"):
        assert set(actions) == expected_abbey_actions(an)
    elif phase == "wagon_move":
        check_wagon_moves(an, actions)
    else:
        raise AssertionError(f"legal actions in phase {phase}")
    signature = state.signature()
    for action in actions:
        twin = state.clone()
        twin.apply(action)
    assert state.signature() == signature
    return actions


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
            if all(board.get((x + dx, y + dy)) is None or is_abbey(board[(x + dx, y + dy)])
                   or board[(x + dx, y + dy)].side_types[(s + 2) % 4] == variant.side_types[s]
                   for s, (dx, dy) in enumerate(SIDE_STEP)):
                out.add(Place(x, y, 90 * q))
    return out


def expected_deployments(state: CarcassonneState,
                         an: Analysis | None = None) -> set[Deploy | Pass]:
    """Pass, plus each figure the turn player still holds on each unoccupied feature of the
    tile just placed where that figure may stand, plus the barn on each free barn point at a
    corner of that tile."""
    an = Analysis(state) if an is None else an
    supply = an.view["supply"][state.turn_player]
    x, y = an.view["last_placed"]["x"], an.view["last_placed"]["y"]
    variant = an.board[(x, y)]
    out: set[Deploy | Pass] = {Pass()}
    for feature in variant.features:
        index = an.feature_of[((x, y), feature.index)]
        if index in an.occupied or index in an.barn_fields:
            continue
        kind = feature.kind
        if supply.get("follower", 0) and (kind != FIELD or an.options["farmers"]):
            out.add(Deploy(x, y, feature.location, "follower"))
        if supply.get("mayor", 0) and kind == CITY:
            out.add(Deploy(x, y, feature.location, "mayor"))
        if supply.get("wagon", 0) and kind != FIELD:
            out.add(Deploy(x, y, feature.location, "wagon"))
    if supply.get("barn", 0):
        for corner, (dx, dy) in CORNER_POINT.items():
            node = barn_point_field(an.board, (x + dx, y + dy))
            if node is not None and an.feature_of[node] not in an.barn_fields:
                out.add(Deploy(x, y, corner, "barn"))
    return out


def expected_abbey_actions(an: Analysis) -> set[Any]:
    """Before drawing: draw, or the abbey into any hole. In the final round: the abbey into any
    hole, and passing only when the round is voluntary."""
    out: set[Any] = {PlaceAbbey(x, y) for x, y in an.holes}
    if an.view["phase"] == "choose_tile":
        out.add(Draw())
    elif an.options["abbey_end_of_game"] == "voluntary_round":
        out.add(Pass())
    return out


def _scored_feature(an: Analysis) -> int:
    """The feature the deciding wagon left (the engine's queue names its root part)."""
    graph = an.graph
    root = an.state.wagon_queue[0][2]
    node = (unpack(graph.part_pos[root]), graph.part_local[root])
    return an.feature_of[node]


def adjacent_features(an: Analysis, index: int) -> set[int]:
    """First-edition adjacency: features joined to feature `index` by a link printed on a
    tile, or across an abbey edge (an abbey and a road or city side facing it)."""
    out: set[int] = set()
    for (x, y), local in an.features[index].nodes:
        variant = an.board[(x, y)]
        for a, b in variant.links:
            if local in (a, b):
                out.add(an.feature_of[((x, y), b if local == a else a)])
        if is_abbey(variant):
            for side, (dx, dy) in enumerate(SIDE_STEP):
                neighbour = an.board[(x + dx, y + dy)]
                other = _feature_on_side(neighbour, (side + 2) % 4)
                if other >= 0:
                    out.add(an.feature_of[((x + dx, y + dy), other)])
        else:
            for side in variant.features[local].sides:
                dx, dy = SIDE_STEP[side]
                neighbour = an.board.get((x + dx, y + dy))
                if neighbour is not None and is_abbey(neighbour):
                    monastery = neighbour.location_index["MONASTERY"]
                    out.add(an.feature_of[((x + dx, y + dy), monastery)])
    out.discard(index)
    return {i for i in out if an.features[i].kind != FIELD}


def expected_connected_targets(an: Analysis) -> set[int]:
    """Target features under `connected`: adjacent to the scored feature and free; with
    `wagon_traverse`, also reached through a chain of completed or free features."""
    start = _scored_feature(an)
    traverse = an.options["wagon_traverse"]
    targets: set[int] = set()
    seen, queue = {start}, [start]
    while queue:
        for other in adjacent_features(an, queue.pop()):
            if other in seen:
                continue
            seen.add(other)
            if an.free(other):
                targets.add(other)
            if traverse and (an.free(other) or an.features[other].complete):
                queue.append(other)
    return targets


def check_wagon_moves(an: Analysis, actions: list[Any]) -> None:
    """The wagon phase offers taking the wagon back, plus moves to free features in range:
    under `nearby` every part of such a feature on the wagon's tile or the 8 around it; under
    `connected` every part of each target feature (the owner picks the part)."""
    wagon = an.view["wagon"]
    fx, fy = wagon["from"]["x"], wagon["from"]["y"]
    assert Pass() in actions
    moves = [a for a in actions if a != Pass()]
    assert all(isinstance(a, Deploy) and a.figure == "wagon" for a in moves), moves
    if an.options["wagon_adjacency"] == "nearby":
        expected = set()
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                xy = (fx + dx, fy + dy)
                variant = an.board.get(xy)
                for feature in variant.features if variant is not None else ():
                    if an.free(an.feature_of[(xy, feature.index)]):
                        expected.add(Deploy(*xy, feature.location, "wagon"))
        assert set(moves) == expected, f"wagon from {(fx, fy)}"
        return
    expected = {Deploy(*xy, an.board[xy].features[local].location, "wagon")
                for target in expected_connected_targets(an)
                for xy, local in an.features[target].nodes}
    assert set(moves) == expected, f"wagon from {(fx, fy)}: {moves}"


# -- action ids --------------------------------------------------------------------------------

def check_action_ids(game: bw.Game, actions: list[Any], ids: dict[int, Any]) -> None:
    """Each action survives id and JSON round trips, its id lies in the action space, and no
    two different actions share an id (`ids` collects id -> action across calls)."""
    size = game.num_distinct_actions
    for action in actions:
        action_id = game.action_id(action)
        assert type(action_id) is int and 0 <= action_id < size, (action, action_id, size)
        assert game.action_from_id(action_id) == action, (action, action_id)
        assert ids.setdefault(action_id, action) == action, (
            f"{action} and {ids[action_id]} share id {action_id}")
        data = json.loads(json.dumps(action.to_json()))
        assert game.action_from_json(data) == action, data


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
def about(cfg: Any, step: int | None = None) -> Iterator[None]:
    """Prefix a failing check with the game (and action number) so it can be replayed."""
    try:
        yield
    except AssertionError as exc:
        where = "" if step is None else f", action #{step}"
        raise AssertionError(f"{cfg}{where}: {exc}") from exc
