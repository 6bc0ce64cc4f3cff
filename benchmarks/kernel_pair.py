"""The compiled vector kernel of this checkout against the one of another revision, stepped in
turn in one process: the way to tell whether a change to the C++ engine makes the vector env
faster, on a machine whose speed drifts by more than the change.

    python benchmarks/kernel_pair.py                         # this checkout against HEAD
    python benchmarks/kernel_pair.py --against HEAD~3 --options abbey_mayor --rounds 50
    python benchmarks/kernel_pair.py --against HEAD --same   # both sides HEAD: the noise floor
    python benchmarks/kernel_pair.py --against HEAD --random-games 300   # whole random games

The other revision's engine sources (`git archive`) are built in a temporary directory as a
second extension module, `_engine_v`, whose C++ namespace is renamed so that both modules live
in one interpreter (each registers its own classes). Each side gets its own vector env of
`--envs` games with the same seed; every round steps one side `--calls` times, then the other
(the order alternates), timing only the kernel's `step` (the actions, uniformly random legal
ones from the masks, are picked outside the timed part). A round's ratio is the other side's
time over this side's: above 1, this checkout steps faster. The mean ratio and its standard
error over the rounds are printed, with each side's steps per second. `--same` builds the
other revision for both sides: its ratio shows how far two identical kernels differ here (a
change smaller than that is not shown by one run). `--random-games N` times whole random
games in compiled code instead (`Spec.random_games`, the tile laying the searches' playouts
use): N games of each side per round, from the same seeds.

Needs a C++ compiler, nanobind and git (the `dev` extra has nanobind). One core: the process is
pinned to one CPU where the system allows it.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import os
import platform
import shlex
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from boardwright.rl.vector_native import MODES

ROOT = Path(__file__).resolve().parent.parent
CPP = "src/boardwright/games/carcassonne/native/cpp"
MODULE = "boardwright.games.carcassonne.native._engine_v"
OPTION_SETS = {"base": None, "abbey_mayor": {"expansions": ["abbey_mayor"]}}


def load_module(name: str, path: Path) -> Any:
    """The file at `path` (a script or an extension) as the module `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # (a script's dataclasses look their module up)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


RL_STEPS = load_module("rl_steps_benchmark", Path(__file__).with_name("rl_steps.py"))


def rename_module(bindings: str) -> str:
    """bindings.cpp with the module named `_engine_v` and its anonymous namespace named (the
    classes it binds would otherwise clash with the installed module's)."""
    text = bindings.replace("NB_MODULE(_engine, m)", "NB_MODULE(_engine_v, m)")
    text = text.replace("\nnamespace {\n", "\nnamespace bindv {\n", 1)
    end = text.rindex("}  // namespace", 0, text.index("NB_MODULE(_engine_v"))
    return (text[:end] + "}  // namespace bindv\nusing namespace bindv;"
            + text[end + len("}  // namespace"):])


def build_variant(revision: str, workdir: Path) -> Path:
    """The engine of `revision` built as `_engine_v`; the path of the extension."""
    archive = subprocess.run(["git", "archive", "--format=tar", revision, "setup.py",
                              "pyproject.toml", CPP],
                             cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(workdir, filter="data")
    bindings = workdir / CPP / "bindings.cpp"
    bindings.write_text(rename_module(bindings.read_text()))
    setup = workdir / "setup.py"
    setup.write_text(setup.read_text().replace(
        'EXTENSION = "boardwright.games.carcassonne.native._engine"', f'EXTENSION = "{MODULE}"'))
    env = {**os.environ, "CPPFLAGS": "-Dcarc=carcv", "BOARDWRIGHT_NATIVE": "1"}
    log = workdir / "build.log"
    with log.open("w") as out:
        build = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"],
                               cwd=workdir, env=env, stdout=out, stderr=subprocess.STDOUT)
    if build.returncode:
        raise SystemExit(f"the engine of {revision} was not built:\n"
                         + "\n".join(log.read_text().splitlines()[-15:]))
    built = sorted((workdir / "src/boardwright/games/carcassonne/native").glob("_engine_v*.so"))
    if not built:
        raise SystemExit(f"the engine of {revision} was not built: see {log}")
    return built[0]


def load_variant(path: Path) -> Any:
    """The built variant as a module (once per process: a second copy would register the same
    classes again)."""
    return load_module(MODULE, path)


def variant_spec(engine: Any, game: Any) -> Any:
    """`game` compiled by `engine` (the variant module): its own `Spec` of the game's data."""
    from boardwright.games.carcassonne.game import native_spec_data
    return engine.Spec(native_spec_data(game), game._decoder)


def vector_env(options: Any, opponent: str, envs: int, engine: Any | None) -> Any:
    """A vector env on the installed kernel, or on `engine`'s (the variant module)."""
    from boardwright.rl import make_vector_env
    venv = make_vector_env(num_envs=envs, options=options, opponent=opponent, kernel="native")
    if engine is not None:
        from boardwright.rl.observations.carcassonne_native import native_layout
        k = venv.kernel
        spec = variant_spec(engine, k.game)
        layout = engine.ObsSpec(spec, native_layout(k.encoder, k.space, channels_last=True))
        k._core = k.make_core(engine, spec, layout)
        k._variant_keep = (spec, layout)  # the core points into both
    return venv


def pick(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal id per row: `rl_steps.py`'s choice, so both benchmarks step
    the kernels alike."""
    return RL_STEPS.pick_from_masks(masks, rng)


def in_turn(rounds: int, run: Callable[[int, int], int]) -> tuple[list[int], list[float]]:
    """`run(side, round)` (the nanoseconds side 0 or 1 spent in that round's timed work) for
    both sides each round, the first side alternating: the nanoseconds each spent in all, and
    each round's ratio of side 1's time to side 0's."""
    totals, ratios = [0, 0], []
    for r in range(rounds):
        spent = [0, 0]
        for side in ((0, 1) if r % 2 == 0 else (1, 0)):
            spent[side] = run(side, r)
        ratios.append(spent[1] / spent[0])
        totals[0] += spent[0]
        totals[1] += spent[1]
    return totals, ratios


def measure(here: Any, other: Any, rounds: int, calls: int,
            rng: np.random.Generator) -> tuple[list[int], list[float]]:
    """Both vector envs stepped in turn, `calls` steps each per round (the first side
    alternates): the nanoseconds each spent in its kernel's step, and each round's ratio of
    `other`'s time to `here`'s."""
    def steps(side: int, _round: int) -> int:
        venv = (here, other)[side]
        core, spent = venv.kernel._core, 0
        for _ in range(calls):
            actions = pick(venv.action_masks(), rng)
            start = time.perf_counter_ns()
            core.step(actions)
            spent += time.perf_counter_ns() - start
        return spent
    return in_turn(rounds, steps)


def game_specs(options: Any, engine: Any, same: bool) -> tuple[Any, Any]:
    """The compiled game of this checkout (or `engine`'s with `same`) and `engine`'s, for
    2-player games with `options`."""
    import boardwright as bw
    game = bw.load("carcassonne", 2, options or {})
    return (variant_spec(engine, game) if same else game._native_spec), variant_spec(engine, game)


def measure_games(here: Any, other: Any, rounds: int,
                  games: int) -> tuple[list[int], list[float], list[Any]]:
    """Both compiled games playing `games` random games in turn each round, from the round's
    seed (the first side alternates): the nanoseconds each spent, each round's ratio of
    `other`'s time to `here`'s, and each side's results of the last round."""
    results: list[Any] = [None, None]

    def play(side: int, r: int) -> int:
        start = time.perf_counter_ns()
        results[side] = (here, other)[side].random_games(games, r)
        return time.perf_counter_ns() - start
    totals, ratios = in_turn(rounds, play)
    return totals, ratios, results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD", help="the other revision (default HEAD)")
    parser.add_argument("--same", action="store_true",
                        help="both sides on the other revision's engine (the noise floor)")
    parser.add_argument("--options", choices=sorted(OPTION_SETS), default="base")
    parser.add_argument("--opponent", choices=sorted(MODES), default="random")
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--calls", type=int, default=200, help="steps of each side per round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--random-games", type=int, default=0, metavar="N",
                        help="time N whole random games of each side per round instead")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    with tempfile.TemporaryDirectory(prefix="kernel-pair-") as tmp:
        variant = load_variant(build_variant(args.against, Path(tmp)))
    options = OPTION_SETS[args.options]
    if args.random_games > 0:
        totals, ratios, _ = measure_games(*game_specs(options, variant, args.same), args.rounds,
                                          args.random_games)
        steps, unit, what = args.rounds * args.random_games, "games/s", "2 players, random games"
    else:
        here = vector_env(options, args.opponent, args.envs, variant if args.same else None)
        other = vector_env(options, args.opponent, args.envs, variant)
        for venv in (here, other):
            venv.reset(seed=args.seed)
        totals, ratios = measure(here, other, args.rounds, args.calls,
                                 np.random.default_rng(args.seed))
        steps, unit = args.rounds * args.calls * args.envs, "steps/s"
        what = f"{args.envs} envs, opponent {args.opponent}"
    x = np.array(ratios)
    label = f"{args.against}'s engine" if args.same else "this checkout"
    print("Command: python benchmarks/kernel_pair.py " + shlex.join(sys.argv[1:] if argv is None
                                                                     else argv))
    print(f"python {platform.python_version()} on {platform.machine()}, one process, one core, "
          f"{args.options}, {what}")
    print(f"{label}: {steps / totals[0] * 1e9:,.0f} {unit}; {args.against}: "
          f"{steps / totals[1] * 1e9:,.0f} {unit}")
    print(f"time of {args.against} / time of {label}: {x.mean():.4f} "
          f"(standard error {x.std(ddof=1) / np.sqrt(len(x)):.4f}, {args.rounds} rounds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
