"""The `boardwright` command line (Typer + Rich).

    boardwright play carcassonne --players human,random --seed 3 --save game.json
    boardwright play carcassonne --players random,random --expansion abbey_mayor
    boardwright show game.json [--step N | --to-end]
    boardwright rules coverage [GAME] [--root PATH]
    boardwright games

Every error the engine raises on purpose (`BoardwrightError`) ends as one red line and an exit
code, never a traceback: 2 for usage errors (unknown game, bad option, bad agent, bad
argument), 1 for everything else (a corrupt record, input that ran out). Input is read line by
line from stdin, so games can be scripted or tested by piping answers in.
"""

from __future__ import annotations

import json
import random
import re
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, Iterator, NoReturn, Sequence

import typer
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.render import renderer_for, seat_text

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
HUMAN = "human"


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


def ask_choice(prompter: Prompter, count: int, who: Text) -> int | None:
    """A number in 1..count typed by a human; None when they type q. Asks until valid."""
    prompt = who.copy()
    prompt.append(f", your choice [1-{count}, q to quit]: ", style="")
    while True:
        answer = prompter.ask(prompt)
        if answer.lower() in ("q", "quit", "exit"):
            return None
        if not answer:
            prompter.error(f"Type the number of a move (1 to {count}), or q to quit.")
            continue
        try:
            number = int(answer)
        except ValueError:
            prompter.error(f"{answer!r} is not a number: type 1 to {count}, or q to quit.")
            continue
        if not 1 <= number <= count:
            prompter.error(f"There is no move {number}: type a number from 1 to {count}, "
                           "or q to quit.")
            continue
        return number


# -- argument parsing ----------------------------------------------------------------------------

def parse_seats(text: str) -> list[str]:
    """`"human,random:seed=3"` -> one entry per seat.

    Agent parameters are comma-separated too (`mcts:iters=200,seed=3`), so an item that is only
    `key=value` continues the agent spec before it instead of starting a new seat.
    """
    seats: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            raise UsageError(f"--players {text!r} has an empty seat; write e.g. human,random")
        if item.lower() == HUMAN:
            item = HUMAN
        if "=" in item and ":" not in item and seats and ":" in seats[-1]:
            seats[-1] += "," + item
        else:
            seats.append(item)
    if not seats:
        raise UsageError("--players needs at least one seat, e.g. human,random")
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


def seat_labels(seats: Sequence[str]) -> list[str]:
    humans = sum(1 for s in seats if s == HUMAN)
    return [("you" if humans == 1 else HUMAN) if s == HUMAN else s for s in seats]


def agent_seed(seed: int, seat: int) -> int:
    """Each bot gets its own seed derived from the game's, so `--seed` fixes the whole game."""
    return seed * 101 + seat + 1


def describe_seats(labels: Sequence[str]) -> Text:
    text = Text()
    for seat, label in enumerate(labels):
        if seat:
            text.append(" vs ")
        text.append_text(seat_text(seat))
        text.append(f" ({label})")
    return text


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
                               "be); repeat for several.")] = None,
    expansion: Annotated[list[str] | None, typer.Option(
        "--expansion", "-x", metavar="NAME",
        help="Play with an expansion (e.g. abbey_mayor): adds it to the 'expansions' "
             "option; repeat for several.")] = None,
    save: Annotated[Path | None, typer.Option(
        help="Write the game record (JSON) to this file when the game ends or is left.")] = None,
) -> None:
    """Play a game in the terminal, against bots or hot-seat; bots alone play a demo."""
    console = _console()
    with _friendly_errors():
        seats = parse_seats(players)
        options = add_expansions(parse_option_values(option or []), expansion or [])
        configured = bw.load(game, players=len(seats), options=options)
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
    state = game.new_game(seed)
    state.meta["seats"] = list(seats)
    prompter = Prompter(console)
    header = Text(f"{game.name.capitalize()} · seed {seed} · ", style="bold")
    header.append_text(describe_seats(labels))
    _print(console, header)
    for line in renderer.legend():
        _print(console, line)

    while not state.is_terminal:
        seat = state.current_player
        agent = agents[seat]
        note = ""
        if agent is None:
            actions, menu = renderer.menu(state)
            if len(actions) == 1:
                action, note = actions[0], " (the only legal move)"
            else:
                console.rule(renderer.heading(state))
                for renderable in renderer.position(state, marks=True):
                    _print(console, renderable)
                for renderable in menu:
                    _print(console, renderable)
                try:
                    choice = ask_choice(prompter, len(actions), seat_text(seat))
                except InputEnded:
                    console.print(Text("Input ended: leaving the game unfinished.",
                                       style="bold red"))
                    if save is not None:
                        _save(console, state, save)
                    return FAILURE
                if choice is None:
                    return _quit(console, prompter, state, save)
                action = actions[choice - 1]
        else:
            action = agent.act(state)
        line = seat_text(seat, f" ({labels[seat]}): ")
        line.append(renderer.describe(state, action) + note, style="")
        before = renderer.snapshot(state)
        state.apply(action)
        _print(console, line)
        for news in renderer.news(before, state):
            _print(console, news)

    console.rule("Game over")
    for renderable in renderer.final(state):
        _print(console, renderable)
    if save is not None:
        _save(console, state, save)
    return 0


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
    """The positions of a record, built on demand and kept (stepping back is free)."""

    def __init__(self, record: bw.GameRecord) -> None:
        self.record = record
        self.total = len(record.actions)
        final = bw.replay(record)  # validates the whole record before anything is drawn
        self.states: dict[int, bw.State] = {self.total: final}
        seats = record.meta.get("seats")
        valid = isinstance(seats, list) and len(seats) == record.players and all(
            isinstance(s, str) for s in seats)
        labels = list(seats) if valid else None
        self.renderer = renderer_for(final.game, labels)

    def state(self, step: int) -> bw.State:
        if step not in self.states:
            self.states[step] = bw.replay(self.record, steps=step)
        return self.states[step]

    def draw(self, console: Console, step: int) -> None:
        state = self.state(step)
        console.rule(f"Step {step} of {self.total}")
        if step > 0:
            before = self.state(step - 1)
            action = before.game.action_from_json(self.record.actions[step - 1])
            line = seat_text(before.current_player, ": ")
            line.append(self.renderer.describe(before, action), style="")
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
) -> None:
    """Replay a saved game: step through it (Enter, b, a step number, q) or jump to a step."""
    console = _console()
    with _friendly_errors():
        record = bw.GameRecord.load(record_file)
        replay = Replay(record)
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


# -- boardwright games ---------------------------------------------------------------------------

@app.command()
def games() -> None:
    """List the games this installation can play."""
    console = _console()
    table = Table(show_edge=False, box=None, header_style="bold")
    table.add_column("Game")
    table.add_column("Description")
    for name in bw.available_games():
        try:
            doc = (type(bw.load(name)).__doc__ or "").strip().splitlines()
        except bw.BoardwrightError:
            doc = []
        table.add_row(name, doc[0] if doc else "")
    console.print(table)


def main() -> None:
    """Entry point of the `boardwright` script."""
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
