"""Every log event the engine emits has its own sentence, in players' words, naming the seat
that caused it first; and a beaten hero sent away is logged as the winner's doing."""

from __future__ import annotations

import pathlib
import re

import pytest
from game_helpers import GREEN, RED, scene

import boardwright as bw
from boardwright.games.shogun import texts as texts_module
from boardwright.games.shogun.texts import event_text

SOURCES = pathlib.Path(texts_module.__file__).parent
EMITTED = sorted({kind for path in SOURCES.glob("*.py")
                  for kind in re.findall(r'\.event\(\s*"([a-z_]+)"', path.read_text())})
SAMPLE = {"space": "shima", "hero": GREEN, "card": "sam_katana_cut", "treasure": "t_oni",
          "colour": "green", "opponent": GREEN, "reason": "threshold", "winners": [RED],
          "source": "ise", "kind": "recruit", "mission": "m1", "target": "hero",
          "defender": GREEN, "opening": "sam_katana_cut", "success": True, "attack": 5,
          "block": 3, "spaces": ["ise"], "captured_by": RED, "category": "basic_attack",
          "value": 3, "combo": 2}
CODES = re.compile(r"SHO-|\b[a-z]+_[a-z_]+\b|\bm\d\b|\bt_|\{|\}")


def game() -> bw.Game:
    return bw.load("shogun", 2, {})


def test_the_engine_emits_the_known_kinds() -> None:
    assert {"hero_moved", "hero_sent", "duel", "attack", "mission_completed"} <= set(EMITTED)
    assert len(EMITTED) >= 30


@pytest.mark.parametrize("kind", EMITTED)
def test_every_event_kind_reads_as_a_sentence_with_its_actor_first(kind: str) -> None:
    g = game()
    entry = {"event": kind, "seat": RED, "turn": 4, "round": 2, **SAMPLE}
    text = event_text(g, entry)
    assert text != f"Red: {kind.replace('_', ' ')}.", "the fallback wording"
    assert text[0].isupper() and text.endswith("."), text
    assert CODES.search(text) is None, text
    if kind != "game_over":
        assert text.startswith("Red"), text  # the seat that acts leads the sentence


@pytest.mark.parametrize("how", ["", "free_move", "sandals"])
def test_a_hero_move_says_why(how: str) -> None:
    entry = {"event": "hero_moved", "seat": GREEN, "turn": 1, "space": "ise",
             **({"how": how} if how else {})}
    text = event_text(game(), entry)
    assert text.startswith("Green's hero") and "Ise" in text and "_" not in text


def test_a_beaten_hero_is_sent_away_by_the_winner() -> None:
    """Red beats Green's hero and relocates it next to Green's castle (SHO-ATK-08): the log
    names Red as the one who sends it."""
    state = scene(phase="hero", castles={"totomi": GREEN}, hero_at={RED: "mikawa",
                                                                     GREEN: "owari"},
                  active=RED)
    state.pending.insert(0, ("relocate_hero", RED, GREEN))
    space = next(a for a in state.legal_actions() if a.to_json()["type"] == "relocate_hero")
    state.apply(space)
    entry = state.log[-1]
    assert entry["event"] == "hero_sent" and entry["seat"] == RED and entry["hero"] == GREEN
    text = event_text(state.game, entry)
    assert text.startswith("Red's victory sends Green's hero to "), text
    assert entry["round"] == state.round
