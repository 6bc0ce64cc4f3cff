"""Agents beyond the built-in ones: registered by a call, or declared by an installed package.

    import boardwright as bw
    bw.register_agent("lookahead", LookaheadAgent, parameters={"samples": int})
    agent = make_agent("lookahead:samples=8", seed=1)

or, in a package's pyproject.toml (found without importing it, imported on first use):

    [project.entry-points."boardwright.agents"]
    matcher = "boardwright_goofspiel.agents:MatchPrizeAgent"

A factory is called as `factory(seed=seed, **parameters)` and returns an object with `name` and
`act(state) -> action`, like the built-in agents. Its parameters are declared as a mapping from
the name used in agent strings to a type (int, float, bool or str), or to (keyword, type) when
the constructor's keyword differs; an entry point's class declares them in a `parameters`
class attribute. `make_agent` parses the strings of these agents exactly as it parses the
built-in ones, with the same errors for unknown names and parameters.

Worker processes. A simulation or a web table builds its agents in other processes, from their
strings. An entry-point agent is found there as here (the package is installed). An agent
registered by a call exists only in the process that made the call, so the registrations a job
uses travel with it (`registrations_for`, `install`): pickled with the job, they reach a forked,
spawned or forkserver worker, and a Ray task. Pickling sends a class or function *by reference*
(its module and name), so for a spawned worker the factory must be defined at the top level of a
module the worker can import (the main script counts: multiprocessing re-imports it; Ray sends
`__main__` definitions by value). A lambda or a local function cannot be pickled: it still works
in forked workers, which inherit the registration, and anywhere else `make_agent` says why it
is missing.
"""

from __future__ import annotations

import pickle
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from boardwright.core import plugins
from boardwright.core.errors import InvalidOptionError, PluginError
from boardwright.core.inputs import short_repr

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,63}")
# Agents the library itself provides from a part that sits above this package: `policy` (a
# trained policy file) reads positions through boardwright.rl, whose environments make agents,
# so it cannot be imported from here. It is named by module instead and imported on first use,
# as an installed plugin's entry point is; naming it never imports numpy.
LIBRARY: dict[str, str] = {"policy": "boardwright.rl.policies.agent:PolicyAgent"}
PARAMETER_TYPES = (int, float, bool, str)
# Names that agent strings already mean: the seat kind of a person (agents.HUMAN).
RESERVED = frozenset({"human"})


@dataclass(frozen=True)
class AgentEntry:
    """A registered agent: its name, factory and parameters (agent-string name -> (keyword,
    type)), and where it comes from (said in errors)."""

    name: str
    factory: Callable[..., Any]
    parameters: Mapping[str, tuple[str, type]] = field(default_factory=dict)
    origin: str = "register_agent"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled for a worker: with its factory when the factory pickles (by reference), else
        by name only, to be found in a forked worker's inherited registry."""
        try:
            pickle.dumps(self.factory)
        except Exception:  # noqa: BLE001 - a lambda, a local class, a closure...
            return (_by_name, (self.name, _describe(self.factory)))
        return (AgentEntry, (self.name, self.factory, dict(self.parameters), self.origin))


@dataclass(frozen=True)
class _Unsendable:
    """What a worker receives for a registration whose factory could not be pickled."""

    name: str
    factory: str  # its description, for the error


def _by_name(name: str, description: str) -> AgentEntry | _Unsendable:
    """Unpickling never fails (a failing unpickle would stop a pool worker): a registration the
    worker already holds (a forked worker inherits it) is used, else a marker that makes
    `make_agent` explain what is missing."""
    entry = _REGISTERED.get(name)
    return entry if entry is not None else _Unsendable(name, description)


_REGISTERED: dict[str, AgentEntry] = {}
_UNSENDABLE: dict[str, _Unsendable] = {}
_LOADED: dict[str, AgentEntry] = {}  # entry-point agents imported in this process


def _describe(factory: Any) -> str:
    module = getattr(factory, "__module__", "?")
    return f"{module}.{getattr(factory, '__qualname__', type(factory).__name__)}"


def normalise_parameters(name: str, parameters: Mapping[str, Any] | None
                         ) -> dict[str, tuple[str, type]]:
    """`{"depth": int, "c": ("exploration", float)}` -> `{"depth": ("depth", int), ...}`;
    InvalidOptionError for anything else."""
    if parameters is None:
        return {}
    if not isinstance(parameters, Mapping):
        raise InvalidOptionError(f"the parameters of agent {name!r} must be a mapping of names "
                                 f"to types, not {short_repr(parameters)}")
    out: dict[str, tuple[str, type]] = {}
    for key, spec in parameters.items():
        keyword, kind = (key, spec) if not isinstance(spec, tuple) else (
            spec if len(spec) == 2 else (None, None))
        if (not isinstance(key, str) or not NAME.fullmatch(key) or key == "seed"
                or not isinstance(keyword, str) or not keyword.isidentifier()
                or kind not in PARAMETER_TYPES):
            raise InvalidOptionError(
                f"agent {name!r}: parameter {short_repr(key)}: {short_repr(spec)} is not "
                "declared as a type (int, float, bool or str) or as (keyword, type); names are "
                "letters, digits, '_', '.', '-' ('seed' is every agent's own)")
        out[key] = (keyword, kind)
    return out


def register_agent(name: str, factory: Callable[..., Any],
                   parameters: Mapping[str, Any] | None = None) -> None:
    """Make `factory` available to `make_agent` (and so to simulations, the Gymnasium opponent
    and the benchmarks) under `name`, with the agent-string `parameters` it accepts.

    Registering a name again replaces the earlier registration (a notebook cell run twice); a
    built-in agent's or a level's name is refused. See the module docstring for what a
    registration needs to reach worker processes."""
    from boardwright.agents import AGENTS
    from boardwright.agents.levels import LEVELS

    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise InvalidOptionError(f"agent name {short_repr(name)} must be 1 to 64 letters, "
                                 "digits, '_', '.', '+' or '-' (agent strings use ':', ',' and "
                                 "'=' around it), starting with a letter or digit")
    if (name in AGENTS or name in LIBRARY or name.lower() in LEVELS
            or name.lower() in RESERVED):
        raise InvalidOptionError(f"agent name {name!r} is taken by a built-in agent or level")
    if not callable(factory):
        raise InvalidOptionError(f"agent {name!r}: the factory must be a class or function "
                                 f"called with seed= and the parameters, not "
                                 f"{short_repr(factory)}")
    _REGISTERED[name] = AgentEntry(name, factory, normalise_parameters(name, parameters))
    _UNSENDABLE.pop(name, None)


def unregister_agent(name: str) -> None:
    """Forget an agent registered by a call (no error if there is none)."""
    _REGISTERED.pop(name, None)
    _UNSENDABLE.pop(name, None)


def _entry_points() -> dict[str, Any]:
    from boardwright.agents import AGENTS
    from boardwright.agents.levels import LEVELS

    return {name: point for name, point in plugins.entry_points(plugins.AGENTS_GROUP).items()
            if name not in AGENTS and name not in LIBRARY and name.lower() not in LEVELS
            and name.lower() not in RESERVED}


def registered_names() -> list[str]:
    """Agents the library provides from boardwright.rl (`LIBRARY`), registered by a call or
    declared by installed packages (none imported here)."""
    return sorted(set(LIBRARY) | set(_REGISTERED) | set(_entry_points()))


def _from_library(name: str) -> AgentEntry:
    """The entry of a `LIBRARY` agent, its module imported now."""
    import importlib

    module, _, attribute = LIBRARY[name].partition(":")
    try:
        target = getattr(importlib.import_module(module), attribute)
    except ImportError as exc:
        raise InvalidOptionError(f"agent {name!r} needs the rl extra: pip install "
                                 f"'boardwright[rl]' ({exc})") from None
    return AgentEntry(name, target, normalise_parameters(name, target.parameters),
                      origin=f"{module} (built in, the rl extra)")


def _from_entry_point(name: str, point: Any) -> AgentEntry:
    target = plugins.load(point)
    if not callable(target):
        raise PluginError(f"{plugins.describe(point)} names {short_repr(target)}, which is not "
                          "an agent class or factory")
    try:
        parameters = normalise_parameters(name, getattr(target, "parameters", None))
    except InvalidOptionError as exc:
        raise PluginError(f"{plugins.describe(point)}: {exc}") from None
    return AgentEntry(name, target, parameters, origin=plugins.describe(point))


def lookup(name: str) -> AgentEntry | None:
    """The registration of a non-built-in agent, importing its plugin on first use; None when
    there is none. PluginError when an installed plugin fails to load; InvalidOptionError for
    a registration a worker received without its factory."""
    entry = _REGISTERED.get(name) or _LOADED.get(name)
    if entry is not None:
        return entry
    if name in LIBRARY:
        entry = _LOADED[name] = _from_library(name)
        return entry
    point = _entry_points().get(name)
    if point is not None:
        entry = _LOADED[name] = _from_entry_point(name, point)
        return entry
    missing = _UNSENDABLE.get(name)
    if missing is not None:
        raise InvalidOptionError(
            f"agent {name!r} was registered with register_agent in the main process, but its "
            f"factory {missing.factory} cannot be sent to this worker process (it does not "
            "pickle): define it at the top level of an importable module, or declare it as a "
            "'boardwright.agents' entry point")
    return None


def registrations_for(specs: Iterable[str]) -> tuple[AgentEntry, ...]:
    """The call registrations the agent strings `specs` use (levels resolved; built-in,
    entry-point and unknown names need none), for a job to carry to its worker."""
    from boardwright.agents.levels import level_agent

    found: dict[str, AgentEntry] = {}
    for spec in specs:
        if not isinstance(spec, str):
            continue
        name = level_agent(spec).partition(":")[0].strip()
        entry = _REGISTERED.get(name)
        if entry is not None:
            found[name] = entry
    return tuple(found.values())


def install(entries: Iterable[AgentEntry | _Unsendable] | None) -> None:
    """Register in this process what a job carried (a worker); the job's registration wins
    over an older one of the same name."""
    for entry in entries or ():
        if isinstance(entry, _Unsendable):
            if entry.name not in _REGISTERED:
                _UNSENDABLE[entry.name] = entry
        elif _REGISTERED.get(entry.name) is not entry:
            _REGISTERED[entry.name] = entry


def import_agents(source: str) -> None:
    """Import a module that registers agents when imported (`--import` of the command line and
    the benchmarks): a dotted module name, or the path of a .py file. A file's folder goes on
    sys.path and the file is imported by its name, so that worker processes can import it too
    (a spawned worker inherits sys.path). PluginError when the import fails."""
    import importlib
    import sys
    from pathlib import Path

    target = source
    if source.endswith(".py") or "/" in source or "\\" in source:
        path = Path(source).resolve()
        if not path.is_file() or path.suffix != ".py":
            raise PluginError(f"--import {source}: no such Python file")
        folder = str(path.parent)
        if folder not in sys.path:
            sys.path.insert(0, folder)
        target = path.stem
    try:
        importlib.import_module(target)
    except Exception as exc:  # noqa: BLE001 - the user's module may fail in any way
        raise PluginError(f"--import {source}: {type(exc).__name__}: {exc}") from exc
