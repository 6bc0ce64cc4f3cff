"""The bot queue (web/botqueue.py) on its own: the order in which waiting work gets a worker,
counted in starts, never in time. A fake pool holds each piece of work until the test lets it
finish, so every step is decided by the test."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from boardwright.agents import make_agent
from boardwright.web.botqueue import BotQueue, budgeted


class HeldPool:
    """A pool whose work finishes only when the test says so (`finish`)."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.gates: dict[str, asyncio.Event] = {}

    async def run(self, function: Any, job: Any) -> Any:
        self.started.append(job)
        gate = self.gates[job] = asyncio.Event()
        await gate.wait()
        return function(job)

    def finish(self, job: str) -> None:
        self.gates[job].set()


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


def submit(queue: BotQueue, game: str, urgent: bool, job: str) -> asyncio.Task[Any]:
    return asyncio.create_task(queue.run(game, urgent, str.upper, job))


async def drain(pool: HeldPool, queue: BotQueue, count: int) -> list[str]:
    """Finish the oldest running piece `count` times; the jobs started meanwhile, in order."""
    seen = len(pool.started)
    for _ in range(count):
        running = [j for j in pool.started if not pool.gates[j].is_set()]
        pool.finish(running[0])
        await settle()
    return pool.started[seen:]


def test_work_waiting_for_a_player_starts_before_the_bot_only_games() -> None:
    async def scenario() -> None:
        pool = HeldPool()
        queue = BotQueue(pool, slots=2)
        tasks = [submit(queue, f"bots{n}", False, f"bots{n}-1") for n in range(6)]
        await settle()
        assert pool.started == ["bots0-1", "bots1-1"]  # the two workers, no more
        tasks.append(submit(queue, "human", True, "human-1"))
        await settle()
        assert queue.waiting()[0] == ("human", True)
        assert await drain(pool, queue, 1) == ["human-1"]  # the next worker free: the player's
        assert await drain(pool, queue, 5) == ["bots2-1", "bots3-1", "bots4-1", "bots5-1"]
        await drain(pool, queue, 1)  # the last one
        results = await asyncio.gather(*tasks)
        assert results[-1] == "HUMAN-1"
        assert queue.running == 0 and queue.stats()["started_urgent"] == 1

    asyncio.run(scenario())


def test_the_other_games_take_turns_round_robin() -> None:
    """A game that comes back with a new decision waits for every other game's turn."""

    async def scenario() -> None:
        pool = HeldPool()
        queue = BotQueue(pool, slots=1)
        first = submit(queue, "a", False, "a1")
        await settle()
        for job in ("a2", "a3"):  # game a asks again and again (as several hints could)
            submit(queue, "a", False, job)
        for game in "bcd":
            submit(queue, game, False, f"{game}1")
        await settle()
        assert [k for k, _ in queue.waiting()] == ["a", "b", "c", "d", "a"]
        assert await drain(pool, queue, 6) == ["a2", "b1", "c1", "d1", "a3"]
        assert await first == "A1"

    asyncio.run(scenario())


def test_no_game_starves_while_urgent_work_keeps_coming() -> None:
    """Urgent work that never stops still leaves one start in share + 1 to the others."""

    async def scenario() -> None:
        pool = HeldPool()
        queue = BotQueue(pool, slots=1, share=3)
        submit(queue, "busy", True, "u0")
        await settle()
        submit(queue, "bots", False, "b1")
        count = 0
        for _ in range(8):
            count += 1
            submit(queue, f"human{count}", True, f"u{count}")
            await settle()
            await drain(pool, queue, 1)
        order = [j[0] for j in pool.started]
        assert order[:6] == ["u", "u", "u", "u", "b", "u"]  # after three urgent starts in a row
        assert pool.started.count("b1") == 1

    asyncio.run(scenario())


def test_a_player_who_connects_makes_the_waiting_decision_urgent() -> None:
    async def scenario() -> None:
        pool = HeldPool()
        queue = BotQueue(pool, slots=1)
        submit(queue, "x", False, "x1")
        await settle()
        for game in ("y", "z", "later"):
            submit(queue, game, False, f"{game}1")
        await settle()
        queue.promote("later")
        queue.promote("nothing-waits")  # no effect
        assert queue.waiting() == [("later", True), ("y", False), ("z", False)]
        assert await drain(pool, queue, 1) == ["later1"]

    asyncio.run(scenario())


def test_cancelled_work_leaves_the_queue_and_gives_back_its_turn() -> None:
    async def scenario() -> None:
        pool = HeldPool()
        queue = BotQueue(pool, slots=1)
        submit(queue, "a", False, "a1")
        await settle()
        gone = submit(queue, "b", False, "b1")
        submit(queue, "c", False, "c1")
        await settle()
        gone.cancel()  # the game was undone or the server stops
        await settle()
        assert queue.waiting() == [("c", False)]
        assert await drain(pool, queue, 1) == ["c1"]
        assert queue.running == 1
        await drain(pool, queue, 1)
        assert queue.running == 0 and queue.waiting() == []

    asyncio.run(scenario())


def test_a_refusal_of_the_pool_frees_the_slot() -> None:
    class FailingPool:
        async def run(self, function: Any, job: Any) -> Any:
            raise RuntimeError("worker died")

    async def scenario() -> None:
        queue = BotQueue(FailingPool(), slots=1)
        for _ in range(3):
            with pytest.raises(RuntimeError):
                await queue.run("g", True, str.upper, "x")
        assert queue.running == 0

    asyncio.run(scenario())


@pytest.mark.parametrize("agent, budget, expected", [
    ("mcts:seconds=1", 0.5, "mcts:seconds=0.5"),
    ("mcts:seconds=0.25", 0.5, "mcts:seconds=0.25"),
    ("mcts:iters=200000,c=0.7", 0.5, "mcts:iters=200000,c=0.7,seconds=0.5"),
    ("mcts:seconds=10,c=0.7", 0.25, "mcts:seconds=0.25,c=0.7"),
    ("greedy:depth=1", 0.5, "greedy:depth=1"),
    ("random", 0.5, "random"),
    ("mcts:seconds=1", None, "mcts:seconds=1"),
])
def test_bot_only_decisions_search_within_the_budget(agent, budget, expected) -> None:
    assert budgeted(agent, budget) == expected
    made = make_agent(budgeted(agent, budget), seed=0)  # still an agent string that works
    if agent.startswith("mcts") and budget is not None:
        assert made.config.seconds <= budget


def test_the_queue_needs_a_slot() -> None:
    with pytest.raises(ValueError):
        BotQueue(HeldPool(), slots=0)
