"""The barn (Abbey & Mayor): a figure for field corners that scores and blocks farmers.

A barn point is where four tiles meet; `corner(x, y)` is the point shared by (x, y), (x+1, y),
(x, y+1) and (x+1, y+1) and is stored as the packed position of (x, y). A barn goes on a corner
of the tile just placed where all four tiles show a field corner (CAR-AM-BARN-03/04), never into
a field that already holds a barn. Scorings: farmers of the field at placement (3 per completed
city), farmers joined to an older barn's field (1 per city), and barns at the end (4 per city, once
per owner and field).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.core.errors import IllegalActionError
from boardwright.games.carcassonne.actions import STRIDE, Deploy, unpack
from boardwright.games.carcassonne.capabilities.base import Capability
from boardwright.games.carcassonne.features import FeatureGraph
from boardwright.games.carcassonne.tiles import CORNERS, FIELD

if TYPE_CHECKING:
    from boardwright.games.carcassonne.state import CarcassonneState

# Corner of a tile -> offset from the tile to the (x, y) naming the barn point.
CORNER_POINT = {"NW": -STRIDE - 1, "NE": -1, "SW": -STRIDE, "SE": 0}
# The four tiles around point (x, y), each with the corner of it that touches the point and
# a half-edge (index) of that corner: (x, y) SE/ER, (x+1, y) SW/WL, (x, y+1) NE/EL, (x+1, y+1) NW/NL.
AROUND = ((0, "SE", 3), (STRIDE, "SW", 6), (1, "NE", 2), (STRIDE + 1, "NW", 0))


def barn_field_part(graph: FeatureGraph, point: int) -> int | None:
    """The field part at a valid barn point, or None if the point is not valid."""
    part = None
    for delta, corner, half in AROUND:
        entry = graph.board.get(point + delta)
        if entry is None or corner not in entry[0].field_corners:
            return None
        if part is None:
            part = entry[1] + entry[0].half_feature[half]
    return part


def barn_payees(graph: FeatureGraph, barn_owner: dict[int, int]) -> list[tuple[int, int]]:
    """(seat, field root) for each player owning a barn in a field, once per field and owner
    (CAR-AM-BARN-13): the rules pay "the owners of the barns", so a second barn of the same
    player in a joined field (possible with `barns` > 1) adds nothing. In barn-point order."""
    find = graph.find
    payees: list[tuple[int, int]] = []
    seen: set[tuple[int, int]] = set()
    for point, seat in sorted(barn_owner.items()):
        key = (seat, find(barn_field_part(graph, point)))  # type: ignore[arg-type]
        if key not in seen:
            seen.add(key)
            payees.append(key)
    return payees


def point_name(point: int) -> dict[str, int]:
    x, y = unpack(point)
    return {"x": x, "y": y}


class BarnCapability(Capability):
    name = "barn"

    def __init__(self, count: int) -> None:
        self.count = count

    def supply(self) -> dict[str, int]:
        return {"barn": self.count}

    def _free_point(self, state: CarcassonneState, corner: str) -> int | None:
        """The barn point at `corner` of the tile just placed, if a barn may go there."""
        graph = state.graph
        point = state.last_pos + CORNER_POINT[corner]  # type: ignore[operator]
        part = barn_field_part(graph, point)
        if part is None or graph.barns[graph.find(part)]:
            return None
        return point

    def deploy_actions(self, state: CarcassonneState) -> list[Any]:
        if state.supply[state.turn_player]["barn"] <= 0:
            return []
        x, y = unpack(state.last_pos)  # type: ignore[arg-type]
        return [Deploy(x, y, corner, "barn") for corner in CORNERS
                if self._free_point(state, corner) is not None]

    def apply_deploy(self, state: CarcassonneState, action: Deploy) -> bool:
        if action.figure != "barn":
            return False
        seat = state.turn_player
        if state.supply[seat]["barn"] <= 0:
            raise IllegalActionError("no barn left in supply")
        if action.location not in CORNER_POINT:
            raise IllegalActionError(
                f"a barn goes on a corner of the tile (NW, NE, SE or SW), not {action.location!r}")
        point = self._free_point(state, action.location)
        if point is None:
            raise IllegalActionError(
                f"no barn at the {action.location} corner of ({action.x}, {action.y}): four tiles "
                "must meet there, each with a field corner, in a field without a barn")
        graph = state.graph
        root = graph.find(barn_field_part(graph, point))  # type: ignore[arg-type]
        state.supply[seat]["barn"] -= 1
        state.barn_owner[point] = seat
        graph.barns[root] = graph.barns[root] + (point,)
        state.new_barn = point
        return True

    def after_scoring(self, state: CarcassonneState) -> None:
        graph = state.graph
        find = graph.find
        if state.new_barn is not None:
            root = find(barn_field_part(graph, state.new_barn))  # type: ignore[arg-type]
            state.score_field(root, points_per_city=3, reason="barn placed")
        variant, base = graph.board[state.last_pos]  # type: ignore[index]
        for feature in variant.features:
            if feature.kind == FIELD:
                root = find(base + feature.index)
                if graph.barns[root] and graph.figures[root]:
                    state.score_field(root, points_per_city=1, reason="farmers joined a barn")

    def final_scoring(self, state: CarcassonneState) -> None:
        graph = state.graph
        for seat, root in barn_payees(state.graph, state.barn_owner):
            state.add_points([seat], 4 * len(graph.completed_cities(root)), "barn", False)

    def view(self, state: CarcassonneState, view: dict[str, Any]) -> None:
        view["barns"] = [{"player": seat, "corner": point_name(point)}
                         for point, seat in sorted(state.barn_owner.items())]
