"""The wagon (Abbey & Mayor): a follower that moves on after its feature is scored.

When a feature holding a wagon is scored during play, the wagon does not go back to supply at
once: its owner decides, after every scoring of the turn, to move it to an incomplete,
unoccupied road, city or monastery in range, or to take it back (CAR-AM-WAGON-04..13).
Several wagons are decided clockwise from the player whose turn it is; `current_player` is the
wagon's owner meanwhile. In this phase a Deploy of the wagon is a move and Pass takes it back.

Range: `nearby` (2nd edition): a part on the wagon's tile or one of the 8 around it.
`connected` (1st edition): a feature linked to the scored one by a within-tile link or an abbey
edge; with `wagon_traverse` the wagon may travel on through completed or unoccupied features.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.core.errors import IllegalActionError
from boardwright.games.carcassonne.actions import PASS, Deploy, Pass, check_deploy, pack, unpack
from boardwright.games.carcassonne.capabilities.base import Capability
from boardwright.games.carcassonne.features import SIDE_OFFSET, SURROUNDING, FeatureGraph
from boardwright.games.carcassonne.figures import FigureRule
from boardwright.games.carcassonne.tiles import CITY, FIELD, MONASTERY, ROAD

if TYPE_CHECKING:
    from boardwright.games.carcassonne.state import CarcassonneState

MOVE = "wagon_move"
NEARBY, CONNECTED = "nearby", "connected"
ADJACENCY_OPTIONS = (NEARBY, CONNECTED)
WAGON = FigureRule("wagon", frozenset((CITY, ROAD, MONASTERY)))


def feature_parts(graph: FeatureGraph, root: int) -> list[int]:
    """Every part of a road, city or monastery (found through the tiles it covers), by
    position then part: a fixed order, so the wagon moves offered under `connected` range come
    in the same order on every run and in every engine."""
    positions = sorted(graph.tiles[root] or (graph.part_pos[root],))
    find = graph.find
    return [part for pos in positions for part in graph.parts_on(pos) if find(part) == root]


def linked_parts(graph: FeatureGraph, part: int) -> list[int]:
    """Non-field parts adjacent to `part` under first-edition rules: within-tile links, and
    contact across an abbey edge."""
    pos = graph.part_pos[part]
    variant, base = graph.board[pos]
    local = part - base
    out = [base + (b if a == local else a) for a, b in variant.links if local in (a, b)]
    feature = variant.features[local]
    if variant.abbey:
        for side in range(4):
            nvariant, nbase = graph.board[pos + SIDE_OFFSET[side]]
            other = nvariant.side_feature[(side + 2) & 3]
            if other >= 0:
                out.append(nbase + other)
    else:
        for side in feature.sides:
            neighbour = graph.board.get(pos + SIDE_OFFSET[side])
            if neighbour is not None and neighbour[0].abbey:
                out.append(neighbour[1] + neighbour[0].monastery)
    return out


class WagonCapability(Capability):
    name = "wagon"
    phases = (MOVE,)

    def __init__(self, count: int, adjacency: str, traverse: bool) -> None:
        self.count = count
        self.adjacency = adjacency
        self.traverse = traverse

    def supply(self) -> dict[str, int]:
        return {"wagon": self.count}

    def figures(self) -> list[FigureRule]:
        return [WAGON]

    def figure_released(self, state: CarcassonneState, seat: int, figure: str, part: int,
                        root: int, complete: bool) -> bool:
        if figure != "wagon" or not complete:
            return False
        state.wagon_queue.append((seat, state.graph.part_pos[part], root))
        return True

    def before_next_turn(self, state: CarcassonneState) -> bool:
        if not state.wagon_queue:
            return False
        n = state.game.num_players
        first = state.turn_player
        state.wagon_queue.sort(key=lambda entry: (entry[0] - first) % n)
        state.phase = MOVE
        state.actor = state.wagon_queue[0][0]
        return True

    # -- targets -------------------------------------------------------------------------------

    def targets(self, state: CarcassonneState) -> dict[int, list[int]]:
        """Target feature roots for the wagon at the head of the queue, each with the parts
        the wagon may be put on (in offer order)."""
        seat, pos, scored = state.wagon_queue[0]
        if self.adjacency == NEARBY:
            return self._nearby(state.graph, pos)
        return self._connected(state.graph, scored)

    @staticmethod
    def _free(graph: FeatureGraph, root: int) -> bool:
        return graph.open[root] > 0 and not graph.figures[root]

    def _nearby(self, graph: FeatureGraph, pos: int) -> dict[int, list[int]]:
        found: dict[int, list[int]] = {}
        find = graph.find
        for delta in (0, *SURROUNDING):
            entry = graph.board.get(pos + delta)
            if entry is None:
                continue
            variant, base = entry
            for feature in variant.features:
                if feature.kind == FIELD:
                    continue
                part = base + feature.index
                root = find(part)
                if self._free(graph, root):
                    found.setdefault(root, []).append(part)
        return found

    def _connected(self, graph: FeatureGraph, scored: int) -> dict[int, list[int]]:
        find = graph.find
        found: dict[int, list[int]] = {}
        seen = {scored}
        frontier = [scored]
        while frontier:
            root = frontier.pop(0)
            for part in feature_parts(graph, root):
                for other in linked_parts(graph, part):
                    other_root = find(other)
                    if other_root in seen or graph.kind[other_root] == FIELD:
                        continue
                    seen.add(other_root)
                    free = self._free(graph, other_root)
                    if free:
                        found[other_root] = feature_parts(graph, other_root)
                    if self.traverse and (free or graph.open[other_root] == 0):
                        frontier.append(other_root)
        return found

    # -- the decision --------------------------------------------------------------------------

    @staticmethod
    def offered_parts(targets: dict[int, list[int]]) -> list[int]:
        """The parts a wagon move may name: the one list `phase_actions` offers and
        `apply_phase` accepts. The owner picks the part (CAR-AM-WAGON-05): under `nearby` any
        part in range (it is the centre of the wagon's next range), under `connected` any part
        of the target (CAR-AM-WAGON-15; it changes only where the wagon is shown)."""
        return [part for parts in targets.values() for part in parts]

    @staticmethod
    def _move(graph: FeatureGraph, part: int) -> Deploy:
        pos = graph.part_pos[part]
        variant, _ = graph.board[pos]
        return Deploy(*unpack(pos), variant.features[graph.part_local[part]].location, "wagon")

    def phase_actions(self, state: CarcassonneState) -> list[Any]:
        graph = state.graph
        return [PASS, *(self._move(graph, part)
                        for part in self.offered_parts(self.targets(state)))]

    def apply_phase(self, state: CarcassonneState, action: Any) -> None:
        seat = state.wagon_queue[0][0]
        cls = type(action)
        if cls is Pass:
            state.supply[seat]["wagon"] += 1
        elif cls is Deploy and action.figure == "wagon":
            check_deploy(action)
            part = self._target_part(state, action)
            state.occupant[part] = (seat, "wagon")
            state.graph.place_figure(part)
        else:
            raise IllegalActionError(
                f"{cls.__name__} is not possible now: move the wagon (deploy a wagon) or "
                "take it back (pass)")
        state.history.append(action)
        state.wagon_queue.pop(0)
        if state.wagon_queue:
            state.actor = state.wagon_queue[0][0]
        else:
            state.actor = state.turn_player
            state.advance()

    def _target_part(self, state: CarcassonneState, action: Deploy) -> int:
        graph = state.graph
        pos = pack(action.x, action.y)
        entry = graph.board.get(pos)
        local = None if entry is None else entry[0].location_index.get(action.location)
        if local is None:
            raise IllegalActionError(
                f"no feature at {action.location!r} of ({action.x}, {action.y}) for the wagon")
        part = entry[1] + local  # type: ignore[index]
        if part in self.offered_parts(self.targets(state)):
            return part
        raise IllegalActionError(
            f"the wagon cannot move to {action.location} of ({action.x}, {action.y}): it must "
            "go to an incomplete, unoccupied road, city or monastery in range")

    def describe_phase(self, state: CarcassonneState) -> dict[str, Any]:
        seat, pos, _ = state.wagon_queue[0]
        return {"wagon": {"player": seat, "from": dict(zip("xy", unpack(pos)))}}

    def view(self, state: CarcassonneState, view: dict[str, Any]) -> None:
        view["waiting_wagons"] = [{"player": seat, "x": unpack(pos)[0], "y": unpack(pos)[1]}
                                  for seat, pos, _ in state.wagon_queue]
