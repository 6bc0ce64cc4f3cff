"""Resolving the immediate effects of cards: draws, discards, clears, recalls, limits, looks.

A played card's effects run in order. Those the engine can carry out alone (a draw, a random
discard, a cleanup limit) happen at once; those that need a choice (a discard of the player's
choice, a card picked from a looked-at hand, which piles to clear, which cards to recall)
become a pending `Choice` that the right player answers one card at a time, so bots and people
decide through the same legal actions. The `Duel` and `OutsidePlay` both embed one runner.

A "clear" choice never takes a pile top that is locked: the card being resolved and, inside a
duel, every card of the current duel (see `Duel`), so a card cannot clear itself
(SHO-DUEL-20) and a duel's own cards cannot be cleared to free their cost while they count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Collection, Iterable

from boardwright.core.errors import IllegalActionError
from boardwright.duel.actions import (
    DONE, ClearCard, DiscardCard, Done, DuelAction, PickCard, RecallCard,
)
from boardwright.duel.effects import CleanupLimit, Clear, Discard, Draw, Effect, LookHand, Recall
from boardwright.duel.holdings import HAND_LIMIT, CardTable

Locks = Callable[[int], Collection[str]]  # seat -> attributes whose pile top may not be cleared


@dataclass(frozen=True, slots=True)
class Queued:
    """One effect waiting to run, with its seats resolved: `owner` played the card, `victim`
    is the player a discard, limit or look applies to (the owner for the others)."""

    effect: Effect
    owner: int
    victim: int
    source: str


@dataclass(frozen=True, slots=True)
class Choice:
    """A decision an effect is waiting for: `chooser` picks `remaining` more cards."""

    kind: str  # "discard" | "pick" | "clear" | "recall"
    chooser: int
    victim: int
    remaining: int
    optional: bool  # True for "up to" effects, which may stop with Done
    source: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "chooser": self.chooser, "victim": self.victim,
                "remaining": self.remaining, "optional": self.optional, "source": self.source}


class EffectRunner:
    """The queue of effects being resolved and the choice it waits for, if any."""

    __slots__ = ("queue", "choice", "revealed", "events")

    def __init__(self) -> None:
        self.queue: list[Queued] = []
        self.choice: Choice | None = None
        self.revealed: tuple[int, int] | None = None  # (viewer, whose hand) during a pick
        self.events: list[dict[str, Any]] = []  # public log of what the effects did

    def clone(self) -> EffectRunner:
        other = EffectRunner.__new__(EffectRunner)
        other.queue = self.queue[:]
        other.choice = self.choice
        other.revealed = self.revealed
        other.events = self.events[:]
        return other

    @property
    def busy(self) -> bool:
        return self.choice is not None or bool(self.queue)

    def push(self, items: Iterable[Queued]) -> None:
        self.queue.extend(items)

    def run(self, table: CardTable, locks: Locks) -> None:
        """Carry out queued effects until one needs a choice or the queue is empty."""
        while self.choice is None and self.queue:
            self._execute(self.queue.pop(0), table, locks)

    def _execute(self, item: Queued, table: CardTable, locks: Locks) -> None:
        effect = item.effect
        owner = table[item.owner]
        victim = table[item.victim]
        if isinstance(effect, Draw):
            drawn = owner.draw(effect.n, table.rng)
            self.events.append({"event": "draw", "seat": item.owner, "count": len(drawn),
                                "source": item.source})
        elif isinstance(effect, Discard):
            count = min(effect.n, len(victim.hand))
            if count == 0:
                return
            if effect.mode == "random":
                cards = victim.discard_random(count, table.rng)
                self.events.append({"event": "discard", "seat": item.victim, "cards": cards,
                                    "source": item.source})
            elif effect.mode == "choice":
                self.choice = Choice("discard", item.victim, item.victim, count, False,
                                     item.source)
            else:
                self.choice = Choice("pick", item.owner, item.victim, count, False, item.source)
                self.revealed = (item.owner, item.victim)
        elif isinstance(effect, Clear):
            choice = Choice("clear", item.owner, item.owner, effect.n, True, item.source)
            if self._options(choice, table, locks):
                self.choice = choice
        elif isinstance(effect, Recall):
            choice = Choice("recall", item.owner, item.owner, effect.n, True, item.source)
            if self._options(choice, table, locks):
                self.choice = choice
        elif isinstance(effect, CleanupLimit):
            victim.limit_cleanup(effect.n)
            self.events.append({"event": "cleanup_limit", "seat": item.victim, "n": effect.n,
                                "source": item.source})
        elif isinstance(effect, LookHand):
            self.events.append({"event": "look_hand", "seat": item.owner, "of": item.victim,
                                "source": item.source})
        else:  # pragma: no cover - the card parser sorts every other effect elsewhere
            raise IllegalActionError(f"effect {effect!r} cannot run at once")

    # -- choices -------------------------------------------------------------------------------

    @staticmethod
    def _options(choice: Choice, table: CardTable, locks: Locks) -> list[DuelAction]:
        cards = table[choice.chooser]
        if choice.kind == "discard":
            return [DiscardCard(c) for c in table.sorted_ids(table[choice.victim].hand)]
        if choice.kind == "pick":
            return [PickCard(c) for c in table.sorted_ids(table[choice.victim].hand)]
        if choice.kind == "clear":
            locked = locks(choice.chooser)
            return [ClearCard(pile[-1]) for attribute, pile in cards.piles.items()
                    if pile and attribute not in locked]
        if len(cards.hand) >= HAND_LIMIT:
            return []
        return [RecallCard(c) for c in table.sorted_ids(cards.discard)]

    def actions(self, table: CardTable, locks: Locks) -> list[DuelAction]:
        """The legal answers to the pending choice ([] when there is none)."""
        if self.choice is None:
            return []
        options = self._options(self.choice, table, locks)
        return options + [DONE] if self.choice.optional else options

    def apply(self, table: CardTable, action: DuelAction, locks: Locks) -> None:
        """Answer the pending choice with one card (or Done), then run the rest of the queue."""
        choice = self.choice
        if choice is None:
            raise IllegalActionError("no effect is waiting for a choice")
        if action not in self.actions(table, locks):
            raise IllegalActionError(self._reason(choice, action))
        if isinstance(action, Done):
            self._finish()
        else:
            cards = table[choice.chooser]
            if isinstance(action, DiscardCard):
                cards.discard_from_hand(action.card)
                self.events.append({"event": "discard", "seat": choice.victim,
                                    "cards": [action.card], "source": choice.source})
            elif isinstance(action, PickCard):
                table[choice.victim].discard_from_hand(action.card)
                self.events.append({"event": "discard", "seat": choice.victim,
                                    "cards": [action.card], "source": choice.source})
            elif isinstance(action, ClearCard):
                cards.clear(table.card(action.card))
                self.events.append({"event": "clear", "seat": choice.chooser,
                                    "card": action.card, "source": choice.source})
            elif isinstance(action, RecallCard):
                cards.recall(action.card)
                self.events.append({"event": "recall", "seat": choice.chooser,
                                    "card": action.card, "source": choice.source})
            left = Choice(choice.kind, choice.chooser, choice.victim, choice.remaining - 1,
                          choice.optional, choice.source)
            if left.remaining <= 0 or not self._options(left, table, locks):
                self._finish()
            else:
                self.choice = left
        self.run(table, locks)

    def _finish(self) -> None:
        self.choice = None
        self.revealed = None

    @staticmethod
    def _reason(choice: Choice, action: DuelAction) -> str:
        wanted = {"discard": "a card of your hand to discard (duel_discard)",
                  "pick": "the card of the looked-at hand to discard (duel_pick)",
                  "clear": "a pile top to clear (duel_clear) or duel_done",
                  "recall": "a card of your discard pile to take back (duel_recall) or duel_done"}
        what = action.to_json()
        if isinstance(action, Done) and not choice.optional:
            return (f"the {choice.source} effect must be carried out in full: choose "
                    f"{wanted[choice.kind]}")
        if isinstance(action, ClearCard):
            return (f"{action.card} cannot be cleared now: only pile tops that are not part of "
                    "the current duel, and never the card being resolved")
        return f"{what} is not a legal answer now; choose {wanted[choice.kind]}"
