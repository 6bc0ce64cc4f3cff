"""The OpenSpiel game types say what each game's `Game.info` says, read without creating a game
(no table of their own, no trial loads)."""

from __future__ import annotations

from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import boardwright as bw  # noqa: E402
import boardwright.rl.openspiel as bos  # noqa: E402


@pytest.fixture
def fresh_specs() -> Any:
    bos.spec_of.cache_clear()
    yield
    bos.spec_of.cache_clear()


@pytest.mark.parametrize("name, most, perfect, chance, seeded", [
    ("carcassonne", 6, True, True, False),
    ("queens", 4, True, False, False),
    ("shogun", 4, False, True, False),
    ("goofspiel", 4, False, True, True),
])
def test_the_game_type_is_read_from_the_info_without_loading(
        name: str, most: int, perfect: bool, chance: bool, seeded: bool, fresh_specs: None,
        monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a game was loaded to learn its type")

    monkeypatch.setattr(bw, "load", refuse)
    monkeypatch.setattr(bw.core.registry, "load", refuse)
    spec = bos.spec_of(name)
    assert spec == bos.Spec(max_players=most, perfect=perfect, chance=chance, seeded=seeded)
    assert spec.max_players == bw.game_info(name).max_players
    mode = pyspiel.GameType.ChanceMode
    game_type = bos._game_type(name)
    assert game_type.max_num_players == most
    # a seeded game is deterministic for its `seed` parameter (OpenSpiel could not serialize it
    # as SAMPLED_STOCHASTIC: a Python game has no C++ RNG state to give)
    assert game_type.chance_mode == (mode.EXPLICIT_STOCHASTIC if chance and not seeded
                                     else mode.DETERMINISTIC)
    assert ("seed" in game_type.parameter_specification) == seeded


def test_players_beyond_the_info_are_refused_with_the_range(fresh_specs: None) -> None:
    with pytest.raises(bw.InvalidOptionError, match="from 2 to 4 for python_boardwright_goofspiel"):
        bos.parse_players("goofspiel", 5)
    assert bos.parse_players("carcassonne", 6) == 6
