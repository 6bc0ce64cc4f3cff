"""The front end's static data files are up to date with the engine's data (no browser)."""

from __future__ import annotations

import json
import math
from pathlib import Path

from script_helpers import load_script

import boardwright as bw

STATIC = Path(__file__).resolve().parents[3] / "src" / "boardwright" / "web" / "static"


def load_generator():
    return load_script(STATIC / "data" / "generate.py", "static_data_generate")


def test_generated_files_are_fresh():
    generator = load_generator()
    assert generator.main(["--check"]) == 0, "run: python src/boardwright/web/static/data/generate.py"


def test_every_deploy_location_of_a_game_has_a_spot():
    """Every location a Deploy action can name, on every tile and rotation, is in the tile
    geometry, so the table can put a clickable spot there."""
    data = json.loads((STATIC / "data" / "carcassonne_tiles.json").read_text("utf-8"))
    game = bw.load("carcassonne", 2, {"expansions": ["abbey_mayor"]})
    for name, tile_type in game.tile_types.items():
        tile = data["tiles"][name]
        for quarter, variant in enumerate(tile_type.variants):
            drawn = {f["locations"][quarter] for f in tile["features"]}
            assert {f.location for f in variant.features} == drawn, (name, quarter)
            for f in tile["features"]:
                x, y = f["spot"]
                assert 0 <= x <= 100 and 0 <= y <= 100


def test_shogun_map_matches_the_game():
    data = json.loads((STATIC / "data" / "shogun_content.json").read_text("utf-8"))
    game = bw.load("shogun", 2)
    state = game.new_game(1)
    view = state.view(0)
    ids = {s["id"] for s in data["map"]["spaces"]}
    assert len(ids) == 64
    hand = view["cards"] and [c for c in view["cards"] if c["seat"] == 0][0]["hand"] or []
    assert all(card in data["cards"] for card in hand)
    for action in state.legal_actions():
        for field in ("space", "source", "target"):
            value = action.to_json().get(field)
            if isinstance(value, str):
                assert value in ids


def area_cells(d: str) -> list[tuple[float, float, float, float]]:
    """The rectangles (x, y, w, h) of a raster area path (staticdata.tile_regions.region_path)."""
    import re

    return [tuple(float(v) for v in m) for m in
            re.findall(r"M(-?[\d.]+),(-?[\d.]+)h([\d.]+)v([\d.]+)h-[\d.]+z", d)]


def test_every_feature_has_an_area_and_farmers_stand_inside_their_field():
    """Each feature has a drawn area to light it up; a field's figure spot lies inside the
    field's own area (not on another feature), at least 5 units in from the tile's border, and
    clear of the tile's other spots (12 units: figures are about 22 wide, and may touch)."""
    data = json.loads((STATIC / "data" / "carcassonne_tiles.json").read_text("utf-8"))
    for name, tile in data["tiles"].items():
        for f in tile["features"]:
            assert f["area"], (name, f["id"])
            if f["kind"] != "field":
                continue
            x, y = f["spot"]
            assert min(x, y, 100 - x, 100 - y) >= 5, (name, f["id"], f["spot"])
            others = [g["spot"] for g in tile["features"] if g is not f]
            assert all(math.dist((x, y), p) >= 12 for p in others), (name, f["id"])
            if f["area"].startswith("M") and "h" in f["area"]:  # a raster area
                assert any(rx <= x <= rx + w and ry <= y <= ry + h
                           for rx, ry, w, h in area_cells(f["area"])), (name, f["id"])
