"""The error hierarchy: every bad input raises a subclass of BoardwrightError.

Callers (CLI, server, agents) catch BoardwrightError alone and show its message, which always
names what was wrong. Raising never leaves a state half-changed: engines validate before they
mutate.
"""

from __future__ import annotations


MAX_MESSAGE = 1000  # characters: a message is read by people and written to logs


def _cut(message: str) -> str:
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE - 1] + "…"


class BoardwrightError(Exception):
    """Base class of every error the engine raises on purpose.

    A message longer than MAX_MESSAGE characters is cut: it may quote what a caller sent, and
    no input should make an error message the size of the input."""

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], str):
            args = (_cut(args[0]),)
        super().__init__(*args)


class UnknownGameError(BoardwrightError):
    """A game name that is not in the registry."""


class InvalidOptionError(BoardwrightError):
    """An unknown option key, a bad option value or an unsupported player count."""


class MalformedActionError(BoardwrightError):
    """An action that cannot be parsed (bad JSON, missing field, wrong type, unknown id)."""


class IllegalActionError(BoardwrightError):
    """A well-formed action that the rules do not allow in the current state."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = self.args[0] if self.args else reason


class GameOverError(IllegalActionError):
    """An action applied to a finished game."""


class CorruptRecordError(BoardwrightError):
    """A game record that cannot be read or does not replay."""


class PluginError(BoardwrightError):
    """An installed plugin (an entry point of the `boardwright.games` or `boardwright.agents`
    group) that cannot be loaded, or that loads as something it should not be. The message names
    the entry point and its distribution, so the user knows which package to fix or remove."""
