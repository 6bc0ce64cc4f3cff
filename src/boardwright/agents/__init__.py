"""Agents, named by strings such as "random" or "random:seed=3"."""

from __future__ import annotations

from boardwright.agents.base import Agent
from boardwright.agents.random_agent import RandomAgent
from boardwright.core.errors import InvalidOptionError

AGENTS = {"random": RandomAgent}


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


def make_agent(spec: str, seed: int | None = None) -> Agent:
    """Build an agent from its name string; unknown names or parameters raise an error."""
    name, params = parse_agent_spec(spec)
    if name not in AGENTS:
        raise InvalidOptionError(f"unknown agent {name!r}; known: {', '.join(sorted(AGENTS))}")
    if "seed" in params:
        try:
            seed = int(params.pop("seed"))
        except ValueError:
            raise InvalidOptionError(f"agent {spec!r}: seed must be an integer") from None
    if params:
        raise InvalidOptionError(f"agent {name!r} takes no parameter(s) {', '.join(params)}")
    return AGENTS[name](seed=seed)


__all__ = ["Agent", "RandomAgent", "AGENTS", "make_agent", "parse_agent_spec"]
