"""The capability interface: hooks into the Carcassonne turn flow, all no-ops by default.

Order of a turn and the hooks called there:
    begin_turn          before the draw; may open a phase of its own (the abbey choice)
    (place tile, deploy: figure rules from `figures()`, extra deploys from `deploy_actions`)
    figure_released     a figure leaves a scored feature; may keep it (the wagon)
    after_scoring       after the features completed by the tile are scored (barns)
    before_next_turn    may hold the turn open for decisions of its own (wagon moves)
    next_turn           may choose who plays next instead of the next seat (final abbey round)
    pile_empty          when no tile can be drawn; may add turns before the end
    final_scoring       after the base final scoring (barns)
A capability that opens a phase lists it in `phases` and answers `phase_actions` /
`apply_phase` for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.games.carcassonne.figures import FigureRule

if TYPE_CHECKING:
    from boardwright.games.carcassonne.state import CarcassonneState


class Capability:
    """A bundle of rules that plugs into the base game. Subclasses override what they need."""

    name = "capability"
    phases: tuple[str, ...] = ()
    turn_start_phases: tuple[str, ...] = ()  # of `phases`, those that open a player's turn

    def supply(self) -> dict[str, int]:
        """Pieces each player receives at set-up, beyond the normal followers."""
        return {}

    def figures(self) -> list[FigureRule]:
        """Figure kinds placed on features like followers."""
        return []

    def begin_turn(self, state: CarcassonneState) -> bool:
        return False

    def deploy_actions(self, state: CarcassonneState) -> list[Any]:
        return []

    def apply_deploy(self, state: CarcassonneState, action: Any) -> bool:
        """Apply a Deploy of a figure this capability owns; False if it is not one."""
        return False

    def figure_released(self, state: CarcassonneState, seat: int, figure: str, part: int,
                        root: int, complete: bool) -> bool:
        return False

    def after_scoring(self, state: CarcassonneState) -> None:
        return None

    def before_next_turn(self, state: CarcassonneState) -> bool:
        return False

    def next_turn(self, state: CarcassonneState) -> bool:
        return False

    def pile_empty(self, state: CarcassonneState, last_player: int) -> bool:
        return False

    def final_scoring(self, state: CarcassonneState) -> None:
        return None

    def phase_actions(self, state: CarcassonneState) -> list[Any]:
        return []

    def apply_phase(self, state: CarcassonneState, action: Any) -> None:
        raise NotImplementedError

    def describe_phase(self, state: CarcassonneState) -> dict[str, Any]:
        """Extra public data for views while one of this capability's phases is open."""
        return {}

    def view(self, state: CarcassonneState, view: dict[str, Any]) -> None:
        """Add this capability's public data to a view."""
        return None


def overrides(capability: Capability, hook: str) -> bool:
    """True if the capability implements `hook` (so the state only calls what does work)."""
    return getattr(type(capability), hook) is not getattr(Capability, hook)
