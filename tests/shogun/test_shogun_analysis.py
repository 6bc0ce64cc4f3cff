"""An analysis of a Rise of the Shogun game measures in victory points (Game.analysis_unit),
not in the heuristic's points where a won game is worth a thousand: leads stay within a won
game's 24 VP, and a position every move of which loses flags nothing."""

from __future__ import annotations

import random

import pytest

import boardwright as bw
from boardwright.agents.analysis import Analysis, Settings, analyse, judge

TINY = Settings(iterations=24, candidates=4, seed=3)
SHORT = {"vp_threshold": 5}  # a home castle is 4 VP: the first prisoner or chain peasant wins


def finished(seed: int) -> bw.GameRecord:
    """A whole game of random moves to 5 VP."""
    state = bw.load("shogun", 2, SHORT).new_game(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    return state.record


def test_the_unit_counts_victory_points_and_caps_a_won_game() -> None:
    unit = bw.load("shogun", 2).analysis_unit
    assert (unit.name, unit.scale, unit.cap) == ("VP", 1.0, 24.0)
    assert unit.flags == (("blunder", 4.0), ("mistake", 2.0), ("inaccuracy", 1.0))
    assert unit.lead(4.5) == pytest.approx(4.5)  # the heuristic counts VP one for one
    assert unit.lead(1000.0) == 24.0 and unit.lead(-996.5) == -24.0  # a won or lost game
    assert unit.lost(-22.0) and not unit.lost(-8.0)
    assert bw.load("shogun", 4).analysis_unit == unit  # whatever the player count


def test_an_analysis_of_a_short_game_is_in_vp_and_bounded() -> None:
    record = finished(4)  # 85 decisions; Green's last pass lets Red's conversion win
    analysis = analyse(record, TINY, workers=1)
    data = analysis.to_json()
    assert data["unit"] == "VP" and data["settings"]["unit"] == "VP"
    assert data["thresholds"] == {"blunder": 4.0, "mistake": 2.0, "inaccuracy": 1.0}
    judged = [d for d in analysis.decisions if not d.forced]
    assert judged and all(d.flag is None for d in analysis.decisions if d.forced)
    for d in judged:
        assert -24.0 <= d.margin <= d.best_margin <= 24.0
        assert all(-24.0 <= lead <= 24.0 for lead in d.leads)
    # the pass that loses the game costs a whole won game, no more
    worst = max(judged, key=lambda d: d.lost)
    assert worst.margin == -24.0 and worst.lost >= 24.0 and worst.flag == "blunder"
    assert Analysis.from_json(data).to_json()["thresholds"] == data["thresholds"]


def test_nothing_is_flagged_once_the_game_is_lost() -> None:
    # Red's conversion already decided this game: whatever Green discards, Red wins.
    record = finished(22)
    state = bw.replay(record, steps=81)
    assert len(state.legal_actions()) > 1
    played = state.game.action_from_json(record.actions[81])
    decision = judge(state, played, 81, TINY.resolved(record))
    assert decision.best_margin <= -21.6 and decision.flag is None
