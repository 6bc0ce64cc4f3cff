"""Environment steps per second through every RL path, side by side (needs the `rl` extra).

    python benchmarks/rl_steps.py                          # every game and path, 5 s each
    python benchmarks/rl_steps.py --game carcassonne --options base --seconds 3
    python benchmarks/rl_steps.py --game carcassonne --adapter vector-native --adapter sync
    python benchmarks/rl_steps.py --game queens --adapter pettingzoo --adapter engine

Carcassonne, for each option set (`--options base`, `--options abbey_mayor`, or a JSON object of
game options; default: base and Abbey & Mayor), 2 players:

* `engine`: the native engine alone, `legal_action_ids()` + apply of a random id (the bound
  every adapter pays on top of);
* `vector-native`, `vector-native-self`, `vector-python`: `boardwright.rl.vector`'s
  `CarcassonneVectorEnv` with `--envs` games (default 64) on the compiled kernel (random
  opponent; then self-play) and on the Python kernel (random opponent);
* `sync`: `gymnasium.make_vec("boardwright/Carcassonne-v0", --envs, vectorization_mode="sync")`,
  copies of the single-agent environment stacked by Gymnasium (random opponent);
* `sync-4`, `async-4`: the same with 4 envs, and `vectorization_mode="async"` with 4 envs
  (worker processes; they share the one core, see below);
* `gymnasium`: one single-agent environment (random opponent);
* `pettingzoo`: the AEC environment (`last()` + `step()`: every seat's decisions);
* `openspiel`: `pyspiel.load_game("python_boardwright_carcassonne")` — whatever that name
  loads (the Python game registered by `boardwright.rl.openspiel`, or a native game registered
  under the same name): `legal_actions()` + `observation_tensor()` of the mover +
  `apply_action()`; chance nodes are applied (timed) but not counted as steps.

Queens and Shogun (`--game`; Shogun with `max_rounds = 30`) get `engine`, `pettingzoo`,
`gymnasium` and `openspiel`.

How it is measured: the actions are uniformly random legal ones, picked from the masks (the
vector and Gymnasium paths: from the observation's `action_mask`, row by row) or the legal list
**outside the timed part**: only the time spent in the environment's own calls (`step`,
`last`, `observation_tensor`, ...) counts, and each path runs until that time reaches
`--seconds` (the wall time is longer), by the wall clock or, with `--clock cpu`, by the CPU
time of this process (plus the async workers'), which other work on the machine disturbs less.
`engine` times its whole loop (timing each call would
cost as much as the call). A vector step counts `num_envs` steps, including an env's automatic
reset step (its action ignored), for the vector env and for `make_vec` alike. With an opponent,
a step is one decision of the learning seat; the opponent's moves happen inside it.

One core: the process is pinned to one CPU (`os.sched_setaffinity`, where the system has it)
and numeric libraries to one thread, so the figures compare paths, not how many cores each can
use; `async-4`'s worker processes inherit the pin. The last lines give the ratio of the native
vector env to `sync` (both with `--envs` games and a random opponent). The machine's speed
drifts by a fifth within minutes, and the two paths are measured minutes apart; `--interleave
N` measures that ratio again with both stepped in turn, N slices each, so a drift falls on both.

Async as it is meant to run: when `sync-4` and `async-4` are both measured, a last line steps
them again unpinned (on every CPU the process had) by the wall clock, `--seconds` each,
beside Gymnasium's `AsyncVectorEnv` of 4 environments that do nothing (`idle_env`): its rate
is the most async vectorisation can give on this machine, whatever the environment.
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")  # before numpy is imported

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import shlex  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from boardwright.core.errors import BoardwrightError  # noqa: E402

#: The clock the paths are timed with: wall time (`--clock wall`, the default) or the process's
#: CPU time (`--clock cpu`: steadier on a machine other work shares).
CLOCK: list[Callable[[], float]] = [time.perf_counter]
GAMES = ("carcassonne", "queens", "shogun")
TITLES = {"carcassonne": "Carcassonne", "queens": "Queens", "shogun": "Shogun"}
OPTION_SETS = {"base": {}, "abbey_mayor": {"expansions": ["abbey_mayor"]}}
CARCASSONNE_PATHS = ("engine", "vector-native", "vector-native-self", "vector-python", "sync",
                     "sync-4", "async-4", "gymnasium", "pettingzoo", "openspiel")
OTHER_PATHS = ("engine", "pettingzoo", "gymnasium", "openspiel")


@dataclass
class Measure:
    """What one path did: steps counted, games finished, seconds timed."""

    steps: int
    episodes: int
    seconds: float
    note: str = ""


@dataclass(frozen=True)
class Setup:
    game: str
    options: dict[str, Any]
    seconds: float
    seed: int
    envs: int
    actions: str


def pick_from_masks(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal id per row (0 for a row with none: an env that just ended)."""
    out = np.zeros(masks.shape[0], dtype=np.int64)
    for i, row in enumerate(masks):
        legal = np.flatnonzero(row)
        if legal.size:
            out[i] = legal[rng.integers(legal.size)]
    return out


# -- the paths -------------------------------------------------------------------------------------

def run_engine(setup: Setup) -> Measure:
    from boardwright.rl import make_game
    game, rng = make_game(setup.game, options=setup.options), random.Random(setup.seed)
    steps = episodes = 0
    start = CLOCK[0]()
    while CLOCK[0]() - start < setup.seconds or episodes == 0:
        state = game.new_game(setup.seed + episodes)
        apply_id = getattr(state, "_apply_id", None)  # the native engine applies ids directly
        while not state.is_terminal:
            if apply_id is not None:
                apply_id(rng.choice(state.legal_action_ids()))
            else:
                state.apply(rng.choice(state.legal_actions()))
            steps += 1
        episodes += 1
    return Measure(steps, episodes, CLOCK[0]() - start)


def worker_seconds(venv: Any) -> float:
    """CPU seconds used so far by the worker processes of an async vector env (0 for any other
    env, or where /proc cannot tell)."""
    total = 0
    for process in getattr(venv, "processes", ()):
        try:
            with open(f"/proc/{process.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return 0.0
        total += int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks
    return total / os.sysconf("SC_CLK_TCK") if total else 0.0


class VectorStepper:
    """Steps a vector env (anything with Gymnasium's vector API and an `action_mask` in its
    observation) slice by slice, counting only the time inside `step`. With `--clock cpu`, the
    CPU time of an async env's workers counts too (they do the stepping). `clock`: another
    clock than `--clock`'s."""

    def __init__(self, venv: Any, setup: Setup, clock: Callable[[], float] | None = None) -> None:
        self.venv, self.rng = venv, np.random.default_rng(setup.seed)
        self.clock = clock or CLOCK[0]
        self.obs, _info = venv.reset(seed=setup.seed)
        self.workers = self.clock is time.process_time and hasattr(venv, "processes")
        self.first = worker_seconds(venv) if self.workers else 0.0
        self.steps = self.episodes = 0
        self.timed = self.spent = 0.0

    def advance(self, seconds: float) -> Measure:
        """Step until `seconds` more of step time are spent; the totals so far."""
        goal = self.spent + seconds
        while self.spent < goal:
            actions = pick_from_masks(self.obs["action_mask"], self.rng)
            start = self.clock()
            self.obs, _r, terminated, truncated, _info = self.venv.step(actions)
            self.timed += self.clock() - start
            workers = worker_seconds(self.venv) - self.first if self.workers else 0.0
            self.spent = self.timed + workers
            self.steps += self.venv.num_envs
            self.episodes += int(np.count_nonzero(terminated | truncated))
        return Measure(self.steps, self.episodes, self.spent)

    @property
    def rate(self) -> float:
        """Steps per second of step time so far."""
        return self.steps / self.spent

    def close(self) -> None:
        self.venv.close()


def run_vector(venv: Any, setup: Setup) -> Measure:
    stepper = VectorStepper(venv, setup)
    try:
        return stepper.advance(setup.seconds)
    finally:
        stepper.close()


def new_vector_env(setup: Setup, kernel: str, opponent: str) -> Any:
    from boardwright.rl import make_vector_env
    return make_vector_env(num_envs=setup.envs, options=setup.options, opponent=opponent,
                           kernel=kernel)


def new_make_vec(setup: Setup, mode: str, envs: int | None) -> Any:
    import gymnasium

    import boardwright.rl.gymnasium  # noqa: F401
    return gymnasium.make_vec(f"boardwright/{TITLES[setup.game]}-v0",
                              num_envs=envs or setup.envs, vectorization_mode=mode,
                              opponent="random", options=setup.options, actions=setup.actions)


def interleaved_ratio(setup: Setup, slices: int) -> tuple[float, float]:
    """The native vector env and the sync make_vec, both with `setup.envs` games, stepped in
    turn in `slices` slices of `setup.seconds / slices` each: whatever else the machine does
    meanwhile (its speed drifts by a fifth within minutes) falls on both alike. Both keep
    their games from slice to slice, so each sees every stage of a game in its proportion.
    Their steps per second."""
    steppers = [VectorStepper(new_vector_env(setup, "native", "random"), setup),
                VectorStepper(new_make_vec(setup, "sync", None), setup)]
    try:
        for _ in range(slices):
            for stepper in steppers:
                stepper.advance(setup.seconds / slices)
        return steppers[0].rate, steppers[1].rate
    finally:
        for stepper in steppers:
            stepper.close()


def vector_env(kernel: str, opponent: str) -> Callable[[Setup], Measure]:
    def run(setup: Setup) -> Measure:
        return run_vector(new_vector_env(setup, kernel, opponent), setup)
    return run


def make_vec(mode: str, envs: int | None) -> Callable[[Setup], Measure]:
    def run(setup: Setup) -> Measure:
        return run_vector(new_make_vec(setup, mode, envs), setup)
    return run


def run_gymnasium(setup: Setup) -> Measure:
    import gymnasium

    import boardwright.rl.gymnasium  # noqa: F401
    env = gymnasium.make(f"boardwright/{TITLES[setup.game]}-v0", opponent="random",
                         options=setup.options, actions=setup.actions)
    rng = np.random.default_rng(setup.seed)
    steps = episodes = 0
    timed = 0.0
    while timed < setup.seconds or episodes == 0:
        start = CLOCK[0]()
        obs, _info = env.reset(seed=setup.seed + episodes)
        timed += CLOCK[0]() - start
        done = False
        while not done:
            action = int(pick_from_masks(obs["action_mask"][None], rng)[0])
            start = CLOCK[0]()
            obs, _r, term, trunc, _info = env.step(action)
            timed += CLOCK[0]() - start
            done = term or trunc
            steps += 1
        episodes += 1
    return Measure(steps, episodes, timed)


def run_pettingzoo(setup: Setup) -> Measure:
    from boardwright.rl.pettingzoo import env as make_env
    env = make_env(setup.game, actions=setup.actions, **setup.options)
    rng = np.random.default_rng(setup.seed)
    steps = episodes = 0
    timed = 0.0
    while timed < setup.seconds or episodes == 0:
        start = CLOCK[0]()
        env.reset(seed=setup.seed + episodes)
        timed += CLOCK[0]() - start
        for _agent in env.agent_iter():
            start = CLOCK[0]()
            obs, _r, term, trunc, _info = env.last()
            timed += CLOCK[0]() - start
            if term or trunc:
                action = None
            else:
                action = int(pick_from_masks(obs["action_mask"][None], rng)[0])
                steps += 1
            start = CLOCK[0]()
            env.step(action)
            timed += CLOCK[0]() - start
        episodes += 1
    return Measure(steps, episodes, timed)


def run_openspiel(setup: Setup) -> Measure:
    import pyspiel

    import boardwright.rl.openspiel  # noqa: F401
    params: dict[str, Any] = {"players": 2}
    if setup.options:
        params["options"] = json.dumps(setup.options)
    game = pyspiel.load_game(f"python_boardwright_{setup.game}", params)
    rng = random.Random(setup.seed)
    steps = episodes = 0
    timed = 0.0
    while timed < setup.seconds or episodes == 0:
        start = CLOCK[0]()
        state = game.new_initial_state()
        timed += CLOCK[0]() - start
        while True:
            start = CLOCK[0]()
            if state.is_terminal():
                timed += CLOCK[0]() - start
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                timed += CLOCK[0]() - start
                values, probabilities = zip(*outcomes)
                chosen = rng.choices(values, probabilities)[0]
                start = CLOCK[0]()
                state.apply_action(chosen)
                timed += CLOCK[0]() - start
                continue
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            timed += CLOCK[0]() - start
            chosen = rng.choice(legal)
            start = CLOCK[0]()
            state.apply_action(chosen)
            timed += CLOCK[0]() - start
            steps += 1
        episodes += 1
    kind = type(state)
    return Measure(steps, episodes, timed, f"state class {kind.__module__}.{kind.__name__}")


RUNNERS: dict[str, Callable[[Setup], Measure]] = {
    "engine": run_engine,
    "vector-native": vector_env("native", "random"),
    "vector-native-self": vector_env("native", "self"),
    "vector-python": vector_env("python", "random"),
    "sync": make_vec("sync", None),
    "sync-4": make_vec("sync", 4),
    "async-4": make_vec("async", 4),
    "gymnasium": run_gymnasium,
    "pettingzoo": run_pettingzoo,
    "openspiel": run_openspiel,
}


# -- the report ------------------------------------------------------------------------------------

def _echo(connection: Any) -> None:
    """The other end of `pipe_round_trip`: send back whatever comes, until None."""
    while (message := connection.recv()) is not None:
        connection.send(message)


def pipe_round_trip(trips: int = 2000) -> float:
    """Microseconds of wall time for one message to a child process and back over a pipe (what
    an async vector env pays per environment and step, besides its pickling): where it exceeds
    an environment's own step, async vectorisation cannot beat sync."""
    import multiprocessing

    ours, theirs = multiprocessing.Pipe()
    child = multiprocessing.Process(target=_echo, args=(theirs,), daemon=True)
    child.start()
    ours.send(0)
    ours.recv()  # the child is up
    start = time.perf_counter()
    for trip in range(trips):
        ours.send(trip)
        ours.recv()
    elapsed = time.perf_counter() - start
    ours.send(None)
    child.join()
    return elapsed / trips * 1e6


#: The CPUs this process could use before `pin_one_core` (empty where it cannot tell).
ALL_CPUS: set[int] = set()


def pin_one_core() -> str:
    """Run on one CPU (the first this process may use); say which, or why not."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    ALL_CPUS.update(os.sched_getaffinity(0))
    cpu = min(ALL_CPUS)
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def idle_env() -> Any:
    """An environment that does nothing: a one-entry action mask (always legal) for its
    observation, no info. Through Gymnasium's
    `AsyncVectorEnv` it measures what async vectorisation itself costs a step on this machine
    (pipes, pickling, waking the workers), with no environment work to spread over the cores."""
    import gymnasium
    from gymnasium import spaces

    class Idle(gymnasium.Env):  # type: ignore[type-arg]
        observation_space = spaces.Dict({"action_mask": spaces.Box(0, 1, (1,), np.int8)})
        action_space = spaces.Discrete(1)

        def reset(self, *, seed: int | None = None, options: Any = None) -> Any:
            return {"action_mask": np.ones(1, np.int8)}, {}

        def step(self, action: Any) -> Any:
            return {"action_mask": np.ones(1, np.int8)}, 0.0, False, False, {}

    return Idle()


def async_on_all_cores(setup: Setup) -> tuple[float, float, float, int]:
    """Async against sync as async is meant to run: unpinned (every CPU this process had), by
    the wall clock, 4 envs each, each stepped as every path is (`VectorStepper`, `--seconds`
    of step time): sync make_vec, async make_vec, and Gymnasium's `AsyncVectorEnv`
    of 4 `idle_env`s. Their steps per second, and the CPUs used. Where the idle envs' rate is
    below sync's, no environment can make async beat sync here: the workers' round trips alone
    cost more than the sync env's whole step."""
    import gymnasium

    pinned = os.sched_getaffinity(0) if ALL_CPUS else set()
    if ALL_CPUS:
        os.sched_setaffinity(0, ALL_CPUS)
    try:
        rates = []
        for venv in (new_make_vec(setup, "sync", 4), new_make_vec(setup, "async", 4),
                     gymnasium.vector.AsyncVectorEnv([idle_env] * 4)):
            stepper = VectorStepper(venv, setup, clock=time.perf_counter)
            try:
                stepper.advance(setup.seconds)
            finally:
                stepper.close()
            rates.append(stepper.rate)
        return rates[0], rates[1], rates[2], len(ALL_CPUS) or os.cpu_count() or 1
    finally:
        if pinned:
            os.sched_setaffinity(0, pinned)


def option_sets(given: list[str] | None) -> list[tuple[str, dict[str, Any]]]:
    """`--options` values: a named set or a JSON object of game options."""
    out = []
    for text in given or list(OPTION_SETS):
        if text in OPTION_SETS:
            out.append((text, OPTION_SETS[text]))
        else:
            try:
                options = json.loads(text)
            except json.JSONDecodeError:
                raise SystemExit(f"--options {text!r}: not one of {', '.join(OPTION_SETS)} "
                                 "nor a JSON object") from None
            if not isinstance(options, dict):
                raise SystemExit(f"--options {text!r}: a JSON object of game options, please")
            out.append((text, options))
    return out


def envs_of(path: str, envs: int) -> int:
    if path in ("sync-4", "async-4"):
        return 4
    if path.startswith("vector") or path == "sync":
        return envs
    return 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=GAMES)
    parser.add_argument("--adapter", action="append", choices=CARCASSONNE_PATHS,
                        help="the paths to measure (repeat; default: every one the game has)")
    parser.add_argument("--options", action="append",
                        help="Carcassonne options: base, abbey_mayor or a JSON object (repeat; "
                             "default: base and abbey_mayor)")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="timed seconds per path (time inside the environment's calls)")
    parser.add_argument("--envs", type=int, default=64,
                        help="games of the vector env and of sync make_vec")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--actions", choices=("learning", "stable"), default="learning",
                        help="ids of the Gymnasium and PettingZoo adapters (the vector env "
                             "speaks the learning ids only)")
    parser.add_argument("--interleave", type=int, default=0, metavar="SLICES",
                        help="also measure the native vector env and sync make_vec in turn, in "
                             "SLICES slices each of --seconds in all, for their ratio")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="time the calls by the wall clock or by this process's CPU time "
                             "(and the async workers'): the second is steadier on a busy machine")
    args = parser.parse_args(argv)
    CLOCK[0] = time.perf_counter if args.clock == "wall" else time.process_time
    given = argv if argv is not None else sys.argv[1:]
    print("command: python " + shlex.join([sys.argv[0], *given]))
    print(f"python {platform.python_version()} on {platform.machine()}, {pin_one_core()}, "
          f"{args.clock} clock")
    print(f"{'game':<12} {'options':<12} {'path':<19} {'envs':>4} {'steps':>9} {'episodes':>8} "
          f"{'seconds':>7} {'steps/s':>9}")
    ratios = []
    asyncs: list[tuple[str, str, float, float | None]] = []
    fair: list[tuple[str, str, tuple[float, float, float, int]]] = []
    for name in args.game or GAMES:
        sets = option_sets(args.options) if name == "carcassonne" else [("default", {})]
        paths = CARCASSONNE_PATHS if name == "carcassonne" else OTHER_PATHS
        for label, options in sets:
            setup = Setup(name, options, args.seconds, args.seed, args.envs, args.actions)
            rates: dict[str, float] = {}
            for path in paths:
                if args.adapter and path not in args.adapter:
                    continue
                envs = envs_of(path, args.envs)
                head = f"{name:<12} {label:<12} {path:<19} {envs:>4}"
                try:
                    m = RUNNERS[path](setup)
                except (ImportError, BoardwrightError, RuntimeError) as exc:  # cannot run here
                    print(f"{head} skipped: {type(exc).__name__}: {exc}", flush=True)
                    continue
                rates[path] = m.steps / m.seconds
                note = f"  ({m.note})" if m.note else ""
                print(f"{head} {m.steps:>9} {m.episodes:>8} {m.seconds:>7.2f} "
                      f"{rates[path]:>9.0f}{note}", flush=True)
            if "vector-native" in rates and "sync" in rates:
                ratios.append((name, label, rates["vector-native"] / rates["sync"], ""))
            if args.interleave > 0 and name == "carcassonne":
                vector, sync = interleaved_ratio(setup, args.interleave)
                ratios.append((name, label, vector / sync,
                               f", interleaved in {args.interleave} slices: {vector:.0f} "
                               f"against {sync:.0f} steps/s"))
            if "async-4" in rates and "sync-4" in rates:
                asyncs.append((name, label, rates["async-4"] / rates["sync-4"],
                               1e6 / rates["gymnasium"] if "gymnasium" in rates else None))
                fair.append((name, label, async_on_all_cores(setup)))
    for name, label, ratio, how in ratios:
        print(f"{name} {label}: native vector env / sync make_vec ({args.envs} envs) = "
              f"{ratio:.1f}x{how}")
    if asyncs:
        trip = pipe_round_trip()
        for name, label, ratio, step in asyncs:
            single = f", a single env's step {step:.0f} us" if step else ""
            print(f"{name} {label}: async / sync make_vec (4 envs) = {ratio:.2f}x "
                  f"(a pipe round trip to a worker process here: {trip:.0f} us{single})")
    for name, label, (sync, asynchronous, idle, cpus) in fair:
        print(f"{name} {label}, 4 envs on {cpus} CPUs by the wall clock: sync make_vec {sync:.0f} "
              f"steps/s, async {asynchronous:.0f} ({asynchronous / sync:.2f}x); Gymnasium's "
              f"AsyncVectorEnv of 4 envs that do nothing: {idle:.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
