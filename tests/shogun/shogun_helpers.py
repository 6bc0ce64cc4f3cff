"""Helpers shared by the Shogun tests: the loaded content, card tables built from scenario
hands and piles, duel shorthands, and the invariants every duel must keep.

A scenario names only what matters (hands, piles); everything else is empty. Seats are 0 and 1
unless a test seats more players. Cards of any hero may be put in any hand: the catalogue holds
every designed card.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any, Iterable, Mapping

from boardwright.duel import (
    PASS, CardTable, Duel, DuelAction, DuelItem, HeroCards, Monster, PlayCard,
)
from boardwright.games.shogun.content import load_content
from boardwright.games.shogun.datafile import read_data

CONTENT = load_content()
CATALOGUE = CONTENT.catalogue
DECKS = CONTENT.decks
BOARD = CONTENT.board
RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3


def raw(filename: str) -> dict[str, Any]:
    """A fresh, mutable copy of a data file's content, to corrupt in a test."""
    return copy.deepcopy(read_data(filename))


def cards(seat: int, hero: str, hand: Iterable[str] = (),
          piles: Mapping[str, Iterable[str]] | None = None, deck: Iterable[str] = (),
          discard: Iterable[str] = ()) -> HeroCards:
    """A player's cards for a scenario; `deck` is the draw pile, top first."""
    return HeroCards(seat, hero, DECKS[hero].scores, hand=hand, piles=piles,
                     draw_top_first=deck, discard=discard)


def table(*players: HeroCards, seed: int = 0) -> CardTable:
    return CardTable(CATALOGUE, list(players), random.Random(seed))


def pair(attacker_hero: str, attacker_hand: Iterable[str], defender_hero: str,
         defender_hand: Iterable[str], seed: int = 0, **extra: Any) -> CardTable:
    """A two-player table: seat 0 attacks, seat 1 defends. `extra` may give
    attacker_piles / defender_piles / attacker_deck / defender_deck / *_discard."""
    a = cards(0, attacker_hero, attacker_hand, extra.get("attacker_piles"),
              extra.get("attacker_deck", ()), extra.get("attacker_discard", ()))
    d = cards(1, defender_hero, defender_hand, extra.get("defender_piles"),
              extra.get("defender_deck", ()), extra.get("defender_discard", ()))
    return table(a, d, seed=seed)


def monster(treasure_id: str) -> Monster:
    return CONTENT.treasure(treasure_id).as_monster()


def item(treasure_id: str) -> DuelItem:
    found = CONTENT.treasure(treasure_id).duel_item()
    assert found is not None
    return found


def play(card: str, target: int | None = None) -> PlayCard:
    return PlayCard(card, target)


def run(duel: Duel, *actions: DuelAction) -> Duel:
    for action in actions:
        duel.apply(action)
    return duel


def finish(duel: Duel) -> Duel:
    """Both players pass until the duel resolves (choices must already be answered)."""
    guard = 0
    while not duel.is_over:
        duel.apply(PASS)
        guard += 1
        assert guard < 10
    return duel


def index_of(duel: Duel, card: str) -> int:
    """The play index of the last play of `card` in the duel."""
    return max(p.index for p in duel.plays if p.card == card)


def pile_total(t: CardTable, seat: int, attribute: str) -> int:
    return t[seat].pile_total(attribute, CATALOGUE)


def check_piles(t: CardTable) -> None:
    """No pile ever holds more than its attribute score (SHO-DUEL-03)."""
    for player in t.players:
        for attribute, score in player.scores.items():
            assert player.pile_total(attribute, CATALOGUE) <= score, (
                f"seat {player.seat} {attribute} pile {player.piles[attribute]} over {score}")


def holdings(t: CardTable) -> list[Counter[str]]:
    return [player.card_counts() for player in t.players]
