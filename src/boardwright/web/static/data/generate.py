"""Generate the static data files the web front end draws from.

    python src/boardwright/web/static/data/generate.py          # rewrite the JSON files
    python src/boardwright/web/static/data/generate.py --check  # exit 1 if they are stale

`carcassonne_tiles.json`: for every tile letter of the base game and of Abbey & Mayor, the SVG
drawing of the tile in rotation 0 (a 100 x 100 square, y pointing down) and, per feature, the
point where a figure stands and the feature's `location` string in each of the four rotations
(exactly the engine's strings, read from the engine's own tile variants), so the table can put
a clickable spot at the location a Deploy action names.

`shogun_content.json`: the map (spaces with drawing positions, neighbours, straits), and the
names and texts of cards, treasures and missions, read from the game's data files.

The engine's views name tiles, spaces and cards but carry no drawing data; these files are that
drawing data, derived from the same TOML the engine loads.
"""

from __future__ import annotations

import json
import math
import sys
import tomllib
from importlib import resources
from pathlib import Path

from boardwright.games.carcassonne.tiles import (
    CITY,
    FIELD,
    MONASTERY,
    ROAD,
    SIDES,
    load_tile_set,
)
from boardwright.games.shogun.texts import GLOSSARY

HERE = Path(__file__).resolve().parent
CARCASSONNE_FILE = HERE / "carcassonne_tiles.json"
SHOGUN_FILE = HERE / "shogun_content.json"
TILE_FILES = (("base", "base_tiles.toml"), ("abbey_mayor", "abbey_mayor_tiles.toml"))

# -- geometry helpers ----------------------------------------------------------------------------

MID = {"N": (50, 0), "E": (100, 50), "S": (50, 100), "W": (0, 50)}
DIR = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
HALF_POINT = {"NL": (25, 9), "NR": (75, 9), "EL": (91, 25), "ER": (91, 75),
              "SL": (75, 91), "SR": (25, 91), "WL": (9, 75), "WR": (9, 25)}
CORNER_POINT = {"NW": (14, 14), "NE": (86, 14), "SE": (86, 86), "SW": (14, 86)}
CORNER_HALVES = {"NW": ("WR", "NL"), "NE": ("NR", "EL"), "SE": ("ER", "SL"), "SW": ("SR", "WL")}


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


def quarter_for(sides: set[str], canonical: set[str]) -> int | None:
    """The quarter turn that takes the canonical side set onto `sides`."""
    for q in range(4):
        if {SIDES[(SIDES.index(s) + q) % 4] for s in canonical} == sides:
            return q
    return None


# Canonical city shapes (area, inner wall, figure spot, gate where a road may enter).
CITY_SHAPES = [
    ({"N"}, [("M", (0, 0)), ("L", (100, 0)), ("Q", (50, 44), (0, 0)), ("Z",)],
     [("M", (100, 0)), ("Q", (50, 44), (0, 0))], (50, 11), (50, 22)),
    ({"N", "W"}, [("M", (0, 0)), ("L", (100, 0)), ("Q", (42, 42), (0, 100)), ("Z",)],
     [("M", (100, 0)), ("Q", (42, 42), (0, 100))], (26, 26), (46, 46)),
    ({"W", "E"}, [("M", (0, 0)), ("Q", (50, 34), (100, 0)), ("L", (100, 100)),
                  ("Q", (50, 66), (0, 100)), ("Z",)],
     [("M", (0, 0)), ("Q", (50, 34), (100, 0)), ("M", (100, 100)), ("Q", (50, 66), (0, 100))],
     (50, 50), (50, 67)),
    ({"N", "E", "W"}, [("M", (0, 0)), ("L", (100, 0)), ("L", (100, 100)), ("Q", (50, 44), (0, 100)),
                       ("Z",)],
     [("M", (100, 100)), ("Q", (50, 44), (0, 100))], (50, 34), (50, 72)),
    ({"N", "E", "S", "W"}, [("M", (0, 0)), ("L", (100, 0)), ("L", (100, 100)), ("L", (0, 100)), ("Z",)],
     [], (50, 50), (50, 50)),
]

# Pennant (a small shield) centred on (0, 0).
def pennant(cx: float, cy: float) -> str:
    return (f"M{fmt(cx - 6)},{fmt(cy - 6)} L{fmt(cx + 6)},{fmt(cy - 6)} L{fmt(cx + 6)},{fmt(cy + 1)} "
            f"Q{fmt(cx + 6)},{fmt(cy + 6)} {fmt(cx)},{fmt(cy + 8)} Q{fmt(cx - 6)},{fmt(cy + 6)} "
            f"{fmt(cx - 6)},{fmt(cy + 1)} Z")


def monastery_shapes(abbey: bool) -> list[dict]:
    cls = "abbey" if abbey else "monastery"
    return [
        {"cls": cls, "d": "M36,44 L50,30 L64,44 L64,66 L36,66 Z"},
        {"cls": cls + "-roof", "d": "M32,46 L50,27 L68,46 L64,46 L50,32 L36,46 Z"},
        {"cls": cls + "-door", "d": "M46,66 L46,56 Q50,51 54,56 L54,66 Z"},
        {"cls": cls + "-cross", "d": "M49,17 H51 V21 H54 V23 H51 V29 H49 V23 H46 V21 H49 Z"},
    ]


# Tiles whose features the generic shapes cannot show: drawing and spots per feature id.
# (Rotation 0; coordinates in the 100 x 100 square.)
OVERRIDES: dict[str, dict[str, dict]] = {
    # two cities crossing: the W-E city fills the tile, the N-S city runs over it
    "AM02": {
        "c2": {"d": [path([("M", (0, 0)), ("L", (100, 0)), ("L", (100, 100)), ("L", (0, 100)), ("Z",)])],
               "spot": (13, 52), "walls": []},
        "c1": {"d": [path([("M", (30, 0)), ("L", (70, 0)), ("L", (70, 100)), ("L", (30, 100)), ("Z",)])],
               "walls": [path([("M", (30, 0)), ("L", (30, 100)), ("M", (70, 0)), ("L", (70, 100))])],
               "spot": (50, 50), "pennant": (50, 80)},
        "f1": {"meadow": ellipse(15, 20, 10, 10), "spot": (15, 20)},
        "f2": {"meadow": ellipse(85, 80, 10, 10), "spot": (85, 80)},
    },
    # a pennant cap from N, a W-E city below it, a meadow enclosed between them
    "AM03": {
        "c1": {"d": [path([("M", (0, 0)), ("L", (100, 0)), ("Q", (50, 30), (0, 0)), ("Z",)])],
               "walls": [path([("M", (100, 0)), ("Q", (50, 30), (0, 0))])],
               "spot": (50, 7), "pennant": (76, 6)},
        "c2": {"d": [path([("M", (0, 0)), ("Q", (50, 84), (100, 0)), ("L", (100, 100)),
                           ("Q", (50, 70), (0, 100)), ("Z",)])],
               "walls": [path([("M", (0, 0)), ("Q", (50, 84), (100, 0)), ("M", (100, 100)),
                               ("Q", (50, 70), (0, 100))])],
               "spot": (50, 62)},
        "f1": {"meadow": ellipse(50, 27, 17, 8), "spot": (50, 27)},
        "f2": {"spot": (50, 91)},
    },
    # two caps, N and W, each entered by its own road (from E and from S)
    "AM04": {
        "r1": {"road": path([("M", (100, 50)), ("Q", (62, 50), (60, 20))]), "spot": (80, 48)},
        "r2": {"road": path([("M", (50, 100)), ("Q", (50, 62), (20, 60))]), "spot": (48, 80)},
        "c1": {"spot": (62, 10)},
        "c2": {"spot": (10, 62)},
        "f1": {"spot": (89, 24)},
        "f2": {"spot": (24, 89)},
        "f3": {"spot": (72, 72)},
    },
    # a road from W to the gate of the N cap
    "AM06": {
        "r1": {"road": path([("M", (0, 50)), ("Q", (45, 52), (50, 22))]), "spot": (28, 50)},
        "f1": {"spot": (14, 30)},
        "f2": {"spot": (70, 72)},
    },
    # a road from E (W) up to the city wall, then down to S: it splits the ground in three
    "AM07": {"r1": {"road": path([("M", (100, 50)), ("Q", (52, 52), (50, 27)), ("L", (50, 100))]),
                    "spot": (50, 76)}},
    "AM08": {"r1": {"road": path([("M", (0, 50)), ("Q", (48, 52), (50, 27)), ("L", (50, 100))]),
                    "spot": (50, 76)}},
    # a pennant city from W whose walls reach the NE and SE corners: three fields N, E, S
    "AM09": {
        "c1": {"d": [path([("M", (0, 0)), ("L", (56, 50)), ("L", (0, 100)), ("Z",)])],
               "walls": [path([("M", (0, 0)), ("L", (56, 50)), ("L", (0, 100)), ("M", (56, 50)),
                               ("L", (100, 0)), ("M", (56, 50)), ("L", (100, 100))])],
               "spot": (20, 50), "pennant": (36, 50)},
        "f1": {"spot": (50, 14)},
        "f2": {"spot": (86, 50)},
        "f3": {"spot": (50, 86)},
    },
    # a dead end at a house
    "AM10": {"r1": {"road": path([("M", (50, 100)), ("L", (50, 56))]), "spot": (50, 80),
                    "house": True},
             "f1": {"spot": (20, 22)}},
    # a roundabout: one road going N, W and E
    "AM11": {"r1": {"road": path([("M", (50, 0)), ("L", (50, 40)), ("M", (0, 50)), ("L", (40, 50)),
                                  ("M", (100, 50)), ("L", (60, 50))]),
                    "ring": True, "spot": (50, 50)},
             "f1": {"spot": (20, 20)}, "f2": {"spot": (80, 20)}, "f3": {"spot": (50, 85)}},
    # a road N-S under a pennant city W-E
    "AM12": {"r1": {"spot": (50, 90)}, "c1": {"spot": (30, 50), "pennant": (70, 50)},
             "f1": {"spot": (24, 8)}, "f2": {"spot": (76, 8)}, "f3": {"spot": (30, 82)}},
    # a road S into the gate of a three-sided city
    "S": {"f1": {"spot": (80, 88)}, "f2": {"spot": (20, 88)}, "c1": {"pennant": (76, 30)}},
    "T": {"f1": {"spot": (80, 88)}, "f2": {"spot": (20, 88)}},
    "C": {"c1": {"pennant": (74, 26)}},
    "AM01": {"c1": {"pennant": (74, 20)}},
    "L": {"f1": {"spot": (82, 34)}},
    "W": {"f1": {"spot": (50, 22)}},
    "D": {"f1": {"spot": (82, 36)}},
    "J": {"f1": {"spot": (22, 62)}},
    "K": {"f1": {"spot": (78, 62)}},
}



# -- feature regions: a raster of the tile, for highlights and for farmers' spots -----------------

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


def polylines(d: str) -> list[list[tuple[float, float]]]:
    """The subpaths of an M/L/Q/Z path as point lists (curves flattened)."""
    import re

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
    import re

    (mx, my), = [(float(a), float(b)) for a, b in re.findall(r"M(-?[\d.]+),(-?[\d.]+)", d)][:1]
    rx, ry = (float(v) for v in re.search(r"A(-?[\d.]+),(-?[\d.]+)", d).groups())
    return mx + rx, my, rx, ry


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


def city_shape(sides: set[str]):
    for canonical, area, wall, spot, gate in CITY_SHAPES:
        q = quarter_for(sides, canonical)
        if q is not None:
            return path(area, q), (path(wall, q) if wall else None), rot(spot, q), rot(gate, q)
    raise ValueError(f"no city shape for sides {sorted(sides)}")


def build_tile(name: str, raw: dict) -> dict:
    """Drawing and spots of one tile in rotation 0."""
    features = raw["features"]
    abbey = bool(raw.get("abbey", False))
    over = OVERRIDES.get(name, {})
    links = [set(group) for group in raw.get("links", ())]
    by_id = {f["id"]: f for f in features}
    has_monastery = any(f["kind"] == "monastery" for f in features)
    one_side_roads = [f for f in features if f["kind"] == "road" and len(f["edges"]) == 1]

    layers: dict[str, list[dict]] = {"base": [], "road": [], "city": [], "wall": [], "meadow": [],
                                     "mark": []}
    layers["base"].append({"cls": "abbey-ground" if abbey else "field",
                           "d": "M0,0 L100,0 L100,100 L0,100 Z"})
    spots: dict[str, tuple[float, float]] = {}
    gates: dict[str, tuple[float, float]] = {}
    geometry: list[tuple[str, str, str]] = []  # (feature id, "area" | "line" | "meadow", d), bottom first

    for f in features:
        if f["kind"] != "city":
            continue
        o = over.get(f["id"], {})
        area, wall, spot, gate = city_shape(set(f["edges"]))
        gates[f["id"]] = gate
        for d in o.get("d", [area]):
            layers["city"].append({"cls": "city", "d": d})
            geometry.append((f["id"], "area", d))
        for d in o.get("walls", [wall] if wall else []):
            layers["wall"].append({"cls": "wall", "d": d})
            geometry.append((WALL, "line", d))
        spots[f["id"]] = o.get("spot", spot)
        if f.get("pennants"):
            px, py = o.get("pennant", spot)
            if "pennant" not in o:  # beside the figure spot
                px, py = (px + 18, py) if px <= 60 else (px - 18, py)
            for i in range(f["pennants"]):
                layers["mark"].append({"cls": "pennant", "d": pennant(px, py + 16 * i)})

    for f in features:
        if f["kind"] != "road":
            continue
        o = over.get(f["id"], {})
        edges = f["edges"]
        if "road" in o:
            d = o["road"]
        elif len(edges) == 2:
            a, b = MID[edges[0]], MID[edges[1]]
            if DIR[edges[0]][0] == -DIR[edges[1]][0] and DIR[edges[0]][1] == -DIR[edges[1]][1]:
                d = path([("M", a), ("L", b)])
            else:
                d = path([("M", a), ("Q", (50, 50), b)])
        elif len(edges) == 1:
            side = edges[0]
            start = MID[side]
            linked_city = next((g for group in links if f["id"] in group for g in group
                                if by_id[g]["kind"] == "city"), None)
            if linked_city is not None:
                end = gates[linked_city]
            elif has_monastery:
                end = (50 + DIR[side][0] * 16, 50 + DIR[side][1] * 19)
            else:
                end = (50, 50)
            d = path([("M", start), ("L", end)])
        else:
            raise ValueError(f"tile {name}: road {f['id']} with {len(edges)} sides needs an override")
        layers["road"].append({"cls": "road-edge", "d": d})
        layers["road"].append({"cls": "road", "d": d})
        geometry.insert(0, (f["id"], "line", d))  # roads lie under the cities
        if o.get("ring"):
            layers["mark"].append({"cls": "roundabout", "d": ellipse(50, 50, 11, 11)})
            ring = [(50 + 11 * math.cos(k * math.pi / 12), 50 + 11 * math.sin(k * math.pi / 12))
                    for k in range(25)]
            geometry.insert(0, (f["id"], "line", path([("M", ring[0]), *(("L", p) for p in ring[1:])])))
        if o.get("house"):
            layers["mark"].append({"cls": "house", "d": "M40,56 L40,44 L50,36 L60,44 L60,56 Z"})
            geometry.append((WALL, "area", "M40,56 L40,44 L50,36 L60,44 L60,56 Z"))
        if "spot" in o:
            spots[f["id"]] = o["spot"]
        elif len(edges) == 2:
            a, b = MID[edges[0]], MID[edges[1]]
            spots[f["id"]] = (0.25 * a[0] + 25 + 0.25 * b[0], 0.25 * a[1] + 25 + 0.25 * b[1])
        else:
            side = edges[0]
            spots[f["id"]] = (50 + DIR[side][0] * 33, 50 + DIR[side][1] * 33)
    if len(one_side_roads) >= 3 and not has_monastery:
        layers["mark"].append({"cls": "junction", "d": "M42,42 L58,42 L58,58 L42,58 Z"})

    for f in features:
        if f["kind"] == "monastery":
            layers["mark"].extend(monastery_shapes(abbey))
            spots[f["id"]] = (50, 50)

    # Fields: enclosed meadows are drawn; edge fields are the green ground. A field's figure
    # goes at the candidate point (its corners, then its half-edges) furthest from the other
    # spots, unless the tile names it.
    for f in features:
        if f["kind"] != "field":
            continue
        o = over.get(f["id"], {})
        if "meadow" in o:
            layers["meadow"].append({"cls": "meadow", "d": o["meadow"]})
            geometry.append((f["id"], "meadow", o["meadow"]))
            spots[f["id"]] = o["spot"]
    for f in features:
        if f["kind"] == "monastery":
            geometry.append((f["id"], "area", MONASTERY_AREA))
    regions = feature_regions(features, geometry)
    for f in features:
        if f["kind"] != "field" or f["id"] in spots:
            continue
        if regions.get(f["id"]):
            spots[f["id"]] = inner_spot(regions[f["id"]], [p for k, p in spots.items() if k != f["id"]])
            continue
        halves = [e for e in f["edges"] if e in HALF_POINT]
        candidates = [CORNER_POINT[c] for c, (a, b) in CORNER_HALVES.items()
                      if a in halves and b in halves]
        candidates += [HALF_POINT[h] for h in halves]
        if not candidates:
            raise ValueError(f"tile {name}: field {f['id']} needs a spot override")
        others = list(spots.values())
        spots[f["id"]] = max(candidates, key=lambda p: min(
            (math.dist(p, s) for s in others), default=100.0))

    drawing = [shape for layer in ("base", "road", "city", "wall", "meadow", "mark")
               for shape in layers[layer]]
    areas = {fid: region_path(cells) for fid, cells in regions.items()}
    for fid, kind, d in geometry:  # vector outlines where the tile has them
        if kind in ("area", "meadow") and not any(g[0] == fid and g[1] == "line" for g in geometry):
            areas[fid] = " ".join(g[2] for g in geometry if g[0] == fid and g[1] in ("area", "meadow"))
    return {"drawing": drawing, "spots": spots, "areas": areas}


def carcassonne_data() -> dict:
    tiles: dict[str, dict] = {}
    for set_name, filename in TILE_FILES:
        raw_file = tomllib.loads(resources.files("boardwright.games.carcassonne").joinpath("data")
                                 .joinpath(filename).read_text("utf-8"))
        tile_set = load_tile_set(filename)
        for name, raw in raw_file["tiles"].items():
            tile_type = tile_set.types[name]
            built = build_tile(name, raw)
            features = []
            for index, f in enumerate(raw["features"]):
                spot = built["spots"][f["id"]]
                features.append({
                    "id": f["id"], "kind": f["kind"], "pennants": f.get("pennants", 0),
                    "spot": [round(spot[0], 1), round(spot[1], 1)],
                    # the feature's ground on the tile (rotation 0), to highlight it
                    "area": built["areas"].get(f["id"], ""),
                    # the engine's location string of this feature with the tile turned 0, 90,
                    # 180 and 270 degrees (what Deploy actions name)
                    "locations": [tile_type.variants[q].features[index].location for q in range(4)],
                })
            tiles[name] = {
                "set": set_name, "count": raw["count"], "abbey": tile_type.abbey,
                "description": raw.get("description", ""),
                "rotations": [90 * q for q in tile_type.distinct],
                "drawing": built["drawing"], "features": features,
            }
    kinds = {CITY: "city", ROAD: "road", FIELD: "field", MONASTERY: "monastery"}
    return {
        "comment": "Generated by generate.py from the engine's tile data; do not edit.",
        "size": 100,
        "kinds": sorted(kinds.values()),
        "corners": {"NW": [0, 0], "NE": [100, 0], "SE": [100, 100], "SW": [0, 100]},
        "tiles": tiles,
    }


# -- Shogun ----------------------------------------------------------------------------------------

def shogun_data() -> dict:
    data = resources.files("boardwright.games.shogun").joinpath("data")

    def load(name: str) -> dict:
        return tomllib.loads(data.joinpath(name).read_text("utf-8"))

    board = load("map.toml")
    spaces = []
    edges = []
    for space in board["spaces"]:
        neighbours = []
        for raw in space["neighbours"]:
            strait = raw.endswith("*")
            other = raw.rstrip("*")
            neighbours.append(other)
            if space["id"] < other:
                edges.append({"a": space["id"], "b": other, "strait": strait})
        spaces.append({"id": space["id"], "name": space["name"], "island": space["island"],
                       "region": space["region"], "x": space["x"], "y": space["y"],
                       "neighbours": neighbours})
    cards: dict[str, dict] = {}
    heroes = {}
    for hero in ("samurai", "ninja", "miko", "prince"):
        deck = load(f"{hero}.toml")
        heroes[hero] = {"name": deck["name"],
                        "attributes": {a["attribute"]: a["score"] for a in deck["attributes"]}}
        for card in deck["cards"]:
            cards[card["id"]] = {key: card.get(key) for key in
                                 ("name", "category", "speed", "attribute", "cost", "value", "text")}
            cards[card["id"]]["hero"] = hero
    treasures = {t["id"]: {key: t.get(key) for key in
                           ("name", "type", "subtype", "attack_value", "range", "effect", "vp")}
                 for t in load("treasures.toml")["treasures"]}
    missions = {m["id"]: {"name": m["name"], "condition": m["condition"],
                          "on_complete": m.get("on_complete", "")}
                for m in load("missions.toml")["missions"]}
    return {
        "comment": "Generated by generate.py from the game's data files; do not edit.",
        "map": {"name": board["name"], "heian": board["heian"], "spaces": spaces, "edges": edges},
        "heroes": heroes, "cards": cards, "treasures": treasures, "missions": missions,
        "glossary": GLOSSARY,
    }


def render(data: dict) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False, sort_keys=False) + "\n"


OUTPUTS = ((CARCASSONNE_FILE, carcassonne_data), (SHOGUN_FILE, shogun_data))


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for target, build in OUTPUTS:
        text = render(build())
        if check:
            if not target.exists() or target.read_text("utf-8") != text:
                stale.append(target.name)
        else:
            target.write_text(text, "utf-8")
            print(f"wrote {target}")
    if stale:
        print("stale: " + ", ".join(stale) + " (run generate.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
