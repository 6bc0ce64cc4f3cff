"""Fixtures of the browser tests: the real web app served by uvicorn in a background thread on
a free port with a temporary SQLite file, and Debian's Chromium driven by Playwright.

The tests are marked `browser` and skipped, with the reason, when Chromium
(`/usr/bin/chromium`, or $BOARDWRIGHT_CHROMIUM) or the `playwright` package is missing. CI
installs Chromium with `apt-get install -y chromium`; Playwright's own browser downloads are
never used (`executable_path` points at the system Chromium).
"""

from __future__ import annotations

import inspect
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

from browser_helpers import ARTIFACTS, CHROMIUM, Site
from clock_helpers import ManualClock

VIEWPORT = {"width": 1400, "height": 900}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(db: Path, **overrides: Any) -> Iterator[Site]:
    """The web table on http://127.0.0.1:<free port> on the SQLite file `db`, with the test
    settings (bots in threads, tiny searches) and `overrides` of `create_app`'s parameters."""
    pytest.importorskip("fastapi", reason="the web table needs the server extra")
    uvicorn = pytest.importorskip("uvicorn", reason="the web table needs the server extra")
    try:
        from boardwright.web.app import create_app
    except ImportError as exc:  # the server is not installed or not written yet
        pytest.skip(f"boardwright.web.app.create_app is not available: {exc}")
    kwargs: dict[str, Any] = {}
    params = inspect.signature(create_app).parameters
    if "bot_mode" in params:
        kwargs["bot_mode"] = "thread"  # no process pool inside the test process
    if "hint_iterations" in params:
        kwargs["hint_iterations"] = 16  # hints from a tiny search: quick, and reproducible
    if "analysis_iterations" in params:
        kwargs["analysis_iterations"] = 48  # analyses in seconds (the pages, not the judgement)
    for setting in ("create_limit", "bot_only_games", "bot_only_seconds"):
        if setting in params:  # the tests make many games at once (the limits' own test sets them)
            kwargs[setting] = None
    app = create_app(f"sqlite:///{db}", **{**kwargs, **overrides})
    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on",
                            ws_ping_interval=None)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn-browser-tests", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the web server did not start")
        time.sleep(0.05)
    try:
        yield Site(f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        thread.join(timeout=15)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The web table on http://127.0.0.1:<free port>, on a temporary SQLite database."""
    with serving(tmp_path_factory.mktemp("web_browser") / "browser.db") as served:
        yield served


@pytest.fixture
def manual_clock_site(tmp_path: Path) -> Iterator[tuple[Site, ManualClock]]:
    """A web table of its own whose game clocks run on a `ManualClock`."""
    clock = ManualClock()
    with serving(tmp_path / "clocks.db", clock=clock) as served:
        yield served, clock


@pytest.fixture
def limited_site(tmp_path: Path) -> Iterator[Site]:
    """A web table of its own allowing each visitor one new game per minute (of a
    `ManualClock` that stands still: a refusal always says 60 s)."""
    with serving(tmp_path / "limits.db", clock=ManualClock(), create_limit=1,
                 create_window=60) as served:
        yield served


@pytest.fixture
def own_site(tmp_path: Path) -> Iterator[tuple[Site, str]]:
    """A web table of its own (a test that fills the database itself: a leaderboard of many
    games) and its database URL."""
    url = f"sqlite:///{tmp_path / 'own.db'}"
    with serving(tmp_path / "own.db") as served:
        yield served, url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright: one per test process, started by the
    first browser test (a start costs about 1.7 s of CPU). Playwright's sync API keeps its
    event loop marked as running in the main thread while it is started; the tests that do not
    drive the browser run without it (tests/conftest.py: `pytest_runtest_protocol`), so
    their asyncio.run() works."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (install it with `apt-get install -y chromium`, "
                    "or set BOARDWRIGHT_CHROMIUM)")
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="the browser tests need the `playwright` package")
    playwright = sync_api.sync_playwright().start()
    try:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"])
    except Exception as exc:  # noqa: BLE001 - a Chromium that cannot start is a skip reason
        playwright.stop()
        pytest.skip(f"Chromium at {CHROMIUM} does not start: {exc}")
    try:
        yield browser
    finally:
        browser.close()
        playwright.stop()


class PageErrors:
    """JavaScript exceptions seen by the pages of one test (a test fails on any)."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Any) -> Any:
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: {exc}"))
        return page


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """A factory of pages, each in its own browser context (own cookies, own storage)."""
    contexts = []
    errors = PageErrors()

    def make(confirm_placement: bool = False) -> Any:
        """A page; Carcassonne's confirmation of tile placements (on for players) is switched
        off unless asked for, so that one click on a space places the tile."""
        context = browser.new_context(viewport=VIEWPORT)
        context.set_default_timeout(15000)
        if not confirm_placement:
            context.add_init_script(
                "try { localStorage.setItem('boardwright.carcassonne.confirmPlacement', 'off') } catch (e) {}")
        contexts.append(context)
        return errors.watch(context.new_page())

    yield make
    for context in contexts:
        context.close()
    assert not errors.errors, "JavaScript errors:\n" + "\n".join(errors.errors)


@pytest.fixture
def page(new_page: Any) -> Any:
    return new_page()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
