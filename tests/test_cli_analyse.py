"""`boardwright analyse`: judges a record's decisions, stores the analysis beside the record and
reuses it, and refuses bad input with one clean line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from cli_helpers import assert_clean_exit, run_cli
from typer.testing import Result

import boardwright as bw
from boardwright.agents.analysis import Analysis, Settings, analyse, record_hash
from boardwright.cli.analyse import analysis_path


def run(*args: str) -> Result:
    return run_cli(*args, columns=110)


def short_record(tmp_path: Path, name: str = "carcassonne", plies: int = 16,
                 players: int = 2) -> Path:
    state = bw.load(name, players, {}).new_game(4)
    rng = random.Random(4)
    for _ in range(plies):
        state.apply(rng.choice(state.legal_actions()))
    path = tmp_path / "game.json"
    state.record.save(path)
    return path


def test_analyse_prints_the_summary_flags_and_chart_and_stores_the_analysis(
        tmp_path: Path) -> None:
    path = short_record(tmp_path)
    # wide enough that no move's words wrap in the table of flagged moves
    result = run_cli("analyse", str(path), "--iterations", "24", "--workers", "1", "--seed", "3",
                     columns=200)
    assert_clean_exit(result, 0)
    stored = analysis_path(path)
    assert stored == tmp_path / "game.analysis.json" and stored.is_file()
    analysis = Analysis.loads(stored.read_text())
    assert analysis.settings.iterations == 24 and analysis.settings.seed == 3
    assert analysis.settings.engine == bw.available_engines("carcassonne")[0]
    assert analysis.record_hash == record_hash(bw.GameRecord.load(path))
    assert len(analysis.decisions) == 16
    out = result.output
    assert "Analysed 16 decisions" in out and "Points lost per decision" in out
    assert "Red" in out and "Blue" in out and "Avg lost" in out and "Judged" in out
    assert "Expected final margin of Red" in out and "└" in out
    flagged = [d for d in analysis.decisions if d.flag]
    if flagged:  # random moves: each flagged one is listed with its step (1-based)
        assert "Flagged moves" in out and flagged[0].played.split(" of ")[0] in out
    else:
        assert "No flagged move." in out


def test_a_stored_analysis_with_the_same_settings_is_reused(tmp_path: Path) -> None:
    path = short_record(tmp_path, plies=6)
    out = tmp_path / "mine.json"
    first = run("analyse", str(path), "--iterations", "16", "--workers", "1", "--out", str(out))
    assert_clean_exit(first, 0)
    made = out.read_text()
    again = run("analyse", str(path), "--iterations", "16", "--workers", "1", "--out", str(out))
    assert_clean_exit(again, 0)
    assert "Stored analysis" in again.output and "Analysed" not in again.output
    assert out.read_text() == made
    other = run("analyse", str(path), "--iterations", "16", "--seed", "9", "--workers", "1",
                "--out", str(out))
    assert "Analysed 6 decisions" in other.output  # other settings: analysed again
    forced = run("analyse", str(path), "--iterations", "16", "--seed", "9", "--workers", "1",
                 "--out", str(out), "--force")
    assert "Analysed 6 decisions" in forced.output


@pytest.mark.parametrize("name, unit", [("queens", "Fields"), ("shogun", "VP")])
def test_another_games_record_is_analysed_in_its_unit(tmp_path: Path, name: str,
                                                      unit: str) -> None:
    path = short_record(tmp_path, name, plies=5)
    result = run("analyse", str(path), "--iterations", "8", "--workers", "1")
    assert_clean_exit(result, 0)
    assert "Analysed 5 decisions" in result.output
    assert f"{unit} lost per decision" in result.output and f"({unit})" in result.output


def test_more_players_chart_every_seat(tmp_path: Path) -> None:
    path = short_record(tmp_path, players=3, plies=6)
    result = run("analyse", str(path), "--iterations", "8", "--workers", "1")
    assert_clean_exit(result, 0)
    assert "Each seat's expected final lead" in result.output


@pytest.mark.parametrize("content, message", [
    (b"\x00\xff garbage", "record"),
    (b'{"game": "chess", "version": "1", "options": {}, "seed": 1, "players": 2, '
     b'"actions": []}', "unknown game"),
])
def test_a_corrupt_record_is_one_clean_line(tmp_path: Path, content: bytes, message: str
                                            ) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    result = run("analyse", str(path), "--workers", "1")
    assert_clean_exit(result, 1)
    assert "Error:" in result.output and message in result.output
    assert not analysis_path(path).exists()


def test_bad_options_and_files_are_refused(tmp_path: Path) -> None:
    path = short_record(tmp_path, plies=2)
    assert_clean_exit(run("analyse", str(path), "--iterations", "0"), 2)
    assert_clean_exit(run("analyse", str(path), "--workers", "0"), 2)
    assert_clean_exit(run("analyse", str(path), "--engine", "steam"), 2)
    assert_clean_exit(run("analyse", str(path), "--out", str(path)), 2)
    assert_clean_exit(run("analyse", str(tmp_path / "missing.json")), 1)
    junk = tmp_path / "notes.txt"
    junk.write_text("my notes")
    result = run("analyse", str(path), "--out", str(junk), "--workers", "1")
    assert_clean_exit(result, 2)
    assert "not an analysis" in result.output and junk.read_text() == "my notes"


def test_the_cli_stores_what_the_module_computes(tmp_path: Path) -> None:
    path = short_record(tmp_path, plies=5)
    run("analyse", str(path), "--iterations", "16", "--workers", "1", "--seed", "2")
    stored = json.loads(analysis_path(path).read_text())
    direct = analyse(bw.GameRecord.load(path), Settings(iterations=16, seed=2), workers=1)
    assert stored["decisions"] == direct.to_json()["decisions"]
