"""Queens' words (games/queens/texts.py): moves as the log reads them (`Game.describe`, one text
for every viewer: nothing in this game is hidden), the sentences of the logged events that
each view carries as `text`, and the board names of the spaces."""

from __future__ import annotations

import re
from pathlib import Path

from queens_helpers import BLUE, RED, custom, seat

import boardwright as bw
from boardwright.games.queens import Found, Joint, Move, Pass, Sow
from boardwright.games.queens.texts import (
    END_REASONS, EVENT_KINDS, entry_text, event_text, label, with_texts,
)

VIEWERS = (None, RED, BLUE, bw.OMNISCIENT)


def words(state: object, action: object) -> str:
    """The game's words for `action`, the same for every viewer, then the action taken."""
    game = state.game  # type: ignore[attr-defined]
    texts = {game.describe(state, action, viewer) for viewer in VIEWERS}
    assert len(texts) == 1, texts
    state.apply(action)  # type: ignore[attr-defined]
    return texts.pop()


def logged(state: object, start: int) -> list[str]:
    """The view's event texts from entry `start` on."""
    return [e["text"] for e in state.view(BLUE)["log"][start:]]  # type: ignore[attr-defined]


def test_spaces_are_named_by_row_letter_and_column() -> None:
    assert label((0, 0), 5) == "f11"
    assert label((-5, 0), 5) == "f1" and label((5, 0), 5) == "f21"
    assert label((0, -5), 5) == "a6" and label((0, 5), 5) == "k16"


def test_moves_attacks_and_their_events_in_words() -> None:
    state = custom(seat((-1, 4), princes=[(-1, 3), (0, 2)], cities=[(-1, 4)]),
                   seat((2, 0), princes=[(-1, 2), (3, -4)], fields=[(0, 3)]))
    assert words(state, Joint((-1, 3), (0, 2), (-1, 2))) == \
        "Princes i12 and h13 attack h11 together (6 against 4)"
    assert logged(state, 0) == ["Blue's Prince on h11 is defeated by Red."]
    assert words(state, Move((3, -4), (3, -3))) == "moves the Prince b13 → c14"
    assert words(state, Move((-1, 4), (0, 3))) == "moves the Queen j13 → i14"
    assert logged(state, 1) == ["Red captures Blue's Field on i14.",
                                "Red did not split the stack on h11: one of its Princes is lost."]
    assert state.game.describe(state, Sow((0, -3)), None) == "sows a Field on c8"


def test_founding_passing_and_the_end_of_the_game() -> None:
    state = custom(seat((0, -3), princes=[(1, -4), (-1, -3)]), seat((0, -4)))
    assert state.game.describe(state, Found(), BLUE) == "founds a City on c8"
    assert state.game.describe(state, Pass(), RED) == "passes (nothing else is possible)"
    assert words(state, Joint((-1, -3), (1, -4), (0, -4))) == \
        "Princes c6 and b9 attack b7 together (8 against 4)"
    assert state.is_terminal
    assert logged(state, 0) == ["Blue's Queen on b7 is captured by Red.",
                                f"Game over: Red wins ({END_REASONS['queen_captured']})."]


def test_each_kind_of_event_has_its_sentence() -> None:
    name = ["Red", "Blue"].__getitem__
    entries = {
        "princes_defeated": ({"player": BLUE, "at": [0, 0], "by": RED, "count": 2},
                             "Blue's two Princes on f11 are defeated by Red."),
        "city_destroyed": ({"player": BLUE, "at": [0, 0], "by": RED},
                           "Blue's City on f11 is destroyed by Red (back to supply)."),
        "field_kept": ({"player": BLUE, "at": [0, 0], "by": RED},
                       "Red has no Field left to swap in: the Field on f11 stays Blue."),
        "final_round": ({"player": RED}, "Red has sown every Field: this is the final round."),
        "eliminated": ({"player": BLUE},
                       "Blue is eliminated: its Princes and Cities leave the board, its Fields "
                       "stay."),
    }
    for kind, (entry, sentence) in entries.items():
        assert event_text({"event": kind, **entry}, name, 5) == sentence
    assert event_text({"event": "game_over", "player": -1}, name, 5) is None


def test_every_event_kind_the_engine_logs_is_worded_without_engine_codes() -> None:
    source = "".join(path.read_text() for path in
                     Path(bw.__file__).parent.joinpath("games", "queens").glob("*.py"))
    logged_kinds = set(re.findall(r'event\(state, "([a-z_]+)"', source))
    assert logged_kinds == set(EVENT_KINDS)
    name = ["Red", "Blue"].__getitem__
    sample = {"player": BLUE, "at": [0, 0], "by": RED, "count": 1, "winners": [BLUE],
              "reason": "round_limit", "round": 50}
    for kind in EVENT_KINDS:
        text = entry_text({"event": kind, **sample}, name, 5)
        assert text and text[0].isupper() and text.endswith("."), (kind, text)
        assert "_" not in text and "Seat" not in text and "(0,0)" not in text, (kind, text)
        assert text != kind.replace("_", " ").capitalize() + ".", (kind, text)  # not the fallback


def test_the_end_names_the_winner_or_the_draw() -> None:
    name = ["Red", "Blue"].__getitem__
    blue = {"event": "game_over", "player": -1, "winners": [BLUE], "reason": "queen_captured"}
    assert entry_text(blue, name, 5) == \
        "Game over: Blue wins (the enemy Queen is captured)."
    draw = {"event": "game_over", "player": -1, "winners": [RED, BLUE], "reason": "round_limit"}
    assert entry_text(draw, name, 5) == ("Game over: a draw between Red and Blue, level on "
                                         "Fields, Cities and Princes (the end of round 50).")
    words = with_texts([draw], name, 5)[0]["words"]  # seats left for the table to name
    assert {"seat": RED} in words and {"seat": BLUE} in words


def test_each_view_carries_the_standing_in_the_lobby_s_words() -> None:
    """The players panel's figures come from the game: one Field, City and Prince in the
    singular, the supplies beside them, and the same words as `score_words`."""
    state = custom(seat((0, 4), princes=[(1, 3)], cities=[(0, 4)], fields=[(0, 3)]),
                   seat((0, -4), princes=[(-1, -3), (1, -4)], cities=[(0, -4), (2, -3)],
                        fields=[(0, -3), (1, -3)]))
    standing = state.view(BLUE)["standing"]
    assert standing == state.view(None)["standing"]  # nothing hidden
    assert standing[RED]["parts"] == ["1 Field (9 in supply)", "1 City (2 in supply)",
                                      "1 Prince"]
    assert standing[BLUE]["parts"] == ["2 Fields (8 in supply)", "2 Cities (1 in supply)",
                                       "2 Princes"]
    assert [s["words"] for s in standing] == state.game.score_words(state.scores) == \
        ["1 Field, 1 City, 1 Prince", "2 Fields, 2 Cities, 2 Princes"]


def test_the_standing_rule_says_what_separates_the_leaders_in_the_rules_order() -> None:
    from boardwright.games.queens.texts import STANDING_RULE, standing_rule, standing_rule_text

    names = ["Red", "Blue", "Yellow"].__getitem__
    # level on Fields, Red ahead on Cities; Yellow (eliminated) is left out
    text = standing_rule_text([324, 313, -1], names)
    assert text == f"{STANDING_RULE} Red leads Blue on Cities: 2 to 1 (level on Fields)."
    text = standing_rule_text([100, 412], names)
    assert text == f"{STANDING_RULE} Blue leads Red on Fields: 4 to 1."
    assert standing_rule_text([5, 5], names) == \
        f"{STANDING_RULE} Red and Blue are level on all three."
    assert standing_rule_text([5, -1], names) == STANDING_RULE
    # the view's sentence leaves the seats open for the web's names
    rule = standing_rule([100, 412], names)
    assert rule["words"] == [f"{STANDING_RULE} ", {"seat": 1}, " leads ", {"seat": 0},
                             " on Fields: 4 to 1."]


def test_every_queens_view_carries_the_standing_rule() -> None:
    state = bw.load("queens", players=3).new_game(seed=3)
    for seat in (None, 0, 2):
        rule = state.view(seat)["standing_rule"]
        assert rule["text"].startswith("Ranked by Fields on the board")
