"""The HeroCard duel system: attribute piles, basic attacks and blocks, modifiers, ignore, purge,
draw, forced discards, clears and combos, resolved as a small state machine a game embeds.

It knows nothing of any particular game. A game supplies the cards (`CardDef`, `HeroDeck`,
parsed from its data files with `parse_deck`), owns every player's cards and its RNG (a
`CardTable`), decides what may be attacked, and applies the board consequences of a duel's
outcome. Rise of the Shogun is the first such game; the rule IDs below are its (SHO-DUEL-*).

Cards and holdings
------------------
``CardDef``            one action card: category, speed, attribute, cost, value, tags, effects.
``HeroDeck``           a hero's three attribute cards (scores) and action cards with quantities.
``HeroCards``          one player's zones: ``piles`` (attribute -> card ids, bottom first),
                       ``hand``, ``draw_pile`` (top = last), ``discard``; plus ``draw``,
                       ``draw_phase_count``, ``clear``/``clear_top`` (tops only), ``discard_*``,
                       ``cleanup_allowance`` for the game's Discard, Draw and Cleanup phases.
``CardTable``          every seat's ``HeroCards``, the ``catalogue`` (card id -> CardDef) and the
                       ``rng``. ``clone(rng)``, ``view(viewer)``, ``resample_hidden(viewer, rng)``.

Zones hold card ids: copies are indistinguishable, so actions name card ids, never copies, and
stay legal in a determinized state.

Running a duel
--------------
1. The game finds the legal openings: ``Duel.openings(table, attacker, exclusive_free=...,
   conversion=..., monsters=[Monster("t_oni", 6)])``. An empty list means no attack can be
   declared (SHO-DUEL-07), so the game offers none.
2. The game's "attack" action names the target and one opening, and starts the duel::

       duel = Duel.hero_attack(table, attacker, hero_owner, "sam_katana_cut",
                               space="kai", exclusive_free=slot_free,
                               items={defender: [great_armor]})
       duel = Duel.peasant_attack(table, attacker, peasant_owner, opening, space=...)
       duel = Duel.alliance_attack(table, attacker, courting_player, opening, space=...)
       duel = Duel.castle_attack(table, attacker, controller, Monster("t_orochi", 7), ...)
       duel = Duel.conversion_duel(table, converter, target_owner, "sam_katana_cut", ...)

   Peasants and castles have no cards: the peasant's owner, the courting player or the
   castle's controller defends with their own hand and piles (SHO-DUEL-27). A conversion
   accepts any basic attack card, exclusive or not, without using the exclusive slot, and
   rejects monsters (SHO-DUEL-28). The opening card is paid at once; a monster costs nothing
   and sits on no pile (SHO-MON-01). ``Duel.begin(...)`` is the general form, with a
   ``DuelTarget``.
3. While ``not duel.is_over``: the game's ``current_player`` is ``duel.current_player``, its
   legal actions include ``duel.legal_actions()``, and its ``apply`` passes those actions to
   ``duel.apply(action)``. The steps are: the defender's block step (one basic block, items,
   or ``Pass`` to decline); the exchange, in which attacker and defender alternate, starting
   with the attacker, each playing one card or item or passing, until two passes in a row;
   resolution; then the "on success/on failure" texts. Effects that need a choice (a discard
   of one's choice, a pick from a looked-at hand, clears, recalls) interrupt with their own
   decisions (``DiscardCard``, ``PickCard``, ``ClearCard``, ``RecallCard``, ``Done``), made by
   whoever must choose.
4. When ``duel.is_over``, ``duel.outcome`` (a ``DuelOutcome``) gives ``success``, the totals,
   ``exclusive_used`` (mark the attacker's exclusive slot if true), ``items_used`` and
   ``returned_treasures`` (put them at the bottom of the treasure deck, in order: used items
   and the monster, purged or not). The played cards stay on their piles (SHO-DUEL-05).
5. A game that determinizes a running duel deals hidden treasures again; it then gives each
   resampled side its new items with ``duel.deal_items(seat, items)`` (used items stay).

Actions are frozen dataclasses with ``to_json()``; ``parse_duel_action`` reads them back. Their
types start with "duel_" so they never clash with a game's own. ``duel.view(viewer)`` is
public apart from a hand shown to the player picking from it.

Cloning and determinization: the game clones its ``CardTable`` (``table.clone(new_rng)``)
and then the duel onto it (``duel.clone(new_table)``); nothing is deep-copied. Determinizing
calls ``new_table.resample_hidden(viewer, rng, known_hands=...)`` on the clone, keeping a hand
the viewer is looking at (``duel.runner.revealed``).

Outside a duel
--------------
``OutsidePlay.start(table, seat, card, exclusive_free=..., opponent=...)`` plays a special
whose text does not refer to a duel during the owner's action phase (SHO-DUEL-24), with the
same choice protocol; ``OutsidePlay.playable(...)`` lists the candidates.

Every error is a ``BoardwrightError``: ``IllegalActionError`` for a decision the rules do not
allow (the duel is then unchanged), ``MalformedActionError`` for bad action JSON and
``InvalidOptionError`` for deck data that breaks the schema.
"""

from boardwright.duel.actions import (
    DONE, DUEL_ACTION_TYPES, PASS, ClearCard, DiscardCard, Done, DuelAction, Pass, PickCard,
    PlayCard, RecallCard, UseItem, parse_duel_action,
)
from boardwright.duel.cards import (
    AttributeCard, CardDef, Category, HeroDeck, Speed, composition, parse_card, parse_deck,
)
from boardwright.duel.duel import (
    Duel, DuelItem, DuelOutcome, DuelTarget, Monster, Play, TargetKind,
)
from boardwright.duel.effects import parse_effects
from boardwright.duel.holdings import (
    CLEANUP_PER_TURN, DRAW_PER_TURN, HAND_LIMIT, OPENING_HAND, CardTable, HeroCards,
)
from boardwright.duel.outside import OutsidePlay

__all__ = [
    "AttributeCard", "CLEANUP_PER_TURN", "CardDef", "CardTable", "Category", "ClearCard",
    "DONE", "DRAW_PER_TURN", "DUEL_ACTION_TYPES", "DiscardCard", "Done", "Duel", "DuelAction",
    "DuelItem", "DuelOutcome", "DuelTarget", "HAND_LIMIT", "HeroCards", "HeroDeck", "Monster",
    "OPENING_HAND", "OutsidePlay", "PASS", "Pass", "PickCard", "Play", "PlayCard",
    "RecallCard", "Speed", "TargetKind", "UseItem", "composition", "parse_card", "parse_deck",
    "parse_duel_action", "parse_effects",
]
