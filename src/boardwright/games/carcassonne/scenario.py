"""Positions built directly, for rule tests and puzzles.

The rule catalogue describes scenarios as tile lists (`E@(0,-1)/180`) plus followers; this
module builds such a position without replaying turns, checking each placement against the
rules as it goes. A built state plays on normally, but its record does not replay (its
history starts after the built part), which `record.meta["scenario"]` states.
"""

from __future__ import annotations

import re
from typing import Any, Iterable

import boardwright.games.carcassonne  # noqa: F401  (registers the game)
from boardwright.core.errors import IllegalActionError, InvalidOptionError
from boardwright.core.registry import load
from boardwright.games.carcassonne.actions import pack
from boardwright.games.carcassonne.state import PLACE, CarcassonneState
from boardwright.games.carcassonne.tiles import FIELD

_TILE = re.compile(r"^\s*([A-Z][A-Z0-9]*)@\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)/(0|90|180|270)\s*$")


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


def build(
    tiles: str | Iterable[str],
    followers: Iterable[tuple[int, int, int, str]] = (),
    pile: Iterable[str] = ("U",) * 10,
    players: int = 3,
    turn_player: int = 0,
    options: dict[str, Any] | None = None,
) -> CarcassonneState:
    """A state with `tiles` on the board (the first must be at (0, 0)), `followers` as
    (seat, x, y, location), the next tiles to draw in `pile` order, and `turn_player` to move.
    """
    placed = [parse_tile(t) for t in split_tiles(tiles)]
    if not placed or placed[0][1:3] != (0, 0):
        raise InvalidOptionError("the first tile of a scenario must be at (0, 0)")
    pile = list(pile)
    opts = dict(options or {})
    opts["start_tile"] = placed[0][0]
    opts["draw_order"] = pile
    game = load("carcassonne", players, opts)
    state = CarcassonneState.__new__(CarcassonneState)
    CarcassonneState.__init__(state, game, 0, [], placed[0][0])  # empty pile: ends at once
    if placed[0][3] != 0:
        raise InvalidOptionError("the start tile of a scenario must have rotation 0")
    graph = state.graph
    for name, x, y, rotation in placed[1:]:
        tile_type = game.tile_types[name]
        pos = pack(x, y)
        pattern = graph.frontier.get(pos)
        quarter = tile_type.canonical[rotation // 90]
        if pattern is None or quarter not in tile_type.fits[pattern]:
            raise IllegalActionError(f"scenario tile {name}@({x},{y})/{rotation} is not legal there")
        graph.add_tile(pos, tile_type.variants[quarter])
        state.turn += 1
    followers = list(followers)
    for seat, x, y, location in followers:
        pos = pack(x, y)
        if pos not in graph.board:
            raise IllegalActionError(f"scenario follower: no tile at ({x}, {y})")
        variant, base = graph.board[pos]
        local = variant.location_index.get(location)
        if local is None:
            raise IllegalActionError(f"scenario follower: no feature {location!r} at ({x}, {y})")
        if variant.features[local].kind == FIELD and not game.farmers:
            raise IllegalActionError("scenario follower: farmers are switched off in this game")
        part = base + local
        state.supply[seat]["follower"] -= 1
        state.occupant[part] = (seat, "follower")
        graph.place_figure(part)
    state.phase = PLACE
    state.log = []
    state.pile = list(reversed(pile))
    state.turn_player = turn_player
    state.meta["scenario"] = {"tiles": [f"{n}@({x},{y})/{r}" for n, x, y, r in placed],
                              "followers": [list(f) for f in followers]}
    state._draw()
    return state
