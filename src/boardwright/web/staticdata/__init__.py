"""The generator of the web front end's static data files (`web/static/data/*.json`).

The engine's views name tiles, spaces and cards but carry no drawing data; these files are that
drawing data, derived from the same TOML the engine loads. `build.main` writes them or checks
that they are up to date (`python src/boardwright/web/static/data/generate.py [--check]`).

- `build`: which files there are, writing and checking them;
- `carcassonne`: `carcassonne_tiles.json`, each tile's drawing, figure spots, engine locations
  and highlight areas;
- `tile_shapes` and `tile_overrides`: the generic tile shapes, and the hand-placed drawing of
  tiles the generic shapes cannot show;
- `tile_regions`: the raster of a tile's features (highlight areas, farmers' spots);
- `svg`: writing SVG paths on the 100 x 100 tile and reading them back as polygons;
- `shogun`: `shogun_content.json`, the map and the texts of cards, treasures and missions.
"""
