"""A line chart for the terminal in Braille dots: an analysis's expected margin over the game.

Each character cell holds 2 x 4 dots, so a 64 x 12 chart has 128 x 48 points, fine enough to see
where a game turned. Series are drawn in their styles (a cell crossed by several takes the last
one drawn); the zero line is a dim rule, so "ahead" and "behind" read at a glance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text

# The Braille dot of each (column, row) in a cell: columns 0-1, rows 0-3 from the top.
DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))
BRAILLE = 0x2800


@dataclass(frozen=True)
class Series:
    label: str
    style: str
    values: Sequence[float | None]  # one per x from 0; None: no point there


def _ticks(low: float, high: float) -> tuple[float, float]:
    """The y range: the data's, always holding 0, a little padded, never empty."""
    low, high = min(low, 0.0), max(high, 0.0)
    if high - low < 1.0:
        high, low = high + 0.5, low - 0.5
    return low, high


def line_chart(series: Sequence[Series], width: int = 64, height: int = 12,
               x_label: str = "step") -> list[Text]:
    """Lines of text: the chart with its y labels, then the x axis and a legend."""
    points = [v for s in series for v in s.values if v is not None]
    count = max((len(s.values) for s in series), default=0)
    if not points or count < 2:
        return [Text("(nothing to chart)", style="dim")]
    low, high = _ticks(min(points), max(points))
    px_w, px_h = width * 2, height * 4
    cells: list[list[int]] = [[0] * width for _ in range(height)]
    styles: list[list[str | None]] = [[None] * width for _ in range(height)]

    def x_of(i: int) -> float:
        return i * (px_w - 1) / (count - 1)

    def y_of(v: float) -> float:
        return (high - v) * (px_h - 1) / (high - low)

    for s in series:
        previous: tuple[float, float] | None = None
        for i, value in enumerate(s.values):
            if value is None:
                continue
            point = (x_of(i), y_of(value))
            start = previous or point
            steps = max(1, int(max(abs(point[0] - start[0]), abs(point[1] - start[1]))))
            for k in range(steps + 1):
                x = start[0] + (point[0] - start[0]) * k / steps
                y = start[1] + (point[1] - start[1]) * k / steps
                col, row = int(round(x)), int(round(y))
                cell_x, cell_y = min(col // 2, width - 1), min(row // 4, height - 1)
                cells[cell_y][cell_x] |= DOTS[row % 4][col % 2]
                styles[cell_y][cell_x] = s.style
            previous = point
    zero_row = min(int(round(y_of(0.0))) // 4, height - 1)
    labels = {0: f"{high:+.0f}", height - 1: f"{low:+.0f}", zero_row: "0"}
    pad = max(len(v) for v in labels.values())
    lines = []
    for r in range(height):
        line = Text(labels.get(r, "").rjust(pad) + " ┤" if r in labels else " " * pad + " │",
                    style="dim")
        for c in range(width):
            if cells[r][c]:
                line.append(chr(BRAILLE + cells[r][c]), style=styles[r][c] or "")
            elif r == zero_row:
                line.append("─", style="dim")
            else:
                line.append(" ")
        lines.append(line)
    last = count - 1
    axis = " " * pad + " └" + "─" * width
    ticks = [0, last // 4, last // 2, 3 * last // 4, last]
    scale = Text(" " * (pad + 2))
    at = 0
    for t in ticks:
        position = int(round(x_of(t) / 2))
        text = str(t)
        if position >= at:
            scale.append(" " * (position - at) + text)
            at = position + len(text)
    lines.append(Text(axis, style="dim"))
    scale.append(f"  {x_label}", style="dim")
    lines.append(scale)
    legend = Text(" " * (pad + 2))
    for s in series:
        legend.append("⣿ ", style=s.style)
        legend.append(s.label + "   ")
    lines.append(legend)
    return lines


def finite(values: Sequence[float | None]) -> list[float | None]:
    """`values` with anything not a finite number dropped to None."""
    return [v if v is not None and math.isfinite(v) else None for v in values]
