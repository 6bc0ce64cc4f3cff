"""Property tests: random complete games by the thousand, with invariants checked throughout.

The default run plays 1,000 base games (1-5 players, farmers on/off, both small-city scorings,
every starting seat, some other start tiles) and 540 games with every Abbey & Mayor component
(1-6 players, the three end-of-game abbey rules, the three wagon ranges, farmers on/off, piece
counts from 0 to 20), and checks the end-of-game invariants of every one; smaller subsets of the
same games are checked after every single action, each subset for one family of invariants.
`slow` tests play 250 further base games and 250 further Abbey & Mayor games, times
BOARDWRIGHT_TEST_SCALE (tests/sizes.py). The games are shared between the two Carcassonne
engines, a batch or a game on each in turn, instead of being played twice: the differential test
(test_native_differential.py) checks that the engines agree at every step of their games.
Each failure names the game (seed and options) and the action, so it can be replayed.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable

import pytest


from randomgames import (  # noqa: E402
    AM_COMBINATION_CYCLE,
    BASE_SET_SIZE,
    COUNT_PROFILES,
    END_VALUES,
    PIECE_OPTIONS,
    WAGON_MODES,
    AbbeyWatch,
    Action,
    AMConfig,
    SMALL_CITY_VALUES,
    Config,
    GameConfig,
    about,
    am_config,
    am_configs,
    apply_checking_clone,
    check_action_ids,
    check_end_of_game,
    check_legal_actions,
    check_no_tile_in_hand,
    check_position,
    check_step,
    check_views_hide_pile,
    configs,
    new_state,
    pick_action,
    play,
    replay_facts,
    state_at,
)

from boardwright.games.carcassonne import Pass, PlaceAbbey  # noqa: E402
from carcassonne_engines import alternating  # noqa: E402
from boardwright.games.carcassonne.scenario import build  # noqa: E402
from boardwright.games.carcassonne.state import CarcassonneState  # noqa: E402
from fixtures import FX_RING  # noqa: E402
from sizes import sized  # noqa: E402

DEFAULT_GAMES = 1_000
SLOW_GAMES = 250 * sized(1)  # tests/sizes.py: BOARDWRIGHT_TEST_SCALE=40 plays 10,000
BATCH = 100
# Games checked after every action, per family of invariants (indexes into the default games;
# 20 consecutive indexes cover every player count / farmers / scoring combination).
POSITION_GAMES = range(0, 40)
LEGAL_ACTION_GAMES = range(40, 70)
VIEW_GAMES = range(70, 82)
CLONE_GAMES = range(82, 112)


def _check_games(games: list[Config] | list[AMConfig]) -> None:
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


@pytest.mark.parametrize("carcassonne_engine, first",
                         alternating(range(0, DEFAULT_GAMES, BATCH)),
                         indirect=["carcassonne_engine"])
def test_random_games_end_consistently(first: int) -> None:
    """Pile used up, 72 tiles placed or discarded, tiles matched, features and followers
    consistent, scores equal the score log, rank returns, and the record replays exactly."""
    _check_games(configs(first, BATCH))


@pytest.mark.slow
@pytest.mark.parametrize("carcassonne_engine, first",
                         alternating(range(DEFAULT_GAMES, DEFAULT_GAMES + SLOW_GAMES, 125)),
                         indirect=["carcassonne_engine"])
def test_many_more_random_games_end_consistently(first: int) -> None:
    """The same end-of-game invariants over further games (250 at scale 1; the engines in
    turn)."""
    _check_games(configs(first, 125))


@pytest.mark.parametrize("carcassonne_engine, cfg", alternating(_step_games(POSITION_GAMES)),
                         indirect=["carcassonne_engine"])
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


@pytest.mark.parametrize("carcassonne_engine, cfg", alternating(_step_games(LEGAL_ACTION_GAMES)),
                         indirect=["carcassonne_engine"])
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


@pytest.mark.parametrize("carcassonne_engine, cfg", alternating(_step_games(VIEW_GAMES)),
                         indirect=["carcassonne_engine"])
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


@pytest.mark.parametrize("carcassonne_engine, cfg", alternating(_step_games(CLONE_GAMES)),
                         indirect=["carcassonne_engine"])
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


# -- Abbey & Mayor -----------------------------------------------------------------------------

AM_DEFAULT_GAMES = 5 * AM_COMBINATION_CYCLE  # 540
AM_SLOW_GAMES = 250 * sized(1)
# Games checked after every action, per family of invariants. The strides are prime to the
# 6-player cycle, so each subset mixes player counts, end-of-game rules and wagon ranges.
AM_POSITION_GAMES = range(0, AM_COMBINATION_CYCLE, 5)
AM_LEGAL_ACTION_GAMES = range(1, AM_COMBINATION_CYCLE, 7)
AM_VIEW_GAMES = range(2, AM_COMBINATION_CYCLE, 13)
AM_CLONE_GAMES = range(3, AM_COMBINATION_CYCLE, 11)
AM_ID_GAMES = range(4, AM_COMBINATION_CYCLE, 13)
AM_SUBSETS = (AM_POSITION_GAMES, AM_LEGAL_ACTION_GAMES, AM_VIEW_GAMES, AM_CLONE_GAMES,
              AM_ID_GAMES)


def _am_games(indexes: range) -> list[AMConfig]:
    return [am_config(i) for i in indexes]


def _play_checking(cfg: GameConfig, check: Callable[[CarcassonneState], None]) -> None:
    """Play game `cfg` with the random player, running `check` before every action."""
    state = new_state(cfg)
    rng = random.Random(cfg.seed)
    step = 0
    while not state.is_terminal:
        with about(cfg, step):
            check(state)
        state.apply(pick_action(state, rng))
        step += 1


def test_am_configurations_cover_every_combination() -> None:
    """The A&M generator really mixes the options the properties are claimed for."""
    games = am_configs(0, AM_DEFAULT_GAMES)
    combos = {(c.players, c.abbey_end_of_game, c.wagon_adjacency, c.wagon_traverse, c.farmers)
              for c in games}
    assert combos == {(n, end, adjacency, traverse, farmers) for n in range(1, 7)
                      for end in END_VALUES for adjacency, traverse in WAGON_MODES
                      for farmers in (True, False)}
    assert {c.counts for c in games} == set(COUNT_PROFILES)
    assert {(c.players, c.starting_seat) for c in games} == {
        (n, seat) for n in range(1, 7) for seat in range(n)}
    assert {c.small_city_scoring for c in games} == set(SMALL_CITY_VALUES)
    assert {c.abbey_mayor_tiles for c in games} == {True, False}
    assert {c.mayor_lies_flat for c in games} == {True, False}
    assert {c.expansion_name for c in games} == {"abbey_mayor", "abbey_and_mayor"}
    for key in PIECE_OPTIONS.values():
        assert {c.count(key) for c in games} >= {0, 1, 2, 20}, key
    assert len({c.seed for c in games}) == AM_DEFAULT_GAMES
    assert not {c.seed for c in games} & {c.seed for c in configs(0, DEFAULT_GAMES)}


def test_am_step_subsets_mix_the_options() -> None:
    """Each subset checked after every action covers every player count, end-of-game rule and
    wagon range (so no family of invariants is only ever checked in one configuration)."""
    for subset in AM_SUBSETS:
        games = _am_games(subset)
        assert {c.players for c in games} == set(range(1, 7)), subset
        assert {c.abbey_end_of_game for c in games} == set(END_VALUES), subset
        assert {(c.wagon_adjacency, c.wagon_traverse) for c in games} == set(WAGON_MODES), subset


@pytest.mark.parametrize("carcassonne_engine, first",
                         alternating(range(0, AM_DEFAULT_GAMES, AM_COMBINATION_CYCLE)),
                         indirect=["carcassonne_engine"])
def test_am_random_games_end_consistently(first: int) -> None:
    """Pile used up; every landscape tile placed or discarded; tiles matched and abbeys in
    holes; every piece back or accounted for (barns and abbeys by who placed them); mayors in
    cities, wagons off fields; features, figures and barns agree with a board search; no
    barn field holds farmers; no abbey kept with a hole left under the mandatory round; scores
    equal the score log; the record replays exactly."""
    _check_games(am_configs(first, AM_COMBINATION_CYCLE))


@pytest.mark.slow
@pytest.mark.parametrize("carcassonne_engine, first",
                         alternating(range(AM_DEFAULT_GAMES, AM_DEFAULT_GAMES + AM_SLOW_GAMES,
                                           125)),
                         indirect=["carcassonne_engine"])
def test_many_more_am_random_games_end_consistently(first: int) -> None:
    """The same end-of-game invariants over further A&M games (250 at scale 1; the engines
    in turn)."""
    _check_games(am_configs(first, 125))


def test_am_games_exercise_every_component() -> None:
    """Guards the A&M properties: the random games really play abbeys (before drawing and in
    the final round, placed and declined), mayors, wagons (placed, moved and taken back) and
    barns, so the invariants above are checked on positions that contain them."""
    seen: Counter = Counter()
    final_rounds = 0
    for cfg in am_configs(0, AM_COMBINATION_CYCLE):
        facts = replay_facts(play(cfg).record)
        seen.update(facts.events)
        final_rounds += bool(facts.final_round_seats)
    for kind in [("choose_tile", "Draw", None), ("choose_tile", "PlaceAbbey", None),
                 ("final_abbey_round", "PlaceAbbey", None), ("final_abbey_round", "Pass", None),
                 ("deploy", "Deploy", "follower"), ("deploy", "Deploy", "mayor"),
                 ("deploy", "Deploy", "wagon"), ("deploy", "Deploy", "barn"),
                 ("wagon_move", "Deploy", "wagon"), ("wagon_move", "Pass", None)]:
        assert seen[kind] >= 3, f"{kind} seen {seen[kind]} times"
    assert final_rounds >= 10


@pytest.mark.parametrize("carcassonne_engine, cfg", alternating(_am_games(AM_POSITION_GAMES)),
                         indirect=["carcassonne_engine"])
def test_am_invariants_hold_after_every_action(cfg: AMConfig) -> None:
    """After every action: pieces conserved per seat (abbeys by who placed them), tiles
    matched, abbeys in holes, barns on valid points, features and figures agree with a board
    search, no figure on a completed feature and no farmer beside a barn once scoring is done,
    the wagon phase's decider owns the waiting wagon, scores never fall, each seat acts at most
    once in the final abbey round."""
    steps = [0]
    watch = AbbeyWatch()

    def on_step(before: CarcassonneState, after: CarcassonneState, action: Action) -> None:
        steps[0] += 1
        with about(cfg, steps[0]):
            watch.see(before, action)
            check_step(before, after, action)
            check_position(after, watch.placers)

    with about(cfg, 0):
        check_position(new_state(cfg), watch.placers)
    facts = check_end_of_game(play(cfg, on_step))
    assert facts.abbey_placers == watch.placers
    assert facts.final_round_seats == watch.final_round_seats


@pytest.mark.parametrize("carcassonne_engine, cfg", alternating(_am_games(AM_LEGAL_ACTION_GAMES)),
                         indirect=["carcassonne_engine"])
def test_am_legal_actions_are_exactly_the_rules_and_all_apply(cfg: AMConfig) -> None:
    """In every phase the legal actions equal an independent enumeration (draw or an abbey
    into each hole; placements; each figure on each free feature of the new tile and the barn
    on each free barn point; wagon targets in range; the final round's abbeys and optional
    pass), are never empty, each applies to a clone, and each has a round-tripping id."""
    ids: dict[int, Any] = {}
    game = cfg.game()
    _play_checking(cfg, lambda state: check_action_ids(game, check_legal_actions(state), ids))


@pytest.mark.parametrize("carcassonne_engine, cfg", alternating(_am_games(AM_VIEW_GAMES)),
                         indirect=["carcassonne_engine"])
def test_am_views_never_reveal_the_pile_order(cfg: AMConfig) -> None:
    """Every view, in every A&M phase, is the same for any order of the pile."""
    shuffler = random.Random(-cfg.seed)
    _play_checking(cfg, lambda state: check_views_hide_pile(state, shuffler, rounds=1))


@pytest.mark.parametrize("carcassonne_engine, cfg", alternating(_am_games(AM_CLONE_GAMES)),
                         indirect=["carcassonne_engine"])
def test_am_clones_are_independent(cfg: AMConfig) -> None:
    """At every action of an A&M game (wagon queue, final round and barns included) a clone
    equals the original and neither affects the other."""
    state = new_state(cfg)
    rng = random.Random(cfg.seed)
    watcher = random.Random(~cfg.seed)
    step = 0
    while not state.is_terminal:
        with about(cfg, step):
            apply_checking_clone(state, pick_action(state, rng), watcher)
        step += 1
    with about(cfg):
        check_end_of_game(state)


def test_am_action_ids_round_trip_for_every_kind() -> None:
    """Every legal action seen in A&M games (place, draw, abbey, pass, and deploy of each
    figure, in the deploy and the wagon phases) has an id inside the action space that maps
    back to it, distinct actions have distinct ids, and the JSON form parses back."""
    kinds: Counter = Counter()
    for cfg in _am_games(AM_ID_GAMES):
        game = cfg.game()
        ids: dict[int, Any] = {}
        state = new_state(cfg)
        rng = random.Random(cfg.seed)
        while not state.is_terminal:
            actions = state.legal_actions()
            with about(cfg):
                check_action_ids(game, actions, ids)
            kinds.update((state.phase, type(a).__name__, getattr(a, "figure", None))
                         for a in actions)
            state.apply(pick_action(state, rng))
    for kind in [("place_tile", "Place", None), ("choose_tile", "Draw", None),
                 ("choose_tile", "PlaceAbbey", None), ("final_abbey_round", "PlaceAbbey", None),
                 ("final_abbey_round", "Pass", None), ("deploy", "Pass", None),
                 ("deploy", "Deploy", "follower"), ("deploy", "Deploy", "mayor"),
                 ("deploy", "Deploy", "wagon"), ("deploy", "Deploy", "barn"),
                 ("wagon_move", "Deploy", "wagon"), ("wagon_move", "Pass", None)]:
        assert kinds[kind] > 0, f"no {kind} offered"


@pytest.mark.parametrize("index", [5, 50, 77])
def test_am_clone_plays_on_like_the_original(index: int) -> None:
    """A midgame A&M clone played on with the same choices ends exactly like the original."""
    middle = state_at(am_config(index), 90)
    twin = middle.clone()
    for state in (middle, twin):
        rng = random.Random(index)
        while not state.is_terminal:
            state.apply(pick_action(state, rng))
    assert twin.signature() == middle.signature()
    assert middle.clone() == middle


def test_am_game_ended_by_a_final_round_abbey_shows_no_tile() -> None:
    """The smallest game ending with an abbey turn (the abbey round after the last landscape
    tile): once it is over nobody holds a tile, as at the end of every other game."""
    state = build(FX_RING, pile=[], players=3, options={"expansions": ["abbey_mayor"]},
                  supply={1: {"abbey": 0}, 2: {"abbey": 0}})
    assert state.phase == "final_abbey_round" and state.legal_actions() == [PlaceAbbey(0, 1)]
    state.apply(PlaceAbbey(0, 1))
    state.apply(Pass())
    assert state.is_terminal
    check_no_tile_in_hand(state)
