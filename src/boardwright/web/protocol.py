"""The websocket protocol: client frames parsed and checked, error frames, limits.

Connecting: `/ws/games/<id>`. A seat's player offers two subprotocols in the handshake,
"boardwright" and "boardwright.token.<the seat's token>"; the server picks "boardwright".
A spectator offers none. The token never goes in the address (`?token=` is refused): servers
and proxies log addresses, while the Sec-WebSocket-Protocol header is not logged (and our own
logs redact it, see logsafe.py).

Client -> server (JSON text):
    {"type": "move", "action": {...}, "step": n}   step: the step the client saw (optional)
    {"type": "undo"}                   alone against bots: take back at once; with several
                                       humans: ask the others (agreement.py)
    {"type": "accept_undo"} / {"type": "refuse_undo"}   answer the pending undo request
    {"type": "chat", "text": "..."}    a chat message (seated players; chat.py)
    {"type": "hint"}                   the bot's best moves for the seat to move (hints.py)
    {"type": "allow_hints"}            propose hints, or accept the proposal (several humans)
    {"type": "refuse_hints"}           refuse the proposal, or withdraw hints: clears every
                                       agreement
    {"type": "resign"}                 leave the game, beaten (resigning.py)
    {"type": "claim_win"} / {"type": "claim_end"}   the others have been gone long enough:
                                       win, or end the game with no result (resigning.py)
    {"type": "ping"}
Server -> client: {"type": "state", ...} (built in live.py), {"type": "pong"},
    {"type": "hint", "step": n, "seat": s, "hints": [...]} to the asking seat's connections
    only, {"type": "chat", "messages": [...], "history": bool} to every connection, and {"type": "error", "code": ..., "message": ...}, the latter to the sender only.

Nothing a client sends can raise out of `parse_frame`: every problem is a `ProtocolError`
carrying the error code of the contract (docs: docs/server.md).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

MAX_FRAME_BYTES = 16 * 1024  # larger frames get `too_large`
RATE_LIMIT = 20  # frames per second per connection; more get `rate_limited`
RATE_WINDOW = 1.0
# A connection that keeps flooding past the limit is closed: after this many refused frames
# within FLOOD_WINDOW seconds it is no longer a client that went too fast but one that does
# not listen.
FLOOD_CLOSE_AFTER = 200
FLOOD_WINDOW = 10.0

# Error codes (the contract's list, plus server_error for a failure of the server itself).
ILLEGAL_ACTION = "illegal_action"
MALFORMED = "malformed"
NOT_YOUR_TURN = "not_your_turn"
BAD_TOKEN = "bad_token"
RATE_LIMITED = "rate_limited"
TOO_LARGE = "too_large"
GAME_OVER = "game_over"
STALE = "stale"
SERVER_ERROR = "server_error"
HINTS_NOT_ALLOWED = "hints_not_allowed"  # several humans, and not all of them agreed
BUSY = "busy"  # a hint is already being computed for this game
CODES = (ILLEGAL_ACTION, MALFORMED, NOT_YOUR_TURN, BAD_TOKEN, RATE_LIMITED, TOO_LARGE,
         GAME_OVER, STALE, SERVER_ERROR, HINTS_NOT_ALLOWED, BUSY)

# Websocket close codes the server uses (4000-4999 are the application's own).
CLOSE_UNKNOWN_GAME = 4404
CLOSE_BAD_TOKEN = 4403
CLOSE_FLOOD = 1008  # policy violation
CLOSE_TOO_SLOW = 1013  # try again later: the client did not read its frames

FRAME_TYPES = ("move", "undo", "ping", "hint", "allow_hints", "refuse_hints", "accept_undo",
               "refuse_undo", "chat", "resign", "claim_win", "claim_end")


class ProtocolError(Exception):
    """A refused frame: `code` is one of CODES, `message` says what was wrong."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Frame:
    """A parsed client frame."""

    type: str
    action: Any = None
    step: int | None = None
    text: str | None = None  # a chat message's text


def frame_size(data: str | bytes) -> int:
    if isinstance(data, bytes):
        return len(data)
    # A str of n characters is at most 4n bytes in UTF-8; encode only when it could be too big.
    if len(data) * 4 <= MAX_FRAME_BYTES:
        return len(data)
    return len(data.encode("utf-8", errors="replace"))


def parse_frame(data: str | bytes | None) -> Frame:
    """Check and parse one client frame; ProtocolError (too_large / malformed) otherwise."""
    if data is None:
        raise ProtocolError(MALFORMED, "empty frame: send a JSON object such as "
                                       '{"type": "ping"}')
    size = frame_size(data)
    if size > MAX_FRAME_BYTES:
        raise ProtocolError(TOO_LARGE, f"frame of {size} bytes is larger than the limit of "
                                       f"{MAX_FRAME_BYTES} bytes")
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError(MALFORMED, "frame is not UTF-8 text") from None
    try:
        obj = json.loads(data)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError(MALFORMED, "frame is not valid JSON") from None
    if not isinstance(obj, dict):
        raise ProtocolError(MALFORMED, "frame must be a JSON object with a \"type\"")
    kind = obj.get("type")
    if kind not in FRAME_TYPES:
        shown = kind if isinstance(kind, str) and len(kind) <= 40 else type(kind).__name__
        raise ProtocolError(MALFORMED, f"unknown frame type {shown!r}; "
                                       f"expected one of {', '.join(FRAME_TYPES)}")
    if kind == "chat":
        text = obj.get("text")
        if not isinstance(text, str):
            raise ProtocolError(MALFORMED, 'a chat frame needs a "text" string')
        return Frame(kind, text=text)
    if kind != "move":
        return Frame(kind)
    if "action" not in obj:
        raise ProtocolError(MALFORMED, "a move frame needs an \"action\" object")
    action = obj["action"]
    if not isinstance(action, dict):
        raise ProtocolError(MALFORMED, "the \"action\" of a move must be a JSON object")
    step = obj.get("step")
    if step is not None and (type(step) is not int or step < 0):
        raise ProtocolError(MALFORMED, "the \"step\" of a move must be a whole number")
    return Frame("move", action, step)


SUBPROTOCOL = "boardwright"
TOKEN_PREFIX = "boardwright.token."


def token_from_subprotocols(offered: list[str] | tuple[str, ...]) -> str | None:
    """The seat token a client offered as "boardwright.token.<token>", or None."""
    for protocol in offered:
        if isinstance(protocol, str) and protocol.startswith(TOKEN_PREFIX):
            return protocol[len(TOKEN_PREFIX):]
    return None


def chosen_subprotocol(offered: list[str] | tuple[str, ...]) -> str | None:
    """The subprotocol the server answers with: "boardwright" when offered (a browser refuses
    a connection whose answer is not one it offered), else none."""
    return SUBPROTOCOL if SUBPROTOCOL in offered else None


def error_frame(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


PONG = {"type": "pong"}


class RateLimiter:
    """A token bucket: bursts of up to `rate` frames, `rate` frames per second sustained.

    `refused` counts the frames refused in the current flood window (FLOOD_WINDOW seconds): a
    client that reaches FLOOD_CLOSE_AFTER in one window does not listen and is disconnected.
    """

    __slots__ = ("capacity", "rate", "refused", "stamp", "tokens", "window")

    def __init__(self, rate: float = RATE_LIMIT, per: float = RATE_WINDOW,
                 clock: Any = time.monotonic) -> None:
        self.rate = rate / per
        self.capacity = float(rate)
        self.tokens = float(rate)
        self.stamp = clock()
        self.window = self.stamp
        self.refused = 0

    def allow(self, now: float | None = None) -> bool:
        if now is None:
            now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if now - self.window >= FLOOD_WINDOW:
            self.window = now
            self.refused = 0
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1
        return False
