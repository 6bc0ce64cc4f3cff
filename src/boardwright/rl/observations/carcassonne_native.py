"""Carcassonne's observation written by the compiled engine (`native/cpp/obs.cpp`).

The Python encoder (`carcassonne.py`, its layout in `carcassonne_layout.py`) owns the layout:
`native_layout` hands its block offsets, the order of the supplies and figure kinds, the options
values and the learning action space's numbering to the compiled writer once per game
(`_engine.ObsSpec`), so there is one layout and two writers of it (the other is
`carcassonne_planes.py`), and the tests compare their bytes. `observe` writes one position
whole (what single environments and OpenSpiel use); the vector kernel
(`boardwright.rl.vector_native`) keeps its games' observations current step by step with the
same writer.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardwright.games.carcassonne.learning_space import CarcassonneActionSpace
from boardwright.rl.observations.carcassonne import CarcassonneEncoder


def native_layout(encoder: CarcassonneEncoder, space: CarcassonneActionSpace,
                  channels_last: bool = False) -> dict[str, Any]:
    """What the compiled writer needs to know of the layout (plain data). `channels_last`:
    the board's bytes in memory are (W, W, C), each cell's planes side by side (the vector
    kernel's order), instead of (C, W, W); the planes and their meaning are the same."""
    game = encoder.game
    figures = tuple(game.figures)
    return {
        "planes": encoder.planes,
        "channels_last": channels_last,
        "radius": encoder.radius,
        "scalars": encoder.num_scalars,
        "board_blocks": dict(encoder.board_blocks),
        "scalar_blocks": dict(encoder.scalar_blocks),
        "supply_figure": [figures.index(p) if p in figures else -1
                          for p in encoder.supply_order],
        "figure_kind": [encoder.figure_kinds.index(f) if f in encoder.figure_kinds else -1
                        for f in figures],
        "kinds": len(encoder.figure_kinds),
        "options": list(encoder.options_values),
        "actions": {
            "size": space.size,
            "radius": space.radius,
            "starts": {name: block.start for name, block in space.blocks.items()},
            "overflow_slots": space.blocks["overflow"].size,
            "stable_width": space._stable_width,
            "shift": space._shift,
            "figures": space._figures,
            "locations": space._locations,
            "location_anchor": [int(a) for a in space._location_anchor],
            "location_wagon": [int(a) for a in space._location_wagon],
        },
    }


def obs_spec(encoder: CarcassonneEncoder, space: CarcassonneActionSpace,
             channels_last: bool = False) -> Any:
    """The compiled layout of an encoder's game and action space in one memory order (made
    once per pair and order, then kept: a game that reaches further gets a new action space,
    and so a new layout)."""
    key = "_native_spec_last" if channels_last else "_native_spec"
    kept = encoder.__dict__.get(key)
    if kept is None or kept[0] is not space:
        from boardwright.games.carcassonne.native import _engine
        layout = native_layout(encoder, space, channels_last)
        kept = (space, _engine.ObsSpec(encoder.game._native_spec, layout))
        encoder.__dict__[key] = kept
    return kept[1]


def writes(encoder: CarcassonneEncoder, state: Any) -> bool:
    """Whether the compiled writer can write `state`: a native position of the encoder's game
    (the compiled engine built with the writer)."""
    game = encoder.game
    return (getattr(state, "_observe", None) is not None and game.engine == "native"
            and getattr(state, "game", None) is not None
            and state.game._native_spec is game._native_spec)


def observe(encoder: CarcassonneEncoder, space: CarcassonneActionSpace, state: Any, seat: int,
            out: dict[str, np.ndarray], track: bool = False,
            channels_last: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Write `seat`'s observation of a native state into `out` ("board", "scalars"); returns
    the legal actions as (learning ids, stable ids), int64 arrays sorted by learning id.

    With `track`, the state keeps its observation and brings it up to date from what the
    actions applied to it since the last call changed (an environment's state, observed after
    every step: about half the cost of writing it whole); its copies do not inherit it.
    `channels_last`: `out["board"]` is (W, W, C), each cell's planes together."""
    write = state._observe_tracked if track else state._observe
    return write(obs_spec(encoder, space, channels_last), seat, out["board"], out["scalars"])
