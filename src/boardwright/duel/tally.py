"""The duel's tally: which plays count now (ignores and purges, SHO-DUEL-17) and the attack
and block totals they add up to (SHO-DUEL-11, -21, -23). What resolution settles, and what
the view shows while the exchange runs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from boardwright.duel.effects import Ignore
from boardwright.duel.model import ATTACK_SIDE, BLOCK_SIDE, Play, find_item

if TYPE_CHECKING:
    from boardwright.duel.duel import Duel


def active_plays(duel: Duel) -> list[bool]:
    """Which plays count now (SHO-DUEL-17): not purged, and not the target of an active
    Ignore. An ignore always targets an earlier play, so one pass from the last play
    backwards settles every chain of ignores."""
    n = len(duel.plays)
    active = [False] * n
    ignored = [False] * n
    for k in range(n - 1, -1, -1):
        live = not duel.purged[k] and not ignored[k]
        active[k] = live
        play = duel.plays[k]
        if live and isinstance(play.targeting, Ignore) and play.target is not None:
            ignored[play.target] = True
    return active


def play_value(play: Play, tags: Mapping[int, set[str]]) -> int:
    """A play's value, with its combo bonus if its side played the tag it names."""
    value = play.value
    if play.combo is not None and play.combo.tag in tags[play.seat]:
        value += play.combo.bonus
    return value


def totals(duel: Duel, active: list[bool] | None = None) -> tuple[int, int]:
    """The attack and block totals if the duel were resolved now (SHO-DUEL-11, -21, -23).

    The attack total is 0 without an active basic attack (the attack fails anyway); the
    block total without an active basic block is only the bonuses that apply without one.
    """
    if active is None:
        active = active_plays(duel)
    tags: dict[int, set[str]] = {duel.attacker: set(), duel.defender: set()}
    for play in duel.plays:
        tags[play.seat] |= play.tags
    bonus = {duel.attacker: 0, duel.defender: 0}
    for seat, item_id in duel.used_items:
        bonus[seat] += find_item(duel.items, seat, item_id).bonus
    attack = 0
    if active[0]:
        attack = play_value(duel.plays[0], tags) + bonus[duel.attacker] + sum(
            play_value(p, tags) for p in duel.plays[1:]
            if active[p.index] and p.seat == duel.attacker and p.category in ATTACK_SIDE)
    block = bonus[duel.defender]
    if duel.block_play is not None and active[duel.block_play]:
        block += play_value(duel.plays[duel.block_play], tags) + sum(
            play_value(p, tags) for p in duel.plays
            if active[p.index] and p.seat == duel.defender and p.category in BLOCK_SIDE)
    return attack, block
