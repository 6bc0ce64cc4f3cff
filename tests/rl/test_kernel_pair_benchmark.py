"""`benchmarks/kernel_pair.py`: another revision's compiled kernel beside this checkout's, in one
process, stepping the same games."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from script_helpers import load_script

from boardwright.games.carcassonne import native

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "kernel_pair.py"
BINDINGS = ROOT / "src/boardwright/games/carcassonne/native/cpp/bindings.cpp"


@pytest.fixture(scope="module")
def kernel_pair() -> ModuleType:
    return load_script(SCRIPT, "kernel_pair_benchmark")


def test_the_bindings_are_renamed_into_a_second_module(kernel_pair: ModuleType) -> None:
    """The module name and the bindings' anonymous namespace, each once: what keeps the two
    modules' classes apart (a change to bindings.cpp that breaks the renaming fails here)."""
    text = BINDINGS.read_text()
    renamed = kernel_pair.rename_module(text)
    assert text.count("NB_MODULE(_engine, m)") == 1
    assert "NB_MODULE(_engine_v, m)" in renamed and "NB_MODULE(_engine, m)" not in renamed
    assert "\nnamespace {\n" not in renamed
    assert renamed.count("}  // namespace bindv\nusing namespace bindv;") == 1
    assert renamed.index("namespace bindv {") < renamed.index("using namespace bindv;") \
        < renamed.index("NB_MODULE(_engine_v")


def head_sources_are_checked_out() -> bool:
    """HEAD's engine sources are the ones installed (a clean checkout of them)."""
    if shutil.which("git") is None:
        return False
    done = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "setup.py",
                           "src/boardwright/games/carcassonne/native/cpp"],
                          cwd=ROOT, capture_output=True)
    return done.returncode == 0


@pytest.mark.slow
@pytest.mark.skipif(not native.AVAILABLE, reason="the native extension is not built")
@pytest.mark.skipif(not head_sources_are_checked_out(),
                    reason="the engine's sources differ from HEAD's (or no git)")
def test_heads_kernel_steps_the_same_games_beside_the_installed_one(
        kernel_pair: ModuleType, tmp_path: Path) -> None:
    variant = kernel_pair.load_variant(kernel_pair.build_variant("HEAD", tmp_path))
    assert variant.__name__.endswith("_engine_v")
    options = {"expansions": ["abbey_mayor"]}
    here = kernel_pair.vector_env(options, "random", 3, None)
    other = kernel_pair.vector_env(options, "random", 3, variant)
    assert type(other.kernel._core).__module__ != type(here.kernel._core).__module__
    here.reset(seed=5)
    other.reset(seed=5)
    rng = np.random.default_rng(0)
    ended = False
    for _ in range(150):  # past the end of the first games (automatic resets)
        assert np.array_equal(here.action_masks(), other.action_masks())
        actions = kernel_pair.pick(here.action_masks(), rng)
        here.step(actions)
        other.step(actions)
        for name in ("board", "scalars", "reward", "terminated", "to_move"):
            assert np.array_equal(getattr(here.kernel, name), getattr(other.kernel, name)), name
        ended = ended or bool(here.kernel.terminated.any())
    assert ended
    totals, ratios = kernel_pair.measure(here, other, 2, 3, rng)
    assert len(ratios) == 2 and all(r > 0 for r in ratios) and min(totals) > 0
    # Whole random games: the same games from the same seeds on both engines.
    installed, built = kernel_pair.game_specs(options, variant, same=False)
    assert type(built).__module__ != type(installed).__module__
    totals, ratios, results = kernel_pair.measure_games(installed, built, 2, 4)
    assert len(ratios) == 2 and min(totals) > 0
    assert results[0] == results[1] and results[0] == installed.random_games(4, 1)
