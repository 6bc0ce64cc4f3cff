"""Every fixture of the catalogue builds legally (guards the fixture strings themselves)."""

import pytest
from fixtures import ALL

from boardwright.games.carcassonne.scenario import build, split_tiles


@pytest.mark.parametrize("name", sorted(ALL))
def test_fixture_builds(name: str) -> None:
    state = build(ALL[name])
    assert len(state.graph.board) == len(split_tiles(ALL[name]))
