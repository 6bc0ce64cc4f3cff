"""The database's tables, declared in one place: games (with their record), analyses, chat
messages, named players (identities) and the seats they hold, and ratings. Every module that
reads or writes a table imports it from here, and `Base.metadata` holds every table as soon as
this module is imported, so a new database is created whole (storage.py) without the storage
importing the modules that use the tables. Changes of the schema are Alembic migrations
(migrations/).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    false,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

JsonType = JSON().with_variant(JSONB(), "postgresql")


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """A game: its set-up, seats and record. `step` and `scores` (the public scores) are
    denormalised from the record so the lobby lists games without replaying them."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    version: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JsonType)
    seed: Mapped[int] = mapped_column(BigInteger)
    # [{"kind": "human" | agent string, "token_hash": sha256 hex | null, "joined": bool}]
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JsonType)
    record: Mapped[list[dict[str, Any]]] = mapped_column(JsonType)  # the actions, in order
    status: Mapped[str] = mapped_column(String(16), index=True)
    step: Mapped[int] = mapped_column(Integer, default=0)
    scores: Mapped[list[Any]] = mapped_column(JsonType)
    # rated: the game updates its players' ratings when it ends (ratings.py)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # the time control and each seat's remaining time (web/clocks.py); null: no clock
    clock: Mapped[dict[str, Any] | None] = mapped_column(JsonType, nullable=True, default=None)
    # One more at every committed change of the row: what a conditional update is made against.
    revision: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # the name its creator played under when creating it (the lobby's "host"); null: unnamed
    host: Mapped[str | None] = mapped_column(String(100), nullable=True, default=None)


COLUMNS = tuple(c.name for c in GameRow.__table__.columns)


class AnalysisRow(Base):
    """The stored analysis of a finished game (the latest one made): what it was made with
    (`version`, `settings`, `record_hash`) beside the analysis itself, so a server whose
    settings or method changed knows to make it again."""

    __tablename__ = "analyses"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    record_hash: Mapped[str] = mapped_column(String(64))
    settings: Mapped[dict[str, Any]] = mapped_column(JsonType)
    result: Mapped[dict[str, Any]] = mapped_column(JsonType)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatRow(Base):
    """One chat message of a game's table (web/chat.py)."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(2000))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# -- named players (identity.py, seating.py) ----------------------------------------------------

class IdentityRow(Base):
    """A player: public id, display name, and the hash of the browser's key."""

    __tablename__ = "identities"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(100))
    name_key: Mapped[str] = mapped_column(String(100), unique=True)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SeatHolderRow(Base):
    """Which identity holds which seat of which game (one identity per seat; at most one seat
    per identity and game, checked when a seat is bound)."""

    __tablename__ = "seat_holders"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    identity_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("identities.id", ondelete="CASCADE"), index=True)
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))


IDENTITIES = IdentityRow.__table__
HOLDERS = SeatHolderRow.__table__


# -- ratings (ratings.py) ----------------------------------------------------------------------

class RatingRow(Base):
    """One player's (or bot's) rating in one game."""

    __tablename__ = "ratings"

    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    player: Mapped[str] = mapped_column(String(160), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


RATINGS = RatingRow.__table__
