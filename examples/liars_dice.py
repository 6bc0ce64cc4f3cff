"""Liar's Dice, a game of one's own with explicit chance: dice rolled during play, not in advance.

Each player hides `dice` dice of `faces` faces under a cup. In turn, each raises the bid, a
claim that at least `quantity` dice on the whole table show `face` (a higher quantity, or the
same quantity and a higher face), or calls the last bid a lie. The cups are lifted: if the bid
holds, the caller loses a die, else the bidder does. Everyone rolls again and the loser opens
the next round; a player with no die left is out. The last player with dice wins.

What it shows of boardwright's game API (docs/adding-a-game.md, "Chance for games of one's
own"): every die is rolled by `State.draw`, at `new_game` and again after each call. In play
(the web table, bots, simulate) the rolls come from the seed, so seed + actions replay exactly;
`game.new_chance_game()` plays the same rules with each roll an explicit chance node, which
OpenSpiel sees as EXPLICIT_STOCHASTIC. Declaring `chance_outcome_count` is all it takes. The
rest comes from the base classes: action conversions (`all_actions`), `apply`'s checks around
`play`, `clone`, `record`, equality and `determinize` around `redeal` (re-rolling the cups the
seat cannot see).

    import boardwright as bw, liars_dice          # python examples/liars_dice.py plays one
    state = bw.load("liars_dice", 3).new_game(seed=1)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import boardwright as bw
from boardwright.core.action_list import ActionData
from boardwright.core.errors import InvalidOptionError
from boardwright.core.game import Game, State
from boardwright.core.inputs import copy_options
from boardwright.core.options import OptionSpec, check_options


@dataclass(frozen=True)
class Bid(ActionData):
    """At least `quantity` dice on the table show `face`: `{"type": "bid", ...}`."""

    quantity: int
    face: int


@dataclass(frozen=True)
class Call(ActionData):
    """The last bid is a lie: lift the cups. `{"type": "call"}`."""


class LiarsDiceGame(Game):
    """Liar's Dice for 2 to 4 players (see the module docstring)."""

    name = "liars_dice"
    version = "1"

    @classmethod
    def option_specs(cls, players: int) -> list[OptionSpec]:
        return [OptionSpec("dice", "int", 2, min=1, max=5, help="dice per player"),
                OptionSpec("faces", "int", 6, min=2, max=6, help="faces per die")]

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        if not 2 <= players <= 4:
            raise InvalidOptionError(f"Liar's Dice is for 2 to 4 players, not {players}")
        options = check_options(self.option_specs(players), copy_options(options),
                                "Liar's Dice")
        super().__init__(players, options)
        self.dice: int = options["dice"]
        self.faces: int = options["faces"]

    def new_game(self, seed: int | None = None) -> LiarsDiceState:
        return LiarsDiceState(self, seed)

    def all_actions(self) -> list[Bid | Call]:
        total = self.dice * self.num_players
        return [*(Bid(q, f) for q in range(1, total + 1) for f in range(1, self.faces + 1)),
                Call()]

    def secret_fields(self, action: Any) -> tuple[str, ...]:
        return ()  # bids are spoken aloud; the secret is under the cups (the view)

    def action_text(self, action: Any) -> str:
        return "call the bid a lie" if isinstance(action, Call) else \
            f"bid {action.quantity} × {action.face}"

    # -- chance: one outcome per face (id = face - 1), each roll hidden from the others ------

    @property
    def chance_outcome_count(self) -> int:
        return self.faces

    def chance_outcome_text(self, outcome: int) -> str:
        return f"rolled a {outcome + 1}"

    def max_decisions(self) -> int:
        """Each round loses a die, and a round has at most one bid per (quantity, face) and a
        call."""
        total = self.dice * self.num_players
        return (total - 1) * (total * self.faces + 1)

    def max_chance_events(self) -> int:
        """Every die still in play is rolled once a round."""
        total = self.dice * self.num_players
        return total * (total - 1)


class LiarsDiceState(State):
    """The cups, the bids of this round and what the last call showed."""

    def __init__(self, game: LiarsDiceGame, seed: int | None) -> None:
        super().__init__(game, seed)
        self.game: LiarsDiceGame = game
        self.cups: list[list[int]] = [[] for _ in range(game.num_players)]
        self.left = [game.dice] * game.num_players
        self.bids: list[tuple[int, int, int]] = []  # (seat, quantity, face) this round
        self.turn = 0
        self.last: dict[str, Any] | None = None  # the last call, shown to everyone
        self._roll()

    def _roll(self) -> None:
        """Every player with dice rolls them all: one chance event per die."""
        faces = {outcome: 1 for outcome in range(self.game.faces)}
        self.cups = [sorted(self.draw(faces) + 1 for _ in range(n)) for n in self.left]

    @property
    def is_terminal(self) -> bool:
        return sum(1 for n in self.left if n) <= 1

    @property
    def current_player(self) -> int:
        return -1 if self.is_terminal else self.turn

    @property
    def scores(self) -> list[int]:
        return list(self.left)

    def legal_actions(self) -> list[Bid | Call]:
        if self.is_terminal:
            return []
        listed = self.game.action_list()
        assert listed is not None
        actions = listed.actions
        if not self.bids:
            return [a for a in actions if isinstance(a, Bid)]
        _, quantity, face = self.bids[-1]
        start = self.game.action_id(Bid(quantity, face)) + 1  # bids are listed in rising order
        return list(actions[start:])  # the higher bids, then the call

    def play(self, action: Bid | Call) -> None:
        seat = self.turn
        if isinstance(action, Bid):
            self.bids.append((seat, action.quantity, action.face))
            self.turn = self._next(seat)
            return
        bidder, quantity, face = self.bids[-1]
        shown = sum(cup.count(face) for cup in self.cups)
        loser = seat if shown >= quantity else bidder
        self.last = {"cups": [list(cup) for cup in self.cups], "bid": [quantity, face],
                     "bidder": bidder, "caller": seat, "loser": loser}
        self.left[loser] -= 1
        self.bids = []
        self.turn = loser if self.left[loser] else self._next(loser)
        if not self.is_terminal:
            self._roll()  # chance in the middle of an action: explicit there too

    def _next(self, seat: int) -> int:
        n = self.game.num_players
        return next((seat + k) % n for k in range(1, n + 1) if self.left[(seat + k) % n])

    def view(self, player: int | None) -> dict[str, Any]:
        seated = player is not None and 0 <= player < self.game.num_players
        view: dict[str, Any] = {
            "my_dice": list(self.cups[player]) if seated else None,  # type: ignore[index]
            "dice_left": list(self.left),
            "bids": [{"seat": s, "quantity": q, "face": f} for s, q, f in self.bids],
            "last_call": None if self.last is None else dict(self.last),
            "current_player": self.current_player,
        }
        if self.is_terminal:
            view["winners"] = [seat for seat, n in enumerate(self.left) if n]
        return view

    def redeal(self, player: int, rng: random.Random) -> None:
        """The other cups, rolled again (bids say nothing certain about them); the base
        class's `determinize` has already re-seeded the rolls still to come."""
        for seat, n in enumerate(self.left):
            if seat != player:
                self.cups[seat] = sorted(rng.randrange(self.game.faces) + 1 for _ in range(n))


bw.register(LiarsDiceGame.name, LiarsDiceGame)


if __name__ == "__main__":
    from boardwright.agents import make_agent

    state = bw.load("liars_dice", 3).new_game(seed=1)
    agents = [make_agent(spec, seed=seat) for seat, spec in enumerate(["greedy", "random",
                                                                        "mcts:iters=50"])]
    while not state.is_terminal:
        seat = state.current_player
        action = agents[seat].act(state)
        print(f"seat {seat}: {state.game.describe_action(action)}")
        state.apply(action)
    print("dice left:", state.scores, "winners:", state.view(None)["winners"])
