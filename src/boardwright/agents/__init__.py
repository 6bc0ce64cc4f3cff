"""Agents, named by strings such as "random", "greedy", "mcts:iters=1000" or
"mcts:seconds=0.25,c=0.7", or by a level ("easy", "medium", "hard": levels.py) that stands
for one such string. Every agent takes a seed, so a run is reproducible. Agents of one's own
join them by `register_agent` or a `boardwright.agents` entry point (registry.py); so does
"policy:path=FILE", a trained policy file, which lives in boardwright.rl (registry.LIBRARY)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardwright.agents import registry
from boardwright.agents.base import Agent
from boardwright.agents.baselines import MCTSv1Agent, MCTSv2Agent
from boardwright.agents.greedy import GreedyAgent
from boardwright.agents.levels import LEVELS, level_agent
from boardwright.agents.mcts import MCTSAgent
from boardwright.agents.random_agent import RandomAgent
from boardwright.core.errors import InvalidOptionError

# The seat kind that is not an agent: a person decides (the terminal asks, the web table waits
# for the seat's player). Front ends share it so that a seat list means the same everywhere.
HUMAN = "human"

AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MCTSAgent,
          # named baselines: fixed settings (agents/baselines.py)
          "mcts-v1": MCTSv1Agent, "mcts-v2": MCTSv2Agent}
# Parameter names accepted in agent strings -> (constructor keyword, type).
PARAMETERS: dict[str, dict[str, tuple[str, type]]] = {
    "random": {},
    "mcts-v1": {},
    "mcts-v2": {},
    "greedy": {"depth": ("depth", int)},
    "mcts": {
        "iters": ("iterations", int), "iterations": ("iterations", int),
        "seconds": ("seconds", float), "c": ("exploration", float),
        "rollout": ("rollout_plies", int), "scale": ("value_scale", float),
        "prior": ("prior_weight", float), "widening": ("widening", float),
        "max_nodes": ("max_nodes", int), "ordered": ("ordered_expansion", int),
        "workers": ("workers", int), "root_widening": ("root_widening", float),
        "reuse": ("reuse", bool), "centered": ("centered", bool),
        "game_rollouts": ("game_rollouts", bool), "turn_leaves": ("turn_leaves", bool),
        "paired": ("paired", int), "greedy_playouts": ("greedy_playouts", bool),
        "horizon": ("horizon", int), "objective": ("objective", str),
        "distinct_priors": ("distinct_priors", bool), "race": ("race", float),
        "evaluation": ("evaluation", str),
    },
}
FLAGS = {"1": True, "true": True, "on": True, "yes": True,
         "0": False, "false": False, "off": False, "no": False}


def parse_agent_spec(spec: str) -> tuple[str, dict[str, str]]:
    """`"name:key=value,key=value"` -> (name, {key: value})."""
    name, _, rest = spec.partition(":")
    params: dict[str, str] = {}
    if rest:
        for item in rest.split(","):
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise InvalidOptionError(f"agent parameter {item!r} in {spec!r} is not key=value")
            params[key.strip()] = value.strip()
    return name.strip(), params


# Parameters for which 0 means "none": no fixed playout plies (the playout only runs on to the
# searcher's turn, if at all), no root widening (every root action considered from the start),
# no paired root (the tree search).
MAY_BE_ZERO = frozenset({"rollout", "root_widening", "paired"})


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build an agent from its name string or a level name ("hard"); unknown names or
    parameters raise an error. Names are looked up among the built-in agents, then the agents
    registered with `register_agent` or declared by installed packages (agents/registry.py)."""
    spec = level_agent(spec)
    name, params = parse_agent_spec(spec)
    if name in LEVELS:  # a level with parameters: the level already fixes them
        raise InvalidOptionError(f"the level {name!r} takes no parameters: it stands for "
                                 f"{LEVELS[name].agent!r}; write that agent string with your "
                                 "parameters instead")
    builtin = name in AGENTS
    entry = None if builtin else registry.lookup(name)
    if not builtin and entry is None:
        raise InvalidOptionError(f"unknown agent {name!r}; known: {', '.join(available_agents())}"
                                 f", or a level: {', '.join(LEVELS)}")
    if "seed" in params:
        try:
            seed = int(params.pop("seed"))
        except ValueError:
            raise InvalidOptionError(f"agent {spec!r}: seed must be an integer") from None
    known = PARAMETERS[name] if entry is None else entry.parameters
    kwargs = parse_parameters(spec, name, params, known, positive=builtin)
    if entry is None:
        return AGENTS[name](seed=seed, **kwargs)
    try:
        return entry.factory(seed=seed, **kwargs)
    except (TypeError, ValueError) as exc:  # a factory that refuses its declared parameters
        raise InvalidOptionError(f"agent {spec!r} ({entry.origin}) could not be made: "
                                 f"{type(exc).__name__}: {exc}") from None


def parse_parameters(spec: str, name: str, params: dict[str, str],
                     known: Mapping[str, tuple[str, type]], positive: bool) -> dict[str, Any]:
    """The constructor keywords of an agent string's parameters. Built-in agents' numbers must
    be positive (or 0 where `MAY_BE_ZERO`); a registered agent's are only converted."""
    kwargs: dict[str, Any] = {}
    for key, text in params.items():
        if key not in known:
            accepted = ", ".join(sorted(known)) or "none"
            raise InvalidOptionError(f"agent {name!r} has no parameter {key!r} "
                                     f"(accepted: {accepted})")
        keyword, kind = known[key]
        if kind is bool:
            if text.lower() not in FLAGS:
                raise InvalidOptionError(f"agent {spec!r}: {key} must be on/off (1/0, true/false)")
            kwargs[keyword] = FLAGS[text.lower()]
            continue
        if kind is str:
            kwargs[keyword] = text
            continue
        try:
            value = kind(text)
        except ValueError:
            noun = "an integer" if kind is int else "a number"
            raise InvalidOptionError(f"agent {spec!r}: {key} must be {noun}") from None
        if positive and key in MAY_BE_ZERO and value < 0:
            raise InvalidOptionError(f"agent {spec!r}: {key} must be 0 or more")
        if positive and key not in MAY_BE_ZERO and value <= 0:
            raise InvalidOptionError(f"agent {spec!r}: {key} must be positive")
        kwargs[keyword] = value
    return kwargs


def available_agents() -> list[str]:
    """The agent names `make_agent` knows: the built-in ones, then those registered with
    `register_agent` or declared by installed packages (listed, not imported). Levels aside."""
    return sorted(AGENTS) + [n for n in registry.registered_names() if n not in AGENTS]


register_agent = registry.register_agent


__all__ = ["Agent", "RandomAgent", "GreedyAgent", "MCTSAgent", "MCTSv1Agent", "MCTSv2Agent",
           "AGENTS", "LEVELS", "available_agents", "level_agent", "make_agent",
           "parse_agent_spec", "register_agent"]
