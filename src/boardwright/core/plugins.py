"""Plugins: games and agents that other installed packages declare as entry points.

A distribution declares, in its pyproject.toml,

    [project.entry-points."boardwright.games"]
    goofspiel = "boardwright_goofspiel:GoofspielGame"

    [project.entry-points."boardwright.agents"]
    matcher = "boardwright_goofspiel.agents:MatchPrizeAgent"

and boardwright finds them with `importlib.metadata`, without importing them: listing names
reads only the installed metadata, and a plugin's code is imported the first time its name is
used. A plugin that fails to import raises `PluginError` naming the entry point and its
distribution, and only when that name is asked for: the built-in games and agents, and the
other plugins, keep working.
"""

from __future__ import annotations

import sys
from importlib import metadata
from typing import Any

from boardwright.core.errors import PluginError

GAMES_GROUP = "boardwright.games"
AGENTS_GROUP = "boardwright.agents"

# group -> (the sys.path it was read for, name -> entry point). Reading the installed metadata
# takes a few milliseconds; it is read again when sys.path changes (a test or a notebook that
# adds a directory), never otherwise.
_CACHE: dict[str, tuple[tuple[str, ...], dict[str, metadata.EntryPoint]]] = {}


def entry_points(group: str) -> dict[str, metadata.EntryPoint]:
    """The entry points of `group` by name. When two distributions declare the same name, the
    one found first on sys.path is kept (the one `import` would find first too)."""
    path = tuple(sys.path)
    cached = _CACHE.get(group)
    if cached is not None and cached[0] == path:
        return cached[1]
    found: dict[str, metadata.EntryPoint] = {}
    for point in metadata.entry_points(group=group):
        found.setdefault(point.name, point)
    _CACHE[group] = (path, found)
    return found


def describe(point: metadata.EntryPoint) -> str:
    """How an error names an entry point: `'name = module:attr' (group, distribution x 1.0)`."""
    dist = getattr(point, "dist", None)
    origin = f"distribution {dist.name} {dist.version}" if dist is not None else "no distribution"
    return f"entry point '{point.name} = {point.value}' ({point.group}, {origin})"


def load(point: metadata.EntryPoint) -> Any:
    """The object an entry point names, imported now; PluginError (naming the entry point)
    for whatever goes wrong while importing it (a missing module, a syntax error, an exception
    raised by the plugin's own module)."""
    try:
        return point.load()
    except Exception as exc:  # noqa: BLE001 - a plugin may fail in any way; say which one failed
        raise PluginError(f"{describe(point)} cannot be loaded: {type(exc).__name__}: {exc}"
                          ) from exc
