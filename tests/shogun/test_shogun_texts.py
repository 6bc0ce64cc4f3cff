"""Rise of the Shogun in words (`games/shogun/texts.py`): every action, log event and waiting
step of random games reads as a sentence with provinces, cards, treasures and missions by their
printed names, never by id, and no seat reads what another seat's action hides."""

from __future__ import annotations

import ast
import inspect
import random
import re
from functools import lru_cache

import pytest

import boardwright as bw
from boardwright.games.shogun import steps as steps_module
from boardwright.games.shogun.actions import GAME_ACTIONS
from boardwright.games.shogun.texts import PENDING_TEXTS, action_words, event_text, pending_text

PLAYERS_SEEDS = [(2, range(0, 6)), (3, range(6, 10)), (4, range(10, 13))]


@lru_cache(maxsize=None)
def game(players: int) -> bw.Game:
    return bw.load("shogun", players, {"max_rounds": 5})


def played(players: int, seeds: range):
    """(state before, action, actor) for every action of random games."""
    g = game(players)
    for seed in seeds:
        state = g.new_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            action = rng.choice(state.legal_actions())
            yield state, action, state.current_player
            state.apply(action)
        yield state, None, None


@lru_cache(maxsize=None)
def raw_ids(players: int) -> re.Pattern[str]:
    """Any id the engine uses for a thing with a printed name, as a whole word."""
    g = game(players)
    ids = (set(g.board.ids) | set(g.catalogue) | set(g.treasure) | set(g.mission)
           | set(g.hero_ids))
    return re.compile(r"\b(" + "|".join(sorted(map(re.escape, ids), key=len, reverse=True))
                      + r")\b")


def assert_words(text: str, players: int, what: object, sentence: bool = False) -> None:
    assert text and text.strip() == text, what
    assert len(text.split()) >= 2 or text == "pass", (text, what)
    if sentence:
        assert text[0].isupper() and text.endswith("."), (text, what)
    assert "_" not in text and "=" not in text and "{" not in text, (text, what)
    found = raw_ids(players).search(text)
    assert found is None, (text, found.group(0) if found else None, what)


@pytest.mark.parametrize("players, seeds", PLAYERS_SEEDS)
def test_every_action_and_event_of_random_games_reads_as_words(players, seeds) -> None:
    g = game(players)
    actions, events, pendings = set(), set(), set()
    for state, action, actor in played(players, seeds):
        view = state.view(None)
        if view["pending"] is not None:
            pendings.add(view["pending"]["kind"])
            assert view["pending"]["text"] == PENDING_TEXTS[view["pending"]["kind"]]
        if action is None:
            for entry in state.log:
                events.add(entry["event"])
                assert_words(event_text(g, entry), players, entry, sentence=True)
            assert [e["text"] for e in view["log"]] == [event_text(g, e) for e in state.log[-30:]]
            continue
        kind = action.to_json()["type"]
        actions.add(kind)
        assert_words(g.action_text(action), players, action)
        for viewer in (None, *range(players)):
            assert_words(g.describe(state, action, viewer), players, (action, viewer))
    # the games went through set-up, turns, duels and their consequences
    assert {"choose_hero", "place_castle", "move", "attack", "duel_play", "done"} <= actions
    assert {"hero_chosen", "castle_placed", "hero_moved", "attack", "duel", "game_over"} <= events


def test_every_action_type_has_its_own_words() -> None:
    """Also the action types random games rarely reach: each has a sentence of its own (not
    the fallback that only spells the type)."""
    g = game(3)
    sample = {"space": "tajima", "source": "kawachi", "target": "izumi",
              "card": "sam_katana_cut", "opening": "t_raiju", "treasure": "t_raiju",
              "hero": "ninja", "attribute": "ki", "kind": "reorganise", "opponent": 1,
              "colour": "red"}
    for kind, cls in GAME_ACTIONS.items():
        data = {"type": kind, **{f: sample[f] for f in cls.__dataclass_fields__}}
        text = action_words(g, data)
        assert text != kind.replace("_", " "), kind
        assert_words(text, 3, data)
    for data in ({"type": "duel_play", "card": "nin_smoke_bomb", "target": 0},
                 {"type": "duel_item", "item": "t_great_armor"}, {"type": "duel_pass"},
                 {"type": "duel_discard", "card": "sam_iron_guard"},
                 {"type": "duel_pick", "card": "sam_iron_guard"},
                 {"type": "duel_clear", "card": "sam_iron_guard"},
                 {"type": "duel_recall", "card": "sam_iron_guard"}, {"type": "duel_done"}):
        assert_words(action_words(g, data), 3, data)


@pytest.mark.parametrize("players, seeds", PLAYERS_SEEDS[:2])
def test_no_seat_reads_what_another_seat_hides(players, seeds) -> None:
    """The property over random games: a viewer who may not see all of an action reads the
    text of its public form, which names no hidden value (neither its id nor its name)."""
    g = game(players)
    hidden_seen = 0
    for state, action, actor in played(players, seeds):
        if action is None:
            continue
        whole = action.to_json()
        for viewer in (None, *range(players)):
            text = g.describe(state, action, viewer)
            public = g.public_action(action, actor, viewer)
            if public == whole:
                continue
            hidden_seen += 1
            assert text == g.secret_action_text(public)
            for key in set(whole) - set(public):
                value = whole[key]
                assert str(value) not in text
                assert g.treasure[value].name not in text
        # the acting seat reads the whole action, hidden treasure by name
        own = g.describe(state, action, actor)
        if "treasure" in whole:
            assert g.treasure[whole["treasure"]].name in own
    assert hidden_seen > 0


def pending_kinds() -> set[str]:
    """Every kind of waiting step the engine knows: the kinds `pending_actions` and
    `run_automatic` handle (an unknown kind is an AssertionError there), the automatic ones,
    and every step tuple queued anywhere in the package."""
    kinds = set(steps_module.AUTOMATIC)
    tree = ast.parse(inspect.getsource(steps_module))
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) \
                and node.left.id == "kind":
            for comp in node.comparators:
                if isinstance(comp, ast.Constant) and isinstance(comp.value, str):
                    kinds.add(comp.value)
                elif isinstance(comp, ast.Tuple):
                    kinds.update(e.value for e in comp.elts if isinstance(e, ast.Constant))
    queued = set()
    import boardwright.games.shogun as package
    from pathlib import Path
    for path in Path(package.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("append", "insert"):
                for arg in node.args:
                    if isinstance(arg, ast.Tuple) and arg.elts \
                            and isinstance(arg.elts[0], ast.Constant) \
                            and isinstance(arg.elts[0].value, str) and len(arg.elts) >= 2:
                        queued.add(arg.elts[0].value)
    assert queued <= kinds, queued - kinds
    return kinds


def test_every_waiting_step_has_a_sentence() -> None:
    kinds = pending_kinds()
    assert {"reorganise_to", "free_move", "keep", "decree", "searched"} <= kinds
    for kind in sorted(kinds):
        text = pending_text(kind)
        assert kind in PENDING_TEXTS, kind
        assert len(text.split()) >= 4 and "_" not in text, (kind, text)
    assert set(PENDING_TEXTS) == kinds  # no sentence for a step that no longer exists
