"""Victory points and the end of a Rise of the Shogun game.

A seat scores 4 per castle it controls, 1 per peasant in its chain, 1 per prisoner and the
points of its scoring treasures (SHO-SCORE-01); chain points are counted on demand and kept
until the board changes (`touch`). The game ends as soon as someone reaches the threshold
(SHO-SCORE-02..05), or at the round or decision cap (SHO-SCORE-08, -09).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from boardwright.games.shogun.network import chain_spaces, chain_vp

if TYPE_CHECKING:
    from boardwright.games.shogun.state import ShogunState

NOBODY = -1  # no seat: an empty space, no emperor, an event of the whole table
CASTLE_VP = 4  # SHO-SCORE-01


class ScoringRules:
    """Victory points and the end of the game of `ShogunState` (mixed into it)."""

    # -- pieces and points -----------------------------------------------------------------------

    def castles_of(self: ShogunState, seat: int) -> list[int]:
        """Spaces of the castles `seat` controls (roof lord of its colour)."""
        return [self.castle_space[c] for c, owner in enumerate(self.roof) if owner == seat]

    def castle_count(self: ShogunState, seat: int) -> int:
        return sum(1 for owner in self.roof if owner == seat)

    def prisoner_count(self: ShogunState, seat: int) -> int:
        return sum(self.prisoners[seat])

    def chain_points(self: ShogunState, seat: int) -> int:
        cached = self.chain_cache[seat]
        if cached is None:
            cached = chain_vp(self.game.board.neighbours, self.peasant, seat,
                              self.castles_of(seat))
            self.chain_cache[seat] = cached
        return cached

    def treasure_vp(self: ShogunState, seat: int) -> int:
        total = 0
        for t in self.treasures[seat]:
            card = self.game.treasure[t]
            total += card.vp + card.vp_per_castle * self.castle_count(seat)
        return total

    def vp(self: ShogunState, seat: int) -> int:
        """4 per castle, 1 per chain peasant, 1 per prisoner, plus scoring treasures
        (SHO-SCORE-01)."""
        return (CASTLE_VP * self.castle_count(seat) + self.chain_points(seat)
                + self.prisoner_count(seat) + self.treasure_vp(seat))

    def score_parts(self: ShogunState, seat: int, open_treasures: bool) -> dict[str, Any]:
        """The VP of `seat` by source (SHO-SCORE-01): castles (4 each), the chain peasants
        (1 each, their spaces for the table to mark), prisoners (1 each) and scoring treasures
        (None while they are face down to the viewer); `total` adds what is shown."""
        ids = self.game.board.ids
        castles = self.castle_count(seat)
        spaces = chain_spaces(self.game.board.neighbours, self.peasant, seat,
                              self.castles_of(seat))
        parts: dict[str, Any] = {
            "castles": CASTLE_VP * castles, "castle_count": castles,
            "chains": self.chain_points(seat), "chain_spaces": sorted(ids[s] for s in spaces),
            "prisoners": self.prisoner_count(seat),
            "treasures": self.treasure_vp(seat) if open_treasures else None,
        }
        parts["total"] = self.vp(seat) if open_treasures else self.public_vp(seat)
        return parts

    def public_vp(self: ShogunState, seat: int) -> int:
        """VP without face-down scoring treasures: what the other players can count."""
        return self.vp(seat) - self.treasure_vp(seat)

    def touch(self: ShogunState) -> None:
        """The board changed: chain points must be counted again."""
        self.chain_cache = [None] * self.game.num_players

    # -- the end -------------------------------------------------------------------------------

    def check_victory(self: ShogunState) -> None:
        """End the game as soon as someone reaches the threshold (SHO-SCORE-02..05)."""
        threshold = self.game.config.threshold
        vps = self.scores
        reached = [s for s, v in enumerate(vps) if v >= threshold]
        if not reached:
            return
        best = max(vps[s] for s in reached)
        tied = [s for s in reached if vps[s] == best]
        if len(tied) > 1:
            if self.active in tied:
                tied = [self.active]
            else:
                n = self.game.num_players
                ahead = [self.order[(self.order.index(self.active) + k) % n] for k in range(1, n)]
                tied = [next(s for s in ahead if s in tied)]
        self.finish(tied, "threshold")

    def finish(self: ShogunState, winners: Iterable[int], reason: str) -> None:
        self.over = True
        self.winners = sorted(winners)
        self.end_reason = reason
        self.duel = None
        self.outside = None
        self.pending = []
        self.legal_cache = None
        self.event("game_over", NOBODY, winners=self.winners, reason=reason)

    def finish_by_rounds(self: ShogunState, reason: str = "max_rounds") -> None:
        """The round cap: most VP, then castles, then prisoners, else a shared win
        (SHO-SCORE-08); the decision cap ends the same way (SHO-SCORE-09)."""
        keys = [(self.vp(s), self.castle_count(s), self.prisoner_count(s))
                for s in range(self.game.num_players)]
        best = max(keys)
        self.finish([s for s, k in enumerate(keys) if k == best], reason)
