"""One websocket connection of a table: its seat, its outbox and its rate limiter.

Frames go through a per-connection outbox (an `asyncio.Queue` drained by the connection's own
task), so a slow client never holds a game's lock: a connection whose outbox fills up
(`OUTBOX` frames not read) is closed as too slow.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any

from boardwright.web.protocol import CLOSE_TOO_SLOW, RATE_LIMIT, RateLimiter, error_frame

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

log = logging.getLogger("boardwright.web")

OUTBOX = 256  # frames queued for one connection before it is dropped as too slow


class Connection:
    """One websocket: its seat (None: spectator), outbox and rate limiter."""

    def __init__(self, websocket: WebSocket, seat: int | None,
                 rate_limit: int = RATE_LIMIT) -> None:
        self.websocket = websocket
        self.seat = seat
        self.outbox: asyncio.Queue[Any] = asyncio.Queue(maxsize=OUTBOX)
        self.limiter = RateLimiter(rate_limit)
        self.closed = False
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._pump())

    def send_text(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("closing a connection that does not read its frames")
            self.close(CLOSE_TOO_SLOW, force=True)

    def send(self, frame: dict[str, Any]) -> None:
        self.send_text(json.dumps(frame, separators=(",", ":")))

    def error(self, code: str, message: str) -> None:
        self.send(error_frame(code, message))

    def close(self, code: int = 1000, force: bool = False) -> None:
        if self.closed:
            return
        self.closed = True
        if force:  # drop what is queued: the close goes out first
            while not self.outbox.empty():
                self.outbox.get_nowait()
        self.outbox.put_nowait(("close", code))

    async def _pump(self) -> None:
        try:
            while True:
                item = await self.outbox.get()
                if item is None:
                    return
                if isinstance(item, tuple):
                    await self.websocket.close(code=item[1])
                    return
                await self.websocket.send_text(item)
        except asyncio.CancelledError:
            raise
        except Exception:  # the client went away; the receive loop notices and detaches
            self.closed = True

    async def stop(self) -> None:
        """Stop sending; a close frame already queued is sent first (for at most a second)."""
        closing = self.closed
        self.closed = True
        if self.task is not None and not self.task.done():
            if closing:
                try:
                    await asyncio.wait_for(asyncio.shield(self.task), timeout=1.0)
                    return
                except (TimeoutError, Exception):
                    pass
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):
                pass
