"""Property tests: thousands of random complete games, with invariants checked throughout.

The default run plays 2,000 random 2-player games, 300 with 3 players and 300 with 4. Every
game must end within the round limit, replay from its record to an equal state, and finish
with sane scores and returns. After every single action the cheap invariants are checked
(Fields conserved and never removed, no stack kept past its owner's turn, Princes never
created); every tenth game also checks the full board structure after each action (what may
share a space, and that the per-space lists and the bit masks agree). `slow` tests play
4,000 more 2-player games and 1,000 each with 3 and 4 players. A failure names the game's
seed and player count, so it can be replayed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from sizes import sized

import boardwright as bw
from boardwright.games.queens import Found, Joint, Move, Sow
from boardwright.games.queens.battle import defence_value
from boardwright.games.queens.board import hex_distance
from boardwright.games.queens.position import (
    CITIES_PER_PLAYER, FIELDS_PER_PLAYER, MAX_ROUNDS,
)
from boardwright.games.queens.state import QueensState

DEFAULT_GAMES = {2: 300, 3: 100, 4: 100}
SLOW_GAMES = {2: sized(100), 3: sized(25), 4: sized(25)}  # tests/sizes.py
FULL_CHECK_EVERY = 10


def check_structure(state: QueensState) -> None:
    """No two pieces where the rules forbid, and every record of the position agrees."""
    board = state.game.board
    n = state.game.num_players
    queens = [q for q in state.queen if q >= 0]
    assert len(set(queens)) == len(queens), "two Queens on one space"
    for pos in board.spaces:
        seat, count = state.occupant[pos], state.princes_at[pos]
        queen_here = [s for s in range(n) if state.queen[s] == pos]
        if queen_here:
            assert count == 0, f"a Queen shares {board.coord(pos)} with a Prince"
            assert seat == queen_here[0]
        assert 0 <= count <= 2, f"{count} Princes on {board.coord(pos)}"
        assert (seat >= 0) == bool(queen_here or count), f"occupant wrong on {board.coord(pos)}"
        city, field = state.city[pos], state.field[pos]
        assert city < 0 or field < 0, f"two buildings on {board.coord(pos)}"
        if field >= 0:
            assert not board.is_mountain[pos], f"a Field on the mountain {board.coord(pos)}"
        if city >= 0 and seat >= 0:
            assert city == seat, f"an enemy piece stands in a City on {board.coord(pos)}"
            assert count < 2, f"a stack in a City on {board.coord(pos)}"
        for s in range(n):
            bit = 1 << pos
            assert bool(state.mobile_bits[s] & bit) == (seat == s)
            assert bool(state.prince_bits[s] & bit) == (seat == s and count > 0)
            assert bool(state.stack_bits[s] & bit) == (seat == s and count == 2)
            assert bool(state.city_bits[s] & bit) == (city == s)
            assert bool(state.field_bits[s] & bit) == (field == s)
    for s in range(n):
        assert state.prince_count[s] == sum(state.princes_at[p] for p in board.spaces
                                            if state.occupant[p] == s)
        assert state.field_count[s] == state.field_bits[s].bit_count()
        if state.queen[s] >= 0:  # a Queen defends with at least her plain value
            assert defence_value(state, state.queen[s]) >= 4


def check_step(before: QueensState, after: QueensState, mover: int) -> None:
    """Invariants of one action: Fields conserved and never removed, Princes never created,
    stacks kept since the start of the turn gone, supplies within bounds."""
    n = after.game.num_players
    for s in range(n):
        assert after.field_count[s] + after.field_supply[s] == FIELDS_PER_PLAYER, \
            f"Field tokens of seat {s} not conserved"
        assert after.prince_count[s] <= before.prince_count[s], "a Prince appeared"
        cities = after.city_bits[s].bit_count() + after.city_supply[s]
        if after.alive[s]:
            assert cities == CITIES_PER_PLAYER, f"City tokens of seat {s} not conserved"
        assert after.city_bits[s].bit_count() <= CITIES_PER_PLAYER
    assert sum(after.field_count) >= sum(before.field_count), "a Field was removed"
    assert after.field_count[mover] >= before.field_count[mover], "own Field removed"
    for p in before.game.board.spaces:
        if before.field[p] >= 0:
            assert after.field[p] >= 0
    if not after.is_terminal:
        assert before.stack_bits[mover] & after.stack_bits[mover] == 0, "a stack was kept"
        assert after.current_player != mover or sum(after.alive) == 1
        assert after.alive[after.current_player]
    assert after.round >= before.round and after.turn == before.turn + 1


def check_end(state: QueensState, record_check: bool = True) -> None:
    n = state.game.num_players
    assert state.is_terminal
    assert state.round <= MAX_ROUNDS and state.turn <= MAX_ROUNDS * n
    winners = state.winners
    assert winners and all(state.alive[w] for w in winners)
    scores = state.scores
    assert [s for s, v in enumerate(scores) if v == max(scores)] == winners
    returns = state.returns()
    assert abs(sum(returns)) < 1e-9 and all(-1.0 <= r <= 1.0 for r in returns)
    assert all(returns[w] == max(returns) for w in winners)
    reason = state.log[-1]["reason"]
    if reason == "queen_captured":
        assert n == 2 and len(winners) == 1
        assert sum(q >= 0 for q in state.queen) == 1
    elif reason == "last_survivor":
        assert sum(state.alive) == 1
    elif reason == "final_round":
        assert state.final_round
    else:
        assert reason == "round_limit" and state.round == MAX_ROUNDS
    if record_check:
        again = bw.replay(state.record)
        assert again == state


def play(players: int, seed: int, full_check: bool) -> QueensState:
    game = bw.load("queens", players)
    state = game.new_game(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        before = state.clone()
        mover = state.current_player
        actions = state.legal_actions()
        state.apply(rng.choice(actions))
        check_step(before, state, mover)
        if full_check:
            check_structure(state)
    return state


def run_games(players: int, games: int, start: int = 0) -> dict[str, Any]:
    reasons: dict[str, int] = {}
    for index in range(start, start + games):
        seed = 1_000 * players + index
        try:
            state = play(players, seed, full_check=index % FULL_CHECK_EVERY == 0)
            check_end(state)
        except AssertionError as exc:
            raise AssertionError(f"{players}-player game with seed {seed}: {exc}") from exc
        reason = state.log[-1]["reason"]
        reasons[reason] = reasons.get(reason, 0) + 1
    return reasons


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games(players: int) -> None:
    reasons = run_games(players, DEFAULT_GAMES[players])
    assert sum(reasons.values()) == DEFAULT_GAMES[players]
    assert "round_limit" in reasons  # random players rarely finish the Field race


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games(players: int) -> None:
    reasons = run_games(players, SLOW_GAMES[players], start=DEFAULT_GAMES[players])
    assert sum(reasons.values()) == SLOW_GAMES[players]


def sower(state: QueensState, rng: random.Random) -> Any:
    """Prefers sowing and founding: these games end by the Field race."""
    actions = state.legal_actions()
    eager = [a for a in actions if isinstance(a, (Sow, Found, Joint))]
    return rng.choice(eager if eager and rng.random() < 0.7 else actions)


def aggressor(state: QueensState, rng: random.Random) -> Any:
    """Takes any JOINT and otherwise mostly closes in on the nearest enemy Queen: these games
    end by Queen captures, eliminations and last survivors."""
    actions = state.legal_actions()
    joints = [a for a in actions if isinstance(a, Joint)]
    if joints:
        return rng.choice(joints)
    me = state.current_player
    enemies = [state.seat_position(s).queen for s in range(state.game.num_players)
               if s != me and state.alive[s]]
    moves = [a for a in actions if isinstance(a, Move)]
    if not moves or rng.random() < 0.2:
        return rng.choice(actions)

    def closing(action: Move) -> float:
        return (min(hex_distance(action.dst, e) for e in enemies)
                - min(hex_distance(action.src, e) for e in enemies) + 1.5 * rng.random())

    return min(moves, key=closing)


@pytest.mark.parametrize("policy, endings", [
    (sower, {"final_round"}),
    (aggressor, {"queen_captured", "last_survivor"}),
], ids=["sower", "aggressor"])
def test_biased_games_reach_every_ending(policy: Any, endings: set[str]) -> None:
    """Random players almost always reach the round limit; these biased ones reach the other
    endings, which are checked (and replayed) the same way."""
    seen: dict[str, int] = {}
    eliminations = 0
    for players in (2, 3, 4):
        game = bw.load("queens", players)
        for seed in range(60):
            state = game.new_game(seed)
            rng = random.Random(seed)
            while not state.is_terminal:
                before, mover = state.clone(), state.current_player
                state.apply(policy(state, rng))
                check_step(before, state, mover)
                if seed % 5 == 0:
                    check_structure(state)
            try:
                check_end(state)
            except AssertionError as exc:
                raise AssertionError(f"{policy.__name__}, {players} players, seed {seed}: "
                                     f"{exc}") from exc
            reason = state.log[-1]["reason"]
            seen[reason] = seen.get(reason, 0) + 1
            eliminations += sum(e["event"] == "eliminated" for e in state.log)
    assert endings <= set(seen), seen
    if policy is aggressor:
        assert eliminations > 0
