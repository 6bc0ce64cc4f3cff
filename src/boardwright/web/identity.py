"""Players without passwords: a display name bound to a private key kept in the browser.

The first time a player chooses a name (`POST /api/me`), the server makes a random key
(`secrets.token_urlsafe(32)`, 256 bits) and sets it as an HTTP-only cookie (SameSite=Lax,
Secure over https, sent back only to this site, never readable by the pages' scripts). The
database keeps `sha256(key)` only, like the seat tokens (tokens.py): a copy of the database
does not let anyone act as a player. Whoever holds the cookie is that player: every tab and
window of that browser profile, and no other browser unless the cookie is copied. There are no
passwords and no recovery: a lost cookie (cleared cookies, another browser) is a lost identity,
and its name stays taken (names are unique, names.py).

An identity has a public id (random, 12 characters; it appears in game rows and seat lists,
never as proof of anything) and a name. The seats it holds are listed in `seat_holders`, so
"my games" is one indexed query.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from boardwright.core.errors import BoardwrightError
from boardwright.web.names import name_key, validate_name
from boardwright.web.schema import HOLDERS, IDENTITIES
from boardwright.web.storage import Storage, now
from boardwright.web.tokens import hash_token

COOKIE = "boardwright_identity"
KEY_BYTES = 32  # secrets.token_urlsafe(32): 43 characters
MAX_KEY_LENGTH = 128
# Chromium keeps a cookie at most 400 days; each visit of the lobby renews it (GET /api/me).
COOKIE_MAX_AGE = 400 * 24 * 3600


class NameTakenError(BoardwrightError):
    """The name (or one equal to it under `names.name_key`) belongs to another player."""




@dataclass(frozen=True)
class Identity:
    """A player as the server knows them: public id and display name."""

    id: str
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name}


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def clean_key(key: object) -> str | None:
    """`key` when it could be a key (a short string), else None: nothing else is hashed."""
    if not isinstance(key, str) or not key or len(key) > MAX_KEY_LENGTH:
        return None
    return key


def same_origin(headers: Any) -> bool:
    """Whether a request that would act with the identity cookie comes from our own pages: a
    browser sends `Origin` with every websocket handshake and every POST, and it must name
    this host. SameSite=Lax already keeps the cookie out of other sites' requests; this also
    refuses other origins of the same site (another port of the same host)."""
    origin = headers.get("origin")
    if origin is None:  # not a browser's cross-origin request (curl, the test client)
        return True
    host = headers.get("host")
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(host) and hmac.compare_digest(netloc.lower(), host.lower())


def set_cookie(response: Any, key: str, secure: bool) -> None:
    response.set_cookie(COOKIE, key, max_age=COOKIE_MAX_AGE, path="/", httponly=True,
                        samesite="lax", secure=secure)


class IdentityStore:
    """Synchronous repository of identities and seat holders (called from threads)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    @property
    def engine(self) -> Any:
        return self.storage.engine

    def by_key(self, key: object) -> Identity | None:
        """The identity whose key this is, or None (no such key, or not a key at all)."""
        key = clean_key(key)
        if key is None:
            return None
        digest = hash_token(key)
        with self.engine.connect() as connection:
            row = connection.execute(
                select(IDENTITIES.c.id, IDENTITIES.c.name, IDENTITIES.c.key_hash)
                .where(IDENTITIES.c.key_hash == digest)).first()
        if row is None or not hmac.compare_digest(row.key_hash, digest):
            return None
        return Identity(row.id, row.name)

    def get(self, identity_id: str) -> Identity | None:
        with self.engine.connect() as connection:
            row = connection.execute(select(IDENTITIES.c.id, IDENTITIES.c.name)
                                     .where(IDENTITIES.c.id == identity_id)).first()
        return None if row is None else Identity(row.id, row.name)

    def create(self, raw_name: object) -> tuple[Identity, str]:
        """A new identity with this name, and its key (given once: only its hash is kept)."""
        name = validate_name(raw_name)
        key = new_key()
        identity = Identity(secrets.token_urlsafe(9), name)
        stamp = now()
        try:
            with self.engine.begin() as connection:
                self._check_free(connection, name, None)
                connection.execute(IDENTITIES.insert(), [{
                    "id": identity.id, "key_hash": hash_token(key), "name": name,
                    "name_key": name_key(name), "created": stamp, "updated": stamp}])
        except IntegrityError:
            raise NameTakenError(f"the name {name!r} is taken: choose another") from None
        return identity, key

    def rename(self, identity: Identity, raw_name: object) -> Identity:
        """The identity with its new name (seats taken before keep the name they were taken
        with; the leaderboard shows the new one)."""
        name = validate_name(raw_name)
        try:
            with self.engine.begin() as connection:
                self._check_free(connection, name, identity.id)
                connection.execute(update(IDENTITIES).where(IDENTITIES.c.id == identity.id)
                                   .values(name=name, name_key=name_key(name), updated=now()))
        except IntegrityError:
            raise NameTakenError(f"the name {name!r} is taken: choose another") from None
        return Identity(identity.id, name)

    @staticmethod
    def _check_free(connection: Any, name: str, mine: str | None) -> None:
        owner = connection.execute(select(IDENTITIES.c.id)
                                   .where(IDENTITIES.c.name_key == name_key(name))).scalar()
        if owner is not None and owner != mine:
            raise NameTakenError(f"the name {name!r} is taken: choose another")

    def names(self, ids: list[str]) -> dict[str, str]:
        """Current names of these identities."""
        if not ids:
            return {}
        with self.engine.connect() as connection:
            rows = connection.execute(select(IDENTITIES.c.id, IDENTITIES.c.name)
                                      .where(IDENTITIES.c.id.in_(sorted(set(ids))))).all()
        return {row.id: row.name for row in rows}

    def seats_of(self, identity_id: str, limit: int = 200) -> list[tuple[str, int]]:
        """(game id, seat) of the seats this identity holds, the most recently taken first."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(HOLDERS.c.game_id, HOLDERS.c.seat)
                .where(HOLDERS.c.identity_id == identity_id)
                .order_by(HOLDERS.c.since.desc()).limit(limit)).all()
        return [(row.game_id, row.seat) for row in rows]


def game_summaries(storage: Storage, game_ids: list[str]) -> dict[str, dict[str, Any]]:
    """The rows of these games without their records (what a listing needs), by id."""
    table = storage.table
    columns = [c for c in table.columns if c.name != "record"]
    if not game_ids:
        return {}
    with storage.engine.connect() as connection:
        rows = connection.execute(select(*columns).where(table.c.id.in_(game_ids))).mappings().all()
    return {row["id"]: dict(row) for row in rows}


def hold_seat(connection: Any, game_id: str, seat: int, identity_id: str) -> None:
    """Record that `identity_id` holds `seat` of `game_id` (inside the caller's transaction)."""
    connection.execute(HOLDERS.insert(), [{"game_id": game_id, "seat": seat,
                                            "identity_id": identity_id, "since": now()}])
