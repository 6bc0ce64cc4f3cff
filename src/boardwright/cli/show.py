"""`boardwright show`: replay a saved game, stepping through it or jumping to a step."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

import boardwright as bw
from boardwright.cli.apps import app
from boardwright.cli.common import EngineOption, UsageError, emit, friendly_errors, new_console
from boardwright.cli.prompt import InputEnded, Prompter
from boardwright.cli.seats import seat_namer
from boardwright.render import renderer_for
from boardwright.render.safe_text import visible

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
            line.append(visible(self.renderer.describe(before, action, bw.OMNISCIENT)), style="")
            emit(console, line)
            for news in self.renderer.news(self.renderer.snapshot(before), state):
                emit(console, news)
        else:
            emit(console, Text("Start of the game."))
        if state.is_terminal:
            for renderable in self.renderer.final(state):
                emit(console, renderable)
        else:
            for renderable in self.renderer.position(state):
                emit(console, renderable)


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
    console = new_console()
    with friendly_errors():
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
