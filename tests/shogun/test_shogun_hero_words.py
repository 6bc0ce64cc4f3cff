"""Wherever a hero is chosen it shows its Body, Mind and Ki scores and what its deck is good at:
the set-up's choices (the game's words for the move) and the lobby's "Heroes" option."""

from __future__ import annotations

import boardwright as bw
from boardwright.games.shogun.decks import load_decks
from boardwright.games.shogun.hero_words import ABILITIES, hero_line


def test_each_hero_choice_names_its_scores_and_ability() -> None:
    game = bw.load("shogun", 2, {})
    state = game.new_game(1)
    assert state.phase == "heroes"
    texts = {a.to_json()["hero"]: game.describe(state, a, state.current_player)
             for a in state.legal_actions()}
    assert texts["samurai"] == ("choose the Samurai (Body 9, Mind 6, Ki 5): the biggest attacks "
                                "and blocks, almost no tricks")
    assert texts["miko"].startswith("choose the Miko (Body 4, Mind 9, Ki 8): ")
    for hero, deck in load_decks().items():  # the scores are the deck's attribute cards
        scores = ", ".join(f"{a.name} {a.score}" for a in deck.attributes)
        assert texts[hero] == f"choose the {deck.name} ({scores}): {ABILITIES[hero]}"
    # the same words for every seat, and the short name where no position is given
    assert game.describe(state, state.legal_actions()[0], None) == texts["samurai"]
    assert game.action_text(state.legal_actions()[0]) == "choose the Samurai"


def test_the_lobby_option_lists_each_hero_with_its_line() -> None:
    spec = next(s for s in bw.load("shogun", 3, {}).option_specs(3) if s.name == "heroes")
    labels = spec.to_json()["labels"]
    assert list(labels) == ["samurai", "ninja", "miko", "prince"]
    assert labels["ninja"] == "Ninja (Body 7, Mind 8, Ki 6): cheap attacks, draws cards and " \
                              "makes opponents discard"
    assert all(labels[h] == hero_line(d) for h, d in load_decks().items())
