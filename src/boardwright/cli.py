"""The `boardwright` command line (Typer + Rich).

    boardwright play carcassonne --players human,random --seed 3 --save game.json
    boardwright play carcassonne --players random,random --expansion abbey_mayor
    boardwright show game.json [--step N | --to-end] [--engine native]
    boardwright analyse game.json [--workers 2] [--iterations 480] [--seed 0] [--out FILE]
    boardwright simulate carcassonne --agents mcts:iters=200,random -n 100 --workers 2 --seed 1
    boardwright simulate carcassonne --agents random -n 1000 --engine native
    boardwright rules coverage [GAME] [--root PATH]
    boardwright games
    boardwright serve [--host 127.0.0.1] [--port 8000] [--db URL]

Every error the engine raises on purpose (`BoardwrightError`) ends as one red line and an exit
code, never a traceback: 2 for usage errors (unknown game, bad option, bad agent, bad
argument), 1 for everything else (a corrupt record, input that ran out). Input is read line by
line from stdin, so games can be scripted or tested by piping answers in.
"""

from __future__ import annotations

import json
import math
import random
import re
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Callable, Iterator, NoReturn, Sequence

import typer
from typer.core import TyperCommand
from rich import box
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.measure import Measurement
from rich.progress import (
    BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

import boardwright as bw
from boardwright.agents import HUMAN, make_agent
from boardwright.agents.advice import suggest
from boardwright.agents.registry import import_agents
from boardwright.render import renderer_for
from boardwright.render.screen import (
    HELP_KEYS, Reply, Size, decision_screen, help_lines, print_screen, shared_keys,
)

app = typer.Typer(
    name="boardwright",
    help="Play, replay and check tabletop board games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
rules_app = typer.Typer(help="Rule traceability: which documented rules have tests.",
                        no_args_is_help=True)
app.add_typer(rules_app, name="rules")

USAGE = 2  # exit code of usage errors, as Typer uses for bad arguments
FAILURE = 1
INTERRUPTED = 130  # a simulation stopped by Ctrl-C (it still reports what finished)


# -- consoles, errors, input ----------------------------------------------------------------------

def _console() -> Console:
    """A console on the *current* stdout (test runners swap it), without auto-highlighting."""
    return Console(highlight=False)


def _err_console() -> Console:
    return Console(stderr=True, highlight=False)


def _fail(message: str, code: int) -> NoReturn:
    """One red line on stderr, then exit: what the user sees instead of a traceback."""
    _err_console().print(Text(f"Error: {message}", style="bold red"), soft_wrap=True)
    raise typer.Exit(code)


class UsageError(bw.BoardwrightError):
    """A bad command-line argument (exit code 2)."""


class InputEnded(Exception):
    """stdin ran out while a human had to decide."""


USAGE_ERRORS = (bw.UnknownGameError, bw.InvalidOptionError, UsageError)


@contextmanager
def _friendly_errors() -> Iterator[None]:
    """Turn engine errors into a red message and the right exit code."""
    try:
        yield
    except USAGE_ERRORS as exc:
        _fail(str(exc), USAGE)
    except bw.BoardwrightError as exc:
        _fail(str(exc), FAILURE)


def _print(console: Console, renderable: RenderableType) -> None:
    """Print without wrapping boards: a board wider than the terminal is cut, never folded."""
    console.print(renderable, soft_wrap=isinstance(renderable, Text))


class Prompter:
    """Reads answers line by line from stdin.

    On a terminal it uses Rich's input (line editing). Otherwise (piped input, tests) it echoes
    each answer after the prompt, so a transcript reads like an interactive session.
    """

    def __init__(self, console: Console) -> None:
        self.console = console
        try:
            self.tty = sys.stdin.isatty()
        except (AttributeError, ValueError):
            self.tty = False

    def ask(self, prompt: str | Text) -> str:
        """One line, stripped; raises InputEnded at the end of input."""
        if isinstance(prompt, str):
            prompt = Text(prompt)  # literal: "[y/N]" is not Rich markup
        if self.tty:
            try:
                return self.console.input(prompt).strip()
            except EOFError:
                self.console.print()
                raise InputEnded from None
        self.console.print(prompt, end="")
        line = sys.stdin.readline()
        if not line:
            self.console.print()
            raise InputEnded
        answer = line.rstrip("\r\n")
        self.console.print(Text(answer), soft_wrap=True)
        return answer.strip()

    def error(self, message: str) -> None:
        self.console.print(Text(message, style="bold red"), soft_wrap=True)


HINT = -1  # ask_choice's answer to "?": show the bot's best moves
HELP = -2  # ask_choice's answer to h / help: show how to play here


def choice_prompt(who: Text, count: int, keys: str = "") -> Text:
    """The prompt of a human's decision, e.g. "Red, your choice [1-12, ? hint, h help,
    q quit]: "; `keys` adds a game's own commands after the numbers (", w/a/s/d pan"). It
    fits one line of an 80-column terminal."""
    prompt = who.copy()
    prompt.append(f", your choice [1-{count}{keys}, ? hint, h help, q quit]: ", style="")
    return prompt


def ask_choice(prompter: Prompter, count: int, who: Text,
               command: Callable[[str], Any] | None = None, keys: str = "") -> Any:
    """A number in 1..count typed by a human; HINT for ?; HELP for h or help; None when they
    type q; whatever `command` returns for a text it reads (a game's own command, e.g. a move
    named by board labels or a pan of the board). Asks until valid."""
    prompt = choice_prompt(who, count, keys)
    while True:
        answer = prompter.ask(prompt)
        if answer.lower() in ("q", "quit", "exit"):
            return None
        if answer == "?":
            return HINT
        if answer.lower() in HELP_KEYS:
            return HELP
        if not answer:
            prompter.error(f"Type the number of a move (1 to {count}), ? for a hint, "
                           "h for help, or q to quit.")
            continue
        if command is not None:
            reply = command(answer)
            if reply is not None:
                return reply
        try:
            number = int(answer)
        except ValueError:
            prompter.error(f"{answer!r} is not a number: type 1 to {count}, ? for a hint, "
                           "h for help, or q to quit.")
            continue
        if not 1 <= number <= count:
            prompter.error(f"There is no move {number}: type a number from 1 to {count}, "
                           "or q to quit.")
            continue
        return number


def hint_lines(state: bw.State, actions: list[Any], describe: Callable[[Any], str],
               seconds: float = 1.0) -> list[Text]:
    """The bot's three best moves for the player to move, by their menu numbers, with the
    expected margin of each (its lead in points over the best other player)."""
    lines = [Text(f"Hint ({seconds:g} s of search; expected margin in points):", style="bold")]
    for hint in suggest(state, count=3, seconds=seconds):
        number = actions.index(hint.action) + 1
        lines.append(Text(f"  {number}. {describe(hint.action)}  {hint.margin:+.1f}"))
    return lines


# -- argument parsing ----------------------------------------------------------------------------

def parse_seats(text: str, flag: str = "--players", example: str = "human,random") -> list[str]:
    """`"human,random:seed=3"` -> one entry per seat.

    Agent parameters are comma-separated too (`mcts:iters=200,seed=3`), so an item that is only
    `key=value` continues the agent spec before it instead of starting a new seat. `flag` and
    `example` only word the error messages (`simulate --agents` parses the same way).
    """
    seats: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            raise UsageError(f"{flag} {text!r} has an empty seat; write e.g. {example}")
        if item.lower() == HUMAN:
            item = HUMAN
        if "=" in item and ":" not in item and seats and ":" in seats[-1]:
            seats[-1] += "," + item
        else:
            seats.append(item)
    if not seats:
        raise UsageError(f"{flag} needs at least one seat, e.g. {example}")
    return seats


def parse_option_values(items: Sequence[str]) -> dict[str, Any]:
    """`["farmers=false", "small_city_scoring=first_edition"]` -> {"farmers": False, ...}.

    Values are JSON when they parse as JSON (numbers, true/false, lists), strings otherwise.
    """
    options: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--option {item!r} is not key=value (e.g. --option farmers=false)")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        options[key.strip()] = value
    return options


def add_expansions(options: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """Append `--expansion` names to options["expansions"] (kept in order, no duplicates).

    The game validates the names; here only the shape of an `--option expansions=...` that
    they are added to is checked, so the error names the flag that caused it.
    """
    if not names:
        return options
    current = options.get("expansions", [])
    if isinstance(current, str):
        current = [current]
    if not isinstance(current, list):
        raise UsageError(f"--expansion cannot be added to --option expansions={current!r}: "
                         "it must be a list, e.g. expansions='[\"abbey_mayor\"]'")
    merged = list(current)
    for name in names:
        name = name.strip()
        if not name:
            raise UsageError("--expansion needs a name, e.g. --expansion abbey_mayor")
        if name not in merged:
            merged.append(name)
    return {**options, "expansions": merged}


def bots_only_options(game: str, options: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The options of a game only bots play (the game adds its limit, e.g. Rise of the
    Shogun's round cap) and a note of what was added, None when nothing was."""
    options, added = bw.bots_only_options(game, options)
    if not added:
        return options, None
    return options, ", ".join(f"{key} = {value}" for key, value in added.items())


def seat_labels(seats: Sequence[str]) -> list[str]:
    humans = sum(1 for s in seats if s == HUMAN)
    return [("you" if humans == 1 else HUMAN) if s == HUMAN else s for s in seats]


def screen_reader(seats: Sequence[str]) -> int | None:
    """Whom the move lines of a terminal game are written for: the human's seat when one
    human plays (their own secret choices are shown whole, the bots' are not), else a
    spectator. Several humans share one screen, so a line one of them may not read is shown
    to none of them in full; a demo between bots shows what a spectator would see."""
    humans = [seat for seat, kind in enumerate(seats) if kind == HUMAN]
    return humans[0] if len(humans) == 1 else None


def agent_seed(seed: int, seat: int) -> int:
    """Each bot gets its own seed derived from the game's, so `--seed` fixes the whole game."""
    return seed * 101 + seat + 1


def describe_seats(labels: Sequence[str], name: Any) -> Text:
    text = Text()
    for seat, label in enumerate(labels):
        if seat:
            text.append(" vs ")
        text.append_text(name(seat))
        text.append(f" ({label})")
    return text


def seat_namer(renderer: Any) -> Any:
    """How a game names its seats: its renderer's `seat_text` (the game's `info.seats`)."""
    return renderer.seat_text


ENGINE_HELP = ("The engine that plays the rules: python (the reference) or, for a game that has "
               "one, native (compiled at install time). Default: the game's default; "
               "`boardwright games` lists the engines.")
EngineOption = Annotated[str | None, typer.Option("--engine", metavar="NAME", help=ENGINE_HELP)]


# -- boardwright play ----------------------------------------------------------------------------

@app.command()
def play(
    game: Annotated[str, typer.Argument(help="The game to play (see `boardwright games`).")],
    players: Annotated[str, typer.Option(
        "--players", "-p",
        help="One entry per seat, comma-separated: 'human' or an agent ('random', "
             "'random:seed=3').")] = "human,random",
    seed: Annotated[int | None, typer.Option(help="Seed of the game (random when omitted).")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="A game option as key=value (value parsed as JSON when it can "
                               "be); repeat for several. `boardwright options GAME` lists "
                               "them.")] = None,
    expansion: Annotated[list[str] | None, typer.Option(
        "--expansion", "-x", metavar="NAME",
        help="Play with an expansion (e.g. abbey_mayor): adds it to the 'expansions' "
             "option; repeat for several.")] = None,
    save: Annotated[Path | None, typer.Option(
        help="Write the game record (JSON) to this file when the game ends or is left.")] = None,
    engine: EngineOption = None,
) -> None:
    """Play a game in the terminal, against bots or hot-seat; bots alone play a demo."""
    console = _console()
    with _friendly_errors():
        seats = parse_seats(players)
        options = add_expansions(parse_option_values(option or []), expansion or [])
        added = None
        if HUMAN not in seats:  # a demo between bots must end
            options, added = bots_only_options(game, options)
        configured = bw.load(game, players=len(seats), options=options, engine=engine)
        if added is not None:
            console.print(Text(f"Bots only: {added} (the game's limit for bots alone; set it "
                               "with --option to change it)"), soft_wrap=True)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        agents = [None if s == HUMAN else make_agent(s, seed=agent_seed(seed, i))
                  for i, s in enumerate(seats)]
        code = _play_game(console, configured, seed, seats, agents, save)
    if code:
        raise typer.Exit(code)


def _play_game(console: Console, game: bw.Game, seed: int, seats: list[str],
               agents: list[Any], save: Path | None) -> int:
    labels = seat_labels(seats)
    renderer = renderer_for(game, labels)
    reader = screen_reader(seats)
    state = game.new_game(seed)
    state.meta["seats"] = list(seats)
    prompter = Prompter(console)
    name = seat_namer(renderer)
    header = Text(f"{game.info.title} · seed {seed} · ", style="bold")
    header.append_text(describe_seats(labels, name))
    _print(console, header)
    for line in renderer.legend():
        _print(console, line)

    while not state.is_terminal:
        seat = state.current_player
        agent = agents[seat]
        note = ""
        if agent is None:
            actions, _ = renderer.menu(state)
            if len(actions) == 1:
                action, note = actions[0], " (the only legal move)"
            else:
                try:
                    chosen = _human_decision(console, prompter, renderer, state, actions,
                                             name(seat))
                except InputEnded:
                    console.print(Text("Input ended: leaving the game unfinished.",
                                       style="bold red"))
                    if save is not None:
                        _save(console, state, save)
                    return FAILURE
                if chosen is None:
                    return _quit(console, prompter, state, save)
                action = chosen
        else:
            action = agent.act(state)
        line = name(seat, f" ({labels[seat]}): ")
        line.append(renderer.describe(state, action, reader) + note, style="")
        before = renderer.snapshot(state)
        state.apply(action)
        _print(console, line)
        for news in renderer.news(before, state):
            _print(console, news)

    console.rule("Game over")
    final_screen = getattr(renderer, "final_screen", None)
    if final_screen is not None:
        print_screen(console, final_screen(state, Size(console.width, console.height)))
    else:
        for renderable in renderer.final(state):
            _print(console, renderable)
    if save is not None:
        _save(console, state, save)
    return 0


def _human_decision(console: Console, prompter: Prompter, renderer: Any, state: bw.State,
                    actions: list[Any], who: Text) -> Any:
    """The action a human picks (None: they quit): the decision screen fitted to the
    terminal, then answers until one names a move. Hints, help and the game's own commands
    (a pan of the board, which draws the screen again) are answered in between."""
    seat = state.current_player

    def draw() -> None:
        print_screen(console, decision_screen(renderer, state, Size(console.width,
                                                                    console.height)))

    command = getattr(renderer, "command", None)
    read = None if command is None else (lambda text: command(state, text))
    keys = getattr(renderer, "prompt_keys", lambda: "")()
    draw()
    while True:
        choice = ask_choice(prompter, len(actions), who, read, keys)
        if choice is None:
            return None
        if choice == HINT:
            for hint in hint_lines(state, actions, lambda a: renderer.describe(state, a, seat)):
                _print(console, hint)
        elif choice == HELP:
            print_screen(console, game_help(renderer))
        elif isinstance(choice, Reply):
            if choice.action is not None:
                return choice.action
            if choice.redraw:
                draw()
            print_screen(console, choice.lines)
        else:
            return actions[choice - 1]


def game_help(renderer: Any) -> list[Any]:
    """The game's "how to play here", or the keys every game shares."""
    own = getattr(renderer, "help", None)
    if own is not None:
        return own()
    return help_lines("this game", shared_keys())


def _save(console: Console, state: bw.State, path: Path) -> None:
    try:
        state.record.save(path)
    except OSError as exc:
        _fail(f"cannot write the record to {path}: {exc.strerror or exc}", FAILURE)
    console.print(Text(f"Record saved to {path}", style="green"), soft_wrap=True)


def _quit(console: Console, prompter: Prompter, state: bw.State, save: Path | None) -> int:
    """The human typed q: keep the record if wanted, then stop (a choice, not an error)."""
    console.print(Text("Game left unfinished.", style="bold"))
    if save is not None:
        _save(console, state, save)
        return 0
    try:
        answer = prompter.ask("Save the record of this game? [y/N]: ")
        if answer.lower() in ("y", "yes"):
            default = f"{state.game.name}-{state.record.seed}.json"
            name = prompter.ask(f"File name [{default}]: ") or default
            _save(console, state, Path(name))
    except InputEnded:
        pass
    return 0


# -- boardwright show ----------------------------------------------------------------------------

class Replay:
    """The positions of a record, built on demand and kept (stepping back is free).

    A record carries its seed, and with it every hidden card: its reader is OMNISCIENT, and
    every action is shown whole, secret choices included."""

    def __init__(self, record: bw.GameRecord, engine: str | None = None) -> None:
        self.record = record
        self.engine = engine
        self.total = len(record.actions)
        final = bw.replay(record, engine=engine)  # validates the whole record before drawing
        self.states: dict[int, bw.State] = {self.total: final}
        seats = record.meta.get("seats")
        valid = isinstance(seats, list) and len(seats) == record.players and all(
            isinstance(s, str) for s in seats)
        labels = list(seats) if valid else None
        self.renderer = renderer_for(final.game, labels)

    def state(self, step: int) -> bw.State:
        if step not in self.states:
            self.states[step] = bw.replay(self.record, steps=step, engine=self.engine)
        return self.states[step]

    def draw(self, console: Console, step: int) -> None:
        state = self.state(step)
        console.rule(f"Step {step} of {self.total}")
        if step > 0:
            before = self.state(step - 1)
            action = before.game.action_from_json(self.record.actions[step - 1])
            line = seat_namer(self.renderer)(before.current_player, ": ")
            line.append(self.renderer.describe(before, action, bw.OMNISCIENT), style="")
            _print(console, line)
            for news in self.renderer.news(self.renderer.snapshot(before), state):
                _print(console, news)
        else:
            _print(console, Text("Start of the game."))
        if state.is_terminal:
            for renderable in self.renderer.final(state):
                _print(console, renderable)
        else:
            for renderable in self.renderer.position(state):
                _print(console, renderable)


@app.command()
def show(
    record_file: Annotated[Path, typer.Argument(metavar="RECORD.json",
                                                help="A game record saved by `play --save`.")],
    step: Annotated[int | None, typer.Option(
        help="Show the position after this many actions.")] = None,
    to_end: Annotated[bool, typer.Option("--to-end", help="Show the final position.")] = False,
    engine: EngineOption = None,
) -> None:
    """Replay a saved game: step through it (Enter, b, a step number, q) or jump to a step."""
    console = _console()
    with _friendly_errors():
        record = bw.GameRecord.load(record_file)
        replay = Replay(record, engine)
        if to_end and step is not None:
            raise UsageError("give either --step or --to-end, not both")
        if step is not None and not 0 <= step <= replay.total:
            raise UsageError(f"--step {step} is outside this record (0 to {replay.total})")
        if to_end or step is not None:
            replay.draw(console, replay.total if to_end else step)  # type: ignore[arg-type]
            return
        _step_through(console, replay)


def _step_through(console: Console, replay: Replay) -> None:
    prompter = Prompter(console)
    step = 0
    replay.draw(console, step)
    while True:
        try:
            answer = prompter.ask(
                f"[Enter] next · b back · 0-{replay.total} go to step · q quit (step {step}): ")
        except InputEnded:
            return
        lower = answer.lower()
        if lower in ("q", "quit", "exit"):
            return
        if lower == "":
            if step >= replay.total:
                prompter.error("This is the end of the record (b goes back, q quits).")
                continue
            step += 1
        elif lower in ("b", "back"):
            if step == 0:
                prompter.error("This is the start of the game (Enter goes on, q quits).")
                continue
            step -= 1
        else:
            try:
                target = int(answer)
            except ValueError:
                prompter.error(f"{answer!r} is not understood: Enter, b, a step number or q.")
                continue
            if not 0 <= target <= replay.total:
                prompter.error(f"There is no step {target}: steps go from 0 to {replay.total}.")
                continue
            step = target
        replay.draw(console, step)


# -- boardwright analyse -------------------------------------------------------------------------

def analysis_path(record_file: Path) -> Path:
    """Where an analysis is stored by default: beside its record, `game.json` ->
    `game.analysis.json`."""
    return record_file.with_name(record_file.stem + ".analysis.json")


def stored_analysis(path: Path, key: str, settings: Any) -> Any:
    """The analysis stored at `path` if it is the one these settings would make of the record
    hashed `key` (None: none, or another one, which a new analysis replaces). A file there that
    is not an analysis is refused rather than overwritten."""
    from boardwright.agents.analysis import Analysis

    if not path.exists():
        return None
    try:
        stored = Analysis.loads(path.read_bytes())
    except (OSError, bw.CorruptRecordError) as exc:
        raise UsageError(f"{path} exists and is not an analysis ({exc}); remove it or give "
                         f"another --out") from None
    return stored if stored.matches(key, settings) else None


@app.command()
def analyse(
    record_file: Annotated[Path, typer.Argument(metavar="RECORD.json",
                                                help="A game record saved by `play --save`.")],
    workers: Annotated[int, typer.Option("--workers", "-w",
                                         help="Worker processes (decisions in parallel).")] = 2,
    iterations: Annotated[int | None, typer.Option(
        help="Playouts per decision (default 480 with two players, 960 / players with more, "
             "at least 120; fewer is faster and noisier).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the search: the same seed, the same "
                                           "analysis.")] = 0,
    out: Annotated[Path | None, typer.Option(
        help="Where the analysis is stored (default: beside the record, "
             "GAME.analysis.json).")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Analyse again even if a stored analysis with these settings "
                        "exists.")] = False,
    engine: EngineOption = None,
) -> None:
    """Judge every decision of a game: the move played against the bot's best, the points
    lost, mistakes flagged by size, and the expected margin over the game."""
    from boardwright.agents import analysis as A

    console = _console()
    with _friendly_errors():
        if not 1 <= workers <= A.MAX_WORKERS:
            raise UsageError(f"--workers must be from 1 to {A.MAX_WORKERS}, not {workers}")
        settings = A.Settings(iterations=iterations, seed=seed, engine=engine).check()
        record = bw.GameRecord.load(record_file)
        replay = Replay(record, engine)  # validates the whole record before any search
        settings = settings.resolved(record)
        path = out if out is not None else analysis_path(record_file)
        if path.resolve() == record_file.resolve():
            raise UsageError("--out is the record itself: give another file")
        key = A.record_hash(record)
        result = None if force else stored_analysis(path, key, settings)
        if result is not None:
            console.print(Text(f"Stored analysis {path} (same record and settings; --force "
                               "analyses again)", style="dim"), soft_wrap=True)
        else:
            try:
                with _analysis_progress(console) as progress:
                    task = progress.add_task("Analysing", total=len(record.actions))
                    result = A.analyse(record, settings, workers=workers,
                                       progress=lambda done, total: progress.update(
                                           task, completed=done, total=total))
            except KeyboardInterrupt:
                _fail("analysis interrupted: nothing was stored", INTERRUPTED)
            try:
                path.write_text(result.dumps() + "\n", encoding="utf-8")
            except OSError as exc:
                raise bw.BoardwrightError(f"cannot write the analysis to {path}: "
                                          f"{exc.strerror or exc}") from None
            console.print(Text(f"Analysed {len(result.decisions)} decisions in "
                               f"{result.seconds:.1f} s; saved to {path}", style="green"),
                          soft_wrap=True)
        _print_analysis(console, result, seat_namer(replay.renderer))


def _analysis_progress(console: Console) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("decisions ·"), TimeElapsedColumn(), TextColumn("· ETA"),
        TimeRemainingColumn(), console=console, transient=True,
    )


FLAG_STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
FLAG_PLURALS = {"inaccuracy": "Inaccuracies", "mistake": "Mistakes", "blunder": "Blunders"}


def _print_analysis(console: Console, result: Any, name: Callable[..., Text]) -> None:
    from boardwright.agents.analysis import FLAG_NAMES, FLAGS
    from boardwright.render.chart import Series, finite, line_chart

    thresholds = ", ".join(f"{flag} ≥ {points:g}" for flag, points in reversed(FLAGS))
    summary = Table(title="Points lost per decision (expected margin, the bot's best move "
                          "against the move played)", title_justify="left", box=box.SIMPLE,
                    header_style="bold")
    for column in ("Seat", "Judged", "Avg lost", "Total",
                   *(FLAG_PLURALS[f] for f in FLAG_NAMES)):
        summary.add_column(column, justify="left" if column == "Seat" else "right")
    for seat in result.seats:
        summary.add_row(name(seat.seat), str(seat.decisions), f"{seat.average_lost:.2f}",
                        f"{seat.total_lost:.1f}", *(str(seat.flags.get(f, 0)) for f in FLAG_NAMES))
    summary.caption = (f"Judged: decisions with a choice (forced moves are not counted). Flags "
                       f"by points lost: {thresholds}.")
    summary.caption_justify = "left"
    _print(console, summary)
    flagged = [d for d in result.decisions if d.flag is not None]
    if flagged:
        table = Table(title="Flagged moves (step N: `boardwright show RECORD --step N`)",
                      title_justify="left", box=box.SIMPLE, header_style="bold")
        for column in ("Step", "Seat", "Played", "Best", "Lost", "Flag"):
            table.add_column(column, justify="right" if column in ("Step", "Lost") else "left")
        for d in flagged:
            table.add_row(str(d.step + 1), name(d.seat), escape(d.played), escape(d.best or ""),
                          f"{d.lost:.1f}", Text(d.flag, style=FLAG_STYLES.get(d.flag, "")))
        _print(console, table)
    else:
        _print(console, Text("No flagged move.", style="green"))
    rows = result.margins()
    if result.players == 2:
        series = [Series(f"{name(0).plain} ahead (above 0) · {name(1).plain} ahead (below)",
                         str(name(0).style), finite([r[0] for r in rows]))]
        title = f"Expected final margin of {name(0).plain} over the game (points)"
    else:
        series = [Series(name(s).plain, str(name(s).style),
                         finite([r[s] for r in rows])) for s in range(result.players)]
        title = "Each seat's expected final lead over the best other seat (points)"
    _print(console, Text(title, style="bold"))
    for line in line_chart(series):
        _print(console, line)


# -- boardwright rules coverage -------------------------------------------------------------------

_TITLE = re.compile(r"^#{2,4}\s+([A-Z]{3}-[A-Z]+(?:-[A-Z0-9]+)*-\d{2})\b\s*[—–:-]*\s*(.*)$",
                    re.MULTILINE)


def _rule_titles(doc: Path) -> dict[str, str]:
    try:
        text = doc.read_text(encoding="utf-8")
    except OSError:
        return {}
    return {rule: title.strip() for rule, title in _TITLE.findall(text)}


@rules_app.command("coverage")
def rules_coverage(
    game: Annotated[str | None, typer.Argument(
        help="The game whose rules to check (all documented games when omitted).")] = None,
    root: Annotated[Path | None, typer.Option(
        help="A boardwright checkout (default: search upward from the current folder).")] = None,
) -> None:
    """List each documented rule ID with its tests; exit 1 if any rule has no test."""
    from boardwright import rules_coverage as rc

    console = _console()
    if root is not None and not ((root / "docs" / "rules").is_dir() and (root / "tests").is_dir()):
        _fail(f"--root {root} is not a boardwright checkout (it needs docs/rules and tests)",
              USAGE)
    try:
        project = root.resolve() if root is not None else rc.find_project_root()
    except FileNotFoundError as exc:
        _fail(str(exc), USAGE)
    names = [game] if game else rc.documented_games(project)
    if not names:
        console.print(f"No rule documents in {project / 'docs' / 'rules'}.")
        return
    missing_any = False
    for name in names:
        try:
            result = rc.coverage(name, project)
        except FileNotFoundError as exc:
            _fail(f"{exc} (documented games: {', '.join(rc.documented_games(project)) or 'none'})",
                  USAGE)
        except SyntaxError as exc:
            _fail(f"cannot read test file {exc.filename}: {exc.msg}", FAILURE)
        missing_any |= bool(result.missing)
        _print_coverage(console, result, _rule_titles(project / "docs" / "rules" / f"{name}.md"))
    if missing_any:
        raise typer.Exit(FAILURE)


def _print_coverage(console: Console, result: Any, titles: dict[str, str]) -> None:
    documented, missing = result.documented, result.missing
    tested = len(documented) - len(missing)
    out_of_scope = _out_of_scope_note(result)
    table = Table(title=f"{result.game}: {tested} of {len(documented)} rule IDs tested",
                  title_justify="left", title_style="bold")
    id_width = max((len(rule) for rule in documented), default=7)
    table.add_column("Rule ID", no_wrap=True, min_width=id_width)
    cells = []
    for rule in documented:
        places = result.tested.get(rule, [])
        if places:
            where = Path(places[0]).name + (f" +{len(places) - 1}" if len(places) > 1 else "")
            cells.append(Text(where, style="green"))
        else:
            cells.append(Text("missing", style="bold red"))
    tests_width = max([len(c) for c in cells] + [20])
    # Rich crops rather than shrinks no-wrap columns: give the title what the others leave.
    title_width = max(10, min(40, console.width - id_width - tests_width - 10))
    table.add_column("Title", overflow="ellipsis", no_wrap=True, max_width=title_width)
    table.add_column("Tests (first, +more)", no_wrap=True, min_width=tests_width)
    for rule, cell in zip(documented, cells):
        table.add_row(rule, escape(titles.get(rule, "")), cell)
    console.print(table)
    if missing:
        console.print(Text(f"{len(missing)} rule ID(s) of {result.game} have no test:",
                           style="bold red"))
        for rule in missing:
            console.print(f"  {rule}", highlight=False)
    else:
        console.print(Text(f"Every rule ID of {result.game} has a test.", style="bold green"))
    if out_of_scope:
        console.print(Text(f"{out_of_scope}: documented, no test needed.", style="dim"),
                      soft_wrap=True)
    for rule in result.unknown:
        console.print(Text(f"warning: tests mark {rule}, which {result.game}'s rule document "
                           "does not define", style="yellow"), soft_wrap=True)


def _out_of_scope_note(result: Any) -> str:
    """E.g. "42 out of scope (other expansions)"; empty when the document lists none.

    Out-of-scope IDs are points of expansions the engine does not have: listed in the rule
    document so nothing is forgotten, but neither tested nor missing.
    """
    ids = [rule for rule in getattr(result, "out_of_scope", ()) if rule not in result.documented]
    return f"{len(ids)} out of scope (other expansions)" if ids else ""


# -- boardwright simulate ------------------------------------------------------------------------

LOCAL_RAY = "local"  # the value a bare `--ray` stands for


class _OptionalRayValue(TyperCommand):
    """Lets `--ray` take an optional value: a bare `--ray` (last, or followed by another option)
    means a local Ray. A value after it is the cluster address (`--ray auto`, `--ray=ray://h:10001`);
    so write GAME before `--ray`, or use `--ray=ADDRESS`."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        fixed = []
        for position, arg in enumerate(args):
            if arg == "--":
                fixed.extend(args[position:])
                break
            following = args[position + 1] if position + 1 < len(args) else None
            if arg == "--ray" and (following is None or following.startswith("-")):
                arg = f"--ray={LOCAL_RAY}"
            fixed.append(arg)
        return super().parse_args(ctx, fixed)


def seat_names(lineup: Sequence[str]) -> list[str]:
    """Report names of a line-up: the spec, with #1, #2, ... when a spec appears several times
    (`random,random` -> `random#1`, `random#2`), so that every entry has its own row and Elo."""
    counts: dict[str, int] = {}
    for spec in lineup:
        counts[spec] = counts.get(spec, 0) + 1
    seen: dict[str, int] = {}
    names = []
    for spec in lineup:
        if counts[spec] == 1:
            names.append(spec)
        else:
            seen[spec] = seen.get(spec, 0) + 1
            names.append(f"{spec}#{seen[spec]}")
    return names


def simulation_lineup(agents: str, players: int | None) -> list[str]:
    """The agent spec of each entry of the line-up (one entry per seat).

    Players default to the number of agents. A single agent fills every seat (self-play);
    otherwise the number of agents must equal the number of players.
    """
    specs = parse_seats(agents, flag="--agents", example="mcts:iters=200,random")
    if HUMAN in specs:
        raise UsageError("a simulation has no human seat: --agents takes agents only "
                         "(e.g. random, greedy, mcts:iters=200)")
    if players is None:
        return specs
    if players < 1:
        raise UsageError(f"--players must be at least 1, not {players}")
    if len(specs) == 1:
        return specs * players
    if len(specs) != players:
        raise UsageError(f"--agents lists {len(specs)} agents for --players {players}: give one "
                         "agent per seat, or a single agent to fill every seat")
    return specs


def _fmt_interval(low: float, high: float, fmt: str) -> str:
    return f"[{low:{fmt}}, {high:{fmt}}]"


def _fmt_wins(wins: float) -> str:
    return f"{wins:.0f}" if abs(wins - round(wins)) < 1e-9 else f"{wins:.1f}"


def _fmt_elo(row: Any, anchor: bool, sep: str = " ") -> str:
    """The Elo cell: rating and interval; after a clean sweep only the bound the data allow
    ("> +287": the prior-held rating says nothing there)."""
    if anchor:
        return "0"
    if not math.isfinite(row.elo):
        return "+inf" if row.elo > 0 else "-inf"
    ci = row.elo_ci
    if ci is not None and math.isinf(ci[1]) and math.isfinite(ci[0]):
        return f"> {ci[0]:+.0f}"
    if ci is not None and math.isinf(ci[0]) and math.isfinite(ci[1]):
        return f"< {ci[1]:+.0f}"
    text = f"{row.elo:+.0f}"
    if ci is not None and all(math.isfinite(v) for v in ci):
        text += sep + _fmt_interval(ci[0], ci[1], "+.0f")
    return text


def _fmt_ms(ms: float | None) -> str:
    return "—" if ms is None else f"{ms:.3f}" if ms < 1 else f"{ms:.1f}"


def results_table(stats: Sequence[Any], title: str, bootstrap: int,
                  console: Console | None = None) -> Table:
    """The per-agent results: games, wins, draws, win rate, mean score and Elo, with 95% CIs.

    Each interval is beside its value when the table fits the console. Otherwise (e.g. in 80
    columns) the compact layout: intervals under their values, draws under wins, iterations
    under milliseconds, no Games column when every agent played every game (the title says how
    many), and agent names folded rather than cut, so no number is ever cut.
    """
    table = _results_table(stats, title, bootstrap, compact=False)
    if console is not None:
        unbounded = console.options.update(width=10_000, max_width=10_000)
        if Measurement.get(console, unbounded, table).maximum > console.width:
            table = _results_table(stats, title, bootstrap, compact=True)
    return table


def _results_table(stats: Sequence[Any], title: str, bootstrap: int, compact: bool) -> Table:
    sep = "\n" if compact else " "
    table = Table(title=title, title_justify="left", title_style="bold", header_style="bold",
                  box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, collapse_padding=True)
    if compact:
        table.add_column("Agent", overflow="fold")  # a long name folds; numbers never do
    else:
        table.add_column("Agent", no_wrap=True)
    games = not compact or len({row.games for row in stats}) > 1
    if games:
        table.add_column("Games", justify="right", no_wrap=True)
    if compact:
        table.add_column("Wins\n(draws)", justify="right", no_wrap=True)
    else:
        table.add_column("Wins", justify="right", no_wrap=True)
        table.add_column("Draws", justify="right", no_wrap=True)
    for name in ("Win rate", "Mean score", "Elo"):
        table.add_column(f"{name}{sep}[95% CI]", justify="right", no_wrap=True)
    iterations = any(row.iterations_per_decision is not None for row in stats)
    if compact:
        table.add_column("Per\ndecision", justify="right", no_wrap=True)
    else:
        table.add_column("ms per\ndecision", justify="right", no_wrap=True)
        if iterations:
            table.add_column("iterations\nper decision", justify="right", no_wrap=True)
    bounds = [abs(v) for row in stats if row.games and row.score_ci for v in row.score_ci]
    score_fmt = ".0f" if bounds and max(bounds) >= 1000 else ".1f"  # 4 significant digits
    elos = []
    for position, row in enumerate(stats):
        if row.games:
            rate = f"{100 * row.win_rate:.1f}%{sep}" + _fmt_interval(
                100 * row.win_rate_ci[0], 100 * row.win_rate_ci[1], ".1f")
            score = f"{row.mean_score:{score_fmt}}"
            if row.score_ci is not None:
                score += sep + _fmt_interval(row.score_ci[0], row.score_ci[1], score_fmt)
            elo = _fmt_elo(row, position == 0, sep)
        else:
            rate = score = elo = "—"
        elos.append(elo)
        ipd = row.iterations_per_decision
        cells = [escape(row.agent)]
        if games:
            cells.append(str(row.games))
        if compact:
            cells.append(f"{_fmt_wins(row.wins)}\n({row.draws})")
        else:
            cells += [_fmt_wins(row.wins), str(row.draws)]
        cells += [rate, score, elo]
        if compact:
            per = "—" if row.ms_per_decision is None else f"{_fmt_ms(row.ms_per_decision)} ms"
            cells.append(per if ipd is None else f"{per}\n{ipd:.0f} iters")
        else:
            cells.append(_fmt_ms(row.ms_per_decision))
            if iterations:
                cells.append("—" if ipd is None else f"{ipd:.0f}")
        table.add_row(*cells, end_section=compact)
    anchor = escape(stats[0].agent) if stats else ""
    table.caption = (f"Wins: a tie for first is shared. Elo: Bradley–Terry over every pair of "
                     f"seats, relative to {anchor}. 95% CIs: Wilson, t, bootstrap ({bootstrap} "
                     f"resamples of the games).")
    if any(cell.startswith(("> ", "< ")) for cell in elos):
        table.caption += (" > x, < x: a clean sweep against the first agent bounds the Elo on "
                          "one side only (95%, Wilson interval of the head-to-head score).")
    table.caption_justify = "left"
    return table


def _progress(console: Console) -> Progress:
    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("games ·"), TimeElapsedColumn(), TextColumn("· ETA"), TimeRemainingColumn(),
        console=console,
    )


@app.command(cls=_OptionalRayValue)
def simulate(
    game: Annotated[str, typer.Argument(help="The game to simulate (see `boardwright games`).")],
    agents: Annotated[str, typer.Option(
        "--agents", "-a",
        help="The line-up, comma-separated: one agent per seat ('random', 'greedy', "
             "'mcts:iters=200,c=0.7'), or a single agent that fills every seat.")],
    games: Annotated[int, typer.Option("-n", "--games", help="Number of games.")] = 100,
    workers: Annotated[int | None, typer.Option(
        "--workers", "-w",
        help="Worker processes (default 1: in this process). With a local --ray: its CPUs "
             "(default all).")] = None,
    seed: Annotated[int | None, typer.Option(
        help="Base seed: game i gets a seed derived from (seed, i), so a run repeats exactly "
             "(random when omitted, and printed).")] = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-p", help="Seats per game (default: the number of agents).")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="A game option as key=value (value parsed as JSON when it can "
                               "be); repeat for several. `boardwright options GAME` lists "
                               "them.")] = None,
    expansion: Annotated[list[str] | None, typer.Option(
        "--expansion", "-x", metavar="NAME",
        help="Play with an expansion (e.g. abbey_mayor); repeat for several.")] = None,
    out: Annotated[Path | None, typer.Option(
        "--out", metavar="FILE.json|FILE.csv",
        help="Write the results: JSON (summary and one row per game) or CSV (one row per game "
             "and seat), by the extension.")] = None,
    records: Annotated[Path | None, typer.Option(
        "--records", metavar="DIR",
        help="Save every game's record as DIR/game-00012.json (replay with `show`).")] = None,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="[ADDRESS]",
        help="Run the games as Ray tasks: a bare --ray starts a local Ray; --ray=ADDRESS joins "
             "a cluster (e.g. --ray=auto). Needs `pip install boardwright\\[ray]`.")] = None,
    bootstrap: Annotated[int, typer.Option(
        help="Bootstrap resamples for the Elo intervals (0: none).")] = 200,
    engine: EngineOption = None,
    imports: Annotated[list[str] | None, typer.Option(
        "--import", metavar="MODULE|FILE.py",
        help="Import a module or file that registers agents of your own "
             "(bw.register_agent) before the line-up is read; repeat for several. Installed "
             "plugins need no --import.")] = None,
) -> None:
    """Play many games between agents (seats rotate each game) and report win rates, scores and
    Elo with 95% intervals. Ctrl-C stops early and reports the games that finished (exit 130)."""
    from boardwright.sim.output import output_format, save_record, write_results
    from boardwright.sim.parallel import ProcessRunner, collect
    from boardwright.sim.runner import make_jobs
    from boardwright.sim.stats import summarize

    console = _console()
    with _friendly_errors():
        for source in imports or []:
            import_agents(source)
        lineup = simulation_lineup(agents, players)
        for spec in dict.fromkeys(lineup):
            make_agent(spec, seed=0)  # unknown agents and parameters fail now, not in a worker
        options = add_expansions(parse_option_values(option or []), expansion or [])
        options, added = bots_only_options(game, options)
        configured = bw.load(game, players=len(lineup), options=options, engine=engine)
        if added is not None:
            console.print(Text(f"{added} (the game's limit for bots alone; set it with "
                               "--option to change it)"), soft_wrap=True)
        if games < 1:
            raise UsageError(f"-n must be at least 1, not {games}")
        if workers is not None and workers < 1:
            raise UsageError(f"--workers must be at least 1, not {workers}")
        if bootstrap < 0:
            raise UsageError(f"--bootstrap must be 0 or more, not {bootstrap}")
        if out is not None:
            output_format(out)
        if records is not None:
            try:
                records.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise UsageError(f"--records {records}: {exc.strerror or exc}") from None
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        names = seat_names(lineup)
        jobs = make_jobs(game, len(lineup), options, lineup, games, seed, labels=names,
                         records=records is not None, engine=configured.engine)
        address = None if ray in (None, LOCAL_RAY) else ray
        if ray is not None:
            from boardwright.sim.ray_runner import RayRunner

            runner: Any = RayRunner(jobs, address=address, num_cpus=workers)
            where = (f"Ray cluster {address} ({runner.cpus} CPUs)" if address
                     else f"local Ray ({runner.cpus} CPUs)")
        else:
            runner = ProcessRunner(jobs, workers or 1)
            where = (f"{runner.workers} worker processes" if runner.workers > 1
                     else "1 process")
        header = Text(f"Simulating {games} game{'s' if games != 1 else ''} of {configured.name} "
                      f"({len(lineup)} player{'s' if len(lineup) != 1 else ''}) · seed {seed} · "
                      f"{where} · {configured.engine} engine", style="bold")
        console.print(header)  # these lines wrap at spaces: they fit a narrow terminal too
        console.print(Text("Line-up (rotated each game): " + ", ".join(names)))

        started = time.perf_counter()
        with runner, _progress(console) as progress:
            task = progress.add_task("Games", total=games)

            def finished(result: Any) -> None:
                if records is not None:
                    try:
                        save_record(records, result)
                    except OSError as exc:
                        raise UsageError(f"--records {records}: {exc.strerror or exc}") from None
                    result.record = None
                progress.advance(task)

            collected = collect(runner, finished)
        wall = time.perf_counter() - started
        results = collected.results
        if collected.interrupted:
            console.print(Text(f"Interrupted: {len(results)} of {games} games finished; "
                               "the report covers those.", style="bold yellow"), soft_wrap=True)
        if not results:
            raise typer.Exit(INTERRUPTED if collected.interrupted else FAILURE)
        stats = summarize(results, names, bootstrap=bootstrap, seed=seed)
        title = (f"{configured.name} · {len(lineup)} players · {len(results)} games · "
                 f"seed {seed}")
        console.print(results_table(stats, title, bootstrap, console))
        peak = max(r.peak_rss_bytes for r in results)
        rate = len(results) / wall if wall > 0 else float("inf")
        console.print(Text(f"{len(results)} games in {wall:.2f} s ({rate:.1f} games/s) · "
                           f"{where} · peak RSS {peak / 2**20:.0f} MB per process · "
                           f"{configured.engine} engine"))
        if out is not None:
            summary = {
                "game": configured.name, "engine": configured.engine, "players": len(lineup),
                "options": configured.option_summary(), "lineup": list(lineup),
                "names": names, "seed": seed, "games_requested": games,
                "games": len(results), "interrupted": collected.interrupted,
                "backend": runner.backend, "workers": getattr(runner, "workers", None),
                "ray_address": address, "wall_seconds": wall, "games_per_second": rate,
                "peak_rss_bytes": peak, "bootstrap": bootstrap,
            }
            try:
                write_results(out, summary, stats, results)
            except OSError as exc:
                _fail(f"cannot write {out}: {exc.strerror or exc}", FAILURE)
            console.print(Text(f"Results saved to {out}", style="green"), soft_wrap=True)
        if records is not None:
            console.print(Text(f"Records saved in {records}", style="green"), soft_wrap=True)
    if collected.interrupted:
        raise typer.Exit(INTERRUPTED)


# -- boardwright serve ---------------------------------------------------------------------------

LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")  # uvicorn's

@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[str | None, typer.Option(
        "--db", metavar="URL",
        help="SQLAlchemy database URL (default $BOARDWRIGHT_DB, else sqlite:///boardwright.db "
             "in the working directory; postgresql+psycopg://... for PostgreSQL).")] = None,
    bot_delay: Annotated[float, typer.Option(
        help="Seconds each bot move takes at least, so people can follow it.")] = 0.3,
    bot_workers: Annotated[int | None, typer.Option(
        help="Processes that compute bot moves (default: the CPUs, at most 4).")] = None,
    hint_seconds: Annotated[float, typer.Option(
        help="Seconds of search behind a hint at the table.")] = 1.0,
    log_level: Annotated[str, typer.Option(
        help="uvicorn's log level (critical, error, warning, info, debug, trace); seat tokens "
             "are redacted at every level.")] = "info",
    agent: Annotated[list[str] | None, typer.Option(
        "--agent", metavar="AGENT",
        help="Offer this agent string in the lobby besides the built-in agents, e.g. an "
             "installed plugin's agent (see `boardwright agents`); visitors may choose exactly "
             "the strings offered. Repeat for several.")] = None,
    imports: Annotated[list[str] | None, typer.Option(
        "--import", metavar="MODULE|FILE.py",
        help="Import a module or file that registers agents of your own before --agent is "
             "read (offer them with --agent); repeat for several.")] = None,
    policy: Annotated[list[str] | None, typer.Option(
        "--policy", metavar="NAME=FILE",
        help="Offer a trained policy file (examples/learn_carcassonne.py's policy.npz) in the "
             "lobby as the seat 'policy NAME', for the game and player count it plays; the "
             "file is read now (a relative path from this directory). Visitors never name "
             "files. Repeat for several.")] = None,
) -> None:
    """Run the web table: a lobby, game tables and replays in the browser (needs the server
    extra: pip install 'boardwright\\[server]')."""
    console = _console()
    try:
        import uvicorn
        from sqlalchemy.engine import make_url

        from boardwright.web.app import MAX_WS_BYTES, create_app
        from boardwright.web.logsafe import uvicorn_log_config
        from boardwright.web.storage import resolve_url
    except ImportError as exc:
        _fail(f"the web table needs the server extra: pip install 'boardwright[server]' "
              f"({exc.name} is missing)", USAGE)
    if not 0 < port < 65536:
        _fail(f"--port must be from 1 to 65535, not {port}", USAGE)
    if bot_delay < 0:
        _fail(f"--bot-delay must be 0 or more, not {bot_delay}", USAGE)
    if not 0 < hint_seconds <= 10:
        _fail(f"--hint-seconds must be more than 0 and at most 10, not {hint_seconds}", USAGE)
    if bot_workers is not None and bot_workers < 1:
        _fail(f"--bot-workers must be at least 1, not {bot_workers}", USAGE)
    if log_level.lower() not in LOG_LEVELS:
        _fail(f"--log-level must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}", USAGE)
    url = resolve_url(db)
    for source in imports or []:
        try:
            import_agents(source)
        except bw.BoardwrightError as exc:
            _fail(str(exc), USAGE)
    policies: dict[str, str] = {}
    for item in policy or []:
        name, sep, path = item.partition("=")
        if not sep or not name.strip() or not path.strip():
            _fail(f"--policy {item!r}: give NAME=FILE, e.g. --policy "
                  "carcassonne-rl=runs/carcassonne/policy.npz", USAGE)
        if name.strip() in policies:
            _fail(f"--policy {name.strip()!r} is given twice", USAGE)
        policies[name.strip()] = path.strip()
    try:
        shown = make_url(url).render_as_string(hide_password=True)
        application = create_app(url, bot_delay=bot_delay, bot_workers=bot_workers,
                                 hint_seconds=hint_seconds, agents=agent or [],
                                 policies=policies)
    except bw.BoardwrightError as exc:  # an --agent or --policy that is unknown or does not load
        _fail(str(exc), USAGE)
    except Exception as exc:  # a bad URL, an unreachable database
        _fail(f"cannot open the database {url.split('@')[-1]}: {exc}", FAILURE)
    console.print(Text(f"boardwright web table on http://{host}:{port}/ · database {shown}",
                       style="bold"), soft_wrap=True)
    application.state.freeze_gc = True  # a process of its own: see app.py's lifespan
    uvicorn.run(application, host=host, port=port, ws_max_size=MAX_WS_BYTES,
                log_level=log_level.lower(), log_config=uvicorn_log_config(log_level))


# -- boardwright games ---------------------------------------------------------------------------

@app.command()
def games() -> None:
    """List the games this installation can play, and the engines each can run here."""
    console = _console()
    table = Table(show_edge=False, box=None, header_style="bold")
    table.add_column("Game")
    table.add_column("Engines")
    table.add_column("Description")
    for name in bw.available_games():
        try:
            doc = [bw.game_info(name).description]  # from the class: no game is created
            engines = ", ".join(bw.available_engines(name))
        except bw.PluginError as exc:  # an installed game that does not load: say why
            doc, engines = [f"(cannot be loaded) {exc}"], ""
        except bw.BoardwrightError:
            doc, engines = [], ""
        table.add_row(name, engines, Text(doc[0]) if doc else "")
    console.print(table)


@app.command("options")
def options_command(
    game: Annotated[str, typer.Argument(help="The game, e.g. carcassonne.")],
    players: Annotated[int, typer.Option(
        "--players", "-p", min=1, max=8,
        help="Seats: some ranges and defaults depend on them.")] = 2,
) -> None:
    """List a game's options (`Game.option_specs`): type and range, what each does, its default.
    They go to `play`, `simulate` and `serve`'s lobby as --option key=value."""
    from boardwright.core.options import describe_specs

    console = _console()
    with _friendly_errors():
        specs = bw.option_specs(game, players)
    if not specs:
        console.print(Text(f"{game} has no options."))
        return
    table = Table(show_edge=False, box=None, header_style="bold")
    table.add_column("Option", no_wrap=True)
    table.add_column("Values")
    table.add_column("What it does")
    for name, kind, text in describe_specs(specs):
        table.add_row(name, Text(kind), Text(text))
    console.print(table)


@app.command("agents")
def agents_command() -> None:
    """List the agents agent strings may name: built-in ones, installed plugins (the
    `boardwright.agents` entry points) and their parameters, and the levels."""
    from boardwright.agents import AGENTS, LEVELS, PARAMETERS, available_agents
    from boardwright.agents.registry import lookup

    console = _console()
    table = Table(show_edge=False, box=None, header_style="bold")
    table.add_column("Agent")
    table.add_column("Parameters")
    table.add_column("From")
    for name in available_agents():
        if name in AGENTS:
            table.add_row(name, ", ".join(sorted(PARAMETERS[name])), "built in")
            continue
        try:
            entry = lookup(name)
        except bw.BoardwrightError as exc:
            table.add_row(name, "", Text(f"(cannot be loaded) {exc}"))
            continue
        if entry is not None:
            table.add_row(name, ", ".join(sorted(entry.parameters)), Text(entry.origin))
    console.print(table)
    console.print(Text("Levels: " + ", ".join(f"{level.name} ({level.agent})"
                                                for level in LEVELS.values())))


def main() -> None:
    """Entry point of the `boardwright` script."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
