"""`legal_actions`, `is_legal`, `apply` and the action-id mask agree on every action, at every
step of random games over all options (see `legality.py` for what is sent), and `apply`
refuses an equivalent form of a listed move with a message naming the listed one."""

from __future__ import annotations

import random

import pytest


from legality import check_legality_agrees  # noqa: E402
from randomgames import AMConfig, Config, am_configs, configs, new_state, pick_action  # noqa: E402
from sizes import sized  # noqa: E402

import boardwright as bw  # noqa: E402
from boardwright.games.carcassonne import Place  # noqa: E402
from boardwright.games.carcassonne.scenario import build  # noqa: E402

# A&M games: every 7th of one full cycle of end-of-game rules x wagon ranges (54 indexes),
# so each player count, end rule and wagon mode (nearby, connected, connected with traversal)
# occurs.
AM_GAMES = am_configs(0, 54)[::7]


# The native engine has the Python engine answer every input it does not list (a position
# rebuilt for each), so it checks fewer games, sending a sample of the refused forms to `apply`
# (`check_legality_agrees`; every listed action still applies, and every form still meets
# `is_legal` at the same share and the action-id mask).
NATIVE_GAMES = [*configs(0, 1), *AM_GAMES[::5]]
PYTHON_ONLY = pytest.mark.engines("python", reason="native: a sample of the games, below")


def play_checking(cfg: Config | AMConfig, is_legal_share: float) -> int:
    """Play one random game, checking agreement before every action; returns the actions
    checked."""
    state = new_state(cfg)
    rng = random.Random(cfg.seed)
    checked = 0
    while not state.is_terminal:
        checked += check_legality_agrees(state, rng, is_legal_share=is_legal_share)
        state.apply(pick_action(state, rng))
    return checked


def test_an_equivalent_rotation_is_refused_everywhere() -> None:
    """B (one picture) south of D: only rotation 0 is listed; 90, 180 and 270 are not legal,
    have no id in the mask, and `apply` refuses them (also as JSON) naming rotation 0, with
    the state unchanged."""
    state = build("D@(0,0)/0", pile=["B", "B"], players=2)
    game = state.game
    mask = {game.action_id(a) for a in state.legal_actions()}
    assert Place(0, 1, 0) in state.legal_actions() and game.action_id(Place(0, 1, 0)) in mask
    for rotation in (90, 180, 270):
        action = Place(0, 1, rotation)
        assert not state.is_legal(action) and game.action_id(action) not in mask
        for form in (action, action.to_json()):
            before = state.signature()
            with pytest.raises(bw.IllegalActionError, match=(
                    f"tile B is symmetric: rotation {rotation} is the same placement as "
                    "rotation 0, play that")):
                state.apply(form)
            assert state.signature() == before


@PYTHON_ONLY
@pytest.mark.parametrize("cfg", configs(0, 2), ids=str)
def test_legality_agrees_in_base_games(cfg: Config) -> None:
    assert play_checking(cfg, 0.1) > 1000


@PYTHON_ONLY
@pytest.mark.parametrize("cfg", AM_GAMES, ids=str)
def test_legality_agrees_in_abbey_mayor_games(cfg: AMConfig) -> None:
    assert play_checking(cfg, 0.1) > 1000


@pytest.mark.engines("native", reason="the native engine's sample of the games above")
@pytest.mark.parametrize("cfg", NATIVE_GAMES, ids=str)
def test_legality_agrees_on_the_native_engine(cfg: Config | AMConfig) -> None:
    assert play_checking(cfg, 0.1) > 1000


@pytest.mark.slow
@PYTHON_ONLY
@pytest.mark.parametrize("first", range(0, 54 * sized(1), 54))
def test_legality_agrees_in_many_games(first: int) -> None:
    """A sixteenth of a cycle of A&M options per batch, shifted from batch to batch so that
    sixteen batches (BOARDWRIGHT_TEST_SCALE=16, tests/sizes.py) bring up every position in the
    cycle (54 games: 1-6 players, every end rule, wagon range, farmers on/off, piece counts up
    to 20), and a base game, `is_legal` asked every time."""
    cycle = first // 54
    for cfg in am_configs(first, 54)[cycle % 16::16] + configs(cycle * 20, 20)[:1]:
        play_checking(cfg, 1.0)
