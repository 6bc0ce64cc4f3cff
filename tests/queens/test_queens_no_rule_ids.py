"""No rule id ("QUE-VAL-02") reaches a player of Queens & Princes: not in the words of its
moves, its views (log entries included), its table data or its reasons for an ending."""

from __future__ import annotations

import random
import re

from text_helpers import strings

import boardwright as bw
from boardwright.games.queens import texts

RULE_ID = re.compile(r"\b[A-Z]{2,5}-[A-Z]{2,}\b|\(-\d+\)")


def test_no_rule_id_in_the_words_of_a_whole_game() -> None:
    game = bw.load("queens", 3, {})
    state = game.new_game(4)
    rng = random.Random(4)
    found: list[str] = [*texts.END_REASONS.values()]
    found += [texts.end_text(reason) for reason in texts.END_REASONS]
    found += texts.setup_words({})
    while not state.is_terminal:
        actions = state.legal_actions()
        found += [game.describe(state, a, state.current_player) for a in actions]
        state.apply(rng.choice(actions))
        if len(found) < 20_000:
            found += list(strings(state.view(state.current_player)))
            found += list(strings(game.table_data(state)))
    found += list(strings(state.view(None))) + list(strings(game.table_data(state)))
    kinds = {entry["event"] for entry in state.view(None)["log"]}
    assert len(found) > 1000 and len(kinds) > 2
    assert not [t for t in found if RULE_ID.search(t)]
