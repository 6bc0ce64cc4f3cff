"""The Carcassonne state: turn flow, legal actions, figure placement and scoring.

A turn is two decisions by the same player: place the drawn tile, then deploy a figure on
it or pass. Scoring and the next draw happen inside `apply`, so after every action the state
waits for a decision (or is over). The draw pile is shuffled once at set-up; drawing pops
from it, so no random generator lives in the state.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from boardwright.core.errors import GameOverError, IllegalActionError, MalformedActionError
from boardwright.core.game import State
from boardwright.core.record import GameRecord
from boardwright.games.carcassonne.actions import (
    PASS, Deploy, Pass, Place, check_deploy, check_place, pack, place_action, unpack,
)
from boardwright.games.carcassonne.features import FeatureGraph
from boardwright.games.carcassonne.scoring import feature_value, majority
from boardwright.games.carcassonne.tiles import FIELD, KIND_NAMES

if TYPE_CHECKING:
    from boardwright.games.carcassonne.game import CarcassonneGame

PLACE, DEPLOY, OVER = 0, 1, 2
PHASE_NAMES = ("place_tile", "deploy", "game_over")
ROLES = {0: "knight", 1: "highwayman", 2: "farmer", 3: "monk"}


class CarcassonneState(State):
    """One position of a Carcassonne game."""

    __slots__ = ("game", "graph", "pile", "discarded", "tile", "phase", "turn_player",
                 "last_pos", "pending", "_scores", "supply", "occupant", "history", "seed",
                 "log", "turn", "meta")

    def __init__(self, game: CarcassonneGame, seed: int, pile: list[str], start_tile: str) -> None:
        self.game = game
        self.seed = seed
        self.graph = FeatureGraph()
        self.pile = pile  # drawn from the end
        self.discarded: list[str] = []
        self.tile: str | None = None
        self.phase = PLACE
        self.turn_player = game.starting_seat
        self.last_pos: int | None = None
        self.pending: list[int] = []  # roots completed by the tile just placed
        self._scores = [0] * game.num_players
        self.supply = [{"follower": game.followers_per_player} for _ in range(game.num_players)]
        self.occupant: dict[int, tuple[int, str]] = {}  # part id -> (seat, figure)
        self.history: list[Place | Deploy | Pass] = []
        self.log: list[dict[str, Any]] = []
        self.turn = 0
        self.meta: dict[str, Any] = {}
        self.graph.add_tile(pack(0, 0), game.tile_types[start_tile].variants[0])
        self._draw()

    # -- the State protocol -----------------------------------------------------------------

    @property
    def current_player(self) -> int:
        return -1 if self.phase == OVER else self.turn_player

    @property
    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def scores(self) -> list[int]:
        return list(self._scores)

    @property
    def record(self) -> GameRecord:
        return GameRecord(
            game=self.game.name, version=self.game.version, options=self.game.option_summary(),
            seed=self.seed, players=self.game.num_players,
            actions=[a.to_json() for a in self.history], meta=dict(self.meta),
        )

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
        other.last_pos = self.last_pos
        other.pending = self.pending.copy()
        other._scores = self._scores.copy()
        other.supply = [s.copy() for s in self.supply]
        other.occupant = self.occupant.copy()
        other.history = self.history.copy()
        other.log = self.log.copy()
        other.turn = self.turn
        other.meta = dict(self.meta)
        return other

    def determinize(self, player: int, rng: random.Random) -> CarcassonneState:
        """Everyone knows which tiles remain (they are counted), only their order is hidden."""
        other = self.clone()
        rng.shuffle(other.pile)
        return other

    def legal_actions(self) -> list[Place | Deploy | Pass]:
        if self.phase == PLACE:
            fits = self.game.tile_types[self.tile].fits  # type: ignore[index]
            return [place_action(pos, q)
                    for pos, pattern in self.graph.frontier.items() for q in fits[pattern]]
        if self.phase == DEPLOY:
            return self._deploy_actions()
        return []

    def apply(self, action: Any) -> None:
        if isinstance(action, dict):
            action = self.game.action_from_json(action)
        if self.phase == OVER:
            raise GameOverError("the game is over; no action can be applied")
        cls = type(action)
        if self.phase == PLACE:
            if cls is not Place:
                raise IllegalActionError(self._wrong_phase(action, "place the tile"))
            self._apply_place(action)
        else:
            if cls is Pass:
                self.history.append(PASS)
            elif cls is Deploy:
                self._apply_deploy(action)
            else:
                raise IllegalActionError(self._wrong_phase(action, "deploy a figure or pass"))
            self._end_turn()

    # -- placing the tile ---------------------------------------------------------------------

    def _apply_place(self, action: Place) -> None:
        check_place(action)
        tile_type = self.game.tile_types[self.tile]  # type: ignore[index]
        pos = pack(action.x, action.y)
        pattern = self.graph.frontier.get(pos)
        if pattern is None:
            where = "is taken" if pos in self.graph.board else "touches no tile along a side"
            raise IllegalActionError(f"position ({action.x}, {action.y}) {where}")
        quarter = tile_type.canonical[action.rotation // 90]
        if quarter not in tile_type.fits[pattern]:
            raise IllegalActionError(
                f"tile {self.tile} turned {action.rotation} does not match its neighbours "
                f"at ({action.x}, {action.y})")
        self.history.append(place_action(pos, quarter))
        self.pending = self.graph.add_tile(pos, tile_type.variants[quarter])
        self.last_pos = pos
        self.turn += 1
        self.phase = DEPLOY

    # -- deploying a figure -------------------------------------------------------------------

    def _deploy_actions(self) -> list[Place | Deploy | Pass]:
        actions: list[Place | Deploy | Pass] = [PASS]
        if self.supply[self.turn_player]["follower"] <= 0:
            return actions
        pos = self.last_pos
        graph = self.graph
        variant, base = graph.board[pos]  # type: ignore[index]
        farmers = self.game.farmers
        x, y = unpack(pos)  # type: ignore[arg-type]
        for feature in variant.features:
            if feature.kind == FIELD and not farmers:
                continue
            if not graph.figures[graph.find(base + feature.index)]:
                actions.append(Deploy(x, y, feature.location, "follower"))
        return actions

    def _apply_deploy(self, action: Deploy) -> None:
        check_deploy(action)
        pos = pack(action.x, action.y)
        if pos != self.last_pos:
            raise IllegalActionError(
                f"a figure may only go on the tile just placed, not on ({action.x}, {action.y})")
        graph = self.graph
        variant, base = graph.board[pos]
        local = variant.location_index.get(action.location)
        if local is None:
            raise IllegalActionError(
                f"tile {variant.tile} at ({action.x}, {action.y}) has no feature at "
                f"{action.location!r}")
        if action.figure != "follower":
            raise IllegalActionError(f"figure {action.figure!r} is not in this game")
        seat = self.turn_player
        if self.supply[seat]["follower"] <= 0:
            raise IllegalActionError("no follower left in supply")
        feature = variant.features[local]
        if feature.kind == FIELD and not self.game.farmers:
            raise IllegalActionError("farmers are switched off in this game")
        part = base + local
        if graph.figures[graph.find(part)]:
            raise IllegalActionError(
                f"the {KIND_NAMES[feature.kind]} at {action.location} is already occupied")
        self.supply[seat]["follower"] -= 1
        self.occupant[part] = (seat, "follower")
        graph.place_figure(part)
        self.history.append(action)

    # -- scoring and turn change ----------------------------------------------------------------

    def _end_turn(self) -> None:
        for root in self.pending:
            self._score_feature(root, complete=True)
        self.pending = []
        self.turn_player = (self.turn_player + 1) % self.game.num_players
        self._draw()

    def _score_feature(self, root: int, complete: bool) -> None:
        graph = self.graph
        parts = graph.clear_figures(root)
        if not parts:
            return
        occupant = self.occupant
        owners = [occupant[p][0] for p in parts]
        points = feature_value(graph, root, complete, self.game.small_city_scoring)
        winners = majority(owners)
        for seat in winners:
            self._scores[seat] += points
        for part in parts:
            seat, figure = occupant.pop(part)
            self.supply[seat][figure] += 1
        self.log.append({"turn": self.turn, "feature": KIND_NAMES[graph.kind[root]],
                         "complete": complete, "points": points, "players": winners})

    def _draw(self) -> None:
        """Draw until a placeable tile comes up; an empty pile ends the game."""
        frontier = self.graph.frontier
        types = self.game.tile_types
        while self.pile:
            tile = self.pile.pop()
            fits = types[tile].fits
            for pattern in frontier.values():
                if fits[pattern]:
                    self.tile = tile
                    self.phase = PLACE
                    return
            self.discarded.append(tile)
        self.tile = None
        self._final_scoring()

    def _final_scoring(self) -> None:
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
                self._score_feature(root, complete=False)
        for root in field_roots:
            self._score_field(root)
        self.phase = OVER

    def _score_field(self, root: int) -> None:
        graph = self.graph
        parts = graph.clear_figures(root)
        owners = [self.occupant[p][0] for p in parts]
        points = 3 * len(graph.completed_cities(root))
        winners = majority(owners)
        for seat in winners:
            self._scores[seat] += points
        for part in parts:
            seat, figure = self.occupant.pop(part)
            self.supply[seat][figure] += 1
        self.log.append({"turn": self.turn, "feature": "field", "complete": False,
                         "points": points, "players": winners})

    # -- presentation ------------------------------------------------------------------------

    def _wrong_phase(self, action: Any, expected: str) -> str:
        name = type(action).__name__
        if not isinstance(action, (Place, Deploy, Pass)):
            raise MalformedActionError(f"not a Carcassonne action: {action!r}")
        return f"{name} is not possible now: the player must {expected}"

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
        out.sort(key=lambda f: (f["y"], f["x"], f["location"]))
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
                isinstance(player, int) and 0 <= player < self.game.num_players):
            raise IllegalActionError(f"no seat {player!r} in this game")
        remaining = Counter(self.pile)
        view: dict[str, Any] = {
            "game": self.game.name,
            "players": self.game.num_players,
            "viewer": player,
            "phase": PHASE_NAMES[self.phase],
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
            "log": list(self.log),
            "is_terminal": self.is_terminal,
            "winners": self.winners(),
        }
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
             graph.pennants[root], tuple(sorted(graph.figures[root])))
            for root, parts in components.items()
        )
        return (
            tuple(sorted((pos, v.tile, v.rotation, base) for pos, (v, base) in graph.board.items())),
            tuple(sorted(graph.frontier.items())), tuple(features), tuple(self.pile),
            tuple(self.discarded), self.tile, self.phase, self.turn_player, self.last_pos,
            tuple(self.pending), tuple(self._scores), tuple(tuple(sorted(s.items())) for s in self.supply),
            tuple(sorted(self.occupant.items())), tuple(self.history), self.turn, len(self.log),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CarcassonneState):
            return NotImplemented
        return (self.game.options == other.game.options
                and self.game.num_players == other.game.num_players
                and self.signature() == other.signature())

    __hash__ = None  # type: ignore[assignment]
