"""The "How to play" pages (static/help) teach each game with the game's own numbers: no rule
id reaches a player, every figure they show exists and says what it shows, and the figures
the pages quote (victory points, heroes' scores, strengths, limits) are those the engine
plays with."""

from __future__ import annotations

import html
import pathlib
import re

import pytest

import boardwright as bw
from boardwright.games.queens.battle import CITY_VALUE, PRINCE_BASE, QUEEN_VALUE
from boardwright.games.queens.movement import QUEEN_MOVE
from boardwright.games.queens.position import FIELDS_PER_PLAYER, MAX_ROUNDS
from boardwright.games.shogun.decks import load_decks
from boardwright.games.shogun.hero_words import ABILITIES
from boardwright.games.shogun.options import DEFAULT_THRESHOLDS
from boardwright.games.shogun.scoring import CASTLE_VP

STATIC = pathlib.Path(bw.__file__).parent / "web" / "static"
PAGES = sorted((STATIC / "help").glob("*.html"))
# "SHO-MOVE-01", "QUE-VAL-02", "CAR-FARM-3", "(SHO-SHRINE-01)", "SHO-ATK-07/-08"
RULE_ID = re.compile(r"\b[A-Z]{2,5}-[A-Z]{2,}\b|\(-\d+\)")


def page(name: str) -> str:
    return (STATIC / "help" / f"{name}.html").read_text()


def words(name: str) -> str:
    """A page's text without its markup, spaces collapsed."""
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page(name))).split())
    return re.sub(r" ([,.;:)])", r"\1", text)


def test_the_pattern_finds_rule_ids() -> None:
    for text in ("following SHO-MOVE-01", "QUE-VAL-02 says", "(-07)", "see CAR-FARM."):
        assert RULE_ID.search(text), text
    assert not RULE_ID.search("5 − distance, Body 9, f11, Queens & Princes, 4 + 3")


@pytest.mark.parametrize("path", PAGES, ids=[p.stem for p in PAGES])
def test_no_rule_id_in_a_help_page(path: pathlib.Path) -> None:
    assert not RULE_ID.findall(path.read_text())


@pytest.mark.parametrize("name, count", [("shogun", 3), ("queens", 3)])
def test_the_figures_exist_and_say_what_they_show(name: str, count: int) -> None:
    images = re.findall(r'<img src="/static/([^"]+)" alt="([^"]+)"', page(name))
    assert len(images) == page(name).count("<img") == count
    for src, alt in images:
        svg = (STATIC / src).read_text()
        assert src.startswith("img/help/") and svg.startswith("<svg ")
        assert re.search(r"<title>[^<]{10,}</title>", svg) and len(alt) > 20
        assert not RULE_ID.search(svg)


def test_the_shogun_page_lists_the_heroes_as_the_game_does() -> None:
    rows = re.findall(r"<tr><td>(\w+)</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td>"
                      r"<td>([^<]+)</td></tr>", html.unescape(page("shogun")))
    decks = load_decks()
    assert [(name, (int(b), int(m), int(k)), ability) for name, b, m, k, ability in rows] == [
        (deck.name, tuple(deck.scores[a] for a in ("body", "mind", "ki")), ABILITIES[hero])
        for hero, deck in decks.items()]


def test_the_shogun_page_gives_the_engine_s_numbers() -> None:
    text = words("shogun")
    assert f"{CASTLE_VP} VP for each castle you control" in text
    assert (f"{DEFAULT_THRESHOLDS[2]} VP with 2 players, {DEFAULT_THRESHOLDS[3]} with 3, "
            f"{DEFAULT_THRESHOLDS[4]} with 4") in text
    heir = bw.load("shogun", 2).treasure["t_an_heir"]
    assert f"An Heir is worth {heir.vp} VP" in text
    phases = re.findall(r"<li><b>(\w+):?</b>:? ", page("shogun").split("A turn: six phases")[1]
                        .split("</ol>")[0])
    assert phases == ["Discard", "Draw", "Cleanup", "Movement", "Hero", "Court"]
    for heading in ("Victory points", "Set-up", "The heroes", "Castles and missions",
                    "Peasants and chains", "Duels", "Shrines, treasures and the emperor"):
        assert f"<h3>{heading}</h3>" in page("shogun")
    missions = [m.name for m in bw.load("shogun", 2).mission.values()]
    assert len(missions) == 6 and all(name in text for name in missions)


def test_the_queens_page_gives_the_engine_s_numbers() -> None:
    text = words("queens")
    assert f"{PRINCE_BASE} − distance to its Queen" in text
    assert f"Queen defends with {QUEEN_VALUE[0]} on a plain, {QUEEN_VALUE[1]} on a mountain" \
        in text
    assert f"City with {CITY_VALUE[0]} on a plain, {CITY_VALUE[1]} on a mountain" in text
    assert f"Queen ({QUEEN_MOVE} steps)" in text
    assert f"sown all {FIELDS_PER_PLAYER} Fields" in text and f"after round {MAX_ROUNDS}" in text
    assert "must split on your next turn" in text and "captures it" in text
    assert "most Fields on the board wins, then the most Cities, then the most Princes" \
        in text
