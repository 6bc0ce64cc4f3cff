"""Positions carried between the two engines, whole: tiles laid again in their order (so part ids
and roots come out the same), then figures, barns, supplies, scores, log and turn state set.

Used where one engine must stand in for the other on one position: the Python engine answers
input the native one does not list (so both give the same error), positions built directly for
tests and puzzles (`scenario.py`) move to the native engine, and the differential tests compare
the two.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.games.carcassonne.capabilities.barn import barn_field_part
from boardwright.games.carcassonne.features import FeatureGraph
from boardwright.games.carcassonne.state import CarcassonneState

if TYPE_CHECKING:
    from boardwright.games.carcassonne.native.state import NativeCarcassonneState

PHASES = ("place_tile", "deploy", "game_over", "choose_tile", "final_abbey_round", "wagon_move")
# The native phase after these (6), only in chance mode: a draw waits for its tile
# (`NativeCarcassonneState.apply_chance`); no seat decides, so it is no phase of the game's.
CHANCE_PHASE = "chance"
NATIVE_PHASES = (*PHASES, CHANCE_PHASE)  # every native phase, by number
FEATURES = ("city", "road", "field", "monastery", "barn")
REASONS = ("", "barn placed", "farmers joined a barn")


def native_from_python(state: CarcassonneState, cls: type,
                       **extra: Any) -> NativeCarcassonneState:
    """The native twin of a Python-engine position. A position of a game that runs on the
    Python engine moves to a twin of that game on the native engine. `extra`: more fields of
    the native core's snapshot (`explicit_chance`, `chance_discarded` of a chance-mode
    state)."""
    game = state.game
    if game.engine != "native":
        from boardwright.games.carcassonne.game import _rebuild_game
        game = _rebuild_game(type(game), game.num_players, game._options, "native",
                             game._extra_reach)
    index = game._tile_index
    figures = game.figures
    graph = state.graph
    other = cls(game, state.seed, [index[name] for name in state.pile], raw_pile=True)
    supply = []
    for seat_supply in state.supply:
        supply.extend(seat_supply.get(name, 0) for name in figures)
    other._load({
        "tiles": [(pos, index[variant.tile], variant.rotation // 90)
                  for pos, (variant, _) in graph.board.items()],
        "occupants": [(part, seat, figures.index(figure))
                      for part, (seat, figure) in state.occupant.items()],
        "barns": [(point, seat, barn_field_part(graph, point))
                  for point, seat in state.barn_owner.items()],
        "log": [(entry["turn"], FEATURES.index(entry["feature"]), entry["complete"],
                 entry["points"], sum(1 << seat for seat in entry["players"]),
                 REASONS.index(entry.get("reason", ""))) for entry in state.log],
        "wagon_queue": list(state.wagon_queue),
        "pile": [index[name] for name in state.pile],
        "discarded": [index[name] for name in state.discarded],
        "tile": -1 if state.tile is None else index[state.tile],
        "phase": NATIVE_PHASES.index(state.phase),
        "turn_player": state.turn_player,
        "actor": state.actor,
        "last_pos": state.last_pos,
        "pending": list(state.pending),
        "scores": list(state._scores),
        "supply": supply,
        "abbeys_left": [s.get("abbey", 0) for s in state.supply],
        "history": [game.action_id(action) for action in state.history],
        "turn": state.turn,
        "final_round": None if state.final_round is None else list(state.final_round),
        "new_barn": state.new_barn,
        **extra,
    })
    other.meta = dict(state.meta)
    return other


def python_from_native(state: NativeCarcassonneState) -> CarcassonneState:
    """The Python-engine twin of a native position."""
    game = state.game
    names = game._tile_names
    types = game._tile_list
    other = CarcassonneState.__new__(CarcassonneState)
    other.setup(game, state.seed, state.pile, game.config.start_tile)
    graph = other.graph = FeatureGraph()
    for pos, tile, quarter, _ in state._tiles:
        graph.add_tile(pos, types[tile].variants[quarter])
    figures = game.figures
    for part, seat, figure in state._occupant:
        other.occupant[part] = (seat, figures[figure])
        graph.place_figure(part)
    for point, seat, part in state._barns:
        other.barn_owner[point] = seat
        root = graph.find(part)
        graph.barns[root] = graph.barns[root] + (point,)
    other.discarded = [names[t] for t in state._discarded]
    other.tile = state.tile
    other.phase = state.phase
    other.turn_player = state.turn_player
    other.actor = state.actor
    other.last_pos = state._last_pos
    other.pending = list(state._pending)
    other._scores = list(state.scores)
    other.supply = state.supply
    other.history = state.history
    other.log = state.log
    other.turn = state.turn
    other.meta = dict(state.meta)
    other.wagon_queue = state.wagon_queue
    other.final_round = state.final_round
    other.new_barn = state._new_barn
    return other
