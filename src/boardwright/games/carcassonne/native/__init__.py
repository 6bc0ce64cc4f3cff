"""The native Carcassonne engine: the same rules in C++17, bound with nanobind.

The Python engine (`boardwright.games.carcassonne`) is the readable rules reference; this one is
checked against it at every step by the differential tests. The extension `_engine` is built by
the ordinary install when a C++ compiler is present; without it, `AVAILABLE` is False and games
use the Python engine.
"""

from __future__ import annotations

import importlib
from types import ModuleType

_engine: ModuleType | None
try:
    _engine = importlib.import_module(__name__ + "._engine")
except ImportError as exc:  # not built: no compiler at install time, or a failed build
    _engine = None
    UNAVAILABLE_REASON = f"the native extension is not built ({exc})"
else:
    UNAVAILABLE_REASON = ""

AVAILABLE = _engine is not None
