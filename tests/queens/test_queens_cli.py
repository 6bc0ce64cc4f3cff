"""`boardwright play queens` and the terminal renderer of the hex board.

Runs in-process through Typer's CliRunner (stdin from a string, no colour), as the CLI tests
of the other games do.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from queens_helpers import BLUE, RED, custom, move, new_game, seat
from rich.console import Console
from typer.testing import CliRunner, Result

import boardwright as bw
from boardwright.cli import app
from boardwright.games.queens import Joint, Move, Sow
from boardwright.render import renderer_for
from boardwright.render.queens_text import QueensRenderer, board_lines, cell

RUNNER = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None, "COLUMNS": "100"})


def run(*args: str, input: str | None = None) -> Result:
    return RUNNER.invoke(app, list(args), input=input)


def assert_clean_exit(result: Result, code: int) -> None:
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output


def as_text(renderable: object) -> list[str]:
    console = Console(width=120, no_color=True, record=True, file=io.StringIO())
    console.print(renderable, soft_wrap=True)
    return console.export_text().splitlines()


def test_bot_game_plays_to_the_end_and_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = run("play", "queens", "--players", "random,random", "--seed", "3",
                 "--save", str(path))
    assert_clean_exit(result, 0)
    record = bw.GameRecord.load(path)
    assert (record.game, record.seed, record.players) == ("queens", 3, 2)
    state = bw.replay(record)
    assert state.is_terminal
    moves = re.findall(r"^(Red|Blue) \(random\): (.*)$", result.output, re.MULTILINE)
    assert len(moves) == len(record.actions)
    assert "Game over" in result.output and "Final position" in result.output
    winners = " and ".join(["Red", "Blue"][w] for w in state.winners)
    assert ("Winner: " if len(state.winners) == 1 else "Winners (tied): ") in result.output
    assert all(name in result.output.split("Winner")[-1] for name in winners.split(" and "))


def test_four_bot_game_names_seats_by_the_game_colours(tmp_path: Path) -> None:
    result = run("play", "queens", "--players", "random,greedy,random,greedy", "--seed", "2")
    assert_clean_exit(result, 0)
    assert "Red (random) vs Blue (greedy) vs Green (random) vs Yellow (greedy)" in result.output
    assert re.search(r"^Green \(random\): ", result.output, re.MULTILINE)
    assert re.search(r"^Yellow \(greedy\): ", result.output, re.MULTILINE)


def test_human_typing_a_number_plays_the_listed_action(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    result = run("play", "queens", "--players", "human,random", "--seed", "1",
                 "--save", str(path), input="1\nq\n")
    assert_clean_exit(result, 0)
    state = new_game()
    first = QueensRenderer(state.game).sorted_actions(state)[0]
    record = bw.GameRecord.load(path)
    assert record.actions[0] == first.to_json()
    # 80x24: the menu is summed up per piece under the board; the numbers still play
    assert "Queen j15: " in result.output and "sow: " in result.output
    assert " j " in result.output and ".QrCr" in result.output


def test_show_replays_a_saved_game(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert_clean_exit(run("play", "queens", "-p", "random,random", "--seed", "5",
                          "--save", str(path)), 0)
    shown = run("show", str(path), "--to-end")
    assert_clean_exit(shown, 0)
    assert "Final position" in shown.output
    shown = run("show", str(path), "--step", "2")
    assert_clean_exit(shown, 0)
    assert re.search(r"^Blue: ", shown.output, re.MULTILINE)


def test_bad_queens_options_are_usage_errors() -> None:
    result = run("play", "queens", "-p", "random,random", "-o", "colour=red")
    assert_clean_exit(result, 2)
    assert "unknown Queens option(s) 'colour'" in result.output
    result = run("play", "queens", "-p", "random")
    assert_clean_exit(result, 2)
    assert "not 1" in result.output


def test_renderer_is_chosen_for_queens() -> None:
    assert isinstance(renderer_for(bw.load("queens")), QueensRenderer)


def test_board_draws_terrain_pieces_and_buildings() -> None:
    state = custom(seat((0, 4), princes=[(1, 1), (-1, 3), (-1, 3)], cities=[(0, 4)],
                        fields=[(1, 3)]),
                   seat((0, -4), princes=[(1, 3)], fields=[(2, 0)]))
    board = state.game.board
    assert cell(state, board.pos((0, 4))).plain == ".QrCr"
    assert cell(state, board.pos((1, 1))).plain == "^Pr  "
    assert cell(state, board.pos((-1, 3))).plain == ".2r  "
    assert cell(state, board.pos((1, 3))).plain == ".Pbfr"
    assert cell(state, board.pos((2, 0))).plain == ".  fb"
    assert cell(state, board.pos((0, 0))).plain == "^    "
    lines = [line.plain for line in board_lines(state)]
    assert len(lines) == 13  # a ruler of column numbers above and below the 11 rows
    assert lines[0] == lines[-1] and lines[0].split() == [str(c) for c in range(1, 22)]
    rows = lines[1:-1]
    assert rows[0].startswith(" a ") and rows[0].endswith("  a")
    assert rows[5].startswith(" f .") and rows[5].endswith("  f")
    # rows interlock: each row starts half a cell (3 characters) from its neighbour
    starts = [len(line) - len(line[3:].lstrip()) for line in rows]
    assert starts == [18, 15, 12, 9, 6, 3, 6, 9, 12, 15, 18]
    # each cell starts under the number of its column (its label: row letter, column)
    for row in rows:
        for at, char in enumerate(row[3:-3], 3):
            if char in ".^":
                assert lines[0][at].isdigit() and lines[0][at - 1] == " ", (row, at)


def test_menu_groups_actions_by_piece_and_numbers_them_in_order() -> None:
    state = custom(seat((-1, 4), princes=[(-1, 3), (0, 2)], cities=[(-1, 4)]),
                   seat((2, 0), princes=[(-1, 2)]))
    renderer = QueensRenderer(state.game)
    actions, lines = renderer.menu(state)
    assert sorted(map(str, actions)) == sorted(map(str, state.legal_actions()))
    text = "\n".join(line.plain for line in lines)
    assert text.startswith("Queen j13 to")
    assert "Prince i12 to" in text and "Joint attacks" in text and "Sow a Field on" in text
    number = actions.index(Joint((-1, 3), (0, 2), (-1, 2))) + 1
    assert f"{number} i12+h13xh11" in text
    assert all(len(line.plain) <= 100 for line in lines)


def test_describe_and_news_tell_what_happened() -> None:
    state = custom(seat((-1, 4), princes=[(-1, 3), (0, 2)], cities=[(-1, 4)]),
                   seat((2, 0), princes=[(-1, 2), (3, -4)], fields=[(0, 3)]))
    renderer = QueensRenderer(state.game)
    action = Joint((-1, 3), (0, 2), (-1, 2))
    assert renderer.describe(state, action) == \
        "Princes i12 and h13 attack h11 together (6 against 4)"
    before = renderer.snapshot(state)
    state.apply(action)
    assert [t.plain for t in renderer.news(before, state)] == [
        "Blue's Prince on h11 is defeated by Red."]
    state.apply(Move((3, -4), (3, -3)))
    assert renderer.describe(state, Move((-1, 4), (0, 3))) == "moves the Queen j13 → i14"
    before = renderer.snapshot(state)
    state.apply(Move((-1, 4), (0, 3)))
    assert [t.plain for t in renderer.news(before, state)] == [
        "Red captures Blue's Field on i14.",
        "Red did not split the stack on h11: one of its Princes is lost."]
    assert renderer.describe(state, Sow((0, -3))) == "sows a Field on c8"


def test_final_screen_names_the_winner_and_why() -> None:
    state = custom(seat((0, -3), princes=[(1, -4), (-1, -3)]), seat((0, -4)))
    state.apply(Joint((-1, -3), (1, -4), (0, -4)))
    lines = [line for r in QueensRenderer(state.game).final(state) for line in as_text(r)]
    assert lines[-1] == "Winner: Red — the enemy Queen is captured"
    assert any(line.startswith("Blue") and "captured" in line for line in lines)
    assert state.winners == [RED] and BLUE == 1
    assert move((0, 4), (0, 3)).to_json()["type"] == "move"
