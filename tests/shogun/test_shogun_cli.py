"""`boardwright play shogun`, `simulate shogun` and the terminal renderer.

Runs in-process through Typer's CliRunner (stdin from a string, no colour), as the CLI tests of
the other games do.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from game_helpers import GREEN, RED, scene
from rich.console import Console
from typer.testing import CliRunner, Result

import boardwright as bw
from boardwright.cli import app
from boardwright.render import renderer_for
from boardwright.render.shogun_text import ShogunRenderer, province_lines

RUNNER = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None, "COLUMNS": "120"})


def run(*args: str, input: str | None = None) -> Result:
    return RUNNER.invoke(app, list(args), input=input)


def as_text(renderables: list) -> str:
    console = Console(width=120, no_color=True, record=True, file=io.StringIO())
    for renderable in renderables:
        console.print(renderable, soft_wrap=True)
    return console.export_text()


def test_bot_game_plays_to_the_end_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = run("play", "shogun", "--players", "random,random", "--seed", "3",
                 "--option", "max_rounds=4", "--save", str(path))
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    record = bw.GameRecord.load(path)
    assert (record.game, record.seed, record.players) == ("shogun", 3, 2)
    state = bw.replay(record)
    assert state.is_terminal
    moves = re.findall(r"^(Green|Red) \(random\): ", result.output, re.MULTILINE)
    assert len(moves) == len(record.actions)
    assert "Game over" in result.output and "Final position" in result.output
    assert "Winner" in result.output


def test_bot_demo_gets_the_default_round_cap() -> None:
    result = run("play", "shogun", "--players", "random,random,random", "--seed", "5")
    assert result.exit_code == 0, result.output
    assert "max_rounds = 30" in result.output and "Game over" in result.output


def test_human_picks_from_the_numbered_menu(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = run("play", "shogun", "--players", "human,random", "--seed", "1",
                 "--save", str(path), input="1\nq\n")
    assert result.exit_code == 0, result.output
    record = bw.GameRecord.load(path)
    state = bw.load("shogun", 2).new_game(1)
    assert record.actions[0] == state.legal_actions()[0].to_json()
    assert "choose hero" in result.output


def test_simulate_prints_its_round_cap() -> None:
    result = run("simulate", "shogun", "--agents", "random,random", "-n", "3", "--seed", "2",
                 "--bootstrap", "0")
    assert result.exit_code == 0, result.output
    assert "max_rounds = 30" in result.output
    assert "3 games in" in result.output
    other = run("simulate", "shogun", "--agents", "random", "-p", "2", "-n", "2",
                "--option", "max_rounds=2", "--bootstrap", "0")
    assert other.exit_code == 0, other.output
    assert "max_rounds = 30" not in other.output


def test_renderer_lists_occupied_provinces() -> None:
    state = scene(castles={"satsuma": GREEN}, courts={"kaga": RED}, missions={RED: "m1"},
                  peasants={"higo": GREEN}, hero_at={GREEN: "hyuga", RED: "noto"},
                  shrines=["owari"])
    renderer = renderer_for(state.game, ["you", "random"])
    assert isinstance(renderer, ShogunRenderer)
    text = as_text(province_lines(state))
    assert re.search(r"satsuma\s+▣ castle: roof G", text)
    assert re.search(r"kaga\s+▣ castle: court R", text)
    assert re.search(r"higo\s+g peasant", text) and re.search(r"owari\s+⛩ shrine", text)
    page = as_text(renderer.position(state))
    assert "m1" not in page  # Red's mission stays hidden from Green
    actions, menu = renderer.menu(state)
    assert len(actions) == len(menu) == len(state.legal_actions())
    assert "end the Hero phase" in as_text(menu)
