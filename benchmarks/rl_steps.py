"""Environment steps per second through each RL adapter (needs the `rl` extra).

Plays complete episodes with uniformly random *legal* actions (from `info["legal_action_ids"]`,
the nonzeros of the action mask, or `legal_actions()`) and prints steps per second per game and
adapter, with the command line:

    python benchmarks/rl_steps.py                       # every game, every adapter, 5 s each
    python benchmarks/rl_steps.py --game queens --seconds 2
    python benchmarks/rl_steps.py --adapter pettingzoo --adapter engine

Adapters: `engine` (raw `legal_actions` + `apply`, the reference), `pettingzoo` (AEC `last()` +
`step()`: each step builds the observation vector and the action mask of the agent to move),
`gymnasium` (one `step()` = one learner decision; the opponent is `random` and its moves are not
counted), `openspiel` (`legal_actions()` + `apply_action()` + `observation_tensor()` of the
mover). Shogun runs with `max_rounds = 30`. Every measurement plays whole episodes and stops at
the first episode end after `--seconds`.

`--actions stable` runs the PettingZoo and Gymnasium adapters on the stable ids instead of the
games' learning action spaces (Carcassonne: 1.55 million ids instead of 4,448); `--from-mask`
picks the action from the nonzeros of the observation's mask (`np.flatnonzero`), as a policy
reading the mask does, instead of from `info["legal_action_ids"]`.

    python benchmarks/rl_steps.py --game carcassonne --adapter pettingzoo --from-mask
    python benchmarks/rl_steps.py --game carcassonne --adapter pettingzoo --from-mask --actions stable
"""

from __future__ import annotations

import argparse
import platform
import random
import shlex
import sys
import time

import numpy as np

GAMES = ("carcassonne", "queens", "shogun")
ADAPTERS = ("engine", "pettingzoo", "gymnasium", "openspiel")
TITLES = {"carcassonne": "Carcassonne", "queens": "Queens", "shogun": "Shogun"}


def choose(rng: np.random.Generator, obs: dict, info: dict, from_mask: bool) -> int:
    ids = np.flatnonzero(obs["action_mask"]) if from_mask else info["legal_action_ids"]
    return int(rng.choice(ids))


def run_engine(name: str, seconds: float, seed: int, actions: str = "learning",
               from_mask: bool = False) -> tuple[int, float, int]:
    from boardwright.rl import make_game
    game, rng = make_game(name), random.Random(seed)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or episodes == 0:
        state = game.new_game(seed + episodes)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
            steps += 1
        episodes += 1
    return steps, time.perf_counter() - start, episodes


def run_pettingzoo(name: str, seconds: float, seed: int, actions: str = "learning",
                   from_mask: bool = False) -> tuple[int, float, int]:
    from boardwright.rl.pettingzoo import env as make_env
    env, rng = make_env(name, actions=actions), np.random.default_rng(seed)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or episodes == 0:
        env.reset(seed=seed + episodes)
        for _agent in env.agent_iter():
            obs, _r, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(choose(rng, obs, info, from_mask))
            steps += 1
        episodes += 1
    return steps, time.perf_counter() - start, episodes


def run_gymnasium(name: str, seconds: float, seed: int, actions: str = "learning",
                  from_mask: bool = False) -> tuple[int, float, int]:
    import gymnasium

    import boardwright.rl.gymnasium  # noqa: F401
    env = gymnasium.make(f"boardwright/{TITLES[name]}-v0", opponent="random", actions=actions)
    rng = np.random.default_rng(seed)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or episodes == 0:
        obs, info = env.reset(seed=seed + episodes)
        done = False
        while not done:
            obs, _r, term, trunc, info = env.step(choose(rng, obs, info, from_mask))
            done = term or trunc
            steps += 1
        episodes += 1
    return steps, time.perf_counter() - start, episodes


def run_openspiel(name: str, seconds: float, seed: int, actions: str = "learning",
                  from_mask: bool = False) -> tuple[int, float, int]:
    import pyspiel

    import boardwright.rl.openspiel  # noqa: F401
    # explicit chance: chance nodes are sampled by their probabilities and not counted as steps
    game, rng = pyspiel.load_game(f"python_boardwright_{name}"), random.Random(seed)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or episodes == 0:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probabilities = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probabilities)[0])
                continue
            state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        episodes += 1
    return steps, time.perf_counter() - start, episodes


RUNNERS = {"engine": run_engine, "pettingzoo": run_pettingzoo, "gymnasium": run_gymnasium,
           "openspiel": run_openspiel}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=GAMES)
    parser.add_argument("--adapter", action="append", choices=ADAPTERS)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--actions", choices=("learning", "stable"), default="learning")
    parser.add_argument("--from-mask", action="store_true",
                        help="pick actions from the mask's nonzeros, not from the info")
    args = parser.parse_args(argv)
    given = argv if argv is not None else sys.argv[1:]
    print("command: python " + shlex.join([sys.argv[0], *given]))
    print(f"python {platform.python_version()} on {platform.machine()}")
    print(f"{'game':<12} {'adapter':<11} {'steps':>8} {'episodes':>8} {'seconds':>8} "
          f"{'steps/s':>9}")
    for name in args.game or GAMES:
        for adapter in args.adapter or ADAPTERS:
            try:
                steps, elapsed, episodes = RUNNERS[adapter](name, args.seconds, args.seed,
                                                            args.actions, args.from_mask)
            except ImportError as exc:
                print(f"{name:<12} {adapter:<11} skipped: {exc}")
                continue
            print(f"{name:<12} {adapter:<11} {steps:>8} {episodes:>8} {elapsed:>8.2f} "
                  f"{steps / elapsed:>9.0f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
