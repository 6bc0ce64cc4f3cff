"""`--engine` on the command line: play, show, simulate and games, and its errors.

A bad engine is a usage error like a bad option: one red line naming the engines the game has,
exit code 2, no traceback.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_helpers import assert_clean_exit, run_cli
from typer.testing import Result

import boardwright as bw
from boardwright.games.carcassonne import native

BOTS = ["--players", "random,random", "--seed", "3"]


def run(*args: str) -> Result:
    return run_cli(*args, columns=140)


def one_error_line(result: Result) -> str:
    lines = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    assert len(lines) == 1, result.output
    return lines[0]


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    result = run("play", "carcassonne", *BOTS, "--save", str(path), "--engine", "python")
    assert_clean_exit(result, 0)
    return path


# -- play -----------------------------------------------------------------------------------------

def test_play_on_the_python_engine_is_the_default_game(tmp_path: Path) -> None:
    chosen, default = tmp_path / "chosen.json", tmp_path / "default.json"
    first = run("play", "carcassonne", *BOTS, "--save", str(chosen), "--engine", "python")
    second = run("play", "carcassonne", *BOTS, "--save", str(default))
    assert_clean_exit(first, 0)
    assert_clean_exit(second, 0)
    assert json.loads(chosen.read_text()) == json.loads(default.read_text())
    assert "engine" not in json.loads(chosen.read_text())


@pytest.mark.parametrize("game, engine, engines", [
    ("carcassonne", "cuda", "python, native"),
    ("carcassonne", "Native", "python, native"),
    ("queens", "native", "python"),
    ("shogun", "native", "python"),
])
def test_play_with_an_unknown_engine(game: str, engine: str, engines: str) -> None:
    result = run("play", game, *BOTS, "--engine", engine)
    assert_clean_exit(result, 2)
    assert one_error_line(result) == (
        f"Error: unknown engine {engine!r} for {game}; engines: {engines}")


def test_play_native_when_not_built_says_why(native_missing: str) -> None:
    result = run("play", "carcassonne", *BOTS, "--engine", "native")
    assert_clean_exit(result, 2)
    line = one_error_line(result)
    assert "the native engine of carcassonne is not available here" in line
    assert native_missing in line


# -- show -----------------------------------------------------------------------------------------

def test_show_replays_on_the_engine_given(record_file: Path) -> None:
    python = run("show", str(record_file), "--to-end", "--engine", "python")
    default = run("show", str(record_file), "--to-end")
    assert_clean_exit(python, 0)
    assert python.output == default.output


def test_show_with_a_bad_engine_is_a_usage_error_not_a_corrupt_record(
        record_file: Path, native_missing: str) -> None:
    result = run("show", str(record_file), "--step", "2", "--engine", "cuda")
    assert_clean_exit(result, 2)
    assert one_error_line(result) == (
        "Error: unknown engine 'cuda' for carcassonne; engines: python, native")
    result = run("show", str(record_file), "--to-end", "--engine", "native")
    assert_clean_exit(result, 2)
    assert native_missing in one_error_line(result)


# -- simulate -------------------------------------------------------------------------------------

def test_simulate_says_which_engine_ran(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    result = run("simulate", "carcassonne", "-a", "random,random", "-n", "3", "--seed", "2",
                 "--engine", "python", "--out", str(out))
    assert_clean_exit(result, 0)
    assert "Simulating 3 games of carcassonne (2 players) · seed 2 · 1 process · python engine" \
        in result.output
    assert re.search(r"^3 games in .* · python engine$", result.output, re.MULTILINE)
    data = json.loads(out.read_text())
    assert data["summary"]["engine"] == "python"
    assert [g["engine"] for g in data["games"]] == ["python"] * 3


def test_simulate_default_engine_is_reported(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    result = run("simulate", "queens", "-a", "random,random", "-n", "2", "--seed", "2",
                 "--out", str(out))
    assert_clean_exit(result, 0)
    assert json.loads(out.read_text())["summary"]["engine"] == "python"


@pytest.mark.skipif(not native.AVAILABLE, reason="the native extension is not built")
def test_simulate_on_the_native_engine_in_workers(tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    result = run("simulate", "carcassonne", "-a", "random,random", "-n", "4", "--seed", "2",
                 "--workers", "2", "--engine", "native", "--out", str(out))
    assert_clean_exit(result, 0)
    assert "2 worker processes · native engine" in result.output
    data = json.loads(out.read_text())
    assert data["summary"]["engine"] == "native"
    assert [g["engine"] for g in data["games"]] == ["native"] * 4


@pytest.mark.parametrize("game, engine", [("carcassonne", "gpu"), ("queens", "native")])
def test_simulate_with_an_unknown_engine(game: str, engine: str) -> None:
    result = run("simulate", game, "-a", "random,random", "-n", "2", "--engine", engine)
    assert_clean_exit(result, 2)
    assert one_error_line(result).startswith(f"Error: unknown engine {engine!r} for {game}")
    assert "Simulating" not in result.output  # nothing ran


def test_simulate_native_when_not_built_says_why(native_missing: str) -> None:
    result = run("simulate", "carcassonne", "-a", "random", "-p", "2", "-n", "2",
                 "--engine", "native")
    assert_clean_exit(result, 2)
    assert native_missing in one_error_line(result)


# -- games ----------------------------------------------------------------------------------------

def test_games_lists_the_engines_usable_here() -> None:
    result = run("games")
    assert_clean_exit(result, 0)
    line = next(l for l in result.output.splitlines() if l.split()[:1] == ["carcassonne"])
    assert ", ".join(bw.available_engines("carcassonne")) in line
    assert "Engines" in result.output


def test_games_leaves_out_an_engine_not_built(native_missing: str) -> None:
    result = run("games")
    assert_clean_exit(result, 0)
    line = next(l for l in result.output.splitlines() if l.split()[:1] == ["carcassonne"])
    assert "native" not in line and "python" in line
