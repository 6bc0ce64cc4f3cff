"""The refusal of an HTTP request of the web table (lobby, summaries, replays, analyses): a
status code and a message, which the app answers as {"error": message}."""

from __future__ import annotations


class RequestError(Exception):
    """A refused HTTP request: status code and message ({"error": message})."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
