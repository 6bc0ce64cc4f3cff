"""Carcassonne's words (games/carcassonne/texts.py): moves as the log reads them
(`Game.describe`, the same for every viewer: every action is public) and the scoring lines of
the game's own log entries, each scenario played through the engine so the entries are the
ones it really writes (city, road, monastery, field, abbey, mayor, wagon, barn)."""

from __future__ import annotations

import random

from fixtures import FX_BARN, FX_EAST, FX_FIELD, FX_RING, FX_START

import boardwright as bw
from boardwright.games.carcassonne import Deploy, Draw, Pass, Place, PlaceAbbey
from boardwright.games.carcassonne.outlook import table_data
from boardwright.games.carcassonne.scenario import build
from boardwright.games.carcassonne.state import CarcassonneState
from boardwright.games.carcassonne.texts import (
    score_lines, scoring_line, scoring_text, seat_names,
)

RED, BLUE, YELLOW = 0, 1, 2
AM = {"expansions": ["abbey_mayor"]}
VIEWERS = (None, RED, BLUE, YELLOW, bw.OMNISCIENT)


def words(state: CarcassonneState, action: object) -> str:
    """The game's words for `action`, checked to be the same for every viewer, then taken."""
    texts = {state.game.describe(state, action, viewer) for viewer in VIEWERS}
    assert len(texts) == 1, texts
    state.apply(action)
    return texts.pop()


def new_lines(state: CarcassonneState, start: int) -> list[str]:
    """The scoring texts of the log entries from `start` (without the turn), and each view
    carries the full line of its entry as `text`."""
    name = seat_names(state.game)
    view = state.view(None)["log"]
    assert [e["text"] for e in view] == [scoring_line(e, name) for e in state.log]
    assert all(e["text"].startswith(f"Turn {e['turn']}: ") for e in view)
    return [scoring_text(e, name) for e in state.log[start:]]


def test_a_city_is_completed_by_a_knight() -> None:
    state = build(FX_START, pile=["E", "U", "U"])
    assert words(state, Place(0, -1, 180)) == "places E at (0, -1) turned 180°"
    assert words(state, Deploy(0, -1, "S")) == "puts a knight on the city S of (0, -1)"
    assert new_lines(state, 0) == ["Red +4 (city, completed)"]
    assert [line for entry in state.log for line in score_lines(entry, seat_names(state.game))] == \
        ["Red +4 (city, completed)"]


def test_a_road_a_monastery_and_a_field_at_the_end() -> None:
    """A highwayman on D's road, a farmer on U's northern field and a monk on B: the last
    tile ends the game and each is scored by the final scoring."""
    state = build(FX_FIELD, pile=["B"], followers=[(RED, 0, 0, "E.W"), (BLUE, 1, 0, "EL.NL.NR.WR")])
    assert words(state, Place(1, 1, 0)) == "places B at (1, 1) turned 0°"
    assert words(state, Deploy(1, 1, "MONASTERY")) == "puts a monk on the monastery of (1, 1)"
    assert state.is_terminal
    assert new_lines(state, 0) == ["Red +2 (road, final scoring)",
                                   "Red +3 (monastery, final scoring)",
                                   "Blue +3 (field, final scoring)"]


def test_a_farmer_and_placing_no_figure() -> None:
    state = build(FX_START, pile=["U", "U", "U"])
    assert words(state, Place(1, 0, 0)) == "places U at (1, 0) turned 0°"
    assert words(state, Deploy(1, 0, "ER.SL.SR.WL")) == \
        "puts a farmer on the field ER.SL.SR.WL of (1, 0)"
    assert words(state, Place(-1, 0, 0)) == "places U at (-1, 0) turned 0°"
    assert words(state, Pass()) == "places no figure"


def test_the_abbey_fills_a_hole_and_its_monk_scores_at_once() -> None:
    state = build(FX_RING, pile=["U", "U", "U"], options=AM)
    assert words(state, PlaceAbbey(0, 1)) == "places the abbey at (0, 1)"
    assert words(state, Deploy(0, 1, "MONASTERY")) == "puts a monk on the abbey of (0, 1)"
    assert new_lines(state, 0) == ["Red +9 (monastery, completed)"]


def test_a_wagon_scores_a_monastery_then_moves_or_goes_back() -> None:
    state = build(FX_RING, pile=["B", "U", "U"], options=AM)
    assert words(state, Draw()) == "draws a tile"
    state.apply(Place(0, 1, 0))
    assert words(state, Deploy(0, 1, "MONASTERY", "wagon")) == \
        "puts a wagon on the monastery of (0, 1)"
    assert new_lines(state, 0) == ["Red +9 (monastery, completed)"]
    assert state.phase == "wagon_move"
    moves = [a for a in state.legal_actions() if isinstance(a, Deploy)]
    assert moves, "the wagon has somewhere to go"
    assert state.game.describe(state, moves[0], BLUE).startswith(
        "moves the wagon from (0, 1) to the ")
    assert words(state, Pass()) == "takes the wagon back from (0, 1)"


def test_a_mayor_scores_its_city_and_a_mayor_without_pennant_scores_nobody() -> None:
    state = build(FX_START, pile=["F", "E", "U", "U"], options=AM)
    state.apply(Place(0, -1, 90))
    assert words(state, Deploy(0, -1, "N.S", "mayor")) == \
        "puts a mayor on the city N.S of (0, -1)"
    state.apply(Place(0, -2, 180))
    state.apply(Pass())
    assert new_lines(state, 0) == ["Red +8 (city, completed)"]

    # FX-EAST: Red's mayor alone in a 3-tile city without pennant has strength 0
    state = build(FX_EAST, pile=["G", "U", "U"], options=AM,
                  followers=[(RED, 1, -1, "E", "mayor")])
    state.apply(Place(2, -1, 0))
    state.apply(Pass())
    assert new_lines(state, 0) == ["nobody scores (city worth 6, completed)"]
    assert score_lines(state.log[0], seat_names(state.game)) == []


def test_a_barn_scores_the_farmers_then_itself_at_the_end() -> None:
    # a shared majority of the field the barn is put in: both get the points
    state = build(FX_BARN, pile=["E", "U"], options=AM,
                  followers=[(BLUE, 0, 1, "EL.ER.NL.NR.SL.SR.WL.WR"), (RED, 1, 0, "ER.SL.SR.WL")])
    state.apply(Place(1, 1, 90))
    assert words(state, Deploy(1, 1, "NW", "barn")) == "puts a barn on the NW corner of (1, 1)"
    assert new_lines(state, 0) == [
        "Red and Blue +6 (field, farmers scored, a barn was placed, shared)"]
    assert score_lines(state.log[-1], seat_names(state.game)) == [
        "Red +6 (field, farmers scored, a barn was placed, shared)",
        "Blue +6 (field, farmers scored, a barn was placed, shared)"]
    # the last tile ends the game: the barn is paid for the field's completed cities
    start = len(state.log)
    state.apply(Place(-1, 0, 0))
    state.apply(Pass())
    assert state.is_terminal
    assert new_lines(state, start) == ["Red +8 (barn, final scoring)"]


def test_the_final_account_carries_each_scoring_line() -> None:
    """The table's final account (`table_data`) words each scoring as the log does; those of
    the end-of-game scoring as final scorings."""
    game = bw.load("carcassonne", 2, {})
    state = game.new_game(5)
    rng = random.Random(5)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
    scorings = table_data(state)["final"]["scorings"]
    assert any(s["end"] for s in scorings) and any(not s["end"] for s in scorings)
    for s in scorings:
        assert s["text"] == scoring_line(s, seat_names(game))
        assert ("final scoring" in s["text"]) == s["end"], s
