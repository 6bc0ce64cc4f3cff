"""The terminal's decision screens at the sizes people use (80x24, 120x40): every line fits
the width, Carcassonne's whole screen fits the height (its board is a viewport that pans and
centres), Queens moves are typed by the labels the board shows, Shogun shows names, data and
texts and never an id of the data files, and every game's prompt has a help.

Positions come from games played by random bots: the start, the middle and the last decision
of each, and the final screen.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result
from cli_helpers import assert_clean_exit
from hypothesis import HealthCheck, given, settings, strategies as st
from rich.text import Text

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.cli import app
from boardwright.cli.prompt import choice_prompt
from boardwright.games.carcassonne.actions import Place
from boardwright.render import renderer_for
from boardwright.render.carcassonne_screen import MIN_ROWS
from boardwright.render.queens_labels import label, move_label, parse_move, parse_space
from boardwright.render.screen import (
    PROMPT_LINES, Size, decision_screen, help_lines, render_lines,
)

SIZES = ((80, 24), (120, 40))


def run_cli(*args: str, input: str, columns: int = 80, lines: int = 24) -> Result:
    """`boardwright ARGS...` in a terminal of that size, without colours, typing `input`."""
    runner = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None, "COLUMNS": str(columns),
                            "LINES": str(lines)})
    return runner.invoke(app, list(args), input=input)


def play(game: bw.Game, seed: int, stop: float = 1.0) -> tuple[list[bw.State], bw.State]:
    """The decisions of a random game (states with more than one legal action, up to the
    fraction `stop` of the game's length when it is known) and where it stopped."""
    state = game.new_game(seed)
    bots = [make_agent("random", seed=seed * 7 + s) for s in range(game.num_players)]
    decisions = []
    while not state.is_terminal:
        if len(state.legal_actions()) > 1:
            decisions.append(state.clone())
        state.apply(bots[state.current_player].act(state))
    if stop < 1.0:
        decisions = decisions[:max(1, int(len(decisions) * stop))]
    return decisions, state


def moments(game: bw.Game, seed: int) -> tuple[list[bw.State], bw.State]:
    """The first, middle and last decision of a random game, and its final position."""
    decisions, final = play(game, seed)
    return [decisions[0], decisions[len(decisions) // 2], decisions[-1]], final


def screen(renderer: object, state: bw.State, width: int, height: int) -> list[str]:
    return render_lines(decision_screen(renderer, state, Size(width, height)), width)


def assert_fits_width(lines: list[str], width: int) -> None:
    long = [line for line in lines if len(line) > width]
    assert not long, f"{len(long)} lines wider than {width}: {long[:2]}"


# -- Carcassonne -------------------------------------------------------------------------------

CARCASSONNE = [("base", {}), ("abbey_mayor", {"expansions": ["abbey_mayor"]})]


@pytest.fixture(scope="module", params=CARCASSONNE, ids=[name for name, _ in CARCASSONNE])
def carcassonne_game(request: pytest.FixtureRequest) -> tuple[bw.Game, list[bw.State], bw.State]:
    game = bw.load("carcassonne", players=3, options=request.param[1])
    shown, final = moments(game, seed=11)
    return game, shown, final


@pytest.mark.parametrize("width,height", SIZES)
def test_carcassonne_screens_fit_the_terminal(carcassonne_game, width: int, height: int
                                              ) -> None:
    game, shown, final = carcassonne_game
    for state in shown:
        renderer = renderer_for(game, ["you", "random", "random"])
        lines = screen(renderer, state, width, height)
        assert_fits_width(lines, width)
        assert len(lines) + PROMPT_LINES <= height, "\n".join(lines)
        # the board keeps at least MIN_ROWS rows of tiles (3 lines each) and its x labels
        assert any(re.fullmatch(r"\s*(-?\d+\s+)+", line) for line in lines)
    final_lines = render_lines(renderer.final_screen(final, Size(width, height)), width)
    assert_fits_width(final_lines, width)
    assert any("Final scores" in line for line in final_lines)


def test_carcassonne_uses_a_large_terminal() -> None:
    """At 120x40 the mid-game board shows more rows of tiles than at 80x24."""
    game = bw.load("carcassonne", players=2)
    decisions, _ = play(game, seed=5)
    state = next(s for s in decisions[len(decisions) // 2:] if s.phase == "place_tile")
    renderer = renderer_for(game)
    rows = {}
    for width, height in SIZES:
        screen(renderer, state, width, height)
        x0, x1, y0, y1 = renderer.fitted.viewport.last_window
        rows[width] = y1 - y0 + 1
        assert (x1 - x0 + 1) * 5 <= width
    assert rows[80] >= MIN_ROWS and rows[120] > rows[80]


def big_board(seed: int = 2) -> tuple[bw.Game, bw.State]:
    """A placement late in a 2-player game: the board is larger than an 80x24 screen."""
    game = bw.load("carcassonne", players=2)
    decisions, _ = play(game, seed)
    late = [s for s in decisions if s.phase == "place_tile"]
    return game, late[int(len(late) * 0.8)]


def test_panning_moves_the_viewport_and_c_centres_it_again() -> None:
    game, state = big_board()
    renderer = renderer_for(game)
    first = screen(renderer, state, 80, 24)
    start = renderer.fitted.viewport.last_window
    moves = 0
    for key, (dx, dy) in (("w", (0, -1)), ("s", (0, 1)), ("a", (-1, 0)), ("d", (1, 0))):
        renderer.command(state, "c")
        screen(renderer, state, 80, 24)
        before = renderer.fitted.viewport.last_window
        reply = renderer.command(state, key + "2")
        assert reply is not None and reply.redraw and reply.action is None
        lines = screen(renderer, state, 80, 24)
        after = renderer.fitted.viewport.last_window
        moved = (after[0] - before[0], after[2] - before[2])
        # moves that way (by up to 2 squares: never past the board's edge)
        assert moved[0] * dx >= 0 and moved[1] * dy >= 0 and moved[0] * dy == 0
        assert moved[1] * dx == 0
        assert len(lines) + PROMPT_LINES <= 24
        moves += moved != (0, 0)
    assert moves >= 2  # the late board is taller than the window: up and down both move
    renderer.command(state, "c")
    lines = screen(renderer, state, 80, 24)
    assert renderer.fitted.viewport.last_window == start
    assert lines == first
    for _ in range(30):  # pans stop at the board's edge
        renderer.command(state, "d")
    screen(renderer, state, 80, 24)
    east = renderer.fitted.viewport.last_window
    renderer.command(state, "d")
    screen(renderer, state, 80, 24)
    assert renderer.fitted.viewport.last_window == east


def test_the_viewport_follows_each_new_decision() -> None:
    game, state = big_board(seed=4)
    renderer = renderer_for(game)
    renderer.command(state, "w9")
    assert renderer.fitted.viewport.centre is not None  # panned for this decision
    state.apply(renderer.sorted_actions(state)[0])
    screen(renderer, state, 80, 24)
    assert renderer.fitted.viewport.centre is None  # a new decision: centred on its focus


def test_a_position_letter_plays_there_or_lists_its_turns() -> None:
    game, state = big_board()
    renderer = renderer_for(game)
    marks = renderer.position_marks(state)
    actions = renderer.sorted_actions(state)
    for (x, y), letter in marks.items():
        if letter == "*":
            continue
        at = [a for a in actions if isinstance(a, Place) and (a.x, a.y) == (x, y)]
        reply = renderer.command(state, letter)
        assert reply is not None
        if len(at) == 1:
            assert reply.action == at[0]
        else:
            assert reply.action is None
            text = reply.lines[0].plain
            for action in at:
                assert f"{actions.index(action) + 1} ({action.rotation}°)" in text
    assert not set("acdhlqsw") & set("".join(marks.values()))  # letters are never commands


def test_cli_pans_centres_and_helps_at_the_prompt() -> None:
    result = run_cli("play", "carcassonne", "--players", "human,random", "--seed", "3",
                     input="h\nw\nc\nl\nq\nn\n", columns=80)
    assert_clean_exit(result, 0)
    out = result.output
    assert "How to play Carcassonne here" in out and "pan the board" in out
    assert out.count("Red, your choice [1-") == 5
    assert out.count("Red to play") == 4  # drawn once, then again after w, c and l


def test_prompts_fit_an_80_column_terminal() -> None:
    for keys in (", w/a/s/d pan", " or f11-e10", ""):
        # the longest seat name of every game
        longest = max((seat.name for name in ("carcassonne", "queens", "shogun")
                       for seat in bw.game_info(name).seats), key=len)
        prompt = choice_prompt(Text(longest), 999, keys)
        assert len(prompt.plain) <= 80


# -- Queens ------------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("width,height", SIZES)
def test_queens_screens_fit_the_terminal(players: int, width: int, height: int) -> None:
    """Width and height: at 80x24 the menu is summed up per piece so the board stays on
    screen; at 120x40 every move is listed with its number."""
    game = bw.load("queens", players=players)
    shown, final = moments(game, seed=players)
    renderer = renderer_for(game)
    for state in shown:
        lines = screen(renderer, state, width, height)
        assert_fits_width(lines, width)
        assert len(lines) + PROMPT_LINES <= height, "\n".join(lines)
        if height == 24:  # ~100 numbered moves never fit under the board: summed up
            assert any(line.startswith("Moves ") for line in lines), "\n".join(lines)
    assert_fits_width(render_lines(renderer.final(final), width), width)


def test_every_space_has_one_label_printed_on_the_board() -> None:
    game = bw.load("queens")
    board = game.board
    state = game.new_game(1)
    lines = render_lines(renderer_for(game).position(state), 120)
    ruler = next(line for line in lines if line.split()[:3] == ["1", "2", "3"])
    names = set()
    for r in range(-board.radius, board.radius + 1):
        for q in range(-board.radius, board.radius + 1):
            coord = (q, r)
            if not board.contains(coord):
                assert parse_space(f"({q},{r})", board.radius) is None
                continue
            name = label(coord, board.radius)
            names.add(name)
            assert parse_space(name, board.radius) == coord
            assert parse_space(f"({q}, {r})", board.radius) == coord
            row = next(line for line in lines if line.startswith(f" {name[0]} "))
            column = ruler.index(f" {name[1:]} ") + 1 if f" {name[1:]} " in ruler else None
            assert column is not None and row[column] in ".^", (name, row)
    assert len(names) == 3 * board.radius * (board.radius + 1) + 1  # 91 spaces, 91 names


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 4]),
       stop=st.floats(0.0, 1.0))
def test_every_legal_move_label_reads_back_as_that_move(seed: int, players: int,
                                                        stop: float) -> None:
    game = bw.load("queens", players=players)
    state = game.new_game(seed)
    bots = [make_agent("random", seed=seed + s) for s in range(players)]
    steps = int(stop * 120)
    for _ in range(steps):
        if state.is_terminal:
            return
        state.apply(bots[state.current_player].act(state))
    if state.is_terminal:
        return
    renderer = renderer_for(game)
    radius = game.board.radius
    legal = state.legal_actions()
    seen = set()
    for action in legal:
        attack = hasattr(action, "dst") and renderer.is_attack(state, action.dst)
        text = move_label(action, radius, attack)
        assert text not in seen  # one label per move
        seen.add(text)
        assert parse_move(text, radius) == action
        assert parse_move(text.replace("x", "-") if attack else text, radius) == action
        reply = renderer.command(state, text.upper())
        assert reply is not None and reply.action == action
    menu = "\n".join(render_lines(renderer.menu(state, 80)[1], 80))
    assert not re.search(r"\(-?\d+, ?-?\d+\)", menu)  # no axial pair on the screen


def test_queens_reads_old_axial_moves_and_explains_wrong_ones() -> None:
    game = bw.load("queens")
    state = game.new_game(1)
    renderer = renderer_for(game)
    move = next(a for a in renderer.sorted_actions(state) if hasattr(a, "dst"))
    axial = f"({move.src[0]},{move.src[1]})-({move.dst[0]},{move.dst[1]})"
    assert renderer.command(state, axial).action == move
    wrong = renderer.command(state, "a6-k6")
    assert wrong.action is None and "not a legal move" in wrong.lines[0].plain
    assert "names no space" in renderer.command(state, "z1-a6").lines[0].plain
    listed = renderer.command(state, label(move.src, game.board.radius)).lines[0].plain
    assert move_label(move, game.board.radius) in listed
    assert renderer.command(state, "12") is None  # a number is the menu's


def test_cli_plays_a_queens_move_typed_in_labels(tmp_path: Path) -> None:
    game = bw.load("queens")
    state = game.new_game(1)
    renderer = renderer_for(game)
    move = renderer.sorted_actions(state)[3]
    text = move_label(move, game.board.radius)
    path = tmp_path / "game.json"
    result = run_cli("play", "queens", "--players", "human,random", "--seed", "1", "--save",
                     str(path), input=f"help\n{text}\nq\n", columns=80)
    assert_clean_exit(result, 0)
    assert "How to play Queens & Princes here" in result.output
    assert bw.GameRecord.load(path).actions[0] == move.to_json()


# -- Rise of the Shogun ------------------------------------------------------------------------

def raw_ids(game: bw.Game) -> re.Pattern[str]:
    """Any id of the data files, as a word: cards, treasures, missions, provinces (ids are
    lower case; the screen names provinces with a capital), and `key=value` leftovers."""
    ids = set(game.catalogue) | set(game.treasure) | set(game.mission) | set(game.board.ids)
    words = "|".join(sorted(map(re.escape, ids), key=len, reverse=True))
    return re.compile(rf"(?<![\w-])({words})(?![\w-])|\w+=\w+|\b[a-z]+_[a-z_]+\b")


def shogun_pages(game: bw.Game, state: bw.State, renderer: object, width: int) -> list[str]:
    pages = screen(renderer, state, width, 40)
    seat = state.current_player
    pages += [renderer.describe(state, a, seat) for a in state.legal_actions()]
    pages += [renderer.describe(state, a, None) for a in state.legal_actions()]
    return pages


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.sampled_from([2, 3, 4]),
       steps=st.integers(0, 400))
def test_shogun_screens_never_show_a_raw_id(seed: int, players: int, steps: int) -> None:
    game = bw.load("shogun", players=players, options={"max_rounds": 8})
    state = game.new_game(seed)
    renderer = renderer_for(game)
    bots = [make_agent("random", seed=seed + s) for s in range(players)]
    pattern = raw_ids(game)
    news: list[str] = []
    for _ in range(steps):
        if state.is_terminal:
            break
        action = bots[state.current_player].act(state)
        news.append(renderer.describe(state, action, None))
        before = renderer.snapshot(state)
        state.apply(action)
        news += [line.plain for line in renderer.news(before, state)]
    if state.is_terminal:
        pages = render_lines(renderer.final(state), 120)
    else:
        pages = shogun_pages(game, state, renderer, 80) + shogun_pages(game, state, renderer, 120)
    for line in pages + news:
        found = pattern.search(line)
        assert found is None, f"{found.group(0)!r} in {line!r}"


@pytest.mark.parametrize("width,height", SIZES)
def test_shogun_screens_fit_the_width(width: int, height: int) -> None:
    game = bw.load("shogun", players=3, options={"max_rounds": 6})
    shown, final = moments(game, seed=4)
    renderer = renderer_for(game)
    for state in shown:
        assert_fits_width(screen(renderer, state, width, height), width)
    assert_fits_width(render_lines(renderer.final(final), width), width)


def test_shogun_shows_card_data_missions_and_treasures_of_the_viewer_only() -> None:
    from boardwright.games.shogun.scenario import build

    green, red = 0, 1  # the samurai and the ninja
    catalogue = bw.load("shogun", 2).catalogue
    samurai = [c for c in catalogue if c.startswith("sam_") and "attr" not in c]
    with_text = [c for c in samurai if catalogue[c].text][:3]
    state = build(castles={"satsuma": green}, courts={"kaga": red},
                  missions={green: "m6", red: "m1"},
                  treasures={green: ["t_kappa"], red: ["t_oni"]},
                  peasants={"higo": green}, hero_at={green: "hyuga", red: "noto"},
                  hands={green: with_text + samurai[:2]})
    game = state.game
    renderer = renderer_for(game)
    assert state.current_player == green
    text = "\n".join(screen(renderer, state, 120, 40))
    hand = state.view(green)["cards"][green]["hand"]
    assert hand
    for card_id in hand:
        card = game.catalogue[card_id]
        assert card.name in text and f"cost {card.cost}" in text
        if card.value is not None:
            assert f"value {card.value}" in text
        if card.text:
            assert card.text.split(" (SHO")[0][:40] in text.replace("\n", " ")
    mine, theirs = game.mission["m6"], game.mission["m1"]
    assert mine.name in text and mine.condition[:40] in text.replace("\n", " ")
    assert theirs.name not in text  # Red's mission is Red's
    kappa, oni = game.treasure["t_kappa"], game.treasure["t_oni"]
    assert kappa.name in text and "attack 4" in text
    assert "free move" in text.replace("\n", " ")
    assert oni.name not in text
    assert "Around your hero in Hyuga" in text
    assert re.search(r"1 \w+\s+Osumi", text) or "Osumi" in text  # a neighbour of Hyuga


def test_shogun_help_and_surroundings_in_the_cli() -> None:
    result = run_cli("play", "shogun", "--players", "human,random", "--seed", "2",
                     input="h\n" + "1\n" * 14 + "m\nq\n", columns=80)
    assert_clean_exit(result, 0)
    assert "How to play Rise of the Shogun here" in result.output
    assert "Around your hero in" in result.output  # at 80x24, printed by m


@pytest.mark.parametrize("name", ["carcassonne", "queens", "shogun"])
def test_each_games_help_fits_80_columns(name: str) -> None:
    help_text = renderer_for(bw.load(name)).help()
    lines = render_lines(help_text, 80)
    assert lines[0].startswith("How to play ") and len(lines) >= 6
    assert len(lines) == len(help_text)  # one line each: nothing wrapped at 80
    assert any(line.strip().startswith("h, help") for line in lines)


def test_help_lines_list_keys_and_notes() -> None:
    lines = [line.plain for line in help_lines("X", [("k", "does k")], ["a note"])]
    assert lines == ["How to play X here", "  k  does k", "  a note"]


def test_queens_players_table_shows_places_not_the_encoded_standing() -> None:
    from rich.console import Console

    from boardwright.render.queens_text import players_table, standing_places

    assert standing_places([1034, 914, 1034, -1]) == ["=1st", "3rd", "=1st", "out"]
    assert standing_places([322, 314]) == ["1st", "2nd"]
    position = {"seats": [
        {"queen": [0, 4], "princes": [[1, 3]], "cities": [[0, 4], [2, 3]], "fields": [[0, 3]]},
        {"queen": [0, -4], "princes": [[-1, -3]], "cities": [[0, -4]], "fields": [[0, -3]]}]}
    state = bw.load("queens", 2, {"position": position}).new_game(0)
    console = Console(width=100, record=True)
    console.print(players_table(state, None))
    text = console.export_text()
    assert "Place" in text and "1st" in text and "2nd" in text
    assert "211" not in text and "111" not in text  # the standings 211 and 111


def test_a_short_terminal_leaves_the_shogun_map_out_and_m_prints_it() -> None:
    game = bw.load("shogun", 2)
    state = game.new_game(1)
    agent = make_agent("greedy", seed=1)
    for _ in range(150):
        state.apply(agent.act(state))
    renderer = renderer_for(game)
    tall = screen(renderer, state, 120, 200)
    short = screen(renderer, state, 80, 24)
    assert any(line.startswith("Occupied provinces") for line in tall)
    assert not any(line.startswith("Occupied provinces") for line in short)
    assert any("(m: " in line for line in short) and len(short) < len(tall)
    assert short[-1].strip() == tall[-1].strip()  # the decision's list stays whole
    reply = renderer.command(state, "m")
    shown = render_lines(reply.lines, 80)
    assert shown[0].startswith("Around your hero") and "Occupied provinces" in shown
    assert renderer.command(state, "x") is None
