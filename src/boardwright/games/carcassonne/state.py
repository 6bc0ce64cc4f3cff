"""The Carcassonne state: turn flow, legal actions, figure placement and scoring.

A turn is: (a capability may offer a choice before drawing) → place the drawn tile → deploy a
figure on it or pass → score → (capabilities may ask for more decisions, e.g. wagon moves) →
next turn. Scoring and drawing happen inside `apply`, so after every action the state waits
for a decision or is over. The draw pile is shuffled once at set-up; drawing pops from it, so
no random generator lives in the state.

Expansion rules live in capability modules (`capabilities/`); this module calls their hooks at
fixed points and keeps the data they need (wagon queue, final round, barns) so `clone()` copies
everything in one place.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from boardwright.core.chance import ChanceScript
from boardwright.core.errors import GameOverError, IllegalActionError, MalformedActionError
from boardwright.core.game import State
from boardwright.core.inputs import coerce_action, short_repr
from boardwright.core.record import GameRecord, record_of
from boardwright.games.carcassonne.actions import (
    PASS, Deploy, Draw, Pass, Place, PlaceAbbey, check_deploy, check_place, pack, place_action,
    unpack,
)
from boardwright.games.carcassonne.features import FeatureGraph
from boardwright.games.carcassonne.scoring import feature_value, majority
from boardwright.games.carcassonne.texts import seat_names, with_texts
from boardwright.games.carcassonne.tiles import FIELD, KIND_NAMES

if TYPE_CHECKING:
    from boardwright.games.carcassonne.game import CarcassonneGame

PLACE, DEPLOY, OVER = "place_tile", "deploy", "game_over"
ROLES = {0: "knight", 1: "highwayman", 2: "farmer", 3: "monk"}
ACTION_TYPES = (Place, Deploy, Pass, Draw, PlaceAbbey)


class CarcassonneState(State):
    """One position of a Carcassonne game."""

    __slots__ = ("game", "graph", "pile", "discarded", "tile", "phase", "turn_player", "actor",
                 "last_pos", "pending", "_scores", "supply", "occupant", "history", "seed",
                 "log", "turn", "meta", "wagon_queue", "final_round", "barn_owner", "new_barn",
                 "chance")

    def __init__(self, game: CarcassonneGame, seed: int, pile: list[str], start_tile: str) -> None:
        self.setup(game, seed, pile, start_tile)
        self.start_turn()

    def setup(self, game: CarcassonneGame, seed: int, pile: list[str], start_tile: str) -> None:
        """Everything before the first turn: start tile laid, supplies filled, pile set."""
        self.game = game
        self.seed = seed
        self.graph = FeatureGraph()
        self.pile = pile  # drawn from the end
        self.discarded: list[str] = []
        self.tile: str | None = None
        self.phase = PLACE
        self.turn_player = game.starting_seat
        self.actor = self.turn_player  # who decides now (a wagon owner may act in another's turn)
        self.last_pos: int | None = None
        self.pending: list[int] = []  # roots completed by the tile just placed
        self._scores = [0] * game.num_players
        self.supply = [dict(game.supply_per_player) for _ in range(game.num_players)]
        self.occupant: dict[int, tuple[int, str]] = {}  # part id -> (seat, figure)
        self.history: list[Any] = []
        self.log: list[dict[str, Any]] = []
        self.turn = 0
        self.meta: dict[str, Any] = {}
        self.wagon_queue: list[tuple[int, int, int]] = []  # (seat, pos, scored root) to decide
        self.final_round: list[int] | None = None  # seats still to visit in the final round
        self.barn_owner: dict[int, int] = {}  # barn point -> seat
        self.new_barn: int | None = None  # barn point placed this turn
        # Chance mode (`CarcassonneGame.new_chance_game`): the script that says which tile is
        # drawn; None in ordinary games, whose pile was shuffled at `new_game(seed)`.
        self.chance: ChanceScript | None = None
        self.graph.add_tile(pack(0, 0), game.tile_types[start_tile].variants[0])

    # -- the State protocol -----------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return -1 if self.phase == OVER else self.actor

    @property
    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def at_turn_start(self) -> bool:
        """The first decision of a turn: placing the tile drawn for it, choosing between
        drawing and an abbey, or a turn of the final abbey round. Placing the tile drawn after
        choosing to draw belongs to the turn that began with the choice."""
        if self.phase not in self.game.turn_start_phases or self.actor != self.turn_player:
            return False
        history = self.history
        return not (self.phase == PLACE and history and type(history[-1]) is Draw)

    @property
    def scores(self) -> list[int]:
        return list(self._scores)

    @property
    def record(self) -> GameRecord:
        return record_of(self.game, self.seed, self.history, self.meta)

    def clone(self) -> CarcassonneState:
        other = CarcassonneState.__new__(CarcassonneState)
        other.game = self.game
        other.seed = self.seed
        other.graph = self.graph.copy()
        other.pile = self.pile.copy()
        other.discarded = self.discarded.copy()
        other.tile = self.tile
        other.phase = self.phase
        other.turn_player = self.turn_player
        other.actor = self.actor
        other.last_pos = self.last_pos
        other.pending = self.pending.copy()
        other._scores = self._scores.copy()
        other.supply = [s.copy() for s in self.supply]
        other.occupant = self.occupant.copy()
        other.history = self.history.copy()
        other.log = self.log.copy()
        other.turn = self.turn
        other.meta = dict(self.meta)
        other.wagon_queue = self.wagon_queue.copy()
        other.final_round = None if self.final_round is None else self.final_round.copy()
        other.barn_owner = self.barn_owner.copy()
        other.new_barn = self.new_barn
        other.chance = self.chance
        return other

    def attach_chance(self, script: ChanceScript) -> None:
        self.chance = script

    def determinize(self, player: int, rng: random.Random) -> CarcassonneState:
        """Everyone knows which tiles remain (they are counted), only their order is hidden.

        The pile is put in a fixed order (by tile index, as the native engine holds it) before
        it is shuffled, so a sample depends on `rng` and the remaining tiles alone: with the
        same `rng`, positions that differ only in the hidden order give the same sample, and a
        seeded search or analysis cannot vary with what the player does not know."""
        other = self.clone()
        other.pile.sort(key=self.game._tile_index.__getitem__)
        rng.shuffle(other.pile)
        return other

    def legal_actions(self) -> list[Any]:
        """Every legal action, one per distinct result: the definition of legality. `apply`
        accepts exactly these (it checks the same data: `TileType.fits`, which holds the first
        of equivalent rotations only, the deploy rules below, a capability's own list), and
        `is_legal` and the action-id masks of the RL adapters are built from this list."""
        phase = self.phase
        if phase == PLACE:
            fits = self.game.tile_types[self.tile].fits  # type: ignore[index]
            return [place_action(pos, q)
                    for pos, pattern in self.graph.frontier.items() for q in fits[pattern]]
        if phase == DEPLOY:
            return self._deploy_actions()
        if phase == OVER:
            return []
        return self.game.phase_owner[phase].phase_actions(self)

    def apply(self, action: Any) -> None:
        action = coerce_action(self.game, action, ACTION_TYPES)
        phase = self.phase
        if phase == OVER:
            raise GameOverError("the game is over; no action can be applied")
        cls = type(action)
        if cls not in ACTION_TYPES:
            raise MalformedActionError(f"not a Carcassonne action: {short_repr(action)}")
        if phase == PLACE:
            if cls is not Place:
                raise IllegalActionError(self._wrong_phase(action))
            self._apply_place(action)
        elif phase == DEPLOY:
            if cls is Pass:
                self.history.append(PASS)
            elif cls is Deploy:
                self._apply_deploy(action)
            else:
                raise IllegalActionError(self._wrong_phase(action))
            self._finish_turn()
        else:
            self.game.phase_owner[phase].apply_phase(self, action)

    # -- placing a tile -------------------------------------------------------------------------

    def _apply_place(self, action: Place) -> None:
        check_place(action)
        tile_type = self.game.tile_types[self.tile]  # type: ignore[index]
        pos = pack(action.x, action.y)
        pattern = self.graph.frontier.get(pos)
        if pattern is None:
            where = "is taken" if pos in self.graph.board else "touches no tile along a side"
            raise IllegalActionError(f"position ({action.x}, {action.y}) {where}")
        # `fits` holds only the first of equivalent quarter turns, exactly what
        # `legal_actions` lists: an equivalent turn is refused, not silently replaced.
        quarter = action.rotation // 90
        fits = tile_type.fits[pattern]
        if quarter not in fits:
            same = tile_type.canonical[quarter]
            if same != quarter and same in fits:
                raise IllegalActionError(
                    f"tile {self.tile} is symmetric: rotation {action.rotation} is the same "
                    f"placement as rotation {90 * same}, play that")
            raise IllegalActionError(
                f"tile {self.tile} turned {action.rotation} does not match its neighbours "
                f"at ({action.x}, {action.y})")
        self.history.append(place_action(pos, quarter))
        self.put_tile(pos, tile_type.variants[quarter])

    def put_tile(self, pos: int, variant: Any) -> None:
        """Lay a validated tile (landscape or abbey) and open the figure step."""
        self.pending = self.graph.add_tile(pos, variant)
        self.last_pos = pos
        self.turn += 1
        self.phase = DEPLOY

    # -- deploying a figure ---------------------------------------------------------------------

    def _deploy_actions(self) -> list[Any]:
        actions: list[Any] = [PASS]
        pos = self.last_pos
        graph = self.graph
        variant, base = graph.board[pos]  # type: ignore[index]
        supply = self.supply[self.turn_player]
        rules = [rule for rule in self.game.figure_rules if supply[rule.name] > 0]
        if rules:
            find = graph.find
            figures = graph.figures
            x, y = unpack(pos)  # type: ignore[arg-type]
            for feature in variant.features:
                root = find(base + feature.index)
                if figures[root]:
                    continue
                kind = feature.kind
                if kind == FIELD and graph.barns[root]:
                    continue
                for rule in rules:
                    if kind in rule.kinds:
                        actions.append(Deploy(x, y, feature.location, rule.name))
        for capability in self.game.deploy_actions_hooks:
            actions.extend(capability.deploy_actions(self))
        return actions

    def _apply_deploy(self, action: Deploy) -> None:
        check_deploy(action)
        if action.figure not in self.game.figures:
            raise MalformedActionError(
                f"unknown figure {action.figure!r}; this game has {', '.join(self.game.figures)}")
        pos = pack(action.x, action.y)
        if pos != self.last_pos:
            raise IllegalActionError(
                f"a figure may only go on the tile just placed, not on ({action.x}, {action.y})")
        rule = self.game.figure_rule.get(action.figure)
        if rule is None:
            for capability in self.game.deploy_actions_hooks:
                if capability.apply_deploy(self, action):
                    self.history.append(action)
                    return
            raise IllegalActionError(f"figure {action.figure!r} is not in this game")
        seat = self.turn_player
        if self.supply[seat].get(action.figure, 0) <= 0:
            raise IllegalActionError(f"no {action.figure} left in supply")
        part = self.check_free_part(pos, action.location, rule.kinds, action.figure)
        self.put_figure(seat, action.figure, part)
        self.history.append(action)

    def check_free_part(self, pos: int, location: str, kinds: frozenset[int], figure: str) -> int:
        """The part at `location` of the tile at pos, if `figure` may stand there now."""
        graph = self.graph
        variant, base = graph.board[pos]
        local = variant.location_index.get(location)
        x, y = unpack(pos)
        if local is None:
            raise IllegalActionError(f"tile {variant.tile} at ({x}, {y}) has no feature at {location!r}")
        kind = variant.features[local].kind
        if kind not in kinds:
            if kind == FIELD and figure == "follower":
                raise IllegalActionError("farmers are switched off in this game")
            raise IllegalActionError(f"a {figure} cannot go on a {KIND_NAMES[kind]}")
        root = graph.find(base + local)
        if graph.figures[root]:
            raise IllegalActionError(f"the {KIND_NAMES[kind]} at {location} is already occupied")
        if kind == FIELD and graph.barns[root]:
            raise IllegalActionError(f"the field at {location} holds a barn; no farmer may join it")
        return base + local

    def put_figure(self, seat: int, figure: str, part: int) -> None:
        self.supply[seat][figure] -= 1
        self.occupant[part] = (seat, figure)
        self.graph.place_figure(part)

    # -- scoring and turn change ------------------------------------------------------------------

    def _finish_turn(self) -> None:
        for root in self.pending:
            self.score_feature(root, complete=True)
        self.pending = []
        for capability in self.game.after_scoring_hooks:
            capability.after_scoring(self)
        self.new_barn = None
        self.resume_turn()

    def resume_turn(self) -> None:
        """Give capabilities their decisions of this turn, then move to the next turn."""
        for capability in self.game.before_next_turn_hooks:
            if capability.before_next_turn(self):
                return
        self.advance()

    def advance(self) -> None:
        for capability in self.game.next_turn_hooks:
            if capability.next_turn(self):
                return
        self.turn_player = (self.turn_player + 1) % self.game.num_players
        self.start_turn()

    def start_turn(self) -> None:
        self.actor = self.turn_player
        for capability in self.game.begin_turn_hooks:
            if capability.begin_turn(self):
                return
        self.draw()

    def strengths(self, root: int, parts: tuple[int, ...]) -> list[int] | None:
        """Strength of each figure in a feature, or None when all count 1."""
        occupant = self.occupant
        rules = self.game.figure_rule
        if all(rules[occupant[p][1]].constant_strength for p in parts):
            return None
        return [rules[occupant[p][1]].strength(self.graph, root) for p in parts]

    def score_feature(self, root: int, complete: bool) -> None:
        graph = self.graph
        parts = graph.clear_figures(root)
        if not parts:
            return
        occupant = self.occupant
        owners = [occupant[p][0] for p in parts]
        points = feature_value(graph, root, complete, self.game.small_city_scoring)
        winners = majority(owners, self.strengths(root, parts))
        self.add_points(winners, points, KIND_NAMES[graph.kind[root]], complete)
        release_hooks = self.game.figure_released_hooks
        for part in parts:
            seat, figure = occupant.pop(part)
            for capability in release_hooks:
                if capability.figure_released(self, seat, figure, part, root, complete):
                    break
            else:
                self.supply[seat][figure] += 1

    def add_points(self, winners: list[int], points: int, feature: str, complete: bool,
                   reason: str = "") -> None:
        for seat in winners:
            self._scores[seat] += points
        entry = {"turn": self.turn, "feature": feature, "complete": complete,
                 "points": points, "players": winners}
        if reason:
            entry["reason"] = reason
        self.log.append(entry)

    def draw(self) -> None:
        """Draw until a placeable tile comes up; an empty pile ends the game (or its last round)."""
        frontier = self.graph.frontier
        types = self.game.tile_types
        discarded_now = False
        while self.pile:
            if self.chance is not None:
                self._chance_draw()
            tile = self.pile.pop()
            fits = types[tile].fits
            for pattern in frontier.values():
                if fits[pattern]:
                    self.tile = tile
                    self.phase = PLACE
                    return
            self.discarded.append(tile)
            discarded_now = True
        self.tile = None
        # Who placed the last landscape tile: the drawer if the pile ran out on discards.
        n = self.game.num_players
        last_player = self.turn_player if discarded_now else (self.turn_player - 1) % n
        for capability in self.game.pile_empty_hooks:
            if capability.pile_empty(self, last_player):
                return
        self.final_scoring()

    def _chance_draw(self) -> None:
        """Chance mode: the pile is unordered; the tile drawn is a chance event, uniform over
        the tiles left (outcome: the tile's index in the game's tile list). It is put on top
        of the pile, which `draw` then pops. A fixed draw order (the `draw_order` option)
        leaves no chance."""
        if self.game.config.draw_order is not None:
            return
        index = self.game._tile_index
        weights: dict[int, int] = {}
        for tile in self.pile:
            weights[index[tile]] = weights.get(index[tile], 0) + 1
        name = self.game._tile_names[self.chance.choose(weights)]  # type: ignore[union-attr]
        pile = self.pile
        at = len(pile) - 1 - pile[::-1].index(name)
        pile[at], pile[-1] = pile[-1], pile[at]

    def final_scoring(self) -> None:
        graph = self.graph
        find = graph.find
        seen: set[int] = set()
        field_roots: list[int] = []
        for part in list(self.occupant):
            root = find(part)
            if root in seen:
                continue
            seen.add(root)
            if graph.kind[root] == FIELD:
                field_roots.append(root)
            else:
                self.score_feature(root, complete=False)
        for root in field_roots:
            self.score_field(root, points_per_city=3)
        for capability in self.game.final_scoring_hooks:
            capability.final_scoring(self)
        self.phase = OVER
        self.actor = -1
        self.tile = None

    def score_field(self, root: int, points_per_city: int, reason: str = "") -> None:
        """Score the farmers of a field for its majority; the farmers return to supply."""
        graph = self.graph
        parts = graph.clear_figures(root)
        if not parts:
            return
        owners = [self.occupant[p][0] for p in parts]
        points = points_per_city * len(graph.completed_cities(root))
        self.add_points(majority(owners), points, "field", False, reason)
        for part in parts:
            seat, figure = self.occupant.pop(part)
            self.supply[seat][figure] += 1

    # -- presentation ------------------------------------------------------------------------

    def _wrong_phase(self, action: Any) -> str:
        return f"{type(action).__name__} is not possible now (phase {self.phase})"

    def followers_on_board(self) -> list[dict[str, Any]]:
        graph = self.graph
        out = []
        for part, (seat, figure) in self.occupant.items():
            pos = graph.part_pos[part]
            variant, _ = graph.board[pos]
            feature = variant.features[graph.part_local[part]]
            x, y = unpack(pos)
            out.append({"player": seat, "x": x, "y": y, "location": feature.location,
                        "figure": figure, "role": ROLES[feature.kind]})
        out.sort(key=lambda f: (f["y"], f["x"], f["location"], f["figure"]))
        return out

    def board_tiles(self) -> list[dict[str, Any]]:
        tiles = []
        for pos, (variant, _) in self.graph.board.items():
            x, y = unpack(pos)
            tiles.append({"x": x, "y": y, "tile": variant.tile, "rotation": variant.rotation})
        return tiles

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        best = max(self._scores)
        return [seat for seat, score in enumerate(self._scores) if score == best]

    def view(self, player: int | None) -> dict[str, Any]:
        if player is not None and not (
                type(player) is int and 0 <= player < self.game.num_players):
            raise IllegalActionError(f"no seat {short_repr(player)} in this game")
        remaining = Counter(self.pile)
        view: dict[str, Any] = {
            "game": self.game.name,
            "players": self.game.num_players,
            "viewer": player,
            "phase": self.phase,
            "turn": self.turn,
            "turn_player": self.turn_player,
            "current_player": self.current_player,
            "tile": self.tile,
            "last_placed": None if self.last_pos is None else dict(zip("xy", unpack(self.last_pos))),
            "board": self.board_tiles(),
            "followers": self.followers_on_board(),
            "scores": self.scores,
            "supply": [dict(s) for s in self.supply],
            "draw_pile_size": len(self.pile),
            "remaining_tiles": dict(sorted(remaining.items())),
            "discarded": list(self.discarded),
            # each scoring with its line (texts.scoring_line)
            "log": with_texts(self.log, seat_names(self.game)),
            "is_terminal": self.is_terminal,
            "winners": self.winners(),
        }
        for capability in self.game.capabilities:
            capability.view(self, view)
        owner = self.game.phase_owner.get(self.phase)
        if owner is not None:
            view.update(owner.describe_phase(self))
        if player is not None and player == self.current_player:
            view["legal_actions"] = [a.to_json() for a in self.legal_actions()]
        return view

    def signature(self) -> tuple:
        """A complete, canonical description of the position (for equality in tests).

        Features are described by their parts' canonical roots (smallest part id), so two
        states that differ only in union-find path compression compare equal.
        """
        graph = self.graph
        components: dict[int, list[int]] = {}
        for part in range(len(graph.parent)):
            components.setdefault(graph.find(part), []).append(part)
        features = sorted(
            (min(parts), tuple(parts), graph.open[root], graph.tile_count(root),
             graph.pennants[root], tuple(sorted(graph.figures[root])),
             tuple(sorted(graph.barns[root])))
            for root, parts in components.items()
        )
        return (
            tuple(sorted((pos, v.tile, v.rotation, base) for pos, (v, base) in graph.board.items())),
            tuple(sorted(graph.frontier.items())), tuple(features), tuple(self.pile),
            tuple(self.discarded), self.tile, self.phase, self.turn_player, self.actor,
            self.last_pos, tuple(self.pending), tuple(self._scores),
            tuple(tuple(sorted(s.items())) for s in self.supply),
            tuple(sorted(self.occupant.items())), tuple(self.history), self.turn, len(self.log),
            tuple(self.wagon_queue), None if self.final_round is None else tuple(self.final_round),
            tuple(sorted(self.barn_owner.items())), self.new_barn,
        )

    def public_signature(self) -> tuple:
        """Everything of the position that can change the game's future, as every seat may
        know it: equal for two positions that play on alike whatever led to them, different
        otherwise (the key the lossless observation is checked against).

        Tiles, figures, barns and waiting wagons are named by (x, y) and feature locations,
        never by part ids, so the same board laid in another order gives the same key; the
        draw pile counts as the tiles it holds, not their hidden order. Left out: history,
        log, discarded tiles, the turn count and the seed."""
        graph = self.graph
        board = graph.board

        def where(part: int) -> tuple[tuple[int, int], str]:
            pos = graph.part_pos[part]
            return unpack(pos), board[pos][0].features[graph.part_local[part]].location

        def wagon(seat: int, pos: int, root: int) -> tuple:
            # The wagon's feature, by the locations of its parts on the wagon's tile.
            find = graph.find
            return seat, unpack(pos), tuple(sorted(
                board[pos][0].features[part - board[pos][1]].location
                for part in graph.parts_on(pos) if find(part) == root))

        return (
            tuple(sorted((unpack(pos), v.tile, v.rotation) for pos, (v, _) in board.items())),
            tuple(sorted((*where(part), seat, figure)
                         for part, (seat, figure) in self.occupant.items())),
            tuple(sorted((unpack(point), seat) for point, seat in self.barn_owner.items())),
            tuple(self._scores),
            tuple(tuple(sorted(s.items())) for s in self.supply),
            tuple(sorted(Counter(self.pile).items())),
            self.tile, self.phase, self.turn_player, self.current_player,
            None if self.last_pos is None else unpack(self.last_pos),
            tuple(wagon(*entry) for entry in self.wagon_queue),
            None if self.final_round is None else tuple(self.final_round),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CarcassonneState):
            return NotImplemented
        return (self.game.options == other.game.options
                and self.game.num_players == other.game.num_players
                and self.signature() == other.signature())

    __hash__ = None  # type: ignore[assignment]
