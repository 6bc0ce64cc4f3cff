"""The single-file example games of examples/ (Liar's Dice), registered for one test at a time.

Importing such a file registers its game with `bw.register`; a test registers it again through
the `registered_example` context (a module is imported once per process) and leaves the registry
as it found it, so that the other tests see only the games they expect."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from script_helpers import load_script

import boardwright as bw
from boardwright.core import registry

ROOT = Path(__file__).resolve().parents[1]


def example_module(name: str) -> ModuleType:
    """The module examples/<name>.py (imported once)."""
    module = sys.modules.get(name)
    if module is None:
        module = load_script(ROOT / "examples" / f"{name}.py", name)
    return module


@contextmanager
def registered_example(name: str, game_class: str) -> Iterator[ModuleType]:
    """examples/<name>.py with its game class `game_class` registered under its name."""
    before = dict(registry._FACTORIES)
    module = example_module(name)
    cls = getattr(module, game_class)
    bw.register(cls.name, cls)
    try:
        yield module
    finally:
        registry._FACTORIES.clear()
        registry._FACTORIES.update(before)
