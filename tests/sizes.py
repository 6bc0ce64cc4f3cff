"""How big the long tests are: one knob for the whole suite.

The long property, fuzz and differential tests repeat checks that shorter tests already make
on every rule and invariant, over more random games or more generated inputs. `make test` runs
them at their everyday size, chosen so that the whole suite fits a quarter hour on two cores;
`BOARDWRIGHT_TEST_SCALE=N` multiplies every such size by N (10 gives about the sizes these
tests had when they ran alone, a deep run for a release or after a change of an engine's rules):

    BOARDWRIGHT_TEST_SCALE=10 make test

A failure at any scale names its seed, game and action, so it replays at scale 1.
"""

from __future__ import annotations

import os

from boardwright.core.errors import InvalidOptionError


def _scale() -> float:
    text = os.environ.get("BOARDWRIGHT_TEST_SCALE", "1")
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 1000:
        raise InvalidOptionError(f"BOARDWRIGHT_TEST_SCALE must be a number above 0 (at most "
                                 f"1000), not {text!r}")
    return value


SCALE = _scale()


def sized(everyday: int) -> int:
    """A long test's size (games, examples, batches): `everyday` times the scale, at least 1."""
    return max(1, round(everyday * SCALE))
