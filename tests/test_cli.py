"""The `boardwright` command line: play, show, rules coverage, games, and error handling.

Everything runs in-process through Typer's CliRunner, which feeds stdin from a string (not a
TTY) and captures stdout+stderr, so these tests also prove the CLI works when scripted.
Rich prints without colour here (`NO_COLOR`), so assertions read plain text.
"""

from __future__ import annotations

import ast
import io
import re
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.cli import app
from boardwright.cli.arguments import add_expansions, agent_seed, parse_option_values, parse_seats
from boardwright.games.carcassonne import Deploy, Draw, Pass, Place, PlaceAbbey
from boardwright.games.carcassonne.scenario import build
from boardwright.render import renderer_for
from boardwright.render.carcassonne_text import (
    CarcassonneRenderer, board_lines, legend, score_lines, tile_lines,
)

SRC = Path(__file__).resolve().parents[1] / "src" / "boardwright"
RUNNER = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None, "COLUMNS": "100"})
AM = {"expansions": ["abbey_mayor"]}

# The rule catalogue's board fixtures live beside the Carcassonne rule tests.
_FIXTURES = str(Path(__file__).resolve().parent / "carcassonne")
if _FIXTURES not in sys.path:
    sys.path.insert(0, _FIXTURES)
from fixtures import FX_BARN, FX_RING, FX_TWO_WAGONS


def run(*args: str, input: str | None = None) -> Result:
    return RUNNER.invoke(app, list(args), input=input)


def assert_clean_exit(result: Result, code: int) -> None:
    """The exit code is `code` and no Python exception escaped (no traceback for users)."""
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output


def play_bots(tmp_path: Path, seed: int = 3, *extra: str) -> tuple[Result, Path]:
    path = tmp_path / "game.json"
    result = run("play", "carcassonne", "--players", "random,random", "--seed", str(seed),
                 "--save", str(path), *extra)
    return result, path


def final_scores_in(output: str, labels: list[str]) -> list[int]:
    """The scores of the 'Final scores' table, in seat order."""
    table = output[output.rindex("Final scores"):]
    scores = []
    for name, label in zip(bw_seat_names(), labels):
        match = re.search(rf"^{name} \({re.escape(label)}\)\s+(-?\d+)\b", table, re.MULTILINE)
        assert match, f"no final score line for {name} in:\n{table}"
        scores.append(int(match.group(1)))
    return scores


def bw_seat_names() -> tuple[str, ...]:
    """Carcassonne's seat names, as its `info` declares them."""
    return tuple(seat.name for seat in bw.game_info("carcassonne").seats)


def first_sorted_action(state: bw.State) -> bw.Action:
    return CarcassonneRenderer(state.game).sorted_actions(state)[0]


# -- play ----------------------------------------------------------------------------------------

def test_bot_game_runs_to_the_end_and_its_record_replays_to_the_same_scores(tmp_path: Path) -> None:
    result, path = play_bots(tmp_path, seed=3)
    assert_clean_exit(result, 0)
    record = bw.GameRecord.load(path)
    assert (record.game, record.seed, record.players) == ("carcassonne", 3, 2)
    assert record.meta["seats"] == ["random", "random"]
    state = bw.replay(record)
    assert state.is_terminal
    assert final_scores_in(result.output, ["random", "random"]) == state.scores
    assert f"Record saved to {path}" in result.output
    winners = [name for name, score in zip(bw_seat_names(), state.scores)
               if score == max(state.scores)]
    expected = ("Winner: " if len(winners) == 1 else "Winners (tied): ") + ", ".join(winners)
    assert expected + f" with {max(state.scores)} points" in result.output


def test_bot_game_prints_one_line_per_move_and_every_score_event(tmp_path: Path) -> None:
    result, path = play_bots(tmp_path, seed=3)
    state = bw.replay(bw.GameRecord.load(path))
    moves = re.findall(r"^(Red|Blue) \(random\): (.*)$", result.output, re.MULTILINE)
    assert len(moves) == len(state.record.actions)
    assert all(re.fullmatch(r"places [A-X] at \(-?\d+, -?\d+\) turned (0|90|180|270)°", text)
               for _, text in moves[0::2])
    events = re.findall(r"^(Red|Blue) \+(\d+) \((city|road|monastery|field), ", result.output,
                        re.MULTILINE)
    expected = [(bw_seat_names()[seat], str(e["points"]), e["feature"])
                for e in state.log for seat in e["players"]]
    assert events == expected


def test_same_seed_gives_the_same_game(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    _, first = play_bots(tmp_path / "a", seed=11)
    _, second = play_bots(tmp_path / "b", seed=11)
    assert bw.GameRecord.load(first).actions == bw.GameRecord.load(second).actions


def test_human_always_typing_1_plays_a_whole_game_with_the_first_listed_move(tmp_path: Path) -> None:
    path = tmp_path / "human.json"
    result = run("play", "carcassonne", "--players", "human,random", "--seed", "5",
                 "--save", str(path), input="1\n" * 400)
    assert_clean_exit(result, 0)
    assert "Game over" in result.output
    record = bw.GameRecord.load(path)
    final = bw.replay(record)
    assert final.is_terminal
    assert final_scores_in(result.output, ["you", "random"]) == final.scores
    # Every move of the human seat is option 1 of the menu as the CLI sorts it.
    game = bw.load("carcassonne", players=2)
    state = game.new_game(5)
    human_moves = 0
    for data in record.actions:
        action = game.action_from_json(data)
        if state.current_player == 0:
            assert action == first_sorted_action(state)
            human_moves += 1
        state.apply(action)
    assert human_moves > 30
    assert result.output.count("Red, your choice [1-") > 20


def test_bad_human_input_is_explained_and_asked_again() -> None:
    game = bw.load("carcassonne", players=2)
    state = game.new_game(1)
    count = len(state.legal_actions())
    assert count > 1  # the first decision is a real choice
    result = run("play", "carcassonne", "--players", "human,random", "--seed", "1",
                 input="x\n999\n\n0\n1\nq\nn\n")
    assert_clean_exit(result, 0)
    out = result.output
    assert f"'x' is not a number: type 1 to {count}, ? for a hint, h for help, or q to quit." \
        in out
    assert f"There is no move 999: type a number from 1 to {count}, or q to quit." in out
    assert f"There is no move 0: type a number from 1 to {count}, or q to quit." in out
    assert (f"Type the number of a move (1 to {count}), ? for a hint, h for help, or q to quit."
            in out)
    action = first_sorted_action(state)
    expected = CarcassonneRenderer(game).describe(state, action)
    assert f"Red (you): {expected}" in out
    assert out.count(f"Red, your choice [1-{count}, w/a/s/d pan, ? hint, h help, q quit]:") == 5
    assert "Game left unfinished." in out


def test_a_question_mark_shows_the_bots_three_best_moves_by_number() -> None:
    game = bw.load("carcassonne", players=2)
    state = game.new_game(1)
    result = run("play", "carcassonne", "--players", "human,random", "--seed", "1",
                 input="?\nq\nn\n")
    assert_clean_exit(result, 0)
    out = result.output
    assert "Hint (1 s of search; expected margin in points):" in out
    hints = re.findall(r"^  (\d+)\. (.+?)  ([+-]\d+\.\d)$", out, re.M)
    assert len(hints) == 3
    menu = sorted(state.legal_actions(), key=str)  # (only the numbers' range is checked here)
    for number, text, margin in hints:
        assert 1 <= int(number) <= len(menu)
    margins = [float(m) for _, _, m in hints]
    assert margins == sorted(margins, reverse=True)
    assert out.count("your choice [1-") == 2  # asked again after the hint


def test_quitting_offers_to_save_the_record(tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    result = run("play", "carcassonne", "--players", "human,random", "--seed", "1",
                 input=f"1\n1\nq\ny\n{path}\n")
    assert_clean_exit(result, 0)
    assert "Save the record of this game? [y/N]:" in result.output
    record = bw.GameRecord.load(path)
    assert len(record.actions) == 4  # Red's place + deploy, Blue's place + deploy
    state = bw.replay(record)
    assert not state.is_terminal and state.current_player == 0


def test_quitting_with_save_option_saves_without_asking(tmp_path: Path) -> None:
    path = tmp_path / "kept.json"
    result = run("play", "carcassonne", "--players", "human,random", "--seed", "1",
                 "--save", str(path), input="q\n")
    assert_clean_exit(result, 0)
    assert "Save the record" not in result.output
    assert f"Record saved to {path}" in result.output
    assert bw.GameRecord.load(path).actions == []


def test_quitting_without_saving_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("play", "carcassonne", "--players", "human,random", "--seed", "1", input="q\nn\n")
    assert_clean_exit(result, 0)
    assert list(tmp_path.iterdir()) == []


def test_input_running_out_stops_the_game_with_exit_1() -> None:
    result = run("play", "carcassonne", "--players", "human,random", "--seed", "1", input="")
    assert_clean_exit(result, 1)
    assert "Input ended: leaving the game unfinished." in result.output


def test_human_sees_board_tile_rotations_and_numbered_placements() -> None:
    result = run("play", "carcassonne", "--players", "human,random", "--seed", "1",
                 input="q\nn\n")
    out = result.output
    state = bw.load("carcassonne", players=2).new_game(1)
    assert f"Red to place tile {state.tile} " in out
    assert re.search(r"^0°\s+90°\S*\s+180°\S*\s+270°\S*\s*$", out, re.MULTILINE)
    actions = CarcassonneRenderer(state.game).sorted_actions(state)
    keys = [(a.y, a.x, a.rotation) for a in actions]
    assert keys == sorted(keys)
    for number, action in enumerate(actions, 1):
        assert f"{number}:{action.rotation}°" in out
    assert "Turn 1 · 70 tiles in the pile" in out


def test_options_reach_the_game(tmp_path: Path) -> None:
    path = tmp_path / "short.json"
    result = run("play", "carcassonne", "--players", "random,random", "--seed", "2",
                 "--option", "farmers=false", "--option", 'draw_order=["E","U"]',
                 "-o", "small_city_scoring=first_edition", "--save", str(path))
    assert_clean_exit(result, 0)
    record = bw.GameRecord.load(path)
    assert record.options["farmers"] is False
    assert record.options["draw_order"] == ["E", "U"]
    assert record.options["small_city_scoring"] == "first_edition"
    assert len(record.actions) == 4
    assert "places E at" in result.output and "places U at" in result.output


def test_option_values_are_json_when_possible() -> None:
    assert parse_option_values(["farmers=false", "starting_seat=1", 'draw_order=["E","U"]',
                                "small_city_scoring=first_edition", "x=a=b"]) == {
        "farmers": False, "starting_seat": 1, "draw_order": ["E", "U"],
        "small_city_scoring": "first_edition", "x": "a=b"}


def test_seats_keep_agent_parameters_together() -> None:
    assert parse_seats("human, random:seed=3") == ["human", "random:seed=3"]
    assert parse_seats("mcts:iters=20,seed=3,random") == ["mcts:iters=20,seed=3", "random"]


@pytest.mark.parametrize(("args", "message"), [
    (["play", "chess"], "unknown game 'chess'; available: carcassonne"),
    (["play", "carcassonne", "--players", "random,bogus"], "unknown agent 'bogus'; known: greedy, mcts, mcts-v1, mcts-v2, random"),
    (["play", "carcassonne", "--players", "random,random", "--option", "farmers=7"],
     "option 'farmers' must be true or false, not 7"),
    (["play", "carcassonne", "--players", "random,random", "--option", "colour=red"],
     "unknown Carcassonne option(s) 'colour'"),
    (["play", "carcassonne", "--players", "random,random", "--option", "farmers"],
     "--option 'farmers' is not key=value"),
    (["play", "carcassonne", "--players", "random,,random"], "--players 'random,,random' has an empty seat"),
    (["play", "carcassonne", "--players", ",".join(["random"] * 6)],
     "Carcassonne takes 1 to 5 players (6 with Abbey & Mayor), not 6"),
])
def test_usage_errors_exit_2_with_one_red_line(args: list[str], message: str) -> None:
    result = run(*args)
    assert_clean_exit(result, 2)
    assert f"Error: {message}" in result.output
    assert len(result.output.strip().splitlines()) == 1


# -- show ----------------------------------------------------------------------------------------

def test_show_to_end_shows_the_final_scores(tmp_path: Path) -> None:
    _, path = play_bots(tmp_path, seed=3)
    state = bw.replay(bw.GameRecord.load(path))
    result = run("show", str(path), "--to-end")
    assert_clean_exit(result, 0)
    total = len(state.record.actions)
    assert f"Step {total} of {total}" in result.output
    assert final_scores_in(result.output, ["random", "random"]) == state.scores


def test_show_step_shows_that_position(tmp_path: Path) -> None:
    _, path = play_bots(tmp_path, seed=3)
    record = bw.GameRecord.load(path)
    before = bw.replay(record, steps=2)
    result = run("show", str(path), "--step", "3")
    assert_clean_exit(result, 0)
    action = before.game.action_from_json(record.actions[2])
    text = CarcassonneRenderer(before.game).describe(before, action)
    assert f"Step 3 of {len(record.actions)}" in result.output
    assert f"Blue: {text}" in result.output


def test_show_steps_forward_back_and_jumps(tmp_path: Path) -> None:
    _, path = play_bots(tmp_path, seed=3)
    total = len(bw.GameRecord.load(path).actions)
    result = run("show", str(path), input=f"\n\nb\n7\nzz\n{total + 1}\nq\n")
    assert_clean_exit(result, 0)
    steps = re.findall(rf"Step (\d+) of {total}", result.output)
    assert steps == ["0", "1", "2", "1", "7"]
    assert "'zz' is not understood" in result.output
    assert f"There is no step {total + 1}: steps go from 0 to {total}." in result.output


def test_show_corrupt_record_exits_1_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"game": "carcassonne", ', encoding="utf-8")
    result = run("show", str(path))
    assert_clean_exit(result, 1)
    assert "Error: record is not valid JSON" in result.output


def test_show_record_that_does_not_replay_exits_1(tmp_path: Path) -> None:
    _, path = play_bots(tmp_path, seed=3)
    record = bw.GameRecord.load(path)
    record.actions[0] = {"type": "place", "x": 40, "y": 40, "rotation": 0}
    record.save(path)
    result = run("show", str(path), "--to-end")
    assert_clean_exit(result, 1)
    assert "Error: record action #0 does not replay: position (40, 40)" in result.output


def test_show_missing_record_exits_1(tmp_path: Path) -> None:
    result = run("show", str(tmp_path / "nothing.json"))
    assert_clean_exit(result, 1)
    assert "Error: cannot read record" in result.output
    assert "No such file or directory" in result.output


def test_show_step_outside_the_record_is_a_usage_error(tmp_path: Path) -> None:
    _, path = play_bots(tmp_path, seed=3)
    total = len(bw.GameRecord.load(path).actions)
    result = run("show", str(path), "--step", str(total + 1))
    assert_clean_exit(result, 2)
    assert f"Error: --step {total + 1} is outside this record (0 to {total})" in result.output


# -- rules coverage ------------------------------------------------------------------------------

def make_project(root: Path, marked: list[str]) -> None:
    """A tiny checkout: docs/rules/x.md with two rule IDs, tests marking `marked`."""
    (root / "docs" / "rules").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "docs" / "rules" / "x.md").write_text(
        "# X\n\n### XXX-BASE-ONE-01 — The first rule\n\ntext\n\n"
        "### XXX-BASE-TWO-02 — The second rule\n\ntext\n", encoding="utf-8")
    marks = ", ".join(f'"{rule}"' for rule in marked)
    (root / "tests" / "test_x.py").write_text(
        "import pytest\n\n\n"
        f"@pytest.mark.rule({marks})\n"
        "def test_something():\n    pass\n", encoding="utf-8")


def test_rules_coverage_lists_missing_ids_and_exits_1(tmp_path: Path) -> None:
    make_project(tmp_path, ["XXX-BASE-ONE-01"])
    result = run("rules", "coverage", "--root", str(tmp_path))
    assert_clean_exit(result, 1)
    out = result.output
    assert "x: 1 of 2 rule IDs tested" in out
    assert "1 rule ID(s) of x have no test:" in out
    assert re.search(r"^  XXX-BASE-TWO-02$", out, re.MULTILINE)
    assert re.search(r"XXX-BASE-ONE-01 .*The first rule.*test_x\.py:4", out)
    assert re.search(r"XXX-BASE-TWO-02 .*The second rule.*missing", out)


def test_rules_coverage_all_covered_exits_0(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_project(tmp_path, ["XXX-BASE-ONE-01", "XXX-BASE-TWO-02"])
    monkeypatch.chdir(tmp_path / "tests")  # found by searching upward
    result = run("rules", "coverage", "x")
    assert_clean_exit(result, 0)
    assert "x: 2 of 2 rule IDs tested" in result.output
    assert "Every rule ID of x has a test." in result.output


def test_rules_coverage_warns_about_unknown_ids(tmp_path: Path) -> None:
    make_project(tmp_path, ["XXX-BASE-ONE-01", "XXX-BASE-TWO-02", "XXX-BASE-TYPO-03"])
    result = run("rules", "coverage", "--root", str(tmp_path))
    assert_clean_exit(result, 0)
    assert "warning: tests mark XXX-BASE-TYPO-03" in result.output


def test_rules_coverage_unknown_game_or_root_is_a_usage_error(tmp_path: Path) -> None:
    make_project(tmp_path, [])
    result = run("rules", "coverage", "nope", "--root", str(tmp_path))
    assert_clean_exit(result, 2)
    assert "Error: no rule document" in result.output and "(documented games: x)" in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run("rules", "coverage", "--root", str(empty))
    assert_clean_exit(result, 2)
    assert f"Error: --root {empty} is not a boardwright checkout" in result.output


def test_rules_coverage_outside_a_checkout_is_a_usage_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run("rules", "coverage")
    assert_clean_exit(result, 2)
    assert "Error: no boardwright project (docs/rules and tests) at or above" in result.output


# -- games ---------------------------------------------------------------------------------------

def test_games_lists_the_registered_games() -> None:
    result = run("games")
    assert_clean_exit(result, 0)
    for name in bw.available_games():
        assert name in result.output
    assert "Carcassonne (2nd edition), with the Abbey & Mayor expansion" in result.output


# -- the renderer --------------------------------------------------------------------------------

def plain(lines: list) -> list[str]:
    return [line.plain for line in lines]


def test_tiles_are_drawn_from_the_engine_geometry() -> None:
    game = bw.load("carcassonne", players=2)
    d = game.tile_types["D"].variants
    assert plain(tile_lines(d[0])) == [" ▓▓▓ ", "─────", "     "]
    assert plain(tile_lines(d[1])) == ["  │  ", "  │▓▓", "  │  "]
    assert plain(tile_lines(game.tile_types["A"].variants[0], 1)) == ["·····", "··†··", "··│··"]
    assert plain(tile_lines(game.tile_types["L"].variants[0])) == [" ▓▓▓ ", "──●──", "  │  "]
    assert plain(tile_lines(game.tile_types["P"].variants[0])) == ["▓▓▓▓ ", "▓▓┌──", "  │  "]
    assert plain(tile_lines(game.tile_types["F"].variants[0])) == ["     ", "▓♦▓▓▓", "     "]


def test_board_shows_coordinates_and_followers_with_role_letters() -> None:
    state = build("D@(0,0)/0 U@(1,0)/0", followers=[(0, 0, 0, "N"), (1, 1, 0, "E.W")],
                  pile=["E", "U"], players=2)
    assert plain(board_lines(state)) == [
        "    0    1  ",
        "   ▓K▓ ·····",
        "0 ───────H──",
        "       ·····",
    ]


def test_legal_positions_are_lettered_on_the_board() -> None:
    state = build("D@(0,0)/0", pile=["E", "U"], players=2)
    renderer = CarcassonneRenderer(state.game)
    marks = renderer.position_marks(state)
    positions = sorted({(a.y, a.x) for a in state.legal_actions()})
    assert list(marks) == [(x, y) for y, x in positions]
    assert list(marks.values()) == ["befg"[i] for i in range(len(positions))]
    lines = plain(board_lines(state, marks))
    assert sum(line.count("│ b │") for line in lines) == 1


def test_renderers_import_only_rich_and_boardwright_and_games_never_rich() -> None:
    def imported(path: Path) -> set[str]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
        return names

    for path in sorted((SRC / "render").glob("*.py")):
        third_party = imported(path) - set(sys.stdlib_module_names)
        assert third_party <= {"rich", "boardwright"}, path
    for path in sorted((SRC / "games").rglob("*.py")):
        assert "rich" not in imported(path), path


def test_other_games_get_the_generic_renderer() -> None:
    from boardwright.render import GenericRenderer

    game = bw.load("carcassonne", players=2)
    assert isinstance(renderer_for(game), CarcassonneRenderer)
    game.name = "somethingelse"
    assert isinstance(renderer_for(game), GenericRenderer)


# -- engine problems found while writing the CLI -------------------------------------------------

def test_clone_does_not_share_meta_with_the_original() -> None:
    """`State.clone()` promises an independent copy sharing only immutable static data; the
    CLI stores the seat list in `state.meta`, so a clone must not write into the original's."""
    state = bw.load("carcassonne", players=2).new_game(1)
    state.meta["seats"] = ["human", "random"]
    other = state.clone()
    other.meta["seats"] = ["random", "random"]
    assert state.meta == {"seats": ["human", "random"]}
    assert state.record.meta == {"seats": ["human", "random"]}


# -- Abbey & Mayor -------------------------------------------------------------------------------

XY = r"\(-?\d+, -?\d+\)"
FEATURE = r"(city|road|field|monastery|abbey)( [A-Z0-9.]+)?"
MOVE_LINE = re.compile("|".join((
    rf"places [A-Z][A-Z0-9]* at {XY} turned (0|90|180|270)°",
    r"draws a tile",
    rf"places the abbey at {XY}",
    rf"puts a (knight|highwayman|farmer|monk|mayor|wagon) on the {FEATURE} of {XY}",
    rf"puts a barn on the (NW|NE|SE|SW) corner of {XY}",
    r"places no figure",
    rf"moves the wagon from {XY} to the {FEATURE} of {XY}",
    rf"takes the wagon back from {XY}",
    r"does not place the abbey",
)))


def plain_lines(renderables: list) -> list[str]:
    return [r.plain for r in renderables]


def as_text(renderable: object) -> list[str]:
    """The lines Rich prints for `renderable` (tables included), without colour."""
    console = Console(width=100, no_color=True, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text().splitlines()


def menu_labels(state: bw.State) -> list[str]:
    """The numbered menu a human sees, as plain text, without the supply hint."""
    _, lines = CarcassonneRenderer(state.game).menu(state)
    return [line.plain.strip() for line in lines if not line.plain.strip().startswith("(")]


def apply_with_news(state: bw.State, action: bw.Action) -> list[str]:
    """Apply `action`; the lines the CLI prints for what happened automatically."""
    renderer = CarcassonneRenderer(state.game)
    before = renderer.snapshot(state)
    state.apply(action)
    return plain_lines(renderer.news(before, state))


def barn_position(followers: list[tuple] | None = None, options: dict | None = None,
                  supply: dict[int, dict[str, int]] | None = None) -> bw.State:
    """FX-BARN with Red, two players, to place E@(1,1)/90 (which completes the city CN);
    then B@(1,3)/0 and B@(1,2)/0 are drawn, and the pile is empty."""
    return build(FX_BARN, followers=followers or [], pile=["E", "B", "B"], players=2,
                 options={**AM, **(options or {})}, supply=supply)


def wagon_position() -> bw.State:
    """FX-TWO-WAGONS: Red's L@(2,0)/0 completes Blue's wagon road and Yellow's wagon city."""
    state = build(FX_TWO_WAGONS, pile=["L", "U", "U"], options=AM,
                  followers=[(1, 0, 0, "E.W", "wagon"), (2, 2, -1, "S", "wagon")])
    state.apply(Place(2, 0, 0))
    state.apply(Pass())
    return state


@pytest.mark.parametrize(("players", "seed"), [(2, 8), (5, 34)])
def test_expansion_bot_game_runs_to_the_end_and_replays_to_the_same_scores(
        tmp_path: Path, players: int, seed: int) -> None:
    path = tmp_path / "am.json"
    labels = ["random"] * players
    result = run("play", "carcassonne", "--players", ",".join(labels), "--expansion",
                 "abbey_mayor", "--seed", str(seed), "--save", str(path))
    assert_clean_exit(result, 0)
    record = bw.GameRecord.load(path)
    assert record.options["expansions"] == ["abbey_mayor"]
    state = bw.replay(record)
    assert state.is_terminal
    assert final_scores_in(result.output, labels) == state.scores
    shown = run("show", str(path), "--to-end")
    assert_clean_exit(shown, 0)
    total = len(record.actions)
    assert f"Step {total} of {total}" in shown.output
    assert final_scores_in(shown.output, labels) == state.scores


def test_expansion_log_names_the_decider_and_reads_as_sentences(tmp_path: Path) -> None:
    result, path = play_bots(tmp_path, 8, "--expansion", "abbey_mayor")
    record = bw.GameRecord.load(path)
    moves = re.findall(r"^(Red|Blue) \(random\): (.*)$", result.output, re.MULTILINE)
    assert [text for _, text in moves if not MOVE_LINE.fullmatch(text)] == []
    # Each line names the seat that decided, e.g. a wagon's owner in the other player's turn.
    state = bw.load("carcassonne", players=2, options=AM).new_game(8)
    deciders = []
    for data in record.actions:
        deciders.append(bw_seat_names()[state.current_player])
        state.apply(data)
    assert [seat for seat, _ in moves] == deciders
    texts = "\n".join(text for _, text in moves)
    for phrase in ("draws a tile", "places the abbey at", "puts a mayor on the city",
                   "puts a wagon on the", "puts a barn on the", "moves the wagon from"):
        assert phrase in texts, phrase


def test_expansion_score_events_are_all_printed_including_barns(tmp_path: Path) -> None:
    result, path = play_bots(tmp_path, 8, "--expansion", "abbey_mayor")
    state = bw.replay(bw.GameRecord.load(path))
    printed = re.findall(r"^(?:Red|Blue) [+]\d+ \(.*\)$", result.output, re.MULTILINE)
    assert printed == [line.plain for entry in state.log for line in score_lines(entry)]
    assert re.search(r"^\w+ \+\d+ \(field, farmers scored, a barn was placed\)$", result.output,
                     re.MULTILINE)
    assert re.search(r"^\w+ \+\d+ \(barn, final scoring\)$", result.output, re.MULTILINE)


def human_answers(players: int, seed: int) -> tuple[str, list[dict], set[str]]:
    """Play the CLI's game in-process: Red (human) draws rather than playing the abbey early,
    places it in the final round, prefers moving wagons and placing a wagon, barn or mayor.
    Returns the menu numbers Red types, the actions of the whole game, and the phases in
    which Red was asked."""
    game = bw.load("carcassonne", players=players, options=AM)
    state = game.new_game(seed)
    renderer = CarcassonneRenderer(game)
    bots = [make_agent("random", seed=agent_seed(seed, seat)) for seat in range(players)]

    def rank(action: bw.Action) -> int:
        if isinstance(action, PlaceAbbey):
            return 0 if state.phase == "final_abbey_round" else 4
        if isinstance(action, Deploy) and (state.phase == "wagon_move"
                                           or action.figure in ("wagon", "barn", "mayor")):
            return 1
        return 2 if isinstance(action, Draw) else 3

    answers: list[str] = []
    asked: set[str] = set()
    while not state.is_terminal:
        if state.current_player == 0:
            options = renderer.sorted_actions(state)
            number = min(range(len(options)), key=lambda i: (rank(options[i]), i))
            if len(options) > 1:
                answers.append(str(number + 1))
                asked.add(state.phase + ("/other turn" if state.turn_player else ""))
            action = options[number]
        else:
            action = bots[state.current_player].act(state)
        state.apply(action)
    return "".join(f"{a}\n" for a in answers), state.record.actions, asked


def test_human_plays_a_whole_expansion_game_through_every_new_menu(tmp_path: Path) -> None:
    answers, actions, asked = human_answers(3, 62)
    assert {"choose_tile", "deploy", "wagon_move/other turn", "final_abbey_round"} <= asked
    path = tmp_path / "human.json"
    result = run("play", "carcassonne", "--players", "human,random,random", "-x", "abbey_mayor",
                 "--seed", "62", "--save", str(path), input=answers)
    assert_clean_exit(result, 0)
    out = result.output
    record = bw.GameRecord.load(path)
    assert record.actions == actions  # every number typed chose the intended move
    final = bw.replay(record)
    assert final.is_terminal
    assert final_scores_in(out, ["you", "random", "random"]) == final.scores
    assert re.search(r"^  1  draw a tile \(\d+ tiles? in the pile\)$", out, re.MULTILINE)
    assert re.search(rf"^  2  place the abbey into hole b at {XY}$", out, re.MULTILINE)
    assert re.search(r"^ +\d+  take the wagon back$", out, re.MULTILINE)
    assert re.search(r"Red's wagon \(in (Blue|Yellow)'s turn\)", out)
    assert "Red: final round for the abbeys" in out
    assert re.search(r"^ +\d+  barn on the (NW|NE|SE|SW) corner$", out, re.MULTILINE)
    assert re.search(r"^ +\d+  mayor on the city [A-Z.]+$", out, re.MULTILINE)


def test_built_position_draws_abbey_mayor_wagon_and_barn() -> None:
    tiles = FX_BARN + " E@(1,1)/90 B@(2,2)/0 B@(1,3)/0 ABBEY@(1,2)/0"
    state = build(tiles, followers=[(1, 1, 1, "E", "mayor"), (2, 1, 2, "MONASTERY", "wagon"),
                                    (0, 0, 0, "N")],
                  barns=[(0, 0, 0)], options=AM, supply={0: {"abbey": 0}})
    assert plain(board_lines(state)) == [
        "    0    1    2  ",
        "   ▓K▓ ·····     ",
        "0 ───────────────",
        "      BB····     ",  # Red's barn on corner(0,0): where (0,0), (1,0), (0,1), (1,1) meet
        "  ····BB    ·····",
        "1 ··†··   Y▓▒▒···",  # Blue's mayor on the city of (1,1)
        "  ·····     ·····",
        "       ╔═══╗     ",  # the abbey at (1,2), Yellow's wagon on it
        "2      ║ W ║  †  ",
        "   ▓▓▓ ╚═══╝     ",
        "  ·▒▒▒·          ",
        "3 ·····  †       ",
        "  ·····          ",
    ]
    rows = [line.split() for line in as_text(CarcassonneRenderer(state.game).scores(state))]
    assert rows == [
        ["Player", "Score", "Followers", "Mayors", "Wagons", "Barns", "Abbeys", "On", "board"],
        ["Red", "0", "6", "1", "1", "0", "0", "K(0,0)", "B(0,0)SE"],
        ["Blue", "0", "7", "0", "1", "1", "1", "Y(1,1)"],
        ["Yellow", "0", "7", "1", "0", "1", "1", "W(1,2)"],
    ]


def test_a_mayor_lying_flat_is_a_lower_case_y() -> None:
    state = barn_position(followers=[(1, 0, 0, "N", "mayor")], options={"mayor_lies_flat": True})
    assert plain(board_lines(state))[1] == "   ▓y▓ ·····     "
    assert "(y lying flat)" in legend(["follower", "mayor"], lying_mayor=True)[1].plain


def test_legend_explains_the_expansion_pieces_only_when_present() -> None:
    base = " ".join(line.plain for line in CarcassonneRenderer(bw.load("carcassonne")).legend())
    expansion = " ".join(
        line.plain for line in CarcassonneRenderer(bw.load("carcassonne", options=AM)).legend())
    for text in ("╔═╗ abbey", "Y mayor", "W wagon", "B barn"):
        assert text not in base and text in expansion


def test_choose_tile_menu_offers_the_draw_then_each_hole_lettered_on_the_board() -> None:
    state = build(FX_RING, pile=["U", "U", "U"], options=AM)
    assert state.phase == "choose_tile"
    assert menu_labels(state) == ["1  draw a tile (3 tiles in the pile)",
                                  "2  place the abbey into hole b at (0, 1)"]
    renderer = CarcassonneRenderer(state.game)
    board = plain_lines([r for r in renderer.position(state, marks=True)
                         if hasattr(r, "plain")])
    assert any("│ b │" in line for line in board)
    actions, _ = renderer.menu(state)
    assert actions == [Draw(), PlaceAbbey(0, 1)]
    assert renderer.describe(state, actions[0]) == "draws a tile"
    assert renderer.describe(state, actions[1]) == "places the abbey at (0, 1)"


def test_deploy_menu_names_mayor_wagon_and_barn_options() -> None:
    state = barn_position()
    state.apply(Place(1, 1, 90))
    assert menu_labels(state) == [
        "1  knight on the city E",
        "2  mayor on the city E",
        "3  wagon on the city E",
        "4  farmer on the field NL.NR.SL.SR.WL.WR",
        "5  barn on the NW corner",
        "6  no figure",
    ]
    renderer = CarcassonneRenderer(state.game)
    actions, lines = renderer.menu(state)
    assert sorted(map(repr, actions)) == sorted(map(repr, state.legal_actions()))
    assert lines[-1].plain.strip() == "(7 followers, 1 mayor, 1 wagon, 1 barn in supply)"
    # Numbers on the tile: the first option of the city, the field, and the barn's corner.
    board = plain(board_lines(state, extra=renderer.option_overlay(state, actions)))
    assert board[4:7] == ["  ·····5    ·····",
                          "1 ··†··  41▓▒▒···",
                          "  ·····     ·····"]
    assert renderer.describe(state, actions[1]) == "puts a mayor on the city E of (1, 1)"
    assert renderer.describe(state, actions[2]) == "puts a wagon on the city E of (1, 1)"
    assert renderer.describe(state, actions[4]) == "puts a barn on the NW corner of (1, 1)"
    assert renderer.describe(state, actions[5]) == "places no figure"


def test_wagon_move_menu_is_the_owners_even_in_another_players_turn() -> None:
    state = wagon_position()
    assert (state.phase, state.current_player, state.turn_player) == ("wagon_move", 1, 0)
    assert menu_labels(state) == ["1  move the wagon to the monastery of (1, -1)",
                                  "2  move the wagon to the monastery of (-1, 0)",
                                  "3  take the wagon back"]
    renderer = CarcassonneRenderer(state.game)
    assert renderer.heading(state).plain == "Blue's wagon (in Red's turn)"
    task = renderer.task(state)[0].plain
    assert task.startswith("Blue's wagon at (0, 0) has scored: move it")
    assert task.endswith("then Yellow's wagon at (2, -1)")
    actions, _ = renderer.menu(state)
    assert renderer.describe(state, actions[0]) == (
        "moves the wagon from (0, 0) to the monastery of (1, -1)")
    assert renderer.describe(state, actions[2]) == "takes the wagon back from (0, 0)"
    blue = [line for line in as_text(renderer.scores(state)) if line.startswith("Blue")]
    assert blue[0].split()[-2:] == ["W(0,0)", "waits"]  # neither on the board nor in supply


def test_final_round_menu_offers_pass_only_when_the_option_allows_it() -> None:
    mandatory = build(FX_RING, pile=[], options=AM, turn_player=1)
    assert mandatory.phase == "final_abbey_round"
    assert menu_labels(mandatory) == ["1  place the abbey into hole b at (0, 1)"]
    voluntary = build(FX_RING, pile=[], options={**AM, "abbey_end_of_game": "voluntary_round"},
                      turn_player=1)
    assert menu_labels(voluntary) == ["1  place the abbey into hole b at (0, 1)",
                                      "2  pass (keep the abbey)"]
    renderer = CarcassonneRenderer(voluntary.game)
    assert renderer.heading(voluntary).plain == "Blue: final round for the abbeys"
    assert renderer.describe(voluntary, Pass()) == "does not place the abbey"


def test_the_final_abbey_round_is_announced_once_when_it_opens() -> None:
    state = build(FX_RING, pile=["U"], options=AM, supply={0: {"abbey": 0}})
    state.apply(state.legal_actions()[0])  # Red, without an abbey, places the last tile
    assert apply_with_news(state, Pass()) == [
        "The last landscape tile is placed: final round for the abbeys."]
    assert (state.phase, state.current_player) == ("final_abbey_round", 1)
    state.apply(PlaceAbbey(0, 1))
    assert apply_with_news(state, Pass()) == []  # no hole left for Yellow: the game ends
    assert state.is_terminal


def test_barn_scorings_print_their_reason() -> None:
    """The rule catalogue's barn scenarios: farmers scored when a barn is placed, farmers that
    join a barn field later, and the barn's own final scoring."""
    placed = barn_position(followers=[(1, 0, 1, "EL.ER.NL.NR.SL.SR.WL.WR")])
    placed.apply(Place(1, 1, 90))
    assert apply_with_news(placed, Deploy(1, 1, "NW", "barn")) == [
        "Blue +6 (field, farmers scored, a barn was placed)"]

    state = barn_position(followers=[(1, 0, 3, "EL.ER.SL.SR.WL.WR")],
                          supply={0: {"abbey": 0}, 1: {"abbey": 0}})
    state.apply(Place(1, 1, 90))
    assert apply_with_news(state, Deploy(1, 1, "NW", "barn")) == []
    state.apply(Place(1, 3, 0))
    assert apply_with_news(state, Pass()) == []
    state.apply(Place(1, 2, 0))
    news = apply_with_news(state, Pass())  # joins the fields; the pile is empty: game over
    assert state.is_terminal
    assert news == ["Blue +2 (field, farmers joined a barn)", "Red +8 (barn, final scoring)"]


def test_expansion_flag_appends_to_the_expansions_option(tmp_path: Path) -> None:
    assert add_expansions({}, ["abbey_mayor"]) == AM
    assert add_expansions({"expansions": ["abbey_mayor"]}, ["abbey_mayor"]) == AM
    assert add_expansions({"expansions": "a"}, ["b"]) == {"expansions": ["a", "b"]}
    assert add_expansions({"farmers": False}, []) == {"farmers": False}
    path = tmp_path / "x.json"
    result = run("play", "carcassonne", "--players", "random,random", "--seed", "1",
                 "--option", "expansions=[]", "--expansion", "abbey_mayor",
                 "--option", 'draw_order=["AM10"]', "--save", str(path))
    assert_clean_exit(result, 0)
    assert bw.GameRecord.load(path).options["expansions"] == ["abbey_mayor"]


@pytest.mark.parametrize(("args", "message"), [
    (["--expansion", "seafarers"], "unknown expansion"),
    (["--option", "expansions=3", "--expansion", "abbey_mayor"],
     "--expansion cannot be added to --option expansions=3"),
    (["--expansion", " "], "--expansion needs a name"),
])
def test_bad_expansion_flags_are_usage_errors(args: list[str], message: str) -> None:
    result = run("play", "carcassonne", "--players", "random,random", *args)
    assert_clean_exit(result, 2)
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_rules_coverage_counts_out_of_scope_ids_apart(tmp_path: Path) -> None:
    make_project(tmp_path, ["XXX-BASE-ONE-01", "XXX-BASE-TWO-02"])
    doc = tmp_path / "docs" / "rules" / "x.md"
    doc.write_text(doc.read_text(encoding="utf-8") + "\n## Out of scope\n\n"
                   "- **XXX-EXP-FLY-01** — flying machines\n"
                   "- **XXX-EXP-FLY-02** — more flying\n", encoding="utf-8")
    result = run("rules", "coverage", "--root", str(tmp_path))
    assert_clean_exit(result, 0)
    assert "x: 2 of 2 rule IDs tested" in result.output
    assert "Every rule ID of x has a test." in result.output
    assert "2 out of scope (other expansions): documented, no test needed." in result.output
    assert "XXX-EXP-FLY" not in result.output  # neither listed as missing nor as a row
