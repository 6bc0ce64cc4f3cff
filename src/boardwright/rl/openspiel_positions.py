"""An OpenSpiel state's position: a boardwright state with explicit chance nodes and the
OpenSpiel ids that led to it, on the Python engine (`PythonPosition`, any game) or Carcassonne's
compiled engine (`NativePosition`). The OpenSpiel action ids are converted to engine actions
here only; a position copies with the state's cheap clone and pickles as its ids, replayed on
load."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pyspiel

from boardwright.core.chance import CHANCE, ExplicitChanceState
from boardwright.core.game import Game
from boardwright.games.carcassonne.learning_space import CarcassonneLegalIds

if TYPE_CHECKING:
    from boardwright.rl.openspiel_shared import Shared


# -- the two conversions between OpenSpiel action ids and engine actions ----------------------

def legal_action_ids(position: Any) -> list[int]:
    """The OpenSpiel ids of the legal actions at a decision: the ids of the learning action
    space, sorted."""
    return position.legal_ids()


def action_for_id(position: Any, action_id: int) -> Any:
    """The engine action of an OpenSpiel action id at a decision; IllegalActionError /
    MalformedActionError for an id that names no legal action here."""
    return position.action(action_id)


# -- the positions ----------------------------------------------------------------------------

class PythonPosition:
    """A boardwright explicit-chance state and the OpenSpiel ids that led to it.

    `clone` (deep copy) uses the state's cheap `clone()`; pickling keeps only the ids and
    replays them on load."""

    def __init__(self, shared: Shared, state: ExplicitChanceState, ids: list[int],
                 public: dict[int, list[str]] | None = None) -> None:
        self.shared = shared
        self.state = state
        self.ids = ids
        # per viewer, the history as that seat may know it, as far as it was asked for
        self.public: dict[int, list[str]] = {} if public is None else public
        self._legal: Any = None  # the legal ids of this decision, read once (OpenSpiel asks
        # for the legal actions, then applies one of them)

    def player(self) -> int:
        """OpenSpiel's current player: a seat, CHANCE or TERMINAL."""
        state = self.state
        if state.is_chance_node:
            return pyspiel.PlayerId.CHANCE
        if state.is_terminal:
            return pyspiel.PlayerId.TERMINAL
        return state.current_player

    def legal(self) -> Any:
        """The learning space's legal ids of the game's own state at this decision."""
        if self._legal is None:
            self._legal = self.shared.space.legal(self.state.inner)
        return self._legal

    def legal_ids(self) -> list[int]:
        return self.legal().ids.tolist()

    def action(self, action_id: Any) -> Any:
        return self.legal().action(action_id)

    def decision_state(self) -> Any:
        """The game's own state at a decision or at the end; None at a chance node."""
        state = self.state
        return None if state.is_chance_node else state.inner

    def view(self, viewer: int | None) -> dict[str, Any] | None:
        """The state's view (None before the set-up's first chance outcome)."""
        state = self.state
        return state.view(viewer) if state.has_position else None

    def public_history(self, viewer: int) -> list[str]:
        """`public_history` of the state for `viewer`, extended from what was kept."""
        known = self.public.setdefault(viewer, [])
        steps = self.state.steps
        if len(known) < len(steps):
            known.extend(public_steps(self.shared.game, steps[len(known):], viewer))
        return known

    def apply(self, action_id: int) -> None:
        state = self.state
        if state.is_chance_node:
            state.apply_chance(int(action_id))
        else:
            state.apply(action_for_id(self, action_id))
        self._legal = None
        self.ids.append(int(action_id))

    def __deepcopy__(self, memo: dict) -> PythonPosition:
        return PythonPosition(self.shared, self.state.clone(), self.ids.copy(),
                         {viewer: known.copy() for viewer, known in self.public.items()})

    def __reduce__(self) -> tuple:
        return (replay_position, (self.shared, tuple(self.ids)))


class NativePosition:
    """A native chance-mode Carcassonne state (`new_chance_game(native=True)`) and the
    OpenSpiel ids that led to it: chance outcomes and decisions go straight to the compiled
    engine (a decision by its stable id, no action object), the legal learning ids come from
    the compiled numbering (`_learning_ids`, the learning space's, sorted), `clone` is the
    native clone, and pickling keeps only the ids, replayed on load."""

    __slots__ = ("_legal", "ids", "shared", "state")

    def __init__(self, shared: Shared, state: Any, ids: list[int]) -> None:
        self.shared = shared
        self.state = state
        self.ids = ids
        self._legal: CarcassonneLegalIds | None = None

    def player(self) -> int:
        player = self.state.current_player  # a seat, CHANCE (-2) or -1 when over
        if player >= 0:
            return player
        return pyspiel.PlayerId.CHANCE if player == CHANCE else pyspiel.PlayerId.TERMINAL

    def legal(self) -> CarcassonneLegalIds:
        """This decision's legal actions (learning ids, sorted, and their stable ids)."""
        if self._legal is None:
            ids, stable = self.state._learning_ids(self.shared.obs_spec)
            self._legal = CarcassonneLegalIds(self.shared.space, ids, stable)
        return self._legal

    def legal_ids(self) -> list[int]:
        return self.legal().ids.tolist()

    def stable_id(self, action_id: Any) -> int:
        return self.legal().stable_id(action_id)

    def action(self, action_id: Any) -> Any:
        return self.shared.action_object(self.stable_id(action_id))

    def decision_state(self) -> Any:
        state = self.state
        return None if state.is_chance_node else state

    def view(self, viewer: int | None) -> dict[str, Any]:
        return self.state.view(viewer)

    def apply(self, action_id: int) -> None:
        state = self.state
        if state.is_chance_node:
            state.apply_chance(int(action_id))
        else:
            state._apply_id(self.stable_id(action_id))
        self._legal = None
        self.ids.append(int(action_id))

    def __deepcopy__(self, memo: dict) -> NativePosition:
        return NativePosition(self.shared, self.state.clone(), self.ids.copy())

    def __reduce__(self) -> tuple:
        return (replay_position, (self.shared, tuple(self.ids)))


def replay_position(shared: Shared, ids: tuple[int, ...]) -> Any:
    position = shared.new_position()
    for action_id in ids:
        position.apply(action_id)
    return position



def public_steps(game: Game, steps: list[tuple[str, Any, int]], viewer: int) -> list[str]:
    """Each step (`ExplicitChanceState.steps`) as `viewer` may know it: actions through
    `Game.public_action` (whole for their actor), chance outcomes by `Game.chance_outcome_public`."""
    out = []
    for kind, value, actor in steps:
        if kind == "chance":
            out.append(f"c{value}" if game.chance_outcome_public(value) else "c?")
        else:
            public = game.public_action(value, actor, viewer)
            out.append(f"{actor}:" + json.dumps(public, sort_keys=True, separators=(",", ":")))
    return out
