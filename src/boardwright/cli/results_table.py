"""The table `simulate` reports per agent: games, wins, draws, win rate, mean score and Elo with
their 95% intervals, fitted to the console's width."""

from __future__ import annotations

import math
from typing import Any, Sequence

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from boardwright.render.safe_text import safe_markup, safe_text

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
        cells: list[Any] = [safe_text(row.agent)]
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
    anchor = safe_markup(stats[0].agent) if stats else ""
    table.caption = (f"Wins: a tie for first is shared. Elo: Bradley–Terry over every pair of "
                     f"seats, relative to {anchor}. 95% CIs: Wilson, t, bootstrap ({bootstrap} "
                     f"resamples of the games).")
    if any(cell.startswith(("> ", "< ")) for cell in elos):
        table.caption += (" > x, < x: a clean sweep against the first agent bounds the Elo on "
                          "one side only (95%, Wilson interval of the head-to-head score).")
    table.caption_justify = "left"
    return table
