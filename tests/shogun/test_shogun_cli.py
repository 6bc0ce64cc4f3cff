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
    assert "choose the" in result.output  # "choose the Samurai", ...


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
    assert re.search(r"Satsuma\s+▣ castle, roof Green", text)
    assert re.search(r"Kaga\s+▣ castle, courted by Red", text)
    assert re.search(r"Higo\s+Green peasant", text) and re.search(r"Owari\s+⛩ shrine", text)
    page = as_text(renderer.position(state))
    mission = state.game.mission["m1"]
    assert "m1" not in page and mission.name not in page  # Red's mission stays hidden
    actions, menu = renderer.menu(state)
    assert len(actions) == len(menu) == len(state.legal_actions())
    assert "end the Hero phase" in as_text(menu)


# -- what the terminal shows of other seats' secret choices --------------------------------------

def moves_of(path: Path, seat: int) -> list[tuple[dict, bool]]:
    """Each action of `seat` in a saved record, and whether the game hides it from the
    others."""
    record = bw.GameRecord.load(path)
    game = bw.load("shogun", record.players, record.options)
    state = game.new_game(record.seed)
    moves = []
    for data in record.actions:
        action = game.action_from_json(data)
        if state.current_player == seat:
            moves.append((data, game.hides_from(action, seat, None)))
        state.apply(action)
    return moves


def test_the_terminal_never_names_a_bots_kept_or_discarded_treasure(tmp_path: Path) -> None:
    game = bw.load("shogun", 2)
    path = tmp_path / "game.json"
    moves: list[tuple[dict, bool]] = []
    for seed in range(7, 17):  # games until the bot has made secret choices
        result = run("play", "shogun", "--players", "human,greedy", "--seed", str(seed),
                     "--save", str(path), input="1\n" * 150)
        assert result.exit_code in (0, 1), result.output
        moves = moves_of(path, 1)
        if sum(secret for _, secret in moves) >= 2:
            break
    secrets = [data for data, secret in moves if secret]
    assert len(secrets) >= 2
    shown = result.output.split("Game over")[0]  # the end reveals every treasure
    bot_lines = re.findall(r"^\w+ \(greedy\): (.*)$", shown, re.MULTILINE)
    assert len(bot_lines) == len(moves)
    for line, (data, secret) in zip(bot_lines, moves):
        if secret:
            treasure = game.treasure[data["treasure"]]
            assert treasure.name not in line and treasure.id not in line, line
            assert line == game.describe_action(game.action_from_json(data), 0, 1)


def test_the_human_reads_their_own_secret_choices_whole() -> None:
    game = bw.load("shogun", 2)
    renderer = renderer_for(game, ["you", "greedy"])
    state = game.new_game(1)
    keep = game.action_from_json({"type": "keep_treasure", "treasure": "t_oni"})
    actor = state.current_player
    name = game.treasure["t_oni"].name
    assert name in renderer.describe(state, keep, actor)
    assert name in renderer.describe(state, keep, bw.OMNISCIENT)  # a saved record (`show`)
    for viewer in (1 - actor, None):
        assert renderer.describe(state, keep, viewer) == "keep a treasure"


def test_move_lines_are_written_for_the_one_human_or_else_for_a_spectator() -> None:
    from boardwright.cli.seats import screen_reader

    assert screen_reader(["human", "greedy"]) == 0
    assert screen_reader(["random", "human", "greedy"]) == 1
    assert screen_reader(["human", "human"]) is None  # hot seat: one screen for both
    assert screen_reader(["random", "greedy"]) is None  # a demo


def test_show_reads_a_saved_record_whole(tmp_path: Path) -> None:
    """A record holds its seed, so every secret: `show` names the treasure a seat kept."""
    from boardwright.agents import make_agent

    game = bw.load("shogun", 2)
    state = game.new_game(7)
    bots = [make_agent("greedy", seed=s) for s in (1, 2)]
    secret = None
    while secret is None:
        action = bots[state.current_player].act(state)
        if game.hides_from(action, state.current_player, None):
            secret = (len(state.record.actions), state.clone(), action)
        state.apply(action)
    path = tmp_path / "game.json"
    state.record.save(path)
    step, before, action = secret
    line = renderer_for(game).describe(before, action, bw.OMNISCIENT)
    assert game.treasure[action.to_json()["treasure"]].name in line
    shown = run("show", str(path), "--step", str(step + 1))
    assert shown.exit_code == 0, shown.output
    assert f": {line}\n" in shown.output


# -- one wording: the terminal says what the game says ---------------------------------------------

def test_the_terminal_words_actions_events_and_waiting_steps_as_the_game_does() -> None:
    """Menu and move lines are `describe` for every viewer (secrets hidden alike), news
    lines are the game's `event_text`, and a waiting step is the game's `pending_text`."""
    import random

    from boardwright.games.shogun.texts import event_text, pending_text
    from boardwright.render.shogun_text import NEWS

    game = bw.load("shogun", 3, {"max_rounds": 8})
    renderer = renderer_for(game)
    hidden = pendings = news = 0
    for seed in range(3):  # seed 2 keeps and gives back treasures (hidden from the others)
        state = game.new_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            actor = state.current_player
            action = rng.choice(state.legal_actions())
            for viewer in (actor, (actor + 1) % 3, None, bw.OMNISCIENT):
                assert renderer.describe(state, action, viewer) == \
                    game.describe(state, action, viewer)
            hidden += game.hides_from(action, actor, None)
            if state.pending:
                kind, seat = state.pending[0][0], state.pending[0][1]
                waiting = f"{game.colours[seat].capitalize()} must {pending_text(kind)}."
                assert renderer.waiting(state).plain == waiting
                assert waiting in as_text(renderer.position(state)).replace("\n", " ")
                pendings += 1
            before = renderer.snapshot(state)
            new = len(state.log)
            state.apply(action)
            lines = [line.plain for line in renderer.news(before, state)]
            expected = [event_text(game, e) for e in state.log[new:] if e["event"] in NEWS]
            assert lines == expected
            news += len(lines)
    assert hidden and pendings and news, (hidden, pendings, news)  # each case reached


def test_hot_seat_hands_the_terminal_over_between_humans() -> None:
    """Each screen shows the deciding seat's hand and mission: before another human's screen
    the terminal is cleared and handed over (any answer but q goes on)."""
    result = run("play", "shogun", "--players", "human,human", "--seed", "3", input="1\n" * 8)
    assert result.exit_code == 1, result.output  # the input ran out
    handed = re.findall(r"^Pass the terminal to (Green|Red)\.$", result.output, re.MULTILINE)
    assert handed[:3] == ["Red", "Green", "Red"]  # Green decided first
    after = result.output.split("Pass the terminal to Red.")[1]
    assert after.startswith("\nRed, press Enter when only you can see the screen")
    assert after.index("So far:") < after.index("Red to decide")

