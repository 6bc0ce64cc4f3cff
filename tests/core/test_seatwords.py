"""Sentences with their seats left open (core.seatwords), and the games' logs that carry them:
the pieces name exactly the seats the text names, and filled with the game's seat names they
read as the text does."""

from __future__ import annotations

import random

import pytest

import boardwright as bw
from boardwright.core.seatwords import sentence, words

COLOURS = ["Red", "Blue", "Green"]


def colour(seat: int) -> str:
    return COLOURS[seat] if 0 <= seat < len(COLOURS) else "Nobody"


def fill(pieces, name) -> str:
    return "".join(p if isinstance(p, str) else name(p["seat"]) for p in pieces)


def test_words_mark_each_seat_the_sentence_names():
    def render(name):
        return f"{name(0)} and {name(2)} +3 (road, shared); {name(1)}'s turn"

    assert words(render, colour) == [{"seat": 0}, " and ", {"seat": 2}, " +3 (road, shared); ",
                                      {"seat": 1}, "'s turn"]
    assert sentence(render, colour) == {"text": "Red and Green +3 (road, shared); Blue's turn",
                                        "words": words(render, colour)}


def test_a_seat_outside_the_table_keeps_its_words_and_a_sentence_without_seats_has_no_words():
    assert words(lambda name: f"{name(-1)} scores", colour) == ["Nobody scores"]
    assert words(lambda name: f"{name(5)} wins", colour, seats=3) == ["Nobody wins"]
    assert sentence(lambda name: "The final round.", colour) == {"text": "The final round."}


@pytest.mark.parametrize("game_name, players, moves", [("carcassonne", 2, 10_000),
                                                       ("queens", 3, 300), ("shogun", 3, 300)])
def test_every_logged_sentence_of_a_game_fills_back_to_its_text(game_name, players, moves):
    game = bw.load(game_name, players=players)
    state = game.new_game(3)
    rng = random.Random(3)
    named = 0
    for _ in range(moves):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    seat_name = (lambda seat: game.info.seat(seat).name) if game_name != "shogun" \
        else (lambda seat: game.colours[seat].capitalize())
    for entry in state.view(None)["log"]:
        if "words" not in entry:
            continue
        named += 1
        seats = [p["seat"] for p in entry["words"] if isinstance(p, dict)]
        assert all(0 <= s < players for s in seats)
        assert fill(entry["words"], seat_name) == entry["text"]
    assert named > 0
