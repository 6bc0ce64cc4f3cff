"""What each seat may know of a Rise of the Shogun game: of an action, and of a position.

Treasures are hidden from the other players (SHO-DUEL-26, SHO-SCORE-06): which one a player
keeps after a search (SHO-SHRINE-05), returns over the limit (SHO-SHRINE-08), discards
(SHO-SHRINE-09) or gives up to defy a decree (SHO-EMP-05) is known to that player alone. Other
seats (and spectators) learn that it happened, not which treasure: the engine's own log records
these events without the treasure, and `ShogunGame.public_action` leaves the field out.

Everything else a player does is public: cards played, discarded or picked from a hand go to
discard piles everyone sees (SHO-DUEL-26), used treasures are revealed. A new secret decision is
one more entry in SECRET_ACTIONS.

Of a position (`ViewRules`, mixed into `ShogunState`): the board, piles, discard piles and
counts are public; hands, draw piles, missions and treasures only their owner's, and scoring
treasures count in the public VP only once the game is over. `determinize` deals everything a
seat cannot see again at random, so a search sees only what that seat knows.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boardwright.core.errors import IllegalActionError
from boardwright.core.inputs import short_repr
from boardwright.games.shogun.duel_words import duel_words
from boardwright.games.shogun.mission_goals import mission_view
from boardwright.games.shogun.scoring import NOBODY
from boardwright.games.shogun.texts import event_sentence, pending_text, phase_text

if TYPE_CHECKING:
    from boardwright.games.shogun.state import ShogunState


@dataclass(frozen=True)
class Secret:
    """The fields of an action type only the acting seat may see, and the text the others
    read instead of the whole one."""

    fields: tuple[str, ...]
    text: str


SECRET_ACTIONS: dict[str, Secret] = {
    "keep_treasure": Secret(("treasure",), "keep a treasure"),
    "return_treasure": Secret(("treasure",), "return a treasure"),
    "discard_treasure": Secret(("treasure",), "discard a treasure"),
    "defy": Secret(("treasure",), "defy the decree, discarding a treasure"),
}


def hidden_fingerprint(state: Any) -> tuple[Any, ...] | None:
    """Everything of a position that is random or hidden from some seat: the random source,
    every hand and draw pile, the treasures and missions held, the treasure and mission decks,
    the treasures drawn for a choice. A step that leaves it unchanged drew nothing and moved
    nothing out of (or into) a hidden place, so it showed no one anything. None when the
    position cannot be judged this way: a state in chance mode (its random source is a
    script), or a duel or an out-of-turn play under way (their choices are made from hands)."""
    if type(state.rng) is not random.Random or state.duel is not None \
            or state.outside is not None:
        return None
    table = state.table
    hands = () if table is None else tuple(
        (tuple(sorted(cards.hand)), tuple(cards.draw_pile)) for cards in table.players)
    pending = tuple((step[0], step[1], repr(step[2:])) for step in state.pending)
    return (state.rng.getstate(), hands, tuple(tuple(sorted(t)) for t in state.treasures),
            tuple(state.mission), tuple(state.treasure_deck), tuple(state.mission_deck),
            pending)


class ViewRules:
    """What each seat may see of a `ShogunState` (mixed into it): its view, the treasures
    everyone knows, and a copy of the position consistent with one seat's knowledge."""

    def view(self: ShogunState, player: int | None) -> dict[str, Any]:
        """What `player` may see: the board, piles, discard piles and counts are public; hands,
        draw piles, missions and treasures only to their owner (SHO-DUEL-26), and scoring
        treasures count in the public VP only once the game is over (SHO-SCORE-06)."""
        n = self.game.num_players
        if player is not None and not (type(player) is int and 0 <= player < n):
            raise IllegalActionError(f"no seat {short_repr(player)} in this game")
        ids = self.game.board.ids
        seats = []
        for s in range(n):
            own = s == player or self.over
            seats.append({
                "seat": s, "colour": self.game.colours[s], "hero": self.heroes[s],
                "hero_space": ids[self.hero_pos[s]] if self.hero_pos[s] >= 0 else None,
                "reserve": self.reserve[s],
                "prisoners": {self.game.colours[c]: k for c, k in enumerate(self.prisoners[s])
                              if k},
                "castles": self.castle_count(s),
                "chain_vp": self.chain_points(s),
                "vp": self.vp(s) if own else self.public_vp(s),
                "treasures": sorted(self.treasures[s]) if own else None,
                "treasure_count": len(self.treasures[s]),
                "mission": self.mission[s] if own else None,
                "has_mission": self.mission[s] is not None,
                "courting": ids[self.castle_space[c]] if (c := self.courted_castle(s)) >= 0
                else None,
                "mission_progress": mission_view(self, s) if own else None,
                "score": self.score_parts(s, own),
            })
        pending = None
        if self.pending:
            step = self.pending[0]
            pending = {"kind": step[0], "seat": step[1], "text": pending_text(step[0])}
            if step[0] == "keep":
                pending["drawn"] = list(step[2]) if step[1] == player else len(step[2])
        view: dict[str, Any] = {
            "game": self.game.name, "players": n, "viewer": player,
            "colours": list(self.game.colours), "first_player": self.first,
            "order": list(self.order), "phase": self.phase, "active": self.active,
            "phase_text": phase_text(self.phase, self.home_step, self.over),
            "round": self.round, "turn": self.turn, "current_player": self.current_player,
            "threshold": self.game.config.threshold,
            "max_rounds": self.game.config.max_rounds,
            "peasants": {ids[s]: self.game.colours[o] for s, o in enumerate(self.peasant)
                         if o >= 0},
            "heroes": {ids[s]: self.game.colours[o] for s, o in enumerate(self.hero_at)
                       if o >= 0},
            "castles": [{"space": ids[sp], "roof": self.game.colours[self.roof[c]]
                         if self.roof[c] >= 0 else None,
                         "court": self.game.colours[self.court[c]]
                         if self.court[c] >= 0 else None}
                        for c, sp in enumerate(self.castle_space)],
            "shrines": [ids[s] for s, here in enumerate(self.shrine) if here],
            "emperor": self.emperor() if self.phase not in ("heroes", "castles") else NOBODY,
            "seats": seats,
            "cards": self.table.view(None if self.over else player)
            if self.table is not None else None,
            "treasure_deck": len(self.treasure_deck),
            "mission_deck": len(self.mission_deck),
            "exclusive_used": self.exclusive_used,
            "decree": self.decree,
            "court_used": list(self.court_used),
            "pending": pending,
            "duel": dict(self.duel.view(player), play_words=duel_words(self.game, self.duel))
            if self.duel is not None else None,
            "outside_play": self.outside.view(player) if self.outside is not None else None,
            "log": [dict(e, **event_sentence(self.game, e)) for e in self.log[-30:]],
            "is_terminal": self.over,
            "winners": list(self.winners),
            "end_reason": self.end_reason,
        }
        if player is not None and player == self.current_player:
            view["legal_actions"] = [a.to_json() for a in self.legal_actions()]
        return view

    def shown_treasures(self: ShogunState) -> list[set[str]]:
        """Per seat, the held treasures everyone knows: the items used in the running duel,
        which stay with their user until the duel ends (SHO-ITEM-01, SHO-DUEL-26)."""
        shown: list[set[str]] = [set() for _ in range(self.game.num_players)]
        if self.duel is not None:
            for seat, item in self.duel.used_items:
                if item in self.treasures[seat]:
                    shown[seat].add(item)
        return shown

    def determinize(self: ShogunState, player: int, rng: random.Random) -> ShogunState:
        """A copy consistent with `player`'s view: other players' hands and every draw pile,
        the treasure and mission decks and the other players' treasures and missions are
        pooled and dealt again at random in the same sizes; so is the future of the RNG.
        Everything derived from a hidden card is dealt with it: items used in a running duel
        are public and stay with their user, and the items the other duel side may still use
        come from its new treasures."""
        other = self.clone()
        other.rng.seed(rng.getrandbits(64))
        n = self.game.num_players
        if other.table is not None:
            known: list[int] = []
            for running in (other.duel, other.outside):
                if running is not None and running.runner.revealed is not None \
                        and running.runner.revealed[0] == player:
                    known.append(running.runner.revealed[1])
            other.table.resample_hidden(player, rng, known_hands=known)
        # Treasures: the deck, the other players' holdings and cards drawn for someone else.
        keep_index = next((i for i, step in enumerate(other.pending)
                           if step[0] == "keep" and step[1] != player), None)
        shown = self.shown_treasures()
        pool = list(other.treasure_deck)
        for seat in range(n):
            if seat != player:
                pool.extend(t for t in other.treasures[seat] if t not in shown[seat])
        if keep_index is not None:
            pool.extend(other.pending[keep_index][2])
        rng.shuffle(pool)
        other.treasure_deck = [pool.pop() for _ in other.treasure_deck]
        for seat in range(n):
            if seat != player:
                other.treasures[seat] = ([t for t in other.treasures[seat] if t in shown[seat]]
                                         + [pool.pop() for t in other.treasures[seat]
                                            if t not in shown[seat]])
        if keep_index is not None:
            step = other.pending[keep_index]
            other.pending[keep_index] = (step[0], step[1], tuple(pool.pop() for _ in step[2]))
        if other.duel is not None:
            for seat in (other.duel.attacker, other.duel.defender):
                if seat != player:
                    other.duel.deal_items(seat, other.duel_items(seat)[seat])
        missions = list(other.mission_deck) + [m for s, m in enumerate(other.mission)
                                               if s != player and m is not None]
        rng.shuffle(missions)
        other.mission_deck = [missions.pop() for _ in other.mission_deck]
        for seat in range(n):
            if seat != player and other.mission[seat] is not None:
                other.mission[seat] = missions.pop()
        other.chain_cache = [None] * n
        return other
