"""Every mission can be met wherever it can be dealt (content §4), and the views show the held
mission's castle and progress."""

from __future__ import annotations

import pytest
from game_helpers import DONE, GREEN, act, scene

from boardwright.games.shogun.mission_goals import need, progress
from shogun_helpers import BOARD, CONTENT

CASTLE_SPACES = [s.id for s in BOARD.spaces if not BOARD.in_no_castle_zone(s.id)]


def completing_position(castle: str, mission: str):  # noqa: ANN201 - a ShogunState
    """Green courts `castle` with `mission` and holds everything the mission can ask for:
    own peasants on every neighbour, the hero on a neighbour, two prisoners, two treasures,
    a peasant on Heian."""
    near = [BOARD.ids[s] for s in BOARD.neighbours[BOARD.index[castle]]]
    peasants = {s: GREEN for s in near[1:] or near}
    peasants.setdefault("heian", GREEN)
    return scene(phase="court", courts={castle: GREEN}, missions={GREEN: mission},
                 peasants=peasants, hero_at={GREEN: near[0]},
                 prisoners={GREEN: {1: 2}}, treasures={GREEN: ["t_oni", "t_kappa"]},
                 mission_deck=[m.id for m in CONTENT.missions if m.id != mission])


def test_every_castle_space_is_outside_the_zone_and_has_a_neighbour() -> None:
    assert len(CASTLE_SPACES) == 48
    assert all(BOARD.neighbours[BOARD.index[c]] for c in CASTLE_SPACES)


@pytest.mark.parametrize("mission", [m.id for m in CONTENT.missions if m.check == "state"])
def test_every_state_mission_can_be_met_at_every_castle(mission: str) -> None:
    """For each space a castle may stand on, a position exists where the mission is met; m1
    at a one-neighbour castle asks one peasant there (content §4)."""
    for castle in CASTLE_SPACES:
        state = completing_position(castle, mission)
        near = BOARD.neighbours[BOARD.index[castle]]
        if mission == "m1":  # the hero takes one neighbour; put a peasant there instead
            state.peasant[near[0]] = GREEN
        found = progress(state, GREEN)
        assert found is not None and found.castle == castle
        assert found.met, (castle, mission, found)
        assert state.mission_met(GREEN)


def test_event_missions_have_their_events() -> None:
    goals = {m.goal for m in CONTENT.missions if m.check == "event"}
    assert goals == {"hero_beaten", "shrine_searched"}


def test_loyal_villages_asks_one_peasant_at_shima_and_two_at_kaga() -> None:
    m1 = next(m for m in CONTENT.missions if m.id == "m1")
    castles = [-1] * len(BOARD)
    assert need(m1, BOARD, BOARD.index["shima"], castles) == 1
    assert need(m1, BOARD, BOARD.index["awa_boso"], castles) == 1
    assert need(m1, BOARD, BOARD.index["kaga"], castles) == 2
    state = scene(phase="court", courts={"shima": GREEN}, missions={GREEN: "m1"},
                  peasants={"ise": GREEN}, hero_at={GREEN: "dewa"},
                  mission_deck=["m2", "m3", "m4", "m5", "m6"])
    view = state.view(GREEN)["seats"][GREEN]
    assert view["courting"] == "shima"
    assert view["mission_progress"]["text"] == "1/1 peasant"
    assert "only 1 such space" in view["mission_progress"]["condition"]
    assert state.view(1)["seats"][GREEN]["mission_progress"] is None
    act(state, DONE)
    assert state.roof[state.castle_at[BOARD.index["shima"]]] == GREEN


def test_progress_counts_toward_the_goal() -> None:
    state = scene(phase="court", courts={"kaga": GREEN}, missions={GREEN: "m1"},
                  peasants={"etchu": GREEN}, hero_at={GREEN: "dewa"},
                  mission_deck=["m2", "m3", "m4", "m5", "m6"])
    shown = state.view(GREEN)["seats"][GREEN]["mission_progress"]
    assert (shown["have"], shown["need"], shown["text"]) == (1, 2, "1/2 peasants")
    assert shown["castle_name"] == "Kaga" and shown["name"] == "Loyal Villages"
    act(state, DONE)
    assert state.mission[GREEN] == "m1"
