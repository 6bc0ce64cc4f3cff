"""Undo by agreement between human players.

With several human seats, a seat's {"type": "undo"} does not take anything back by itself: it
asks every other human seat still in the game (not bots, not a seat that lost on time), and
each answers {"type": "accept_undo"} or {"type": "refuse_undo"}. When every one of them has
accepted, the game goes back to just before the asking seat's last move (the moves made after
it, by anyone, are taken back too) through the same machinery as the free undo of a game
played alone against bots. A refusal ends the request; so does any move, or the end of the game,
since the request was about a position that is no longer there. One request at a time per game;
requests live in memory (a restart forgets a pending one).

Never across chance or hidden information (Board Game Arena's policy): every step to be taken
back must be one the game calls `undoable` (it drew nothing and revealed nothing: Carcassonne's
tile laid but not its end of turn, a Queens move, a Shogun move on the board). This is checked
when the request is made, and the request is refused otherwise. Games played alone against bots
keep their free undo (authority.py), which needs no agreement and has no such limit: the only
person who could profit plays against bots.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import boardwright as bw
from boardwright.web.protocol import GAME_OVER, ILLEGAL_ACTION, ProtocolError

if TYPE_CHECKING:
    from boardwright.web.authority import Authority
    from boardwright.web.live import LiveGame


@dataclass
class UndoRequest:
    """A pending request: who asked, at which step, back to which record length, who has to
    answer and who has accepted."""

    seat: int
    step: int
    back_to: int
    voters: tuple[int, ...]
    accepted: set[int] = field(default_factory=set)

    @property
    def waiting(self) -> list[int]:
        return [s for s in self.voters if s not in self.accepted]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "step": self.step, "steps": self.step - self.back_to,
                "voters": list(self.voters), "accepted": sorted(self.accepted),
                "waiting": self.waiting}


@dataclass(frozen=True)
class UndoRefusal:
    """The last refused request: who asked (`seat`), who refused (`by`), and at which step
    (the table shows it while the game is still at that step)."""

    seat: int
    by: int
    step: int


@dataclass
class UndoState:
    """A live game's undo: the pending request, the last refusal, and whether each step of
    the record can be taken back (`reversible`: True, False, or None when not known)."""

    request: UndoRequest | None = None
    refused: UndoRefusal | None = None
    reversible: list[bool | None] = field(default_factory=list)


def voters(live: LiveGame, seat: int) -> tuple[int, ...]:
    """The human seats other than `seat` that must agree (a seat that lost on time or resigned
    has no say)."""
    lost = set(live.clock.lost) if live.clock is not None else set()
    return tuple(s for s in live.humans
                 if s != seat and s not in lost and not live.seats[s].get("out"))


def reversible_steps(game: bw.Game, seed: int, actions: list[dict[str, Any]],
                     start: int) -> int | None:
    """Replay the record and return the first step at or after `start` that the game does not
    call `undoable`, or None when every one is."""
    state = game.new_game(seed)
    for index, data in enumerate(actions):
        action = game.action_from_json(data)
        before = state.clone() if index >= start else None
        state.apply(action)
        if before is not None and not game.undoable(before, action, state):
            return index
    return None


def reversibility(game: bw.Game, seed: int, actions: list[dict[str, Any]]) -> list[bool]:
    """Whether each step of a record can be taken back (`Game.undoable`), by replaying it:
    what a game loaded from the database (after a restart) knows of its steps, as the live
    game noted it move by move (`stamp`)."""
    state = game.new_game(seed)
    out = []
    for data in actions:
        action = game.action_from_json(data)
        before = state.clone()
        state.apply(action)
        out.append(game.undoable(before, action, state))
    return out


def stamp(live: LiveGame, new: bw.State, action: Any) -> None:
    """Note whether the step just made can be taken back (`live.undo.reversible`, one entry
    per step: True, False, or None when not known, as after a restart). Only games with
    several humans ask: a game alone against bots has its free undo."""
    known = live.undo.reversible
    del known[len(live.actions):]
    known.extend([None] * (len(live.actions) - len(known)))
    if len(live.humans) > 1:
        known.append(live.game.undoable(live.views, action, new))
    else:
        known.append(None)


def can_request(live: LiveGame, seat: int | None) -> bool:
    """Whether the table offers `seat` to ask for an undo now (the request itself checks the
    steps exactly: an entry not known here is offered)."""
    if seat is None or len(live.humans) < 2 or live.over or seat not in live.actors:
        return False
    if seat not in live.humans or not voters(live, seat) or live.undo.request is not None:
        return False
    if (live.clock is not None and live.clock.stands_in(seat)) or live.seats[seat].get("out"):
        return False
    last = max(i for i, actor in enumerate(live.actors) if actor == seat)
    known = live.undo.reversible
    return all(entry is not False for entry in known[last:])


async def request(live: LiveGame, seat: int) -> None:
    """`seat` asks the other human seats to take back its last move."""
    async with live.lock:
        if live.over:
            raise ProtocolError(GAME_OVER, "the game is over: moves can no longer be taken "
                                           "back")
        if live.undo.request is not None:
            pending = live.undo.request
            who = "you have" if pending.seat == seat else f"seat {pending.seat + 1} has"
            raise ProtocolError(ILLEGAL_ACTION, f"{who} already asked for an undo: wait for "
                                                "the answer")
        mine = [i for i, actor in enumerate(live.actors) if actor == seat]
        if not mine:
            raise ProtocolError(ILLEGAL_ACTION, "nothing to undo: you have not moved yet")
        if live.clock is not None and live.clock.stands_in(seat):
            raise ProtocolError(ILLEGAL_ACTION, "your time ran out: you cannot ask for an "
                                                "undo now")
        if live.seats[seat].get("out"):
            raise ProtocolError(ILLEGAL_ACTION, "you resigned: you cannot ask for an undo")
        others = voters(live, seat)
        if not others:
            raise ProtocolError(ILLEGAL_ACTION, "no other player is left to agree")
        back_to = mine[-1]
        blocked = await asyncio.to_thread(reversible_steps, live.game, live.seed,
                                          list(live.actions), back_to)
        if blocked is not None:
            raise ProtocolError(ILLEGAL_ACTION, f"move #{blocked + 1} drew at random or "
                                                "revealed hidden information: it cannot "
                                                "be taken back")
        live.undo.request = UndoRequest(seat, live.step, back_to, others)
        live.undo.refused = None
        live.broadcast()


async def answer(authority: Authority, live: LiveGame, seat: int, accept: bool) -> None:
    """`seat` accepts or refuses the pending request; the last acceptance takes the moves
    back."""
    async with live.lock:
        pending: UndoRequest | None = live.undo.request
        if pending is None or pending.step != live.step:
            live.undo.request = None
            raise ProtocolError(ILLEGAL_ACTION, "no undo request is waiting for an answer")
        if seat not in pending.voters:
            what = "you asked for it" if seat == pending.seat else "you have no say in it"
            raise ProtocolError(ILLEGAL_ACTION, f"this undo request is not yours to "
                                                f"answer: {what}")
        if not accept:
            live.undo.request = None
            live.undo.refused = UndoRefusal(pending.seat, seat, live.step)
            live.broadcast()
            return
        pending.accepted.add(seat)
        if pending.waiting:
            live.broadcast()
            return
        live.undo.request = None
        await authority.take_back(live, list(live.actions[:pending.back_to]))
