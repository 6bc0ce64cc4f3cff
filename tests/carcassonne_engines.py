"""The Carcassonne engines the tests run on, shared by every test folder.

A test's engine is `DEFAULT_ENGINE` while it runs (the `carcassonne_engine` fixture of
tests/conftest.py sets it), so anything a test caches (games, positions) is cached per engine,
or a `[native]` test would reuse the Python engine's.
"""

from __future__ import annotations

import random
from functools import lru_cache, wraps
from typing import Any, Callable, Iterable, TypeVar

import pytest

import boardwright as bw
from boardwright.games.carcassonne import game as carcassonne_game

ENGINES = ("python", "native")
STATE_CLASS = {"python": "CarcassonneState", "native": "NativeCarcassonneState"}

F = TypeVar("F", bound=Callable[..., Any])


def current_engine() -> str:
    """The engine of Carcassonne games created now without naming one."""
    return carcassonne_game.CarcassonneGame.default_engine()


def per_engine_cache(maxsize: int | None = None) -> Callable[[F], F]:
    """`lru_cache`, with the current engine as part of the key."""
    def decorate(function: F) -> F:
        cached = lru_cache(maxsize=maxsize)(lambda engine, *args: function(*args))

        @wraps(function)
        def wrapper(*args: Any) -> Any:
            return cached(current_engine(), *args)
        return wrapper  # type: ignore[return-value]
    return decorate


def engine_cases(names: Iterable[str]) -> list[Any]:
    """Parameters `(name, carcassonne_engine)` for a test over several games (or game
    families): a Carcassonne one on each engine, any other once. Use with
    `indirect=["carcassonne_engine"]`."""
    cases = []
    for name in names:
        if "carcassonne" in name.lower():
            cases.extend(pytest.param(name, engine, id=f"{name}-{engine}") for engine in ENGINES)
        else:
            cases.append(pytest.param(name, None, id=name))
    return cases


def alternating(batches: Iterable[Any]) -> list[Any]:
    """Parameters `(carcassonne_engine, batch)` taking the engines in turn: for the slowest
    property tests, whose thousands of games are shared between the engines instead of played
    twice (the differential test checks that the engines agree at every step)."""
    return [pytest.param(ENGINES[i % len(ENGINES)], batch, id=f"{ENGINES[i % len(ENGINES)]}-{batch}")
            for i, batch in enumerate(batches)]


def over_games(argname: str, names: Iterable[str]) -> Callable[[F], F]:
    """`parametrize(argname, names)`, Carcassonne ones on each engine (`engine_cases`)."""
    parametrize = pytest.mark.parametrize(f"{argname}, carcassonne_engine", engine_cases(names),
                                          indirect=["carcassonne_engine"])
    uses = pytest.mark.usefixtures("carcassonne_engine")  # (the test need not name it)

    def decorate(test: F) -> F:
        return parametrize(uses(test))  # type: ignore[no-any-return]
    return decorate


ABBEY_MAYOR = {"expansions": ["abbey_mayor"]}


def played_position(engine: str, players: int = 2, plies: int = 24) -> Any:
    """Deal 5 of Carcassonne with Abbey & Mayor after `plies` uniformly random moves (seed 5)
    on `engine`: the one mid-game position the agents' tests search from."""
    state = bw.load("carcassonne", players, ABBEY_MAYOR, engine=engine).new_game(5)
    rng = random.Random(5)
    for _ in range(plies):
        state.apply(rng.choice(state.legal_actions()))
    return state
