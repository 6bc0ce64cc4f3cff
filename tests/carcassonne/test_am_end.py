"""Rule tests for the final abbey round of Abbey & Mayor: CAR-AM-END-01 .. 07 and CAR-AM-END-50.

The end of the draw pile is produced the way `scenario.build` defines it: an empty pile means the
last landscape tile has just been placed, by the player seated before `turn_player` (or, when
the pile ran out on discards, by the player who drew them). What follows depends on the option
`abbey_end_of_game`: a mandatory round (default), nothing, or a round in which players may pass.
Each test reproduces a scenario of the rule catalogue (section 4.13) and checks who decides, what
is offered, the exact score changes, the supplies and the moment the game ends.
"""

from __future__ import annotations

from typing import Any

import pytest
from fixtures import FX_HOLE_CITY, FX_RING
from helpers import assert_illegal, events

import boardwright as bw
from boardwright.games.carcassonne import Deploy, Draw, Pass, Place, PlaceAbbey
from boardwright.games.carcassonne.scenario import build
from boardwright.games.carcassonne.state import CarcassonneState

RED, BLUE, YELLOW = 0, 1, 2
FINAL_ROUND = "final_abbey_round"

# Three separate holes (0,1), (2,1) and (4,1) under a row of roads; nothing is ever completed by
# an abbey here except the abbey in (0,1) (all its eight neighbours are present), and the start
# tile U offers no city edge, so a C tile fits nowhere on this board.
THREE_HOLES = ("U@(0,0)/0 U@(-1,0)/0 U@(1,0)/0 U@(2,0)/0 U@(3,0)/0 U@(4,0)/0 U@(5,0)/0 "
               "B@(-1,1)/0 B@(1,1)/0 B@(3,1)/0 B@(5,1)/0 "
               "B@(-1,2)/0 B@(0,2)/0 B@(1,2)/0 B@(2,2)/0 B@(3,2)/0 B@(4,2)/0")
THREE_HOLE_POSITIONS = [(0, 1), (2, 1), (4, 1)]

# FX-HOLE-CITY plus a second hole at (2,1), so that a second player still has a hole after the
# first one has filled (0,1).
HOLE_CITY_AND_ONE_MORE = FX_HOLE_CITY + " U@(2,0)/0 U@(3,0)/0 B@(3,1)/0 B@(2,2)/0"

# Red's knight on the one-tile city CI of FX-HOLE-CITY (city of I@(-1,1) touching E).
KNIGHT_ON_CI = (RED, -1, 1, "E")


# -- helpers ----------------------------------------------------------------------------------

def am(**options: Any) -> dict[str, Any]:
    """Abbey & Mayor options with the given extras."""
    return {"expansions": ["abbey_mayor"], **options}


def offered(state: CarcassonneState) -> set[Any]:
    """The legal actions as a set (their order carries no meaning)."""
    return set(state.legal_actions())


def holes(state: CarcassonneState) -> list[tuple[int, int]]:
    """The holes the view reports for the current abbey decision."""
    return sorted((h["x"], h["y"]) for h in state.view(None)["holes"])


def abbeys_held(state: CarcassonneState) -> list[int]:
    """Abbey tiles still in each seat's supply."""
    return [pieces["abbey"] for pieces in state.view(None)["supply"]]


def abbey_turn(state: CarcassonneState, x: int, y: int,
               figure: str | None = None) -> list[int]:
    """One whole abbey turn of the current player: the abbey into (x, y), then `figure` on it
    (as monk or wagon) or a pass. Returns the score change per seat of this turn, including the
    final scoring the turn may trigger (the wagon decisions still pending are not taken)."""
    before = state.scores
    state.apply(PlaceAbbey(x, y))
    state.apply(Pass() if figure is None else Deploy(x, y, "MONASTERY", figure))
    return [after - was for after, was in zip(state.scores, before)]


def assert_round_turn(state: CarcassonneState, seat: int, hole_list: list[tuple[int, int]],
                      may_pass: bool = False) -> None:
    """`seat` is to act in the final abbey round: the offer is exactly one abbey per hole,
    plus a pass only in the voluntary round."""
    assert state.phase == FINAL_ROUND
    assert state.current_player == seat and state.turn_player == seat
    assert holes(state) == hole_list
    expected: set[Any] = {PlaceAbbey(x, y) for x, y in hole_list}
    if may_pass:
        expected.add(Pass())
    assert offered(state) == expected


def assert_over(state: CarcassonneState) -> None:
    """Final scoring is done: nobody decides and nothing more is offered."""
    assert state.is_terminal
    assert state.phase == "game_over"
    assert state.current_player == -1
    assert state.legal_actions() == []


def play_round_in_first_holes(state: CarcassonneState) -> list[int]:
    """Drive a final abbey round to its end, each player filling the first hole offered without
    a figure; return the seats in the order they acted."""
    seats = []
    while state.phase == FINAL_ROUND:
        seats.append(state.current_player)
        x, y = holes(state)[0]
        abbey_turn(state, x, y)
    return seats


# -- CAR-AM-END-01: the mandatory final round (default) ------------------------------------------

@pytest.mark.rule("CAR-AM-END-01")
def test_mandatory_round_red_must_fill_the_hole_and_closes_ci() -> None:
    """The catalogue scenario: the pile ran out in Yellow's turn; Red and Blue hold abbeys, Yellow
    none. Red is offered only the abbey at (0,1) (no pass); it closes CI for her knight (+2).
    Blue then has no hole and Yellow no abbey, so final scoring follows at once."""
    state = build(FX_HOLE_CITY, followers=[KNIGHT_ON_CI], pile=[], options=am(),
                  supply={YELLOW: {"abbey": 0}})
    assert_round_turn(state, RED, [(0, 1)])
    assert Pass() not in state.legal_actions()
    assert abbey_turn(state, 0, 1) == [2, 0, 0]
    assert events(state) == [("city", True, 2, [RED])]
    assert_over(state)
    assert abbeys_held(state) == [0, 1, 0]
    assert state.view(None)["followers"] == []
    assert state.history == [PlaceAbbey(0, 1), Pass()]


@pytest.mark.rule("CAR-AM-END-01")
def test_mandatory_round_is_the_default_option() -> None:
    """Without `abbey_end_of_game` the game behaves as with "mandatory_round"."""
    default = build(FX_HOLE_CITY, followers=[KNIGHT_ON_CI], pile=[], options=am(),
                    supply={YELLOW: {"abbey": 0}})
    explicit = build(FX_HOLE_CITY, followers=[KNIGHT_ON_CI], pile=[],
                     options=am(abbey_end_of_game="mandatory_round"),
                     supply={YELLOW: {"abbey": 0}})
    assert default.signature() == explicit.signature()
    assert default.phase == FINAL_ROUND


@pytest.mark.rule("CAR-AM-END-01")
@pytest.mark.parametrize("action", [Pass(), Draw(), Place(0, 1, 0), Deploy(0, 1, "MONASTERY")],
                         ids=["pass", "draw", "place", "deploy"])
def test_mandatory_round_refuses_everything_but_the_abbey(action: Any) -> None:
    """In the mandatory round a player with an abbey and a hole cannot decline: passing,
    drawing (the pile is empty), placing a landscape tile or deploying are all rejected and
    leave the position unchanged."""
    state = build(FX_HOLE_CITY, followers=[KNIGHT_ON_CI], pile=[], options=am(),
                  supply={YELLOW: {"abbey": 0}})
    assert_illegal(state, action)


@pytest.mark.rule("CAR-AM-END-01")
@pytest.mark.parametrize("position", [(-1, 2), (0, -1), (0, 0), (5, 5)])
def test_mandatory_round_abbey_only_into_a_hole(position: tuple[int, int]) -> None:
    """An empty position with a free side, an occupied position and a far-away position are
    not holes: the abbey is refused there and the state is unchanged."""
    state = build(FX_HOLE_CITY, pile=[], options=am())
    assert_illegal(state, PlaceAbbey(*position))


@pytest.mark.rule("CAR-AM-END-01")
def test_final_round_turn_offers_monk_or_wagon_on_the_abbey() -> None:
    """After the abbey is placed in the round, the figure step is the usual one for an abbey:
    pass, a monk or the wagon on it (no mayor: no city; no barn: no field corner)."""
    state = build(FX_HOLE_CITY, pile=[], options=am())
    state.apply(PlaceAbbey(0, 1))
    assert state.phase == "deploy" and state.current_player == RED
    assert offered(state) == {Pass(), Deploy(0, 1, "MONASTERY", "follower"),
                              Deploy(0, 1, "MONASTERY", "wagon")}


@pytest.mark.rule("CAR-AM-END-01")
def test_every_player_with_an_abbey_and_a_hole_must_place() -> None:
    """Three holes, three abbeys: each player in turn is offered exactly the remaining holes
    and no pass, so all three abbeys end on the board before final scoring."""
    state = build(THREE_HOLES, pile=[], options=am(), turn_player=RED)
    assert_round_turn(state, RED, THREE_HOLE_POSITIONS)
    abbey_turn(state, 2, 1)
    assert_round_turn(state, BLUE, [(0, 1), (4, 1)])
    abbey_turn(state, 4, 1)
    assert_round_turn(state, YELLOW, [(0, 1)])
    abbey_turn(state, 0, 1)
    assert_over(state)
    assert abbeys_held(state) == [0, 0, 0]
    assert state.scores == [0, 0, 0]


@pytest.mark.rule("CAR-AM-END-01")
def test_player_without_an_abbey_is_skipped_even_with_holes_left() -> None:
    """Blue placed his abbey during the game: the round (after Yellow's last tile) goes Red,
    then straight to Yellow, and one hole stays empty."""
    state = build(THREE_HOLES, pile=[], options=am(), supply={BLUE: {"abbey": 0}})
    assert play_round_in_first_holes(state) == [RED, YELLOW]
    assert_over(state)
    assert abbeys_held(state) == [0, 0, 0]
    assert len(state.graph.board) == 17 + 2


@pytest.mark.rule("CAR-AM-END-01")
def test_final_round_reached_by_play_replays_from_its_record() -> None:
    """A whole 2-player game from `new_game`: FX-RING is built turn by turn; Red holds back her
    abbey (she draws the last E although the hole exists) and places the last tile, so Blue,
    first in the round, must fill (0,1) (+9 with a monk) and Red finds no hole. The record
    replays to the same final position."""
    order = ["U", "U", "E", "E", "E", "E", "E"]
    game = bw.load("carcassonne", players=2, options=am(draw_order=order))
    state = game.new_game(7)
    for x, y, rotation in [(-1, 0, 0), (1, 0, 0), (-1, 1, 270), (1, 1, 90), (-1, 2, 270),
                           (0, 2, 180)]:
        assert state.phase == "place_tile"
        state.apply(Place(x, y, rotation))
        state.apply(Pass())
    assert state.phase == "choose_tile" and state.current_player == RED
    assert offered(state) == {Draw(), PlaceAbbey(0, 1)}
    state.apply(Draw())
    state.apply(Place(1, 2, 90))
    state.apply(Pass())
    assert_round_turn(state, BLUE, [(0, 1)])
    assert abbey_turn(state, 0, 1, "follower") == [0, 9]
    assert_over(state)
    assert abbeys_held(state) == [1, 0]
    again = bw.replay(state.record)
    assert again.signature() == state.signature()
    assert again.scores == [0, 9]


# -- CAR-AM-END-02: order of the round ------------------------------------------------------------

@pytest.mark.rule("CAR-AM-END-02")
def test_round_starts_left_of_the_last_placer() -> None:
    """The catalogue scenario: Blue placed the last landscape tile; Yellow and Red hold abbeys.
    Yellow acts first and must fill (0,1); Red then has no hole and is skipped."""
    state = build(FX_HOLE_CITY, pile=[], options=am(), turn_player=YELLOW,
                  supply={BLUE: {"abbey": 0}})
    assert_round_turn(state, YELLOW, [(0, 1)])
    assert abbey_turn(state, 0, 1) == [0, 0, 0]
    assert_over(state)
    assert abbeys_held(state) == [1, 0, 0]


@pytest.mark.rule("CAR-AM-END-02")
@pytest.mark.parametrize(("turn_player", "expected"), [
    (YELLOW, [YELLOW, RED, BLUE]),  # Blue placed the last tile
    (RED, [RED, BLUE, YELLOW]),     # Yellow placed it
    (BLUE, [BLUE, YELLOW, RED]),    # Red placed it
])
def test_round_goes_clockwise_and_ends_with_the_last_placer(
        turn_player: int, expected: list[int]) -> None:
    """With three holes every player acts: clockwise from the left of the last placer, who
    acts last."""
    state = build(THREE_HOLES, pile=[], options=am(), turn_player=turn_player)
    assert state.view(None)["final_round"] == expected[1:]
    assert play_round_in_first_holes(state) == expected
    assert_over(state)


@pytest.mark.rule("CAR-AM-END-02")
def test_round_order_when_the_last_tile_is_placed_in_play() -> None:
    """Red places the last landscape tile in an ordinary turn (she draws instead of playing her
    abbey): the round then starts with Blue and ends with Red."""
    state = build(THREE_HOLES, pile=["U"], options=am(), turn_player=RED)
    assert state.phase == "choose_tile"
    state.apply(Draw())
    state.apply(Place(-2, 0, 0))
    state.apply(Pass())
    assert play_round_in_first_holes(state) == [BLUE, YELLOW, RED]
    assert_over(state)


@pytest.mark.rule("CAR-AM-END-02")
def test_each_player_acts_at_most_once_in_the_round() -> None:
    """With two abbeys each (option `abbeys = 2`) and three holes, Red and Blue still get one
    turn each: one hole stays empty and each keeps one abbey."""
    state = build(THREE_HOLES, pile=[], players=2, options=am(abbeys=2), turn_player=RED)
    assert play_round_in_first_holes(state) == [RED, BLUE]
    assert_over(state)
    assert abbeys_held(state) == [1, 1]


# -- CAR-AM-END-03: holes are checked anew ------------------------------------------------------

@pytest.mark.rule("CAR-AM-END-03")
def test_holes_checked_anew_red_fills_the_only_hole() -> None:
    """The catalogue scenario: Yellow placed the last tile, all three hold abbeys. Red must fill
    (0,1); Blue and Yellow then find no hole and are skipped, keeping their abbeys."""
    state = build(FX_HOLE_CITY, pile=[], options=am(), turn_player=RED)
    assert_round_turn(state, RED, [(0, 1)])
    abbey_turn(state, 0, 1)
    assert_over(state)
    assert abbeys_held(state) == [0, 1, 1]
    assert state.history == [PlaceAbbey(0, 1), Pass()]


@pytest.mark.rule("CAR-AM-END-03")
def test_holes_checked_anew_second_player_gets_the_remaining_hole() -> None:
    """Two holes: Red chooses (2,1), so Blue is offered only (0,1), and Yellow none (skipped).
    The offer for each player is computed when that player's turn comes."""
    state = build(HOLE_CITY_AND_ONE_MORE, pile=[], options=am(), turn_player=RED)
    assert_round_turn(state, RED, [(0, 1), (2, 1)])
    abbey_turn(state, 2, 1)
    assert_round_turn(state, BLUE, [(0, 1)])
    abbey_turn(state, 0, 1)
    assert_over(state)
    assert abbeys_held(state) == [0, 0, 1]


@pytest.mark.rule("CAR-AM-END-03")
def test_an_abbey_creates_no_new_hole() -> None:
    """Filling a hole never opens another one: the offered holes only shrink through the round."""
    state = build(THREE_HOLES, pile=[], options=am())
    seen = []
    while state.phase == FINAL_ROUND:
        seen.append(holes(state))
        abbey_turn(state, *holes(state)[-1])
    assert seen == [THREE_HOLE_POSITIONS, THREE_HOLE_POSITIONS[:2], THREE_HOLE_POSITIONS[:1]]


# -- CAR-AM-END-04: each abbey placement is a full turn --------------------------------------------

@pytest.mark.rule("CAR-AM-END-04")
def test_final_round_abbey_with_monk_scores_at_once() -> None:
    """The catalogue scenario: FX-RING with an empty pile; Red places her abbey at (0,1) with a
    monk. All eight neighbours are present, so it is scored as completed in that turn (+9) and
    the monk is back in Red's supply before final scoring (which then has nothing to score)."""
    state = build(FX_RING, pile=[], options=am(), turn_player=RED)
    assert_round_turn(state, RED, [(0, 1)])
    assert abbey_turn(state, 0, 1, "follower") == [9, 0, 0]
    assert events(state) == [("monastery", True, 9, [RED])]
    assert_over(state)
    assert state.view(None)["supply"][RED]["follower"] == 7


@pytest.mark.rule("CAR-AM-END-04")
def test_scoring_of_a_round_turn_happens_before_the_next_player_acts() -> None:
    """Red's abbey at (0,1) on THREE_HOLES is complete at once: Red has her 9 points and her
    monk back while Blue is the one to decide in the round."""
    state = build(THREE_HOLES, pile=[], options=am(), turn_player=RED)
    assert abbey_turn(state, 0, 1, "follower") == [9, 0, 0]
    assert_round_turn(state, BLUE, [(2, 1), (4, 1)])
    assert state.view(None)["supply"][RED]["follower"] == 7
    assert state.view(None)["followers"] == []


@pytest.mark.rule("CAR-AM-END-04")
def test_incomplete_round_abbey_with_monk_is_scored_at_final_scoring() -> None:
    """A monk put on an abbey in the round stays when the abbey is incomplete and counts at
    final scoring: FX-HOLE-CITY's hole has 7 neighbours, Red +8."""
    state = build(FX_HOLE_CITY, pile=[], options=am(), turn_player=RED)
    assert abbey_turn(state, 0, 1, "follower") == [8, 0, 0]
    assert events(state) == [("monastery", False, 8, [RED])]
    assert_over(state)


@pytest.mark.rule("CAR-AM-END-04")
def test_round_abbey_completes_a_neighbouring_monastery() -> None:
    """The abbey of a round turn counts as a surrounding tile at once: Blue's monk on the
    monastery of B@(0,2) (THREE_HOLES) is completed by Red's abbey at (0,1): Blue +9 within
    Red's round turn, before Blue acts."""
    state = build(THREE_HOLES + " B@(-1,3)/0 B@(0,3)/0 B@(1,3)/0", followers=[(BLUE, 0, 2,
                  "MONASTERY")], pile=[], options=am(), turn_player=RED)
    assert abbey_turn(state, 0, 1) == [0, 9, 0]
    assert events(state) == [("monastery", True, 9, [BLUE])]
    assert_round_turn(state, BLUE, [(2, 1), (4, 1)])


# -- CAR-AM-END-05: the last tile is discarded ----------------------------------------------------

@pytest.mark.rule("CAR-AM-END-05")
def test_last_tile_discarded_in_blues_turn_then_final_scoring() -> None:
    """The catalogue scenario: board D + E@(0,-1)/180, pile [C], all hold abbeys. Blue draws C,
    which fits nowhere and is removed; the pile is empty. No hole exists, so the round (Yellow,
    Red, Blue) skips everyone and final scoring ends the game; all abbeys stay in hand."""
    state = build("D@(0,0)/0 E@(0,-1)/180", pile=["C"], options=am(), turn_player=BLUE)
    assert_over(state)
    view = state.view(None)
    assert view["discarded"] == ["C"]
    assert view["draw_pile_size"] == 0
    assert len(state.graph.board) == 2
    assert abbeys_held(state) == [1, 1, 1]
    assert state.scores == [0, 0, 0]


@pytest.mark.rule("CAR-AM-END-05")
def test_last_tile_discarded_in_play_then_final_scoring() -> None:
    """The same, reached by play: Red places U (pile [U, C]); Blue's draw of C is discarded and
    the game ends after final scoring (Red's highwayman on the open road: +2)."""
    state = build("D@(0,0)/0 E@(0,-1)/180", pile=["U", "C"], options=am())
    state.apply(Place(1, 0, 0))
    state.apply(Deploy(1, 0, "E.W"))
    assert_over(state)
    assert state.view(None)["discarded"] == ["C"]
    assert state.scores == [2, 0, 0]


@pytest.mark.rule("CAR-AM-END-05")
def test_discarding_player_counts_as_last_placer_for_the_round_order() -> None:
    """With holes the order becomes visible: Blue chooses to draw, draws C (fits nowhere on
    THREE_HOLES) and it is removed with the pile's end. Blue counts as the last placer, so the
    round runs Yellow, Red, Blue."""
    state = build(THREE_HOLES, pile=["C"], options=am(), turn_player=BLUE)
    assert state.phase == "choose_tile" and state.current_player == BLUE
    state.apply(Draw())
    assert state.view(None)["discarded"] == ["C"]
    assert play_round_in_first_holes(state) == [YELLOW, RED, BLUE]
    assert_over(state)


@pytest.mark.rule("CAR-AM-END-05")
def test_discard_after_a_placed_tile_in_the_previous_turn() -> None:
    """Red places the last placeable tile (U); the pile's final C is drawn and discarded in
    Blue's turn, so Blue is the last placer: the round is Yellow, Red, Blue (not Blue first)."""
    state = build(THREE_HOLES, pile=["U", "C"], options=am(), turn_player=RED)
    state.apply(Draw())
    state.apply(Place(-2, 0, 0))
    state.apply(Pass())
    # Blue holds an abbey and holes exist: he chooses between his abbey and the last tile.
    assert state.phase == "choose_tile" and state.current_player == BLUE
    state.apply(Draw())
    assert play_round_in_first_holes(state) == [YELLOW, RED, BLUE]
    assert_over(state)


# -- CAR-AM-END-06: option none ---------------------------------------------------------------------

@pytest.mark.rule("CAR-AM-END-06")
def test_option_none_ends_without_a_round() -> None:
    """The catalogue scenario under `abbey_end_of_game = none`: no abbey is placed; final
    scoring gives Red +1 for her knight on the incomplete CI (1 tile, no pennant)."""
    state = build(FX_HOLE_CITY, followers=[KNIGHT_ON_CI], pile=[],
                  options=am(abbey_end_of_game="none"), supply={YELLOW: {"abbey": 0}})
    assert_over(state)
    assert state.scores == [1, 0, 0]
    assert events(state) == [("city", False, 1, [RED])]
    assert abbeys_held(state) == [1, 1, 0]
    assert not any(t["tile"] == "ABBEY" for t in state.view(None)["board"])
    assert state.view(None)["final_round"] is None


@pytest.mark.rule("CAR-AM-END-06")
def test_option_none_abbey_still_playable_during_the_game() -> None:
    """The option only removes the round: while tiles remain, Red may still choose her abbey
    instead of drawing; after the last tile the game ends at once, Blue keeping his abbey."""
    state = build(FX_HOLE_CITY, followers=[KNIGHT_ON_CI], pile=["U"],
                  options=am(abbey_end_of_game="none"))
    assert state.phase == "choose_tile"
    assert offered(state) == {Draw(), PlaceAbbey(0, 1)}
    assert abbey_turn(state, 0, 1) == [2, 0, 0]  # CI closed by the abbey
    assert state.current_player == BLUE and state.phase == "place_tile"
    state.apply(Place(2, 0, 0))
    state.apply(Pass())
    assert_over(state)
    assert abbeys_held(state) == [0, 1, 1]


@pytest.mark.rule("CAR-AM-END-06")
def test_option_none_no_round_even_when_holes_and_abbeys_remain() -> None:
    """Red draws the last tile instead of her abbey: the game ends right after her turn,
    although three holes and three abbeys remain."""
    state = build(THREE_HOLES, pile=["U"], options=am(abbey_end_of_game="none"))
    state.apply(Draw())
    state.apply(Place(-2, 0, 0))
    state.apply(Pass())
    assert_over(state)
    assert abbeys_held(state) == [1, 1, 1]


# -- CAR-AM-END-07: option voluntary_round ----------------------------------------------------------

def voluntary_end_01() -> CarcassonneState:
    """The situation of CAR-AM-END-01 under `abbey_end_of_game = voluntary_round`."""
    return build(FX_HOLE_CITY, followers=[KNIGHT_ON_CI], pile=[],
                 options=am(abbey_end_of_game="voluntary_round"), supply={YELLOW: {"abbey": 0}})


@pytest.mark.rule("CAR-AM-END-07")
def test_voluntary_round_red_passes_blue_places() -> None:
    """Red may pass; after her pass Blue is offered the same choice and places at (0,1), which
    closes CI for Red's knight (+2 to Red). Yellow has no abbey: final scoring follows."""
    state = voluntary_end_01()
    assert_round_turn(state, RED, [(0, 1)], may_pass=True)
    state.apply(Pass())
    assert state.scores == [0, 0, 0]
    assert_round_turn(state, BLUE, [(0, 1)], may_pass=True)
    assert abbey_turn(state, 0, 1) == [2, 0, 0]
    assert_over(state)
    assert abbeys_held(state) == [1, 0, 0]


@pytest.mark.rule("CAR-AM-END-07")
def test_voluntary_round_both_pass() -> None:
    """Red and Blue both pass: final scoring gives Red +1 for the knight on the incomplete CI,
    and both keep their abbeys."""
    state = voluntary_end_01()
    state.apply(Pass())
    state.apply(Pass())
    assert_over(state)
    assert state.scores == [1, 0, 0]
    assert events(state) == [("city", False, 1, [RED])]
    assert abbeys_held(state) == [1, 1, 0]


@pytest.mark.rule("CAR-AM-END-07")
def test_voluntary_round_red_places() -> None:
    """Placing stays possible in the voluntary round: Red places at (0,1) (+2 for CI) and Blue,
    with no hole left, is skipped."""
    state = voluntary_end_01()
    assert abbey_turn(state, 0, 1) == [2, 0, 0]
    assert_over(state)
    assert abbeys_held(state) == [0, 1, 0]


@pytest.mark.rule("CAR-AM-END-07")
def test_voluntary_round_keeps_the_order_and_one_turn_each() -> None:
    """Blue placed the last tile: the voluntary round runs Yellow, Red, Blue; a player who
    passed is not asked again, even though holes remain at the end."""
    state = build(THREE_HOLES, pile=[], options=am(abbey_end_of_game="voluntary_round"),
                  turn_player=YELLOW)
    assert_round_turn(state, YELLOW, THREE_HOLE_POSITIONS, may_pass=True)
    state.apply(Pass())
    assert_round_turn(state, RED, THREE_HOLE_POSITIONS, may_pass=True)
    abbey_turn(state, 2, 1)
    assert_round_turn(state, BLUE, [(0, 1), (4, 1)], may_pass=True)
    state.apply(Pass())
    assert_over(state)
    assert abbeys_held(state) == [0, 1, 1]


@pytest.mark.rule("CAR-AM-END-07")
def test_voluntary_round_rejects_drawing() -> None:
    """Even in the voluntary round the only choices are the abbey or a pass."""
    state = voluntary_end_01()
    assert_illegal(state, Draw())
    assert_illegal(state, PlaceAbbey(-1, 2))


# -- CAR-AM-END-50: wagons in the final round -------------------------------------------------------

@pytest.mark.rule("CAR-AM-END-50")
def test_wagon_moved_onto_the_abbey_in_the_round_scores_at_the_end() -> None:
    """The catalogue scenario: FX-HOLE-CITY, empty pile, Red first in the round with her wagon
    on CI. Her abbey at (0,1) (no figure) closes CI: Red +2. Red then decides for her wagon
    (targets from (-1,1): road RD, city CD, the new abbey, the monastery of (0,2)) and moves it
    onto the abbey; final scoring counts the abbey's 7 neighbours: Red +8, +10 in all."""
    state = build(FX_HOLE_CITY, followers=[(RED, -1, 1, "E", "wagon")], pile=[], options=am(),
                  turn_player=RED)
    assert abbey_turn(state, 0, 1) == [2, 0, 0]
    assert state.phase == "wagon_move" and state.current_player == RED
    assert offered(state) == {
        Pass(),
        Deploy(-1, 0, "E.W", "wagon"), Deploy(0, 0, "E.W", "wagon"),  # road RD
        Deploy(0, 0, "N", "wagon"),                                   # city CD
        Deploy(0, 1, "MONASTERY", "wagon"),                           # the abbey just placed
        Deploy(0, 2, "MONASTERY", "wagon"),                           # monastery of B@(0,2)
    }
    state.apply(Deploy(0, 1, "MONASTERY", "wagon"))
    assert_over(state)
    assert state.scores == [10, 0, 0]
    assert events(state) == [("city", True, 2, [RED]), ("monastery", False, 8, [RED])]
    assert state.view(None)["supply"][RED]["wagon"] == 1


@pytest.mark.rule("CAR-AM-END-50")
def test_wagon_taken_back_in_the_round_scores_nothing_more() -> None:
    """If Red takes the wagon back instead, final scoring has nothing left: Red ends at +2."""
    state = build(FX_HOLE_CITY, followers=[(RED, -1, 1, "E", "wagon")], pile=[], options=am())
    abbey_turn(state, 0, 1)
    state.apply(Pass())
    assert_over(state)
    assert state.scores == [2, 0, 0]
    assert state.view(None)["supply"][RED]["wagon"] == 1


@pytest.mark.rule("CAR-AM-END-50")
def test_other_players_wagon_is_decided_in_the_round_turn() -> None:
    """Blue's wagon on CI: Red's round abbey closes it (Blue +2) and Blue decides for his
    wagon within Red's turn; he moves it onto Red's empty abbey and scores it at the end
    (+8)."""
    state = build(FX_HOLE_CITY, followers=[(BLUE, -1, 1, "E", "wagon")], pile=[], options=am())
    assert abbey_turn(state, 0, 1) == [0, 2, 0]
    assert state.phase == "wagon_move"
    assert state.current_player == BLUE and state.turn_player == RED
    state.apply(Deploy(0, 1, "MONASTERY", "wagon"))
    assert_over(state)
    assert state.scores == [0, 10, 0]


@pytest.mark.rule("CAR-AM-END-50", "CAR-AM-END-04")
def test_wagon_resolved_before_the_next_round_turn() -> None:
    """With a second hole, the wagon decision comes before Blue's round turn, and the abbey it
    moved onto is occupied for the rest of the game: Red +2 (CI) now, Blue fills (2,1) with a
    monk, then final scoring: Red +8 (wagon on the abbey at (0,1)), Blue +8 (7 neighbours of
    (2,1))."""
    state = build(HOLE_CITY_AND_ONE_MORE, followers=[(RED, -1, 1, "E", "wagon")], pile=[],
                  options=am(), turn_player=RED)
    assert abbey_turn(state, 0, 1) == [2, 0, 0]
    assert state.phase == "wagon_move" and state.current_player == RED
    state.apply(Deploy(0, 1, "MONASTERY", "wagon"))
    assert_round_turn(state, BLUE, [(2, 1)])
    assert abbey_turn(state, 2, 1, "follower") == [8, 8, 0]
    assert_over(state)
    assert state.scores == [10, 8, 0]


@pytest.mark.rule("CAR-AM-END-50", "CAR-AM-END-04")
def test_wagon_on_a_completed_round_abbey_moves_and_scores_at_the_end() -> None:
    """FX-RING, Red's round abbey with her wagon on it is complete at once (+9); the wagon is
    then moved to the road of (0,0) and scored there at final scoring (3 tiles, +3)."""
    state = build(FX_RING, pile=[], options=am())
    assert abbey_turn(state, 0, 1, "wagon") == [9, 0, 0]
    assert state.phase == "wagon_move" and state.current_player == RED
    assert Deploy(0, 0, "E.W", "wagon") in state.legal_actions()
    state.apply(Deploy(0, 0, "E.W", "wagon"))
    assert_over(state)
    assert state.scores == [12, 0, 0]
    assert events(state) == [("monastery", True, 9, [RED]), ("road", False, 3, [RED])]


@pytest.mark.rule("CAR-AM-END-50", "CAR-AM-END-02")
def test_wagon_of_the_last_landscape_turn_then_again_in_the_round() -> None:
    """FX-HOLE-CITY, Blue's wagon on the city of (0,0), pile [E]. Red draws E and closes that
    city with `E@(0,-1)/180` (Blue +4); Blue moves his wagon onto CI before the round starts.
    The round then starts with Blue (left of Red, who placed the last tile): his abbey closes
    CI (Blue +2) and his wagon moves on to that abbey, scored at the end (+8)."""
    state = build(FX_HOLE_CITY, followers=[(BLUE, 0, 0, "N", "wagon")], pile=["E"],
                  options=am(), turn_player=RED)
    state.apply(Draw())
    state.apply(Place(0, -1, 180))
    state.apply(Pass())
    assert state.scores == [0, 4, 0]
    assert state.phase == "wagon_move" and state.current_player == BLUE
    state.apply(Deploy(-1, 1, "E", "wagon"))
    assert_round_turn(state, BLUE, [(0, 1)])
    assert abbey_turn(state, 0, 1) == [0, 2, 0]
    assert state.phase == "wagon_move" and state.current_player == BLUE
    assert Deploy(0, 1, "MONASTERY", "wagon") in state.legal_actions()
    state.apply(Deploy(0, 1, "MONASTERY", "wagon"))
    assert_over(state)
    assert state.scores == [0, 14, 0]
    assert abbeys_held(state) == [1, 0, 1]
