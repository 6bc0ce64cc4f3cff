"""The unit an analysis measures a game in (`Game.analysis_unit`).

An analysis judges each move by the mover's expected lead at the end of its playouts. By
default that lead is in the evaluation's points, which for a game scored in points (Carcassonne)
is the game's own unit. A game whose evaluation is not in a unit players count in (Queens values
a won game at a thousand, so one lost Queen swamps every other figure) says how to read a
lead: `scale` evaluation points make one unit, and `cap` units are a decided game, the most any
one playout's lead counts for. A position whose best move still expects to lose nearly the cap
is already lost: no move there is flagged, since none could have saved it.
"""

from __future__ import annotations

from dataclasses import dataclass

DECIDED = 0.9  # share of the cap at which a position counts as already lost


@dataclass(frozen=True)
class AnalysisUnit:
    """How an analysis reads a lead: its unit's name, its size in evaluation points, and the
    lead of a decided game in units (None: no cap), and the flags' thresholds in this unit."""

    name: str = "points"
    scale: float = 1.0
    cap: float | None = None
    # (flag, units lost at least), largest first; None: the analysis's own, set for points
    flags: tuple[tuple[str, float], ...] | None = None

    def lead(self, points: float) -> float:
        """A lead in evaluation points, in this unit, never beyond the cap."""
        value = points / self.scale
        if self.cap is not None:
            value = max(-self.cap, min(self.cap, value))
        return value

    def lost(self, best_margin: float) -> bool:
        """Whether a position is already lost: even the best move expects to lose about a
        decided game's margin (never, without a cap)."""
        return self.cap is not None and best_margin <= -DECIDED * self.cap

    @property
    def is_default(self) -> bool:
        return self == AnalysisUnit()


POINTS = AnalysisUnit()

__all__ = ["AnalysisUnit", "DECIDED", "POINTS"]
