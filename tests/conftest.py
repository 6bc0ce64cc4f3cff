"""The Carcassonne engine a test runs on.

Every Carcassonne test runs on both engines: the Python one (the rules reference) and the
native one. The `carcassonne_engine` fixture sets `DEFAULT_ENGINE`, the engine of every game
created without naming one (`bw.load`, `bw.replay`, `scenario.build`, the RL adapters...), so a
test written once plays on either. Tests ask for it by name (tests/carcassonne does for all of
its tests), and it is parametrised `[python]`/`[native]` here unless the test parametrises it
itself (`indirect`, see `carcassonne_engines.engine_cases`) or narrows it with
`@pytest.mark.engines("python", reason=...)`. `@pytest.mark.native_bug(reason=...)` expects the
native run to fail (strictly) for a known bug of that engine.

A native run must really be native: the fixture checks that a new game is a native state, and
that a test which creates Carcassonne games creates at least one on the native engine.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from typing import Any

import pytest

from boardwright.agents import registry as agent_registry
from boardwright.games.carcassonne import game as carcassonne_game
from boardwright.games.carcassonne import native
from carcassonne_engines import ENGINES, STATE_CLASS
from example_plugins import expose

# The shared checks of the Carcassonne tests, registered before any test module imports them,
# so that their failures show the compared values (a module imported before its registration
# is not rewritten, and which test file imports it first depends on the worker).
pytest.register_assert_rewrite("legality", "randomgames", "native_support")

# The example game of examples/goofspiel, found through its entry point by every test (installed
# by `make test`, else a generated dist-info on sys.path: tests/example_plugins.py).
EXAMPLES = expose()

# Only an install asked not to build the extension (BOARDWRIGHT_NATIVE=0) runs without it.
NATIVE_SKIPPED = os.environ.get("BOARDWRIGHT_NATIVE") == "0" and not native.AVAILABLE


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "engines(*names, reason): the Carcassonne engines the test runs on (both "
        "unless narrowed, with the reason; none: it names its engines itself)")
    config.addinivalue_line(
        "markers", "native_bug(reason): the test fails on the native engine for a known bug "
        "(strict xfail there, so the fix shows)")


def _parametrised_by_test(metafunc: pytest.Metafunc) -> bool:
    for mark in metafunc.definition.iter_markers("parametrize"):
        names = mark.args[0] if mark.args else mark.kwargs.get("argnames", "")
        if isinstance(names, str):
            names = [n.strip() for n in names.split(",")]
        if "carcassonne_engine" in names:
            return True
    return False


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "carcassonne_engine" not in metafunc.fixturenames or _parametrised_by_test(metafunc):
        return
    engines = ENGINES
    mark = metafunc.definition.get_closest_marker("engines")
    if mark is not None:
        assert mark.kwargs.get("reason"), "an engines mark says why"
        engines = mark.args
    if not engines:  # the test chooses its engines itself
        return
    bug = metafunc.definition.get_closest_marker("native_bug")
    params = [pytest.param(engine, id=engine, marks=(
        [pytest.mark.xfail(strict=True, reason=bug.kwargs["reason"])]
        if bug is not None and engine == "native" else [])) for engine in engines]
    metafunc.parametrize("carcassonne_engine", params, indirect=True)


@pytest.fixture
def carcassonne_engine(request: pytest.FixtureRequest,
                       monkeypatch: pytest.MonkeyPatch) -> Iterator[str | None]:
    """The engine of the test's Carcassonne games (None: a test of another game)."""
    engine = getattr(request, "param", None)
    if engine is None:
        yield None
        return
    if engine == "native" and NATIVE_SKIPPED:
        pytest.skip("BOARDWRIGHT_NATIVE=0: the native engine is not built")
    monkeypatch.setattr(carcassonne_game, "DEFAULT_ENGINE", engine)
    probe = carcassonne_game.CarcassonneGame(1, {"draw_order": []}).new_game(0)
    assert type(probe).__name__ == STATE_CLASS[engine], type(probe)
    chosen: list[str] = []
    game_class = carcassonne_game.CarcassonneGame
    choose = game_class.choose_engine

    def recording_choose(cls: type, name: Any = None) -> str:
        result = choose(name)
        chosen.append(result)
        return result

    monkeypatch.setattr(game_class, "choose_engine", classmethod(recording_choose))
    yield engine
    if engine == "native" and chosen:
        assert "native" in chosen, "a [native] test created only Python-engine games"


@pytest.fixture
def own_agent_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """The agent registry's tables as the test's own copies: what the test registers (or
    imports through entry points) is forgotten after it, and every other test sees the
    registrations as they were."""
    for table in ("_REGISTERED", "_UNSENDABLE", "_LOADED"):
        monkeypatch.setattr(agent_registry, table, dict(getattr(agent_registry, table)))


@pytest.fixture
def native_missing(monkeypatch: pytest.MonkeyPatch) -> str:
    """The native extension as a machine without a compiler has it: not built, with a reason."""
    reason = "the native extension is not built (no compiler at install time)"
    monkeypatch.setattr(native, "AVAILABLE", False)
    monkeypatch.setattr(native, "UNAVAILABLE_REASON", reason)
    return reason


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    """A test that does not drive the browser runs, fixtures included, with no event loop
    marked as running in this thread. The browser, started once per test process
    (tests/web/browser/conftest.py), keeps Playwright's loop marked as running in the main
    thread, where asyncio.run() would then refuse to start: that loop is set aside for the
    test and put back after it."""
    loop = asyncio._get_running_loop()
    if loop is None or "browser" in getattr(item, "fixturenames", ()):
        return (yield)
    asyncio._set_running_loop(None)
    try:
        return (yield)
    finally:
        asyncio._set_running_loop(loop)
