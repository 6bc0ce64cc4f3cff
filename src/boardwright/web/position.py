"""A game's position as the table reads it: the engine the table keeps, the views of a position
computed once each, the scores a viewer may see, the last action as each viewer may know it, and
a record replayed into a position.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

import boardwright as bw
from boardwright.web.wording import Describe

log = logging.getLogger("boardwright.web")


def table_game(name: str, players: int, options: dict[str, Any]) -> bw.Game:
    """A game as the table keeps it: on the Python engine, the rules reference, where a game
    has one beside a compiled engine. The table applies one move at a time and reads every
    view, the words of every legal move and the game's table data at each: on Carcassonne's
    compiled engine each of these reads converts the position to Python (about 0.4 ms), so the
    table spent more on them than the Python engine spends on the move itself (a replay, which
    reads a view and words a move at every step, likewise). Bots and hints
    search in their workers on the game's default engine (bots.py); records and actions are
    the same on both engines."""
    engine = "python" if "python" in bw.available_engines(name) else None
    return bw.load(name, players, options, engine=engine)


class ViewCache:
    """A read-only stand-in for a state that computes each `view()` once: a game's `describe`
    may ask for `view(None)` per action, and a frame describes every legal action."""

    __slots__ = ("_state", "_views", "_table", "_graph")

    def __init__(self, state: bw.State) -> None:
        self._state = state
        self._views: dict[int | None, dict[str, Any]] = {}
        self._table: dict[str, Any] | None = None
        self._graph: Any = None

    def view(self, player: int | None) -> dict[str, Any]:
        if player not in self._views:
            self._views[player] = self._state.view(player)
        return self._views[player]

    def table_data(self, game: bw.Game) -> dict[str, Any]:
        """The game's public table data of the position (`Game.table_data`), built once. (Not
        named `table`: this class stands in for the state, and a state may have a `table`, as
        Shogun's card table.)"""
        if self._table is None:
            try:
                self._table = game.table_data(self._state)
            except Exception:  # noqa: BLE001 - extras must never cost the table its state
                log.exception("table data of %s failed", game.name)
                self._table = {}
        return self._table

    @property
    def graph(self) -> Any:
        """Carcassonne's feature graph, read once: its words read it for every figure move
        it words, and the compiled engine builds it anew (a whole Python position) per read."""
        if self._graph is None:
            self._graph = self._state.graph  # type: ignore[attr-defined]
        return self._graph

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


def visible_scores(state: bw.State, view: dict[str, Any]) -> list[Any]:
    """The scores as the viewer of `view` may see them. Rise of the Shogun's `state.scores`
    count face-down treasures, so the scores come from the view when it shows them."""
    scores = view.get("scores")
    if isinstance(scores, list):
        return list(scores)
    seats = view.get("seats")
    if isinstance(seats, list) and seats and all(isinstance(s, dict) and "vp" in s
                                                 for s in seats):
        return [s["vp"] for s in seats]
    return list(state.scores)


def public_scores(state: bw.State) -> list[Any]:
    return visible_scores(state, state.view(None))


@dataclass
class LastAction:
    """The last action as each viewer may know it: `seen[viewer]` is (public JSON form, text)
    for every seat and for spectators (None), from the game's `public_action`."""

    seat: int
    seen: dict[int | None, tuple[dict[str, Any], str]]

    def for_viewer(self, viewer: int | None) -> dict[str, Any]:
        action, text = self.seen[viewer]
        return {"seat": self.seat, "action": dict(action), "text": text}


def last_action(game: bw.Game, state: bw.State | ViewCache, action: bw.Action, actor: int,
                describe: Describe) -> LastAction:
    """What each viewer may know of `action`, taken by `actor` in `state` (before it is
    applied): its public form and its text, worded once per distinct form."""
    texts: dict[str, str] = {}
    seen: dict[int | None, tuple[dict[str, Any], str]] = {}
    for viewer in (None, *range(game.num_players)):
        public = game.public_action(action, actor, viewer)
        key = json.dumps(public, sort_keys=True)
        if key not in texts:
            texts[key] = describe(state, action, viewer)
        seen[viewer] = (public, texts[key])
    return LastAction(actor, seen)


def rebuild(game: bw.Game, seed: int, actions: list[dict[str, Any]],
            describe: Describe) -> tuple[bw.State, list[int], LastAction | None]:
    """Replay a record: the state, who made each action, and the last action as each viewer
    may know it (`describe(state, action, viewer)` words it)."""
    state = game.new_game(seed)
    actors: list[int] = []
    last = None
    for index, data in enumerate(actions):
        try:
            action = game.action_from_json(data)
            actor = state.current_player
            if index == len(actions) - 1:
                last = last_action(game, state, action, actor, describe)
            state.apply(action)
        except bw.BoardwrightError as exc:
            raise bw.CorruptRecordError(f"record action #{index} does not replay: {exc}") from None
        actors.append(actor)
    return state, actors, last
