"""Each plugin test starts from this process's registrations as they were, and leaves them so."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from boardwright.core import registry as game_registry


@pytest.fixture(autouse=True)
def clean_registrations(own_agent_registry: None) -> Iterator[None]:
    games = dict(game_registry._FACTORIES)
    yield
    # games registered by the test are forgotten (a built-in game imported for the first time
    # stays: its module registers it only once)
    factories = game_registry._FACTORIES
    for name in set(factories) - set(games) - set(game_registry._BUILTIN_MODULES):
        del factories[name]
    factories.update(games)
    # modules that register agents when imported (--import) register again in the next test
    for module in ("lookahead_agent", "plugin_agents_registering"):
        sys.modules.pop(module, None)
