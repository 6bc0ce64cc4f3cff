"""The 15 segments of a tile and which of them a feature part covers: the grid on which the
lossless observation (docs/research/carcassonne-observation.md) draws figures and features, and
on which the learned value (`value_net.py`) counts what each seat holds. One definition for
both: the observation's writers read it from here."""

from __future__ import annotations

from boardwright.games.carcassonne.tiles import CITY, FIELD, ROAD, TileVariant

#: Segments of a tile: N E S W, NL NR EL ER SL SR WL WR, IN1 IN2, MONASTERY.
SEGMENTS = 15
IN1, IN2, MONASTERY_SEGMENT = 12, 13, 14


def covered_segments(variant: TileVariant, local: int) -> tuple[int, ...]:
    """The segments a feature part of a placed tile covers: a city, its sides and both halves
    of each; a road, its sides; a field, its half-sides and enclosed locations; a monastery or
    an abbey, MONASTERY."""
    feature = variant.features[local]
    if feature.kind == CITY:
        return tuple(sorted(g for s in feature.sides for g in (s, 4 + 2 * s, 5 + 2 * s)))
    if feature.kind == ROAD:
        return tuple(feature.sides)
    if feature.kind == FIELD:
        inner = tuple(IN1 if name == "IN1" else IN2 for name in feature.internal)
        return tuple(4 + h for h in feature.halves) + inner
    return (MONASTERY_SEGMENT,)
