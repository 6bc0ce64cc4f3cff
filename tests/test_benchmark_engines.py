"""`benchmarks/throughput.py --engine`: engines measured side by side on the same games."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest
from script_helpers import load_script

from boardwright.games.carcassonne import native

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "throughput.py"


@pytest.fixture(scope="module")
def throughput() -> ModuleType:
    return load_script(SCRIPT, "throughput_benchmark")


def test_default_is_the_games_default_engine(throughput: ModuleType, capsys) -> None:
    throughput.main(["--games", "2", "--workload", "queens"])
    out = capsys.readouterr().out
    assert "engine: python" in out and re.search(r"throughput: [\d.]+ games/s", out)


@pytest.mark.skipif(not native.AVAILABLE, reason="the native extension is not built")
def test_two_engines_side_by_side_with_their_ratio(throughput: ModuleType, capsys) -> None:
    throughput.main(["--games", "3", "--workload", "base", "--engine", "python,native"])
    out = capsys.readouterr().out
    assert re.search(r"\[python\] throughput: [\d.]+ games/s", out)
    assert re.search(r"\[native\] throughput: [\d.]+ games/s", out)
    assert re.search(r"native / python: [\d.]+x the games per second", out)
    assert "WARNING" not in out  # the same seeds gave the same games


def test_all_leaves_out_an_engine_not_built(throughput: ModuleType, capsys,
                                            native_missing: str) -> None:
    throughput.main(["--games", "2", "--workload", "base", "--engine", "all"])
    out = capsys.readouterr().out
    assert f"workload base: native engine not available here ({native_missing}), left out" in out
    assert "engine: python" in out and "native /" not in out


def test_engines_a_game_lacks_are_left_out(throughput: ModuleType, capsys) -> None:
    throughput.main(["--games", "2", "--workload", "queens", "--engine", "python,native"])
    out = capsys.readouterr().out
    assert "workload queens: queens has no native engine, left out" in out
    assert "engine: python" in out


@pytest.mark.parametrize("engines, message", [
    ("cuda", "no workload has the engine(s) 'cuda'; engines: carcassonne: python, native"),
    ("python,native", "the native engine of carcassonne is not available here"),
])
def test_bad_engines_stop_before_measuring(throughput: ModuleType, capsys, native_missing: str,
                                           engines: str, message: str) -> None:
    with pytest.raises(SystemExit) as info:
        throughput.main(["--games", "2", "--game", "carcassonne", "--engine", engines])
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert message in captured.err and "throughput:" not in captured.out
