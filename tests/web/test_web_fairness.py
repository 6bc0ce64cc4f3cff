"""Fair under load and abuse: the creation limits per visitor (limits.py) and the bot queue in
a running server (botqueue.py).

The limits' windows run on the injected clock (`create_app(clock=ManualClock())`), never on
sleeps. The flood is made of bot-only games whose bots ("gate", registered here) decide only
when the test lets them: every start of a decision is then decided by the test, and the
order is read from the queue's record of starts, not from wall-clock times."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from clock_helpers import ManualClock
from web_helpers import TestClient, client, receive_until, seat_socket, sqlite_url

from boardwright.agents import registry
from boardwright.web.app import create_app
from boardwright.web.identity import COOKIE

WAIT = 30.0  # seconds a condition may take to come true on a slow machine (never a margin)


class Gate:
    """Bots that decide only when the test releases them (`let`), one decision per release;
    they play the first legal move."""

    def __init__(self) -> None:
        self.permits = threading.Semaphore(0)
        gate = self

        class GateAgent:
            name = "gate"

            def __init__(self, seed: int | None = None) -> None:
                pass

            def act(self, state: Any) -> Any:
                if not gate.permits.acquire(timeout=WAIT):
                    raise RuntimeError("the test never let this bot decide")
                return state.legal_actions()[0]

        self.agent = GateAgent

    def let(self, decisions: int = 1) -> None:
        self.permits.release(decisions)


@pytest.fixture
def gate(own_agent_registry: None) -> Iterator[Gate]:
    made = Gate()
    registry.register_agent("gate", made.agent)
    yield made
    made.let(10_000)  # no bot thread stays blocked after the test


def from_address(app: Any) -> Any:
    """The app, seeing each request come from the address in its `x-test-address` header
    (the test client's requests all come from one)."""

    async def asgi(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            for key, value in scope["headers"]:
                if key == b"x-test-address":
                    scope = {**scope, "client": (value.decode(), 50000)}
        await app(scope, receive, send)

    return asgi


@contextlib.contextmanager
def limited(tmp_path: Path, **settings: Any) -> Iterator[tuple[TestClient, ManualClock]]:
    clock = ManualClock()
    settings.setdefault("bot_mode", "thread")
    settings.setdefault("bot_workers", 1)
    app = create_app(sqlite_url(tmp_path), clock=clock, **settings)
    with TestClient(from_address(app)) as api:
        api.app_state = app  # the FastAPI app behind the wrapper
        yield api, clock


def post_game(api: TestClient, seats: list[str], address: str = "10.0.0.1",
              cookie: str | None = None, game: str = "queens") -> Any:
    headers = {"x-test-address": address}
    if cookie is not None:
        headers["cookie"] = f"{COOKIE}={cookie}"
    return api.post("/api/games", json={"game": game, "seats": seats}, headers=headers)


def refused(response: Any, limit: str, retry_after: int) -> str:
    assert response.status_code == 429, response.text
    body = response.json()
    assert body["limit"] == limit and body["retry_after"] == retry_after
    assert response.headers["retry-after"] == str(retry_after)
    return body["error"]


def named(api: TestClient, name: str) -> str:
    """A new named player's identity key (the cookie's value)."""
    api.cookies.clear()
    response = api.post("/api/me", json={"name": name})
    assert response.status_code == 201, response.text
    key = response.cookies[COOKIE]
    api.cookies.clear()
    return key


# -- the creation limits ---------------------------------------------------------------------------

def test_an_address_may_create_so_many_games_per_window_then_waits(tmp_path: Path) -> None:
    with limited(tmp_path, create_limit=2, create_window=60) as (api, clock):
        for _ in range(2):
            assert post_game(api, ["human", "human"]).status_code == 201
        clock.advance(20)
        message = refused(post_game(api, ["human", "greedy"]), "games_per_window", 40)
        assert message == ("too many new games: this server allows 2 per 60 seconds for each "
                           "visitor; try again in 40 s")
        assert post_game(api, ["human", "human"], address="10.0.0.2").status_code == 201
        assert len(api.get("/api/games").json()) == 3  # the refusal created nothing
        clock.advance(39.5)
        refused(post_game(api, ["human", "human"]), "games_per_window", 1)
        clock.advance(0.5)  # the first two games leave the window
        for _ in range(2):
            assert post_game(api, ["human", "human"]).status_code == 201
        refused(post_game(api, ["human", "human"]), "games_per_window", 60)


def test_a_named_player_has_a_budget_of_their_own_wherever_they_come_from(
        tmp_path: Path) -> None:
    with limited(tmp_path, create_limit=1, create_window=60) as (api, clock):
        ada, bob = named(api, "Ada"), named(api, "Bob")
        assert post_game(api, ["human", "human"], cookie=ada).status_code == 201
        refused(post_game(api, ["human", "human"], cookie=ada, address="10.9.9.9"),
                "games_per_window", 60)  # another address does not help Ada
        assert post_game(api, ["human", "human"], cookie=bob).status_code == 201
        assert post_game(api, ["human", "human"]).status_code == 201  # the address, anonymous
        # a cookie that is nobody's key counts for the address, whose budget is spent
        refused(post_game(api, ["human", "human"], cookie="forged"), "games_per_window", 60)
        clock.advance(60)
        assert post_game(api, ["human", "human"], cookie=ada).status_code == 201


def test_bad_requests_and_refused_games_count_for_nothing(tmp_path: Path) -> None:
    with limited(tmp_path, create_limit=1) as (api, _clock):
        assert post_game(api, ["human", "nobody"]).status_code == 400
        assert post_game(api, ["human", "human"], game="nosuchgame").status_code == 400
        assert post_game(api, ["human", "human"]).status_code == 201


def test_bot_only_games_in_play_are_capped_per_visitor(tmp_path: Path, gate: Gate) -> None:
    with limited(tmp_path, agents=["gate"], bot_only_games=2, create_limit=None) as (api, _):
        games = [post_game(api, ["gate", "gate"], game="goofspiel").json()["id"]
                 for _ in range(2)]
        message = refused(post_game(api, ["gate", "random"], game="goofspiel"),
                          "bot_only_games", 30)
        assert message == ("too many bot-only games in play: this server allows 2 at a time "
                           "for each visitor; try again when one of yours has finished (in "
                           "about 30 s)")
        assert post_game(api, ["human", "gate"]).status_code == 201  # a game to play: welcome
        assert post_game(api, ["gate", "gate"], address="10.0.0.2").status_code == 201
        gate.let(1000)  # the bots play on: the games finish
        wait_until(lambda: all(api.get(f"/api/games/{g}").json()["status"] == "finished"
                               for g in games))
        assert post_game(api, ["gate", "gate"]).status_code == 201


def test_the_default_limits_and_the_serve_options(tmp_path: Path, monkeypatch) -> None:
    """`create_app` limits by default (20 games a minute, 3 bot-only games, 0.5 s per
    bot-only decision); `boardwright serve` passes its options on, 0 meaning none."""
    import uvicorn
    from typer.testing import CliRunner

    from boardwright.cli import app as cli

    manager = create_app(sqlite_url(tmp_path, "d.db")).state.manager
    assert (manager.limits.settings.games, manager.limits.settings.window,
            manager.limits.settings.bot_only) == (20, 60.0, 3)
    assert manager.bot_driver.bot_only_seconds == 0.5
    served: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda application, **kw: served.update(app=application))
    db = f"sqlite:///{tmp_path / 'x.db'}"
    result = CliRunner().invoke(cli, ["serve", "--db", db, "--create-limit", "5",
                                      "--create-window", "10", "--bot-only-games", "0",
                                      "--bot-only-seconds", "0.25"])
    assert result.exit_code == 0, result.output
    manager = served["app"].state.manager
    assert (manager.limits.settings.games, manager.limits.settings.window,
            manager.limits.settings.bot_only) == (5, 10.0, None)
    assert manager.bot_driver.bot_only_seconds == 0.25
    for args, message in ((["--create-limit", "-1"], "--create-limit must be 0"),
                          (["--create-window", "0"], "--create-window must be more than 0"),
                          (["--bot-only-games", "-2"], "--bot-only-games must be 0"),
                          (["--bot-only-seconds", "11"], "--bot-only-seconds must be from 0")):
        result = CliRunner().invoke(cli, ["serve", "--db", db, *args])
        assert result.exit_code == 2 and message in " ".join(result.output.split())


# -- the bot queue in a running server --------------------------------------------------------------

def wait_until(condition: Callable[[], bool]) -> None:
    """Until `condition` holds (the server works in its own thread); fails after WAIT."""
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the server did not get there")
        time.sleep(0.01)


def test_a_flood_of_bot_only_games_does_not_delay_a_players_bot(tmp_path: Path,
                                                                  gate: Gate) -> None:
    """Two visitors fill the two workers and the queue with as many bot-only games as the cap
    allows; the bot of a player's game still decides at the next free worker, before all of
    them, and then every bot-only game advances once before any advances twice."""
    with limited(tmp_path, agents=["gate"], bot_workers=2, bot_only_games=3,
                 create_limit=None) as (api, _clock):
        queue = api.app_state.state.manager.bot_queue
        flood = []
        for address in ("10.0.0.1", "10.0.0.2"):
            for _ in range(3):
                flood.append(post_game(api, ["gate", "gate"], address=address).json()["id"])
            refused(post_game(api, ["gate", "gate"], address=address), "bot_only_games", 30)
        wait_until(lambda: queue.running == 2 and len(queue.waiting()) == 4)
        assert {key for key, _ in queue.history} | {k for k, _ in queue.waiting()} == set(flood)
        mine = post_game(api, ["greedy", "human"], address="10.0.0.3").json()
        with seat_socket(api, mine, 1) as ws:  # the player sits down: the bot is to move
            receive_until(ws, lambda f: f["type"] == "state")  # sent once the seat is in
            wait_until(lambda: len(queue.waiting()) == 5)
            assert queue.waiting()[0] == (mine["id"], True)
            started = len(queue.history)
            gate.let(1)  # one bot-only decision ends: the worker goes to the player's bot
            frame = receive_until(ws, lambda f: f["type"] == "state" and f["step"] == 1)
            assert queue.history[started] == (mine["id"], True)
            assert frame["current_player"] == 1 and frame["last_action"]["seat"] == 0
        # the worker the player's bot left went to the next bot-only game; then six more
        # decisions end one by one. Which of the two running bots takes a release is the
        # threads' affair; the queue's is that the freed worker goes to the game that has
        # waited longest, and that a game whose decision ended waits behind all the others
        def settled(starts: int) -> Callable[[], bool]:
            return lambda: (queue.stats()["started_other"] == starts and queue.running == 2
                            and len(queue.waiting()) == 4)

        wait_until(settled(3))
        for round_start in range(4, 10):
            longest = queue.waiting()[0]
            gate.let(1)
            wait_until(settled(round_start))
            assert queue.history[-1] == longest
        others = [key for key, urgent in queue.history if not urgent]
        assert len(others) == 9 and [key for key, urgent in queue.history if urgent] == \
            [mine["id"]]
        # the first six starts: every game once (the two started at creation and the four that
        # waited, behind which every game whose decision ended was queued again)
        assert sorted(others[:6]) == sorted(flood)


def test_a_bot_only_games_bot_searches_within_the_budget(tmp_path: Path) -> None:
    """The hard level in a bot-only game decides in half a second, not one; against a
    player it keeps its full second."""
    from boardwright.web.botdriver import BotDriver
    from boardwright.web.botqueue import budgeted

    assert budgeted("mcts:seconds=1", 0.5) == "mcts:seconds=0.5"
    with client(sqlite_url(tmp_path), bot_only_seconds=0.5, bot_delay=3600) as api:
        manager = api.app.state.manager
        jobs: list[Any] = []
        real = manager.bot_queue.run

        async def spy(key: str, urgent: bool, function: Any, job: Any) -> Any:
            jobs.append(job)
            return await real(key, urgent, function, job)

        manager.bot_queue.run = spy
        assert isinstance(manager.bot_driver, BotDriver)
        both = post_game(api, ["hard", "hard"]).json()
        wait_until(lambda: len(jobs) >= 1)
        versus = post_game(api, ["hard", "human"]).json()
        wait_until(lambda: len(jobs) >= 2)
        agents = {job.game_id: job.agent for job in jobs}
        assert agents == {both["id"]: "mcts:seconds=0.5", versus["id"]: "mcts:seconds=1"}


def test_a_game_that_could_not_be_saved_counts_for_nothing() -> None:
    """An admission is counted at once (two requests cannot both take the last place), and
    given back when the game is not saved."""
    from boardwright.web.limits import CreationLimits, LimitSettings, TooManyRequests

    clock = ManualClock()
    playing: set[str] = set()
    limits = CreationLimits(LimitSettings(games=2, window=60, bot_only=1), clock,
                            playing.__contains__)
    first = limits.admit("v", bot_only=True)
    with pytest.raises(TooManyRequests, match="bot-only"):
        limits.admit("v", bot_only=True)  # the first is not saved yet, and already counts
    first.cancel()
    second = limits.admit("v", bot_only=True)
    second.confirm("g1")
    playing.add("g1")
    limits.admit("v", bot_only=False).confirm("g2")
    with pytest.raises(TooManyRequests, match="per 60 seconds") as refusal:
        limits.check("v")
    assert refusal.value.retry_after == 60
    clock.advance(60)
    playing.clear()  # g1 finished, the window has passed
    limits.admit("v", bot_only=True).confirm("g3")
    clock.advance(600)
    limits.check("w")  # a sweep: g3 is over, v's games left the window: v is forgotten
    assert "v" not in limits._visitors
