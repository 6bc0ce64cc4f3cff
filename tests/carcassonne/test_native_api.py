"""The native engine's State API against the Python engine's, beyond lock-step play: clones,
determinizations, action ids, views and records, records replayed on the other engine, and
bad input (the fuzz strategies of tests/fuzz), which must meet the same `BoardwrightError`,
class and message, on both engines and leave both positions exactly as they were."""

from __future__ import annotations

import json
import random
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

for folder in ("fuzz", "queens"):  # the fuzz strategies (tests/fuzz) and what they import
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / folder))

from fuzz_support import (  # noqa: E402
    action_ids, foreign_objects, json_values, mutated, snapshot,
)
from native_support import check_same, needs_native, random_config  # noqa: E402

import boardwright as bw  # noqa: E402
from boardwright.games.carcassonne import game as carcassonne_game  # noqa: E402
from boardwright.games.carcassonne.evaluation import default_weights, evaluate  # noqa: E402
from boardwright.games.carcassonne.game import CarcassonneGame  # noqa: E402
from boardwright.games.carcassonne.native.state import NativeCarcassonneState  # noqa: E402
from boardwright.games.carcassonne.scenario import build  # noqa: E402
from boardwright.games.carcassonne.state import CarcassonneState  # noqa: E402

pytestmark = [needs_native,
              pytest.mark.engines(reason="compares the two engines, each named explicitly")]

POSITIONS = 24
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=None)
def _games(players: int, options_json: str) -> tuple[CarcassonneGame, CarcassonneGame]:
    options = json.loads(options_json)
    return (CarcassonneGame(players, options, engine="python"),
            CarcassonneGame(players, options, engine="native"))


@lru_cache(maxsize=None)
def _position(index: int) -> tuple[int, dict[str, Any], int, tuple[Any, ...]]:
    """Configuration, seed and actions of position `index`: a random configuration played at
    random to a random depth (some to the end)."""
    rng = random.Random(f"native api {index}")
    players, options = random_config(rng)
    seed = rng.randrange(10**6)
    _, native = _games(players, json.dumps(options, sort_keys=True))
    state = native.new_game(seed)
    depth = 10**6 if index % 6 == 5 else rng.randrange(0, 150)
    for _ in range(depth):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return players, options, seed, tuple(state.history)


def twins(index: int) -> tuple[NativeCarcassonneState, CarcassonneState]:
    """Position `index` on the native engine and, played independently, on the Python one."""
    players, options, seed, actions = _position(index)
    python_game, native_game = _games(players, json.dumps(options, sort_keys=True))
    native, python = native_game.new_game(seed), python_game.new_game(seed)
    for action in actions:
        native.apply(action)
        python.apply(action)
    assert type(native) is NativeCarcassonneState and type(python) is CarcassonneState
    return native, python


indexes = st.integers(0, POSITIONS - 1)


# -- clones ---------------------------------------------------------------------------------

@pytest.mark.parametrize("index", range(0, POSITIONS, 3))
def test_a_clone_is_equal_and_independent(index: int) -> None:
    native, python = twins(index)
    clone = native.clone()
    assert type(clone) is NativeCarcassonneState
    assert clone == native and clone.signature() == native.signature() and clone == python
    assert clone.record.to_json() == native.record.to_json()
    if native.is_terminal:
        return
    before = native.signature()
    rng = random.Random(index)
    for _ in range(6):  # the clone plays on; the original does not move
        if clone.is_terminal:
            break
        clone.apply(rng.choice(clone.legal_actions()))
    assert native.signature() == before and native == python
    assert clone != native
    clone.meta["seats"] = ["changed"]
    assert "seats" not in native.meta or native.meta["seats"] != ["changed"]
    again = native.clone()  # and the original plays on as the clone did, to the same place
    for action in clone.history[len(native.history):]:
        native.apply(action)
    assert native == clone and native.signature() == clone.signature()
    assert again.signature() == before


# -- determinization ------------------------------------------------------------------------

@pytest.mark.parametrize("index", range(POSITIONS))
def test_the_same_rng_determinizes_both_engines_alike(index: int) -> None:
    """The same rng gives the same pile order on both engines; the original keeps its pile;
    the determinized position is whole: it plays on, step for step like its Python twin, and
    `to_python` of it is the Python determinization."""
    native, python = twins(index)
    before = native.signature()
    seat = max(native.current_player, 0)
    sample = native.determinize(seat, random.Random(index))
    reference = python.determinize(seat, random.Random(index))
    assert type(sample) is NativeCarcassonneState
    assert native.signature() == before
    assert sample.pile == reference.pile
    assert sorted(sample.pile) == sorted(native.pile)
    assert sample == reference and sample.to_python() == reference
    twin = sample.to_python()
    rng = random.Random(index)
    while True:
        check_same(reference, sample, (None, seat))
        assert twin == sample
        if sample.is_terminal:
            break
        action = rng.choice(sample.legal_actions())
        sample.apply(action)
        reference.apply(action)
        twin.apply(action)
    assert native.signature() == before


def test_determinizations_differ_with_the_rng_and_hide_only_the_order() -> None:
    native, _ = twins(1)
    assert len(native.pile) > 10
    piles = {tuple(native.determinize(0, random.Random(seed)).pile) for seed in range(5)}
    assert len(piles) > 1
    assert {tuple(sorted(p)) for p in piles} == {tuple(sorted(native.pile))}


# -- action ids, views, records -------------------------------------------------------------

@pytest.mark.parametrize("index", range(POSITIONS))
def test_action_ids_views_and_records_agree(index: int) -> None:
    native, python = twins(index)
    python_game, native_game = python.game, native.game
    assert native_game.num_distinct_actions == python_game.num_distinct_actions
    legal = native.legal_actions()
    ids = [native_game.action_id(a) for a in legal]
    assert native.legal_action_ids() == ids
    assert [python_game.action_id(a) for a in python.legal_actions()] == ids
    assert [native_game.action_from_id(i) for i in ids] == legal
    assert [python_game.action_from_id(i) for i in ids] == legal
    assert all(native.is_legal(a) and python.is_legal(a) for a in legal)
    for viewer in (None, *range(native.game.num_players)):
        assert native.view(viewer) == python.view(viewer)
    assert native.record.to_json() == python.record.to_json()
    assert native.record.dumps() == python.record.dumps()
    if native.is_terminal:
        assert native.returns() == python.returns()
    assert native.winners() == python.winners()


@pytest.mark.parametrize("index", range(0, POSITIONS, 2))
def test_a_record_replays_on_the_other_engine(index: int,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    native, python = twins(index)
    native.meta["seats"] = ["Zoë", "渡辺", "Åsa", "x", "y", "z"][:native.game.num_players]
    monkeypatch.setattr(carcassonne_game, "DEFAULT_ENGINE", "python")
    on_python = bw.replay(bw.GameRecord.loads(native.record.dumps()))
    assert type(on_python) is CarcassonneState
    monkeypatch.setattr(carcassonne_game, "DEFAULT_ENGINE", "native")
    on_native = bw.replay(python.record)
    assert type(on_native) is NativeCarcassonneState
    assert on_python == native and native == on_python
    assert on_native == python and on_native == native
    assert on_python.signature() == native.signature() == on_native.signature()
    assert on_native.view(None) == on_python.view(None)


@pytest.mark.parametrize("index", range(0, POSITIONS, 4))
def test_positions_move_whole_between_the_engines(index: int) -> None:
    """`to_python` gives the Python engine's position (on the same game); played on there
    and moved back with `from_python`, it is the position the Python engine reaches."""
    native, python = twins(index)
    moved = native.to_python()
    assert type(moved) is CarcassonneState and moved == python and python == moved
    rng = random.Random(index)
    for _ in range(8):
        if moved.is_terminal:
            break
        action = rng.choice(moved.legal_actions())
        moved.apply(action)
        python.apply(action)
    back = NativeCarcassonneState.from_python(moved)
    assert type(back) is NativeCarcassonneState
    check_same(python, back, (None, *range(python.game.num_players)))
    assert back.record.to_json() == python.record.to_json()


def test_a_built_position_is_native_on_a_native_game(monkeypatch: pytest.MonkeyPatch) -> None:
    tiles = "D@(0,0)/0 U@(1,0)/0 U@(2,0)/0 U@(3,0)/0 E@(1,-1)/90 E@(3,-1)/270"
    followers = [(0, 1, -1, "E"), (1, 3, -1, "W")]
    pile = ["G", "U", "U", "U", "U"]  # (a shorter one: see the next test)
    monkeypatch.setattr(carcassonne_game, "DEFAULT_ENGINE", "python")
    python = build(tiles, followers, pile=pile, players=3)
    monkeypatch.setattr(carcassonne_game, "DEFAULT_ENGINE", "native")
    native = build(tiles, followers, pile=pile, players=3)
    assert type(python) is CarcassonneState and type(native) is NativeCarcassonneState
    while True:
        check_same(python, native, (None, 0, 1, 2))
        if native.is_terminal:
            break
        action = native.legal_actions()[0]  # (near the start tile: see the next test)
        native.apply(action)
        python.apply(action)
    assert native.record.to_json() == python.record.to_json()
    assert native.record.meta["scenario"]["followers"] == [list(f) for f in followers]


def test_a_built_position_reaching_past_the_pile_plays_alike(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One tile east of the start tile and a pile of one: the pile alone reaches ±1, but (2, 0)
    is open. A built position widens its game's action space by the tiles it lays, so (2, 0)
    has an id and both engines list Place(2, 0, 0)."""
    monkeypatch.setattr(carcassonne_game, "DEFAULT_ENGINE", "python")
    python = build("D@(0,0)/0 U@(1,0)/0", pile=["U"], players=2)
    monkeypatch.setattr(carcassonne_game, "DEFAULT_ENGINE", "native")
    native = build("D@(0,0)/0 U@(1,0)/0", pile=["U"], players=2)
    assert native.game.radius == python.game.radius == 3
    assert native.legal_actions() == python.legal_actions()
    assert native.legal_action_ids() == [python.game.action_id(a) for a in python.legal_actions()]


def test_a_board_wider_than_the_board_tables_torus_plays_alike(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled board table lays 32 x 32 slots over the board, so cells 32 apart in both
    directions share a slot and the look-up probes on (graph.h, BoardMap): a road of 40 tiles
    puts (0, 0) and (32, 0), (1, 0) and (33, 0), ... and their free neighbours on one slot
    each. Played to the end on both engines, every step compared."""
    tiles = "D@(0,0)/0 " + " ".join(f"U@({x},0)/0" for x in range(1, 41))
    pile = list("UVEKLUVWXDUEB")
    monkeypatch.setattr(carcassonne_game, "DEFAULT_ENGINE", "python")
    python = build(tiles, pile=pile, players=2)
    monkeypatch.setattr(carcassonne_game, "DEFAULT_ENGINE", "native")
    native = build(tiles, pile=pile, players=2)
    assert type(native) is NativeCarcassonneState
    rng = random.Random(32)
    far = 0
    while True:
        check_same(python, native, (None, 0, 1))
        if native.is_terminal:
            break
        actions = native.legal_actions()
        assert native.legal_action_ids() == [python.game.action_id(a) for a in actions]
        action = rng.choice(actions)
        far += getattr(action, "x", 0) >= 32
        native.apply(action)
        python.apply(action)
    assert far >= 1  # (a tile was laid where the torus wraps)
    assert native.record.to_json() == python.record.to_json()


@pytest.mark.parametrize("index", range(POSITIONS))
def test_the_heuristic_and_the_evaluation_judge_a_native_position_alike(index: int) -> None:
    """At every player count, so the weights fitted for it reach the compiled engine too."""
    native, python = twins(index)
    for mine, theirs in ((native.game.heuristic(native), python.game.heuristic(python)),
                         (native.game.evaluation(native), python.game.evaluation(python))):
        assert mine == pytest.approx(theirs, abs=1e-9)


def test_a_four_player_native_position_is_judged_by_the_four_player_weights() -> None:
    python_game, native_game = _games(4, json.dumps({"expansions": ["abbey_mayor"]}))
    rng = random.Random(4)
    native, python = native_game.new_game(11), python_game.new_game(11)
    for _ in range(40):
        action = rng.choice(python.legal_actions())
        native.apply(action)
        python.apply(action)
    four = evaluate(python, default_weights(4))
    assert native_game.evaluation(native) == pytest.approx(four, abs=1e-9)
    assert four != pytest.approx(evaluate(python, default_weights(2)), abs=1e-3)


# -- bad input ------------------------------------------------------------------------------

def outcome(state: Any, action: Any) -> tuple[Any, ...]:
    """What `apply` did: the error (class and message), the position checked unchanged; or
    the position it made."""
    twin = state.clone()
    before = snapshot(state)
    try:
        state.apply(action)
    except bw.BoardwrightError as exc:
        assert snapshot(state) == before and state == twin
        return type(exc), str(exc)
    return "applied", state.signature()


def answer(call: Any, *args: Any) -> Any:
    """What `call` returns or raises (an object whose own methods raise may make it raise)."""
    try:
        return call(*args)
    except Exception as exc:  # noqa: BLE001 - compared across the engines, whatever it is
        return type(exc), str(exc)


def check_alike(index: int, action: Any) -> None:
    native, python = twins(index)
    expected = outcome(python, action)
    assert outcome(native, action) == expected
    assert native == python


@FUZZ
@given(index=indexes, data=st.data())
def test_garbage_json_meets_the_same_error(index: int, data: st.DataObject) -> None:
    check_alike(index, data.draw(json_values))


@FUZZ
@given(index=indexes, data=st.data())
def test_mutated_legal_actions_meet_the_same_error(index: int, data: st.DataObject) -> None:
    native, _ = twins(index)
    legal = [a.to_json() for a in native.legal_actions()] or [{"type": "pass"}]
    check_alike(index, data.draw(mutated(data.draw(st.sampled_from(legal)))))


@FUZZ
@given(index=indexes, data=st.data())
def test_foreign_objects_meet_the_same_error(index: int, data: st.DataObject) -> None:
    native, python = twins(index)
    thing = data.draw(foreign_objects(native))
    expected = outcome(python, thing)
    assert outcome(native, thing) == expected
    assert answer(native.is_legal, thing) == answer(python.is_legal, thing)


@FUZZ
@given(index=indexes, data=st.data())
def test_actions_of_any_id_meet_the_same_answer(index: int, data: st.DataObject) -> None:
    native, python = twins(index)
    action_id = data.draw(action_ids(native.game.num_distinct_actions))
    expected = answer(python.game.action_from_id, action_id)
    assert answer(native.game.action_from_id, action_id) == expected
    if not isinstance(expected, tuple):
        assert native.is_legal(expected) == python.is_legal(expected)
        check_alike(index, expected)


@FUZZ
@given(index=indexes, viewer=json_values)
def test_bad_viewers_meet_the_same_error(index: int, viewer: Any) -> None:
    native, python = twins(index)
    assert answer(native.view, viewer) == answer(python.view, viewer)


def test_a_finished_game_refuses_alike() -> None:
    index = next(i for i in range(POSITIONS) if twins(i)[0].is_terminal)
    native, _ = twins(index)
    assert native.legal_actions() == []
    for action in ({"type": "pass"}, {"type": "place", "x": 0, "y": 1, "rotation": 0}, None):
        check_alike(index, action)
