"""A time source the tests move by hand, for the web table's game clocks."""

from __future__ import annotations


class ManualClock:
    """A monotonic time source that stands still until a test moves it (`advance`): the game
    clocks of a server given it (`create_app(clock=...)`) read exactly the time the test set,
    however slow the machine."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
