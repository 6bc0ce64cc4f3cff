"""Agents of one's own: `bw.register_agent`, the `boardwright.agents` entry points, and how a
call registration reaches the worker processes of a simulation (forked or spawned)."""

from __future__ import annotations

import functools
import multiprocessing
import pickle
import re

import pytest
from plugin_agents import FirstLegalAgent

import boardwright as bw
from boardwright.agents import GreedyAgent, available_agents, make_agent, registry
from boardwright.core import plugins
from boardwright.sim.parallel import run_jobs
from boardwright.sim.runner import GameJob, make_jobs, play_game

QUEENS = {"game": "queens", "players": 2, "options": {}}


def test_a_registered_agent_is_made_from_its_string_with_its_parameters() -> None:
    bw.register_agent("first", FirstLegalAgent, parameters={"last": bool})
    agent = make_agent("first:last=on,seed=3")
    assert isinstance(agent, FirstLegalAgent) and agent.last is True
    assert make_agent("first").last is False
    assert "first" in bw.available_agents() and "first" in available_agents()
    state = bw.load("queens", 2).new_game(1)
    assert agent.act(state) == state.legal_actions()[-1]


def test_declared_keywords_and_types_are_converted() -> None:
    calls = []

    def factory(seed=None, exploration=1.0, label="x", count=0):
        calls.append((seed, exploration, label, count))
        return FirstLegalAgent(seed)

    bw.register_agent("made", factory,
                      {"c": ("exploration", float), "label": str, "n": ("count", int)})
    make_agent("made:c=0.5,label=bold,n=-2", seed=9)
    assert calls == [(9, 0.5, "bold", -2)]  # no positivity rule for an agent's own numbers


@pytest.mark.parametrize("spec, message", [
    ("first:depth=2", "agent 'first' has no parameter 'depth' (accepted: last)"),
    ("first:last=maybe", "last must be on/off"),
    ("firstt", "unknown agent 'firstt'; known: greedy, mcts, mcts-v1, mcts-v2, random, first"),
    ("first:last", "is not key=value"),
])
def test_bad_strings_get_the_same_errors_as_the_built_in_agents(spec: str, message: str) -> None:
    bw.register_agent("first", FirstLegalAgent, parameters={"last": bool})
    with pytest.raises(bw.InvalidOptionError, match=re.escape(message)):
        make_agent(spec)


@pytest.mark.parametrize("args, message", [
    (("greedy", FirstLegalAgent), "taken by a built-in agent or level"),
    (("Hard", FirstLegalAgent), "taken by a built-in agent or level"),
    (("human", FirstLegalAgent), "taken by a built-in agent or level"),
    (("my:agent", FirstLegalAgent), "must be 1 to 64 letters"),
    (("", FirstLegalAgent), "must be 1 to 64 letters"),
    ((3, FirstLegalAgent), "must be 1 to 64 letters"),
    (("mine", "not callable"), "the factory must be a class or function"),
    (("mine", FirstLegalAgent, {"x": list}), "parameter 'x'"),
    (("mine", FirstLegalAgent, {"seed": int}), "parameter 'seed'"),
    (("mine", FirstLegalAgent, {"x": ("not a keyword", int)}), "parameter 'x'"),
    (("mine", FirstLegalAgent, ["last"]), "must be a mapping"),
])
def test_bad_registrations_are_refused_and_change_nothing(args: tuple, message: str) -> None:
    before = available_agents()
    with pytest.raises(bw.InvalidOptionError, match=message):
        bw.register_agent(*args)
    assert available_agents() == before


def test_registering_again_replaces_and_unregistering_forgets() -> None:
    bw.register_agent("steady", functools.partial(GreedyAgent, depth=1))
    assert make_agent("steady").depth == 1
    bw.register_agent("steady", functools.partial(GreedyAgent, depth=2))
    assert make_agent("steady").depth == 2
    registry.unregister_agent("steady")
    with pytest.raises(bw.InvalidOptionError, match="unknown agent 'steady'"):
        make_agent("steady")


def test_a_factory_that_refuses_its_parameters_is_an_invalid_option() -> None:
    bw.register_agent("strict", FirstLegalAgent, parameters={"depth": int})  # no such keyword
    with pytest.raises(bw.InvalidOptionError, match="could not be made: TypeError"):
        make_agent("strict:depth=2")


# -- entry points -------------------------------------------------------------------------------

def test_the_examples_agent_is_found_through_its_entry_point() -> None:
    assert plugins.entry_points(plugins.AGENTS_GROUP)["matcher"].value == \
        "boardwright_goofspiel.agents:MatchPrizeAgent"
    agent = make_agent("matcher:offset=1")
    assert type(agent).__name__ == "MatchPrizeAgent" and agent.offset == 1
    with pytest.raises(bw.InvalidOptionError,
                       match=r"has no parameter 'depth' \(accepted: offset\)"):
        make_agent("matcher:depth=1")
    assert registry.lookup("matcher").origin.startswith(
        "entry point 'matcher = boardwright_goofspiel.agents:MatchPrizeAgent' "
        "(boardwright.agents, distribution boardwright-goofspiel 1.0.0")


# -- worker processes ---------------------------------------------------------------------------

def test_a_job_carries_only_the_call_registrations_it_uses() -> None:
    bw.register_agent("first", FirstLegalAgent)
    bw.register_agent("other", FirstLegalAgent)
    job = make_jobs(lineup=["first", "easy"], games=1, base_seed=1, **QUEENS)[0]
    assert [entry.name for entry in job.registrations] == ["first"]
    assert GameJob("queens", 2, {}, ("random", "matcher"), 1, 0).registrations == ()
    copy = pickle.loads(pickle.dumps(job))
    assert copy.registrations[0].factory is FirstLegalAgent  # by reference, importable
    assert copy == job


def test_registered_agents_play_in_forked_workers() -> None:
    bw.register_agent("first", FirstLegalAgent, parameters={"last": bool})
    jobs = make_jobs(lineup=["first:last=on", "random"], games=4, base_seed=2, **QUEENS)
    pooled = sorted(run_jobs(jobs, workers=2), key=lambda r: r.index)
    alone = [play_game(job) for job in jobs]
    assert [r.outcome() for r in pooled] == [r.outcome() for r in alone]


def _spawned(jobs: list[GameJob]) -> list:
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.map(play_game, jobs)


def test_a_spawned_worker_receives_the_registration_with_the_job() -> None:
    """A spawned worker starts from nothing: the agent reaches it only with the job."""
    bw.register_agent("first", FirstLegalAgent, parameters={"last": bool})
    jobs = make_jobs(lineup=["first:last=on", "greedy"], games=2, base_seed=5, **QUEENS)
    assert [r.outcome() for r in _spawned(jobs)] == [play_game(job).outcome() for job in jobs]


def test_an_agent_that_cannot_be_pickled_says_so_in_a_spawned_worker() -> None:
    bw.register_agent("lam", lambda seed=None: FirstLegalAgent(seed))
    jobs = make_jobs(lineup=["lam", "random"], games=2, base_seed=5, **QUEENS)
    assert play_game(jobs[0]).decisions > 0  # in this process it plays
    assert list(run_jobs(jobs, workers=2))  # so does a forked worker, which inherits it
    with pytest.raises(bw.InvalidOptionError, match="'lam' was registered with register_agent "
                       "in the main process, but its factory .*<lambda> cannot be sent"):
        _spawned(jobs)
