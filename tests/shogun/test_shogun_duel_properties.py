"""Property tests: thousands of random duels between random decks.

Each duel starts from random holdings: one of the four decks, or a random 30-card deck drawn
from every designed card; random hand, draw pile and discard pile; cards already lying on the
piles; random items and monsters; an ordinary attack or a conversion. Both players then pick
random legal actions (half the duels with players who never pass while they can play, the
worst case for termination). After every action: the duel's current player is one of the two
participants and has a legal action, no pile is over its score, every player still owns
exactly the cards they started with, and the action survives a JSON round trip. Every duel
must end within a bound, with an outcome consistent with its totals. Every tenth duel also
checks that a clone replays identically and that illegal actions change nothing. Set-ups in
which the attacker cannot open an attack are skipped (about half of them). A failure names
the duel's seed. `slow` runs ten times as many.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from sizes import sized
from shogun_helpers import CATALOGUE, CONTENT, DECKS, check_piles, holdings

from boardwright.core.errors import IllegalActionError
from boardwright.duel import (
    CardTable, Duel, DuelTarget, HeroCards, Pass, PlayCard, TargetKind, parse_duel_action,
)

DEFAULT_DUELS = 3_000
SLOW_DUELS = sized(3_000)  # tests/sizes.py
MAX_DECISIONS = 100  # observed: under 20
ALL_CARDS = list(CATALOGUE)
MONSTERS = [t.as_monster() for t in CONTENT.treasures if t.is_monster]
ITEMS = [i for i in (t.duel_item() for t in CONTENT.treasures) if i is not None]


def random_holdings(rng: random.Random, seat: int) -> tuple[HeroCards, Counter[str]]:
    hero = rng.choice(list(DECKS))
    if rng.random() < 0.25:
        deck = [rng.choice(ALL_CARDS) for _ in range(30)]
    else:
        deck = DECKS[hero].action_cards()
    rng.shuffle(deck)
    hand_size = rng.randint(0, 7)
    discard_size = rng.randint(0, 6)
    player = HeroCards(seat, hero, DECKS[hero].scores, hand=deck[:hand_size],
                       discard=deck[hand_size:hand_size + discard_size],
                       draw_top_first=deck[hand_size + discard_size:])
    for _ in range(rng.randint(0, 5)):  # cards left on the piles from earlier turns
        if not player.draw_pile:
            break
        card = CATALOGUE[player.draw_pile[-1]]
        if player.can_pay(card, CATALOGUE):
            player.draw_pile.pop()
            player.piles[card.attribute].append(card.id)
    return player, Counter(deck)


def start(seed: int) -> tuple[Duel, list[Counter[str]]] | None:
    rng = random.Random(seed)
    seats = rng.choice((2, 2, 3, 4))
    made = [random_holdings(rng, s) for s in range(seats)]
    table = CardTable(CATALOGUE, [m[0] for m in made], random.Random(seed))
    attacker, defender = rng.sample(range(seats), 2)
    conversion = rng.random() < 0.2
    exclusive_free = rng.random() < 0.7
    monsters = [rng.choice(MONSTERS)] if rng.random() < 0.3 else []
    openings = Duel.openings(table, attacker, exclusive_free=exclusive_free,
                             conversion=conversion, monsters=monsters)
    if not openings:
        return None
    items = {seat: [i for i in ITEMS if rng.random() < 0.4] for seat in (attacker, defender)}
    kind = TargetKind.CONVERSION if conversion else rng.choice(
        [TargetKind.HERO, TargetKind.PEASANT, TargetKind.COURTED_CASTLE])
    duel = Duel.begin(table, attacker, defender, rng.choice(openings), DuelTarget(kind),
                      exclusive_free=exclusive_free, conversion=conversion, items=items)
    return duel, [m[1] for m in made]


def choose(duel: Duel, rng: random.Random, eager: bool) -> object:
    actions = duel.legal_actions()
    assert actions, "a player must always have a legal action"
    if eager:
        plays = [a for a in actions if not isinstance(a, Pass)]
        if plays:
            return rng.choice(plays)
    return rng.choice(actions)


def check_illegal_changes_nothing(duel: Duel, rng: random.Random) -> None:
    seat = duel.current_player
    legal = duel.legal_actions()
    candidates = [PlayCard(c, t) for c in set(duel.table[seat].hand) | {"sam_katana_cut"}
                  for t in (None, 0, 99)]
    before = (duel.view(seat), duel.table.view(seat))
    for action in rng.sample(candidates, min(4, len(candidates))):
        if action in legal:
            continue
        with pytest.raises(IllegalActionError):
            duel.apply(action)
        assert (duel.view(seat), duel.table.view(seat)) == before


def play_out(seed: int) -> bool:
    started = start(seed)
    if started is None:
        return False
    duel, owned = started
    rng = random.Random(seed * 7 + 1)
    eager = seed % 2 == 0
    full = seed % 10 == 0
    copy = duel.clone(duel.table.clone()) if full else None
    decisions = 0
    while not duel.is_over:
        assert duel.current_player in (duel.attacker, duel.defender), f"seed {seed}"
        if full:
            check_illegal_changes_nothing(duel, rng)
        action = choose(duel, rng, eager)
        duel.apply(parse_duel_action(action.to_json()))  # type: ignore[attr-defined]
        decisions += 1
        assert decisions <= MAX_DECISIONS, f"seed {seed}: the duel does not end"
        check_piles(duel.table)
        assert holdings(duel.table) == owned, f"seed {seed}: cards not conserved"
    outcome = duel.outcome
    assert outcome is not None and duel.current_player == -1
    assert outcome.success == (duel.active()[0] and outcome.attack_total > outcome.block_total)
    if outcome.success:
        assert outcome.attack_total > outcome.block_total
    opening = duel.plays[0]
    expected = [item_id for _, item_id in outcome.items_used]
    if opening.monster:
        assert outcome.monster == opening.card
        assert Counter(outcome.returned_treasures) == Counter(expected + [opening.card])
    else:
        assert outcome.monster is None and list(outcome.returned_treasures) == expected
    if duel.conversion:
        assert not opening.monster
    if copy is not None:
        # The clone, given the same random choices, plays the same duel.
        replay_rng = random.Random(seed * 7 + 1)
        while not copy.is_over:
            check_illegal_changes_nothing(copy, replay_rng)
            copy.apply(choose(copy, replay_rng, eager))  # type: ignore[arg-type]
        assert copy.view(0) == duel.view(0)
        assert [p.view(True, CATALOGUE) for p in copy.table.players] == [
            p.view(True, CATALOGUE) for p in duel.table.players]
    return True


def run_many(count: int, offset: int = 0) -> None:
    """Play `count` duels; a random set-up whose attacker has no opening is skipped."""
    played = 0
    seed = offset
    while played < count:
        played += play_out(seed)
        seed += 1
        assert seed - offset < 4 * count, "too few random set-ups can attack"


def test_random_duels_end_keep_pile_limits_and_conserve_cards() -> None:
    run_many(DEFAULT_DUELS)


@pytest.mark.slow
def test_many_more_random_duels() -> None:
    run_many(SLOW_DUELS, offset=DEFAULT_DUELS)
