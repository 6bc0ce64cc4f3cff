"""A live table: one game being played or watched in this process, with its seats, its
connections and the state of each of its concerns (clock, undo, hints, bots, chat), and the
frames it sends.

Every change of a live game happens under its `lock` (authority.py says in which order). A
game's connections each get a state frame with their own view (`view(seat)`, or `view(None)`
for spectators), built once per seat (`broadcast`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from datetime import datetime
from typing import Any

import boardwright as bw
from boardwright.agents import HUMAN
from boardwright.agents.levels import level_of
from boardwright.web.agreement import UndoState, can_request, reversibility
from boardwright.web.botdriver import BotState
from boardwright.web.chat import ChatLog
from boardwright.web.clocks import STAND_IN, Clock, TimeSource, clock_frame, loop_time, stands_in
from boardwright.web.connection import Connection
from boardwright.web.ending import ended_early, result
from boardwright.web.hints import Consent, HintState, consent
from boardwright.web.listing import presented
from boardwright.web.position import LastAction, ViewCache, rebuild, table_game, visible_scores
from boardwright.web.resigning import CLAIM_AFTER, abandon_for, can_resign
from boardwright.web.tokens import seat_for_token
from boardwright.web.wording import MoveWords

OPEN, RUNNING, FINISHED = "open", "running", "finished"


def iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def open_seat(stored: dict[str, Any]) -> bool:
    """Whether a stored seat is open: created as an open human seat (the lobby's "open seat")
    that nobody has joined or holds yet. Any named player may take it (seating.take_seat);
    a seat created with an invitation token is not open, so an invitation stays the invitee's."""
    return (stored.get("kind") == HUMAN and stored.get("open") is True
            and not stored.get("joined") and not stored.get("identity"))


def seat_entry(seat: int, kind: str, connected: bool,
               stored: dict[str, Any] | None = None) -> dict[str, Any]:
    """A seat as the lobby and the tables list it; a bot playing a named level's agent string
    also carries the level's name ("hard"), for people. A seat a named player holds carries
    the name (`stored`: the game's seat entry), a rated game's finished seats their rating
    before and after (ratings.py), and a seat anyone may take says "open"."""
    entry: dict[str, Any] = {"seat": seat, "kind": kind, "connected": connected}
    if stored is not None and open_seat(stored):
        entry["open"] = True
    level = level_of(kind) if kind != HUMAN else None
    if level is not None:
        entry["level"] = level
    if stored is not None:
        if stored.get("name"):
            entry["name"] = stored["name"]
        if stored.get("rating"):
            entry["rating"] = stored["rating"]
        if stored.get("out"):  # resigned, or left a claimed game (resigning.py)
            entry["out"] = stored["out"]
    return entry


class LiveGame:
    """A game being played (or watched): its set-up, seats and status as stored (with the
    database `revision` it is at), its position, its connections, and one small state per
    concern: `clock` (clocks.py), `undo` (agreement.py), `hints` (hints.py), `bots`
    (botdriver.py) and `chat` (chat.py)."""

    def __init__(self, row: dict[str, Any], game: bw.Game, state: bw.State,
                 actors: list[int], last: LastAction | None,
                 words: MoveWords | None = None) -> None:
        self.id: str = row["id"]
        self.name: str = row["game"]
        self.players: int = row["players"]
        self.options: dict[str, Any] = row["options"]
        self.seed: int = row["seed"]
        self.created: datetime = row["created"]
        self.seats: list[dict[str, Any]] = [dict(s) for s in row["seats"]]
        self.status: str = row["status"]
        self.rated: bool = bool(row.get("rated"))
        self.host: str | None = row.get("host")  # its creator's name (listing.py), if any
        self.revision: int = row.get("revision") or 0  # the database's, at this state
        self.behind: int = self.revision  # the newest revision known to be committed
        self.game = game
        self.words = words if words is not None else MoveWords(game)
        self.state = state
        self.views = ViewCache(state)  # the views of `state`, each computed once
        self.generation = 0  # one more at every new state: work begun on an older one is void
        self.actions: list[dict[str, Any]] = list(row["record"])
        self.actors = actors
        self.last = last
        self.lock = asyncio.Lock()
        self.connections: dict[int | None, set[Connection]] = {}
        self.elsewhere: dict[int, frozenset[int]] = {}  # seats connected to other processes
        self.clock: Clock | None = Clock.from_json(row.get("clock"))
        self.time: TimeSource = loop_time  # the clock's time (its server's: GameManager.adopt)
        self.undo = UndoState(reversible=[None] * len(self.actions))
        self.hints = HintState()
        self.bots = BotState()
        self.chat = ChatLog()  # its history is read from the database when first needed
        self._legal: tuple[int, list[dict[str, Any]], list[str]] | None = None
        # presence (resigning.py): since when each human seat has had no connection here, on
        # `time`; and how long the others must be gone before a claim (the server's setting)
        self.gone: dict[int, float] = {}
        self.claim_after: float = CLAIM_AFTER

    # -- facts ----------------------------------------------------------------------------------

    @property
    def kinds(self) -> list[str]:
        """Each seat's kind: "human", or the agent string of the bot that plays it."""
        return [s["kind"] for s in self.seats]

    @property
    def hashes(self) -> list[str | None]:
        """Each seat's token hash (None: no token, as a seat a named player took)."""
        return [s.get("token_hash") for s in self.seats]

    @property
    def step(self) -> int:
        return len(self.actions)

    @property
    def humans(self) -> list[int]:
        return [seat for seat, kind in enumerate(self.kinds) if kind == HUMAN]

    def seat_of(self, token: str) -> int | None:
        return seat_for_token(token, self.hashes)

    def connected(self, seat: int) -> bool:
        """A connection of `seat` in this process or another (relay.py)."""
        return bool(self.connections.get(seat)) or any(
            seat in seats for seats in self.elsewhere.values())

    @property
    def over(self) -> bool:
        """The game is over: played to its end, ended on time (clocks.py), by a resignation
        or by a claim (resigning.py)."""
        return (self.state.is_terminal or (self.clock is not None and self.clock.ended)
                or ended_early(self.seats))

    def bot_to_move(self) -> int | None:
        if self.over:
            return None
        seat = self.state.current_player
        if 0 <= seat < self.players and (self.kinds[seat] != HUMAN
                                         or stands_in(self, seat)):
            return seat
        return None

    def agent_for(self, seat: int) -> str:
        """The bot string that plays `seat`: its own, or the stand-in of a human seat out of
        time (clocks.py)."""
        return self.kinds[seat] if self.kinds[seat] != HUMAN else STAND_IN

    def running_status(self) -> str:
        """"open" while a human seat has never been taken, "running" after, "finished" at
        the end."""
        if self.over:
            return FINISHED
        if any(not self.seats[s].get("joined") for s in self.humans):
            return OPEN
        return RUNNING

    @property
    def consent(self) -> Consent:
        return consent(self.seats)

    def can_hint(self, seat: int | None) -> bool:
        """Whether `seat` may ask for a hint now: a human seat to move, hints allowed."""
        return (seat is not None and not self.over
                and self.state.current_player == seat and self.kinds[seat] == HUMAN
                and not stands_in(self, seat) and self.consent.allowed)

    def hints_for(self, seat: int | None) -> dict[str, Any]:
        """The hint consent as the state frame shows it (spectators see it, never ask)."""
        return {**self.consent.to_json(), "can_ask": self.can_hint(seat)}

    def can_undo(self, seat: int | None) -> bool:
        """Free undo (one human seat, against bots), or asking the others (agreement.py)."""
        if seat is not None and self.humans == [seat]:
            return not self.over and seat in self.actors
        return can_request(self, seat)

    def describe(self, state: bw.State | ViewCache, action: bw.Action,
                 viewer: bw.Viewer) -> str:
        return self.words(state, action, viewer)

    def seat_list(self) -> list[dict[str, Any]]:
        return [seat_entry(s, kind, self.connected(s), self.seats[s])
                for s, kind in enumerate(self.kinds)]

    def last_action_for(self, seat: int | None) -> dict[str, Any] | None:
        return None if self.last is None else self.last.for_viewer(seat)

    def legal_for(self, seat: int) -> tuple[list[dict[str, Any]], list[str]]:
        """Legal actions and their texts for the seat to move, computed once per position."""
        cached = self._legal
        if cached is not None and cached[0] == self.generation:
            return cached[1], cached[2]
        actions = self.state.legal_actions()
        legal = [a.to_json() for a in actions]
        texts = [self.describe(self.views, a, seat) for a in actions]
        self._legal = (self.generation, legal, texts)
        return legal, texts

    def state_frame(self, seat: int | None) -> dict[str, Any]:
        state = self.state
        view = self.views.view(seat)
        terminal = self.over
        current = state.current_player
        legal: list[dict[str, Any]] = []
        texts: list[str] = []
        if (seat is not None and not terminal and current == seat
                and self.kinds[seat] == HUMAN and not stands_in(self, seat)):
            legal, texts = self.legal_for(seat)
        scores = visible_scores(state, view)
        if terminal and not state.is_terminal and "current_player" in view:
            view = {**view, "current_player": None}  # ended early: nobody is to move
        refused = self.undo.refused
        request = self.undo.request
        return {
            "type": "state", "game": self.name, "seat": seat, "step": self.step,
            "status": self.status,
            "current_player": None if terminal or current < 0 else current,
            "view": view, "legal_actions": legal, "descriptions": texts,
            "scores": scores, "seats": self.seat_list(),
            "last_action": self.last_action_for(seat), "can_undo": self.can_undo(seat),
            "hints": self.hints_for(seat), "rated": self.rated,
            "table": self.views.table_data(self.game),
            "clock": clock_frame(self, self.time(), scores)
            if self.clock is not None else None,
            "result": self.result(scores) if terminal else None,
            "can_resign": can_resign(self, seat),
            "abandon": abandon_for(self, seat),
            "undo_request": request.to_json() if request else None,
            "undo_refused": {"seat": refused.seat, "by": refused.by}
            if refused is not None and refused.step == self.step else None,
        }

    def result(self, scores: list[Any]) -> dict[str, Any] | None:
        """How the game ended (ending.py), None while it goes on."""
        return result(self.seats, self.clock.to_json() if self.clock is not None else None,
                      self.status, scores)

    def set_state(self, state: bw.State, views: ViewCache | None = None) -> None:
        self.state = state
        self.views = views if views is not None else ViewCache(state)
        self.generation += 1

    def summary(self) -> dict[str, Any]:
        """The game as the lobby lists it, with the words of its row (listing.py)."""
        scores = visible_scores(self.state, self.views.view(None))
        return presented({
            "id": self.id, "game": self.name, "players": self.players, "options": self.options,
            "status": self.status, "created": iso(self.created), "seats": self.seat_list(),
            "step": self.step, "scores": scores, "rated": self.rated,
            "clock": self.clock.control.to_json() if self.clock is not None else None,
            "host": self.host, "result": self.result(scores),
        })

    # -- sending --------------------------------------------------------------------------------

    def broadcast(self, skip: Connection | None = None) -> None:
        """A state frame to every connection, each with its seat's view (built once per seat)."""
        for seat, connections in list(self.connections.items()):
            targets = [c for c in connections if c is not skip and not c.closed]
            if not targets:
                continue
            text = json.dumps(self.state_frame(seat), separators=(",", ":"))
            for connection in targets:
                connection.send_text(text)

    def send_to_seat(self, seat: int | None, frame: dict[str, Any]) -> None:
        """One frame to every connection of `seat` (None: the spectators)."""
        text = json.dumps(frame, separators=(",", ":"))
        for connection in list(self.connections.get(seat, ())):
            connection.send_text(text)

    def send_to_all(self, frame: dict[str, Any]) -> None:
        """One frame to every connection of the game, spectators too."""
        text = json.dumps(frame, separators=(",", ":"))
        for connection in list(self.all_connections()):
            connection.send_text(text)

    def all_connections(self) -> Iterable[Connection]:
        for connections in self.connections.values():
            yield from connections


def live_from_row(row: dict[str, Any]) -> LiveGame:
    """A stored game made live again (at a restart, or when it is first asked for): its record
    replayed on the table's engine. CorruptRecordError when it was recorded with another
    version of the game, or its record does not replay."""
    game = table_game(row["game"], row["players"], row["options"])
    if game.version != row["version"]:
        raise bw.CorruptRecordError(f"game {row['id']} was recorded with {row['game']} "
                                    f"version {row['version']}, the engine has "
                                    f"{game.version}")
    words = MoveWords(game)
    state, actors, last = rebuild(game, row["seed"], list(row["record"]), words)
    live = LiveGame(row, game, state, actors, last, words)
    if len(live.humans) > 1 and not live.over:  # what the table offers as undo (agreement.py)
        live.undo.reversible = list(reversibility(game, row["seed"], list(row["record"])))
    return live
