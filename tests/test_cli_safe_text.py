"""Text from outside never reaches the terminal raw: seat names of a crafted record (`show`),
agent strings given to `play` and `simulate`, options, and what a player types are shown with
their control characters written out (ESC as `\\x1b`) and their brackets as they are, never
read as Rich markup (render/safe_text.py)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import assert_clean_exit, run_cli
from play_helpers import play_out
from rich.console import Console
from rich.table import Table
from typer.testing import CliRunner

import boardwright as bw
from boardwright.cli import app
from boardwright.cli.common import emit
from boardwright.render.safe_text import Visible, guarded, safe_markup, safe_text, visible

# A colour, a bell, markup and a carriage return (which would rewrite the line from its start).
EVIL = "\x1b[31mred\x07[bold]loud[/bold]\rx"
EVIL_SHOWN = "\\x1b[31mred\\x07[bold]loud[/bold]\\x0dx"
# An OSC sequence: sets the terminal window's title.
TITLE = "[red]blue[/red]\x1b]0;title\x07"
TITLE_SHOWN = "[red]blue[/red]\\x1b]0;title\\x07"
RAW = ("\x1b", "\x07", "\r", "\x9b")


def assert_nothing_raw(output: str) -> None:
    for char in RAW:
        assert char not in output, f"{char!r} reached the terminal: {output!r}"


def printed(*renderables: Any, width: int = 200) -> str:
    """What a console without colours prints for `renderables`."""
    out = io.StringIO()
    console = Console(file=out, width=width, no_color=True, highlight=False)
    for renderable in renderables:
        console.print(renderable)
    return out.getvalue()


# -- the functions --------------------------------------------------------------------------------

@pytest.mark.parametrize("text, shown", [
    (EVIL, EVIL_SHOWN),
    (TITLE, TITLE_SHOWN),
    ("\x9b2J", "\\x9b2J"),  # a one-character CSI (C1)
    ("back\x08space\x7f", "back\\x08space\\x7f"),
    ("line\nbreak\ttab", "line\\x0abreak\\x09tab"),
    ("\u202eevil\u2066", "\\u202eevil\\u2066"),  # a right-to-left override, an isolate
    ("Queens & Princes — é, 漢字, [x]", "Queens & Princes — é, 漢字, [x]"),  # unchanged
])
def test_control_characters_are_written_out(text: str, shown: str) -> None:
    assert visible(text) == shown
    assert visible(visible(text)) == shown  # idempotent: escaping twice changes nothing more


def test_line_breaks_may_be_kept() -> None:
    assert visible("a\nb\x1b", newlines=True) == "a\nb\\x1b"


def test_brackets_are_never_read_as_markup() -> None:
    table = Table(title=safe_markup(EVIL), min_width=60)
    table.add_column("Agent")
    table.add_row(safe_text(TITLE))
    output = printed(safe_text(EVIL), table)
    assert_nothing_raw(output)
    assert output.count(EVIL_SHOWN) == 2 and TITLE_SHOWN in output


def test_a_drawing_with_raw_text_is_made_visible() -> None:
    """A renderable built by code that did not escape (a plug-in's renderer): `Visible` and
    `guarded` write out its control characters and leave its layout and styles alone."""
    table = Table(title="Dice")
    table.add_column("Name")
    table.add_row(EVIL)
    output = printed(Visible(table), guarded(Table.grid()), guarded(EVIL.replace("[", "(")))
    assert_nothing_raw(output)
    assert "│ \\x1b[31mredloudx │" in output  # (Rich drops a bell and a carriage return)
    assert "\\x1b(31mred" in output and "Dice" in output
    plain = safe_text("no control characters")
    assert guarded(plain) is plain  # printed exactly as before


def test_the_command_lines_printing_is_guarded() -> None:
    out = io.StringIO()
    emit(Console(file=out, width=200, no_color=True), safe_text("ok").append(EVIL))
    assert_nothing_raw(out.getvalue())
    assert "ok\\x1b[31mred" in out.getvalue()


# -- the commands --------------------------------------------------------------------------------

@pytest.mark.parametrize("game, options", [
    ("carcassonne", {}), ("queens", {}), ("goofspiel", {"cards": 3}),
])
def test_show_escapes_the_seat_names_of_a_crafted_record(tmp_path: Path, game: str,
                                                          options: dict[str, Any]) -> None:
    record = play_out(bw.load(game, 2, options), ["random", "random"], 1).record
    record.meta["seats"] = [EVIL, TITLE]
    path = tmp_path / "crafted.json"
    record.save(path)
    for args in (["--to-end"], ["--step", "1"]):
        result = run_cli("show", str(path), *args, columns=300)
        assert_clean_exit(result, 0)
        assert_nothing_raw(result.output)
        assert f"Red ({EVIL_SHOWN})" in result.output
        assert f"Blue ({TITLE_SHOWN})" in result.output


def test_show_escapes_what_is_typed(tmp_path: Path) -> None:
    record = play_out(bw.load("goofspiel", 2, {"cards": 3}), ["random", "random"], 1).record
    path = tmp_path / "game.json"
    record.save(path)
    result = CliRunner(env={"NO_COLOR": "1", "COLUMNS": "200"}).invoke(
        app, ["show", str(path)], input=f"{TITLE}\nq\n")
    assert_clean_exit(result, 0)
    assert_nothing_raw(result.output)
    assert f"(step 0): {TITLE_SHOWN}\n" in result.output  # the answer, echoed
    assert f"{TITLE!r} is not understood" in result.output  # and named


class TalkerAgent:
    """Plays the first legal move; its `motto` parameter takes any text."""

    def __init__(self, seed: int | None = None, motto: str = "") -> None:
        self.motto = motto

    def act(self, state: Any) -> Any:
        return state.legal_actions()[0]


@pytest.fixture
def talker(own_agent_registry: None) -> Iterator[str]:
    """An agent string whose parameter holds escape sequences and markup."""
    bw.register_agent("talker", TalkerAgent, {"motto": str})
    yield f"talker:motto={EVIL}"


def test_play_escapes_the_names_of_the_seats_and_what_is_typed(talker: str) -> None:
    result = CliRunner(env={"NO_COLOR": "1", "COLUMNS": "300"}).invoke(
        app, ["play", "goofspiel", "--players", f"human,{talker}", "-o", "cards=3",
              "--seed", "2"], input=f"{TITLE}\nq\nn\n")
    assert_clean_exit(result, 0)
    assert_nothing_raw(result.output)
    shown = f"talker:motto={EVIL_SHOWN}"
    assert f"Red (you) vs Blue ({shown})" in result.output  # the heading
    assert f"Blue ({shown})" in result.output.split("Red to play")[1]  # the scores
    assert f"q quit]: {TITLE_SHOWN}\n" in result.output  # the answer, echoed
    assert f"{TITLE!r} is not a number" in result.output  # and named


def test_play_escapes_names_in_its_error_messages() -> None:
    result = run_cli("play", "goofspiel", "--players", f"human,{EVIL}")
    assert_clean_exit(result, 2)
    assert_nothing_raw(result.output)
    assert "\\x1b[31mred" in result.output


@pytest.mark.parametrize("option, shown", [
    (f"cards={EVIL}", f"not {EVIL!r}"),  # a value, named by its repr
    (f"{TITLE}=3", f"option(s) '{TITLE_SHOWN}'"),  # a key
])
def test_options_are_escaped(option: str, shown: str) -> None:
    for command in (["play", "goofspiel", "--players", "random,random"],
                    ["simulate", "goofspiel", "-a", "random,random", "-n", "1"]):
        result = run_cli(*command, "-o", option, columns=300)
        assert_clean_exit(result, 2)
        assert_nothing_raw(result.output)
        assert shown in result.output.replace("\n", ""), result.output


@pytest.mark.parametrize("columns", [300, 80])
def test_simulate_escapes_agent_strings_in_its_tables(talker: str, columns: int) -> None:
    result = run_cli("simulate", "goofspiel", "-a", f"{talker},random", "-n", "2", "-o",
                     "cards=3", "--seed", "1", "--bootstrap", "0", columns=columns)
    assert_clean_exit(result, 0)
    assert_nothing_raw(result.output)
    assert "\\x1b[31mred\\x07" in result.output
    if columns == 300:  # wide: the line-up and the row read whole
        assert f"Line-up (rotated each game): talker:motto={EVIL_SHOWN}, random" in result.output
        rows = [line for line in result.output.splitlines() if "talker" in line]
        assert any(line.split()[0] == f"talker:motto={EVIL_SHOWN}" for line in rows), rows
