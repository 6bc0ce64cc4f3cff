"""Waiting steps: the choices a rule asks of one player in the middle of a turn, and the
automatic steps queued between them.

A step is a tuple `(kind, seat, *payload)` in `ShogunState.pending`; the first one decides
who acts. Automatic kinds run in `advance()` as soon as they reach the front; a choice with no
option left is dropped (a shrine with no empty space is set aside, SHO-SHRINE-04).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.games.shogun.actions import (
    CANCEL_REORGANISE, COURT_KINDS, DONE, TAKE_TREASURE, CancelReorganise, ClearPile,
    ConvertPick, Decree, Defy, Done, Exchange, KeepTreasure, Kill, Move, Recruit, RelocateHero,
    RelocateShrine, PlacePeasant, Reorganise, ReturnTreasure, TakePeasant, TakeTreasure,
    UseTreasure,
)
from boardwright.games.shogun.placement import relocation_spaces, shrine_spaces
from boardwright.games.shogun.turn import LETTER

if TYPE_CHECKING:
    from boardwright.games.shogun.state import ShogunState, Step

AUTOMATIC = frozenset(("searched", "court_decree", "defy_check", "decree_check", "next_turn",
                       "cutoffs"))


class StepRules:
    """Waiting steps of `ShogunState` (mixed into it)."""

    def ordered_treasures(self: ShogunState, held: Any) -> list[str]:
        return [t for t in self.game.treasure_order if t in held]

    def relocation_candidates(self: ShogunState) -> list[int]:
        """SHO-SHRINE-03, -04: empty, 2 or more from Heian and from every piece."""
        away = [s for s in range(len(self.game.board))
                if self.castle_at[s] >= 0 or self.shrine[s] or self.hero_at[s] >= 0
                or self.peasant[s] >= 0]
        return shrine_spaces(self.game.board, away, self.empty())

    def pending_actions(self: ShogunState, step: Step) -> list[Any]:
        kind, seat = step[0], step[1]
        ids = self.game.board.ids
        if kind == "keep":
            return [KeepTreasure(t) for t in self.ordered_treasures(step[2])]
        if kind in ("overflow", "gift"):
            return [ReturnTreasure(t) for t in self.ordered_treasures(self.treasures[seat])]
        if kind == "relocate_shrine":
            return [RelocateShrine(ids[s]) for s in self.relocation_candidates()]
        if kind == "free_move":
            return ([Move(ids[step[2]])] if self.empty()[step[2]] else []) + [DONE]
        if kind == "theft":
            return [TAKE_TREASURE, DONE] if self.treasures[step[2]] else []
        if kind == "relocate_hero":
            spaces = relocation_spaces(self.game.board, self.castles_of(step[2]), self.empty())
            return [RelocateHero(ids[s]) for s in spaces] + [DONE]
        if kind == "take_peasant":
            return [TakePeasant(ids[s]) for s, o in enumerate(self.peasant) if o == seat]
        if kind == "kill":
            return [Kill(ids[s]) for s in self.game.board.neighbours[step[3]]
                    if self.peasant[s] == step[2]]
        if kind == "convert_pick":
            owner = step[2]
            return [ConvertPick(ids[s]) for s in step[3]
                    if self.peasant[s] == owner or (self.castle_at[s] >= 0
                                                    and self.roof[self.castle_at[s]] == owner)]
        if kind == "recruit":
            if self.reserve[seat] <= 0:
                return [DONE]
            return [Recruit(ids[s]) for s in self.recruit_spaces(seat)] + [DONE]
        if kind == "reorganise":
            out: list[Any] = [Reorganise(ids[a]) for a in self.reorganise_sources(seat, step[2])]
            if self.all_connected(seat):
                out.append(DONE)
            out.append(CANCEL_REORGANISE)
            return out
        if kind == "reorganise_to":
            return [PlacePeasant(ids[b]) for a, b in self.reorganise_moves(seat, step[3])
                    if a == step[2]] + [CANCEL_REORGANISE]
        if kind == "exchange":
            return self.exchange_actions(seat, step[2]) + [DONE]
        if kind == "clear":
            return [ClearPile(a) for a, pile in self.table[seat].piles.items() if pile] + [DONE]
        if kind == "sandals":
            return [Move(ids[s]) for s in sorted(self.move_targets(3, False))] + [DONE]
        if kind == "before_decree":
            letter = LETTER in self.treasures[seat] and self.letter_usable()
            return [UseTreasure(LETTER), DONE] if letter else [DONE]
        if kind == "decree":
            return [Decree(k) for k in COURT_KINDS]
        if kind == "defy":
            return [Defy(t) for t in self.ordered_treasures(self.treasures[seat])] + [DONE]
        raise AssertionError(f"unknown step {kind!r}")

    def apply_pending(self: ShogunState, step: Step, action: Any) -> None:
        kind, seat = step[0], step[1]
        board = self.game.board
        if kind == "keep":
            drawn = list(step[2])
            drawn.remove(action.treasure)
            self.treasure_deck.extend(drawn)  # the other to the bottom (SHO-SHRINE-05)
            self.gain_treasure(seat, action.treasure)
        elif kind in ("overflow", "gift"):
            self.return_treasure(seat, action.treasure)
            self.event("treasure_returned", seat)
        elif kind == "relocate_shrine":
            self.shrine[board.index[action.space]] = True
            self.event("shrine_relocated", seat, space=action.space)
        elif kind == "free_move":
            if isinstance(action, Move):
                self.move_hero(seat, board.index[action.space], "free_move")  # SHO-ATK-06
        elif kind == "theft":
            if isinstance(action, TakeTreasure):
                self.take_treasure(seat, step[2])  # SHO-ATK-07
            else:
                self.event("treasure_left", seat, source=step[2])
        elif kind == "relocate_hero":
            if isinstance(action, RelocateHero):
                self.move_hero(step[2], board.index[action.space], by=seat)  # SHO-ATK-08
        elif kind == "take_peasant":
            s = board.index[action.space]
            self.peasant[s] = -1
            self.court[step[2]] = seat
            self.touch()
            self.cutoffs()  # SHO-CLAIM-03
        elif kind == "kill":
            self.remove_peasant(board.index[action.space], to_reserve=True)
        elif kind == "convert_pick":
            self.convert_one(seat, board.index[action.space])
            left = step[4] - 1
            if left > 0 and self.reserve[seat] > 0:
                rest = tuple(s for s in step[3] if s != board.index[action.space])
                self.pending.insert(0, ("convert_pick", seat, step[2], rest, left))
        elif kind == "recruit":
            if isinstance(action, Recruit):
                self.recruit(seat, board.index[action.space], step[2])
        elif kind == "reorganise":
            if isinstance(action, Reorganise):
                self.pending.insert(0, ("reorganise_to", seat, board.index[action.source],
                                        step[2]))
            elif isinstance(action, CancelReorganise):
                self.cancel_reorganise(seat, step[2])
        elif kind == "reorganise_to":
            if isinstance(action, PlacePeasant):
                self.reorganise(seat, step[2], board.index[action.space], step[3])
            else:
                self.cancel_reorganise(seat, step[3])
        elif kind == "exchange":
            if isinstance(action, Exchange):
                self.exchange(seat, action)
        elif kind == "clear":
            if isinstance(action, ClearPile):
                self.table[seat].clear_top(action.attribute)
                if step[2] > 1:
                    self.pending.insert(0, ("clear", seat, step[2] - 1))
        elif kind == "sandals":
            if isinstance(action, Move):
                self.move_hero(seat, board.index[action.space], "sandals")
        elif kind == "before_decree":
            if isinstance(action, UseTreasure):
                self.use_item(seat, action.treasure)
        elif kind == "decree":
            self.decree = action.kind
            self.event("decree", seat, kind=action.kind)
        elif kind == "defy":
            if isinstance(action, Defy):
                self.return_treasure(seat, action.treasure)  # SHO-EMP-05
                self.decree_free = True
                self.event("defy", seat)
            else:
                assert isinstance(action, Done)

    def run_automatic(self: ShogunState, step: Step) -> None:
        kind, seat = step[0], step[1]
        if kind == "searched":
            self.mission_event(seat, "shrine_searched")  # m4
        elif kind == "court_decree":
            self.court_decree()
        elif kind == "defy_check":
            if self.treasures[seat]:
                self.pending.insert(0, ("defy", seat))
            self.pending.insert(1 if self.treasures[seat] else 0, ("decree_check", seat))
        elif kind == "decree_check":
            self.decree_check()
        elif kind == "cutoffs":
            self.cutoffs()
        elif kind == "next_turn":
            self.next_turn()

    def advance(self: ShogunState) -> None:
        """Run automatic steps and drop choices that have no option left."""
        while not self.over and self.duel is None and self.outside is None and self.pending:
            step = self.pending[0]
            if step[0] in AUTOMATIC:
                self.pending.pop(0)
                self.run_automatic(step)
                continue
            if not self.pending_actions(step):
                self.pending.pop(0)
                if step[0] == "relocate_shrine":
                    self.shrine_aside.append(step[1])  # no empty space (SHO-SHRINE-04)
                continue
            break
