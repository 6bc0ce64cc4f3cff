"""The error hierarchy: callers catch `bw.BoardwrightError` alone, so every error must be one.

Also checks that each kind of bad input raises the documented subclass, and that the messages
carry what was wrong (callers show them to users as they are).
"""

from __future__ import annotations

import inspect
import random

import pytest

import boardwright as bw
import boardwright.core.errors as errors
from boardwright.core.record import GameRecord

pytestmark = pytest.mark.usefixtures("carcassonne_engine")  # on each Carcassonne engine

ERROR_NAMES = ["BoardwrightError", "UnknownGameError", "InvalidOptionError",
               "MalformedActionError", "IllegalActionError", "GameOverError",
               "CorruptRecordError", "PluginError"]


def _error_classes() -> list[type[BaseException]]:
    return [obj for _, obj in inspect.getmembers(errors, inspect.isclass)
            if issubclass(obj, BaseException) and obj.__module__ == errors.__name__]


def test_the_documented_errors_exist() -> None:
    assert sorted(c.__name__ for c in _error_classes()) == sorted(ERROR_NAMES)


@pytest.mark.parametrize("cls", _error_classes(), ids=lambda c: c.__name__)
def test_every_error_is_a_boardwright_error(cls: type[BaseException]) -> None:
    assert issubclass(cls, bw.BoardwrightError)
    assert issubclass(cls, Exception)  # not BaseException: `except Exception` catches it


@pytest.mark.parametrize("name", ERROR_NAMES)
def test_errors_are_exported_at_the_top_level(name: str) -> None:
    assert getattr(bw, name) is getattr(errors, name)
    assert name in bw.__all__


def test_game_over_is_an_illegal_action() -> None:
    """Code that handles illegal moves also handles moves after the end."""
    assert issubclass(bw.GameOverError, bw.IllegalActionError)


def test_error_subclasses_are_distinct() -> None:
    """Malformed input, illegal moves and bad options are told apart by type."""
    distinct = [bw.UnknownGameError, bw.InvalidOptionError, bw.MalformedActionError,
                bw.IllegalActionError, bw.CorruptRecordError, bw.PluginError]
    for a in distinct:
        for b in distinct:
            if a is not b:
                assert not issubclass(a, b)


def test_illegal_action_keeps_its_reason() -> None:
    error = bw.IllegalActionError("position (3, 4) is taken")
    assert error.reason == "position (3, 4) is taken"
    assert str(error) == "position (3, 4) is taken"


def _finished_state() -> bw.State:
    state = bw.load("carcassonne", 2).new_game(2)
    rng = random.Random(2)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state


def _bad_inputs() -> list[tuple[str, type[bw.BoardwrightError], object]]:
    game = bw.load("carcassonne", 2)
    running = game.new_game(1)
    finished = _finished_state()
    return [
        ("unknown game", bw.UnknownGameError, lambda: bw.load("go", 2)),
        ("bad players", bw.InvalidOptionError, lambda: bw.load("carcassonne", 7)),
        ("bad option", bw.InvalidOptionError, lambda: bw.load("carcassonne", 2, {"x": 1})),
        ("malformed action", bw.MalformedActionError, lambda: running.apply({"type": "fly"})),
        ("malformed action object", bw.MalformedActionError, lambda: running.apply(42)),
        ("illegal action", bw.IllegalActionError, lambda: running.apply({"type": "pass"})),
        ("game over", bw.GameOverError, lambda: finished.apply({"type": "pass"})),
        ("bad action id", bw.MalformedActionError, lambda: game.action_from_id(-5)),
        ("corrupt record", bw.CorruptRecordError, lambda: GameRecord.loads("{")),
        ("bad seed", bw.BoardwrightError, lambda: game.new_game("seven")),
        ("bad viewer", bw.BoardwrightError, lambda: running.view(9)),
    ]


BAD_INPUTS = _bad_inputs()


@pytest.mark.parametrize(("label", "cls", "call"), BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_input_raises_the_documented_error(label: str, cls: type[bw.BoardwrightError],
                                               call: object) -> None:
    with pytest.raises(cls) as info:
        call()  # type: ignore[operator]
    assert isinstance(info.value, bw.BoardwrightError)
    assert str(info.value), f"{label}: the message must say what was wrong"
