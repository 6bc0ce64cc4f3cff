"""`carcassonne_tiles.json`: for every tile letter of the base game and of Abbey & Mayor, the
SVG drawing of the tile in rotation 0 (a 100 x 100 square, y pointing down) and, per feature,
the point where a figure stands, its highlight area and its `location` string in each of the
four rotations (exactly the engine's strings, read from the engine's own tile variants), so the
table can put a clickable spot at the location a Deploy action names."""

from __future__ import annotations

import math
import tomllib
from importlib import resources

from boardwright.games.carcassonne.tiles import CITY, FIELD, MONASTERY, ROAD, load_tile_set
from boardwright.web.staticdata.svg import ellipse, path
from boardwright.web.staticdata.tile_overrides import OVERRIDES
from boardwright.web.staticdata.tile_regions import (
    MONASTERY_AREA, WALL, feature_regions, inner_spot, region_path,
)
from boardwright.web.staticdata.tile_shapes import (
    CORNER_HALVES, CORNER_POINT, DIR, HALF_POINT, MID, city_shape, monastery_shapes, pennant,
)

TILE_FILES = (("base", "base_tiles.toml"), ("abbey_mayor", "abbey_mayor_tiles.toml"))


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
