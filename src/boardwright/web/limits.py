"""Limits on game creation per visitor, so that one visitor cannot fill the server.

A visitor is the named player whose identity cookie comes with the request (identity.py), else
the request's address (behind a reverse proxy on the same machine, uvicorn takes the client's
address from X-Forwarded-For). Two limits apply to `POST /api/games`:

* at most `games` new games per `window` seconds (a sliding window: a game counts for exactly
  `window` seconds after its creation);
* at most `bot_only` bot-only games in play (not finished) at a time.

A refusal is HTTP 429 with a `Retry-After` header and a JSON body naming the limit: `error`
(the message the lobby shows), `limit` ("games_per_window" or "bot_only_games") and
`retry_after` (seconds). Only games actually created count; the counts live in the server
process (a restart forgets them, and with several processes each keeps its own).

Names are free to choose, so these limits slow a flood down rather than stop it: what keeps
the bots fair whatever the number of games is the bot queue (botqueue.py).
"""

from __future__ import annotations

import asyncio
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from boardwright.core.errors import InvalidOptionError
from boardwright.web.errors import RequestError
from boardwright.web.identity import COOKIE, IdentityStore, same_origin

GAMES = 20  # new games per visitor and window, by default
WINDOW = 60.0  # seconds
BOT_ONLY = 3  # bot-only games in play per visitor, by default
BOT_ONLY_RETRY = 30  # seconds suggested to a visitor at the bot-only cap (games end in time)


class TooManyRequests(RequestError):
    """A creation refused by a limit: HTTP 429 with when to try again."""

    def __init__(self, message: str, limit: str, retry_after: int) -> None:
        super().__init__(429, message)
        self.limit = limit
        self.retry_after = retry_after

    def body(self) -> dict[str, Any]:
        return {"error": self.message, "limit": self.limit, "retry_after": self.retry_after}


@dataclass(frozen=True)
class LimitSettings:
    """`games` per `window` seconds and `bot_only` games in play, per visitor (None: no
    limit)."""

    games: int | None = GAMES
    window: float = WINDOW
    bot_only: int | None = BOT_ONLY

    def __post_init__(self) -> None:
        for name in ("games", "bot_only"):
            value = getattr(self, name)
            if value is not None and (type(value) is not int or value < 1):
                raise InvalidOptionError(f"the limit {name} must be a whole number of 1 or "
                                         f"more (or none), not {value!r}")
        if not (isinstance(self.window, (int, float)) and math.isfinite(self.window)
                and self.window > 0):
            raise InvalidOptionError(f"the creation window must be a number of seconds above "
                                     f"0, not {self.window!r}")


@dataclass
class _Visitor:
    created: deque[float] = field(default_factory=deque)  # times of the games in the window
    bot_only: set[str] = field(default_factory=set)  # ids of the bot-only games created
    pending: int = 0  # bot-only games admitted and not yet saved


@dataclass
class Admission:
    """A creation admitted: `confirm` it with the new game's id, or `cancel` it when the game
    was not created (it then counts for nothing)."""

    limits: CreationLimits
    visitor: str
    stamp: float
    bot_only: bool
    done: bool = False

    def _settle(self) -> Any:
        """The visitor's entry, its pending bot-only place given back; None when this admission
        was already confirmed or cancelled."""
        if self.done:
            return None
        self.done = True
        entry = self.limits.visitor(self.visitor)
        if self.bot_only:
            entry.pending -= 1
        return entry

    def confirm(self, game_id: str) -> None:
        entry = self._settle()
        if entry is not None and self.bot_only:
            entry.bot_only.add(game_id)

    def cancel(self) -> None:
        entry = self._settle()
        if entry is None:
            return
        try:
            entry.created.remove(self.stamp)
        except ValueError:
            pass


class CreationLimits:
    """The creation limits of a server. `clock`: monotonic seconds (the server's clock);
    `in_play(game_id)`: whether a game is still being played."""

    def __init__(self, settings: LimitSettings, clock: Callable[[], float],
                 in_play: Callable[[str], bool]) -> None:
        self.settings = settings
        self.clock = clock
        self.in_play = in_play
        self._visitors: dict[str, _Visitor] = {}
        self._swept = -math.inf

    def visitor(self, key: str) -> _Visitor:
        return self._visitors.setdefault(key, _Visitor())

    def admit(self, key: str, bot_only: bool) -> Admission:
        """Count a new game of visitor `key` (bot seats only: `bot_only`), or raise
        TooManyRequests naming the limit reached. Synchronous: two requests of one visitor
        cannot both take the last place."""
        settings = self.settings
        now = self.check(key)
        entry = self.visitor(key)
        if bot_only and settings.bot_only is not None:
            entry.bot_only = {g for g in entry.bot_only if self.in_play(g)}
            if len(entry.bot_only) + entry.pending >= settings.bot_only:
                raise TooManyRequests(
                    f"too many bot-only games in play: this server allows {settings.bot_only} "
                    "at a time for each visitor; try again when one of yours has finished "
                    f"(in about {BOT_ONLY_RETRY} s)", "bot_only_games", BOT_ONLY_RETRY)
        entry.created.append(now)
        if bot_only:
            entry.pending += 1
        return Admission(self, key, now, bot_only)

    def check(self, key: str) -> float:
        """Raise TooManyRequests when visitor `key` has created its games of the window (so
        a refused request is turned away before the game is built); the time now."""
        settings = self.settings
        now = self.clock()
        self._sweep(now)
        entry = self._visitors.get(key)
        if entry is None:
            return now
        window = settings.window
        while entry.created and entry.created[0] <= now - window:
            entry.created.popleft()
        if settings.games is not None and len(entry.created) >= settings.games:
            wait = max(1, math.ceil(entry.created[0] + window - now))
            raise TooManyRequests(
                f"too many new games: this server allows {settings.games} per {window:g} "
                f"seconds for each visitor; try again in {wait} s", "games_per_window", wait)
        return now

    def _sweep(self, now: float) -> None:
        """Forget the visitors with nothing left to count, once per window."""
        if now - self._swept < self.settings.window:
            return
        self._swept = now
        cutoff = now - self.settings.window
        for key in [k for k, v in self._visitors.items()
                    if not v.pending and not (v.created and v.created[-1] > cutoff)
                    and not any(self.in_play(g) for g in v.bot_only)]:
            del self._visitors[key]


async def visitor_of(store: IdentityStore, request: Any) -> str:
    """Whom a request counts for: the named player of its identity cookie (a cookie that is no
    player's key counts for nothing), else its address."""
    if request.cookies.get(COOKIE) and same_origin(request.headers):
        identity = await asyncio.to_thread(store.by_key, request.cookies[COOKIE])
        if identity is not None:
            return f"player:{identity.id}"
    client = request.client
    return f"address:{client.host if client is not None else 'unknown'}"
