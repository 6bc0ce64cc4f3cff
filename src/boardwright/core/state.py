"""State: the base class of one position of a game, and the defaults it offers.

A rule module's state either implements the whole protocol itself (the built-in games) or calls
`State.__init__(game, seed)` and gets the bookkeeping for free: seed, history and record,
`apply` checking its input before the game's `play`, `clone`, chance through `draw` (seeded in
play, explicit chance nodes in `Game.new_chance_game`), `determinize` before the game's
`redeal`, and equality by `signature`. `rank_returns` turns final scores into returns.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Sequence

from boardwright.core.actions import Action, JsonDict
from boardwright.core.errors import GameOverError, IllegalActionError
from boardwright.core.inputs import check_seed, coerce_action
from boardwright.core.record import GameRecord, record_of
from boardwright.core.state_copy import clone_state

if TYPE_CHECKING:  # the game module imports this one: a state names its game's type only
    from boardwright.core.game import Game


# The chance script of a state being made by the default `Game.new_chance_game` (read by
# `State.__init__`): how a plug-in's `new_game` gets explicit chance without a parameter.
_CHANCE_SCRIPT: ContextVar[Any] = ContextVar("boardwright_chance_script", default=None)


class State(ABC):
    """One position of a game. Mutable; `clone()` gives an independent copy.

    A state that calls `State.__init__(game, seed)` gets the bookkeeping for free: `seed`,
    `history` (the actions applied), `meta`, `record`, `apply` (coercion, the end of the game
    and legality checked, then the game's `play`), `clone` (a deep copy sharing the game),
    `draw` (chance: seeded in play, explicit chance nodes in `Game.new_chance_game`),
    `determinize` (hidden chance re-drawn, then the game's `redeal`) and equality
    (`signature`). The built-in games implement everything themselves."""

    game: Game
    meta: JsonDict  # free-form data carried into the record (player names, scenario, ...)
    # Attributes holding lists whose items are added and never changed (the default `clone`
    # copies them shallowly): a game adds its own, e.g. finished rounds.
    append_only: tuple[str, ...] = ("history",)

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.seed = check_seed(seed)
        self.meta = {}
        self.history: list[Action] = []
        # Chance (`draw`): in play, draw n comes from a generator seeded by (the chance seed,
        # n), two numbers to copy; in chance mode the script of `Game.new_chance_game` says.
        self._chance: Any = _CHANCE_SCRIPT.get()
        self._chance_seed = self.seed
        self._draws = 0

    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat that must decide now (-1 when the game is over)."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action, in a deterministic order."""

    def apply(self, action: Action | JsonDict) -> None:
        """Apply an action in place; raise IllegalActionError and change nothing if illegal.
        Games take their input through `core.inputs.coerce_action` (their own action, or its
        JSON form; anything else is a MalformedActionError).

        The default, for states made by `State.__init__`: the input is coerced and made the
        game's own object (through its id), GameOverError at the end, IllegalActionError for
        an action not in `legal_actions()`; then `play(action)` changes the position and the
        action joins `history`."""
        game = self.game
        listed = game.action_list()
        if listed is not None and type(action) in listed.types:  # one of its listed actions
            action = listed.actions[listed.action_id(action)]
        else:
            action = coerce_action(game, action, game.action_classes())
            action = game.action_from_id(game.action_id(action))  # the game's own object
        if self.is_terminal:
            raise GameOverError("the game is over; no action can be applied")
        if action not in self.legal_actions():
            raise IllegalActionError(
                f"{game.action_text(action)} is not legal now (seat {self.current_player})")
        self.play(action)
        self.history.append(action)

    def play(self, action: Action) -> None:
        """Change the position by `action`, already checked legal (the default `apply`'s
        hook): a game that relies on the default `apply` implements this instead."""
        raise NotImplementedError(f"{type(self).__name__} must implement play() (or apply())")

    def clone(self) -> State:
        """An independent copy sharing only immutable static data. The default is a deep copy
        that shares the game and immutable values, and copies the `append_only` lists
        shallowly (`core.state_copy`): right for a state made of plain data, and slower than a
        game's own copy of only what changes (bots clone a lot; write one when search speed
        matters)."""
        return clone_state(self)

    @property
    @abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over."""

    @property
    @abstractmethod
    def scores(self) -> list[int]:
        """Points per seat (a copy)."""

    @abstractmethod
    def view(self, player: int | None) -> JsonDict:
        """What `player` may see (None: a spectator), as a JSON-able dict."""

    def determinize(self, player: int, rng: random.Random) -> State:
        """A clone consistent with `player`'s view, hidden information resampled with `rng`.

        The default: a clone whose future draws (`draw`) come from a generator seeded by
        `rng`, so a search never sees the real ones; then `redeal(player, rng)` re-deals what
        else `player` cannot see."""
        other = self.clone()
        if "_chance_seed" in getattr(other, "__dict__", ()):
            # from the generator's state without drawing from it: a game that never draws
            # sees the same `rng` in `redeal` as if it had no chance at all
            other._chance_seed = hash(rng.getstate()[1]) % 2**64
        other.redeal(player, rng)
        return other

    def redeal(self, player: int, rng: random.Random) -> None:
        """The default `determinize`'s hook, on the copy: draw anew, with `rng`, everything
        `player` cannot see (other seats' hands, face-down cards), consistently with
        `player`'s view. Nothing to do in a game of perfect information
        (`Game.perfect_information = True`); any other game must say what to re-deal."""
        if not getattr(self.game, "perfect_information", False):
            raise NotImplementedError(
                f"{type(self).__name__} hides information: implement redeal() (or "
                "determinize()), or declare perfect_information = True on its Game")

    def draw(self, weights: Mapping[int, float]) -> int:
        """A random event: one outcome id of `weights` (outcome id -> positive weight), for
        states made by `State.__init__`. In play it is drawn from the state's generator,
        seeded by the game's seed, so seed + actions replay exactly; in the game's explicit
        chance mode (`Game.new_chance_game`, for a game that declares its
        `chance_outcome_count`) it is a chance node with these outcomes, and the outcome
        chosen there is returned. One possible outcome is no random event."""
        if not weights:
            raise ValueError("a random event needs at least one outcome")
        if len(weights) == 1:
            return next(iter(weights))
        if self._chance is not None:
            return self._chance.choose(weights)
        rng = random.Random((self._chance_seed << 32) + self._draws)
        self._draws += 1
        outcomes = sorted(weights)
        return rng.choices(outcomes, [weights[o] for o in outcomes])[0]

    @property
    def record(self) -> GameRecord:
        """The replayable record of this game so far (default: from `seed`, `history` and
        `meta`, kept by `State.__init__` and the default `apply`)."""
        return record_of(self.game, self.seed, self.history, self.meta)

    # -- equality ------------------------------------------------------------------------------

    def signature(self) -> tuple:
        """A complete description of the position, for equality (`==`): by default every
        attribute of the state but the game, `meta` and a chance script. Two states of one
        game are equal when their signatures are, so a replayed record equals the state it
        was made from. A game whose states hold other objects without equality writes its
        own."""
        items = []
        for key, value in sorted(vars(self).items()):
            if key not in ("game", "meta", "_chance"):
                items.append((key, value))
        return tuple(items)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, State)
        return (self.game.name == other.game.name
                and self.game.num_players == other.game.num_players
                and self.game.option_summary() == other.game.option_summary()
                and self.signature() == other.signature())

    __hash__ = None  # type: ignore[assignment]

    def returns(self) -> list[float]:
        """Normalised outcome per seat: rank based in [-1, 1], zeros while the game runs."""
        if not self.is_terminal:
            return [0.0] * self.game.num_players
        return rank_returns(self.scores)

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def legal_action_ids(self) -> list[int]:
        """The ids (`Game.action_id`) of `legal_actions`, in the same order: the fast path for
        callers that work with integers (action masks, searches). Engines may compute them
        without building the action objects."""
        action_id = self.game.action_id
        return [action_id(a) for a in self.legal_actions()]

    def attach_chance(self, script: Any) -> None:
        """Chance mode only (`Game.new_chance_game`): the `core.chance.ChanceScript` the
        state's next random events take their outcomes from. A game without chance has
        nothing to attach it to; a state that draws through `draw` takes it there."""
        if "_chance" in getattr(self, "__dict__", ()):
            self._chance = script

    @property
    def at_turn_start(self) -> bool:
        """Whether the player to move is about to begin a turn, not finish one.

        Searches judge their leaves here: a position in the middle of a turn (a tile laid, its
        figure not yet chosen) and one a whole turn later differ by what a turn is worth, so
        leaves taken at mixed points would not be comparable. A game whose turns are single
        decisions needs no override."""
        return True


def rank_returns(scores: Sequence[float]) -> list[float]:
    """Zero-sum, rank-based returns: each beaten opponent counts 1, each tie 1/2.

    With n players a seat's value is 2 * (wins + ties/2) / (n - 1) - 1, so beating everyone gives
    1, losing to everyone -1, and the values add up to 0. A one-player game returns [1.0].
    """
    n = len(scores)
    if n == 1:
        return [1.0]
    out = []
    for i, mine in enumerate(scores):
        won = sum(1.0 if mine > other else 0.5 if mine == other else 0.0
                  for j, other in enumerate(scores) if j != i)
        out.append(2.0 * won / (n - 1) - 1.0)
    return out
