"""Engines: which implementation of a game's rules `load` and `replay` use.

A game offers one or more engines (`Game.engines`, the first its default); `engine=` picks one.
It is not an option of the game and not part of records. A name the game does not offer, a
non-string, or a compiled engine that was not built is an InvalidOptionError saying so.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import boardwright as bw
from boardwright.core import registry
from boardwright.games.carcassonne import native
from boardwright.games.queens.game import QueensGame


def played(game: bw.Game, steps: int = 20, seed: int = 4) -> bw.State:
    state = game.new_game(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply(rng.choice(state.legal_actions()))
    return state


class TwoEngineQueens(QueensGame):
    """Queens under another name, offering a second engine: it records what `load` passed."""

    name = "queens-two-engines"
    engines = ("python", "fast")
    received: list[Any] = []

    def __init__(self, players: int, options: dict[str, Any], engine: str | None = None) -> None:
        TwoEngineQueens.received.append(engine)
        self.engine = self.choose_engine(engine)
        super().__init__(players, options)


@pytest.fixture
def two_engines(monkeypatch: pytest.MonkeyPatch) -> type[TwoEngineQueens]:
    monkeypatch.setitem(registry._FACTORIES, TwoEngineQueens.name, TwoEngineQueens)
    monkeypatch.setattr(TwoEngineQueens, "received", [])
    return TwoEngineQueens


# -- the defaults -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["queens", "shogun"])
def test_default_engine_is_python(name: str) -> None:
    assert bw.load(name).engine == "python"
    assert bw.load(name, engine=None).engine == "python"
    assert bw.load(name, engine="python").engine == "python"
    assert bw.available_engines(name)[0] == "python"


def test_carcassonne_defaults_to_the_native_engine_where_it_is_built() -> None:
    expected = "native" if native.AVAILABLE else "python"
    assert bw.load("carcassonne").engine == expected
    assert bw.load("carcassonne", engine=None).engine == expected
    assert bw.load("carcassonne", engine="python").engine == "python"
    assert bw.available_engines("carcassonne")[0] == expected


def test_engines_offered() -> None:
    assert bw.Game.engines == ("python",)
    assert type(bw.load("queens")).engines == ("python",)
    assert type(bw.load("shogun")).engines == ("python",)
    assert type(bw.load("carcassonne")).engines == ("python", "native")


def test_available_engines_follow_the_build() -> None:
    expected = ["native", "python"] if native.AVAILABLE else ["python"]
    assert bw.available_engines("carcassonne") == expected
    assert bw.available_engines("queens") == ["python"]


def test_available_engines_of_an_unknown_game() -> None:
    with pytest.raises(bw.UnknownGameError):
        bw.available_engines("chess")


# -- bad engines ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["carcassonne", "queens", "shogun"])
@pytest.mark.parametrize("engine", ["cuda", "Python", "", "python ", "x" * 5000])
def test_unknown_engine_names_the_engines(name: str, engine: str) -> None:
    with pytest.raises(bw.InvalidOptionError) as info:
        bw.load(name, engine=engine)
    message = str(info.value)
    assert "unknown engine" in message and name in message
    for offered in type(bw.load(name)).engines:
        assert offered in message
    assert len(message) < 300  # a huge name is cut


@pytest.mark.parametrize("name", ["queens", "shogun"])
def test_native_is_unknown_for_python_only_games(name: str) -> None:
    with pytest.raises(bw.InvalidOptionError, match="unknown engine 'native'.*engines: python$"):
        bw.load(name, engine="native")


@pytest.mark.parametrize("engine", [5, b"python", ["python"], {"engine": "python"}, True])
def test_engine_that_is_no_string(engine: Any) -> None:
    with pytest.raises(bw.InvalidOptionError, match="engine must be a string, one of python, native"):
        bw.load("carcassonne", engine=engine)
    with pytest.raises(bw.InvalidOptionError, match="engine must be a string, one of python for"):
        bw.load("queens", engine=engine)


def test_native_engine_not_built_says_why(native_missing: str) -> None:
    with pytest.raises(bw.InvalidOptionError) as info:
        bw.load("carcassonne", engine="native")
    assert "native engine of carcassonne is not available here" in str(info.value)
    assert native_missing in str(info.value)
    assert bw.available_engines("carcassonne") == ["python"]
    assert bw.load("carcassonne").engine == "python"  # the default still works


def test_engine_is_not_a_game_option() -> None:
    with pytest.raises(bw.InvalidOptionError):
        bw.load("carcassonne", options={"engine": "python"})
    game = bw.load("carcassonne", engine="python")
    assert "engine" not in game.options and "engine" not in game.option_summary()


# -- what the factories receive ------------------------------------------------------------------

def test_factory_gets_the_engine_only_when_the_game_offers_several(two_engines: Any) -> None:
    # Single-engine factories keep (players, options): Queens' takes no engine argument at all.
    assert bw.load("queens", engine="python").engine == "python"
    game = bw.load(two_engines.name, engine="fast")
    assert game.engine == "fast"
    bw.load(two_engines.name)
    assert two_engines.received == ["fast", "python"]  # the default is resolved by load
    with pytest.raises(bw.InvalidOptionError, match="unknown engine 'native'.*python, fast"):
        bw.load(two_engines.name, engine="native")
    assert two_engines.received == ["fast", "python"]  # rejected before the factory runs
    assert bw.available_engines(two_engines.name) == ["python", "fast"]


# -- records and replay -------------------------------------------------------------------------

def test_records_do_not_name_the_engine_and_replay_on_another(two_engines: Any) -> None:
    state = played(bw.load(two_engines.name, engine="fast"))
    data = state.record.to_json()
    assert "engine" not in data and "engine" not in data.get("options", {})
    again = bw.replay(data, engine="python")
    assert again.game.engine == "python"
    assert again.record.to_json() == data
    assert bw.replay(data).game.engine == "python"
    assert bw.replay(data, steps=3, engine="fast").game.engine == "fast"


def test_replay_with_a_bad_engine_is_the_callers_error(native_missing: str) -> None:
    data = played(bw.load("carcassonne")).record.to_json()
    assert bw.replay(data, engine="python").record.to_json() == data
    with pytest.raises(bw.InvalidOptionError, match="unknown engine 'cuda'") as info:
        bw.replay(data, engine="cuda")
    assert not isinstance(info.value, bw.CorruptRecordError)
    with pytest.raises(bw.InvalidOptionError, match=re.escape(native_missing)) as info:
        bw.replay(data, engine="native")
    assert not isinstance(info.value, bw.CorruptRecordError)


def test_replay_of_a_record_of_an_unknown_game_stays_corrupt() -> None:
    data = played(bw.load("carcassonne")).record.to_json()
    data["game"] = "chess"
    with pytest.raises(bw.CorruptRecordError):
        bw.replay(data, engine="python")
