"""`boardwright play`: a game in the terminal against bots or hot-seat, or a demo between
bots. A human decides on a screen showing their own view of the game (their secrets included);
with several humans at the terminal, `hotseat` hands it over between them."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

import boardwright as bw
from boardwright.agents import HUMAN, make_agent
from boardwright.cli.apps import app
from boardwright.cli.arguments import (
    OPTION_HELP, add_expansions, agent_seed, bots_only_options, parse_option_values, parse_seats,
)
from boardwright.cli.common import (
    FAILURE, EngineOption, emit, fail, friendly_errors, new_console,
)
from boardwright.cli.hotseat import HotSeat
from boardwright.cli.prompt import HELP, HINT, InputEnded, Prompter, ask_choice, hint_lines
from boardwright.cli.seats import describe_seats, screen_reader, seat_labels, seat_namer
from boardwright.render import renderer_for
from boardwright.render.safe_text import visible
from boardwright.render.screen import (
    Reply, Size, decision_screen, help_lines, print_screen, shared_keys,
)

@app.command()
def play(
    game: Annotated[str, typer.Argument(help="The game to play (see `boardwright games`).")],
    players: Annotated[str, typer.Option(
        "--players", "-p",
        help="One entry per seat, comma-separated: 'human' or an agent ('random', "
             "'random:seed=3').")] = "human,random",
    seed: Annotated[int | None, typer.Option(help="Seed of the game (random when omitted).")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help=OPTION_HELP)] = None,
    expansion: Annotated[list[str] | None, typer.Option(
        "--expansion", "-x", metavar="NAME",
        help="Play with an expansion (e.g. abbey_mayor): adds it to the 'expansions' "
             "option; repeat for several.")] = None,
    save: Annotated[Path | None, typer.Option(
        help="Write the game record (JSON) to this file when the game ends or is left.")] = None,
    engine: EngineOption = None,
) -> None:
    """Play a game in the terminal, against bots or hot-seat; bots alone play a demo."""
    console = new_console()
    with friendly_errors():
        seats = parse_seats(players)
        options = add_expansions(parse_option_values(option or []), expansion or [])
        added = None
        if HUMAN not in seats:  # a demo between bots must end
            options, added = bots_only_options(game, options)
        configured = bw.load(game, players=len(seats), options=options, engine=engine)
        if added is not None:
            console.print(Text(f"Bots only: {visible(added)} (the game's limit for bots alone; "
                               "set it with --option to change it)"), soft_wrap=True)
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
    reader = screen_reader(seats)
    renderer = renderer_for(game, labels, reader)
    state = game.new_game(seed)
    state.meta["seats"] = list(seats)
    prompter = Prompter(console)
    name = seat_namer(renderer)
    header = Text(f"{visible(game.info.title)} · seed {seed} · ", style="bold")
    header.append_text(describe_seats(labels, name))
    emit(console, header)
    for line in renderer.legend():
        emit(console, line)
    hotseat = HotSeat(console, prompter, renderer, seats, name)

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
                    ready = hotseat.before_decision(state)
                    chosen = _human_decision(console, prompter, renderer, state, actions,
                                             name(seat)) if ready else None
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
        line.append(visible(renderer.describe(state, action, reader)) + note, style="")
        before = renderer.snapshot(state)
        state.apply(action)
        hotseat.say(line)
        for news in renderer.news(before, state):
            hotseat.say(news)

    console.rule("Game over")
    final_screen = getattr(renderer, "final_screen", None)
    if final_screen is not None:
        print_screen(console, final_screen(state, Size(console.width, console.height)))
    else:
        for renderable in renderer.final(state):
            emit(console, renderable)
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
                emit(console, hint)
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
        fail(f"cannot write the record to {path}: {exc.strerror or exc}", FAILURE)
    console.print(Text(f"Record saved to {visible(path)}", style="green"), soft_wrap=True)


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
