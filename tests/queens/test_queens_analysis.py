"""An analysis of a Queens game measures in Fields (Game.analysis_unit), not in the heuristic's
points where a finished game is worth a thousand: leads stay within a won game's ten Fields,
and a position where every move loses flags nothing."""

from __future__ import annotations

import pytest
from queens_helpers import RED, custom, seat

import boardwright as bw
from boardwright.agents.analysis import Analysis, Settings, analyse, judge
from boardwright.core.analysis_unit import AnalysisUnit

TINY = Settings(iterations=24, candidates=4, seed=3)


def test_the_unit_scales_and_caps_a_lead() -> None:
    unit = bw.load("queens", 2).analysis_unit
    assert (unit.name, unit.cap) == ("Fields", 10.0)
    assert unit.flags == (("blunder", 4.0), ("mistake", 2.0), ("inaccuracy", 1.0))
    assert unit.lead(6.0) == pytest.approx(2.0)  # two Fields, at 3 points a Field
    assert unit.lead(2000.0) == 10.0 and unit.lead(-1985.0) == -10.0
    assert unit.lost(-9.5) and not unit.lost(-4.4)
    points = AnalysisUnit()  # every other game: the evaluation's points, uncapped
    assert points.lead(-1985.0) == -1985.0 and not points.lost(-1985.0)
    assert bw.load("carcassonne", 2).analysis_unit.is_default


def test_a_hanging_queen_costs_at_most_a_won_game_in_fields() -> None:
    # Red's Queen on a plain, two Blue Princes 1 from their Queen could take her together
    # (3 + 3 > 4 on her space): moving her away saves the game, sowing does not.
    state = custom(seat((0, 2), princes=[(3, 2)], cities=[(0, 4)]),
                   seat((0, 0), princes=[(1, 0), (-1, 0)], cities=[(0, -4)]))
    played = bw.load("queens", 2).action_from_json({"type": "sow", "at": [0, 3]})
    decision = judge(state, played, 0, TINY.resolved(state.record))
    assert -10.0 <= decision.margin <= decision.best_margin <= 10.0
    assert all(-10.0 <= lead <= 10.0 for lead in decision.leads)
    assert decision.lost >= 7.0 and decision.flag == "blunder"
    assert decision.best.startswith("moves the Queen")


def test_nothing_is_flagged_once_the_game_is_lost() -> None:
    # Red's Queen is shut in her corner by three Blue Princes worth 3 each there (two of them
    # beat her 4) and Red has no City left to found: every move loses, so none is a blunder.
    state = custom(seat((5, -5), princes=[(-3, 5), (-2, 5)], cities=[(-3, 4), (-4, 5), (-5, 4)]),
                   seat((3, -4), princes=[(4, -5), (4, -4), (5, -4)]))
    actions = state.legal_actions()
    assert len(actions) > 1
    worst = actions[-1]
    decision = judge(state, worst, 0, TINY.resolved(state.record))
    assert -10.0 <= decision.best_margin <= -9.0 and decision.flag is None
    assert state.current_player == RED


def test_a_whole_analysis_names_its_unit_and_thresholds() -> None:
    # the last round: Red and Blue each have one move left
    state = custom(seat((0, 4), princes=[(1, 3)], cities=[(0, 4)]),
                   seat((0, -4), princes=[(-1, -3)], cities=[(0, -4)]), round=50)
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert state.is_terminal
    data = analyse(state.record, TINY, workers=1).to_json()
    assert data["unit"] == "Fields" and data["settings"]["unit"] == "Fields"
    assert data["thresholds"] == {"blunder": 4.0, "mistake": 2.0, "inaccuracy": 1.0}
    assert all(-10.0 <= m <= 10.0 for row in data["margins"] for m in row if m is not None)
    assert Analysis.from_json(data).to_json()["thresholds"] == data["thresholds"]
