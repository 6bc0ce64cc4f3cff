"""The static data a native game needs, taken from a configured Python game.

The tile geometry comes from the same data files and the same precomputation (`tiles.py`) as the
Python engine, and the action-id layout from the same `CarcassonneGame`, so the two engines
cannot disagree on what a tile looks like or what an id means.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.core.errors import InvalidOptionError
from boardwright.games.carcassonne.capabilities.abbey import END_MANDATORY, END_NONE, END_VOLUNTARY
from boardwright.games.carcassonne.tiles import CITY, CORNERS, ROAD, TileType
from boardwright.games.carcassonne.value_net import ValueNet

if TYPE_CHECKING:
    from boardwright.games.carcassonne.game import CarcassonneGame

ABBEY_END = {END_MANDATORY: 0, END_NONE: 1, END_VOLUNTARY: 2}
# The widths of a native state's fields (graph.h): tile indexes in 10 bits (Part::tile), part
# ids in 15 (int16), board values in 12 signed bits (a tile index, or a frontier slot s as
# -(s + 2); the frontier keeps at most 3 slots per tile and 12 more, dead ones included), action
# ids in 31. Every game the options allow fits well inside (at most 621 tiles of 9 parts).
MAX_TILES = min(1 << 10, (2**11 - 2 - 12) // 3)
MAX_PARTS = 1 << 15
MAX_ACTION_ID = 2**31 - 1


def _is_multi(tile: TileType) -> bool:
    """Whether one tile holds two parts of the same road or city kind: only such tiles can be
    counted twice when two features meet, so only they carry a bit in a feature's tile mask."""
    kinds = [f.kind for f in tile.variants[0].features]
    return kinds.count(ROAD) > 1 or kinds.count(CITY) > 1


def _tile_data(tile: TileType, location_id: dict[str, int]) -> dict[str, Any]:
    variants = []
    for variant in tile.variants:
        variants.append({
            "side_types": list(variant.side_types),
            "side_feature": list(variant.side_feature),
            "half_feature": list(variant.half_feature),
            "monastery": variant.monastery,
            "field_corners": sum(1 << c for c, name in enumerate(CORNERS)
                                 if name in variant.field_corners),
            "abbey": variant.abbey,
            "links": [tuple(link) for link in variant.links],
            "features": [{"kind": f.kind, "pennants": f.pennants, "sides": list(f.sides),
                          "borders": list(f.borders), "location": location_id[f.location]}
                         for f in variant.features],
        })
    return {
        "name": tile.name, "abbey": tile.abbey, "multi": _is_multi(tile),
        "canonical": list(tile.canonical),
        "fits": [sum(1 << q for q in quarters) for quarters in tile.fits],
        "variants": variants,
    }


def game_spec(game: CarcassonneGame) -> dict[str, Any]:
    """Everything the native engine reads from a configured game, as plain data."""
    names = list(game.tile_types)
    location_id = game._location_id
    config = game.config
    figures = list(game.figures)

    def figure(name: str) -> int:
        return figures.index(name) if name in figures else -1

    _check_size(game)

    rules = [(figures.index(rule.name), sum(1 << k for k in rule.kinds), rule.name == "mayor")
             for rule in game.figure_rules]
    return {
        "players": game.num_players,
        "starting_seat": game.starting_seat,
        "small_city_first_edition": game.small_city_scoring == "first_edition",
        "start_tile": names.index(config.start_tile),
        "abbey_tile": names.index("ABBEY") if "ABBEY" in names and config.abbeys else -1,
        "figures": figures,
        "supply": [game.supply_per_player.get(name, 0) for name in figures],
        "figure_rules": rules,
        "fig_follower": figure("follower"), "fig_mayor": figure("mayor"),
        "fig_wagon": figure("wagon"), "fig_barn": figure("barn"),
        "abbeys": config.abbeys,
        "abbey_end": ABBEY_END[config.abbey_end_of_game],
        "wagon_connected": config.wagon_adjacency == "connected",
        "wagon_traverse": config.wagon_traverse,
        "radius": game.radius, "width": game._width,
        "deploy_base": game._deploy_base, "abbey_base": game._abbey_base,
        "draw_id": game._draw_id, "pass_id": game._pass_id,
        "locations": list(game._locations),
        "corner_locations": [location_id[c] for c in CORNERS],
        "bag": [names.index(name) for name in game._tile_bag()],
        "fixed_order": config.draw_order is not None,
        "tiles": [_tile_data(game.tile_types[name], location_id) for name in names],
        "heuristic": heuristic_data(game),
    }


def _check_size(game: CarcassonneGame) -> None:
    """Refuse, naming the limit, a game too large for the native state's packed fields."""
    tiles = game.radius + 1  # every tile the game can lay, the start tile included
    parts = tiles * max(len(t.variants[0].features) for t in game.tile_types.values())
    if tiles > MAX_TILES or parts >= MAX_PARTS or game._pass_id > MAX_ACTION_ID:
        raise InvalidOptionError(
            f"this game is too large for the native engine ({tiles} tiles, {parts} feature "
            f"parts; at most {MAX_TILES} and {MAX_PARTS - 1}): use engine='python'")


def heuristic_data(game: CarcassonneGame) -> dict[str, Any]:
    """The heuristic's constants and the evaluation's weights, as the Python engine reads them
    when the game is made: the current ones, and each other version the game offers
    (`evaluation.offered_versions`: the kept ones named baselines judge leaves by, natively
    too, and "learned" with its network where one is shipped), as `version_weights` gives it."""
    from boardwright.games.carcassonne import heuristic
    from boardwright.games.carcassonne.evaluation import (
        EvaluationWeights, default_weights, offered_versions, version_weights,
    )

    def table(weights: EvaluationWeights, net: ValueNet | None = None) -> dict[str, Any]:
        linear = {"weights": [list(triple) for triple in weights.features],
                  "to_move": list(weights.to_move)}
        return linear if net is None else {**linear, "net": net_table(net)}

    players = game.num_players
    versions = {name: table(*version_weights(name, players))
                for name in offered_versions(players) if name != "current"}
    return {
        "follower_in_hand": heuristic.FOLLOWER_IN_HAND, "hand_horizon": heuristic.HAND_HORIZON,
        "draw_share": heuristic.DRAW_SHARE, "open_city_farm": heuristic.OPEN_CITY_FARM,
        "pile_size": game.pile_size,
        **table(default_weights(players)),
        "versions": versions,
    }


def net_table(net: ValueNet) -> dict[str, Any]:
    """The learned value's network as the compiled engine reads it (matrices flattened)."""
    return {"holders": net.holders, "mean": list(net.mean), "spread": list(net.spread),
            "scale": net.scale,
            "layers": [{"in": len(matrix), "out": len(bias),
                        "weights": [w for row in matrix for w in row], "bias": list(bias)}
                       for matrix, bias in net.layers]}
