"""Property tests: thousands of random complete games, with invariants checked throughout.

The default run plays 2,000 games (1-5 players, farmers on/off, both small-city scorings,
every starting seat, some other start tiles) and checks the end-of-game invariants of every one;
smaller subsets of the same games are checked after every single action, each subset for one
family of invariants. A `slow` test plays 20,000 further games.
Each failure names the game (seed and options) and the action, so it can be replayed.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

pytest.register_assert_rewrite("randomgames")  # detailed failures from the shared checks

from randomgames import (  # noqa: E402
    BASE_SET_SIZE,
    Action,
    SMALL_CITY_VALUES,
    Config,
    about,
    apply_checking_clone,
    check_end_of_game,
    check_legal_actions,
    check_position,
    check_step,
    check_views_hide_pile,
    configs,
    new_state,
    play,
    state_at,
)

from boardwright.games.carcassonne.state import CarcassonneState  # noqa: E402

DEFAULT_GAMES = 2_000
SLOW_GAMES = 20_000
BATCH = 100
# Games checked after every action, per family of invariants (indexes into the default games;
# 20 consecutive indexes cover every player count / farmers / scoring combination).
POSITION_GAMES = range(0, 40)
LEGAL_ACTION_GAMES = range(40, 70)
VIEW_GAMES = range(70, 82)
CLONE_GAMES = range(82, 112)


def _check_games(games: list[Config]) -> None:
    for cfg in games:
        with about(cfg):
            check_end_of_game(play(cfg))


def _step_games(indexes: range) -> list[Config]:
    return configs(indexes.start, len(indexes))


def test_configurations_cover_every_combination() -> None:
    """The generator really mixes the options the properties are claimed for."""
    games = configs(0, DEFAULT_GAMES)
    combos = {(c.players, c.farmers, c.small_city_scoring, c.starting_seat) for c in games}
    expected = {(n, farmers, small, seat) for n in range(1, 6) for farmers in (True, False)
                for small in SMALL_CITY_VALUES for seat in range(n)}
    assert combos == expected
    assert len({c.start_tile for c in games}) > 10
    assert len({c.seed for c in games}) == DEFAULT_GAMES


@pytest.mark.parametrize("first", range(0, DEFAULT_GAMES, BATCH))
def test_random_games_end_consistently(first: int) -> None:
    """Pile used up, 72 tiles placed or discarded, tiles matched, features and followers
    consistent, scores equal the score log, rank returns, and the record replays exactly."""
    _check_games(configs(first, BATCH))


@pytest.mark.slow
@pytest.mark.parametrize("first", range(DEFAULT_GAMES, DEFAULT_GAMES + SLOW_GAMES, 1_000))
def test_many_more_random_games_end_consistently(first: int) -> None:
    """The same end-of-game invariants over 20,000 further games."""
    _check_games(configs(first, 1_000))


@pytest.mark.parametrize("cfg", _step_games(POSITION_GAMES), ids=str)
def test_invariants_hold_after_every_action(cfg: Config) -> None:
    """Followers conserved, tiles matched, features agree with a board search, no follower
    left on a completed feature after a turn, scores never fall, a new follower stands alone."""
    steps = [0]

    def on_step(before: CarcassonneState, after: CarcassonneState, action: Action) -> None:
        steps[0] += 1
        with about(cfg, steps[0]):
            check_step(before, after, action)
            check_position(after)

    with about(cfg, 0):
        check_position(new_state(cfg))
    check_end_of_game(play(cfg, on_step))


@pytest.mark.parametrize("cfg", _step_games(LEGAL_ACTION_GAMES), ids=str)
def test_legal_actions_are_exactly_the_rules_and_all_apply(cfg: Config) -> None:
    """While the game runs the legal actions are non-empty, equal a brute-force enumeration
    (placements by side matching, one per distinct rotation; deployments on unoccupied features)
    and each one applies to a clone without error."""
    state = new_state(cfg)
    rng = random.Random(cfg.seed)
    step = 0
    while not state.is_terminal:
        with about(cfg, step):
            check_legal_actions(state)
        state.apply(rng.choice(state.legal_actions()))
        step += 1


@pytest.mark.parametrize("cfg", _step_games(VIEW_GAMES), ids=str)
def test_views_never_reveal_the_pile_order(cfg: Config) -> None:
    """Every player's view and the spectator view are the same for any order of the pile,
    and none contains the pile list; determinize keeps the pile's tiles and all else."""
    state = new_state(cfg)
    rng = random.Random(cfg.seed)
    shuffler = random.Random(-cfg.seed)
    step = 0
    while not state.is_terminal:
        with about(cfg, step):
            check_views_hide_pile(state, shuffler, rounds=1)
        state.apply(rng.choice(state.legal_actions()))
        step += 1
    with about(cfg, step):
        check_views_hide_pile(state, shuffler, rounds=1)


def test_determinize_really_reshuffles() -> None:
    """Guards the view test above: determinize must produce other orders, or it proves nothing."""
    state = new_state(configs(0, 1)[0])
    orders = {tuple(state.determinize(0, random.Random(i)).pile) for i in range(10)}
    assert len(orders) == 10
    assert all(Counter(order) == Counter(state.pile) for order in orders)
    assert len(state.pile) == BASE_SET_SIZE - 2  # start tile on the board, first tile drawn


@pytest.mark.parametrize("cfg", _step_games(CLONE_GAMES), ids=str)
def test_clones_are_independent(cfg: Config) -> None:
    """At every action: a clone equals the original, is untouched when the original moves on,
    and playing the clone leaves the original untouched."""
    state = new_state(cfg)
    rng = random.Random(cfg.seed)
    watcher = random.Random(~cfg.seed)
    step = 0
    while not state.is_terminal:
        with about(cfg, step):
            apply_checking_clone(state, rng.choice(state.legal_actions()), watcher)
        step += 1
    with about(cfg):
        check_end_of_game(state)


def test_clone_plays_on_like_the_original() -> None:
    """A midgame clone played on with the same choices ends exactly like the original, and a
    finished game clones too."""
    cfg = configs(3, 1)[0]
    middle = state_at(cfg, 60)
    twin = middle.clone()
    for state in (middle, twin):
        rng = random.Random(5)
        while not state.is_terminal:
            state.apply(rng.choice(state.legal_actions()))
    assert twin.signature() == middle.signature()
    assert middle.clone() == middle
