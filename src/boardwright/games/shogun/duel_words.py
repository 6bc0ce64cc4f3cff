"""A duel as it counts, in players' words: each play's counted value with its combo ("basic
attack 3 + combo 2 = 5"), and what an ignore or a purge does ("ignores the card played second,
Katana Cut"), for the duel box of the table and the log (SHO-DUEL-11, -15..17, -21).

The numbers come from the duel's own tally (`boardwright.duel.tally`), so the words always
agree with the totals that resolution settles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardwright.duel.effects import Ignore, Purge
from boardwright.duel.tally import active_plays
from boardwright.games.shogun.texts import namer, ordinal, value_words

if TYPE_CHECKING:
    from boardwright.duel import Duel
    from boardwright.games.shogun.game import ShogunGame

def counted(duel: Duel) -> list[dict[str, Any]]:
    """Per play: its base value, the combo bonus it gets now, the value it counts for, and
    whether it counts (not purged, not ignored)."""
    tags: dict[int, set[str]] = {duel.attacker: set(), duel.defender: set()}
    for play in duel.plays:
        tags[play.seat] |= play.tags
    active = active_plays(duel)
    out = []
    for play in duel.plays:
        combo = play.combo.bonus if play.combo is not None and play.combo.tag in tags[
            play.seat] else 0
        out.append({"index": play.index, "seat": play.seat, "card": play.card,
                    "category": play.category.value, "base": play.value, "combo": combo,
                    "counted": play.value + combo if play.category.value != "special" else 0,
                    "active": active[play.index], "purged": duel.purged[play.index],
                    "target": play.target,
                    "effect": "ignore" if isinstance(play.targeting, Ignore)
                    else "purge" if isinstance(play.targeting, Purge) else None})
    return out


def play_sentence(game: ShogunGame, duel: Duel, entry: dict[str, Any]) -> str:
    """One play of the running duel in words: what it counts for, or what it does to which
    earlier card, and whether it still counts."""
    n = namer(game)
    worth = value_words(entry["category"], entry["base"], entry["combo"])
    text = f"{n.card(entry['card'])}: {worth}"
    target = entry["target"]
    if entry["effect"] and type(target) is int and 0 <= target < len(duel.plays):
        verb = "ignores" if entry["effect"] == "ignore" else "purges"
        text += (f", {verb} the card played {ordinal(target)} "
                 f"({n.seat(duel.plays[target].seat)}'s {n.card(duel.plays[target].card)})")
    if entry["purged"]:
        text += " (purged: it no longer counts)"
    elif not entry["active"]:
        text += " (ignored: it does not count)"
    return text


def duel_words(game: ShogunGame, duel: Duel) -> list[dict[str, Any]]:
    """`counted` with each play's sentence (`text`), for the view of the running duel."""
    return [dict(e, text=play_sentence(game, duel, e)) for e in counted(duel)]


def card_event(duel: Duel, index: int) -> dict[str, Any]:
    """The log entry's data for play `index` just made (event `duel_card`)."""
    entry = counted(duel)[index]
    data: dict[str, Any] = {"card": entry["card"], "category": entry["category"],
                            "value": entry["base"], "combo": entry["combo"]}
    target = entry["target"]
    if entry["effect"] and type(target) is int:
        data.update(effect=entry["effect"], target=target,
                    target_card=duel.plays[target].card, target_seat=duel.plays[target].seat)
    return data
