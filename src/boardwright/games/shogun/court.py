"""The Court phase (SHO-TURN-10, SHO-RECR, SHO-REORG, SHO-EMP), the end of a turn and the
missions (SHO-CLAIM-05..07).

The court actions are recruit, move, convert and reorganise; one per Court phase, two
different ones with the Imperial Letter, only the decreed one under a decree. A turn ends
with the holder's state missions checked, then the next player clockwise; the round cap
(`max_rounds`) is applied after the last player's turn of a round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.games.shogun.actions import (
    COURT_KINDS, DONE, Convert, Done, Move, Recruit, Reorganise,
)
from boardwright.games.shogun.network import cut_off
from boardwright.games.shogun.mission_goals import progress

if TYPE_CHECKING:
    from boardwright.games.shogun.state import ShogunState

REORGANISE_MAX = 3  # SHO-REORG-01
RECRUIT_MAX = 2  # SHO-RECR-01


class CourtRules:
    """Court phase, end of turn and missions of `ShogunState` (mixed into it)."""

    # -- what may be done ------------------------------------------------------------------------

    def court_kinds(self: ShogunState) -> list[str]:
        """Court actions still open (SHO-TURN-10, SHO-EMP-03, -05, SHO-ITEM letter); a
        refused reorganisation is not offered again in the same Court phase (SHO-REORG-03)."""
        if len(self.court_used) >= self.court_allowed:
            return []
        return [k for k in COURT_KINDS if k not in self.court_used
                and not (k == "reorganise" and self.reorganise_refused)
                and (self.decree is None or self.decree_free or k == self.decree)]

    def kind_actions(self: ShogunState, kind: str) -> list[Any]:
        seat = self.active
        ids = self.game.board.ids
        if kind == "recruit":
            if self.reserve[seat] <= 0:
                return []
            return [Recruit(ids[s]) for s in self.recruit_spaces(seat)]
        if kind == "move":
            return [Move(ids[s]) for s in sorted(self.move_targets(3, False))]
        if kind == "convert":
            return self.convert_actions()
        return [Reorganise(ids[a]) for a in self.reorganise_sources(seat, ())]

    def court_actions(self: ShogunState) -> list[Any]:
        out: list[Any] = []
        for kind in self.court_kinds():
            out.extend(self.kind_actions(kind))
        out.extend(self.restricted_actions())
        out.append(DONE)
        return out

    def network_spaces(self: ShogunState, seat: int, skip: int = -1) -> list[int]:
        """Own ordinary peasants and own controlled castles (SHO-RECR-02, -05)."""
        out = [s for s, owner in enumerate(self.peasant) if owner == seat and s != skip]
        out.extend(self.castles_of(seat))
        return out

    def recruit_spaces(self: ShogunState, seat: int) -> list[int]:
        """Empty spaces next to the recruiter's network (SHO-RECR-02, SHO-BOARD-04)."""
        empty = self.empty()
        near = self.game.board.neighbours
        out: set[int] = set()
        for s in self.network_spaces(seat):
            out.update(n for n in near[s] if empty[n])
        return sorted(out)

    def reorganise_moves(self: ShogunState, seat: int, done: tuple) -> list[tuple[int, int]]:
        """Moves of one ordinary peasant to an empty space next to the rest of the network
        (SHO-REORG-01, -02, -04). A peasant moves once per reorganisation; a destination must
        touch the network as it stands, which loses no final arrangement (the moves can always
        be made nearest-first)."""
        if len(done) >= REORGANISE_MAX:
            return []
        moved = {b for _, b in done}
        empty = self.empty()
        near = self.game.board.neighbours
        out = []
        for src, owner in enumerate(self.peasant):
            if owner != seat or src in moved:
                continue
            targets: set[int] = set()
            for s in self.network_spaces(seat, skip=src):
                targets.update(n for n in near[s] if empty[n])
            out.extend((src, t) for t in sorted(targets))
        return out

    def reorganise_sources(self: ShogunState, seat: int, done: tuple) -> list[int]:
        """Peasants that can still be reorganised (each once, SHO-REORG-01)."""
        return sorted({a for a, _ in self.reorganise_moves(seat, done)})

    def all_connected(self: ShogunState, seat: int) -> bool:
        return not cut_off(self.game.board.neighbours, self.peasant, seat, self.castles_of(seat))

    # -- applying --------------------------------------------------------------------------------

    def apply_court(self: ShogunState, action: Any) -> None:
        seat = self.active
        board = self.game.board
        if isinstance(action, Done):
            self.end_turn()
        elif isinstance(action, Recruit):
            self.court_used.append("recruit")
            self.recruit(seat, board.index[action.space], RECRUIT_MAX - 1)
        elif isinstance(action, Move):
            self.court_used.append("move")
            self.move_hero(seat, board.index[action.space])  # SHO-MOVE-02
        elif isinstance(action, Convert):
            self.court_used.append("convert")
            self.start_conversion(action)
        elif isinstance(action, Reorganise):
            self.court_used.append("reorganise")
            self.pending.insert(0, ("reorganise_to", seat, board.index[action.source], ()))
        else:
            self.apply_restricted(action)

    def recruit(self: ShogunState, seat: int, s: int, left: int) -> None:
        self.reserve[seat] -= 1
        self.peasant[s] = seat
        self.touch()
        self.event("recruit", seat, space=self.space_id(s))
        if left > 0 and self.reserve[seat] > 0 and self.recruit_spaces(seat):
            self.pending.insert(0, ("recruit", seat, left - 1))

    def reorganise(self: ShogunState, seat: int, a: int, b: int, done: tuple) -> None:
        """One peasant of a reorganisation moves; the next step offers more, `done` or
        cancelling."""
        self.peasant[a] = -1
        self.peasant[b] = seat
        self.touch()
        self.event("reorganise", seat, source=self.space_id(a), space=self.space_id(b))
        self.pending.insert(0, ("reorganise", seat, done + ((a, b),)))

    def cancel_reorganise(self: ShogunState, seat: int, done: tuple) -> None:
        """Take every move back: the reorganisation is refused rather than cutting a
        peasant off (SHO-REORG-03), and a refused action is no action: the court action is
        still to be taken. Reorganising is not offered again this Court phase, so a turn
        cannot go round in circles."""
        for a, b in reversed(done):
            self.peasant[b] = -1
            self.peasant[a] = seat
        self.touch()
        self.court_used.remove("reorganise")
        self.reorganise_refused = True
        self.event("reorganise_cancelled", seat)

    # -- the decree ------------------------------------------------------------------------------

    def court_decree(self: ShogunState) -> None:
        """SHO-EMP-02, -07, -08: the emperor of this moment decrees, unless it is their own
        turn or the Imperial Letter frees the player."""
        emperor = self.emperor()
        if emperor < 0 or emperor == self.active or self.decree_free:
            return
        self.pending[0:0] = [("decree", emperor), ("defy_check", self.active)]

    def decree_check(self: ShogunState) -> None:
        """An impossible decree leaves no court action (SHO-EMP-04): the player passes it, but
        the Court phase still allows the restricted actions (SHO-TURN-09), so the turn ends by
        the player's own `done`. (`court_kinds` already offers nothing else.)"""
        if self.decree is None or self.decree_free:
            return
        if not self.kind_actions(self.decree):
            self.event("decree_impossible", self.active, kind=self.decree)

    # -- end of turn -----------------------------------------------------------------------------

    def end_turn(self: ShogunState) -> None:
        seat = self.active
        self.check_state_mission(seat)  # SHO-CLAIM-06
        self.pending.append(("next_turn", seat))

    def next_turn(self: ShogunState) -> None:
        if self.shrine_aside and any(self.empty()):  # a marker set aside (SHO-SHRINE-04)
            self.pending.insert(0, ("relocate_shrine", self.shrine_aside.pop(0)))
            self.pending.insert(1, ("next_turn", self.active))
            return
        n = len(self.order)
        index = self.order.index(self.active)
        if index == n - 1:
            cap = self.game.config.max_rounds
            if cap is not None and self.round >= cap:
                self.finish_by_rounds()
                return
            self.round += 1
        self.start_turn(self.order[(index + 1) % n])  # SHO-TURN-13

    # -- missions --------------------------------------------------------------------------------

    def mission_met(self: ShogunState, seat: int) -> bool:
        """The held state mission's condition, as it reads at the courted castle
        (mission_goals: m1 asks no more peasants than the castle has neighbours)."""
        found = progress(self, seat)
        return found is not None and found.met

    def check_state_mission(self: ShogunState, seat: int) -> None:
        m = self.mission[seat]
        if m is not None and self.game.mission[m].check == "state" and self.mission_met(seat):
            self.complete_mission(seat)

    def mission_event(self: ShogunState, seat: int, goal: str) -> None:
        """An event mission completes when its event happens (SHO-CLAIM-06)."""
        m = self.mission[seat]
        if m is not None and self.game.mission[m].goal == goal \
                and self.courted_castle(seat) >= 0:
            self.complete_mission(seat)

    def complete_mission(self: ShogunState, seat: int) -> None:
        """SHO-CLAIM-05, -07: the court marker goes to the roof, the card to the bottom."""
        c = self.courted_castle(seat)
        m = self.mission[seat]
        assert m is not None
        self.court[c] = -1
        self.roof[c] = seat
        self.mission[seat] = None
        self.mission_deck.append(m)
        self.touch()
        self.event("mission_completed", seat, mission=m,
                   space=self.space_id(self.castle_space[c]))
        if self.game.mission[m].gift and self.treasures[seat]:
            self.pending.insert(0, ("gift", seat))
