"""Hints at the web table: who may ask for one, and the search that answers, off the event loop.

A hint is the bot's best few moves for the seat to move, each with its expected margin
(agents/advice.py `suggest`, a paired search that determinizes for the player to move, so it
never reads what that player cannot see). In a game with one human seat (training) hints are
always allowed. With several human seats they are allowed only once every human seat has
agreed: a seat proposes (its agreement), the others accept or refuse, and a refusal clears the
proposal. The agreements are kept in the game's seats (`"hints": true` on a seat), which the
database stores with the game, so they survive a restart without a change of schema.

The search runs in the bot pool (bots.py) from the game's set-up and record, like a bot's
decision; the pool's per-worker position cache serves both.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from boardwright.agents import HUMAN
from boardwright.web.bots import POSITIONS, PositionJob

AGREED = "hints"  # the key on a seat's stored entry: this seat agreed to hints
COUNT = 3  # moves in a hint


@dataclass(frozen=True)
class Consent:
    """Where the hints of a game stand: `training` (one human seat: always allowed),
    `accepted` (the human seats that agreed) and `allowed`."""

    training: bool
    accepted: tuple[int, ...]
    humans: tuple[int, ...]

    @property
    def allowed(self) -> bool:
        return self.training or (bool(self.humans) and set(self.accepted) == set(self.humans))

    @property
    def waiting(self) -> tuple[int, ...]:
        """The human seats still to accept a proposal (none when nothing is proposed)."""
        if not self.accepted or self.allowed:
            return ()
        return tuple(s for s in self.humans if s not in self.accepted)

    def to_json(self) -> dict[str, Any]:
        return {"allowed": self.allowed, "training": self.training,
                "accepted": list(self.accepted), "waiting": list(self.waiting)}


@dataclass
class HintRequest:
    """A hint being computed: for which position (generation) and seat (the answer goes to
    that seat's connections only), and the task waiting for it."""

    generation: int
    seat: int
    task: asyncio.Task[None] | None = None


@dataclass(frozen=True)
class HintAnswer:
    """The last hint computed: the position (generation) and seat it answers, and its frame
    (asked again in that position, the seat gets it at once)."""

    generation: int
    seat: int
    frame: dict[str, Any] = field(hash=False)


@dataclass
class HintState:
    """A live game's hints: the one being computed (one per game at a time) and the last
    answer."""

    pending: HintRequest | None = None
    answered: HintAnswer | None = None


def consent(seats: list[dict[str, Any]]) -> Consent:
    """The hint consent of a game's stored seats."""
    humans = tuple(s for s, seat in enumerate(seats) if seat.get("kind") == HUMAN)
    accepted = tuple(s for s in humans if seats[s].get(AGREED))
    return Consent(training=len(humans) == 1, accepted=accepted, humans=humans)


def agreed(seats: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    """The seats after `seat` proposes or accepts hints (a new list; the input is unchanged)."""
    out = [dict(s) for s in seats]
    out[seat][AGREED] = True
    return out


def refused(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seats after a refusal: every agreement cleared (a new list)."""
    out = [dict(s) for s in seats]
    for entry in out:
        entry.pop(AGREED, None)
    return out


@dataclass(frozen=True)
class HintJob(PositionJob):
    """What a worker needs to compute a hint: the position, the seat asking (`seat`), and the
    search budget."""

    seconds: float | None
    iterations: int | None
    count: int = COUNT


def hint_seed(seed: int, seat: int, step: int) -> int:
    """A hint's search seed: a function of the position, so the same question gets the same
    answer (with an iteration budget) whichever worker computes it."""
    return (seed * 131 + seat + 7) * 1_000_033 + step


def compute_hints(job: HintJob) -> list[dict[str, Any]]:
    """The best moves (JSON), margins and sample counts for the position after `job.actions`
    (runs in a worker)."""
    from boardwright.agents.advice import suggest

    state = POSITIONS.take(job)
    if state.is_terminal or state.current_player != job.seat:
        raise ValueError(f"seat {job.seat} is not to move in game {job.game_id}")
    suggestions = suggest(state, count=job.count, seconds=job.seconds,
                          iterations=job.iterations,
                          seed=hint_seed(job.seed, job.seat, len(job.actions)))
    POSITIONS.keep(job, state)
    return [{"action": s.action.to_json(), "margin": float(s.margin), "samples": int(s.samples)}
            for s in suggestions]
