"""Fuzzed records for every game: saved records damaged as bytes (cut, flipped, garbage, other
encodings) and as JSON (fields dropped, replaced, retyped), read by `GameRecord.loads`,
`GameRecord.load` and `bw.replay`, and shown by `boardwright show`.

Only a `BoardwrightError` may come out; a record that still loads and replays gives a state
whose own record is the one read. The command line exits non-zero with one line of error and
no traceback, or shows the game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from carcassonne_engines import over_games
from sizes import sized
from fuzz_support import FAMILIES, json_values, mutated, record_bytes, record_texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import boardwright as bw
from boardwright.cli import app

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CLI = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=sized(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
RUNNER = CliRunner(env={"NO_COLOR": "1", "FORCE_COLOR": None, "COLUMNS": "100"})
indexes = st.integers(0, 1_000)


def check_record(record: Any) -> None:
    """A record that was read either fails to replay with a BoardwrightError or replays to a
    state whose own record (its actions in their canonical form) replays to the same state."""
    try:
        state = bw.replay(record)
    except bw.BoardwrightError:
        return
    again = state.record
    assert (again.game, again.seed, again.players, len(again.actions)) == (
        record.game, record.seed, record.players, len(record.actions))
    assert bw.replay(bw.GameRecord.loads(again.dumps())) == state


def read_bytes(data: bytes, folder: Path) -> None:
    try:
        record = bw.GameRecord.loads(data)
    except bw.CorruptRecordError:
        record = None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        try:
            assert bw.GameRecord.loads(text) == record or record is None
        except bw.CorruptRecordError:
            assert record is None or text.startswith("\ufeff")
    path = folder / "record.json"
    path.write_bytes(data)
    try:
        from_file = bw.GameRecord.load(path)
    except bw.CorruptRecordError as exc:
        assert str(path) in str(exc)
        assert record is None
        return
    assert from_file == record
    check_record(from_file)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("records")


@over_games("family", FAMILIES)
@FUZZ
@given(index=indexes, data=st.data())
def test_damaged_record_bytes(family: str, index: int, data: st.DataObject,
                              folder: Path) -> None:
    texts = record_texts(family)
    read_bytes(data.draw(record_bytes(texts[index % len(texts)])), folder)


@over_games("family", FAMILIES)
@FUZZ
@given(index=indexes, data=st.data())
def test_mutated_record_json(family: str, index: int, data: st.DataObject) -> None:
    texts = record_texts(family)
    original = json.loads(texts[index % len(texts)])
    changed = data.draw(mutated(original, max_changes=2))
    try:
        record = bw.GameRecord.from_json(changed)
    except bw.CorruptRecordError:
        return
    check_record(record)


@FUZZ
@given(value=json_values)
def test_garbage_json_records(value: Any) -> None:
    try:
        record = bw.GameRecord.from_json(value)
    except bw.CorruptRecordError:
        return
    check_record(record)


@over_games("family", FAMILIES)
@FUZZ
@given(index=indexes, steps=st.one_of(st.integers(), st.floats(), st.text(max_size=3),
                                      st.none(), st.booleans()))
def test_replay_steps(family: str, index: int, steps: Any) -> None:
    record = bw.GameRecord.loads(record_texts(family)[index % len(record_texts(family))])
    try:
        state = bw.replay(record, steps=steps)
    except bw.InvalidOptionError:
        assert steps is not None
        assert type(steps) is not int or not 0 <= steps <= len(record.actions)
        return
    assert len(state.record.actions) == (len(record.actions) if steps is None else steps)


@over_games("family", FAMILIES)
@CLI
@given(index=indexes, data=st.data())
def test_show_damaged_records(family: str, index: int, data: st.DataObject,
                              folder: Path) -> None:
    texts = record_texts(family)
    path = folder / "show.json"
    text = texts[index % len(texts)]
    if data.draw(st.booleans()):
        path.write_bytes(data.draw(record_bytes(text)))
    else:
        try:
            changed = json.dumps(data.draw(mutated(json.loads(text), max_changes=2)))
        except (ValueError, RecursionError):  # junk no JSON file can hold
            changed = text
        path.write_text(changed)
    result = RUNNER.invoke(app, ["show", str(path), "--to-end"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert "Traceback" not in result.output
    if result.exit_code != 0:
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
        assert result.exit_code in (1, 2)


@pytest.mark.slow
@over_games("family", FAMILIES)
@SLOW
@given(index=indexes, data=st.data())
def test_many_damaged_records(family: str, index: int, data: st.DataObject,
                              folder: Path) -> None:
    texts = record_texts(family)
    if data.draw(st.booleans()):
        read_bytes(data.draw(record_bytes(texts[index % len(texts)])), folder)
        return
    changed = data.draw(mutated(json.loads(texts[index % len(texts)]), max_changes=4))
    try:
        record = bw.GameRecord.from_json(changed)
    except bw.CorruptRecordError:
        return
    check_record(record)
