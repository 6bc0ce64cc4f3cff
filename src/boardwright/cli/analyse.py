"""`boardwright analyse`: judge every decision of a saved game against the bot's best, and
print the summary, the flagged moves and the chart of the expected margin."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Callable

import typer
from rich import box
from rich.console import Console
from rich.progress import (
    BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

import boardwright as bw
from boardwright.cli.apps import app
from boardwright.cli.common import (
    INTERRUPTED, EngineOption, UsageError, emit, fail, friendly_errors, new_console,
)
from boardwright.cli.seats import seat_namer
from boardwright.cli.show import Replay
from boardwright.render.safe_text import safe_text, visible

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

    console = new_console()
    with friendly_errors():
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
            console.print(Text(f"Stored analysis {visible(path)} (same record and settings; "
                               "--force analyses again)", style="dim"), soft_wrap=True)
        else:
            try:
                with _analysis_progress(console) as progress:
                    task = progress.add_task("Analysing", total=len(record.actions))
                    result = A.analyse(record, settings, workers=workers,
                                       progress=lambda done, total: progress.update(
                                           task, completed=done, total=total))
            except KeyboardInterrupt:
                fail("analysis interrupted: nothing was stored", INTERRUPTED)
            try:
                path.write_text(result.dumps() + "\n", encoding="utf-8")
            except OSError as exc:
                raise bw.BoardwrightError(f"cannot write the analysis to {path}: "
                                          f"{exc.strerror or exc}") from None
            console.print(Text(f"Analysed {len(result.decisions)} decisions in "
                               f"{result.seconds:.1f} s; saved to {visible(path)}", style="green"),
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

    unit = result.settings.unit or "points"  # the game's own (Game.analysis_unit)
    flags = result.flags or FLAGS
    thresholds = ", ".join(f"{flag} ≥ {points:g}" for flag, points in reversed(flags))
    title = unit[:1].upper() + unit[1:]  # "Points", "Fields", "VP"
    summary = Table(title=f"{title} lost per decision (expected margin, the bot's "
                          "best move against the move played)", title_justify="left",
                    box=box.SIMPLE, header_style="bold")
    for column in ("Seat", "Judged", "Avg lost", "Total",
                   *(FLAG_PLURALS[f] for f in FLAG_NAMES)):
        summary.add_column(column, justify="left" if column == "Seat" else "right")
    for seat in result.seats:
        summary.add_row(name(seat.seat), str(seat.decisions), f"{seat.average_lost:.2f}",
                        f"{seat.total_lost:.1f}", *(str(seat.flags.get(f, 0)) for f in FLAG_NAMES))
    summary.caption = (f"Judged: decisions with a choice (forced moves are not counted). Flags "
                       f"by {unit} lost: {thresholds}.")
    summary.caption_justify = "left"
    emit(console, summary)
    flagged = [d for d in result.decisions if d.flag is not None]
    if flagged:
        table = Table(title="Flagged moves (step N: `boardwright show RECORD --step N`)",
                      title_justify="left", box=box.SIMPLE, header_style="bold")
        for column in ("Step", "Seat", "Played", "Best", "Lost", "Flag"):
            table.add_column(column, justify="right" if column in ("Step", "Lost") else "left")
        for d in flagged:
            table.add_row(str(d.step + 1), name(d.seat), safe_text(d.played),
                          safe_text(d.best or ""), f"{d.lost:.1f}",
                          Text(d.flag, style=FLAG_STYLES.get(d.flag, "")))
        emit(console, table)
    else:
        emit(console, Text("No flagged move.", style="green"))
    rows = result.margins()
    if result.players == 2:
        series = [Series(f"{name(0).plain} ahead (above 0) · {name(1).plain} ahead (below)",
                         str(name(0).style), finite([r[0] for r in rows]))]
        title = f"Expected final margin of {name(0).plain} over the game ({unit})"
    else:
        series = [Series(name(s).plain, str(name(s).style),
                         finite([r[s] for r in rows])) for s in range(result.players)]
        title = f"Each seat's expected final lead over the best other seat ({unit})"
    emit(console, Text(title, style="bold"))
    for line in line_chart(series):
        emit(console, line)
