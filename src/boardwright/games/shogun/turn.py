"""The first five phases of a turn (SHO-TURN-01..09): Discard, Draw, Cleanup, Movement, Hero.

The Draw phase needs no decision and runs at once. The Hero phase offers the exclusive actions
(claim, search, attacks, summons: `combat.py` builds the attacks) and the restricted ones,
which the Court phase offers too (SHO-TURN-09): items, a prisoner exchange, abandoning the
mission, discarding a treasure, and specials played outside a duel (SHO-DUEL-24).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.duel import OutsidePlay
from boardwright.duel.outside import needs_opponent
from boardwright.games.shogun.actions import (
    ABANDON, DONE, SEARCH, Abandon, Attack, Claim, ClearPile, Convert, Decree, DiscardHand,
    DiscardTreasure, Done, Exchange, Move, PlaySpecial, Recruit, Reorganise, Search,
    UseTreasure,
)
from boardwright.games.shogun.placement import hero_destinations
from boardwright.games.shogun.setup import SETUP_PHASES

if TYPE_CHECKING:
    from boardwright.games.shogun.state import ShogunState

MOVE_POINTS = 3  # SHO-MOVE-01, -02
TREASURE_LIMIT = 3  # SHO-SHRINE-08
LETTER = "t_imperial_letter"
PHASE_NAMES = {"discard": "Discard", "cleanup": "Cleanup", "movement": "Movement",
               "hero": "Hero", "court": "Court"}


class TurnRules:
    """Turn phases of `ShogunState` (mixed into it)."""

    # -- phase changes ---------------------------------------------------------------------------

    def start_turn(self: ShogunState, seat: int) -> None:
        self.active = seat
        self.turn += 1
        self.turn_began = len(self.history)
        self.exclusive_used = False  # the slot resets each turn (SHO-TURN-08)
        self.bow = False
        self.must_search = False
        self.exchanged = False
        self.court_allowed = 1
        self.court_used = []
        self.reorganise_refused = False
        self.decree = None
        self.decree_free = False
        self.phase = "discard"
        self.phase_log = ["DISCARD"]
        self.event("turn", seat, round=self.round)
        if not self.table[seat].hand:
            self.to_draw()

    def to_draw(self: ShogunState) -> None:
        holder = self.table[self.active]
        self.phase_log.append("DRAW")
        holder.draw(holder.draw_phase_count(), self.rng)  # SHO-TURN-03
        self.phase_log.append("CLEANUP")
        self.phase = "cleanup"
        self.clears_left = holder.cleanup_allowance()  # SHO-TURN-05
        holder.cleanup_limit = None
        if self.clears_left <= 0 or not any(holder.piles.values()):
            self.to_movement()

    def to_movement(self: ShogunState) -> None:
        self.phase_log.append("MOVEMENT")
        self.phase = "movement"
        if not self.move_targets(MOVE_POINTS, True):
            self.to_hero()

    def to_hero(self: ShogunState) -> None:
        self.phase_log.append("HERO")
        self.phase = "hero"
        pos = self.hero_pos[self.active]
        self.must_search = pos >= 0 and self.shrine[pos]  # SHO-MOVE-06

    def to_court(self: ShogunState) -> None:
        """The Court phase opens. When an emperor will decree (SHO-EMP-02, -07, -08), the
        active player first answers a `before_decree` step, the moment to use the Imperial
        Letter; every player gets that step, Letter or not, so its presence reveals nothing
        about the face-down treasures. Without a decree the Letter is an ordinary restricted
        action of the Court phase until a court action is taken (`item_usable`)."""
        self.phase_log.append("COURT")
        self.phase = "court"
        if self.decree_coming():
            self.pending.append(("before_decree", self.active))
        self.pending.append(("court_decree", self.active))

    def decree_coming(self: ShogunState) -> bool:
        """Whether an emperor will decree in this Court phase (public information only)."""
        emperor = self.emperor()
        return emperor >= 0 and emperor != self.active and not self.decree_free

    # -- moving the hero -------------------------------------------------------------------------

    def move_targets(self: ShogunState, points: int, shrines: bool) -> dict[int, int]:
        """Where the active hero may end a move of `points` (SHO-MOVE-01..07)."""
        seat = self.active
        start = self.hero_pos[seat]
        if start < 0:
            return {}
        own = self.game.config.own_peasant_step_cost
        passable = []
        stoppable = []
        for c, s, h, p in zip(self.castle_at, self.shrine, self.hero_at, self.peasant):
            if c < 0 and not s and h < 0 and p < 0:
                passable.append(1)
                stoppable.append(True)
            elif p == seat:
                passable.append(own)
                stoppable.append(False)
            else:
                passable.append(-1)
                stoppable.append(False)
        return hero_destinations(self.game.board, start, points, passable, stoppable,
                                 self.shrine, shrines)

    def move_hero(self: ShogunState, seat: int, space: int, how: str = "",
                  by: int | None = None) -> None:
        """Move `seat`'s hero; the log names why (`how`: "" for a Movement-phase move,
        "free_move" after a won attack, "sandals") and, when a winner sends a beaten hero away,
        the winner as the actor (`hero_sent`, SHO-ATK-08)."""
        old = self.hero_pos[seat]
        if old >= 0:
            self.hero_at[old] = -1
        self.hero_at[space] = seat
        self.hero_pos[seat] = space
        if by is not None:
            self.event("hero_sent", by, hero=seat, space=self.space_id(space))
        elif how:
            self.event("hero_moved", seat, space=self.space_id(space), how=how)
        else:
            self.event("hero_moved", seat, space=self.space_id(space))

    # -- legal actions ---------------------------------------------------------------------------

    def turn_actions(self: ShogunState) -> list[Any]:
        seat = self.active
        holder = self.table[seat]
        ids = self.game.board.ids
        if self.phase == "discard":
            return [DiscardHand(c) for c in self.table.sorted_ids(holder.hand)] + [DONE]
        if self.phase == "cleanup":
            return [ClearPile(a) for a, pile in holder.piles.items() if pile] + [DONE]
        if self.phase == "movement":
            return [Move(ids[s]) for s in sorted(self.move_targets(MOVE_POINTS, True))] + [DONE]
        if self.must_search:
            return [SEARCH]
        out: list[Any] = []
        if not self.exclusive_used:
            out.extend(self.claim_actions())
        out.extend(self.attack_actions())
        out.extend(self.restricted_actions())
        out.append(DONE)
        return out

    def claim_actions(self: ShogunState) -> list[Any]:
        """Castles next to the hero with neither roof lord nor court marker (SHO-CLAIM-01)."""
        seat = self.active
        pos = self.hero_pos[seat]
        if pos < 0 or not self.can_mark(seat):
            return []
        return [Claim(self.space_id(s)) for s in self.game.board.neighbours[pos]
                if self.castle_at[s] >= 0 and self.roof[self.castle_at[s]] < 0
                and self.court[self.castle_at[s]] < 0]

    def can_mark(self: ShogunState, seat: int) -> bool:
        """Whether `seat` can put a court marker down: from the reserve, from the board
        (SHO-CLAIM-03), or the marker its current courtship gives back (SHO-CLAIM-04)."""
        return (self.reserve[seat] > 0 or seat in self.peasant
                or self.courted_castle(seat) >= 0)

    def restricted_actions(self: ShogunState) -> list[Any]:
        """Restricted actions of the active player's Hero or Court phase (SHO-TURN-06, -09)."""
        seat = self.active
        out: list[Any] = []
        held = [t for t in self.game.treasure_order if t in self.treasures[seat]]
        for t in held:
            if self.item_usable(t):
                out.append(UseTreasure(t))
        if not self.exchanged:
            out.extend(self.exchange_actions(seat, None))
        if self.courted_castle(seat) >= 0:
            out.append(ABANDON)
        out.extend(DiscardTreasure(t) for t in held)
        n = self.game.num_players
        for card in OutsidePlay.playable(self.table, seat, exclusive_free=not self.exclusive_used):
            if needs_opponent(self.game.catalogue[card].effects):
                out.extend(PlaySpecial(card, o) for o in range(n) if o != seat)
            else:
                out.append(PlaySpecial(card))
        return out

    def item_usable(self: ShogunState, t: str) -> bool:
        card = self.game.treasure[t]
        if card.is_monster or card.subtype != "restricted":
            return False
        if t == LETTER:
            return self.letter_usable()
        if card.attack_range:
            return not self.bow
        if card.clear:
            return any(self.table[self.active].piles.values())
        if card.move:
            return bool(self.move_targets(card.move, False))
        return False

    def letter_usable(self: ShogunState) -> bool:
        """The Imperial Letter is used at the start of the Court phase, before any decree
        (SHO-ITEM-01): while no decree was proclaimed and no court action taken. When a decree
        is coming, that moment is the `before_decree` step."""
        return (self.phase == "court" and self.decree is None and not self.decree_free
                and not self.court_used and self.court_allowed == 1)

    def exchange_actions(self: ShogunState, seat: int, opponent: int | None) -> list[Any]:
        """Give one prisoner of a colour for one own peasant the opponent holds
        (SHO-PRIS-02, -03); `opponent` fixed once an exchange has started."""
        out = []
        colours = self.game.colours
        for opp in range(self.game.num_players):
            if opp == seat or (opponent is not None and opp != opponent):
                continue
            if self.prisoners[opp][seat] <= 0:
                continue
            out.extend(Exchange(opp, colours[c]) for c, k in enumerate(self.prisoners[seat])
                       if k > 0)
        return out

    # -- applying --------------------------------------------------------------------------------

    def apply_turn(self: ShogunState, action: Any) -> None:
        seat = self.active
        holder = self.table[seat]
        if self.phase == "discard":
            if isinstance(action, Done):
                self.to_draw()
            else:
                holder.discard_from_hand(action.card)  # SHO-TURN-02
                if not holder.hand:
                    self.to_draw()
        elif self.phase == "cleanup":
            if isinstance(action, Done):
                self.to_movement()
            else:
                holder.clear_top(action.attribute)
                self.clears_left -= 1
                if self.clears_left <= 0 or not any(holder.piles.values()):
                    self.to_movement()
        elif self.phase == "movement":
            if isinstance(action, Move):
                self.move_hero(seat, self.game.board.index[action.space])
            self.to_hero()
        elif isinstance(action, Search):
            self.search()
        elif isinstance(action, Done):
            self.to_court()
        elif isinstance(action, Claim):
            self.claim(seat, self.game.board.index[action.space])
        elif isinstance(action, Attack):
            self.start_attack(action)
        else:
            self.apply_restricted(action)

    def apply_restricted(self: ShogunState, action: Any) -> None:
        seat = self.active
        if isinstance(action, UseTreasure):
            self.use_item(seat, action.treasure)
        elif isinstance(action, Exchange):
            self.exchange(seat, action)
        elif isinstance(action, Abandon):
            self.abandon(seat)
        elif isinstance(action, DiscardTreasure):
            self.return_treasure(seat, action.treasure)  # SHO-SHRINE-09
            self.event("treasure_discarded", seat)
        elif isinstance(action, PlaySpecial):
            play = OutsidePlay.start(self.table, seat, action.card,
                                     exclusive_free=not self.exclusive_used,
                                     opponent=action.opponent)
            self.event("special", seat, card=action.card)
            self.outside = play
            self.finish_outside()

    def finish_outside(self: ShogunState) -> None:
        play = self.outside
        if play is not None and play.is_over:
            if play.exclusive_used:
                self.exclusive_used = True
            self.outside = None

    def return_treasure(self: ShogunState, seat: int, t: str) -> None:
        """A treasure goes to the bottom of the treasure deck."""
        self.treasures[seat].remove(t)
        self.treasure_deck.append(t)

    def gain_treasure(self: ShogunState, seat: int, t: str) -> None:
        """Over 3 treasures, the holder returns one of their choice (SHO-SHRINE-08)."""
        self.treasures[seat].append(t)
        if len(self.treasures[seat]) > TREASURE_LIMIT:
            self.pending.insert(0, ("overflow", seat))

    def use_item(self: ShogunState, seat: int, t: str) -> None:
        """Items act at once and go to the bottom of the treasure deck; none uses the
        exclusive slot (SHO-ITEM-01, -04)."""
        card = self.game.treasure[t]
        self.return_treasure(seat, t)
        self.event("item", seat, treasure=t)
        if card.attack_range:
            self.bow = True
        elif card.clear:
            self.pending.insert(0, ("clear", seat, card.clear))
        elif card.move:
            self.pending.insert(0, ("sandals", seat))
        elif card.court_actions:
            self.court_allowed = card.court_actions
            self.decree_free = True

    def exchange(self: ShogunState, seat: int, action: Exchange) -> None:
        """One prisoner of the named colour for one own peasant (SHO-PRIS-03..06)."""
        opp = action.opponent
        colour = self.game.colours.index(action.colour)
        self.prisoners[seat][colour] -= 1
        self.prisoners[opp][seat] -= 1
        self.reserve[seat] += 1
        if colour == opp:
            self.reserve[opp] += 1
        else:
            self.prisoners[opp][colour] += 1
        self.exchanged = True
        self.event("exchange", seat, opponent=opp, colour=action.colour)
        if self.exchange_actions(seat, opp):
            self.pending.insert(0, ("exchange", seat, opp))

    def search(self: ShogunState) -> None:
        """SHO-SHRINE-01, -02, -05, -06: the marker goes to the player on the right, who
        relocates it; the searcher draws 2 treasures and keeps 1."""
        seat = self.active
        pos = self.hero_pos[seat]
        self.shrine[pos] = False
        self.exclusive_used = True
        self.must_search = False
        order = self.order
        right = order[(order.index(seat) - 1) % len(order)]
        drawn = tuple(self.take_treasure_card() for _ in range(min(2, len(self.treasure_deck))))
        self.event("search", seat, space=self.space_id(pos))
        steps: list[tuple] = [("relocate_shrine", right)]
        if drawn:
            steps.append(("keep", seat, drawn))
        steps.append(("searched", seat))
        self.pending[0:0] = steps

    def claim(self: ShogunState, seat: int, space: int) -> None:
        """SHO-CLAIM-01..04: a marker in the court, the top mission drawn; an earlier
        courtship is abandoned first."""
        self.exclusive_used = True
        if self.courted_castle(seat) >= 0:
            self.abandon(seat)
        c = self.castle_at[space]
        self.mission[seat] = self.take_mission_card()
        self.event("claim", seat, space=self.space_id(space))
        self.place_marker(seat, c)

    def place_marker(self: ShogunState, seat: int, c: int) -> None:
        if self.reserve[seat] > 0:
            self.reserve[seat] -= 1
            self.court[c] = seat
        else:
            self.pending.insert(0, ("take_peasant", seat, c))

    def abandon(self: ShogunState, seat: int) -> None:
        """The mission to the bottom of its deck, the marker back to the reserve
        (SHO-CLAIM-09)."""
        c = self.courted_castle(seat)
        self.court[c] = -1
        self.reserve[seat] += 1
        mission = self.mission[seat]
        if mission is not None:
            self.mission_deck.append(mission)
        self.mission[seat] = None
        self.event("abandon", seat, space=self.space_id(self.castle_space[c]))

    # -- error messages --------------------------------------------------------------------------

    def explain(self: ShogunState, action: Any, name: str) -> str:
        who = self.colour(self.active)
        phase = self.phase
        if phase in SETUP_PHASES:
            return (f"{name} is not legal now: the set-up is at the {phase} step and "
                    f"{who} must choose among the listed options (SHO-SETUP)")
        where = f"{who}'s {PHASE_NAMES.get(phase, phase)} phase"
        if isinstance(action, Move):
            if phase not in ("movement", "court"):
                return (f"the hero cannot move in {where}: moves belong to the Movement phase, "
                        "the Court phase or an item (SHO-TURN-01, SHO-MOVE-01)")
            return (f"the hero cannot end a move on {action.space}: at most 3 points, through "
                    "empty spaces or own peasants, never onto a castle, a hero, another "
                    "player's peasant or an own peasant (SHO-MOVE-01..07)")
        if isinstance(action, Claim):
            if self.exclusive_used:
                return "the exclusive slot is already used this turn (SHO-TURN-08)"
            return (f"{action.space} cannot be claimed: the hero must stand next to a castle "
                    "with neither roof lord nor court marker (SHO-CLAIM-01, -12, SHO-MOVE-08)")
        if isinstance(action, Attack):
            return (f"attack on {action.space} with {action.opening} refused: the target must be "
                    "an opposing hero, ordinary peasant or courted castle in range, and the "
                    "opening an affordable basic attack or a held monster, exclusive only with "
                    "the slot free (SHO-ATK-01, -02, -12, -15, SHO-DUEL-07, SHO-TURN-08)")
        if isinstance(action, (Recruit, Reorganise, Convert, Decree)):
            if phase != "court":
                return f"court actions are taken in the Court phase, not in {where} (SHO-TURN-10)"
            return (f"{name} is not legal now: check the decree, the court actions already "
                    "taken and the rule of that action (SHO-TURN-10, SHO-EMP-03, SHO-RECR, "
                    "SHO-CONV, SHO-REORG)")
        if isinstance(action, UseTreasure):
            return (f"{action.treasure} cannot be used now: items are used in one's own Hero or "
                    "Court phase, scoring items never (SHO-ITEM-01..03)")
        if isinstance(action, Exchange):
            return ("no such exchange: one exchange per turn, giving a prisoner you hold for "
                    "one of your own peasants the opponent holds (SHO-PRIS-02, -03)")
        return f"{name} is not legal in {where}"
