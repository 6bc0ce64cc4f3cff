"""Random games with invariants checked after every decision.

Every game sets `max_rounds` (the rules have none) so it ends. Checked: each colour's 15
peasants are all somewhere (reserve, ordinary peasants, lord markers, prisoners held by the
others; colours of empty seats stay in the box); a castle has at most one lord and a courtship
goes with a mission; no space holds two pieces; the cached chain points equal a count from
scratch; every player's cards are their 30 action cards; the 13 treasures and 6 missions are all
accounted for; and the record replays to the same state. `slow` tests play 300 games per player
count.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from sizes import sized
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import boardwright as bw
from boardwright.games.shogun.network import chain_vp, cut_off

ROUNDS = 10


def check_invariants(state: Any) -> None:
    game = state.game
    n = game.num_players
    board = game.board
    per_colour = game.content.components.peasants_per_colour
    for seat in range(n):
        total = state.reserve[seat] + state.board_count(seat) + state.held_count(seat)
        assert total == per_colour, f"colour {seat}: {total} peasants"
        assert state.reserve[seat] >= 0 and state.prisoners[seat][seat] == 0
        assert all(k >= 0 for k in state.prisoners[seat])
    boxed = len(game.content.components.colours) - n
    assert per_colour * (n + boxed) == game.content.components.peasants
    for c, space in enumerate(state.castle_space):
        assert state.castle_at[space] == c
        assert not (state.roof[c] >= 0 and state.court[c] >= 0)
        assert state.peasant[space] < 0 and state.hero_at[space] < 0 and not state.shrine[space]
    for seat in range(n):
        courted = [c for c, o in enumerate(state.court) if o == seat]
        assert len(courted) <= 1
        assert (state.mission[seat] is not None) == bool(courted) or state.pending
        if state.hero_pos[seat] >= 0:
            assert state.hero_at[state.hero_pos[seat]] == seat
    for s in range(len(board)):
        assert not (state.peasant[s] >= 0 and state.hero_at[s] >= 0)
        assert not (state.peasant[s] >= 0 and state.shrine[s])
        if state.shrine[s] and state.hero_at[s] >= 0:
            assert state.hero_at[s] == state.active and state.phase in ("movement", "hero")
    if state.phase not in ("heroes", "castles", "shrines", "homes"):
        assert sum(state.shrine) + len(state.shrine_aside) + (
            1 if any(p[0] == "relocate_shrine" for p in state.pending) else 0) \
            + (1 if state.must_search else 0) >= 4
    for seat in range(n):
        cached = state.chain_cache[seat]
        fresh = chain_vp(board.neighbours, state.peasant, seat, state.castles_of(seat))
        if cached is not None:
            assert cached == fresh
        if state.duel is None and not state.pending and state.outside is None \
                and state.phase not in ("heroes", "castles", "shrines", "homes"):
            assert cut_off(board.neighbours, state.peasant, seat, state.castles_of(seat)) == [] \
                or state.pending
    if state.table is not None:
        for seat, deck in enumerate(game.decks_for(state.heroes)):
            assert state.table[seat].card_counts() == deck.counts()
            assert len(state.table[seat].hand) <= 7
    held = [t for row in state.treasures for t in row]
    running = []
    if state.duel is not None and state.duel.plays and state.duel.plays[0].monster \
            and not state.duel.purged[0]:
        running.append(state.duel.plays[0].card)
    if state.duel is not None:
        running.extend(t for t in state.duel.returned if t not in held)
    drawn = [t for p in state.pending if p[0] == "keep" for t in p[2]]
    assert Counter(held + state.treasure_deck + running + drawn) == Counter(game.treasure_order)
    assert all(len(row) <= 3 for row in state.treasures) or any(
        p[0] == "overflow" for p in state.pending)
    assert sorted([m for m in state.mission if m] + state.mission_deck) == sorted(game.mission)


def play_random(players: int, seed: int, check: bool = True) -> Any:
    game = bw.load("shogun", players, {"max_rounds": ROUNDS})
    state = game.new_game(seed)
    rng = random.Random(seed)
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
        if check:
            check_invariants(state)
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_few_random_games_keep_every_invariant(players: int) -> None:
    for seed in range(8):
        state = play_random(players, seed)
        assert state.is_terminal and state.round <= ROUNDS
        assert bw.replay(state.record) == state


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_random_games_per_player_count(players: int) -> None:
    """40 games per player count at scale 1 (tests/sizes.py), each replayed from its saved
    record."""
    games = sized(40)
    ends: Counter[str] = Counter()
    for seed in range(games):
        state = play_random(players, 1000 + seed)
        ends[state.end_reason] += 1
        replayed = bw.replay(bw.GameRecord.loads(state.record.dumps()))
        assert replayed == state
    assert sum(ends.values()) == games


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.dictionaries(
    st.sampled_from(["type", "space", "card", "opening", "treasure", "opponent", "colour",
                     "source", "target", "kind", "attribute", "hero", "item"]),
    st.one_of(st.text(max_size=12), st.integers(-3, 70), st.none(), st.booleans()),
    max_size=4))
def test_malformed_or_illegal_input_never_corrupts_a_state(seed: int, data: dict) -> None:
    game = bw.load("shogun", 2, {"max_rounds": 3})
    state = game.new_game(seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(60)):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    before = state.signature()
    try:
        state.apply(data)
    except bw.BoardwrightError:
        assert state.signature() == before
