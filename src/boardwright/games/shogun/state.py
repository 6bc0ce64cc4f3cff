"""The Rise of the Shogun state: pieces, cards, treasures, missions, and the decision machine.

Who decides now is found in this order: a running duel (`duel.current_player`), a special card
being resolved outside a duel (`outside`), the first waiting step of `pending` (a choice an
effect or a rule asks of one player: keep a treasure, relocate a shrine, answer a decree ...),
and otherwise the phase: the set-up phases (`setup.py`) or the six turn phases (`turn.py`,
`court.py`). Attacks and their outcomes are in `combat.py`, victory points and the end of the
game in `scoring.py`, what each seat may see of a position in `visibility.py`.

The board is a set of per-space arrays indexed by map index (`peasant`, `hero_at`,
`castle_at`, `shrine`) and per-castle arrays (`castle_space`, `roof`, `court`); a castle is
numbered by placement order. Every list is copied on `clone`, nothing is deep-copied.
Chance (deck shuffles, random discards, treasure theft) comes from `rng`, which the card table
shares, so seed + actions replay exactly.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from boardwright.core.errors import GameOverError, IllegalActionError, MalformedActionError
from boardwright.core.inputs import coerce_action
from boardwright.core.game import State, rank_returns
from boardwright.core.record import GameRecord, record_of
from boardwright.duel import CardTable, Duel, OutsidePlay
from boardwright.games.shogun.actions import ACTION_CLASSES, TYPE_OF
from boardwright.games.shogun.combat import CombatRules
from boardwright.games.shogun.court import CourtRules
from boardwright.games.shogun.duel_words import card_event
from boardwright.games.shogun.scoring import CASTLE_VP, NOBODY, ScoringRules
from boardwright.games.shogun.setup import SETUP_PHASES, SetupRules
from boardwright.games.shogun.steps import StepRules
from boardwright.games.shogun.turn import TurnRules
from boardwright.games.shogun.visibility import ViewRules

if TYPE_CHECKING:
    from boardwright.games.shogun.game import ShogunGame

Step = tuple  # (kind, seat, *payload): one waiting decision or automatic step


class ShogunState(SetupRules, TurnRules, CombatRules, CourtRules, StepRules, ScoringRules,
                  ViewRules, State):
    """One position of a Rise of the Shogun game."""

    __slots__ = (
        "game", "seed", "rng", "first", "order", "heroes", "table", "phase", "active",
        "setup_count", "home_step", "peasant", "hero_at", "hero_pos", "castle_at",
        "castle_space", "roof", "court", "shrine", "shrine_aside", "reserve", "prisoners",
        "treasures", "treasure_deck", "mission", "mission_deck", "round", "turn",
        "exclusive_used", "bow", "must_search", "exchanged", "clears_left", "court_allowed",
        "court_used", "reorganise_refused", "decree", "decree_free", "phase_log", "pending",
        "duel", "duel_ctx", "outside", "chain_cache", "over", "winners", "end_reason", "history",
        "log", "meta", "legal_cache", "turn_began",
    )

    def __init__(self, game: ShogunGame, seed: int, rng: random.Random | None = None) -> None:
        """A new game whose chance comes from `seed`; or, with `rng` (a `ShogunChance`,
        `ShogunGame.new_chance_game`), one whose random events are explicit chance events."""
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed) if rng is None else rng
        n = game.num_players
        size = len(game.board)
        options = game.config
        self.first = (options.fixed.first_player if options.fixed.first_player is not None
                      else self.rng.randrange(n))  # SHO-SETUP-01
        self.order = [(self.first + k) % n for k in range(n)]
        self.heroes: list[str | None] = [None] * n
        self.table: CardTable | None = None
        self.phase = "heroes"
        self.active = self.order[0]
        self.setup_count = 0
        self.home_step = "castle"
        self.peasant = [NOBODY] * size
        self.hero_at = [NOBODY] * size
        self.hero_pos = [NOBODY] * n
        self.castle_at = [NOBODY] * size
        self.castle_space: list[int] = []
        self.roof: list[int] = []
        self.court: list[int] = []
        self.shrine = [False] * size
        self.shrine_aside: list[int] = []
        per_colour = game.content.components.peasants_per_colour
        self.reserve = [per_colour] * n
        self.prisoners = [[0] * n for _ in range(n)]
        self.treasures: list[list[str]] = [[] for _ in range(n)]
        treasure_ids = [t.id for t in game.content.treasures]
        if options.fixed.treasure is not None:
            self.treasure_deck = list(options.fixed.treasure)
        else:
            self.treasure_deck = treasure_ids
            self.rng.shuffle(self.treasure_deck)  # SHO-SETUP-16
        mission_ids = [m.id for m in game.content.missions]
        if options.fixed.missions is not None:
            self.mission_deck = list(options.fixed.missions)
        else:
            self.mission_deck = mission_ids
            self.rng.shuffle(self.mission_deck)
        self.mission: list[str | None] = [None] * n
        self.round = 0
        self.turn = 0
        self.turn_began = 0  # decisions taken when the current turn began
        self.exclusive_used = False
        self.bow = False
        self.must_search = False
        self.exchanged = False
        self.clears_left = 0
        self.court_allowed = 1
        self.court_used: list[str] = []
        self.reorganise_refused = False
        self.decree: str | None = None
        self.decree_free = False
        self.phase_log: list[str] = []
        self.pending: list[Step] = []
        self.duel: Duel | None = None
        self.duel_ctx: tuple = ()
        self.outside: OutsidePlay | None = None
        self.chain_cache: list[int | None] = [None] * n
        self.over = False
        self.winners: list[int] = []
        self.end_reason = ""
        self.history: list[Any] = []
        self.log: list[dict[str, Any]] = []
        self.meta: dict[str, Any] = {}
        self.legal_cache: list[Any] | None = None
        if options.heroes is not None:
            for seat, deck in enumerate(options.heroes):
                self.heroes[seat] = deck.hero
            self.deal()
            self.phase = "castles"
            self.active = self.order[0]

    # -- the State protocol --------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        if self.over:
            return NOBODY
        if self.duel is not None:
            return self.duel.current_player
        if self.outside is not None:
            return self.outside.current_player
        if self.pending:
            return self.pending[0][1]
        return self.active

    @property
    def is_terminal(self) -> bool:
        return self.over

    @property
    def at_turn_start(self) -> bool:
        """The active player before the first decision of a turn (a set-up placement is a
        turn of one decision); never inside a duel, an outside play or a pending step."""
        if self.over or self.duel is not None or self.outside is not None or self.pending:
            return False
        return self.phase in SETUP_PHASES or len(self.history) == self.turn_began

    @property
    def scores(self) -> list[int]:
        """Victory points per seat, hidden scoring treasures included (SHO-SCORE-01, -06)."""
        return [self.vp(s) for s in range(self.game.num_players)]

    def returns(self) -> list[float]:
        """Rank-based: the winner(s) first, then VP, castles and prisoners (SHO-SCORE-05, -08)."""
        if not self.over:
            return [0.0] * self.game.num_players
        keys = [(1_000_000 if s in self.winners else 0) + 1000 * self.vp(s)
                + 20 * self.castle_count(s) + self.prisoner_count(s)
                for s in range(self.game.num_players)]
        return rank_returns(keys)

    @property
    def record(self) -> GameRecord:
        return record_of(self.game, self.seed, self.history, self.meta)

    def attach_chance(self, script: Any) -> None:
        if type(self.rng) is random.Random:
            raise IllegalActionError("this state draws its chance from its seed, not from a "
                                     "chance script (use ShogunGame.new_chance_game)")
        self.rng.script = script  # type: ignore[attr-defined]

    def take_treasure_card(self) -> str:
        """The top card of the treasure deck (chance mode: a chance event)."""
        if type(self.rng) is random.Random:
            return self.treasure_deck.pop(0)
        return self.rng.take_treasure(self.treasure_deck)  # type: ignore[attr-defined]

    def take_mission_card(self) -> str:
        """The top card of the mission deck (chance mode: a chance event)."""
        if type(self.rng) is random.Random:
            return self.mission_deck.pop(0)
        return self.rng.take_mission(self.mission_deck)  # type: ignore[attr-defined]

    def legal_actions(self) -> list[Any]:
        if self.over:
            return []
        if self.legal_cache is None:
            self.legal_cache = self._legal()
        return list(self.legal_cache)

    def _legal(self) -> list[Any]:
        if self.duel is not None:
            return list(self.duel.legal_actions())
        if self.outside is not None:
            return list(self.outside.legal_actions())
        if self.pending:
            return self.pending_actions(self.pending[0])
        if self.phase in SETUP_PHASES:
            return self.setup_actions()
        if self.phase == "court":
            return self.court_actions()
        return self.turn_actions()

    def apply(self, action: Any) -> None:
        """Carry out one decision; IllegalActionError (state unchanged) if it is not legal."""
        action = coerce_action(self.game, action, ACTION_CLASSES)
        if self.over:
            raise GameOverError("the game is over; no action can be applied")
        if self.legal_cache is None:
            self.legal_cache = self._legal()
        legal = self.legal_cache
        if not any(a is action for a in legal) and action not in legal:
            raise IllegalActionError(self.why_illegal(action))
        self.legal_cache = None
        self.history.append(action)
        if self.duel is not None:
            made = len(self.duel.plays)
            self.duel.apply(action)
            for index in range(made, len(self.duel.plays)):  # every card played, in the log
                self.event("duel_card", self.duel.plays[index].seat,
                           **card_event(self.duel, index))
            if self.duel.is_over:
                self.duel_over()
        elif self.outside is not None:
            self.outside.apply(action)
            self.finish_outside()
        elif self.pending:
            self.apply_pending(self.pending.pop(0), action)
        elif self.phase in SETUP_PHASES:
            self.apply_setup(action)
        elif self.phase == "court":
            self.apply_court(action)
        else:
            self.apply_turn(action)
        self.advance()
        if not self.over and self.duel is None and self.phase not in SETUP_PHASES:
            self.check_victory()
        cap = self.game.config.max_decisions
        if cap is not None and not self.over and len(self.history) >= cap:
            self.finish_by_rounds("max_decisions")  # SHO-SCORE-09

    def why_illegal(self, action: Any) -> str:
        """The reason an action is refused, as precise as the situation allows."""
        if self.duel is not None:
            kind = action.to_json().get("type", "") if hasattr(action, "to_json") else ""
            if kind.startswith("duel_"):
                self.duel.apply(action)  # raises with the duel's own reason, changing nothing
            return (f"a duel is running: {self.colour(self.duel.current_player)} must answer "
                    "with a duel action (SHO-DUEL)")
        if self.outside is not None:
            return f"{self.outside.card} is being resolved: answer its choice first"
        name = TYPE_OF.get(type(action), getattr(action, "to_json", lambda: {"type": "?"})()["type"])
        if self.pending:
            kind, seat = self.pending[0][0], self.pending[0][1]
            return (f"{name} is not legal now: {self.colour(seat)} must first answer "
                    f"'{kind.replace('_', ' ')}'")
        return self.explain(action, name)

    def clone(self) -> ShogunState:
        other = ShogunState.__new__(ShogunState)
        other.game = self.game
        other.seed = self.seed
        if type(self.rng) is random.Random:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        else:  # chance mode
            rng = self.rng.clone()  # type: ignore[attr-defined]
        other.rng = rng
        other.first = self.first
        other.order = self.order
        other.heroes = self.heroes[:]
        other.table = self.table.clone(rng) if self.table is not None else None
        other.phase = self.phase
        other.active = self.active
        other.setup_count = self.setup_count
        other.home_step = self.home_step
        other.peasant = self.peasant[:]
        other.hero_at = self.hero_at[:]
        other.hero_pos = self.hero_pos[:]
        other.castle_at = self.castle_at[:]
        other.castle_space = self.castle_space[:]
        other.roof = self.roof[:]
        other.court = self.court[:]
        other.shrine = self.shrine[:]
        other.shrine_aside = self.shrine_aside[:]
        other.reserve = self.reserve[:]
        other.prisoners = [row[:] for row in self.prisoners]
        other.treasures = [row[:] for row in self.treasures]
        other.treasure_deck = self.treasure_deck[:]
        other.mission = self.mission[:]
        other.mission_deck = self.mission_deck[:]
        other.round = self.round
        other.turn = self.turn
        other.turn_began = self.turn_began
        other.exclusive_used = self.exclusive_used
        other.bow = self.bow
        other.must_search = self.must_search
        other.exchanged = self.exchanged
        other.clears_left = self.clears_left
        other.court_allowed = self.court_allowed
        other.court_used = self.court_used[:]
        other.reorganise_refused = self.reorganise_refused
        other.decree = self.decree
        other.decree_free = self.decree_free
        other.phase_log = self.phase_log[:]
        other.pending = self.pending[:]
        other.duel = (self.duel.clone(other.table) if self.duel is not None
                      and other.table is not None else None)
        other.duel_ctx = self.duel_ctx
        other.outside = (self.outside.clone(other.table) if self.outside is not None
                         and other.table is not None else None)
        other.chain_cache = self.chain_cache[:]
        other.over = self.over
        other.winners = self.winners[:]
        other.end_reason = self.end_reason
        other.history = self.history[:]
        other.log = self.log[:]
        other.meta = dict(self.meta)
        other.legal_cache = None
        return other

    # -- pieces ----------------------------------------------------------------------------------

    def colour(self, seat: int) -> str:
        colours = self.game.colours
        return colours[seat].capitalize() if 0 <= seat < len(colours) else f"Seat {seat}"

    def space_id(self, index: int) -> str:
        return self.game.board.ids[index]

    def courted_castle(self, seat: int) -> int:
        """The castle number `seat` courts, or -1."""
        for c, owner in enumerate(self.court):
            if owner == seat:
                return c
        return NOBODY

    def emperor(self) -> int:
        """The seat with an ordinary peasant on Heian, or -1 (SHO-EMP-01)."""
        return self.peasant[self.game.board.heian]

    def empty(self) -> list[bool]:
        """Spaces holding no piece at all (SHO-BOARD-04)."""
        return [c < 0 and not s and h < 0 and p < 0 for c, s, h, p in
                zip(self.castle_at, self.shrine, self.hero_at, self.peasant)]

    def board_count(self, seat: int) -> int:
        """Peasants of `seat` on the board: ordinary ones and lord markers."""
        return (self.peasant.count(seat) + self.roof.count(seat) + self.court.count(seat))

    def held_count(self, seat: int) -> int:
        """Peasants of `seat`'s colour held as prisoners by the others."""
        return sum(row[seat] for row in self.prisoners)

    def event(self, what: str, seat: int = NOBODY, /, **data: Any) -> None:
        entry: dict[str, Any] = {"event": what, "seat": seat, "turn": self.turn,
                                 "round": self.round}
        entry.update(data)
        self.log.append(entry)

    # -- equality ------------------------------------------------------------------------------

    def signature(self) -> tuple:
        """A complete, canonical description of the position (for equality in tests)."""
        cards = None
        if self.table is not None:
            cards = tuple((tuple(sorted(p.piles.items())), tuple(p.hand), tuple(p.draw_pile),
                           tuple(p.discard), p.cleanup_limit) for p in self.table.players)
        duel = None
        if self.duel is not None:
            duel = (repr(self.duel.view(None)), self.duel.runner.queue[:])
        outside = repr(self.outside.view(None)) if self.outside is not None else None
        return (
            self.first, tuple(self.heroes), self.phase, self.active, self.setup_count,
            self.home_step, tuple(self.peasant), tuple(self.hero_at), tuple(self.hero_pos),
            tuple(self.castle_at), tuple(self.castle_space), tuple(self.roof), tuple(self.court),
            tuple(self.shrine), tuple(self.shrine_aside), tuple(self.reserve),
            tuple(map(tuple, self.prisoners)), tuple(map(tuple, self.treasures)),
            tuple(self.treasure_deck), tuple(self.mission), tuple(self.mission_deck),
            self.round, self.turn, self.exclusive_used, self.bow, self.must_search,
            self.exchanged, self.clears_left, self.court_allowed, tuple(self.court_used),
            self.reorganise_refused, self.decree, self.decree_free, tuple(self.phase_log),
            tuple(self.pending), cards,
            duel, self.duel_ctx, outside, self.over, tuple(self.winners), self.end_reason,
            tuple(self.history), self.rng.getstate(),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ShogunState):
            return NotImplemented
        return (self.game.options == other.game.options
                and self.game.num_players == other.game.num_players
                and self.signature() == other.signature())

    __hash__ = None  # type: ignore[assignment]


__all__ = ["CASTLE_VP", "NOBODY", "ShogunState", "Step"]
