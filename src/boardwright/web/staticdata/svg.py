"""SVG paths on the 100 x 100 tile (y pointing down): writing them, turned by quarter turns,
from simple commands, and reading them back as polygons and ellipses for the raster of
`tile_regions`."""

from __future__ import annotations

import math
import re


def rot(point: tuple[float, float], quarter: int) -> tuple[float, float]:
    """Turn a point of the 100 x 100 tile by `quarter` clockwise quarter turns."""
    x, y = point
    for _ in range(quarter % 4):
        x, y = 100 - y, x
    return (x, y)


def fmt(v: float) -> str:
    text = f"{v:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def path(commands: list, quarter: int = 0) -> str:
    """A path from ("M", (x, y)), ("L", p), ("Q", c, p), ("Z",) commands, turned."""
    out = []
    for cmd in commands:
        letter, *points = cmd
        out.append(letter + " ".join(f"{fmt(p[0])},{fmt(p[1])}" for p in (rot(q, quarter) for q in points)))
    return " ".join(out)


def ellipse(cx: float, cy: float, rx: float, ry: float) -> str:
    return (f"M{fmt(cx - rx)},{fmt(cy)} A{fmt(rx)},{fmt(ry)} 0 1,0 {fmt(cx + rx)},{fmt(cy)} "
            f"A{fmt(rx)},{fmt(ry)} 0 1,0 {fmt(cx - rx)},{fmt(cy)} Z")



def polylines(d: str) -> list[list[tuple[float, float]]]:
    """The subpaths of an M/L/Q/Z path as point lists (curves flattened)."""
    out: list[list[tuple[float, float]]] = []
    for letter, args in re.findall(r"([MLQZA])([^MLQZA]*)", d):
        pts = [(float(a), float(b)) for a, b in re.findall(r"(-?[\d.]+),(-?[\d.]+)", args)]
        if letter == "M":
            out.append([pts[0]])
        elif letter == "L":
            out[-1].extend(pts)
        elif letter == "Q":
            (cx, cy), (ex, ey) = pts
            sx, sy = out[-1][-1]
            for i in range(1, 13):
                t = i / 12
                out[-1].append(((1 - t) ** 2 * sx + 2 * t * (1 - t) * cx + t * t * ex,
                                (1 - t) ** 2 * sy + 2 * t * (1 - t) * cy + t * t * ey))
        elif letter == "Z":
            out[-1].append(out[-1][0])
    return out


def inside(polygon: list[tuple[float, float]], x: float, y: float) -> bool:
    hit = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def near_line(line: list[tuple[float, float]], x: float, y: float, r: float) -> bool:
    for (x1, y1), (x2, y2) in zip(line, line[1:]):
        dx, dy = x2 - x1, y2 - y1
        t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)))
        if math.dist((x, y), (x1 + t * dx, y1 + t * dy)) <= r:
            return True
    return False


def ellipse_params(d: str) -> tuple[float, float, float, float]:
    (mx, my), = [(float(a), float(b)) for a, b in re.findall(r"M(-?[\d.]+),(-?[\d.]+)", d)][:1]
    rx, ry = (float(v) for v in re.search(r"A(-?[\d.]+),(-?[\d.]+)", d).groups())
    return mx + rx, my, rx, ry
