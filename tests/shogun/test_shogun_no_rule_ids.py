"""No rule id ("SHO-MOVE-01", "(SHO-SHRINE-01)") reaches a player: not in the game's words
(texts.py, card_texts.py), the web's content data, the help page or a view's strings."""

from __future__ import annotations

import pathlib
import re

from game_helpers import GREEN, scene
from text_helpers import strings

import boardwright as bw
from boardwright.games.shogun import texts
from boardwright.games.shogun.card_texts import Words, player_text
from boardwright.web.staticdata.shogun import shogun_data

RULE_ID = re.compile(r"SHO-[A-Z]+|\(-\d+\)")
HELP = pathlib.Path(bw.__file__).parent / "web" / "static" / "help" / "shogun.html"


def test_player_text_words_inline_rule_ids() -> None:
    assert player_text("Moves 3, following SHO-MOVE-01/03/04. Done (SHO-ATK-06).") == \
        "Moves 3, following the usual movement rules. Done."
    assert player_text("See SHO-XYZ-12 and heian.", {"heian": "Heian"}) == \
        "See the rules and Heian."


def test_no_rule_id_in_the_game_words() -> None:
    g = bw.load("shogun", 4, {})
    words = Words(g)
    found = [*strings(texts.GLOSSARY), *strings(texts.PENDING_TEXTS),
             *strings(texts.PHASE_DONE), *strings(texts.END_REASONS)]
    found += [t for c in g.catalogue for t in words.card_line(c)]
    found += [t for t in g.treasure for t in words.treasure_line(t)]
    found += [t for m in g.mission for t in words.mission_line(m)]
    bad = [t for t in found if RULE_ID.search(t)]
    assert not bad and len(found) > 150


def test_no_rule_id_in_the_web_data_or_the_help_page() -> None:
    bad = [t for t in strings({k: v for k, v in shogun_data().items() if k != "comment"})
           if RULE_ID.search(t)]
    assert not bad
    assert not RULE_ID.search(HELP.read_text())


def test_no_rule_id_in_a_view_with_a_mission() -> None:
    state = scene(phase="court", courts={"kaga": GREEN}, missions={GREEN: "m4"},
                  hero_at={GREEN: "dewa"}, mission_deck=["m1", "m2", "m3", "m5", "m6"])
    view = state.view(GREEN)
    assert view["seats"][GREEN]["mission_progress"]["condition"] == \
        "The holder completes a shrine search."
    assert not [t for t in strings(view) if RULE_ID.search(t)]
