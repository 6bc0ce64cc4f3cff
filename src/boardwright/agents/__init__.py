"""Agents, named by strings such as "random", "greedy", "mcts:iters=1000" or
"mcts:seconds=0.25,c=0.7", or by a level ("easy", "medium", "hard": levels.py) that stands
for one such string. Every agent takes a seed, so a run is reproducible."""

from __future__ import annotations

from boardwright.agents.base import Agent
from boardwright.agents.baselines import MCTSv1Agent
from boardwright.agents.greedy import GreedyAgent
from boardwright.agents.levels import LEVELS, level_agent
from boardwright.agents.mcts import MCTSAgent
from boardwright.agents.random_agent import RandomAgent
from boardwright.core.errors import InvalidOptionError

# The seat kind that is not an agent: a person decides (the terminal asks, the web table waits
# for the seat's player). Front ends share it so that a seat list means the same everywhere.
HUMAN = "human"

AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MCTSAgent,
          "mcts-v1": MCTSv1Agent}  # a named baseline: fixed settings (agents/baselines.py)
# Parameter names accepted in agent strings -> (constructor keyword, type).
PARAMETERS: dict[str, dict[str, tuple[str, type]]] = {
    "random": {},
    "mcts-v1": {},
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
        "horizon": ("horizon", int),
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
    parameters raise an error."""
    spec = level_agent(spec)
    name, params = parse_agent_spec(spec)
    if name in LEVELS:  # a level with parameters: the level already fixes them
        raise InvalidOptionError(f"the level {name!r} takes no parameters: it stands for "
                                 f"{LEVELS[name].agent!r}; write that agent string with your "
                                 "parameters instead")
    if name not in AGENTS:
        raise InvalidOptionError(f"unknown agent {name!r}; known: {', '.join(sorted(AGENTS))}, "
                                 f"or a level: {', '.join(LEVELS)}")
    if "seed" in params:
        try:
            seed = int(params.pop("seed"))
        except ValueError:
            raise InvalidOptionError(f"agent {spec!r}: seed must be an integer") from None
    known = PARAMETERS[name]
    kwargs = {}
    for key, text in params.items():
        if key not in known:
            accepted = ", ".join(sorted(known)) or "none"
            raise InvalidOptionError(f"agent {name!r} has no parameter {key!r} (accepted: {accepted})")
        keyword, kind = known[key]
        if kind is bool:
            if text.lower() not in FLAGS:
                raise InvalidOptionError(f"agent {spec!r}: {key} must be on/off (1/0, true/false)")
            kwargs[keyword] = FLAGS[text.lower()]
            continue
        try:
            value = kind(text)
        except ValueError:
            noun = "an integer" if kind is int else "a number"
            raise InvalidOptionError(f"agent {spec!r}: {key} must be {noun}") from None
        if key in MAY_BE_ZERO and value < 0:
            raise InvalidOptionError(f"agent {spec!r}: {key} must be 0 or more")
        if key not in MAY_BE_ZERO and value <= 0:
            raise InvalidOptionError(f"agent {spec!r}: {key} must be positive")
        kwargs[keyword] = value
    return AGENTS[name](seed=seed, **kwargs)


__all__ = ["Agent", "RandomAgent", "GreedyAgent", "MCTSAgent", "MCTSv1Agent", "AGENTS", "LEVELS",
           "level_agent", "make_agent", "parse_agent_spec"]
