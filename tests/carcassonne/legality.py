"""One definition of legality, checked from every side.

`legal_actions()` lists one form of each distinct move (a symmetric tile in its first
rotation only; under `wagon_adjacency = "connected"` one part per target feature). Every other
way of asking must agree with that list exactly: `is_legal`, `apply` (which refuses an
unlisted equivalent instead of replacing it), and an action-id mask built from the list, as
the RL adapters build theirs. The checks here send, at one position, every legal action and
every plausible variant a caller could build: each rotation at every free and some taken
positions, an abbey everywhere, every location and corner of the tiles around the last one
and around a waiting wagon with every figure, and in a wagon move every part of every tile.

Shared by `test_legality.py` and the RL adapter tests.
"""

from __future__ import annotations

import random
from typing import Any, Iterable

from boardwright.core.errors import BoardwrightError, MalformedActionError
from boardwright.games.carcassonne import Deploy, Draw, Pass, Place, PlaceAbbey
from boardwright.games.carcassonne.actions import FIGURES, ROTATIONS, STRIDE, unpack
from boardwright.games.carcassonne.state import CarcassonneState
from boardwright.games.carcassonne.tiles import CORNERS
from carcassonne_engines import STATE_CLASS

FAR = 60  # a position no game reaches (inside the action-id space of every configuration)
NATIVE_REFUSALS = 0.1
AROUND = tuple(dx * STRIDE + dy for dx in (-1, 0, 1) for dy in (-1, 0, 1))


def plausible_actions(state: CarcassonneState) -> list[Any]:
    """The legal actions and the variants of them a caller could plausibly send now."""
    graph = state.graph
    board = graph.board
    out: dict[Any, None] = dict.fromkeys(state.legal_actions())
    out.update(dict.fromkeys((Pass(), Draw(), Place(FAR, FAR, 0), PlaceAbbey(FAR, -FAR))))
    spots = set(graph.frontier) | set(list(board)[:2])
    if state.last_pos is not None:
        spots.add(state.last_pos)
    for pos in sorted(spots):
        x, y = unpack(pos)
        out.update(dict.fromkeys(Place(x, y, rotation) for rotation in ROTATIONS))
        out[PlaceAbbey(x, y)] = None
    centres = [state.last_pos] if state.last_pos is not None else []
    centres += [pos for _, pos, _ in state.wagon_queue[:1]]
    near = sorted({c + d for c in centres for d in AROUND} & set(board))
    for pos in near:
        variant, _ = board[pos]
        x, y = unpack(pos)
        locations = [f.location for f in variant.features] + list(CORNERS)
        out.update(dict.fromkeys(Deploy(x, y, location, figure)
                                 for location in locations for figure in FIGURES))
    if state.phase == "wagon_move":  # `connected` reaches any distance: every part of every tile
        for pos, (variant, _) in board.items():
            x, y = unpack(pos)
            out.update(dict.fromkeys(Deploy(x, y, f.location, "wagon") for f in variant.features))
    return list(out)


def is_native(state: CarcassonneState) -> bool:
    return type(state).__name__ == STATE_CLASS["native"]


def placed_tiles(state: CarcassonneState) -> int:
    """How many tiles lie on the board. The Python engine's board is counted where it lies:
    building `board_tiles()` for every refused action took a fifth of the legality checks. A
    native state builds its graph anew at every read, so its `board_tiles()` is the cheap count."""
    return len(state.board_tiles()) if is_native(state) else len(state.graph.board)


def fingerprint(state: CarcassonneState) -> tuple:
    """A cheap summary that any change made by `apply` alters."""
    return (state.phase, state.actor, state.turn_player, state.tile, state.turn,
            len(state.history), tuple(state.scores), len(state.pile), len(state.occupant),
            len(state.wagon_queue), len(state.log), placed_tiles(state))


def action_id_or_none(game: Any, action: Any) -> int | None:
    try:
        return game.action_id(action)
    except MalformedActionError:
        return None


def check_legality_agrees(state: CarcassonneState, rng: random.Random,
                          masks: Iterable[tuple[str, set[int]]] = (),
                          full_check: float = 0.005, is_legal_share: float = 1.0,
                          refusal_share: float | None = None) -> int:
    """For every plausible action: listed == `is_legal` == applies (to a clone when listed;
    to the state itself otherwise, which must then stay exactly as it was) == its id is in the
    mask built from the list == its id is in each of `masks` (name, legal ids). Returns how
    many actions were checked. `full_check` is the share of refusals followed by a complete
    signature comparison (the cheap fingerprint is compared after every one);
    `is_legal_share` the share of unlisted actions also put to `is_legal` (which rebuilds the
    whole list at every call); `refusal_share` the share of unlisted actions sent to `apply`
    (by default all on the Python engine, `NATIVE_REFUSALS` on the native one, which has the
    Python engine answer each: a whole position rebuilt per refusal)."""
    if refusal_share is None:
        refusal_share = NATIVE_REFUSALS if is_native(state) else 1.0
    game = state.game
    legal = state.legal_actions()
    listed = set(legal)
    mask = {game.action_id(a) for a in legal}
    assert len(mask) == len(legal), "two legal actions share an id"
    unchanged = fingerprint(state)
    candidates = plausible_actions(state)
    for action in candidates:
        expected = action in listed
        if expected or rng.random() < is_legal_share:
            assert state.is_legal(action) == expected, f"is_legal({action}) is not {expected}"
        action_id = action_id_or_none(game, action)
        assert (action_id in mask) == expected, f"mask[{action_id}] for {action}"
        for name, ids in masks:
            assert (action_id in ids) == expected, f"{name} mask for {action} ({action_id})"
        if expected:
            state.clone().apply(action)
            continue
        if refusal_share < 1.0 and rng.random() >= refusal_share:
            continue
        full = rng.random() < full_check
        before = state.signature() if full else None
        try:
            state.apply(action)
        except BoardwrightError:
            pass
        else:
            raise AssertionError(f"apply accepted {action}, which legal_actions does not list")
        assert fingerprint(state) == unchanged, f"refusing {action} changed the state"
        if full:
            assert state.signature() == before, f"refusing {action} changed the state"
    return len(candidates)

