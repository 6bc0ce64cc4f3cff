"""Reinforcement-learning adapters for boardwright games (optional extra `rl`).

* `boardwright.rl.observations` — fixed-shape numeric observations built from `state.view(seat)`.
* `boardwright.rl.pettingzoo` — `env(game_name, **options)`: a PettingZoo AEC environment.
* `boardwright.rl.gymnasium` — single-agent `boardwright/<Game>-v0` environments (other seats
  played by bots), registered with Gymnasium on import.
* `boardwright.rl.openspiel` — the games registered as Python games with `pyspiel`, chance as
  explicit chance nodes.
* `boardwright.rl.vector` — Carcassonne as a Gymnasium vector environment: N games stepped by
  one kernel call into arrays allocated once (`make_vector_env`, or `gymnasium.make_vec(
  "boardwright/Carcassonne-v0", n, vectorization_mode="vector_entry_point")`); its kernels are
  in `vector_kernel` (Python, the reference) and `vector_native` (compiled).

* `boardwright.rl.action_spaces` — the action ids all three speak: the game's learning action
  space when it has one (Carcassonne: board planes, tile slots and an overflow list, 4,448 ids
  in the base game instead of 1.55 million stable ids), else its stable ids (`game.action_id`).

Every observation carries an `action_mask` of the space's size.
"""

from __future__ import annotations

from typing import Any

import boardwright as bw
from boardwright.core.game import Game

#: Options applied unless the caller gives them (Shogun needs a round limit so episodes end).
DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {"shogun": {"max_rounds": 30}}


def make_game(name: str, players: int = 2, options: dict[str, Any] | None = None) -> Game:
    """`bw.load` with the adapters' default options merged under the given ones."""
    merged = dict(DEFAULT_OPTIONS.get(name, {}))
    merged.update(options or {})
    return bw.load(name, players, merged)


def make_vector_env(num_envs: int = 64, players: int = 2, options: dict[str, Any] | None = None,
                    opponent: str = "random", seat: int = 0, kernel: str = "auto",
                    render_mode: str | None = None, copy: bool = False) -> Any:
    """Carcassonne as a Gymnasium vector environment of `num_envs` games
    (`boardwright.rl.vector.CarcassonneVectorEnv`, whose docstring says it all): `players` 2..6,
    `options` the game options ({"expansions": ["abbey_mayor"], ...}), `opponent` "self"
    (self-play), "random" or "greedy" (played inside the environment; the caller plays `seat`),
    `kernel` "auto" (the compiled one when it can run the game), "native" or "python",
    `render_mode` None or "ansi", `copy` True to get copies instead of the shared arrays.
    Imported on call, so `boardwright.rl` itself needs no Gymnasium."""
    from boardwright.rl.vector import CarcassonneVectorEnv
    return CarcassonneVectorEnv(num_envs=num_envs, players=players, options=options,
                                opponent=opponent, seat=seat, kernel=kernel,
                                render_mode=render_mode, copy=copy)
