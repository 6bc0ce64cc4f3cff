"""Display names of players: what a name may be, and when two names are the same.

A name is chosen by its player (no password, no e-mail: see identity.py), shown at tables, in
the lobby, in replays and on leaderboards, so it must be readable and unambiguous:

* 2 to 24 characters once normalised (Unicode NFC, spaces at the ends removed, runs of spaces
  made one);
* letters and digits of any script, plus space, "-", "_", "." and "'"; it starts with a letter
  or a digit (so no name looks like a bot's "bot:hard" or a seat's "#3");
* not one of the words the pages use for seats without a person ("bot", "spectator", ...).

Two names are the same when their `name_key`s are equal: compatibility-normalised (NFKC),
case-folded and without spaces, "-", "_", "." and "'". Names are unique under that key, so
"Ann Lee" and "ann_lee" cannot both exist. Look-alike letters of different scripts (a Latin
"a" and a Cyrillic "а") are not folded together.

Names are data, never markup: the pages insert them as text (`textContent`), so "<b>" in a
name, were it allowed, would show as those three characters.
"""

from __future__ import annotations

import re
import unicodedata

from boardwright.core.errors import BoardwrightError

MIN_LENGTH = 2
MAX_LENGTH = 24
PUNCTUATION = " -_.'"
RESERVED = frozenset({"bot", "bots", "spectator", "spectators", "nobody", "you", "human",
                      "open", "seat", "admin", "boardwright", "anonymous", "guest"})
_SPACES = re.compile(r"\s+")


class InvalidNameError(BoardwrightError):
    """A display name that is empty, too short or long, or holds a character names may not."""


LETTERS_AND_DIGITS = frozenset({"Lu", "Ll", "Lt", "Lm", "Lo", "Nd", "Mn", "Mc"})  # marks: accents


def _allowed(char: str) -> bool:
    return char in PUNCTUATION or unicodedata.category(char) in LETTERS_AND_DIGITS


def validate_name(raw: object) -> str:
    """The normalised name, or InvalidNameError saying what is wrong with `raw`."""
    if not isinstance(raw, str):
        raise InvalidNameError("a name must be a string of text")
    if len(raw) > 4 * MAX_LENGTH:
        raise InvalidNameError(f"a name has at most {MAX_LENGTH} characters, not {len(raw)}")
    name = _SPACES.sub(" ", unicodedata.normalize("NFC", raw)).strip()
    if len(name) < MIN_LENGTH:
        raise InvalidNameError(f"a name has at least {MIN_LENGTH} characters")
    if len(name) > MAX_LENGTH:
        raise InvalidNameError(f"a name has at most {MAX_LENGTH} characters, not {len(name)}")
    for char in name:
        if not _allowed(char):
            shown = char if char.isprintable() else f"U+{ord(char):04X}"
            raise InvalidNameError(f"a name may hold letters, digits, spaces and - _ . ' "
                                   f"only, not {shown!r}")
    if unicodedata.category(name[0]) not in LETTERS_AND_DIGITS - {"Mn", "Mc"}:
        raise InvalidNameError("a name starts with a letter or a digit")
    if name_key(name) in RESERVED or not name_key(name):
        raise InvalidNameError(f"{name!r} is reserved: choose another name")
    return name


def name_key(name: str) -> str:
    """What makes two names the same (unique in the database): NFKC, case-folded, without
    spaces and the allowed punctuation."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(c for c in folded if c not in PUNCTUATION)
