"""Positions built directly, for rule tests and puzzles.

The rule catalogue describes scenarios as tile lists (`E@(0,-1)/180`) plus figures; this module
builds such a position without replaying turns, checking each tile placement against the rules
as it goes. Figures are put where the scenario says, even several in one feature (a position
that play could reach by merging). A built state plays on normally, but its record does not
replay (its history starts after the built part); `record.meta["scenario"]` says so.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

import boardwright.games.carcassonne  # noqa: F401  (registers the game)
from boardwright.core.errors import IllegalActionError, InvalidOptionError
from boardwright.core.registry import load
from boardwright.games.carcassonne.actions import pack
from boardwright.games.carcassonne.capabilities.abbey import IS_HOLE
from boardwright.games.carcassonne.capabilities.barn import barn_field_part
from boardwright.games.carcassonne.state import CarcassonneState
from boardwright.games.carcassonne.tiles import FIELD

_TILE = re.compile(r"^\s*([A-Z][A-Z0-9]*)@\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)/(0|90|180|270)\s*$")
Figure = tuple[int, int, int, str] | tuple[int, int, int, str, str]


def parse_tile(text: str) -> tuple[str, int, int, int]:
    """`"E@(0,-1)/180"` -> ("E", 0, -1, 180)."""
    match = _TILE.match(text)
    if not match:
        raise InvalidOptionError(f"bad tile notation {text!r}; expected like 'E@(0,-1)/180'")
    name, x, y, rotation = match.groups()
    return name, int(x), int(y), int(rotation)


def split_tiles(spec: str | Iterable[str]) -> list[str]:
    if isinstance(spec, str):
        return re.findall(r"[A-Z][A-Z0-9]*@\([^)]*\)/\d+", spec)
    return list(spec)


def _lay_tiles(state: CarcassonneState, placed: list[tuple[str, int, int, int]]) -> None:
    game, graph = state.game, state.graph
    for name, x, y, rotation in placed:
        if name not in game.tile_types:
            raise InvalidOptionError(f"scenario tile {name!r} is not in this game")
        tile_type = game.tile_types[name]
        pos = pack(x, y)
        pattern = graph.frontier.get(pos)
        quarter = tile_type.canonical[rotation // 90]
        if tile_type.abbey:
            legal = pattern is not None and IS_HOLE[pattern]
        else:
            legal = pattern is not None and quarter in tile_type.fits[pattern]
        if not legal:
            raise IllegalActionError(f"scenario tile {name}@({x},{y})/{rotation} is not legal there")
        graph.add_tile(pos, tile_type.variants[quarter])
        state.turn += 1


def _put_figures(state: CarcassonneState, figures: list[Figure]) -> None:
    game, graph = state.game, state.graph
    for seat, x, y, location, *rest in figures:
        figure = rest[0] if rest else "follower"
        rule = game.figure_rule.get(figure)
        pos = pack(x, y)
        if rule is None or pos not in graph.board:
            raise IllegalActionError(f"scenario figure {figure!r} at ({x}, {y}): no such figure or tile")
        variant, base = graph.board[pos]
        local = variant.location_index.get(location)
        if local is None or variant.features[local].kind not in rule.kinds:
            raise IllegalActionError(f"scenario {figure} cannot stand on {location!r} at ({x}, {y})")
        if variant.features[local].kind == FIELD and graph.barns[graph.find(base + local)]:
            raise IllegalActionError(f"scenario farmer at ({x}, {y}) would share a field with a barn")
        state.put_figure(seat, figure, base + local)


def _put_barns(state: CarcassonneState, barns: list[tuple[int, int, int]]) -> None:
    graph = state.graph
    for seat, x, y in barns:
        point = pack(x, y)
        part = barn_field_part(graph, point)
        if part is None or graph.barns[graph.find(part)] or graph.figures[graph.find(part)]:
            raise IllegalActionError(f"scenario barn at corner({x},{y}) is not legal")
        root = graph.find(part)
        graph.barns[root] = graph.barns[root] + (point,)
        state.barn_owner[point] = seat
        state.supply[seat]["barn"] -= 1


def build(
    tiles: str | Iterable[str],
    followers: Iterable[Figure] = (),
    pile: Iterable[str] = ("U",) * 10,
    players: int = 3,
    turn_player: int = 0,
    options: dict[str, Any] | None = None,
    barns: Iterable[tuple[int, int, int]] = (),
    supply: dict[int, dict[str, int]] | None = None,
) -> CarcassonneState:
    """A position, then the start of `turn_player`'s turn.

    tiles: laid in order, the first at (0, 0) rotation 0; `ABBEY@(x,y)/0` fills a hole.
    followers: (seat, x, y, location[, figure]) with figure "follower" (default), "mayor"
        or "wagon"; taken from the seat's supply.
    barns: (seat, x, y) for a barn on corner(x, y).
    pile: the next tiles to draw, first drawn first; an empty pile ends the game (after the
        final abbey round, if any). The player before `turn_player` counts as the one who
        placed the last tile.
    supply: per seat, pieces to hold instead of the defaults (e.g. {0: {"abbey": 0}}).
    """
    placed = [parse_tile(t) for t in split_tiles(tiles)]
    if not placed or placed[0][1:3] != (0, 0) or placed[0][3] != 0:
        raise InvalidOptionError("the first tile of a scenario must be at (0, 0) with rotation 0")
    pile = list(pile)
    followers = list(followers)
    barns = list(barns)
    opts = dict(options or {})
    opts["start_tile"] = placed[0][0]
    opts["draw_order"] = pile
    game = load("carcassonne", players, opts)
    game.reach_further(len(placed))  # the scenario's tiles were never in the pile
    state = CarcassonneState.__new__(CarcassonneState)
    state.setup(game, 0, list(reversed(pile)), placed[0][0])
    _lay_tiles(state, placed[1:])
    _put_figures(state, followers)
    _put_barns(state, barns)
    for seat, pieces in (supply or {}).items():
        state.supply[seat].update(pieces)
    state.turn_player = turn_player
    state.meta["scenario"] = {"tiles": [f"{n}@({x},{y})/{r}" for n, x, y, r in placed],
                              "followers": [list(f) for f in followers],
                              "barns": [list(b) for b in barns]}
    state.start_turn()
    if game.engine == "native":  # built here, then moved whole to the native engine
        from boardwright.games.carcassonne.native.state import NativeCarcassonneState
        return NativeCarcassonneState.from_python(state)  # type: ignore[return-value]
    return state
