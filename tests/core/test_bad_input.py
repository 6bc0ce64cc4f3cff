"""Bad input from outside, for the core and every game: record files in other encodings or not
text at all, record text that Python's `json` cannot take, `replay(steps=...)`, records made in
code, options shared with the caller, values too large or too deep for Python to print, foreign
objects given as actions, and seeds. Each is answered by a `BoardwrightError`, never a Python
exception, and leaves every state as it was."""

from __future__ import annotations

import codecs
import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest
from carcassonne_engines import over_games
from typer.testing import CliRunner

import boardwright as bw
from boardwright.cli import app
from boardwright.core.errors import MAX_MESSAGE
from boardwright.core.inputs import short_repr
from boardwright.core.record import GameRecord
from boardwright.games.carcassonne import Place
from boardwright.games.queens import Move as QueensMove
from boardwright.games.shogun.actions import Move as ShogunMove

GAMES = ("carcassonne", "queens", "shogun")
pytestmark = pytest.mark.usefixtures("carcassonne_engine")  # on each Carcassonne engine
HUGE = 10**5000  # more digits than Python prints
RUNNER = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None, "COLUMNS": "100"})


def nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def played(name: str, steps: int = 12, players: int = 2, options: dict | None = None,
           seed: int = 3) -> bw.State:
    state = bw.load(name, players, options).new_game(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply(rng.choice(state.legal_actions()))
    return state


def refused(state: bw.State, action: Any, error: type[Exception] = bw.MalformedActionError) -> str:
    """`action` is refused with `error`, a short message, and the state is unchanged."""
    twin = state.clone()
    record = state.record.dumps()
    with pytest.raises(error) as info:
        state.apply(action)
    assert state == twin and state.record.dumps() == record
    assert 0 < len(str(info.value)) <= MAX_MESSAGE
    return str(info.value)


# -- record files in other encodings ---------------------------------------------------------------

def named_record() -> GameRecord:
    state = played("carcassonne")
    state.meta["seats"] = ["Zoë", "渡辺"]
    return state.record


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le+bom",
                                      "utf-16-be+bom"])
def test_record_files_in_utf8_with_or_without_bom_and_utf16_with_bom_load(
        encoding: str, tmp_path: Path) -> None:
    record = named_record()
    text = json.dumps(record.to_json(), ensure_ascii=False)
    if encoding.endswith("+bom"):
        codec = encoding.removesuffix("+bom")
        bom = codecs.BOM_UTF16_LE if codec.endswith("le") else codecs.BOM_UTF16_BE
        data = bom + text.encode(codec)
    else:
        data = text.encode(encoding)
    path = tmp_path / "record.json"
    path.write_bytes(data)
    assert GameRecord.load(path) == record
    assert GameRecord.loads(data) == record
    assert GameRecord.loads(data.decode(encoding.removesuffix("+bom"))
                            if not encoding.endswith("+bom") else text) == record


@pytest.mark.parametrize("data", [
    "latin-1", "utf-16-le", "utf-32-le", "binary", "png",
])
def test_record_files_in_other_encodings_are_corrupt_and_named(data: str, tmp_path: Path) -> None:
    text = json.dumps(named_record().to_json(), ensure_ascii=False)
    raw = {"binary": bytes(range(256)), "png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
           "utf-32-le": codecs.BOM_UTF32_LE + text.encode("utf-32-le")}.get(data)
    path = tmp_path / "saved by another tool.json"
    path.write_bytes(raw if raw is not None else text.encode(data, errors="replace"))
    with pytest.raises(bw.CorruptRecordError) as info:
        GameRecord.load(path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("encoding", ["utf-16", "binary"])
def test_show_of_a_record_in_another_encoding(encoding: str, tmp_path: Path) -> None:
    record = named_record()
    path = tmp_path / "record.json"
    path.write_bytes(record.dumps().encode(encoding) if encoding != "binary" else bytes(range(256)))
    result = RUNNER.invoke(app, ["show", str(path), "--to-end"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    if encoding == "binary":
        assert result.exit_code == 1
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: ") and str(path) in lines[0]
    else:
        assert result.exit_code == 0, result.output


@pytest.mark.parametrize("where", ["meta", "options", "action"])
def test_records_with_lone_surrogates_are_corrupt(where: str, tmp_path: Path) -> None:
    """Found by fuzzing: JSON's "\\ud800" decodes to a string no terminal can print, and
    `show` of seat names holding one ended in a UnicodeEncodeError."""
    state = played("queens")
    data = state.record.to_json()
    if where == "meta":
        data["meta"]["seats"] = ["\ud800", "Bob"]
    elif where == "options":
        data["options"]["\udfff"] = 1
    else:
        data["actions"][0]["type"] = "m\ud800ve"
    text = json.dumps(data)  # ASCII, the surrogates as escapes: valid JSON
    with pytest.raises(bw.CorruptRecordError, match="lone surrogate"):
        GameRecord.loads(text)
    path = tmp_path / "record.json"
    path.write_text(text)
    result = RUNNER.invoke(app, ["show", str(path), "--to-end"])
    assert result.exit_code == 1 and result.exception is None or isinstance(
        result.exception, SystemExit), result.exc_info
    assert result.output.startswith("Error: ") and len(result.output.strip().splitlines()) == 1


# -- record text that json cannot take -------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000,
    '{"game": "carcassonne", "seed": ' + "7" * 5000 + "}",
    '{"a": ' * 50_000 + "1" + "}" * 50_000,
], ids=["deep list", "long number", "deep object"])
def test_record_text_that_python_json_cannot_take(text: str, tmp_path: Path) -> None:
    with pytest.raises(bw.CorruptRecordError, match="not valid JSON"):
        GameRecord.loads(text)
    with pytest.raises(bw.CorruptRecordError, match="not valid JSON"):
        GameRecord.loads(text.encode())
    path = tmp_path / "deep.json"
    path.write_text(text)
    with pytest.raises(bw.CorruptRecordError, match="deep.json"):
        GameRecord.load(path)


def test_a_record_that_is_not_text_at_all() -> None:
    for value in (None, 7, ["{}"], {"game": "carcassonne"}):
        with pytest.raises(bw.CorruptRecordError):
            GameRecord.loads(value)  # type: ignore[arg-type]


# -- replay(steps=...) -----------------------------------------------------------------------------

@pytest.mark.parametrize("steps", ["3", 1.5, -1, True, 13, 10**20, HUGE, [1]], ids=short_repr)
def test_replay_steps_are_validated(steps: Any) -> None:
    record = played("carcassonne", steps=12).record
    with pytest.raises(bw.InvalidOptionError, match="steps"):
        bw.replay(record, steps=steps)


@over_games("name", GAMES)
def test_replay_steps_from_0_to_the_whole_record(name: str) -> None:
    state = played(name, steps=12)
    record = state.record
    assert bw.replay(record, steps=12) == state == bw.replay(record)
    assert bw.replay(record, steps=0) == bw.load(name, 2).new_game(3)


# -- records made in code --------------------------------------------------------------------------

GOOD = {"game": "carcassonne", "version": "1", "options": {}, "seed": 7, "players": 2}


class _Opaque:
    """A value no record can hold, with a repr that is the same in every process (the test's
    id: parallel test workers must collect the same ids)."""

    def __repr__(self) -> str:
        return "<opaque object>"


OPAQUE = _Opaque()


@pytest.mark.parametrize(("change", "field"), [
    ({"meta": None}, "meta"), ({"actions": None}, "actions"), ({"seed": "7"}, "seed"),
    ({"version": 1}, "version"), ({"players": 2.0}, "players"), ({"seed": True}, "seed"),
    ({"game": None}, "game"), ({"options": [("farmers", True)]}, "options"),
    ({"actions": [["place", 0, 1, 0]]}, "action #0"), ({"seed": -7}, "seed"),
    ({"options": {"farmers": {1, 2}}}, "options"), ({"meta": {"when": OPAQUE}}, "meta"),
    ({"actions": [{"type": "place", "x": HUGE}]}, "action #0"),
    ({"meta": {"deep": nested(5000)}}, "meta"),
], ids=short_repr)
def test_a_record_made_in_code_is_checked_like_one_read(change: dict, field: str) -> None:
    with pytest.raises(bw.CorruptRecordError) as info:
        GameRecord(**{**GOOD, **change})
    assert field in str(info.value)
    good = GameRecord(**GOOD)
    with pytest.raises(bw.CorruptRecordError):
        dataclasses.replace(good, **change)


def test_a_record_changed_after_it_was_made_is_checked_on_replay() -> None:
    record = played("queens").record
    record.version = 1  # type: ignore[assignment]
    with pytest.raises(bw.CorruptRecordError, match="'version'"):
        bw.replay(record)


def test_a_record_keeps_its_own_copy_of_what_it_was_given() -> None:
    actions = [{"type": "place", "x": 0, "y": -1, "rotation": 0}]
    meta = {"seats": ["Ann", "Bob"]}
    record = GameRecord(**GOOD, actions=actions, meta=meta)
    actions[0]["x"] = 5
    meta["seats"].append("Cy")
    assert record.actions[0]["x"] == 0 and record.meta == {"seats": ["Ann", "Bob"]}


# -- options shared by reference -------------------------------------------------------------------

def test_editing_a_record_options_changes_neither_the_game_nor_later_records() -> None:
    state = played("carcassonne", options={"expansions": ["abbey_mayor"]})
    state.record.options["expansions"].append("junk")
    state.game.options["expansions"].append("junk")
    assert state.game.options["expansions"] == ["abbey_mayor"]
    assert bw.replay(state.record) == state


@pytest.mark.parametrize(("name", "options", "key"), [
    ("shogun", {"max_rounds": 4, "heroes": ["samurai", "ninja"]}, "heroes"),
    ("carcassonne", {"expansions": ["abbey_mayor"], "draw_order": ["A", "B"]}, "draw_order"),
    ("queens", {"map": "inline"}, "map"),
])
def test_editing_the_options_after_load_changes_nothing_played(name: str, options: dict,
                                                               key: str) -> None:
    options = json.loads(json.dumps(options))  # this run's own (the test edits it below)
    if options == {"map": "inline"}:
        options = {"map": bw.load("queens").config.map.to_json()}  # type: ignore[attr-defined]
    game = bw.load(name, 2, options)
    kept = json.dumps(game.options, sort_keys=True)
    state = game.new_game(1)
    value = options[key]
    if isinstance(value, list):
        value.append("junk")
    else:
        value["mountains"].append([1, 1])
    assert json.dumps(game.options, sort_keys=True) == kept
    assert json.dumps(state.record.options, sort_keys=True) == kept
    assert bw.replay(state.record) == state


def test_options_that_are_not_json_are_refused() -> None:
    for options in ({"farmers": object()}, {"expansions": {"abbey_mayor"}},
                    {"draw_order": nested(5000)}, {(1, 2): True}, {"starting_seat": HUGE}):
        with pytest.raises(bw.InvalidOptionError):
            bw.load("carcassonne", 2, options)


# -- values too large or too deep, foreign objects -------------------------------------------------

def junk_json(state: bw.State) -> list[Any]:
    """JSON forms of the first legal action with one field made huge or deep."""
    data = state.legal_actions()[0].to_json()
    out = []
    for key in [k for k in data if k != "type"] or ["x"]:
        out += [{**data, key: HUGE}, {**data, key: nested(5000)}, {**data, key: -HUGE},
                {**data, key: "é" * 100_000}]
    out += [{**data, "extra": HUGE}, {"type": nested(5000)}, {"type": HUGE}, {1: "pass"},
            {"type": "pass", None: 1}, {"type": "pass", (1, 2): 1}]
    return out


@over_games("name", GAMES)
def test_huge_or_deep_json_actions_are_malformed(name: str) -> None:
    state = played(name)
    for data in junk_json(state):
        with pytest.raises(bw.MalformedActionError) as info:
            state.game.action_from_json(data)
        assert len(str(info.value)) <= MAX_MESSAGE
        refused(state, data)


@pytest.mark.parametrize(("name", "action"), [
    ("carcassonne", Place(HUGE, 0, 0)), ("carcassonne", Place(0, nested(5000), 0)),
    ("carcassonne", Place(0, 1, HUGE)), ("queens", QueensMove((HUGE, 0), (0, 3))),
    ("queens", QueensMove(nested(5000), (0, 3))), ("shogun", ShogunMove(nested(5000))),
    ("shogun", ShogunMove(HUGE)),
], ids=short_repr)
def test_own_actions_holding_huge_or_deep_values_are_malformed(name: str, action: Any) -> None:
    state = played(name)
    refused(state, action)
    with pytest.raises(bw.MalformedActionError):
        state.game.action_id(action)


class CallsCounted:
    """A stranger that looks like an action: its methods must never be called."""

    calls = 0

    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def to_json(self) -> Any:
        CallsCounted.calls += 1
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer

    def __eq__(self, other: object) -> bool:
        CallsCounted.calls += 1
        return True

    __hash__ = object.__hash__


@over_games("name", GAMES)
@pytest.mark.parametrize("answer", [{"type": "done"}, KeyError("type"), TypeError("x"), None,
                                    {"type": "move", "space": "kai"}, {}])
def test_objects_with_a_to_json_are_not_actions(name: str, answer: Any) -> None:
    state = played(name)
    thing = CallsCounted(answer)
    CallsCounted.calls = 0
    assert "not a" in refused(state, thing)
    with pytest.raises(bw.MalformedActionError):
        state.game.action_id(thing)
    assert CallsCounted.calls == 0


@over_games("name", GAMES)
@pytest.mark.parametrize("action_id", [HUGE, -HUGE, 2**64, -1, True, 1.0, "3", None, [1]],
                         ids=short_repr)
def test_action_ids_of_any_kind(name: str, action_id: Any) -> None:
    game = bw.load(name, 2)
    with pytest.raises(bw.MalformedActionError) as info:
        game.action_from_id(action_id)
    assert len(str(info.value)) < 200


@pytest.mark.parametrize("value", [HUGE, nested(5000), {"a": nested(100_000)}, "x" * 10**6,
                                   Place(HUGE, 0, 0)], ids=short_repr)
def test_short_repr_never_fails_and_stays_short(value: Any) -> None:
    assert 0 < len(short_repr(value)) <= 60


def test_messages_are_cut_to_a_sane_length() -> None:
    assert len(str(bw.MalformedActionError("x" * 10**6))) == MAX_MESSAGE
    assert len(bw.IllegalActionError("y" * 10**6).reason) == MAX_MESSAGE


def test_shogun_fixed_orders_of_anything_but_card_ids_are_refused() -> None:
    """Found by fuzzing: a treasure order holding a list compared lists with strings."""
    game = bw.load("shogun", 2)
    order = [t.id for t in game.content.treasures]
    for bad in ([[order[0]], *order[1:]], [None, *order[1:]], [1, *order[1:]]):
        with pytest.raises(bw.InvalidOptionError, match="fixed_order.treasure"):
            bw.load("shogun", 2, {"fixed_order": {"treasure": bad}})


# -- seeds -----------------------------------------------------------------------------------------

@over_games("name", GAMES)
@pytest.mark.parametrize("seed", [-1, -7, -(2**63), 2**64, HUGE, True, 7.0, "7", [7]],
                         ids=short_repr)
def test_seeds_are_whole_numbers_from_0(name: str, seed: Any) -> None:
    with pytest.raises(bw.InvalidOptionError, match="seed"):
        bw.load(name, 2).new_game(seed)


@over_games("name", GAMES)
def test_seeds_from_0_to_2_to_the_64_minus_1(name: str) -> None:
    game = bw.load(name, 2)
    for seed in (0, 1, 2**63, 2**64 - 1):
        state = game.new_game(seed)
        assert state.record.seed == seed
        assert bw.replay(GameRecord.loads(state.record.dumps())) == state


def test_a_record_with_a_negative_seed_is_corrupt() -> None:
    data = played("carcassonne").record.to_json()
    data["seed"] = -3
    with pytest.raises(bw.CorruptRecordError, match="'seed'"):
        GameRecord.from_json(data)
