"""Rise of the Shogun observation: per-space board features plus seat, hand and deck features.

Built only from `state.view(seat)`: other seats' hands, treasures and missions are hidden there
(`null`) and so are absent here; only their sizes and public piles are encoded. S = board spaces
(64), H = heroes (4), K = cards of the catalogue (60), Q = treasures (13), M = missions (6),
n = players; seat blocks are relative (0 = the observer).

Flat float32 vector, in this order:

* `board` (4n + 2, S), column = space in `game.board.ids` order: per relative seat a peasant
  plane and a hero plane (2n), castle roof owner (n), castle court owner (n), castle present,
  shrine present.
* `seats` (n, H + 13): hero one-hot, reserve / 15, prisoners / 10, castles / 5, chain VP / 30,
  VP / 30, treasures / 5, has mission, hand size / 10, draw size / 30, discard size / 30,
  body / 20, mind / 20, ki / 20 (the duel scores of the seat's piles).
* `hand` (K): the observer's hand, count per card.
* `piles` (n, K): cards on each seat's public piles (body, mind, ki together), count per card.
* `treasures` (Q): the observer's treasures; `mission` (M + 1): the observer's mission one-hot.
* `phase` (len(PHASES) + 1), `to_move` (n), `active` (n), `emperor` (n + 1, last: none) one-hots.
* `misc` (7): round / max_rounds, threshold / 30, treasure deck / 13, mission deck / 6,
  exclusive used, a pending choice, a duel under way.
* `court_used` (4): court actions used this round (recruit, move, convert, reorganise).
* `pending` (len(PENDING_KINDS) + 1 + n): kind of the first pending step one-hot (last: another
  kind), then its seat (relative one-hot).
* `duel` (2n + 7): attacker, defender (relative one-hots), target is a hero, attack total / 20,
  block total / 20, passes / 5, conversion, block declined, the card played by an outside
  effect is pending (`outside_play`).
* `duel_plays` (n, K): cards played in the current duel, count per relative seat and card.

Not encoded: the rest of a pending step (e.g. the cards drawn to keep), the duel's events and
items, and the log (the legal-action mask still says what can be done).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardwright.rl.observations import Encoder, one_hot

PHASES = ("heroes", "castles", "shrines", "hero", "court", "movement", "discard", "cleanup")
SEAT_FEATURES = 13
COURT_KINDS = ("recruit", "move", "convert", "reorganise")
PENDING_KINDS = ("clear", "convert_pick", "court_decree", "cutoffs", "decree_check", "defy",
                 "exchange", "free_move", "gift", "keep", "kill", "before_decree", "next_turn",
                 "overflow", "recruit", "relocate_hero", "relocate_shrine", "reorganise",
                 "reorganise_to", "sandals", "take_peasant", "theft")
PILES = ("body", "mind", "ki")


class ShogunEncoder(Encoder):
    game_name = "shogun"

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        n = self.n
        self.board_spaces = list(game.board.ids)
        self.space_index = {s: i for i, s in enumerate(self.board_spaces)}
        self.heroes = list(game.hero_ids)
        self.cards = sorted(game.catalogue)
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        self.treasures = list(game.treasure_order)
        self.treasure_index = {t: i for i, t in enumerate(self.treasures)}
        self.missions = [m.id for m in game.content.missions]
        self.mission_index = {m: i for i, m in enumerate(self.missions)}
        S, K = len(self.board_spaces), len(self.cards)
        self.planes = 4 * n + 2
        self._block("board", self.planes, S)
        self._block("seats", n, len(self.heroes) + SEAT_FEATURES)
        self._block("hand", K)
        self._block("piles", n, K)
        self._block("treasures", len(self.treasures))
        self._block("mission", len(self.missions) + 1)
        self._block("phase", len(PHASES) + 1)
        self._block("to_move", n)
        self._block("active", n)
        self._block("emperor", n + 1)
        self._block("misc", 7)
        self._block("court_used", len(COURT_KINDS))
        self._block("pending", len(PENDING_KINDS) + 1 + n)
        self._block("duel", 2 * n + 7)
        self._block("duel_plays", n, K)
        self._at = self.slices()

    def encode(self, view: dict[str, Any], viewer: int) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        n, S, K = self.n, len(self.board_spaces), len(self.cards)
        at = self._at
        colour_seat = {c: i for i, c in enumerate(view["colours"])}
        board = out[: self.planes * S].reshape(self.planes, S)
        si = self.space_index

        def rel_colour(colour: Any) -> int | None:
            seat = colour_seat.get(colour)
            return None if seat is None else self.rel(seat, viewer)

        for space, colour in (view.get("peasants") or {}).items():
            r = rel_colour(colour)
            if r is not None and space in si:
                board[2 * r, si[space]] = 1.0
        for space, colour in (view.get("heroes") or {}).items():
            r = rel_colour(colour)
            if r is not None and space in si:
                board[2 * r + 1, si[space]] = 1.0
        for castle in view.get("castles") or ():
            space = castle["space"]
            if space not in si:
                continue
            board[4 * n, si[space]] = 1.0
            r = rel_colour(castle.get("roof"))
            if r is not None:
                board[2 * n + r, si[space]] = 1.0
            r = rel_colour(castle.get("court"))
            if r is not None:
                board[3 * n + r, si[space]] = 1.0
        for space in view.get("shrines") or ():
            if space in si:
                board[4 * n + 1, si[space]] = 1.0

        width = len(self.heroes) + SEAT_FEATURES
        cards = {c["seat"]: c for c in (view.get("cards") or ())}
        for data in view["seats"]:
            seat = data["seat"]
            r = self.rel(seat, viewer)
            base = at["seats"][0] + r * width
            if data.get("hero") in self.heroes:
                out[base + self.heroes.index(data["hero"])] = 1.0
            f = base + len(self.heroes)
            prisoners = data.get("prisoners") or {}
            out[f + 0] = data.get("reserve", 0) / 15.0
            out[f + 1] = sum(prisoners.values()) / 10.0
            out[f + 2] = data.get("castles", 0) / 5.0
            out[f + 3] = data.get("chain_vp", 0) / 30.0
            out[f + 4] = data.get("vp", 0) / 30.0
            out[f + 5] = data.get("treasure_count", 0) / 5.0
            out[f + 6] = 1.0 if data.get("has_mission") else 0.0
            c = cards.get(seat)
            if c is not None:
                out[f + 7] = c.get("hand_size", 0) / 10.0
                out[f + 8] = c.get("draw_size", 0) / 30.0
                out[f + 9] = len(c.get("discard") or ()) / 30.0
                for k, pile in enumerate(PILES):
                    out[f + 10 + k] = (c.get("scores") or {}).get(pile, 0) / 20.0
                pbase = at["piles"][0] + r * K
                for pile in PILES:
                    for card in (c.get("piles") or {}).get(pile) or ():
                        if card in self.card_index:
                            out[pbase + self.card_index[card]] += 1.0
                if seat == viewer:
                    for card in c.get("hand") or ():
                        if card in self.card_index:
                            out[at["hand"][0] + self.card_index[card]] += 1.0
            if seat == viewer:
                for t in data.get("treasures") or ():
                    t = t if isinstance(t, str) else t.get("id")
                    if t in self.treasure_index:
                        out[at["treasures"][0] + self.treasure_index[t]] = 1.0
                mission = data.get("mission")
                if isinstance(mission, dict):
                    mission = mission.get("id")
                none = len(self.missions)
                index = self.mission_index.get(mission, none) if mission else none
                one_hot(out, at["mission"][0], index)
        phase = view["phase"]
        one_hot(out, at["phase"][0], PHASES.index(phase) if phase in PHASES else len(PHASES))
        if view["current_player"] is not None and view["current_player"] >= 0:
            one_hot(out, at["to_move"][0], self.rel(view["current_player"], viewer))
        if isinstance(view.get("active"), int) and view["active"] >= 0:
            one_hot(out, at["active"][0], self.rel(view["active"], viewer))
        emperor = view.get("emperor", -1)
        has_emperor = isinstance(emperor, int) and emperor >= 0
        one_hot(out, at["emperor"][0], self.rel(emperor, viewer) if has_emperor else n)
        m = at["misc"][0]
        out[m + 0] = view.get("round", 0) / max(1, view.get("max_rounds") or 30)
        out[m + 1] = view.get("threshold", 0) / 30.0
        out[m + 2] = view.get("treasure_deck", 0) / 13.0
        out[m + 3] = view.get("mission_deck", 0) / 6.0
        out[m + 4] = 1.0 if view.get("exclusive_used") else 0.0
        out[m + 5] = 1.0 if view.get("pending") else 0.0
        out[m + 6] = 1.0 if view.get("duel") else 0.0
        for kind in view.get("court_used") or ():
            if kind in COURT_KINDS:
                out[at["court_used"][0] + COURT_KINDS.index(kind)] = 1.0
        pending = view.get("pending")
        if pending:
            base = at["pending"][0]
            kind = pending.get("kind")
            other = len(PENDING_KINDS)
            one_hot(out, base, PENDING_KINDS.index(kind) if kind in PENDING_KINDS else other)
            seat = pending.get("seat")
            if isinstance(seat, int) and 0 <= seat < n:
                out[base + len(PENDING_KINDS) + 1 + self.rel(seat, viewer)] = 1.0
        duel = view.get("duel")
        if duel:
            base = at["duel"][0]
            for k, key in enumerate(("attacker", "defender")):
                seat = duel.get(key)
                if isinstance(seat, int) and 0 <= seat < n:
                    out[base + k * n + self.rel(seat, viewer)] = 1.0
            f = base + 2 * n
            out[f + 0] = 1.0 if (duel.get("target") or {}).get("kind") == "hero" else 0.0
            out[f + 1] = (duel.get("attack_total") or 0) / 20.0
            out[f + 2] = (duel.get("block_total") or 0) / 20.0
            out[f + 3] = (duel.get("passes") or 0) / 5.0
            out[f + 4] = 1.0 if duel.get("conversion") else 0.0
            out[f + 5] = 1.0 if duel.get("block_declined") else 0.0
            plays = at["duel_plays"][0]
            for play in duel.get("plays") or ():
                seat, card = play.get("seat"), play.get("card")
                if isinstance(seat, int) and 0 <= seat < n and card in self.card_index:
                    out[plays + self.rel(seat, viewer) * K + self.card_index[card]] += 1.0
        if view.get("outside_play"):
            out[at["duel"][0] + 2 * n + 6] = 1.0
        return self._finish(out)
