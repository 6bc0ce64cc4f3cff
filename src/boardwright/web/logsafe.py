"""No seat token and no player's key in any log line, at any level.

Tokens do not travel in addresses (join links keep them in the fragment, the websocket offers
them as a subprotocol), but a log can still meet one: an older link's `?token=` in the access
log, the handshake headers and the ASGI scope that uvicorn and websockets print at debug and
trace level, a client that puts a token in a frame. `RedactSecrets` rewrites every record
before it is written: each place where a token follows `token=`, `token.` (the subprotocol),
or a JSON / Python `"token": ` key is replaced by `[redacted]`; so is a player's key
(identity.py) after its cookie's name, `boardwright_identity=` (the Cookie and Set-Cookie
headers that debug logs print) or `"boardwright_identity": `.

`serve` puts the filter on the handlers of uvicorn's log configuration (`log_config`), so
every record written through them is cleaned, whatever logger it came from; `create_app` also
puts it on the loggers that print requests (`redact_loggers`), for servers started another way.
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

REDACTED = "[redacted]"
# token=VALUE (query or fragment), boardwright.token.VALUE (the subprotocol), "token": "VALUE"
# and 'token': 'VALUE' (JSON, a dict's repr); a value is the token alphabet, %-escapes included.
SECRET = re.compile(r"""((?:token|boardwright_identity)(?:=|\.|["']\s*:\s*["']|%3D))"""
                    r"""[A-Za-z0-9_\-%~.]+""", re.IGNORECASE)
# The loggers that print requests, headers, scopes and frames, and our own.
LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi", "websockets",
           "websockets.server", "websockets.protocol", "boardwright", "boardwright.web")


def redact(text: str) -> str:
    """`text` with every token value replaced by [redacted]."""
    return SECRET.sub(lambda m: m.group(1) + REDACTED, text)


def _clean(value: Any) -> Any:
    """A log argument without tokens: unchanged when it holds none (so %d and friends keep
    working), else its redacted text."""
    if isinstance(value, (int, float, bool)) or value is None:
        return value
    try:
        text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    except Exception:  # noqa: BLE001 - an argument that cannot be shown is left to logging
        return value
    cleaned = redact(text)
    return value if cleaned == text else cleaned


class RedactSecrets(logging.Filter):
    """Replaces token values in a record's message, arguments and exception text. It keeps
    the record's shape (uvicorn's access formatter unpacks `args`), and never drops one."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        else:
            record.msg = _clean(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _clean(v) for k, v in record.args.items()}
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def redact_loggers(names: tuple[str, ...] = LOGGERS) -> None:
    """Put one RedactSecrets on each named logger (records logged to it directly)."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())


def uvicorn_log_config(level: str) -> dict[str, Any]:
    """uvicorn's own logging configuration with RedactSecrets on its handlers, which also
    take our loggers' and the root logger's records (so nothing bypasses the filter)."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_secrets"] = {"()": RedactSecrets}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("redact_secrets")
    loggers = config.setdefault("loggers", {})
    loggers["boardwright"] = {"handlers": ["default"], "level": level.upper(),
                              "propagate": False}
    config["root"] = {"handlers": ["default"], "level": "WARNING"}
    return config
