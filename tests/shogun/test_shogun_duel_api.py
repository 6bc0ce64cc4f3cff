"""The duel's API for an embedding game: action JSON, errors, views, cheap clones and
determinization that leaks nothing."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from shogun_helpers import DECKS, PASS, cards, finish, pair, play, run, table

import boardwright as bw
from boardwright.duel import (
    DONE, ClearCard, DiscardCard, Duel, HeroCards, PickCard, PlayCard, RecallCard, UseItem,
    parse_duel_action,
)


def test_actions_round_trip_through_json() -> None:
    for action in [PlayCard("nin_vanish"), PlayCard("nin_smoke_bomb", 3), UseItem("t_great_armor"),
                   PASS, DiscardCard("sam_katana_cut"), PickCard("sam_katana_cut"),
                   ClearCard("nin_tumble"), RecallCard("mik_foxfire"), DONE]:
        data = json.loads(json.dumps(action.to_json()))
        assert data["type"].startswith("duel_")
        assert parse_duel_action(data) == action


@pytest.mark.parametrize("data, message", [
    ([], "must be a JSON object"),
    ({"type": "duel_fly"}, "unknown duel action type 'duel_fly'"),
    ({"type": "duel_play"}, "needs the field"),
    ({"type": "duel_play", "card": "x", "target": -1}, "play index"),
    ({"type": "duel_play", "card": "x", "target": True}, "play index"),
    ({"type": "duel_play", "card": 3}, "must be a card id"),
    ({"type": "duel_pass", "card": "x"}, "unknown duel_pass field"),
    ({"type": "duel_item"}, "needs the field"),
])
def test_malformed_actions(data: object, message: str) -> None:
    with pytest.raises(bw.MalformedActionError, match=message):
        parse_duel_action(data)


def test_apply_takes_json_and_rejects_answers_without_a_question() -> None:
    t = pair("samurai", ["sam_katana_cut"], "ninja", ["nin_vanish"])
    duel = Duel.peasant_attack(t, 0, 1, "sam_katana_cut")
    duel.apply({"type": "duel_play", "card": "nin_vanish"})
    assert t[1].piles["mind"] == ["nin_vanish"]
    with pytest.raises(bw.IllegalActionError, match="no effect is waiting"):
        duel.apply(DiscardCard("sam_katana_cut"))
    with pytest.raises(bw.MalformedActionError):
        duel.apply({"type": "duel_play"})
    finish(duel)
    with pytest.raises(bw.IllegalActionError, match="the duel is over"):
        duel.apply(PASS)
    assert duel.legal_actions() == [] and duel.current_player == -1


def test_every_error_is_a_boardwright_error() -> None:
    t = pair("samurai", ["sam_katana_cut"], "ninja", [])
    for attempt in (lambda: Duel.peasant_attack(t, 0, 0, "sam_katana_cut"),
                    lambda: Duel.peasant_attack(t, 0, 5, "sam_katana_cut"),
                    lambda: Duel.peasant_attack(t, 0, 1, "nin_vanish"),
                    lambda: Duel.peasant_attack(t, 0, 1, "not_a_card")):
        with pytest.raises(bw.BoardwrightError):
            attempt()
    assert t[0].hand == ["sam_katana_cut"]


def test_views_are_json() -> None:
    t = pair("ninja", ["nin_shuriken", "nin_steal_secrets"], "samurai",
             ["sam_still_mind", "sam_katana_cut"])
    duel = run(Duel.hero_attack(t, 0, 1, "nin_shuriken", space="kai"), PASS,
               play("nin_steal_secrets"))
    for viewer in (0, 1, None):
        json.dumps(duel.view(viewer))
        json.dumps(t.view(viewer))
    view = duel.view(1)
    assert view["pending"] == {"kind": "pick", "chooser": 0, "victim": 1, "remaining": 1,
                               "optional": False, "source": "nin_steal_secrets"}
    assert view["plays"][0]["card"] == "nin_shuriken" and view["target"]["space"] == "kai"


def test_clones_are_independent() -> None:
    t = pair("samurai", ["sam_katana_cut", "sam_press_the_advantage", "sam_kiai_shout"],
             "ninja", ["nin_vanish", "nin_misdirection", "nin_smoke_bomb"], seed=2)
    duel = run(Duel.peasant_attack(t, 0, 1, "sam_katana_cut"), play("nin_vanish"))
    snapshot = (duel.view(0), t.view(0))
    t2 = t.clone()
    copy = duel.clone(t2)
    run(copy, play("sam_press_the_advantage"), play("nin_smoke_bomb", 2), PASS, PASS)
    assert copy.is_over and not duel.is_over
    assert (duel.view(0), t.view(0)) == snapshot
    assert t2[0].piles["body"] == ["sam_katana_cut", "sam_press_the_advantage"]
    assert t[0].piles["body"] == ["sam_katana_cut"]
    # The same actions on the original give the same result.
    run(duel, play("sam_press_the_advantage"), play("nin_smoke_bomb", 2), PASS, PASS)
    assert duel.view(0) == copy.view(0) and t.view(0) == t2.view(0)
    assert t.catalogue is t2.catalogue  # static data is shared, not copied


def test_clone_keeps_the_random_source_in_step() -> None:
    t = pair("ninja", ["nin_tanto_thrust", "nin_poisoned_edge"], "samurai",
             ["sam_katana_cut", "sam_sword_parry", "sam_still_mind", "sam_iron_guard"], seed=9)
    duel = run(Duel.peasant_attack(t, 0, 1, "nin_tanto_thrust"), PASS, play("nin_poisoned_edge"))
    t2 = t.clone()
    copy = duel.clone(t2)
    finish(duel)
    finish(copy)
    assert t[1].discard == t2[1].discard and len(t[1].discard) == 1


def test_resample_hidden_keeps_the_view() -> None:
    rng = random.Random(1)
    players = [HeroCards.deal(s, DECKS[h], rng) for s, h in enumerate(("samurai", "ninja",
                                                                      "miko"))]
    t = table(*players, seed=5)
    players[1].place(t.catalogue[next(c for c in players[1].hand
                                      if t.catalogue[c].cost <= 6)], t.catalogue)
    before = [t.view(v) for v in (0, 1, 2, None)]
    for seed in range(20):
        world = t.clone()
        world.resample_hidden(0, random.Random(seed))
        assert world.view(0) == before[0]  # nothing the viewer sees changes
        for seat in range(3):
            assert Counter(world[seat].hand + world[seat].draw_pile) == Counter(
                t[seat].hand + t[seat].draw_pile)
            assert len(world[seat].hand) == len(t[seat].hand)
        assert world[0].hand == t[0].hand
    assert [t.view(v) for v in (0, 1, 2, None)] == before  # the original is untouched
    changed = set()
    for seed in range(20):
        world = t.clone()
        world.resample_hidden(0, random.Random(seed), known_hands=[2])
        assert world[2].hand == t[2].hand
        changed.add(tuple(sorted(world[1].hand)))
    assert len(changed) > 1


def test_views_do_not_reveal_hidden_cards() -> None:
    t = table(cards(0, "samurai", ["sam_katana_cut", "sam_iron_guard"],
                    deck=["sam_swift_draw", "sam_still_mind"]),
              cards(1, "ninja", ["nin_feint"], deck=["nin_caltrops"]))
    duel = Duel.peasant_attack(t, 0, 1, "sam_katana_cut")
    blue_sees = json.dumps([duel.view(1), t.view(1)])
    for hidden in ("sam_iron_guard", "sam_swift_draw", "sam_still_mind"):
        assert hidden not in blue_sees
    red_sees = json.dumps([duel.view(0), t.view(0)])
    for hidden in ("nin_feint", "nin_caltrops"):
        assert hidden not in red_sees
    spectator = json.dumps([duel.view(None), t.view(None)])
    for hidden in ("sam_iron_guard", "nin_feint", "nin_caltrops", "sam_swift_draw"):
        assert hidden not in spectator


def test_the_duel_package_imports_no_game() -> None:
    import ast
    from pathlib import Path

    import boardwright.duel

    folder = Path(boardwright.duel.__file__).parent
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not name.startswith(("boardwright.games", "boardwright.server",
                                            "boardwright.sim", "boardwright.agents")), (
                    f"{path.name} imports {name}")
