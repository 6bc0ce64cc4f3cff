"""Abbey tiles (Abbey & Mayor): played instead of drawing, into holes, and in a final round.

An abbey is a monastery tile with abbey edges: the feature graph closes the roads and cities
facing it without joining anything (see FeatureGraph.add_tile). This module decides when an
abbey may be played: at the start of a turn instead of drawing (CAR-AM-ABBEY-02), and in the
final round after the last landscape tile (CAR-AM-END-*), depending on `abbey_end_of_game`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.core.errors import IllegalActionError
from boardwright.games.carcassonne.actions import (
    DRAW, PASS, Draw, Pass, PlaceAbbey, check_abbey, pack, unpack,
)
from boardwright.games.carcassonne.capabilities.base import Capability
from boardwright.games.carcassonne.tiles import TileVariant

if TYPE_CHECKING:
    from boardwright.games.carcassonne.state import CarcassonneState

CHOOSE = "choose_tile"
FINAL_ROUND = "final_abbey_round"
END_MANDATORY, END_NONE, END_VOLUNTARY = "mandatory_round", "none", "voluntary_round"
END_OPTIONS = (END_MANDATORY, END_NONE, END_VOLUNTARY)
# A frontier pattern whose four sides are all constrained: the position is a hole.
IS_HOLE = tuple(all((pattern >> (2 * side)) & 3 for side in range(4)) for pattern in range(256))


def holes(state: CarcassonneState) -> list[int]:
    """Empty positions whose four orthogonal neighbours all hold a tile."""
    return [pos for pos, pattern in state.graph.frontier.items() if IS_HOLE[pattern]]


class AbbeyCapability(Capability):
    name = "abbey"
    phases = (CHOOSE, FINAL_ROUND)
    turn_start_phases = (CHOOSE, FINAL_ROUND)

    def __init__(self, count: int, end_of_game: str, variant: TileVariant) -> None:
        self.count = count
        self.end_of_game = end_of_game
        self.variant = variant

    def supply(self) -> dict[str, int]:
        return {"abbey": self.count}

    # -- during the game: abbey or draw --------------------------------------------------------

    def begin_turn(self, state: CarcassonneState) -> bool:
        if state.pile and state.supply[state.turn_player]["abbey"] > 0 and holes(state):
            state.phase = CHOOSE
            state.tile = None
            return True
        return False

    def phase_actions(self, state: CarcassonneState) -> list[Any]:
        abbeys: list[Any] = [PlaceAbbey(*unpack(pos)) for pos in holes(state)]
        if state.phase == CHOOSE:
            return [DRAW, *abbeys]
        if self.end_of_game == END_VOLUNTARY:
            return [PASS, *abbeys]
        return abbeys

    def apply_phase(self, state: CarcassonneState, action: Any) -> None:
        cls = type(action)
        if cls is PlaceAbbey:
            self._place(state, action)
        elif cls is Draw and state.phase == CHOOSE:
            state.history.append(DRAW)
            state.draw()
        elif cls is Pass and state.phase == FINAL_ROUND and self.end_of_game == END_VOLUNTARY:
            state.history.append(PASS)
            self.next_turn(state)
        else:
            expected = ("draw a tile or place the abbey" if state.phase == CHOOSE
                        else "place the abbey" + (" or pass" if self.end_of_game == END_VOLUNTARY else ""))
            raise IllegalActionError(f"{cls.__name__} is not possible now: {expected}")

    def _place(self, state: CarcassonneState, action: PlaceAbbey) -> None:
        check_abbey(action)
        pos = pack(action.x, action.y)
        pattern = state.graph.frontier.get(pos)
        if pattern is None or not IS_HOLE[pattern]:
            raise IllegalActionError(
                f"an abbey needs a hole: ({action.x}, {action.y}) is not an empty space "
                "with tiles on all four sides")
        state.supply[state.turn_player]["abbey"] -= 1
        state.history.append(action)
        state.tile = self.variant.tile
        state.put_tile(pos, self.variant)

    # -- after the last landscape tile ---------------------------------------------------------

    def pile_empty(self, state: CarcassonneState, last_player: int) -> bool:
        if self.end_of_game == END_NONE or state.final_round is not None:
            return False
        n = state.game.num_players
        state.final_round = [(last_player + step) % n for step in range(1, n + 1)]
        return self._open_next(state)

    def next_turn(self, state: CarcassonneState) -> bool:
        if state.final_round is None:
            return False
        if not self._open_next(state):
            state.final_scoring()
        return True

    def _open_next(self, state: CarcassonneState) -> bool:
        """Give the next seat of the round that holds an abbey and has a hole its turn."""
        round_ = state.final_round
        assert round_ is not None
        while round_:
            seat = round_.pop(0)
            if state.supply[seat]["abbey"] > 0 and holes(state):
                state.turn_player = state.actor = seat
                state.phase = FINAL_ROUND
                state.tile = None
                return True
        return False

    # -- presentation --------------------------------------------------------------------------

    def describe_phase(self, state: CarcassonneState) -> dict[str, Any]:
        return {"holes": [dict(zip("xy", unpack(pos))) for pos in holes(state)]}

    def view(self, state: CarcassonneState, view: dict[str, Any]) -> None:
        view["final_round"] = None if state.final_round is None else list(state.final_round)
