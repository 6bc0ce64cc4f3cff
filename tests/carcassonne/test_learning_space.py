"""Carcassonne's learning action space: every legal action of every position reached has one id,
the ids of a position are distinct and say what the layout documents, decoding an id gives its
action back, and what is not a legal id is refused without touching the game.

Random games on both engines (the fixture runs each test on each), base and Abbey & Mayor
configurations (20 of every piece, every wagon range, every end-of-game abbey rule), with the
default window and with windows so small that most moves go through the overflow list."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")

import boardwright as bw  # noqa: E402
from boardwright.core.action_space import LearningActionSpace, LegalIds  # noqa: E402
from boardwright.core.errors import IllegalActionError, MalformedActionError  # noqa: E402
from boardwright.games.carcassonne import Deploy, Draw, Pass, Place, PlaceAbbey  # noqa: E402
from boardwright.games.carcassonne.capabilities.wagon import MOVE  # noqa: E402
from boardwright.games.carcassonne.learning_space import (  # noqa: E402
    ANCHORS, DEFAULT_RADIUS, CarcassonneActionSpace, anchor,
)
from boardwright.games.carcassonne.options import MAX_DRAW_ORDER, MAX_PIECES  # noqa: E402
from legality import fingerprint  # noqa: E402
from randomgames import am_config, config, pick_action  # noqa: E402

BUDGET = 100_000
# A&M games: 20 of every piece with 6 players (nearby wagons, mandatory round; connected with
# traversal, voluntary round; none), 5 players and 20 pieces (connected, voluntary), two barns
# each (25, 41), and the defaults (57).
AM_INDEXES = [5, 53, 101, 142, 25, 41, 57]
BASE_INDEXES = [1, 4, 7, 23]  # 2, 5, 3, 4 players; farmers and start tiles vary


def check_position(space: CarcassonneActionSpace, state: Any, rng: random.Random) -> Any:
    """Every guarantee of the space at one position; returns its legal ids."""
    legal = space.legal(state)
    actions = state.legal_actions()
    ids = legal.ids
    assert len(legal) == len(actions), "an action without an id, or an id without an action"
    assert ids.dtype.kind == "i" and np.all(ids[1:] > ids[:-1]), "ids not sorted and distinct"
    assert ids.size == 0 or (0 <= ids[0] and ids[-1] < space.size)
    assert sorted(legal.id_of(a) for a in actions) == ids.tolist()
    for action in actions:
        action_id = legal.id_of(action)
        assert legal.action(action_id) == action
        assert legal.action(np.int64(action_id)) == action
        check_meaning(space, state, action, action_id)
    before = fingerprint(state)
    taken = set(ids.tolist())
    for wrong in rng.sample(range(space.size), 3):
        if wrong not in taken:
            with pytest.raises(IllegalActionError):
                legal.action(wrong)
    for wrong in (-1, space.size, 2**70, True, 1.0, "3", None):
        with pytest.raises(MalformedActionError):
            legal.action(wrong)
    assert fingerprint(state) == before
    return legal


def check_meaning(space: CarcassonneActionSpace, state: Any, action: Any, action_id: int) -> None:
    """The id says what the module docstring says it does."""
    meaning = space.meaning(action_id)
    if meaning.block == "overflow":
        assert type(action) in (Place, PlaceAbbey, Deploy)
        assert max(abs(action.x), abs(action.y)) > space.radius or space.radius == 0 or (
            type(action) is Deploy)
        return
    cls = type(action)
    if cls is Place:
        assert (meaning.block, meaning.x, meaning.y, meaning.rotation) == (
            "place", action.x, action.y, action.rotation)
    elif cls is PlaceAbbey:
        assert (meaning.block, meaning.x, meaning.y) == ("abbey", action.x, action.y)
    elif cls is Deploy and state.phase == MOVE:
        assert (meaning.block, meaning.x, meaning.y, meaning.anchor) == (
            "wagon", action.x, action.y, anchor(action.location))
    elif cls is Deploy:
        assert (meaning.block, meaning.anchor, meaning.figure) == (
            "deploy", anchor(action.location), action.figure)
    else:
        assert meaning.block == {Pass: "pass", Draw: "draw"}[cls]


def play_checking(game: Any, seed: int, radius: int = DEFAULT_RADIUS,
                  phases: set[str] | None = None) -> tuple[int, int]:
    """A random game, every position checked; (positions, positions using the overflow). The
    phases met are added to `phases`."""
    phases = set() if phases is None else phases
    space = CarcassonneActionSpace(game, radius)
    rng = random.Random(seed)
    state = game.new_game(seed)
    positions = overflowed = 0
    while not state.is_terminal:
        legal = check_position(space, state, rng)
        positions += 1
        overflowed += bool(legal.ids.size and legal.ids[-1] >= space.blocks["overflow"].start)
        phases.add(state.phase)
        # the tests' random player (it mostly keeps its abbey, so final abbey rounds happen),
        # its move taken through its id
        state.apply(legal.action(legal.id_of(pick_action(state, rng))))
    assert space.legal(state).ids.size == 0
    return positions, overflowed


@pytest.mark.parametrize("index", AM_INDEXES)
def test_every_legal_action_has_one_id_abbey_mayor(index):
    cfg = am_config(index)
    positions, _ = play_checking(cfg.game(), cfg.seed)
    assert positions > 100


@pytest.mark.parametrize("index", BASE_INDEXES)
def test_every_legal_action_has_one_id_base(index):
    cfg = config(index)
    positions, _ = play_checking(cfg.game(), cfg.seed)
    assert positions > 100


def test_every_legal_action_has_one_id_over_many_games():
    """12 more A&M games (1-6 players, every end rule and wagon range, farmers on and off,
    piece counts 0-20) and 6 base games: every phase of the game is met."""
    phases: set[str] = set()
    for index in range(201, 224, 2):
        cfg = am_config(index * 3)
        play_checking(cfg.game(), cfg.seed, phases=phases)
    for index in range(300, 306):
        cfg = config(index)
        play_checking(cfg.game(), cfg.seed, phases=phases)
    assert phases == {"place_tile", "deploy", "choose_tile", "wagon_move", "final_abbey_round"}


@pytest.mark.parametrize(("index", "radius"), [(53, 0), (5, 2), (142, 1)])
def test_small_windows_send_moves_to_the_overflow(index, radius):
    """With a window of 1, 3 or 5 cells a side, most places, abbeys and wagon moves are
    overflow slots: the slots never run out and every guarantee still holds."""
    cfg = am_config(index)
    positions, overflowed = play_checking(cfg.game(), cfg.seed, radius)
    assert overflowed > positions // 4


def test_a_line_of_tiles_leaves_the_window_and_stays_encodable():
    """Straight roads laid eastward in a line reach x = 40, far outside the default window;
    those placements are overflow slots ranked by stable id, and decode to themselves."""
    game = bw.load("carcassonne", 2, {"draw_order": ["U"] * 45, "start_tile": "U"})
    space = game.learning_action_space()
    state = game.new_game(0)
    rng = random.Random(0)
    east = 0
    while not state.is_terminal:
        legal = check_position(space, state, rng)
        actions = state.legal_actions()
        if state.phase == "place_tile":
            best = max(actions, key=lambda a: (a.x, a.y, a.rotation))
            far = sorted((space.game.action_id(a), legal.id_of(a)) for a in actions
                         if abs(a.x) > DEFAULT_RADIUS)
            overflow = space.blocks["overflow"].start
            assert [learning for _, learning in far] == list(range(overflow, overflow + len(far)))
            east = max(east, best.x)
            state.apply(best)
        else:
            state.apply(actions[0])
    assert east == 45


def test_both_engines_number_a_game_alike(carcassonne_engine):
    """The same game on the two engines: the same ids, position by position."""
    cfg = am_config(53)
    games = [bw.load("carcassonne", cfg.players, cfg.options(), engine=e)
             for e in ("python", "native")]
    states = [g.new_game(cfg.seed) for g in games]
    spaces = [g.learning_action_space() for g in games]
    rng = random.Random(1)
    while not states[0].is_terminal:
        python, native = (space.legal(state) for space, state in zip(spaces, states))
        assert python.ids.tolist() == native.ids.tolist()
        assert python.stable.tolist() == native.stable.tolist()
        chosen = int(rng.choice(python.ids))
        for state, legal in zip(states, (python, native)):
            state.apply(legal.action(chosen))
    assert states[1].is_terminal and states[0].scores == states[1].scores


def test_the_space_follows_the_contract_and_the_layout():
    game = bw.load("carcassonne", 6, {"expansions": ["abbey_mayor"]})
    space = game.learning_action_space()
    assert isinstance(space, LearningActionSpace)
    assert isinstance(space.legal(game.new_game(1)), LegalIds)
    assert space is game.learning_action_space()  # built once per game
    w = 2 * DEFAULT_RADIUS + 1
    blocks = space.blocks
    assert [b.name for b in blocks.values()] == [
        "place", "abbey", "wagon", "deploy", "draw", "pass", "overflow"]
    assert blocks["place"].shape == (w, w, 4) and blocks["place"].start == 0
    assert blocks["abbey"].shape == (w, w) and blocks["wagon"].shape == (w, w, 5)
    assert blocks["deploy"].shape == (4, len(ANCHORS))
    assert all(a.stop == b.start for a, b in zip(list(blocks.values()), list(blocks.values())[1:]))
    assert list(blocks.values())[-1].stop == space.size
    assert space.describe(0) == f"place at (-{DEFAULT_RADIUS}, -{DEFAULT_RADIUS}) turned 0°"
    centre = ((DEFAULT_RADIUS * w) + DEFAULT_RADIUS) * 4 + 3
    assert space.describe(centre) == "place at (0, 0) turned 270°"
    assert space.describe(blocks["pass"].start) == "pass"
    base = bw.load("carcassonne", 2, {}).learning_action_space()
    assert [b.name for b in base.blocks.values()] == ["place", "deploy", "pass", "overflow"]


def test_anchors_tell_the_features_of_every_tile_apart():
    """Features of one tile share no part, so their anchors differ, on every tile type and
    rotation of the game with every tile; a barn's corner is its own anchor."""
    game = bw.load("carcassonne", 2, {"expansions": ["abbey_mayor"]})
    for tile in game.tile_types.values():
        for variant in tile.variants:
            anchors = [anchor(f.location) for f in variant.features]
            assert len(set(anchors)) == len(anchors), (tile.name, variant.rotation, anchors)
    assert anchor("NE") == "NE" and anchor("E.N") == "N" and anchor("SL.EL.ER") == "EL"


def test_the_size_stays_within_budget_for_every_option_set():
    """The largest option sets the game accepts: 6 players with 20 of every piece, and a draw
    order of the longest allowed length on top (the overflow list grows with the tiles)."""
    most = {"expansions": ["abbey_mayor"], "abbeys": MAX_PIECES, "mayors": MAX_PIECES,
            "wagons": MAX_PIECES, "barns": MAX_PIECES}
    sizes = {
        "base": bw.load("carcassonne", 2, {}).learning_action_space().size,
        "most": bw.load("carcassonne", 6, most).learning_action_space().size,
        "longest": bw.load("carcassonne", 6, {**most, "draw_order": ["U"] * MAX_DRAW_ORDER})
        .learning_action_space().size,
    }
    assert sizes["base"] < sizes["most"] < sizes["longest"] < BUDGET
    assert sizes["base"] == 4_448 and sizes["most"] == 11_328


def test_a_bad_radius_is_refused():
    game = bw.load("carcassonne", 2, {})
    for radius in (-1, 201, 1.5, "15", True):
        with pytest.raises(bw.InvalidOptionError):
            CarcassonneActionSpace(game, radius)


def test_reaching_further_rebuilds_the_space():
    """A built position (`scenario.build`) widens the stable ids; the space follows."""
    game = bw.load("carcassonne", 2, {})
    before = game.learning_action_space()
    game.reach_further(10)
    after = game.learning_action_space()
    assert after is not before and after.size == before.size + 8 * 10
    state = game.new_game(3)
    assert len(after.legal(state)) == len(state.legal_actions())
