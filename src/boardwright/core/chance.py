"""Explicit chance: every random event of a game as a chance node with its probabilities.

A state made by `Game.new_game(seed)` resolves chance inside `apply` from its seed; that is
how records replay and how the web, the simulator and the bots play. Game-theoretic tools
(OpenSpiel's chance nodes, expectimax, ISMCTS, the CFR family) need the opposite: a state
that *stops* before each random event, lists its outcomes with their probabilities and lets
the caller pick one. `Game.new_chance_game()` gives such a state, an `ExplicitChanceState`.

How a game takes part (its knowledge of its own chance stays in the game module):

* it builds its state in *chance mode*: the state holds no hidden order at all (a shuffled
  deck is an unordered collection; the card drawn is decided when it is drawn, uniformly
  over the cards not yet seen, which is distributionally the shuffle);
* at each random event it asks its `ChanceScript` for the outcome (`choose`, with the
  outcomes' weights). An event with a single possible outcome is not a chance node.

`ExplicitChanceState` does the rest, for any game: when a step (the set-up or an action)
needs an outcome the script does not hold yet, the script raises `ChanceNeeded` with the
distribution, and the state becomes a chance node. `apply_chance(outcome)` runs the step
again from the position before it, on a fresh clone, with one more outcome in its script,
until the step completes. Re-running costs a step per random event in it; in exchange the
games' rules keep one code path, random events deep inside an action included.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Final, Mapping

from boardwright.core.actions import Action, JsonDict
from boardwright.core.errors import IllegalActionError, InvalidOptionError
from boardwright.core.game import Game, State
from boardwright.core.inputs import short_repr
from boardwright.core.record import GameRecord

CHANCE: Final = -2  # `current_player` of a chance node (seats are >= 0, a finished game -1)


class ChanceNeeded(Exception):
    """Raised by a `ChanceScript` when a step reaches a random event it has no outcome for:
    control flow of `ExplicitChanceState`, never seen by its callers."""

    def __init__(self, outcomes: list[tuple[int, float]]) -> None:
        super().__init__("a chance outcome is needed")
        self.outcomes = outcomes


class ChanceScript:
    """The outcomes of the random events of one step, served in order."""

    __slots__ = ("outcomes", "used")

    def __init__(self, outcomes: tuple[int, ...] = ()) -> None:
        self.outcomes = outcomes
        self.used = 0

    def choose(self, weights: Mapping[int, int]) -> int:
        """The outcome of the next random event, whose possible outcomes (ids) have the given
        positive weights (e.g. how many copies of each card remain). One possible outcome is
        no chance node: it is returned at once."""
        if len(weights) == 1:
            return next(iter(weights))
        if self.used < len(self.outcomes):
            outcome = self.outcomes[self.used]
            if outcome not in weights:
                raise IllegalActionError(
                    f"chance outcome {short_repr(outcome)} is not possible here; possible: "
                    f"{short_repr(sorted(weights))}")
            self.used += 1
            return outcome
        total = sum(weights.values())
        raise ChanceNeeded([(o, weights[o] / total) for o in sorted(weights)])


class SampledOutcomes(ChanceScript):
    """A script that draws each outcome at random by its weight: attached to a chance-mode
    state (`State.attach_chance`), it lets the state be played on directly, outside
    `ExplicitChanceState`, as a seeded game would (for analyses and tests)."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    def choose(self, weights: Mapping[int, int]) -> int:
        if len(weights) == 1:
            return next(iter(weights))
        outcomes = sorted(weights)
        return self.rng.choices(outcomes, [weights[o] for o in outcomes])[0]


class ScriptedRandom(random.Random):
    """The random source of a chance-mode state, for game code written against
    `random.Random`: it draws every outcome from its `script`.

    * `shuffle` leaves the order alone: a chance-mode collection is unordered, and which of
      its items comes out is decided when one is taken (`to_top`, `pick_index`);
    * `randrange(n)` is a uniform chance event over the outcome ids `base + i` (i < n);
    * `to_top(pile, index)` / `pick_index(items)`: which item is taken, uniformly over the
      items (copies weigh more), as the outcome id `outcome_of[item]`.
    """

    def __init__(self, outcome_of: Mapping[Any, int], base: int = 0) -> None:
        super().__init__(0)
        self.script = ChanceScript()
        self.outcome_of = outcome_of
        self.base = base

    def clone(self) -> ScriptedRandom:
        """A copy with the same attributes (counters of subclasses too) and an empty script."""
        other = type(self).__new__(type(self))
        random.Random.__init__(other, 0)
        other.__dict__.update(self.__dict__)
        other.script = ChanceScript()
        return other

    def randrange(self, start: int, stop: int | None = None,  # type: ignore[override]
                  step: int = 1) -> int:
        if stop is not None or step != 1:
            raise TypeError("ScriptedRandom.randrange takes one bound")
        return self.script.choose({self.base + i: 1 for i in range(start)}) - self.base

    def shuffle(self, x: list[Any]) -> None:  # type: ignore[override]
        return None

    def seed(self, a: Any = None, version: int = 2) -> None:  # type: ignore[override]
        super().seed(0)  # nothing is drawn from the generator itself

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("chance mode: a random draw that is not an explicit chance event "
                           "(the game must draw through randrange, to_top or pick_index)")

    # Everything else random.Random offers draws from the generator: refused, so that no
    # random event of a chance-mode game goes unseen.
    random = _refuse  # type: ignore[assignment]
    getrandbits = _refuse  # type: ignore[assignment]
    _randbelow = _refuse  # type: ignore[assignment]

    def pick_index(self, items: list[Any], outcome_of: Mapping[Any, int] | None = None) -> int:
        """The index of the item taken from `items` (its last copy), a chance event uniform
        over the items (copies weigh more); `outcome_of` (default: the source's own) names
        each item's outcome id."""
        outcome_of = self.outcome_of if outcome_of is None else outcome_of
        weights: dict[int, int] = {}
        for item in items:
            outcome = outcome_of[item]
            weights[outcome] = weights.get(outcome, 0) + 1
        chosen = self.script.choose(weights)
        return next(i for i in range(len(items) - 1, -1, -1) if outcome_of[items[i]] == chosen)

    def to_top(self, pile: list[Any], index: int = -1, among: int | None = None,
               outcome_of: Mapping[Any, int] | None = None) -> None:
        """Put the item taken next at `pile[index]` (swapping), chosen among all of the pile
        or, with `among`, among its first `among` items (the unseen part of a deck whose
        bottom is known)."""
        pool = pile if among is None else pile[:among]
        if not pool:
            return
        at = self.pick_index(pool, outcome_of)
        pile[at], pile[index] = pile[index], pile[at]


_START = object()  # the pending step of a state whose set-up waits for an outcome


class ExplicitChanceState(State):
    """A state whose random events are chance nodes (`Game.new_chance_game()`).

    At a chance node `current_player` is `CHANCE`, `legal_actions()` is empty,
    `chance_outcomes()` lists (outcome id, probability) summing to 1 and `apply_chance`
    takes one of them; elsewhere it behaves as the game's own state (`inner`), which it
    wraps. What an outcome id means is the game's (`Game.chance_outcome_text`). The same
    game and the same sequence of actions and outcomes always give the same state: there is
    no seed. Such a state has no seeded `record`: its history is `steps`."""

    __slots__ = ("game", "meta", "_inner", "_start", "_pending", "steps")

    def __init__(self, game: Game, start: Callable[[ChanceScript], State]) -> None:
        """`start(script)` builds the game's chance-mode state, reading the outcomes of any
        random event of the set-up from `script`."""
        self.game = game
        self.meta: JsonDict = {}
        self._inner: State | None = None
        self._start = start
        self._pending: tuple[Any, tuple[int, ...], list[tuple[int, float]]] | None = None
        # ("action", action, seat) / ("chance", outcome, CHANCE), in order
        self.steps: list[tuple[str, Any, int]] = []
        self._run(_START, ())

    # -- stepping ----------------------------------------------------------------------------

    def _run(self, step: Any, outcomes: tuple[int, ...]) -> None:
        script = ChanceScript(outcomes)
        try:
            if step is _START:
                state = self._start(script)
            elif self.game.chance_outcome_count == 0:
                # a game without chance never needs the position before the step again:
                # apply in place (a refused action changes nothing)
                assert self._inner is not None
                self._inner.apply(step)
                state = self._inner
            else:
                assert self._inner is not None
                state = self._inner.clone()
                state.attach_chance(script)
                state.apply(step)
        except ChanceNeeded as need:
            self._pending = (step, outcomes, need.outcomes)
            return
        self._inner = state
        self._pending = None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [] if self._pending is None else list(self._pending[2])

    @property
    def is_chance_node(self) -> bool:
        return self._pending is not None

    def apply_chance(self, outcome: int) -> None:
        """Resolve the pending random event; IllegalActionError (state unchanged) when there
        is none or `outcome` is not one of its outcomes."""
        if self._pending is None:
            raise IllegalActionError("no chance event is pending: a seat must decide")
        step, outcomes, distribution = self._pending
        if type(outcome) is not int or all(o != outcome for o, _ in distribution):
            raise IllegalActionError(
                f"chance outcome {short_repr(outcome)} is not possible here; possible: "
                f"{short_repr([o for o, _ in distribution])}")
        self._run(step, (*outcomes, outcome))
        self.steps.append(("chance", outcome, CHANCE))

    def apply(self, action: Action | JsonDict) -> None:
        """Apply a decision; IllegalActionError (state unchanged) at a chance node or for an
        illegal action (the game's own reason)."""
        if self._pending is not None:
            raise IllegalActionError("a chance event is pending: apply_chance first")
        action = self.game.action_from_json(action) if isinstance(action, dict) else action
        seat = self.current_player
        self._run(action, ())  # the game refuses an illegal action on the clone it runs on
        self.steps.append(("action", action, seat))

    # -- the State protocol ------------------------------------------------------------------

    @property
    def inner(self) -> State:
        """The game's own state at the last decision (or the position before the pending
        step). Before the set-up's first outcome there is none: IllegalActionError."""
        if self._inner is None:
            raise IllegalActionError("the set-up is waiting for its first chance outcome")
        return self._inner

    @property
    def has_position(self) -> bool:
        """False only at the chance nodes of the set-up, before any position exists."""
        return self._inner is not None

    @property
    def current_player(self) -> int:
        if self._pending is not None:
            return CHANCE
        return self.inner.current_player

    def legal_actions(self) -> list[Action]:
        return [] if self._pending is not None else self.inner.legal_actions()

    def legal_action_ids(self) -> list[int]:
        return [] if self._pending is not None else self.inner.legal_action_ids()

    def clone(self) -> ExplicitChanceState:
        other = ExplicitChanceState.__new__(ExplicitChanceState)
        other.game = self.game
        other.meta = dict(self.meta)
        # the pending step's position is never changed (each attempt runs on a clone)
        other._inner = None if self._inner is None else self._inner.clone()
        other._start = self._start
        other._pending = self._pending
        other.steps = self.steps.copy()
        return other

    @property
    def is_terminal(self) -> bool:
        return self._pending is None and self.inner.is_terminal

    @property
    def scores(self) -> list[int]:
        if self._inner is None:
            return [0] * self.game.num_players
        return self._inner.scores

    def returns(self) -> list[float]:
        return self.inner.returns() if self.is_terminal else [0.0] * self.game.num_players

    def view(self, player: int | None) -> JsonDict:
        """The game's view of the position (before the pending step at a chance node), with
        `chance_node` saying whether an outcome is pending."""
        view = self.inner.view(player)
        view["chance_node"] = self._pending is not None
        if self._pending is not None:
            view.pop("legal_actions", None)
            view["current_player"] = CHANCE
        return view

    def determinize(self, player: int, rng: random.Random) -> ExplicitChanceState:
        """A copy whose hidden information is re-dealt consistently with `player`'s view (the
        game's `determinize`), at a decision node; the steps are kept."""
        if self._pending is not None:
            raise IllegalActionError("determinize a state at a decision, not at a chance node")
        other = self.clone()
        other._inner = self.inner.determinize(player, rng)
        return other

    @property
    def record(self) -> GameRecord:
        raise InvalidOptionError("a state with explicit chance nodes has no seed, so no seeded "
                                 "record: its `steps` (actions and chance outcomes) replay it "
                                 "on a new `new_chance_game()`")

    @property
    def at_turn_start(self) -> bool:
        return self._pending is None and self.inner.at_turn_start

    def signature(self) -> tuple:
        """The steps name the state: the same game and steps always give the same one."""
        return tuple((kind, value.to_json() if kind == "action" else value, seat)
                     for kind, value, seat in self.steps)


def replay_steps(game: Game, steps: list[tuple[str, Any, int]]) -> ExplicitChanceState:
    """A new `new_chance_game()` state with `steps` (as in `ExplicitChanceState.steps`)
    applied."""
    state = game.new_chance_game()
    for kind, value, _ in steps:
        if kind == "chance":
            state.apply_chance(value)
        else:
            state.apply(value)
    return state
