"""Chat at a table: seated players write, everyone connected (spectators too) reads.

A seated connection sends {"type": "chat", "text": "..."}; the text is stripped, must not be
empty, and may hold at most MAX_CHARS characters (`too_large` beyond). Each seat may send RATE
messages per WINDOW seconds, whichever of its connections they come from (`rate_limited`
beyond). A spectator's chat frame is refused (`bad_token`): spectators read only.

Messages are stored in the `chat_messages` table (one row each, with the game's id, the seat,
the text and the time) before they are sent, so a reload or a reconnect shows the history: the
last HISTORY messages go to every connection right after its first state frame, as
{"type": "chat", "history": true, "messages": [...]}; each new message goes to every connection
as {"type": "chat", "history": false, "messages": [one]}. A connection's history is the chat as
it stood when the connection joined the table, and every later message reaches it live: never a
message twice, nor one missed. A message is {"id", "seat", "text", "time"}. The server sends the
text as it was written: the table shows it as text (never as HTML), which is where escaping
belongs.
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select

from boardwright.web.protocol import (
    BAD_TOKEN,
    MALFORMED,
    RATE_LIMITED,
    SERVER_ERROR,
    TOO_LARGE,
    ProtocolError,
)
from boardwright.web.schema import ChatRow
from boardwright.web.storage import Storage, now

if TYPE_CHECKING:
    from boardwright.web.live import LiveGame

MAX_CHARS = 500
RATE = 5
WINDOW = 10.0  # seconds
HISTORY = 200


def _iso(moment: datetime) -> str:
    if moment.tzinfo is None:  # SQLite gives back the UTC time it was given, without its zone
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def clean(text: str) -> str:
    """The text as stored: surrounding space stripped, control characters other than line
    breaks and tabs dropped; ProtocolError when nothing is left or it is too long."""
    text = "".join(c for c in text.replace("\r\n", "\n")
                   if c in "\n\t" or unicodedata.category(c) != "Cc").strip()
    if not text:
        raise ProtocolError(MALFORMED, "a chat message cannot be empty")
    if len(text) > MAX_CHARS:
        raise ProtocolError(TOO_LARGE, f"a chat message may hold at most {MAX_CHARS} "
                                       f"characters, not {len(text)}")
    return text


@dataclass
class ChatLog:
    """A game's chat in memory: the latest messages (loaded from the database once) and the
    times each seat sent its recent ones (for the rate limit)."""

    messages: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=HISTORY))
    loaded: bool = False
    sent: dict[int, deque[float]] = field(default_factory=dict)
    # messages heard from another process while the history was being read (relay.py): the
    # read may or may not have seen them, so they are merged into it by id
    early: list[dict[str, Any]] = field(default_factory=list)

    def receive(self, entry: dict[str, Any]) -> bool:
        """Keep a message saved by another process; False when it is already here."""
        if not self.loaded:
            self.early.append(entry)
            return True
        if any(m.get("id") == entry.get("id") for m in self.messages):
            return False
        self.messages.append(entry)
        return True

    def load(self, found: list[dict[str, Any]]) -> None:
        """The history read from the database, with the messages heard meanwhile, by id."""
        known = {m["id"] for m in found}
        merged = found + [m for m in self.early if m.get("id") not in known]
        merged.sort(key=lambda m: m["id"])
        self.messages.extend(merged)
        self.early.clear()
        self.loaded = True

    def history_frame(self) -> dict[str, Any] | None:
        """The frame of the chat so far (None when there is none yet: the table starts with
        an empty chat)."""
        if not self.messages:
            return None
        return {"type": "chat", "history": True, "messages": list(self.messages)}

    def allow(self, seat: int, moment: float) -> bool:
        times = self.sent.setdefault(seat, deque())
        while times and moment - times[0] >= WINDOW:
            times.popleft()
        if len(times) >= RATE:
            return False
        times.append(moment)
        return True


def save_message(storage: Storage, game_id: str, seat: int, text: str,
                 created: datetime) -> int:
    table = ChatRow.__table__
    storage.writes += 1
    with storage.engine.begin() as connection:
        result = connection.execute(insert(table).values(
            game_id=game_id, seat=seat, text=text, created=created))
        return int(result.inserted_primary_key[0])


def history(storage: Storage, game_id: str, limit: int = HISTORY) -> list[dict[str, Any]]:
    """A game's last `limit` messages, oldest first."""
    table = ChatRow.__table__
    with storage.engine.connect() as connection:
        rows = connection.execute(
            select(table).where(table.c.game_id == game_id)
            .order_by(table.c.id.desc()).limit(limit)).mappings().all()
    return [message(row) for row in reversed(rows)]


def message(row: Any) -> dict[str, Any]:
    return {"id": row["id"], "seat": row["seat"], "text": row["text"],
            "time": _iso(row["created"])}


async def read_chat(storage: Storage, live: LiveGame) -> ChatLog:
    """The game's chat, read from the database the first time. A connection reads it before
    it joins the table, so that its history frame follows its state frame with nothing in
    between (`GameManager.attach`)."""
    log = live.chat
    if not log.loaded:
        found = await asyncio.to_thread(history, storage, live.id)
        if not log.loaded:  # another connection may have loaded it meanwhile
            log.load(found)
    return log


async def post(storage: Storage, live: LiveGame, seat: int | None,
               text: str) -> dict[str, Any]:
    """Store `seat`'s message and send it to every connection of the game; the message."""
    if seat is None:
        raise ProtocolError(BAD_TOKEN, "spectators read the chat; only seated players "
                                       "write in it")
    text = clean(text)
    log = await read_chat(storage, live)
    if not log.allow(seat, time.monotonic()):
        raise ProtocolError(RATE_LIMITED, f"at most {RATE} chat messages per "
                                          f"{WINDOW:g} seconds: this one was not sent")
    created = now()
    try:
        ident = await asyncio.to_thread(save_message, storage, live.id, seat, text,
                                        created)
    except Exception:
        raise ProtocolError(SERVER_ERROR, "the message could not be saved; try "
                                          "again") from None
    entry = {"id": ident, "seat": seat, "text": text, "time": _iso(created)}
    log.messages.append(entry)
    live.send_to_all({"type": "chat", "history": False, "messages": [entry]})
    return entry
