"""Attacks and their outcomes (SHO-ATK, SHO-MON, SHO-CONV-02..08): declaring them as duels of
the duel package, and applying the board consequences once a duel is over.

A hero attack names a target space and an opening (a basic attack card of the hand, or a held
monster). The duel's own decisions then follow through `legal_actions()`; its outcome is read
here: captures and the cut-offs that go with them, kills, theft of a mission, treasure theft
and relocation of a beaten hero, conversions.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from boardwright.duel import Duel, DuelItem, DuelTarget, TargetKind
from boardwright.games.shogun.actions import Attack, Convert
from boardwright.games.shogun.network import cut_off

if TYPE_CHECKING:
    from boardwright.games.shogun.state import ShogunState

BOW_RANGE = 2  # SHO-ATK-02, Great Bow


class CombatRules:
    """Attacks of `ShogunState` (mixed into it)."""

    # -- targets ---------------------------------------------------------------------------------

    def hero_target(self: ShogunState, seat: int, s: int) -> TargetKind | None:
        """What a hero attack on space `s` would hit (SHO-ATK-01, -12, -15)."""
        if self.hero_at[s] >= 0 and self.hero_at[s] != seat:
            return TargetKind.HERO
        if self.peasant[s] >= 0 and self.peasant[s] != seat:
            return TargetKind.PEASANT
        c = self.castle_at[s]
        if c >= 0 and self.roof[c] < 0 and self.court[c] >= 0 and self.court[c] != seat \
                and self.can_mark(seat):
            return TargetKind.COURTED_CASTLE
        return None

    def monster_target(self: ShogunState, seat: int, s: int, targets: tuple[str, ...]) -> TargetKind | None:
        """What a monster may hit on `s`: never a lord marker (SHO-MON-07, -08)."""
        if "hero" in targets and self.hero_at[s] >= 0 and self.hero_at[s] != seat:
            return TargetKind.HERO
        if "peasant" in targets and self.peasant[s] >= 0 and self.peasant[s] != seat:
            return TargetKind.PEASANT
        c = self.castle_at[s]
        if "controlled_castle" in targets and c >= 0 and self.roof[c] >= 0 \
                and self.roof[c] != seat:
            return TargetKind.CONTROLLED_CASTLE
        return None

    def defender_of(self: ShogunState, kind: TargetKind, s: int) -> int:
        if kind is TargetKind.HERO:
            return self.hero_at[s]
        if kind is TargetKind.PEASANT:
            return self.peasant[s]
        c = self.castle_at[s]
        if kind is TargetKind.COURTED_CASTLE:
            return self.court[c]
        if kind is TargetKind.CONVERSION and c >= 0:
            return self.roof[c]
        if kind is TargetKind.CONVERSION:
            return self.peasant[s]
        return self.roof[c]

    def attack_actions(self: ShogunState) -> list[Any]:
        """Hero attacks and monster summons of the active player (SHO-ATK-01..03,
        SHO-MON-01, -02, SHO-DUEL-07)."""
        seat = self.active
        pos = self.hero_pos[seat]
        if pos < 0:
            return []
        game = self.game
        ids = game.board.ids
        slot = not self.exclusive_used
        out: list[Any] = []
        cards = Duel.openings(self.table, seat, exclusive_free=slot)
        if cards:
            reach = BOW_RANGE if self.bow else 1
            for s in game.near[reach][pos]:
                if self.hero_target(seat, s) is not None:
                    out.extend(Attack(ids[s], c) for c in cards)
        if slot:
            for t in game.treasure_order:
                if t not in self.treasures[seat]:
                    continue
                card = game.treasure[t]
                if not card.is_monster:
                    continue
                reach = max(card.range, BOW_RANGE if self.bow else 1)
                for s in game.near[reach][pos]:
                    if self.monster_target(seat, s, card.targets) is not None:
                        out.append(Attack(ids[s], t))
        return out

    def convert_actions(self: ShogunState) -> list[Any]:
        """Conversions: an own ordinary peasant against an adjacent peasant of another colour
        or a castle another player controls, with any basic attack (SHO-CONV-01, -09, -10,
        SHO-DUEL-28)."""
        seat = self.active
        if self.reserve[seat] < 1:
            return []
        cards = Duel.openings(self.table, seat, conversion=True)
        if not cards:
            return []
        ids = self.game.board.ids
        out: list[Any] = []
        for src, owner in enumerate(self.peasant):
            if owner != seat:
                continue
            for t in self.game.board.neighbours[src]:
                c = self.castle_at[t]
                if (self.peasant[t] >= 0 and self.peasant[t] != seat) or (
                        c >= 0 and self.roof[c] >= 0 and self.roof[c] != seat):
                    out.extend(Convert(ids[src], ids[t], card) for card in cards)
        return out

    def duel_items(self: ShogunState, *seats: int) -> dict[int, list[DuelItem]]:
        out: dict[int, list[DuelItem]] = {}
        for seat in seats:
            items = [self.game.treasure[t].duel_item() for t in self.treasures[seat]]
            out[seat] = [i for i in items if i is not None]
        return out

    # -- declaring -------------------------------------------------------------------------------

    def start_attack(self: ShogunState, action: Attack) -> None:
        seat = self.active
        s = self.game.board.index[action.space]
        monster = self.game.treasure.get(action.opening)
        if monster is not None:
            kind = self.monster_target(seat, s, monster.targets)
            self.treasures[seat].remove(action.opening)
            opening: Any = monster.as_monster()
        else:
            kind = self.hero_target(seat, s)
            opening = action.opening
        assert kind is not None
        defender = self.defender_of(kind, s)
        self.event("attack", seat, space=action.space, target=kind.value, defender=defender,
                   opening=action.opening)
        self.duel_ctx = ("attack", s, action.opening if monster is not None else None, -1)
        self.duel = Duel.begin(self.table, seat, defender, opening,
                               DuelTarget(kind, action.space),
                               exclusive_free=not self.exclusive_used,
                               items=self.duel_items(seat, defender))

    def start_conversion(self: ShogunState, action: Convert) -> None:
        seat = self.active
        board = self.game.board
        src, t = board.index[action.source], board.index[action.target]
        defender = self.defender_of(TargetKind.CONVERSION, t)
        self.event("convert", seat, source=action.source, space=action.target,
                   defender=defender)
        self.duel_ctx = ("convert", t, None, src)
        self.duel = Duel.conversion_duel(self.table, seat, defender, action.card,
                                         space=action.target,
                                         exclusive_free=not self.exclusive_used,
                                         items=self.duel_items(seat, defender))

    # -- outcomes --------------------------------------------------------------------------------

    def duel_over(self: ShogunState) -> None:
        duel = self.duel
        assert duel is not None and duel.outcome is not None
        out = duel.outcome
        self.duel = None
        _, space, monster, _src = self.duel_ctx
        self.duel_ctx = ()
        if out.exclusive_used:
            self.exclusive_used = True
        for seat, item in out.items_used:
            if item in self.treasures[seat]:
                self.treasures[seat].remove(item)
        self.treasure_deck.extend(out.returned_treasures)  # SHO-MON-06, SHO-ITEM-01
        self.event("duel", out.attacker, defender=out.defender, success=out.success,
                   attack=out.attack_total, block=out.block_total,
                   space=self.space_id(space))
        if not out.success:
            return  # a failed attack changes nothing on the board (SHO-ATK-14, SHO-CONV-11)
        attacker, defender = out.attacker, out.defender
        kind = out.target.kind
        card = self.game.treasure[monster] if monster is not None else None
        if kind is TargetKind.HERO:
            self.beat_hero(attacker, defender, card)
        elif kind is TargetKind.PEASANT:
            if card is None:
                self.capture(attacker, defender, space)
            else:
                self.kill_peasant(attacker, defender, space, card)
        elif kind is TargetKind.COURTED_CASTLE:
            self.steal(attacker, defender, space)
        elif kind is TargetKind.CONTROLLED_CASTLE:
            for near in self.game.board.neighbours[space]:  # Orochi (SHO-MON-08)
                if self.peasant[near] == defender:
                    self.remove_peasant(near, to_reserve=True)
            self.cutoffs()
        else:
            self.convert_success(attacker, defender, space)

    def remove_peasant(self: ShogunState, s: int, to_reserve: bool, captor: int = -1) -> None:
        owner = self.peasant[s]
        self.peasant[s] = -1
        if to_reserve:
            self.reserve[owner] += 1
        else:
            self.prisoners[captor][owner] += 1
        self.touch()

    def cutoffs(self: ShogunState, captor: int = -1, victim: int = -1) -> None:
        """Remove every ordinary peasant that lost its connection (SHO-RECR-04, -08): captured
        by the attacker after a hero capture (SHO-ATK-05), to the reserve otherwise."""
        board = self.game.board
        for seat in range(self.game.num_players):
            lost = cut_off(board.neighbours, self.peasant, seat, self.castles_of(seat))
            for s in lost:
                captured = seat == victim and captor >= 0
                self.remove_peasant(s, to_reserve=not captured, captor=captor)
            if lost:
                self.event("cut_off", seat, spaces=[board.ids[s] for s in lost],
                           captured_by=captor if seat == victim else -1)

    def capture(self: ShogunState, attacker: int, defender: int, s: int) -> None:
        """A hero beats a peasant: prisoner, cut-offs captured too, optional free move
        (SHO-ATK-04..06)."""
        self.remove_peasant(s, to_reserve=False, captor=attacker)
        self.event("capture", attacker, space=self.space_id(s), colour=defender)
        self.cutoffs(captor=attacker, victim=defender)
        if self.game.board.dist[self.hero_pos[attacker]][s] == 1:
            self.pending.append(("free_move", attacker, s))

    def kill_peasant(self: ShogunState, attacker: int, defender: int, s: int, card: Any) -> None:
        """A monster kills: back to the reserve, no prisoner (SHO-MON-04, -05, -10)."""
        self.remove_peasant(s, to_reserve=True)
        self.event("kill", attacker, space=self.space_id(s), colour=defender)
        if card.ability == "kill_one_adjacent":
            self.pending.append(("kill", attacker, defender, s))
            self.pending.append(("cutoffs", attacker))
            return
        self.cutoffs()
        if card.ability == "free_move" and self.game.board.dist[self.hero_pos[attacker]][s] == 1:
            self.pending.append(("free_move", attacker, s))

    def beat_hero(self: ShogunState, winner: int, loser: int, card: Any) -> None:
        """SHO-ATK-07, -08, -09, SHO-MON-09: the winner may take a random treasure (the
        `theft` step) and relocate the hero next to one of the loser's castles; Raiju's
        discards; mission m3."""
        if card is not None and card.discards:
            self.table[loser].discard_random(card.discards, self.rng)
        if self.treasures[loser]:
            self.pending.append(("theft", winner, loser))
        if self.castles_of(loser):
            self.pending.append(("relocate_hero", winner, loser))
        self.mission_event(winner, "hero_beaten")

    def take_treasure(self: ShogunState, winner: int, loser: int) -> None:
        """One of the loser's treasures, drawn at random and kept face down: the others learn
        only that a treasure changed hands (SHO-ATK-07); the limit of 3 then applies."""
        held = self.treasures[loser]
        rng = self.rng
        t = held.pop(rng.randrange(len(held)) if type(rng) is random.Random
                     else rng.pick_treasure(held))  # type: ignore[attr-defined]
        self.event("treasure_taken", winner, source=loser)
        self.gain_treasure(winner, t)

    def steal(self: ShogunState, attacker: int, defender: int, s: int) -> None:
        """SHO-ATK-10, -11: the attacker's marker replaces the defender's, the mission changes
        hands, the defender's marker returns to its reserve."""
        if self.courted_castle(attacker) >= 0:
            self.abandon(attacker)
        c = self.castle_at[s]
        self.court[c] = -1
        self.reserve[defender] += 1
        self.mission[attacker] = self.mission[defender]
        self.mission[defender] = None
        self.event("steal", attacker, space=self.space_id(s), defender=defender)
        self.place_marker(attacker, c)

    def convert_one(self: ShogunState, converter: int, s: int) -> None:
        c = self.castle_at[s]
        if c >= 0:
            owner = self.roof[c]
            self.roof[c] = converter
        else:
            owner = self.peasant[s]
            self.peasant[s] = converter
        self.reserve[owner] += 1
        self.reserve[converter] -= 1
        self.touch()

    def convert_candidates(self: ShogunState, owner: int, s: int) -> list[int]:
        """Peasants of `owner`'s colour next to the target: ordinary ones and roof lords,
        never court markers (SHO-CONV-03, -06, -09)."""
        out = []
        for near in self.game.board.neighbours[s]:
            c = self.castle_at[near]
            if self.peasant[near] == owner or (c >= 0 and self.roof[c] == owner):
                out.append(near)
        return out

    def convert_success(self: ShogunState, converter: int, owner: int, s: int) -> None:
        """SHO-CONV-03..08: the target first, then its ring, as far as the reserve goes."""
        self.convert_one(converter, s)
        self.event("converted", converter, space=self.space_id(s), colour=owner)
        ring = self.convert_candidates(owner, s)
        if len(ring) <= self.reserve[converter]:
            for near in ring:
                self.convert_one(converter, near)
            self.cutoffs()
        elif self.reserve[converter] > 0:
            self.pending.append(("convert_pick", converter, owner, tuple(ring),
                                 self.reserve[converter]))
            self.pending.append(("cutoffs", converter))
        else:
            self.cutoffs()
