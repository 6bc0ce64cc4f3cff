"""Learning action spaces: a compact numbering of the legal actions of a position, for policies.

A game's stable action ids (`Game.action_id`) name every action the same way in every position:
records and searches rely on them. For some games that space is huge (Carcassonne's is 1.55
million ids: one per board cell, rotation, feature and figure within the reach of the whole tile
pile), so a mask over it is costly and a policy head over it is mostly unused. A game may then
offer a *learning action space*: at most a few tens of thousands of ids whose meaning may depend
on the position (e.g. "the figure on the top side of the tile just placed"), laid out so that a
network can read them (spatial planes, small slot tables). The RL adapters use it when the game
has one (`Game.learning_action_space()`), and the stable ids otherwise.

This module states the contract only (the engine imports nothing but the standard library): an
implementation lives with its game and may use numpy, which the `rl` extra installs.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from boardwright.core.actions import Action


@runtime_checkable
class LegalIds(Protocol):
    """The legal actions of one position, numbered in a learning action space."""

    #: The ids of the legal actions, sorted ascending, without repeats: a 1-D integer numpy
    #: array (empty when nobody may act). Every legal action of the position has one.
    ids: Any

    def action(self, action_id: Any) -> Action:
        """The legal action with that id (for `State.apply`). MalformedActionError for what is
        not an integer in [0, size); IllegalActionError for an id of no legal action here."""
        ...

    def id_of(self, action: Action) -> int:
        """The id of a legal action of this position. MalformedActionError for what is not an
        action of the game, IllegalActionError for an action that is not legal here."""
        ...


@runtime_checkable
class LearningActionSpace(Protocol):
    """A numbering of the legal actions of every position of one configured game.

    Guarantees an implementation must keep (and test): every legal action of every reachable
    position has an id in [0, size); two legal actions of one position never share one;
    `legal(s).action(legal(s).id_of(a)) == a`; asking for an id or an action that is not legal
    raises and changes nothing. The stable ids stay what records use."""

    #: Ids run from 0 to size - 1 (the width of a mask or a policy head).
    size: int

    def legal(self, state: Any) -> LegalIds:
        """The legal actions of `state` with their ids (empty when the game is over)."""
        ...

    def describe(self, action_id: int) -> str:
        """What an id means, without a position (e.g. "place at (2, -1) turned 90°")."""
        ...
