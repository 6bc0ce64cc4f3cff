"""The raster of a tile's features: which 2 x 2 cells of the 100 x 100 tile belong to which
feature (what is drawn on top wins; bare ground goes to the field whose edges it touches), the
highlight area of a feature as an SVG path of those cells, and the spot deepest inside a field
where its farmer stands."""

from __future__ import annotations

import math

from boardwright.web.staticdata.svg import ellipse_params, inside, near_line, polylines

CELL = 2  # raster cell size (tile units)
GRID = 100 // CELL
ROAD_HALF = 5.5  # half the drawn road width (.t-road-edge stroke 11)
WALL = "_wall"  # city walls part fields (a wall of AM09 runs between two fields)
WALL_HALF = 2.0
MONASTERY_AREA = "M30,14 L70,14 L70,70 L30,70 Z"
# Where each half-edge of a field runs along the tile border (from, to).
HALF_EDGE = {"NL": ((0, 0), (50, 0)), "NR": ((50, 0), (100, 0)), "EL": ((100, 0), (100, 50)),
             "ER": ((100, 50), (100, 100)), "SL": ((100, 100), (50, 100)),
             "SR": ((50, 100), (0, 100)), "WL": ((0, 100), (0, 50)), "WR": ((0, 50), (0, 0))}


def feature_regions(features: list[dict], geometry: list[tuple[str, str, str]]) -> dict[str, set]:
    """The raster cells of each feature of a tile (rotation 0): what is drawn on top wins;
    the bare ground splits into connected pieces, each given to the field whose half-edges
    it touches most."""
    owner: dict[tuple[int, int], str] = {}
    shapes = []
    for fid, kind, d in geometry:
        if kind == "meadow":
            shapes.append((fid, kind, ellipse_params(d)))
        else:
            shapes.append((fid, kind, polylines(d)))
    for i in range(GRID):
        for j in range(GRID):
            x, y = (i + 0.5) * CELL, (j + 0.5) * CELL
            for fid, kind, shape in reversed(shapes):
                if kind == "meadow":
                    cx, cy, rx, ry = shape
                    hit = ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1
                elif kind == "line":
                    hit = any(near_line(line, x, y, WALL_HALF if fid == WALL else ROAD_HALF)
                              for line in shape)
                else:
                    hit = any(inside(poly, x, y) for poly in shape)
                if hit:
                    owner[(i, j)] = fid
                    break
    ground = {(i, j) for i in range(GRID) for j in range(GRID) if (i, j) not in owner}
    fields = [f for f in features if f["kind"] == "field"]
    votes_at: dict[tuple[int, int], list[str]] = {}
    for f in fields:
        for half in f["edges"]:
            if half not in HALF_EDGE:
                continue
            (x1, y1), (x2, y2) = HALF_EDGE[half]
            for k in range(1, 10):
                t = k / 10
                x, y = x1 + t * (x2 - x1), y1 + t * (y2 - y1)
                cell = (min(int(x / CELL), GRID - 1), min(int(y / CELL), GRID - 1))
                votes_at.setdefault(cell, []).append(f["id"])
    while ground:
        start = ground.pop()
        piece, todo = {start}, [start]
        while todo:
            i, j = todo.pop()
            for n in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                if n in ground:
                    ground.discard(n)
                    piece.add(n)
                    todo.append(n)
        votes: dict[str, int] = {}
        for cell in piece:
            for fid in votes_at.get(cell, ()):
                votes[fid] = votes.get(fid, 0) + 1
        if votes:
            best = max(sorted(votes), key=votes.__getitem__)
            for cell in piece:
                owner[cell] = best
    regions: dict[str, set] = {}
    for cell, fid in owner.items():
        if fid != WALL:
            regions.setdefault(fid, set()).add(cell)
    return regions


def inner_spot(cells: set, others: list[tuple[float, float]]) -> tuple[float, float]:
    """A farmer's spot: the cell of the field deepest inside it (the tile border counts as its
    edge, so farmers stand in their field, not on the edge), kept clear of the other spots."""
    # a chamfer distance transform (steps 1 and 1.4 cells): about the Euclidean distance
    # from each cell to the nearest cell outside the field (or outside the tile)
    big = 10.0 ** 6
    depth = {cell: big for cell in cells}

    def at(i: int, j: int) -> float:
        return depth.get((i, j), 0.0)

    forward = ((-1, 0, 1.0), (0, -1, 1.0), (-1, -1, 1.4), (1, -1, 1.4))
    order = sorted(cells, key=lambda c: (c[1], c[0]))
    for steps, cells_in_order in ((forward, order),
                                  (tuple((-a, -b, w) for a, b, w in forward), order[::-1])):
        for i, j in cells_in_order:
            depth[(i, j)] = min(depth[(i, j)], *(at(i + a, j + b) + w for a, b, w in steps))

    def score(cell: tuple[int, int]) -> tuple[float, float]:
        x, y = (cell[0] + 0.5) * CELL, (cell[1] + 0.5) * CELL
        clear = min((math.dist((x, y), p) for p in others), default=100.0)
        return (min(depth[cell] * CELL, 14, clear / 1.6), -math.dist((x, y), (50, 50)))

    best = max(sorted(cells), key=score)
    return ((best[0] + 0.5) * CELL, (best[1] + 0.5) * CELL)


def region_path(cells: set) -> str:
    """An SVG path of a set of raster cells: one rectangle per run of cells in a column
    band, runs of consecutive rows with the same extent merged."""
    rows: dict[int, list[tuple[int, int]]] = {}
    for j in range(GRID):
        xs = sorted(i for i in range(GRID) if (i, j) in cells)
        runs = []
        for i in xs:
            if runs and runs[-1][1] == i - 1:
                runs[-1] = (runs[-1][0], i)
            else:
                runs.append((i, i))
        rows[j] = runs
    rects = []
    open_: dict[tuple[int, int], int] = {}
    for j in range(GRID + 1):
        current = set(rows.get(j, []))
        for run in list(open_):
            if run not in current:
                rects.append((run, open_.pop(run), j))
        for run in current:
            open_.setdefault(run, j)
    return " ".join(f"M{a * CELL},{top * CELL}h{(b - a + 1) * CELL}v{(bottom - top) * CELL}h-{(b - a + 1) * CELL}z"
                    for (a, b), top, bottom in sorted(rects, key=lambda r: (r[1], r[0])))
