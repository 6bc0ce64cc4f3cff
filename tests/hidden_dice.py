"""A tiny Liar's Dice for the terminal tests: a game whose secrets are the whole point.

Each seat rolls two dice, seen only by itself (`view(seat)["dice"]`). Seats bid in turn on how
many dice of a face lie on the table (more dice, or as many of a higher face, than the bid
before), until one calls "liar": every die is shown, and the bidder wins 1 point if there are at
least that many, the caller otherwise. Registered by the tests that use it (`register()`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from boardwright.core.errors import (
    GameOverError, IllegalActionError, InvalidOptionError, MalformedActionError,
)
from boardwright.core.game import Game, State
from boardwright.core.inputs import (
    check_action_id, check_action_json, check_seed, coerce_action, short_repr,
)
from boardwright.core.record import GameRecord, record_of

NAME = "hidden_dice"  # not the example of examples/liars_dice.py: both may be registered at once
DICE = 2
FACES = 6


@dataclass(frozen=True)
class Bid:
    quantity: int
    face: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "bid", "quantity": self.quantity, "face": self.face}


@dataclass(frozen=True)
class Liar:
    def to_json(self) -> dict[str, Any]:
        return {"type": "liar"}


class LiarsDiceGame(Game):
    """Liar's Dice, two dice each, one round."""

    name = NAME

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        if not 2 <= players <= 4:
            raise InvalidOptionError(f"Liar's Dice is for 2 to 4 players, not {players}")
        if options:
            raise InvalidOptionError(f"Liar's Dice has no options, not {short_repr(options)}")
        super().__init__(players, {})
        self.bids = [Bid(q, f) for q in range(1, players * DICE + 1) for f in range(1, FACES + 1)]

    def new_game(self, seed: int | None = None) -> LiarsDiceState:
        seed = check_seed(seed)
        rng = random.Random(seed)
        dice = [sorted(rng.randint(1, FACES) for _ in range(DICE))
                for _ in range(self.num_players)]
        return LiarsDiceState(self, seed, dice)

    def action_from_json(self, data: Any) -> Bid | Liar:
        data = check_action_json(data)
        if data == {"type": "liar"}:
            return Liar()
        if data.get("type") == "bid" and set(data) == {"type", "quantity", "face"}:
            bid = Bid(data["quantity"], data["face"])
            if bid in self.bids:
                return bid
        raise MalformedActionError(f"not a Liar's Dice action: {short_repr(data)}")

    def action_id(self, action: Any) -> int:
        if isinstance(action, Liar):
            return len(self.bids)
        if isinstance(action, Bid) and action in self.bids:
            return self.bids.index(action)
        raise MalformedActionError(f"not a Liar's Dice action: {short_repr(action)}")

    def action_from_id(self, action_id: int) -> Bid | Liar:
        action_id = check_action_id(action_id, self.num_distinct_actions)
        return Liar() if action_id == len(self.bids) else self.bids[action_id]

    @property
    def num_distinct_actions(self) -> int:
        return len(self.bids) + 1

    def action_text(self, action: Any) -> str:
        if isinstance(action, Liar):
            return "calls liar"
        return f"bids {action.quantity} × {action.face}"


class LiarsDiceState(State):
    def __init__(self, game: LiarsDiceGame, seed: int, dice: list[list[int]]) -> None:
        self.game = game
        self.seed = seed
        self.meta: dict[str, Any] = {}
        self.dice = dice
        self.history: list[Bid | Liar] = []
        self.points = [0] * game.num_players

    @property
    def _bid(self) -> Bid | None:
        bids = [a for a in self.history if isinstance(a, Bid)]
        return bids[-1] if bids else None

    @property
    def is_terminal(self) -> bool:
        return bool(self.history) and isinstance(self.history[-1], Liar)

    @property
    def current_player(self) -> int:
        return -1 if self.is_terminal else len(self.history) % self.game.num_players

    @property
    def scores(self) -> list[int]:
        return list(self.points)

    def legal_actions(self) -> list[Bid | Liar]:
        if self.is_terminal:
            return []
        last = self._bid
        bids = [b for b in self.game.bids
                if last is None or (b.quantity, b.face) > (last.quantity, last.face)]
        return bids + ([Liar()] if last is not None else [])

    def apply(self, action: Any) -> None:
        action = coerce_action(self.game, action, (Bid, Liar))
        if self.is_terminal:
            raise GameOverError("the game is over")
        if action not in self.legal_actions():
            raise IllegalActionError(f"{short_repr(action.to_json())} is not legal now")
        caller = self.current_player
        bidder = (caller - 1) % self.game.num_players  # the seat before made the last bid
        bid = self._bid
        self.history.append(action)
        if isinstance(action, Liar) and bid is not None:
            count = sum(die == bid.face for dice in self.dice for die in dice)
            self.points[bidder if count >= bid.quantity else caller] += 1

    def view(self, player: int | None) -> dict[str, Any]:
        bid = self._bid
        n = self.game.num_players
        own = player is not None and 0 <= player < n
        return {
            "dice": list(self.dice[player]) if own else None,
            "dice_on_table": n * DICE,
            "bid": None if bid is None else f"{bid.quantity} × {bid.face}",
            "revealed": [list(d) for d in self.dice] if self.is_terminal else None,
            "scores": self.scores,
        }

    def determinize(self, player: int, rng: random.Random) -> LiarsDiceState:
        other = self.clone()
        for seat in range(self.game.num_players):
            if seat != player:
                other.dice[seat] = sorted(rng.randint(1, FACES) for _ in range(DICE))
        return other

    def clone(self) -> LiarsDiceState:
        other = LiarsDiceState(self.game, self.seed, [list(d) for d in self.dice])
        other.meta = dict(self.meta)
        other.history = list(self.history)
        other.points = list(self.points)
        return other

    @property
    def record(self) -> GameRecord:
        return record_of(self.game, self.seed, self.history, self.meta)


def register() -> None:
    """Make the game playable as "hidden_dice" in this process."""
    from boardwright.core.registry import register as register_game

    register_game(NAME, LiarsDiceGame)
