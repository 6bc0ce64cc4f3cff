"""Goofspiel, the Game of Pure Strategy, for 2 to 4 players.

Every player holds the cards 1..N (N = the `cards` option, 13 by default). A shuffled prize
deck of the same values is turned over one card a round; each player bids one card of their
hand for it, face down, and the bids are shown together. The highest bid wins the prize (its
value in points); a tie for the highest bid wins nothing and the prize is lost. Bids are spent.
After N rounds the most points win.

What it shows of boardwright's game API:

* chance: the prize order is dealt from the seed at `new_game`, so seed + actions replay exactly;
* hidden information: the table plays bids in seat order, so a bid is secret until the round's
  last bid (`secret_fields`), and `view(seat)` shows another seat's unplayed cards without
  saying which one is its hidden bid;
* `determinize`: a searching bot deals the prizes still face down in a new order, and gives the
  seats that already bid this round a bid drawn from their unplayed cards (`redeal`).

What it leaves to the base classes: the action conversions (JSON, ids) from `all_actions`, the
checks of `apply` (it writes only `play`), `clone`, `record`, equality and the rest of
`determinize` (`core/game.py`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from boardwright.core.action_list import ActionData
from boardwright.core.errors import InvalidOptionError
from boardwright.core.game import Game, State
from boardwright.core.info import GameInfo, PlayerRange, Seat
from boardwright.core.inputs import copy_options
from boardwright.core.options import OptionSpec, check_options

MIN_CARDS, MAX_CARDS, DEFAULT_CARDS = 3, 20, 13
MIN_PLAYERS, MAX_PLAYERS = 2, 4


@dataclass(frozen=True)
class Bid(ActionData):
    """Bid the card `card` for this round's prize: `{"type": "bid", "card": 3}`."""

    card: int


class GoofspielGame(Game):
    """Goofspiel: bid cards 1..N, face down, for prize cards turned over one a round."""

    name = "goofspiel"
    version = "1"
    # What the game is, declared once: every front end reads it (the lobby's player counts,
    # the OpenSpiel game type, the seats' names and colours in the terminal and the browser).
    info = GameInfo(
        title="Goofspiel",
        players=(PlayerRange(MIN_PLAYERS, MAX_PLAYERS),),
        information="imperfect",  # a bid is secret until the round's last bid
        chance="seeded",  # the prize order is dealt from the seed
        seats=(Seat("Red", "#d33b2f", "bold red"), Seat("Blue", "#2a6fdb", "bold blue"),
               Seat("Green", "#2e9e45", "bold green"), Seat("Yellow", "#e0b81c", "bold yellow")))

    @classmethod
    def option_specs(cls, players: int) -> list[OptionSpec]:
        """The options, described once: validated from here, listed by `boardwright options
        goofspiel`, and shown as a number field in the web lobby."""
        return [OptionSpec("cards", "int", DEFAULT_CARDS, min=MIN_CARDS, max=MAX_CARDS,
                           help="cards per hand and prizes")]

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        options = copy_options(options)
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise InvalidOptionError(f"Goofspiel is for {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                                     f"not {players}")
        options = check_options(self.option_specs(players), options, "Goofspiel")
        super().__init__(players, options)
        self.cards: int = options["cards"]

    def new_game(self, seed: int | None = None) -> GoofspielState:
        return GoofspielState(self, seed)

    def all_actions(self) -> list[Bid]:
        """Every action, in id order: a bid's id is `card - 1`. The JSON and id conversions
        follow from this list (`core.action_list`)."""
        return [Bid(card) for card in range(1, self.cards + 1)]

    def secret_fields(self, action: Any) -> tuple[str, ...]:
        return ("card",)  # a bid is face down: the other seats see that a bid was made

    def action_text(self, action: Any) -> str:
        return f"bid {action.card}"

    def secret_action_text(self, public: dict[str, Any]) -> str:
        return "bid a card (face down)"

    # -- what bots judge positions by ---------------------------------------------------------

    def max_decisions(self) -> int:
        """One bid per player per prize card: what the OpenSpiel adapter declares as
        `max_game_length` (it refuses a game that gives no bound)."""
        return self.cards * self.num_players

    def heuristic(self, state: Any) -> list[float]:
        """Points won, plus a share of the prizes still to come in proportion to the bidding
        power left (the sum of one's unplayed cards): spending a 13 on a 2 is a poor trade."""
        left = sum(state.prizes[state.round:])
        power = [sum(hand) + (bid or 0) for hand, bid in zip(state.hands, state.bids)]
        total = sum(power) or 1
        return [score + left * p / total for score, p in zip(state.points, power)]


class GoofspielState(State):
    """A Goofspiel position: hands, the prize order (dealt from the seed), this round's bids."""

    append_only = ("history", "rounds")  # finished rounds never change: `clone` shares them

    def __init__(self, game: GoofspielGame, seed: int | None) -> None:
        super().__init__(game, seed)  # seed (checked), history, meta
        self.game: GoofspielGame = game
        self.prizes = list(range(1, game.cards + 1))  # the whole deck in order; prizes[round]
        random.Random(self.seed).shuffle(self.prizes)  # is face up: all chance fixed now
        self.round = 0
        n = game.num_players
        self.hands = [list(range(1, game.cards + 1)) for _ in range(n)]
        self.bids: list[int | None] = [None] * n
        self.points = [0] * n
        self.rounds: list[dict[str, Any]] = []  # finished rounds: prize, bids, winner

    @property
    def current_player(self) -> int:
        if self.is_terminal:
            return -1
        return self.bids.index(None)  # bids are made in seat order

    @property
    def is_terminal(self) -> bool:
        return self.round >= self.game.cards

    @property
    def scores(self) -> list[int]:
        return list(self.points)

    def legal_actions(self) -> list[Bid]:
        if self.is_terminal:
            return []
        return [Bid(card) for card in self.hands[self.current_player]]

    def play(self, action: Bid) -> None:
        """The bid is legal (the base class's `apply` checked it): spend the card; when the
        round's last bid is in, show the bids and give the prize to a single highest bid."""
        seat = self.current_player
        self.hands[seat].remove(action.card)
        self.bids[seat] = action.card
        if None in self.bids:
            return
        bids = [b for b in self.bids if b is not None]
        top = max(bids)
        winners = [seat for seat, bid in enumerate(bids) if bid == top]
        prize = self.prizes[self.round]
        winner = winners[0] if len(winners) == 1 else None
        if winner is not None:
            self.points[winner] += prize
        self.rounds.append({"prize": prize, "bids": bids, "winner": winner})
        self.bids = [None] * self.game.num_players
        self.round += 1

    def view(self, player: int | None) -> dict[str, Any]:
        """What `player` sees (None: a spectator): every seat's unplayed cards (known to all,
        since bids are shown at the end of each round) with this round's hidden bids still among
        them, which seats have bid, one's own bid, the prize, and the finished rounds."""
        seated = player is not None and 0 <= player < self.game.num_players
        unplayed = [sorted(hand + ([bid] if bid is not None else []))
                    for hand, bid in zip(self.hands, self.bids)]
        view: dict[str, Any] = {
            "round": self.round + 1 if not self.is_terminal else self.round,
            "rounds_total": self.game.cards,
            "prize": None if self.is_terminal else self.prizes[self.round],
            "prizes_face_down": sorted(self.prizes[self.round + 1:]),
            "unplayed": unplayed,
            "has_bid": [bid is not None for bid in self.bids],
            "hand": list(self.hands[player]) if seated else None,  # type: ignore[index]
            "my_bid": self.bids[player] if seated else None,  # type: ignore[index]
            "scores": list(self.points),
            "rounds": [dict(r, bids=list(r["bids"])) for r in self.rounds],
            "current_player": self.current_player,
        }
        if self.is_terminal:
            top = max(self.points)
            view["winners"] = [seat for seat, p in enumerate(self.points) if p == top]
        return view

    def redeal(self, player: int, rng: random.Random) -> None:
        """On a copy (the base class's `determinize`): the face-down prizes in a new order, and
        each other seat that bid this round given a bid drawn from its unplayed cards."""
        rest = self.prizes[self.round + 1:]
        rng.shuffle(rest)
        self.prizes[self.round + 1:] = rest
        for seat, bid in enumerate(self.bids):
            if bid is not None and seat != player:
                pool = self.hands[seat] + [bid]
                self.bids[seat] = pool.pop(rng.randrange(len(pool)))
                self.hands[seat] = sorted(pool)
