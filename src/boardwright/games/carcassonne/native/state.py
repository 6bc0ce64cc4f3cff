"""The state of the native engine: the C++ core, with the Python API around it.

The hot protocol (`legal_actions`, `apply` of a listed action, `clone`, `current_player`,
`is_terminal`, `scores`, `at_turn_start`) runs in C++ without a Python frame. Everything else
(views, records, signatures) is built here from the core's raw data, in the same shape as the
Python engine's. Input that is not one of the listed action objects goes through
`_apply_slow`: it is applied when it names a legal action, and otherwise answered by the Python
engine itself on the same position (`to_python`), so both engines give the same error.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from boardwright.core.errors import BoardwrightError, IllegalActionError, InvalidOptionError
from boardwright.core.game import State
from boardwright.core.inputs import coerce_action, short_repr
from boardwright.core.record import GameRecord, record_of
from boardwright.games.carcassonne.actions import unpack
from boardwright.games.carcassonne.native import _engine
from boardwright.games.carcassonne.native.convert import (
    FEATURES, NATIVE_PHASES, REASONS, native_from_python, python_from_native,
)
from boardwright.games.carcassonne.state import ACTION_TYPES, ROLES, CarcassonneState
from boardwright.games.carcassonne.texts import seat_names, with_texts

if TYPE_CHECKING:
    from boardwright.games.carcassonne.game import CarcassonneGame



class EngineDivergence(AssertionError):
    """The native engine and the Python reference disagree: a bug in one of them."""


class NativeCarcassonneState(_engine.Core):  # type: ignore[misc, name-defined]
    """One position of a Carcassonne game, held by the native engine."""

    __slots__ = ()

    def __init__(self, game: CarcassonneGame, seed: int, pile: list[Any],
                 raw_pile: bool = False, explicit_chance: bool = False) -> None:
        """A new game with `pile` (tile names, drawn from the end; tile indexes if `raw_pile`).

        `explicit_chance`: chance mode (`CarcassonneGame.new_chance_game(native=True)`), where
        the pile is unordered and every draw with more than one tile type left is a chance
        node (`is_chance_node`, `chance_outcomes`, `apply_chance`); a game with a `draw_order`
        has no chance, so no chance mode."""
        if not raw_pile:
            index = game._tile_index
            pile = [index[name] for name in pile]
        super().__init__(game._native_spec, game, seed, pile, explicit_chance)

    @classmethod
    def from_python(cls, state: CarcassonneState) -> NativeCarcassonneState:
        """The same position as a Python-engine state (whose game runs the native engine)."""
        return native_from_python(state, cls)

    def __reduce__(self) -> tuple:
        """Pickled as its Python twin (plain data), moved back on load: worker processes of
        searches and simulations get native states. A chance-mode state keeps its mode (and,
        at a chance node, the draw under way)."""
        if self.explicit_chance:
            return (_chance_from_python, (self.to_python(), self._chance_discarded))
        return (_from_python, (self.to_python(),))

    # -- chance mode (the protocol of core/chance.py's ExplicitChanceState) -------------------

    @property
    def inner(self) -> NativeCarcassonneState:
        """The position itself: a native chance-mode state is its own position (at a chance
        node, the position with the draw under way). It stands where `ExplicitChanceState.inner`
        is read."""
        return self

    @property
    def has_position(self) -> bool:
        """Always: the set-up lays the start tile before the first draw."""
        return True

    def _refuse_chance(self, outcome: Any) -> None:
        """`apply_chance` of anything but a tile type the pile holds at a chance node: the
        reason, as `ExplicitChanceState.apply_chance` gives it (the state is unchanged)."""
        if not self.is_chance_node:
            raise IllegalActionError("no chance event is pending: a seat must decide")
        possible = [outcome for outcome, _ in self.chance_outcomes()]
        raise IllegalActionError(f"chance outcome {short_repr(outcome)} is not possible here; "
                                 f"possible: {short_repr(possible)}")

    # -- the rest of the State protocol --------------------------------------------------------

    returns = State.returns
    is_legal = State.is_legal

    def determinize(self, player: int, rng: random.Random) -> NativeCarcassonneState:
        """Everyone knows which tiles remain (they are counted), only their order is hidden:
        the pile is sorted (tile indexes) before the shuffle, so the sample does not depend on
        the hidden order (see the Python engine's `determinize`)."""
        other = self.clone()
        pile = sorted(other._pile)
        rng.shuffle(pile)
        other._pile = pile
        return other

    @property
    def record(self) -> GameRecord:
        if self.explicit_chance:
            raise InvalidOptionError("a chance-mode state has no seed, so no seeded record: its "
                                     "actions and chance outcomes replay it on a new "
                                     "new_chance_game(native=True)")
        return record_of(self.game, self.seed, self.history, self.meta)

    def _apply_slow(self, action: Any) -> None:
        """Input that is not a listed action object: its JSON form, an equal action built in
        code, or something illegal or malformed, which the Python engine answers."""
        if self.is_chance_node:
            raise IllegalActionError("a chance event is pending: apply_chance first")
        game = self.game
        try:
            action_id = game.action_id(coerce_action(game, action, ACTION_TYPES))
        except BoardwrightError:
            action_id = None
        if action_id is not None and self._is_legal_id(action_id):
            self._apply_id(action_id)
            return
        reference = self.to_python()
        reference.apply(action)  # raises the reference's error
        raise EngineDivergence(f"the Python engine accepts {short_repr(action)}, which the "
                               "native engine does not list")

    def to_python(self) -> CarcassonneState:
        """The same position in the Python engine."""
        return python_from_native(self)

    # -- the Python engine's attributes, read from the core ------------------------------------

    @property
    def phase(self) -> str:
        return NATIVE_PHASES[self._phase]

    @property
    def tile(self) -> str | None:
        tile = self._tile
        return None if tile < 0 else self.game._tile_names[tile]

    @property
    def last_pos(self) -> int | None:
        return self._last_pos

    @property
    def pending(self) -> list[int]:
        return self._pending

    @property
    def pile(self) -> list[str]:
        names = self.game._tile_names
        return [names[t] for t in self._pile]

    @property
    def discarded(self) -> list[str]:
        names = self.game._tile_names
        return [names[t] for t in self._discarded]

    @property
    def history(self) -> list[Any]:
        action = self.game._native_spec.action_object
        return [action(i) for i in self._history]

    @property
    def supply(self) -> list[dict[str, int]]:
        game = self.game
        figures = game.figures
        flat = self._supply
        abbeys = self._abbeys_left
        out = []
        for seat in range(game.num_players):
            counts = dict(zip(figures, flat[seat * len(figures):(seat + 1) * len(figures)]))
            if game.config.abbeys:
                counts["abbey"] = abbeys[seat]
            out.append({name: counts[name] for name in game.supply_per_player})
        return out

    @property
    def occupant(self) -> dict[int, tuple[int, str]]:
        figures = self.game.figures
        return {part: (seat, figures[figure]) for part, seat, figure in self._occupant}

    @property
    def log(self) -> list[dict[str, Any]]:
        out = []
        for turn, feature, complete, points, players, reason in self._log:
            entry: dict[str, Any] = {
                "turn": turn, "feature": FEATURES[feature], "complete": complete,
                "points": points, "players": [s for s in range(8) if players >> s & 1]}
            if reason:
                entry["reason"] = REASONS[reason]
            out.append(entry)
        return out

    @property
    def wagon_queue(self) -> list[tuple[int, int, int]]:
        return [tuple(entry) for entry in self._wagon_queue]  # type: ignore[misc]

    @property
    def final_round(self) -> list[int] | None:
        return self._final_round

    @property
    def barn_owner(self) -> dict[int, int]:
        return {point: seat for point, seat, _ in self._barns}

    @property
    def new_barn(self) -> int | None:
        return self._new_barn

    @property
    def graph(self) -> Any:
        """The Python engine's feature graph of this position (rebuilt: for presentation)."""
        return self.to_python().graph

    # -- presentation (the shapes of CarcassonneState's) ----------------------------------------

    def _variants(self) -> list[tuple[int, Any, int]]:
        """(pos, variant, base) of every placed tile, in placement order."""
        types = self.game._tile_list
        return [(pos, types[t].variants[q], base) for pos, t, q, base in self._tiles]

    def board_tiles(self) -> list[dict[str, Any]]:
        out = []
        for pos, variant, _ in self._variants():
            x, y = unpack(pos)
            out.append({"x": x, "y": y, "tile": variant.tile, "rotation": variant.rotation})
        return out

    def followers_on_board(self) -> list[dict[str, Any]]:
        placed = self._variants()
        starts = [base for _, _, base in placed]
        figures = self.game.figures
        out = []
        for part, seat, figure in self._occupant:
            index = _tile_of(starts, part)
            pos, variant, base = placed[index]
            feature = variant.features[part - base]
            x, y = unpack(pos)
            out.append({"player": seat, "x": x, "y": y, "location": feature.location,
                        "figure": figures[figure], "role": ROLES[feature.kind]})
        out.sort(key=lambda f: (f["y"], f["x"], f["location"], f["figure"]))
        return out

    def winners(self) -> list[int]:
        if not self.is_terminal:
            return []
        scores = self.scores
        best = max(scores)
        return [seat for seat, score in enumerate(scores) if score == best]

    def view(self, player: int | None) -> dict[str, Any]:
        game = self.game
        if player is not None and not (type(player) is int and 0 <= player < game.num_players):
            raise IllegalActionError(f"no seat {short_repr(player)} in this game")
        last = self._last_pos
        view: dict[str, Any] = {
            "game": game.name,
            "players": game.num_players,
            "viewer": player,
            "phase": self.phase,
            "turn": self.turn,
            "turn_player": self.turn_player,
            "current_player": self.current_player,
            "tile": self.tile,
            "last_placed": None if last is None else dict(zip("xy", unpack(last))),
            "board": self.board_tiles(),
            "followers": self.followers_on_board(),
            "scores": self.scores,
            "supply": self.supply,
            "draw_pile_size": len(self._pile),
            "remaining_tiles": dict(sorted(Counter(self.pile).items())),
            "discarded": self.discarded,
            "log": with_texts(self.log, seat_names(game)),
            "is_terminal": self.is_terminal,
            "winners": self.winners(),
        }
        config = game.config
        holes = [dict(zip("xy", unpack(pos))) for pos, pattern in self._frontier
                 if all((pattern >> (2 * side)) & 3 for side in range(4))]
        if config.abbeys:
            view["final_round"] = self.final_round
        if config.mayors:
            for figure in view["followers"]:
                if figure["figure"] == "mayor":
                    figure["lying"] = config.mayor_lies_flat
        queue = self._wagon_queue
        if config.wagons:
            view["waiting_wagons"] = [{"player": seat, "x": unpack(pos)[0], "y": unpack(pos)[1]}
                                      for seat, pos, _ in queue]
        if config.barns:
            view["barns"] = [{"player": seat, "corner": dict(zip("xy", unpack(point)))}
                             for point, seat in sorted(self.barn_owner.items())]
        phase = self.phase
        if phase in ("choose_tile", "final_abbey_round"):
            view["holes"] = holes
        elif phase == "wagon_move":
            seat, pos, _ = queue[0]
            view["wagon"] = {"player": seat, "from": dict(zip("xy", unpack(pos)))}
        if player is not None and player == self.current_player:
            view["legal_actions"] = [a.to_json() for a in self.legal_actions()]
        if self.explicit_chance:
            view["chance_node"] = self.is_chance_node
        return view

    def signature(self) -> tuple:
        """The Python engine's `CarcassonneState.signature` of this position, built from the
        core: equal signatures mean equal positions, part ids and roots included."""
        names = self.game._tile_names
        roots = self._roots()
        components: dict[int, list[int]] = {}
        for part, root in enumerate(roots):
            components.setdefault(root, []).append(part)
        features = self._features()
        feature_rows = sorted(
            (min(parts), tuple(parts), features[root][0], features[root][1], features[root][2],
             tuple(sorted(features[root][3])), tuple(sorted(features[root][4])))
            for root, parts in components.items())
        figures = self.game.figures
        return (
            tuple(sorted((pos, names[t], 90 * q, base) for pos, t, q, base in self._tiles)),
            tuple(sorted(self._frontier)), tuple(feature_rows), tuple(self.pile),
            tuple(self.discarded), self.tile, self.phase, self.turn_player, self.actor,
            self._last_pos, tuple(self._pending), tuple(self.scores),
            tuple(tuple(sorted(s.items())) for s in self.supply),
            tuple(sorted((part, (seat, figures[figure])) for part, seat, figure in self._occupant)),
            tuple(self.history), self.turn, self._log_size,
            tuple(self.wagon_queue),
            None if self._final_round is None else tuple(self._final_round),
            tuple(sorted(self.barn_owner.items())), self._new_barn,
        )

    def public_signature(self) -> tuple:
        """`CarcassonneState.public_signature` of this position, built from the core: what can
        change the game's future, without part ids, history or the pile's order."""
        placed = self._variants()
        starts = [base for _, _, base in placed]
        roots = self._roots()

        def where(part: int) -> tuple[Any, str]:
            pos, variant, base = placed[_tile_of(starts, part)]
            return unpack(pos), variant.features[part - base].location

        def wagon(seat: int, pos: int, root: int) -> tuple:
            _, variant, base = next(entry for entry in placed if entry[0] == pos)
            return seat, unpack(pos), tuple(sorted(
                feature.location for local, feature in enumerate(variant.features)
                if roots[base + local] == root))

        figures = self.game.figures
        last = self._last_pos
        final_round = self._final_round
        return (
            tuple(sorted((unpack(pos), variant.tile, variant.rotation)
                         for pos, variant, _ in placed)),
            tuple(sorted((*where(part), seat, figures[figure])
                         for part, seat, figure in self._occupant)),
            tuple(sorted((unpack(point), seat) for point, seat, _ in self._barns)),
            tuple(self.scores),
            tuple(tuple(sorted(s.items())) for s in self.supply),
            tuple(sorted(Counter(self.pile).items())),
            self.tile, self.phase, self.turn_player, self.current_player,
            None if last is None else unpack(last),
            tuple(wagon(*entry) for entry in self._wagon_queue),
            None if final_round is None else tuple(final_round),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (NativeCarcassonneState, CarcassonneState)):
            return NotImplemented
        return (self.game.options == other.game.options
                and self.game.num_players == other.game.num_players
                and self.signature() == other.signature())

    __hash__ = None  # type: ignore[assignment]


def _from_python(state: CarcassonneState) -> NativeCarcassonneState:
    return NativeCarcassonneState.from_python(state)


def _chance_from_python(state: CarcassonneState, discarded: bool) -> NativeCarcassonneState:
    return native_from_python(state, NativeCarcassonneState, explicit_chance=True,
                              chance_discarded=discarded)


def _tile_of(starts: list[int], part: int) -> int:
    """Index of the placed tile holding `part` (`starts` are the tiles' first part ids)."""
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= part:
            lo = mid
        else:
            hi = mid - 1
    return lo


State.register(NativeCarcassonneState)
