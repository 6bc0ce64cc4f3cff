"""Short Rise of the Shogun games steered to a situation a test needs: a Court phase with a
province offering only a recruit and one offering only a move of the hero, and a duel in which
the player to decide can play a card. Random play rarely duels, so the steering plays towards
the other hero: every hero placement and move goes to the space nearest the other hero (as the
crow flies on the map), the discard phase ends at once, and an attack is taken whenever
offered. Everything else is a seeded random choice, so a path is the same on every run (the
web table replays it step by step)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any, Callable

import boardwright as bw

HEROES = ["samurai", "ninja"]
COURT_SEED = 1  # a steered Court phase after 20 decisions
DUEL_SEED = 4  # a steered duel after 22 decisions
STEERED = ("move", "place_hero", "choose_home")


@dataclass
class SteeredPath:
    """The actions (JSON) from the start up to the wanted position, and who decides there."""

    seed: int
    options: dict[str, Any]
    actions: list[dict[str, Any]]
    seat: int


def _positions(game: bw.Game) -> dict[str, tuple[float, float]]:
    return {s.id: (s.x, s.y) for s in game.board.spaces}  # type: ignore[attr-defined]


def _choose(state: bw.State, rng: random.Random, where: dict[str, tuple[float, float]]) -> Any:
    legal = state.legal_actions()
    data = [a.to_json() for a in legal]
    attacks = [a for a, j in zip(legal, data) if j["type"] == "attack"]
    if attacks:
        return rng.choice(attacks)
    if state.phase == "discard":
        done = [a for a, j in zip(legal, data) if j["type"] == "done"]
        if done:
            return done[0]
    me = state.current_player
    ids = state.game.board.ids
    other = [ids[p] for seat, p in enumerate(state.hero_pos) if seat != me and p >= 0]
    moves = [(a, j) for a, j in zip(legal, data) if j["type"] in STEERED]
    if other and moves:
        return min(moves, key=lambda m: math.dist(where[m[1]["space"]], where[other[0]]))[0]
    return rng.choice(legal)


def steer(found: Callable[[bw.State, list[dict[str, Any]]], bool], seed: int,
          options: dict[str, Any] | None = None, limit: int = 80) -> SteeredPath:
    """The steered game of `seed` up to the first position where `found(state, legal)` holds."""
    opts = {"heroes": HEROES, "max_rounds": 3, **(options or {})}
    game = bw.load("shogun", 2, opts)
    where = _positions(game)
    state = game.new_game(seed)
    rng = random.Random(seed)
    actions: list[dict[str, Any]] = []
    while not state.is_terminal and len(actions) < limit:
        if found(state, [a.to_json() for a in state.legal_actions()]):
            return SteeredPath(seed, opts, actions, state.current_player)
        action = _choose(state, rng, where)
        actions.append(action.to_json())
        state.apply(action)
    raise AssertionError(f"seed {seed}: no such position in {limit} steered decisions")


def in_court(state: bw.State, legal: list[dict[str, Any]]) -> bool:
    """A Court phase with a province offering only a recruit and one offering only a move of
    the hero (each wears its own ring on the map)."""
    if state.phase != "court":
        return False
    offers: dict[str, set[str]] = {}
    for action in legal:
        if "space" in action:
            offers.setdefault(action["space"], set()).add(action["type"])
    single = {next(iter(kinds)) for kinds in offers.values() if len(kinds) == 1}
    return {"move", "recruit"} <= single


def in_duel(state: bw.State, legal: list[dict[str, Any]]) -> bool:
    """A duel in which the player to decide may play a card of their hand."""
    return state.duel is not None \
        and any(a["type"] == "duel_play" and "card" in a for a in legal)
