"""Every Carcassonne test runs on both engines (`carcassonne_engine`, tests/conftest.py)."""

from __future__ import annotations

import pytest

# Modules that name their engines themselves, so run once.
OWN_ENGINES = {
    "test_native_differential.py": "plays both engines in lock-step itself",
    "test_native_build.py": "builds and installs the project: no game is played on an engine",
}


@pytest.fixture(autouse=True)
def _on_each_engine(carcassonne_engine: str | None) -> str | None:
    return carcassonne_engine


def pytest_collectstart(collector: pytest.Collector) -> None:
    if isinstance(collector, pytest.Module) and collector.path.name in OWN_ENGINES:
        collector.add_marker(pytest.mark.engines(reason=OWN_ENGINES[collector.path.name]))
