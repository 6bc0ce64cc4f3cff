"""`boardwright simulate`: many games between agents, in processes or on Ray, reported as win
rates, scores and Elo."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Annotated, Any, Sequence

import typer
from rich.console import Console
from rich.progress import (
    BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn,
)
from rich.text import Text
from typer.core import TyperCommand

import boardwright as bw
from boardwright.agents import HUMAN, make_agent
from boardwright.agents.registry import import_agents
from boardwright.cli.apps import app
from boardwright.cli.arguments import (
    OPTION_HELP, add_expansions, bots_only_options, parse_option_values, parse_seats,
)
from boardwright.cli.common import (
    FAILURE, INTERRUPTED, EngineOption, UsageError, fail, friendly_errors, new_console,
)
from boardwright.cli.results_table import results_table
from boardwright.render.safe_text import safe_markup, visible

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
        "--option", "-o", help=OPTION_HELP)] = None,
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

    console = new_console()
    with friendly_errors():
        for source in imports or []:
            import_agents(source)
        lineup = simulation_lineup(agents, players)
        for spec in dict.fromkeys(lineup):
            make_agent(spec, seed=0)  # unknown agents and parameters fail now, not in a worker
        options = add_expansions(parse_option_values(option or []), expansion or [])
        options, added = bots_only_options(game, options)
        configured = bw.load(game, players=len(lineup), options=options, engine=engine)
        if added is not None:
            console.print(Text(f"{visible(added)} (the game's limit for bots alone; set it with "
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
        header = Text(f"Simulating {games} game{'s' if games != 1 else ''} of "
                      f"{visible(configured.name)} "
                      f"({len(lineup)} player{'s' if len(lineup) != 1 else ''}) · seed {seed} · "
                      f"{where} · {configured.engine} engine", style="bold")
        console.print(header)  # these lines wrap at spaces: they fit a narrow terminal too
        console.print(Text("Line-up (rotated each game): " + ", ".join(map(visible, names))))

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
        title = (f"{safe_markup(configured.name)} · {len(lineup)} players · "
                 f"{len(results)} games · seed {seed}")
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
                fail(f"cannot write {out}: {exc.strerror or exc}", FAILURE)
            console.print(Text(f"Results saved to {visible(out)}", style="green"), soft_wrap=True)
        if records is not None:
            console.print(Text(f"Records saved in {visible(records)}", style="green"),
                          soft_wrap=True)
    if collected.interrupted:
        raise typer.Exit(INTERRUPTED)
