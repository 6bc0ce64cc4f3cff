"""The compiled vector kernel keeps each game's observation current from what a step changed:
at every step, every row must equal the observation written whole from that game's position
by the Python encoder's own writer (the reference, `encode_reference`), for every option set, player count and opponent mode;
the mask must be the learning space's legal ids and the rest of the row the game's own state.
"""

from __future__ import annotations

import numpy as np
import pytest

import boardwright as bw
from boardwright.core.errors import IllegalActionError, MalformedActionError
from boardwright.rl.action_spaces import action_space_for
from boardwright.rl.observations import encoder_for
from tests.carcassonne.native_support import needs_native

pytestmark = needs_native

AM = {"expansions": ["abbey_mayor"]}
CASES = [
    ({}, 2, "random"),
    ({}, 2, "self"),
    ({}, 5, "greedy"),
    (AM, 2, "greedy"),
    (AM, 3, "self"),
    ({**AM, "wagon_adjacency": "connected", "wagon_traverse": True, "abbeys": 2}, 4, "self"),
    ({**AM, "abbeys": 3, "abbey_end_of_game": "voluntary_round", "barns": 2}, 6, "random"),
]


def kernel(players: int, options: dict, opponent: str, envs: int, seat: int = 0):
    from boardwright.rl.vector_native import NativeVectorKernel
    return NativeVectorKernel(bw.load("carcassonne", players, options), envs, opponent, seat)


def random_actions(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A uniformly random legal id per row (any id in a row with none: it is ignored)."""
    noise = rng.random(mask.shape)
    return np.argmax(np.where(mask > 0, noise + 1.0, noise), axis=1).astype(np.int64)


@pytest.mark.parametrize(("options", "players", "opponent"), CASES)
def test_every_row_is_the_observation_of_its_game_written_whole(options, players, opponent):
    k = kernel(players, options, opponent, envs=4, seat=players - 1)
    encoder, space = encoder_for(k.game), action_space_for(k.game)
    k.reset(np.arange(4, dtype=np.int64) + 11)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(260):
        movers = k.to_move.copy()
        k.step(random_actions(rng, k.mask))
        ended += int(k.terminated.sum())
        for i in range(4):
            state = k.state(i)
            viewer = k.seat if opponent != "self" else int(k.to_move[i])
            if opponent == "self" and k.terminated[i]:  # the view of the seat that ended it
                viewer = int(movers[i])
            expected = encoder.encode_reference(state, viewer)
            assert np.array_equal(k.board[i], expected["board"]), f"env {i} board"
            assert np.array_equal(k.scalars[i], expected["scalars"]), f"env {i} scalars"
            legal = space.legal(state)
            assert np.array_equal(np.flatnonzero(k.mask[i]), legal.ids)
            assert k.to_move[i] == (-1 if state.is_terminal else state.current_player)
            if opponent != "self" and not state.is_terminal:
                assert state.current_player == k.seat
            if k.terminated[i]:
                assert state.is_terminal
                assert np.allclose(k.returns[i], state.returns())
    assert ended > 0


def check_rows_written_whole(k, encoder, space) -> None:
    for i in range(k.num_envs):
        state = k.state(i)
        expected = encoder.encode_reference(state, k.seat)
        assert np.array_equal(k.board[i], expected["board"]), f"env {i} board"
        assert np.array_equal(k.scalars[i], expected["scalars"]), f"env {i} scalars"
        assert np.array_equal(np.flatnonzero(k.mask[i]), space.legal(state).ids)


@pytest.mark.parametrize(("options", "players"), [({}, 2), (AM, 3)])
def test_a_game_replaced_midway_leaves_nothing_of_it_in_its_row(options, players):
    """`reset` and `start` over games well under way (tiles, figures, marks on the board, a
    long mask): the new rows hold exactly the new games' observations, the old games erased
    where they were written rather than whole rows cleared."""
    k = kernel(players, options, "random", envs=3)
    encoder, space = encoder_for(k.game), action_space_for(k.game)
    rng = np.random.default_rng(8)
    for seeds in (np.array([4, 5, 6]), np.array([40, 41, 42]), np.array([4, 5, 6])):
        k.reset(seeds.astype(np.int64))
        check_rows_written_whole(k, encoder, space)
        for _ in range(30):
            k.step(random_actions(rng, k.mask))
        assert not k.terminated.any() and k.state(0).turn > 20
        check_rows_written_whole(k, encoder, space)
    pile = [k.game._tile_index[name] for name in ("B", "A", "E", "E", "U")]
    k.start(1, pile)
    check_rows_written_whole(k, encoder, space)
    assert k.state(1).tile == "U"


def test_ended_games_start_again_at_the_next_step_and_ignore_their_action():
    k = kernel(2, {}, "random", envs=3)
    k.reset(np.array([1, 2, 3], dtype=np.int64))
    rng = np.random.default_rng(0)
    while not k.terminated.any():
        k.step(random_actions(rng, k.mask))
    done = np.flatnonzero(k.terminated)
    assert (k.mask[done] == 0).all() and (k.to_move[done] == -1).all()
    assert np.isin(k.reward[done], [-1.0, 0.0, 1.0]).all()
    actions = random_actions(rng, k.mask)
    actions[done] = 10**6  # ignored: those games start again
    k.step(actions)
    assert not k.terminated[done].any() and (k.reward[done] == 0).all()
    assert (k.returns[done] == 0).all()
    for i in done:
        assert k.state(int(i)).turn <= 2  # a new game (the opponents may have played a turn)


def test_the_same_seeds_give_the_same_games_and_other_seeds_others():
    def run(seeds):
        k = kernel(2, AM, "greedy", envs=2)
        k.reset(np.array(seeds, dtype=np.int64))
        rng = np.random.default_rng(5)
        trace = []
        for _ in range(40):
            k.step(random_actions(rng, k.mask))
            trace.append((k.board.copy(), k.scalars.copy(), k.reward.copy()))
        return trace

    a, b, c = run([7, 8]), run([7, 8]), run([9, 8])
    assert all(all(np.array_equal(x, y) for x, y in zip(s, t)) for s, t in zip(a, b))
    assert not all(np.array_equal(s[0][0], t[0][0]) for s, t in zip(a, c))


def test_a_bad_action_is_refused_by_name_and_changes_nothing():
    k = kernel(2, {}, "self", envs=3)
    k.reset(np.arange(3, dtype=np.int64))
    before = [a.copy() for a in (k.board, k.scalars, k.mask, k.to_move)]
    signatures = [k.state(i).public_signature() for i in range(3)]
    good = random_actions(np.random.default_rng(1), k.mask)
    illegal = good.copy()
    illegal[2] = int(np.flatnonzero(k.mask[2] == 0)[0])
    with pytest.raises(IllegalActionError, match="env 2"):
        k.step(illegal)
    outside = good.copy()
    outside[1] = k.mask.shape[1]
    with pytest.raises(MalformedActionError, match="env 1"):
        k.step(outside)
    with pytest.raises(MalformedActionError):
        k.step(good.astype(np.float64))
    after = (k.board, k.scalars, k.mask, k.to_move)
    assert all(np.array_equal(x, y) for x, y in zip(before, after))
    assert [k.state(i).public_signature() for i in range(3)] == signatures


def test_a_given_pile_is_laid_in_its_order():
    k = kernel(2, {}, "self", envs=1)
    k.reset(np.zeros(1, dtype=np.int64))
    game = k.game
    pile = [game._tile_index[name] for name in ("B", "A", "E", "E", "U")]
    k.start(0, pile)
    state = k.state(0)
    assert state.tile == "U" and len(state.pile) == 4


@pytest.mark.parametrize(("options", "players"), [({}, 2), (AM, 4)])
def test_a_tracked_state_observes_what_it_would_write_whole(options, players):
    """An environment's state keeps its observation and updates it from the actions applied
    to it, by any path (listed objects, JSON, ids): it always equals the whole observation,
    whoever looks; a copy starts afresh and is not disturbed by its original."""
    import random

    game = bw.load("carcassonne", players, options)
    encoder, space = encoder_for(game), action_space_for(game)
    rng = random.Random(4)
    for seed in range(2):
        state = game.new_game(seed)
        steps = 0
        while not state.is_terminal:
            viewer = rng.choice([state.current_player, rng.randrange(players)])
            obs, legal = encoder.observe(state, viewer, space, track=True)
            expected = encoder.encode_reference(state, viewer)
            assert np.array_equal(obs["board"], expected["board"])
            assert np.array_equal(obs["scalars"], expected["scalars"])
            assert np.array_equal(legal.ids, space.legal(state).ids)
            if steps % 17 == 5:  # a copy observes on its own, the original is untouched
                other = state.clone()
                other.apply(rng.choice(other.legal_actions()))
                mine, _ = encoder.observe(other, viewer, space, track=True)
                assert np.array_equal(mine["board"], encoder.encode_reference(other, viewer)["board"])
            action = rng.choice(state.legal_actions())
            kind = steps % 3
            if kind == 0:
                state.apply(action)
            elif kind == 1:
                state.apply(action.to_json())
            else:
                state._apply_id(game.action_id(action))
            steps += 1
        final, _ = encoder.observe(state, 0, space, track=True)
        assert np.array_equal(final["board"], encoder.encode_reference(state, 0)["board"])


@pytest.mark.parametrize("options", [{}, AM], ids=["base", "abbey_mayor"])
def test_a_channels_last_row_is_written_in_place_by_the_compiled_writer(options, monkeypatch):
    """A (C, W, W) row laid out channels last (the vector env's batch) is written by the
    compiled writer in that order, straight into the row: not through a C-order copy, nor by
    the reference writer (what the Python kernel on the native engine relies on for speed)."""
    from boardwright.rl.observations import carcassonne_native

    game = bw.load("carcassonne", 2, options)
    assert game.engine == "native"
    encoder = encoder_for(game)
    state = game.new_game(5)
    rng = np.random.default_rng(2)
    space = action_space_for(game)
    for _ in range(25):
        legal = space.legal(state)
        state.apply(legal.action(int(rng.choice(legal.ids))))
    expected = encoder.encode_reference(state, 1)
    C, W, _ = expected["board"].shape
    memory = np.zeros((3, W, W, C), dtype=np.uint8)
    scalars = np.zeros((3, encoder.num_scalars), dtype=np.int16)
    orders = []
    observe = carcassonne_native.observe
    monkeypatch.setattr(carcassonne_native, "observe",
                        lambda *a, **k: orders.append(k.get("channels_last")) or observe(*a, **k))
    monkeypatch.setattr(encoder, "empty", lambda: pytest.fail("written through a copy"))
    row = memory.transpose(0, 3, 1, 2)[1]
    encoder.encode_into(state, 1, {"board": row, "scalars": scalars[1]})
    assert orders == [True]
    assert np.array_equal(row, expected["board"])
    assert np.array_equal(scalars[1], expected["scalars"])
    assert not memory[[0, 2]].any() and not scalars[[0, 2]].any()
