"""Clocks: an optional time control per game, kept by the server.

A game is created with one of two controls (POST /api/games, "clock"):

    {"per_move": 30}                    30 seconds for each turn; unused time is not kept
    {"minutes": 5, "increment": 3}      5 minutes for the whole game, 3 seconds added after
                                        each of the seat's turns (Fischer); increment default 0

A turn is the run of decisions a seat makes in a row, ended when another seat is to move or
the game says a new turn begins (`State.at_turn_start`): Carcassonne's tile and its figure are
one turn. Only a human seat to move in a running game has a clock running (every human seat
taken, the game not over); bots have none, and no clock runs while a bot thinks.

What happens when a clock reaches zero is the game's "on_timeout" (default "bot"):

* "bot": the game's easy level (`STAND_IN`) plays for the seat until its turn ends. The seat's
  next turn has its full time again (per move) or its increment (Fischer; with no increment
  the bot keeps playing for it, as the clock is still at zero).
* "lose": the seat loses on time. When only one seat would be left in the game, the game ends
  at once and that seat wins. With more seats left the game goes on without the loser: its
  seat is ranked last and the easy bot plays its moves to the end (so the others' game is not
  cut short). Several losers on time rank below everyone else, the first to lose last
  (`ranking`).

Running time is measured on the event loop's monotonic clock (`loop.time()`; a server may be
given another monotonic time source, `create_app(clock=...)`, as tests do), so a change of
the wall clock never moves a player's time. Each seat's remaining time is stored with the game
(the `clock` column) at every saved move and time-out, and at a clean shutdown. After a restart
the seat to move resumes from what was stored, counted from the moment the server is back:
the time the server was down never counts (after a crash, the thinking time since the last
save is given back as well).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import boardwright as bw
from boardwright.agents import HUMAN
from boardwright.agents.levels import level_agent
from boardwright.web import ending
from boardwright.web.protocol import ProtocolError
from boardwright.web.storage import InlineWriter, StaleRevision, Writer
from boardwright.web.storage import now as wall_now

if TYPE_CHECKING:
    from boardwright.web.live import LiveGame
    from boardwright.web.manager import GameManager

log = logging.getLogger("boardwright.web")

ON_TIMEOUT = ("bot", "lose")
STAND_IN = level_agent("easy")  # the agent that plays for a seat out of time
PER_MOVE_LIMITS = (1.0, 86_400.0)  # seconds
MINUTES_LIMITS = (1 / 60, 600.0)
INCREMENT_LIMIT = 3_600.0
SLACK = 0.005  # seconds: a timer that fires this close to zero has expired


def _number(value: Any, what: str, low: float, high: float) -> float:
    if type(value) not in (int, float) or not math.isfinite(value) or not low <= value <= high:
        raise bw.InvalidOptionError(f"{what} must be a number from {low:g} to {high:g}, not "
                                    f"{value!r}"[:200])
    return float(value)


@dataclass(frozen=True)
class TimeControl:
    """A game's time control: `per_move` seconds per turn, or `minutes` for the game plus
    `increment` seconds per turn; `on_timeout` is "bot" or "lose"."""

    per_move: float | None = None
    minutes: float | None = None
    increment: float = 0.0
    on_timeout: str = "bot"

    @property
    def initial(self) -> float:
        """Each seat's time at the start of the game, in seconds."""
        return self.per_move if self.per_move is not None else (self.minutes or 0.0) * 60

    def to_json(self) -> dict[str, Any]:
        if self.per_move is not None:
            return {"per_move": self.per_move, "on_timeout": self.on_timeout}
        return {"minutes": self.minutes, "increment": self.increment,
                "on_timeout": self.on_timeout}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TimeControl:
        return cls(per_move=data.get("per_move"), minutes=data.get("minutes"),
                   increment=float(data.get("increment") or 0.0),
                   on_timeout=data.get("on_timeout", "bot"))


def parse_control(clock: Any, on_timeout: Any = None) -> TimeControl | None:
    """The time control of a creation request's "clock" and "on_timeout" fields (None: no
    clock); InvalidOptionError naming what is wrong."""
    if clock is None:
        if on_timeout is not None:
            raise bw.InvalidOptionError('"on_timeout" needs a "clock"')
        return None
    if on_timeout is None:
        on_timeout = "bot"
    if on_timeout not in ON_TIMEOUT:
        raise bw.InvalidOptionError(f'"on_timeout" must be one of {", ".join(ON_TIMEOUT)}, '
                                    f"not {on_timeout!r}"[:200])
    if not isinstance(clock, dict):
        raise bw.InvalidOptionError('"clock" must be {"per_move": seconds} or {"minutes": m, '
                                    '"increment": seconds}')
    keys = set(clock)
    if keys == {"per_move"}:
        return TimeControl(per_move=_number(clock["per_move"], "clock.per_move (seconds)",
                                           *PER_MOVE_LIMITS), on_timeout=on_timeout)
    if "minutes" in keys and keys <= {"minutes", "increment"}:
        minutes = _number(clock["minutes"], "clock.minutes", *MINUTES_LIMITS)
        increment = _number(clock.get("increment", 0), "clock.increment (seconds)", 0.0,
                            INCREMENT_LIMIT)
        return TimeControl(minutes=minutes, increment=increment, on_timeout=on_timeout)
    raise bw.InvalidOptionError('"clock" must be {"per_move": seconds} or {"minutes": m, '
                                f'"increment": seconds}}, not one with {sorted(keys)}'[:300])


def form() -> dict[str, Any]:
    """The creation fields of a clock, described for a form (type, default, limits, help), as
    POST /api/games takes them: "clock" is one of the two controls, or absent."""
    return {
        "clock": {
            "type": "choice", "default": None, "help": "an optional time control",
            "choices": {
                "per_move": {"per_move": {
                    "type": "number", "unit": "seconds", "min": PER_MOVE_LIMITS[0],
                    "max": PER_MOVE_LIMITS[1], "default": 30,
                    "help": "seconds for each turn; unused time is not kept"}},
                "fischer": {
                    "minutes": {"type": "number", "unit": "minutes", "min": MINUTES_LIMITS[0],
                                "max": MINUTES_LIMITS[1], "default": 5,
                                "help": "time for the whole game"},
                    "increment": {"type": "number", "unit": "seconds", "min": 0.0,
                                  "max": INCREMENT_LIMIT, "default": 0,
                                  "help": "added after each of the seat's turns"}},
            },
        },
        "on_timeout": {
            "type": "choice", "default": "bot", "choices": list(ON_TIMEOUT),
            "help": "out of time: the easy bot plays the turn (bot), or the seat loses (lose)",
        },
    }


@dataclass
class Clock:
    """The clocks of one game: each seat's remaining seconds, the seat whose time runs
    (`turn`, since the loop time `since`), the seats out of time in their current turn
    (`flagged`, "bot" mode), the seats that lost on time (`lost`, "lose" mode) and whether the
    game ended on time (`ended`). `turn` and `since` are not stored: they are set again from
    the position when the game is loaded."""

    control: TimeControl
    remaining: list[float]
    flagged: list[int] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)
    ended: bool = False
    turn: int | None = None
    since: float | None = None

    @classmethod
    def new(cls, control: TimeControl, players: int) -> Clock:
        return cls(control, [control.initial] * players)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Clock | None:
        if not data:
            return None
        return cls(TimeControl.from_json(data["control"]),
                   [float(r) for r in data["remaining"]], list(data.get("flagged", ())),
                   list(data.get("lost", ())), bool(data.get("ended", False)))

    def to_json(self) -> dict[str, Any]:
        """What is stored with the game (the running seat's time as of the last `charge`)."""
        return {"control": self.control.to_json(),
                "remaining": [round(r, 3) for r in self.remaining],
                "flagged": list(self.flagged), "lost": list(self.lost), "ended": self.ended}

    def copy(self) -> Clock:
        return replace(self, remaining=list(self.remaining), flagged=list(self.flagged),
                       lost=list(self.lost))

    def stopped(self, now: float) -> Clock:
        """A copy with the running seat's time counted up to `now` and no clock running: the
        clock as a change of the game stores it. The time the save takes then counts for
        nobody, and `ClockKeeper.sync` runs the due seat's clock again once it is saved."""
        clock = self.copy()
        clock.run(None, now)
        return clock

    def left(self, seat: int, now: float) -> float:
        """The seat's remaining seconds at loop time `now`."""
        left = self.remaining[seat]
        if seat == self.turn and self.since is not None:
            left -= now - self.since
        return max(0.0, left)

    def charge(self, now: float) -> None:
        """Count the running seat's time up to `now`."""
        if self.turn is not None and self.since is not None:
            self.remaining[self.turn] = self.left(self.turn, now)
            self.since = now

    def run(self, seat: int | None, now: float) -> None:
        """Stop the running clock (its time counted) and start `seat`'s (None: none)."""
        self.charge(now)
        self.turn = seat
        self.since = now if seat is not None else None

    def end_turn(self, seat: int) -> None:
        """`seat`'s turn is over: a new turn's time (per move) or the increment (Fischer)."""
        if seat in self.lost:
            return
        if self.control.per_move is not None:
            self.remaining[seat] = self.control.per_move
        else:
            self.remaining[seat] += self.control.increment
        if seat in self.flagged:
            self.flagged.remove(seat)

    def stands_in(self, seat: int) -> bool:
        """Whether the stand-in bot plays `seat` now (out of time this turn, or lost)."""
        return seat in self.flagged or seat in self.lost


def stands_in(live: LiveGame, seat: int) -> bool:
    """Whether the stand-in bot plays `seat` now: out of time, lost on time, or resigned
    (resigning.py: the game goes on without that player)."""
    clock: Clock | None = live.clock
    return (clock is not None and clock.stands_in(seat)) or bool(live.seats[seat].get("out"))


def due(live: LiveGame) -> int | None:
    """The seat whose clock should run in this position, or None."""
    clock: Clock | None = live.clock
    if clock is None or live.over or live.status != "running":
        return None
    seat = live.state.current_player
    if not 0 <= seat < live.players or live.kinds[seat] != HUMAN or stands_in(live, seat):
        return None
    return seat


def after_move(live: LiveGame, new: bw.State, seat: int, now: float) -> Clock | None:
    """The clock after `seat` moved from the live position to `new` (a copy: the live one is
    replaced once the move is saved). The mover's time stops at the move (`Clock.stopped`), so
    the live clock and the stored one agree."""
    if live.clock is None:
        return None
    clock = live.clock.stopped(now)
    ends = new.is_terminal or new.current_player != seat or new.at_turn_start
    if ends and 0 <= seat < live.players and live.kinds[seat] == HUMAN:
        clock.end_turn(seat)
    return clock


def ranking(live: LiveGame, scores: list[Any]) -> list[int]:
    """The seats best first once the game is over: the seats still in the game by score (ties
    by seat), then those that lost on time, the last to lose first."""
    clock: Clock | None = live.clock
    lost = list(clock.lost) if clock is not None else []
    playing = [s for s in range(live.players) if s not in lost]

    def key(seat: int) -> tuple[float, int]:
        score = scores[seat] if seat < len(scores) else 0
        return (-float(score) if isinstance(score, (int, float)) else 0.0, seat)

    return sorted(playing, key=key) + lost[::-1]


def standing_returns(clock: Clock | None, returns: list[float]) -> list[float]:
    """The result a rated game is rated by: the game's own returns for the seats still in,
    and below all of them the seats that lost on time, the first to lose lowest (the order
    `ranking` shows)."""
    if clock is None or not clock.lost:
        return list(returns)
    playing = [s for s in range(len(returns)) if s not in clock.lost]
    floor = min((returns[s] for s in playing), default=0.0)
    out = list(returns)
    for order, seat in enumerate(clock.lost):
        out[seat] = floor - len(clock.lost) + order
    return out


def clock_frame(live: LiveGame, now: float, scores: list[Any]) -> dict[str, Any] | None:
    """The clock as the state frame shows it: each human seat's remaining seconds at the
    moment the frame is built (None for bots), the seat whose time runs, and `at`, the server's
    wall-clock time then (the table counts down from the frame's arrival)."""
    clock: Clock | None = live.clock
    if clock is None:
        return None
    out: dict[str, Any] = {
        **clock.control.to_json(),
        "remaining": [round(clock.left(s, now), 3) if kind == HUMAN else None
                      for s, kind in enumerate(live.kinds)],
        "running": clock.turn, "flagged": list(clock.flagged), "lost": list(clock.lost),
        "ended": clock.ended, "at": round(time.time(), 3),
    }
    if live.over:
        out["ranking"] = ending.ranking(live.seats, clock.to_json(), scores)
    return out


TimeSource = Callable[[], float]


def loop_time() -> float:
    """The running event loop's monotonic clock, in seconds: the game clocks' time unless the
    server was given another source (a manual one lets tests set the time exactly)."""
    return asyncio.get_running_loop().time()


class ClockKeeper:
    """The timers of a server's clocks: one `loop.call_later` per game whose clock runs, set
    again after every change of the game (`sync`), and what a time-out does (`expire`)."""

    def __init__(self, manager: GameManager) -> None:
        self.manager = manager
        self.tasks: set[asyncio.Task[None]] = set()
        self.timers: dict[str, asyncio.TimerHandle] = {}  # game id -> its time-out's timer

    def _cancel_timer(self, live: LiveGame) -> None:
        timer = self.timers.pop(live.id, None)
        if timer is not None:
            timer.cancel()

    def sync(self, live: LiveGame) -> None:
        """Run the clock of the seat due in the live position (stopping any other) and set the
        timer of its time-out. Call with the game's lock held, after every change."""
        clock: Clock | None = live.clock
        if clock is None:
            return
        loop = asyncio.get_running_loop()
        now = live.time()
        seat = due(live)
        if seat != clock.turn:
            clock.run(seat, now)
        self._cancel_timer(live)
        if seat is not None and not self.manager.closing:
            self.timers[live.id] = loop.call_later(clock.left(seat, now), self._fire, live,
                                                   live.generation, seat)

    def _fire(self, live: LiveGame, generation: int, seat: int) -> None:
        task = asyncio.create_task(self.expire(live, generation, seat))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def expire(self, live: LiveGame, generation: int, seat: int) -> None:
        """`seat`'s time is up (unless the position changed since the timer was set)."""
        manager = self.manager
        async with live.lock:
            clock: Clock | None = live.clock
            if (clock is None or live.generation != generation or due(live) != seat
                    or clock.turn != seat):
                return
            now = live.time()
            if clock.left(seat, now) > SLACK:  # early (a clock set again meanwhile)
                self.sync(live)
                return
            new = clock.stopped(now)
            new.remaining[seat] = 0.0
            values: dict[str, Any] = {"updated": wall_now()}
            if new.control.on_timeout == "bot":
                new.flagged.append(seat)
            else:
                new.lost.append(seat)
                if len(ending.still_in(live.seats, new.to_json())) <= 1:
                    new.ended = True
                    values["status"] = "finished"
            values["clock"] = new.to_json()
            write: Any = values
            if new.ended:  # the last seat standing wins; a rated game is rated on that
                write = ending.closing(manager.storage, live, live.seats, new.to_json(),
                                       [0.0] * live.players, values)
            try:
                await manager.authority.save_row(live, write, "a time-out in game %s",
                                                 "the time-out could not be saved")
            except StaleRevision:  # another server process moved or timed the game out first
                await manager.cluster.reload(live)
                return
            except ProtocolError:  # not saved: the clock stays at zero, try again soon
                asyncio.get_running_loop().call_later(1.0, self._fire, live, generation, seat)
                return
            live.clock = new
            if new.ended:
                live.seats = ending.stored_seats(write)
            if "rated" in values:
                live.rated = bool(values["rated"])
            if new.ended:
                live.status = "finished"
            live.undo.request = None
            log.info("seat %s of game %s ran out of time (%s)", seat, live.id,
                     new.control.on_timeout)
            live.broadcast()
            self.sync(live)
            manager.bot_driver.schedule(live)
        if new.ended:
            manager.evict_if_idle(live)

    async def save_all(self, writer: Writer | InlineWriter) -> None:
        """At a clean shutdown: store the running clocks' time as of now."""
        for live in list(self.manager.games.values()):
            clock: Clock | None = live.clock
            if clock is None or clock.turn is None:
                continue
            self._cancel_timer(live)
            clock.charge(live.time())
            try:
                await writer.update(live.id, {"clock": clock.to_json()})
            except Exception:  # noqa: BLE001 - shutting down: the last saved time stands
                log.exception("could not save the clock of game %s", live.id)
        for task in list(self.tasks):
            task.cancel()
