"""The configured Rise of the Shogun game: content, options, the action-id space, and lookups
shared by every state (treasures and missions by id, spaces within a distance)."""

from __future__ import annotations

from typing import Any, Sequence

from boardwright.core.analysis_unit import AnalysisUnit
from boardwright.core.chance import ChanceScript, ExplicitChanceState
from boardwright.core.errors import InvalidOptionError, MalformedActionError
from boardwright.core.game import Game
from boardwright.core.info import GameInfo, PlayerRange, Seat
from boardwright.core.inputs import check_action_json, check_seed, copy_options, short_repr
from boardwright.core.options import OptionSpec
from boardwright.duel import CardDef, HeroDeck
from boardwright.games.shogun.actions import ActionSpace, parse_action
from boardwright.games.shogun.chance import ShogunChance, outcome_layout
from boardwright.games.shogun.content import (
    ShogunContent, colours_for, load_components, load_content,
)
from boardwright.games.shogun.decks import ATTRIBUTES, HEROES, hero_deck
from boardwright.games.shogun.heuristic import evaluate
from boardwright.games.shogun.missions import Mission
from boardwright.games.shogun.options import DEFAULT_THRESHOLDS, option_specs, parse_options
from boardwright.games.shogun.texts import action_words, describe, setup_words
from boardwright.games.shogun.visibility import SECRET_ACTIONS, hidden_fingerprint
from boardwright.games.shogun.state import ShogunState
from boardwright.games.shogun.treasures import Treasure

MAX_REACH = 3  # the longest range of a hero attack or a monster (Tengu)
# The rules have no round limit (SHO-SCORE-08) and random bots rarely reach the VP threshold:
# games only bots play end after this round unless their options set max_rounds.
BOTS_ONLY_ROUND_CAP = 30
# Decisions a turn that a decision cap derived from a round cap allows (random play measured
# at most 26 in a turn: 40 two-player games of 8 rounds); see `decision_cap`.
TURN_ALLOWANCE = 100
SHRINES = 4


# How each colour of the box (SHO-COMP-07, data/components.toml) is drawn: CSS, terminal.
DRAWN = {"green": ("#2f9e44", "bold green"), "red": ("#d8322a", "bold red"),
         "blue": ("#2a64d8", "bold blue"), "yellow": ("#e5b914", "bold yellow")}


def seats() -> tuple[Seat, ...]:
    """The seats in order, each named by the colour it takes (the box's colours in order)."""
    return tuple(Seat(colour.capitalize(), *DRAWN[colour])
                 for colour in load_components().colours)


def decision_cap(players: int, max_rounds: int) -> int:
    """A `max_decisions` (SHO-SCORE-09) for games of `max_rounds` rounds: every set-up decision
    (heroes, castles, shrines, home castles and heroes) and TURN_ALLOWANCE decisions for each
    turn. It can end a game only whose turns average far more decisions than any single turn
    measured; the round cap ends all others first."""
    castles = max(load_content().components.castles_in_play.values())
    return players + castles + SHRINES + 2 * players + max_rounds * players * TURN_ALLOWANCE


class ShogunGame(Game):
    """HeroCard: Rise of the Shogun: heroes, castles, missions and HeroCard duels, 2-4 players."""

    name = "shogun"
    version = "1"
    info = GameInfo(title="Rise of the Shogun",
                    players=(PlayerRange(min(load_components().player_counts),
                                         max(load_components().player_counts)),),
                    information="imperfect", chance="explicit", seats=seats())

    # An analysis measures leads in victory points: the heuristic counts VP one for one (plus
    # fractions for what turns into VP later), but a won game at a thousand, so one game
    # decided in a playout would swamp every other figure. A won or lost game counts as a whole
    # two-player winning score (24 VP) ahead or behind. Flags in VP: a prisoner's worth is an
    # inaccuracy, two a mistake, a castle's a blunder (a random player against greedy, every
    # other decision of 400 judged at 240 playouts: 0.4 VP lost a decision, 8 of 86 flagged;
    # greedy itself 0.04, 2 of 88).
    analysis_unit = AnalysisUnit("VP", scale=1.0, cap=float(DEFAULT_THRESHOLDS[2]),
                                 flags=(("blunder", 4.0), ("mistake", 2.0), ("inaccuracy", 1.0)))

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        options = copy_options(options)  # the game's own: later edits by the caller change nothing
        content: ShogunContent = load_content()
        self.config = parse_options(options, players, content)
        super().__init__(players, self.config.to_json())
        self.content = content
        self.board = content.board
        self.colours: tuple[str, ...] = colours_for(players)
        self.hero_ids: tuple[str, ...] = HEROES
        catalogue: dict[str, CardDef] = dict(content.catalogue)
        for deck in self.config.heroes or ():
            for card in deck.cards:
                catalogue.setdefault(card.id, card)
        self.catalogue = catalogue
        self.card_rank = {card_id: i for i, card_id in enumerate(catalogue)}
        self.treasure: dict[str, Treasure] = {t.id: t for t in content.treasures}
        self.treasure_order: tuple[str, ...] = tuple(t.id for t in content.treasures)
        self.mission: dict[str, Mission] = {m.id: m for m in content.missions}
        n = len(self.board)
        dist = self.board.dist
        self.near: list[list[list[int]]] = [[[]] * n] + [
            [[t for t in range(n) if 0 < dist[s][t] <= d] for s in range(n)]
            for d in range(1, MAX_REACH + 1)]
        edges = tuple((self.board.ids[a], self.board.ids[b]) for a in range(n)
                      for b in self.board.neighbours[a])
        self.space = ActionSpace(self.board.ids, edges, tuple(catalogue),
                                 self.treasure_order, HEROES, self.colours, ATTRIBUTES, players)

    @classmethod
    def option_specs(cls, players: int) -> list[OptionSpec]:
        return option_specs(players)

    @classmethod
    def setup_words(cls, options: Any, players: int) -> list[str]:
        return setup_words(options, DEFAULT_THRESHOLDS.get(players))

    @classmethod
    def bots_only_options(cls, options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        if options.get("max_rounds") is not None:
            return dict(options), {}
        added = {"max_rounds": BOTS_ONLY_ROUND_CAP}
        return {**options, **added}, added

    def decks_for(self, heroes: Sequence[str | None]) -> list[HeroDeck]:
        """The deck of each seat: from the `heroes` option, or the chosen heroes."""
        if self.config.heroes is not None:
            return list(self.config.heroes)
        return [hero_deck(h) for h in heroes if h is not None]

    def new_game(self, seed: int | None = None) -> ShogunState:
        return ShogunState(self, check_seed(seed))

    # -- explicit chance ----------------------------------------------------------------------

    def new_chance_game(self) -> ExplicitChanceState:
        """A state whose random events are chance nodes (`chance.py`): the first player, each
        card drawn from a hero deck, random discards, treasure thefts and the treasure and
        mission draws. Fixed hero-deck orders (`fixed_order.decks`) leave no chance to show
        and are refused here; fixed treasure and mission orders and a fixed first player are
        kept."""
        if self.config.fixed.decks:
            raise InvalidOptionError("fixed_order.decks fixes the hero decks' order; the "
                                     "explicit-chance game deals them lazily: leave it out")

        def start(script: ChanceScript) -> ShogunState:
            rng = ShogunChance(self)
            rng.script = script
            return ShogunState(self, 0, rng)

        return ExplicitChanceState(self, start)

    @property
    def chance_outcome_count(self) -> int:
        return outcome_layout(self)[3] + self.num_players

    def chance_outcome_public(self, outcome: int) -> bool:
        """The first player (the last outcome ids, one per seat) is announced to all; a card,
        treasure or mission drawn is seen as each seat's view shows it."""
        return outcome >= self.chance_outcome_count - self.num_players

    def chance_outcome_text(self, outcome: int) -> str:
        cards, treasures, missions, seats = outcome_layout(self)
        if type(outcome) is int:
            for kind, ids in (("card", cards), ("treasure", treasures), ("mission", missions)):
                for name, i in ids.items():
                    if i == outcome:
                        return f"{kind} {name}"
            if seats <= outcome < seats + self.num_players:
                return f"first player {self.colours[outcome - seats]}"
        raise MalformedActionError(f"no chance outcome {short_repr(outcome)} in this game")

    def max_decisions(self) -> int | None:
        """The `max_decisions` option (SHO-SCORE-09): the rules themselves set no bound."""
        return self.config.max_decisions

    def action_from_json(self, data: Any) -> Any:
        action = parse_action(check_action_json(data))
        for key in ("space", "source", "target"):
            value = getattr(action, key, None)
            if isinstance(value, str):
                self.board.space(value)  # unknown spaces (the lake too) are malformed
        return action

    def action_id(self, action: Any) -> int:
        return self.space.encode(action)

    def action_from_id(self, action_id: int) -> Any:
        return self.space.decode(action_id)

    @property
    def num_distinct_actions(self) -> int:
        return self.space.size

    def table_data(self, state: Any) -> dict[str, Any]:
        """The public scoring by source for every seat (castles, chains with the spaces that
        score, prisoners; scoring treasures once the game is over, when they are laid open),
        and whether the game is over."""
        return {"scores": [state.score_parts(s, state.over) for s in range(self.num_players)],
                "over": state.over}

    def heuristic(self, state: Any) -> list[float]:
        return evaluate(state)

    @property
    def search_defaults(self) -> dict[str, Any]:
        """Leaves judged where the tree ends, without playing on to the searcher's next turn.
        A Shogun turn is many small decisions (a step, a card, a peasant, "done"), and a
        playout to my next turn plays the rest of mine and the whole of the other's at random,
        which judges a move by a random opponent's reply; the tree over the next decisions,
        each judged by the heuristic, is what out-plans the greedy agent (one decision ahead),
        and at 0.6 ms an iteration instead of 1.5 ms it searches 2.5 times as many. Screened
        at fixed budgets (`benchmarks/match.py AGENT greedy --game shogun --options '{}'
        --deals 5 --workers 1`): 200 iterations this way won 8 of 10 games (21.5 VP against
        11.0), in 29 s a game; 100 iterations to the next turn won 7 of 10 (20.1 against
        11.7), in 46 s a game."""
        return {"turn_leaves": False}

    def undoable(self, before: Any, action: Any, after: Any) -> bool:
        """When the step left every hidden and random part of the position as it was
        (`visibility.hidden_fingerprint`): a hero, castle or peasant placed, a move on the
        board. A card drawn, played from a hand or discarded, a treasure or mission taken,
        kept or given up, anything in a duel, or any use of the random source cannot be
        taken back."""
        mark = hidden_fingerprint(before)
        return mark is not None and mark == hidden_fingerprint(after)

    def secret_fields(self, action: Any) -> tuple[str, ...]:
        secret = SECRET_ACTIONS.get(action.to_json()["type"])
        return secret.fields if secret is not None else ()

    def secret_action_text(self, public: dict[str, Any]) -> str:
        secret = SECRET_ACTIONS.get(public.get("type", ""))
        return secret.text if secret is not None else super().secret_action_text(public)

    def action_text(self, action: Any) -> str:
        """The whole action in words, provinces and cards by their printed names
        (`texts.action_words`)."""
        return action_words(self, action.to_json())

    def describe(self, state: Any, action: Any, viewer: Any = None) -> str:
        """The move in the game's words as `viewer` may read it (`texts.describe`)."""
        return describe(self, state, action, viewer)
