"""The fuzz tests build their positions with the random-game helpers of each game's tests."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent
for folder in ("carcassonne", "queens", "shogun", "fuzz"):
    path = str(TESTS / folder)
    if path not in sys.path:
        sys.path.insert(0, path)
