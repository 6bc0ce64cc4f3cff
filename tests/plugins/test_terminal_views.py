"""The terminal shows a human their own view of a game: their dice, their hand (`view(seat)`),
never only the spectator's; several humans at one terminal get it handed over between them when
their views hold secrets; and a game may draw its view itself (`render(view, seat)`: the
renderer hook of render/view_renderers.py). Played on a tiny Liar's Dice (tests/hidden_dice.py)
and on the Goofspiel example."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import hidden_dice
import pytest
from cli_helpers import assert_clean_exit, run_cli
from example_plugins import write_dist_info
from rich.text import Text
from typer.testing import CliRunner, Result

import boardwright as bw
from boardwright.cli import app
from boardwright.render import view_renderers

SEED = 5  # Red rolls 3 and 5, Blue 3 and 6


@pytest.fixture(autouse=True)
def dice_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Liar's Dice registered, and the renderer hook's registrations restored after."""
    monkeypatch.setattr(view_renderers, "_REGISTERED", {})
    hidden_dice.register()
    yield


def dice(seat: int, seed: int = SEED) -> str:
    return ", ".join(map(str, bw.load("hidden_dice", 2).new_game(seed).view(seat)["dice"]))


def play(players: str, answers: str, env: dict[str, Any] | None = None) -> Result:
    runner = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None, "COLUMNS": "100",
                            **(env or {})})
    return runner.invoke(app, ["play", "hidden_dice", "--players", players, "--seed", str(SEED)],
                         input=answers)


def lines_of(result: Result) -> list[str]:
    return [" ".join(line.split()) for line in result.output.splitlines()]


def test_the_seeds_dice_differ() -> None:
    assert dice(0) == "3, 5" and dice(1) == "3, 6"


def test_a_human_sees_their_own_dice_and_no_one_elses() -> None:
    result = play("human,random", "1\nq\nn\n")
    assert_clean_exit(result, 0)
    lines = lines_of(result)
    assert lines.count("Only Red sees") == 2  # two decisions: the bid, then q
    assert [line for line in lines if re.match(r"dice \d", line)] == ["dice 3, 5"] * 2
    assert "Everyone sees" in lines and "dice on table 4" in lines
    assert "Red (you): bids 1 × 1" in lines


def test_the_final_position_is_the_humans_view() -> None:
    result = play("human,random", "24\n")  # bid 4 × 6: Blue can only call
    assert_clean_exit(result, 0)
    lines = lines_of(result)
    final = lines[next(i for i, line in enumerate(lines) if "Game over" in line):]
    assert "dice 3, 5" in final and "revealed [[3,5],[3,6]]" in final


def test_a_demo_between_bots_shows_the_spectators_view() -> None:
    result = play("random,random", "")
    assert_clean_exit(result, 0)
    lines = lines_of(result)
    assert "dice —" in lines and "Only Red sees" not in result.output


def test_goofspiel_shows_the_human_their_hand() -> None:
    result = run_cli("play", "goofspiel", "--players", "human,matcher", "-o", "cards=3",
                     "--seed", "2")
    assert_clean_exit(result, 1)  # no input: the game is left unfinished
    lines = lines_of(result)
    assert "Only Red sees" in lines and "hand 1, 2, 3" in lines


def test_hot_seat_hands_the_terminal_over_between_humans() -> None:
    result = play("human,human", "1\n\n1\n\nq\nn\n")
    assert_clean_exit(result, 0)
    lines = lines_of(result)
    red, blue = "dice 3, 5", "dice 3, 6"
    to_blue = lines.index("Pass the terminal to Blue.")
    to_red = lines.index("Pass the terminal to Red.")
    assert lines.index(red) < to_blue < lines.index(blue) < to_red
    assert red not in lines[to_blue:to_red] and blue not in lines[to_red:]
    assert lines[to_blue + 1].startswith("Blue, press Enter when only you can see the screen")
    # what the other saw go by is told again, in a spectator's words
    assert lines[to_blue + 2:to_blue + 4] == ["So far:", "Red (human): bids 1 × 1"]
    assert lines[to_red + 2:to_red + 5] == ["Since your last turn:", "Red (human): bids 1 × 1",
                                           "Blue (human): bids 1 × 2"]


def test_hot_seat_clears_the_terminal_at_each_hand_over() -> None:
    result = play("human,human", "1\n\nq\nn\n", env={"FORCE_COLOR": "1"})  # a terminal
    assert_clean_exit(result, 0)
    output, clear = result.output, "\x1b[2J"
    moved, handed = output.index("Red (human): bids 1 × 1"), output.index("Pass the terminal")
    first = output.index(clear)
    second = output.index(clear, first + 1)
    assert moved < first < handed < second < output.index("Blue to play")  # again after Enter
    assert output.count(clear) == 2 and output.count("\x1b[3J") == 2  # and the scrollback


def test_q_at_a_hand_over_leaves_the_game() -> None:
    result = play("human,human", "1\nq\nn\n")
    assert_clean_exit(result, 0)
    assert "dice 3, 6" not in lines_of(result) and "Game left unfinished." in lines_of(result)


def test_hot_seat_of_a_game_without_secrets_has_no_hand_over() -> None:
    result = run_cli("play", "carcassonne", "--players", "human,human", "--seed", "1")
    assert_clean_exit(result, 1)  # no input
    assert "Pass the terminal" not in result.output


# -- the renderer hook ----------------------------------------------------------------------------

def my_render(view: dict[str, Any], seat: int | None) -> Text:
    """Draws the dice its own way, with an escape sequence it forgot to escape."""
    return Text(f"My dice: {view['dice']} (seat {seat}) \x1b[2J")


def test_a_game_draws_its_view_itself() -> None:
    from boardwright.render import register_renderer

    register_renderer("hidden_dice", my_render)
    result = play("human,random", "q\nn\n")
    assert_clean_exit(result, 0)
    assert "My dice: [3, 5] (seat 0) \\x1b[2J" in lines_of(result)
    assert "Only Red sees" not in result.output and "\x1b" not in result.output


def test_show_draws_the_spectators_view_with_the_games_renderer(tmp_path: Path) -> None:
    view_renderers.register_renderer("hidden_dice", my_render)
    state = bw.load("hidden_dice", 2).new_game(SEED)
    state.apply(state.legal_actions()[0])
    path = tmp_path / "game.json"
    state.record.save(path)
    result = run_cli("show", str(path), "--to-end")
    assert_clean_exit(result, 0)
    assert "My dice: None (seat None) \\x1b[2J" in lines_of(result)


def test_a_renderer_is_found_through_its_entry_point(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "package"
    package.mkdir()
    (package / "pyproject.toml").write_text(
        '[project]\nname = "dice-terminal"\nversion = "1.0"\n'
        '[project.entry-points."boardwright.renderers"]\n'
        'hidden_dice = "dice_terminal:render"\nbroken_game = "no_such_module_here:render"\n')
    (package / "dice_terminal.py").write_text(
        "from rich.text import Text\n\n"
        "def render(view, seat):\n    return Text(f'entry point dice {view[\"dice\"]}')\n")
    write_dist_info(package, tmp_path / "site")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.syspath_prepend(str(package))
    monkeypatch.delitem(__import__("sys").modules, "dice_terminal", raising=False)
    assert view_renderers.view_renderer("hidden_dice").__module__ == "dice_terminal"
    with pytest.raises(bw.PluginError, match="broken_game = no_such_module_here:render"):
        view_renderers.view_renderer("broken_game")
    result = play("human,random", "q\nn\n")
    assert "entry point dice [3, 5]" in lines_of(result)


def test_a_registered_renderer_must_be_callable() -> None:
    with pytest.raises(bw.PluginError, match="must be a function of \\(view, seat\\)"):
        view_renderers.register_renderer("hidden_dice", "render")  # type: ignore[arg-type]


# -- a plug-in game's own strings ----------------------------------------------------------------

class LoudDice(hidden_dice.LiarsDiceGame):
    """Liar's Dice whose action texts carry escape sequences and markup."""

    def action_text(self, action: Any) -> str:
        return "\x1b[2J[bold]" + super().action_text(action) + "\x07"


def test_a_plug_in_games_texts_are_escaped() -> None:
    from boardwright.core.registry import register

    register("hidden_dice", LoudDice)
    result = play("human,random", "1\nq\nn\n")
    assert_clean_exit(result, 0)
    assert "\x1b" not in result.output and "\x07" not in result.output
    lines = lines_of(result)
    assert "1 \\x1b[2J[bold]bids 1 × 1\\x07" in lines  # the menu
    assert "Red (you): \\x1b[2J[bold]bids 1 × 1\\x07" in lines  # the move line


class OpenDice(hidden_dice.LiarsDiceGame):
    """Liar's Dice declared a game of perfect information: nothing to hand over."""

    perfect_information = True


def test_hot_seat_of_a_game_of_perfect_information_has_no_hand_over() -> None:
    from boardwright.core.registry import register

    register("hidden_dice", OpenDice)
    result = play("human,human", "1\n1\nq\nn\n")
    assert_clean_exit(result, 0)
    assert "Pass the terminal" not in result.output
    assert "Blue (human): bids 1 × 2" in lines_of(result)
