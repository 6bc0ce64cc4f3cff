"""The end of a game lays everything open: the score by source (castles, chains with their
spaces, prisoners, treasures) in the view and the table data, and every seat's missions and
treasures."""

from __future__ import annotations

import random

from game_helpers import GREEN, RED, scene

import boardwright as bw


def parts_add_up(parts: dict) -> bool:
    return parts["castles"] + parts["chains"] + parts["prisoners"] + (
        parts["treasures"] or 0) == parts["total"]


def test_the_score_by_source_marks_the_chain() -> None:
    state = scene(castles={"mutsu": GREEN, "kaga": GREEN}, peasants={
        "echigo": GREEN, "dewa": GREEN, "etchu": GREEN, "noto": RED},
        treasures={GREEN: ["t_an_heir"]}, prisoners={GREEN: {RED: 1}})
    parts = state.view(GREEN)["seats"][GREEN]["score"]
    assert parts["castles"] == 8 and parts["castle_count"] == 2 and parts["prisoners"] == 1
    assert parts["chains"] == len(parts["chain_spaces"]) == state.chain_points(GREEN) > 0
    assert set(parts["chain_spaces"]) <= {"echigo", "dewa", "etchu"}
    assert parts["treasures"] == state.treasure_vp(GREEN) and parts["total"] == state.vp(GREEN)
    assert parts_add_up(parts)
    hidden = state.view(RED)["seats"][GREEN]["score"]
    assert hidden["treasures"] is None and hidden["total"] == state.public_vp(GREEN)
    public = state.game.table_data(state)
    assert public["scores"][GREEN]["treasures"] is None and public["over"] is False


def test_a_finished_game_shows_every_seat_and_its_score() -> None:
    g = bw.load("shogun", 2, {"max_rounds": 2})
    state = g.new_game(3)
    rng = random.Random(3)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    for viewer in (None, GREEN, RED):
        view = state.view(viewer)
        for seat in view["seats"]:
            assert seat["treasures"] is not None
            assert seat["has_mission"] == (seat["mission"] is not None)
            assert seat["score"]["total"] == state.vp(seat["seat"]) == seat["vp"]
            assert parts_add_up(seat["score"])
    table = g.table_data(state)
    assert table["over"] and [s["total"] for s in table["scores"]] == [
        state.vp(0), state.vp(1)]


def test_the_phase_box_follows_the_set_up_step_and_the_end() -> None:
    from boardwright.games.shogun.texts import phase_text
    assert phase_text("homes", "castle") == "Set-up: choose a home castle"
    assert phase_text("homes", "hero") == "Set-up: place your hero beside your home castle"
    assert phase_text("court", over=True) == "Game over"
    g = bw.load("shogun", 2, {"max_rounds": 1})
    state = g.new_game(5)
    rng = random.Random(5)
    seen = set()
    while not state.is_terminal:
        view = state.view(None)
        seen.add(view["phase_text"])
        if state.phase == "homes":
            assert view["phase_text"] == phase_text("homes", state.home_step)
        state.apply(rng.choice(state.legal_actions()))
    assert "Set-up: place your hero beside your home castle" in seen
    assert state.view(None)["phase_text"] == "Game over"
