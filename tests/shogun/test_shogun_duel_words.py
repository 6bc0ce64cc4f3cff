"""A duel as it counts, in words: each play with its counted value and combo, ignores and
purges naming the card they hit, in the view and in the log."""

from __future__ import annotations

from game_helpers import GREEN, RED, scene

from boardwright.games.shogun.texts import event_text


def test_plays_read_with_their_value_combo_and_effect() -> None:
    state = scene(heroes=("prince", "ninja"), hero_at={GREEN: "mino", RED: "kaga"},
                  peasants={"owari": RED}, castles={"totomi": RED},
                  hands={GREEN: ["pri_courtiers_blade", "pri_blackmail"],
                         RED: ["nin_vanish", "nin_smoke_bomb"]})
    state.apply({"type": "attack", "space": "owari", "opening": "pri_courtiers_blade"})
    state.apply({"type": "duel_play", "card": "nin_vanish"})
    state.apply({"type": "duel_play", "card": "pri_blackmail", "target": 1})
    words = [p["text"] for p in state.view(None)["duel"]["play_words"]]
    assert words[0] == "Courtier's Blade: basic attack 3 + combo 2 = 5"
    assert words[1].startswith("Vanish: ") and words[1].endswith("(ignored: it does not count)")
    assert words[2] == ("Blackmail: special, ignores the card played second "
                        "(Red's Vanish)")
    cards = [e for e in state.log if e["event"] == "duel_card"]
    assert [e["seat"] for e in cards] == [RED, GREEN]
    assert event_text(state.game, cards[1]) == (
        "Green plays Blackmail in the duel: special, and ignores the card played second "
        "(Red's Vanish).")
    assert "value" not in event_text(state.game, cards[0]).lower().split(":")[0]
