"""Seat tokens: secret, URL-safe, stored only as SHA-256 hashes.

A join link carries the token in its fragment (`/play/<id>#token=...`, never sent to the
server) and the page offers it as a websocket subprotocol (protocol.py), so no address the
server or a proxy logs holds it; the database keeps `sha256(token)`, so a copy of the database
does not let anyone take a seat. Comparison is constant-time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

TOKEN_BYTES = 24  # secrets.token_urlsafe(24): 32 characters, 192 bits
MAX_TOKEN_LENGTH = 128


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_game_id() -> str:
    """A game id: 12 URL-safe characters (72 random bits), not guessable."""
    return secrets.token_urlsafe(9)


def seat_for_token(token: str, hashes: Sequence[str | None]) -> int | None:
    """The seat whose stored hash matches `token`, or None. Every hash is compared (in constant
    time) so the answer's timing says nothing about which seat matched."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    digest = hash_token(token)
    found = None
    for seat, stored in enumerate(hashes):
        if stored is not None and hmac.compare_digest(digest, stored):
            found = seat
    return found
