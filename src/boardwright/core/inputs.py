"""Checks and copies of everything that reaches the engine from outside: option mappings, action
objects and their JSON form, record fields, seeds, and the text of saved records.

Every game goes through these helpers, so a value that could make Python itself fail (an
integer too long to print, a list nested deeper than the interpreter recurses, an object whose
methods raise) is refused in one place with a `BoardwrightError`, before any game code formats
or inspects it. Error messages show values through `short_repr`, which never fails and never
grows past a few dozen characters.
"""

from __future__ import annotations

import codecs

from boardwright.core.errors import CorruptRecordError

# -- record text ----------------------------------------------------------------------------------

def decode_record_bytes(data: bytes, source: str) -> str:
    """The text of a saved record: UTF-8 with or without a byte-order mark, or UTF-16 with one
    (what common Windows tools write). Anything else is a CorruptRecordError naming `source`."""
    if data.startswith(codecs.BOM_UTF8):
        encoding = "utf-8-sig"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    else:
        encoding = "utf-8"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise CorruptRecordError(
            f"{source} is not UTF-8 or UTF-16 text ({exc.reason} at byte {exc.start})") from None
