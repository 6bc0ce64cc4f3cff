"""OpenSpiel's Carcassonne on each engine (needs the `rl` extra): random play that reads the
observation at every decision, the cost of one observation late in a game, and OpenSpiel's
MCTS bot.

    python benchmarks/openspiel_steps.py                    # both engines, side by side
    python benchmarks/openspiel_steps.py --engine native --seconds 10
    python benchmarks/openspiel_steps.py --engine default   # an adapter without `engine`

Rows, per engine (the game's `engine` parameter; `default` loads the game without it):

* `steps/s`: whole random games through `pyspiel` calls, `observation_tensor(seat)` of the
  seat to move read before each decision, chance nodes sampled by their probabilities and not
  counted as steps (`--no-observe` leaves the observation out);
* `obs µs`: one `observation_tensor(seat)` at decision 120 of a game (the board is large), the
  median of 200 calls;
* `MCTS sims/s`: `open_spiel.python.algorithms.mcts.MCTSBot` (random rollouts, one per leaf)
  choosing the first decisions of a game, simulations per second.

The engines are measured in turn, `--rounds` times each, and each row keeps its best round:
the machine's other load slows a round, never speeds it up.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import shlex
import statistics
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import boardwright.rl.openspiel  # noqa: F401  (registers the games)

AM = {"expansions": ["abbey_mayor"], "wagon_adjacency": "connected", "barns": 2}


def load(engine: str, players: int, options: dict[str, Any]) -> Any:
    params: dict[str, Any] = {"players": players}
    if options:
        params["options"] = json.dumps(options)
    if engine != "default":
        params["engine"] = engine
    return pyspiel.load_game("python_boardwright_carcassonne", params)


def sample_chance(state: Any, rng: random.Random) -> None:
    outcomes, probabilities = zip(*state.chance_outcomes())
    state.apply_action(rng.choices(outcomes, probabilities)[0])


def random_steps(game: Any, seconds: float, seed: int, observe: bool) -> tuple[int, float]:
    """Decisions played and the time taken, whole games until `seconds` have passed."""
    rng = random.Random(seed)
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                sample_chance(state, rng)
                continue
            if observe:
                state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        games += 1
    return steps, time.perf_counter() - start


def late_position(game: Any, decisions: int, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.new_initial_state()
    made = 0
    while made < decisions and not state.is_terminal():
        if state.is_chance_node():
            sample_chance(state, rng)
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        made += 1
    while state.is_chance_node():
        sample_chance(state, rng)
    return state


def observation_us(game: Any, calls: int, seed: int) -> float:
    """The median time of one `observation_tensor` at decision 120 of a random game."""
    state = late_position(game, 120, seed)
    seat = state.current_player()
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        state.observation_tensor(seat)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def mcts_sims_per_second(game: Any, simulations: int, decisions: int, seed: int) -> float:
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(game, 2.0, simulations, mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng, solve=False)
    state = game.new_initial_state()
    chance_rng = random.Random(seed)
    made, elapsed = 0, 0.0
    while made < decisions and not state.is_terminal():
        if state.is_chance_node():
            sample_chance(state, chance_rng)
            continue
        start = time.perf_counter()
        action = bot.step(state)
        elapsed += time.perf_counter() - start
        state.apply_action(action)
        made += 1
    return made * simulations / elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", action="append", choices=("native", "python", "default"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--am", action="store_true", help="Abbey & Mayor with barns")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-observe", action="store_true")
    parser.add_argument("--mcts-simulations", type=int, default=20)
    parser.add_argument("--mcts-decisions", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    engines = args.engine or ["native", "python"]
    options = AM if args.am else {}
    print("command: python benchmarks/openspiel_steps.py " + shlex.join(
        sys.argv[1:] if argv is None else argv))
    print(f"python {platform.python_version()} on {platform.machine()}, {args.players} players, "
          f"{'Abbey & Mayor' if args.am else 'base game'}")
    best: dict[str, dict[str, float]] = {engine: {} for engine in engines}
    for _ in range(args.rounds):
        for engine in engines:
            game = load(engine, args.players, options)
            steps, seconds = random_steps(game, args.seconds, args.seed, not args.no_observe)
            row = best[engine]
            row["steps/s"] = max(row.get("steps/s", 0.0), steps / seconds)
            row["obs µs"] = min(row.get("obs µs", float("inf")),
                                observation_us(game, 200, args.seed))
            row["MCTS sims/s"] = max(row.get("MCTS sims/s", 0.0), mcts_sims_per_second(
                game, args.mcts_simulations, args.mcts_decisions, args.seed))
            row["shape"] = game.observation_tensor_shape()  # type: ignore[assignment]
    observed = "without observation" if args.no_observe else "observation read at each decision"
    print(f"{'engine':9s} {'steps/s':>9s} {'obs µs':>9s} {'MCTS sims/s':>12s}  tensor shape"
          f"  ({observed})")
    for engine in engines:
        row = best[engine]
        print(f"{engine:9s} {row['steps/s']:9.0f} {row['obs µs']:9.1f} {row['MCTS sims/s']:12.1f}"
              f"  {row['shape']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
