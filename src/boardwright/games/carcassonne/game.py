"""The configured Carcassonne game: static tile data, options and the action-id space."""

from __future__ import annotations

import random
from typing import Any

from boardwright.core.errors import MalformedActionError
from boardwright.core.game import Game
from boardwright.games.carcassonne.actions import (
    FIGURES, PASS, Deploy, Pass, Place, parse_action,
)
from boardwright.games.carcassonne.options import CarcassonneOptions, parse_options
from boardwright.games.carcassonne.state import CarcassonneState
from boardwright.games.carcassonne.tiles import (
    HALVES, INTERNAL, MONASTERY_LOCATION, SIDES, TileType, load_tile_set,
)

FOLLOWERS_PER_PLAYER = 7


class CarcassonneGame(Game):
    """Carcassonne (2nd edition base game)."""

    name = "carcassonne"
    version = "1"

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        tile_set = load_tile_set("base_tiles.toml")
        self.tile_types: dict[str, TileType] = dict(tile_set.types)
        self.config: CarcassonneOptions = parse_options(options, players, set(self.tile_types))
        super().__init__(players, self.config.to_json())
        self.farmers = self.config.farmers
        self.small_city_scoring = self.config.small_city_scoring
        self.starting_seat = self.config.starting_seat
        self.followers_per_player = FOLLOWERS_PER_PLAYER
        self.figures = FIGURES
        self._location_names = frozenset(SIDES + HALVES + INTERNAL)
        self._special_locations = frozenset((MONASTERY_LOCATION,))
        # Action-id space: every position within `radius` of the start tile can be reached.
        self.radius = len(self._tile_bag())
        self._width = 2 * self.radius + 1
        self._locations = sorted({f.location for t in self.tile_types.values()
                                  for v in t.variants for f in v.features})
        self._location_id = {loc: i for i, loc in enumerate(self._locations)}
        self._positions = self._width * self._width
        self._deploy_base = self._positions * 4
        self._pass_id = self._deploy_base + self._positions * len(self._locations) * len(FIGURES)

    # -- set-up -------------------------------------------------------------------------------

    def _tile_bag(self) -> list[str]:
        """The tiles of the draw pile, in data order (before shuffling)."""
        if self.config.draw_order is not None:
            return list(self.config.draw_order)
        bag = [name for name, t in self.tile_types.items() for _ in range(t.count)]
        bag.remove(self.config.start_tile)
        return bag

    def new_game(self, seed: int | None = None) -> CarcassonneState:
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise MalformedActionError(f"seed must be an integer, not {seed!r}")
        bag = self._tile_bag()
        if self.config.draw_order is None:
            random.Random(seed).shuffle(bag)
        bag.reverse()  # the state draws from the end of the list
        return CarcassonneState(self, seed, bag, self.config.start_tile)

    # -- actions ------------------------------------------------------------------------------

    def action_from_json(self, data: Any) -> Place | Deploy | Pass:
        return parse_action(data, self.figures, self._location_names, self._special_locations)

    def _position_index(self, x: int, y: int) -> int:
        r = self.radius
        if abs(x) > r or abs(y) > r:
            raise MalformedActionError(f"position ({x}, {y}) is outside the action space (±{r})")
        return (x + r) * self._width + (y + r)

    @property
    def num_distinct_actions(self) -> int:
        return self._pass_id + 1

    def action_id(self, action: Any) -> int:
        if isinstance(action, Place):
            return self._position_index(action.x, action.y) * 4 + action.rotation // 90
        if isinstance(action, Deploy):
            location = self._location_id.get(action.location)
            if location is None:
                raise MalformedActionError(f"location {action.location!r} is on no tile")
            cell = self._position_index(action.x, action.y) * len(self._locations) + location
            return self._deploy_base + cell * len(FIGURES) + FIGURES.index(action.figure)
        if isinstance(action, Pass):
            return self._pass_id
        raise MalformedActionError(f"not a Carcassonne action: {action!r}")

    def action_from_id(self, action_id: int) -> Place | Deploy | Pass:
        if type(action_id) is not int or not 0 <= action_id < self.num_distinct_actions:
            raise MalformedActionError(f"action id {action_id!r} is outside 0..{self._pass_id}")
        if action_id == self._pass_id:
            return PASS
        if action_id < self._deploy_base:
            cell, quarter = divmod(action_id, 4)
            x, y = divmod(cell, self._width)
            return Place(x - self.radius, y - self.radius, 90 * quarter)
        rest, figure = divmod(action_id - self._deploy_base, len(FIGURES))
        cell, location = divmod(rest, len(self._locations))
        x, y = divmod(cell, self._width)
        return Deploy(x - self.radius, y - self.radius, self._locations[location], FIGURES[figure])

    def describe_action(self, action: Any) -> str:
        if isinstance(action, Place):
            return f"place at ({action.x}, {action.y}) turned {action.rotation}°"
        if isinstance(action, Deploy):
            return f"{action.figure} on {action.location} of ({action.x}, {action.y})"
        if isinstance(action, Pass):
            return "no figure"
        return str(action)
