"""A Carcassonne position rebuilt from a seat's JSON view, for `CarcassonneEncoder.encode(view,
seat)`: a Python-engine state holding everything of the view the observation shows, exact
except in one case the view cannot settle (which feature a waiting wagon left, see
`_wagon_roots`)."""

from __future__ import annotations

from collections import deque
from typing import Any

from boardwright.games.carcassonne.actions import STRIDE, pack
from boardwright.games.carcassonne.capabilities.barn import barn_field_part
from boardwright.games.carcassonne.features import FeatureGraph, SURROUNDING
from boardwright.games.carcassonne.state import CarcassonneState
from boardwright.games.carcassonne.tiles import FIELD, MONASTERY


def state_from_view(game: Any, view: dict[str, Any]) -> CarcassonneState:
    """A Python-engine position with everything of `view` the observation shows: tiles (laid
    outward from the start tile, so features join as in play), figures, barns, scores,
    supplies, the tiles left, the tile to place, phase and seats, the final abbey round and the
    waiting wagons. Part ids, history and the pile's order are not the original's (the
    observation does not show them)."""
    twin = game if game.engine == "python" else game._python_twin()
    state = CarcassonneState.__new__(CarcassonneState)
    pile = [name for name, count in view["remaining_tiles"].items() for _ in range(count)]
    state.setup(twin, 0, pile, twin.config.start_tile)
    graph = state.graph = FeatureGraph()
    types = twin.tile_types
    placed = {(t["x"], t["y"]): t for t in view["board"]}
    for x, y in _in_order(placed, types):
        tile = placed[(x, y)]
        graph.add_tile(pack(x, y), types[tile["tile"]].variants[tile["rotation"] // 90])
    for figure in view["followers"]:
        variant, base = graph.board[pack(figure["x"], figure["y"])]
        part = base + variant.location_index[figure["location"]]
        state.occupant[part] = (figure["player"], figure["figure"])
        graph.place_figure(part)
    for barn in view.get("barns", ()):
        point = pack(barn["corner"]["x"], barn["corner"]["y"])
        root = graph.find(barn_field_part(graph, point))  # type: ignore[arg-type]
        graph.barns[root] = graph.barns[root] + (point,)
        state.barn_owner[point] = barn["player"]
    state._scores = list(view["scores"])
    state.supply = [dict(s) for s in view["supply"]]
    state.tile = view["tile"]
    state.phase = view["phase"]
    state.turn_player = view["turn_player"]
    state.actor = view["current_player"]
    last = view["last_placed"]
    state.last_pos = None if last is None else pack(last["x"], last["y"])
    state.turn = view["turn"]
    final_round = view.get("final_round")
    state.final_round = None if final_round is None else list(final_round)
    state.wagon_queue = _wagon_roots(state, view.get("waiting_wagons", ()))
    return state


def _in_order(placed: dict[tuple[int, int], Any], types: dict[str, Any]) -> list[tuple[int, int]]:
    """An order of play of the cells of `placed`: the landscape tiles breadth first from (0, 0)
    (each touches one before it: no tile is ever laid beside an abbey, whose four neighbours
    were there before it), then the abbeys, each into its hole."""
    order, seen, todo = [], {(0, 0)}, deque([(0, 0)])
    abbeys = []
    while todo:
        x, y = todo.popleft()
        order.append((x, y))
        for cell in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if cell in placed and cell not in seen:
                seen.add(cell)
                (abbeys if types[placed[cell]["tile"]].abbey else todo).append(cell)
    return order + abbeys


def _wagon_roots(state: CarcassonneState, waiting: Any) -> list[tuple[int, int, int]]:
    """The wagon queue, from the view's (seat, tile) of each waiting wagon. The view does not
    say which feature of its tile the wagon left: it is a complete, now empty road, city or
    monastery of that tile that the last tile completed (it has a part on the last tile, or is
    a monastery around it, or faces the abbey laid last). When two features of the tile fit
    (the last tile closed both, and the wagon stood on one of them), the first part's is taken:
    the only case where `encode(view)` may differ from `encode_state` (under `nearby` wagon
    rules the wagon's future does not depend on it)."""
    graph = state.graph
    find = graph.find
    last = state.last_pos
    last_parts: set[int] = set()
    if last is not None:
        variant, base = graph.board[last]
        last_roots = {find(base + local) for local in range(len(variant.features))}
        last_parts = last_roots
        if variant.abbey:
            for delta in (-1, STRIDE, 1, -STRIDE):
                neighbour = graph.board.get(last + delta)
                if neighbour is not None:
                    nvariant, nbase = neighbour
                    last_parts |= {find(nbase + local) for local in range(len(nvariant.features))}
    queue = []
    for wagon in waiting:
        pos = pack(wagon["x"], wagon["y"])
        variant, base = graph.board[pos]
        candidates = []
        for local, feature in enumerate(variant.features):
            root = find(base + local)
            if feature.kind == FIELD or graph.open[root] or graph.figures[root]:
                continue
            near = (feature.kind == MONASTERY and last is not None
                    and (pos == last or pos - last in SURROUNDING))
            candidates.append((not (root in last_parts or near), local, root))
        queue.append((wagon["player"], pos, min(candidates)[2]))
    return queue
