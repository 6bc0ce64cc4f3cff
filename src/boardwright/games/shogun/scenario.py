"""Positions built from a short description, for rule tests, studies and puzzles.

`build(...)` skips the set-up: it seats the given heroes, puts castles, lords, peasants,
heroes and shrines where it is told, gives every player exactly the cards and treasures
named, and starts the active player's turn at the requested phase. Everything not named is
empty; each reserve holds the colour's 15 peasants less those on the board and those held as
prisoners, unless given. Spaces are map ids; seats are 0..n-1 (seat 0 is p1 unless
`first_player` says otherwise).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

import boardwright as bw
from boardwright.duel import CardTable, HeroCards
from boardwright.games.shogun.state import ShogunState

PHASES = ("discard", "cleanup", "movement", "hero", "court")
LOG = {"discard": ["DISCARD"], "cleanup": ["DISCARD", "DRAW", "CLEANUP"],
       "movement": ["DISCARD", "DRAW", "CLEANUP", "MOVEMENT"],
       "hero": ["DISCARD", "DRAW", "CLEANUP", "MOVEMENT", "HERO"],
       "court": ["DISCARD", "DRAW", "CLEANUP", "MOVEMENT", "HERO"]}


def build(players: int = 2, heroes: Sequence[str] = ("samurai", "ninja", "miko", "prince"),
          *, castles: Mapping[str, int | None] | None = None,
          courts: Mapping[str, int] | None = None,
          peasants: Mapping[str, int] | None = None,
          hero_at: Mapping[int, str] | None = None,
          shrines: Iterable[str] = (),
          reserve: Mapping[int, int] | None = None,
          prisoners: Mapping[int, Mapping[int, int]] | None = None,
          treasures: Mapping[int, Sequence[str]] | None = None,
          missions: Mapping[int, str] | None = None,
          hands: Mapping[int, Sequence[str]] | None = None,
          piles: Mapping[int, Mapping[str, Sequence[str]]] | None = None,
          decks: Mapping[int, Sequence[str]] | None = None,
          discards: Mapping[int, Sequence[str]] | None = None,
          treasure_deck: Sequence[str] | None = None,
          mission_deck: Sequence[str] | None = None,
          active: int = 0, phase: str = "hero", round: int = 1,
          first_player: int = 0, options: Mapping[str, Any] | None = None,
          seed: int = 0) -> ShogunState:
    """A position described by its pieces; see the module docstring."""
    opts = dict(options or {})
    opts["heroes"] = list(heroes[:players])
    opts.setdefault("fixed_order", {})
    opts["fixed_order"] = {**opts["fixed_order"], "first_player": first_player}
    game = bw.load("shogun", players, opts)
    state: ShogunState = game.new_game(seed)  # type: ignore[assignment]
    board = game.board
    idx = board.index
    state.castle_at = [-1] * len(board)
    state.castle_space, state.roof, state.court = [], [], []
    for space, owner in (castles or {}).items():
        s = idx[space]
        state.castle_at[s] = len(state.castle_space)
        state.castle_space.append(s)
        state.roof.append(-1 if owner is None else owner)
        state.court.append(-1)
    for space, seat in (courts or {}).items():
        s = idx[space]
        if state.castle_at[s] < 0:
            state.castle_at[s] = len(state.castle_space)
            state.castle_space.append(s)
            state.roof.append(-1)
            state.court.append(-1)
        state.court[state.castle_at[s]] = seat
    for space, seat in (peasants or {}).items():
        state.peasant[idx[space]] = seat
    for seat, space in (hero_at or {}).items():
        state.hero_at[idx[space]] = seat
        state.hero_pos[seat] = idx[space]
    for space in shrines:
        state.shrine[idx[space]] = True
    for holder, held in (prisoners or {}).items():
        for colour, count in held.items():
            state.prisoners[holder][colour] = count
    per_colour = game.content.components.peasants_per_colour
    for seat in range(players):
        state.reserve[seat] = per_colour - state.board_count(seat) - state.held_count(seat)
    for seat, count in (reserve or {}).items():
        state.reserve[seat] = count
    state.treasures = [list((treasures or {}).get(s, ())) for s in range(players)]
    held = {t for row in state.treasures for t in row}
    if treasure_deck is None:
        state.treasure_deck = [t for t in game.treasure_order if t not in held]
    else:
        state.treasure_deck = list(treasure_deck)
    state.mission = [(missions or {}).get(s) for s in range(players)]
    taken = {m for m in state.mission if m}
    if mission_deck is None:
        state.mission_deck = [m for m in game.mission if m not in taken]
    else:
        state.mission_deck = list(mission_deck)
    cards = []
    for seat, deck in enumerate(game.decks_for(state.heroes)):
        hand = list((hands or {}).get(seat, ()))
        pile = {a: list(c) for a, c in (piles or {}).get(seat, {}).items()}
        discard = list((discards or {}).get(seat, ()))
        if decks is not None and seat in decks:
            draw = list(decks[seat])
        else:
            draw = deck.action_cards()
            for used in hand + discard + [c for p in pile.values() for c in p]:
                if used in draw:
                    draw.remove(used)
        cards.append(HeroCards(seat, deck.hero, deck.scores, hand=hand, piles=pile,
                               draw_top_first=draw, discard=discard))
    state.table = CardTable(game.catalogue, cards, state.rng, game.card_rank)
    state.round = round
    state.turn = 1
    state.turn_began = len(state.history)
    state.active = active
    state.phase = phase
    state.phase_log = list(LOG[phase])
    state.pending = []
    state.touch()
    state.legal_cache = None
    if phase == "hero":
        pos = state.hero_pos[active]
        state.must_search = pos >= 0 and state.shrine[pos]
    elif phase == "court":
        state.to_court()
        state.advance()
    elif phase == "cleanup":
        state.clears_left = state.table[active].cleanup_allowance()
    if phase not in PHASES:
        raise ValueError(f"phase must be one of {', '.join(PHASES)}")
    return state
