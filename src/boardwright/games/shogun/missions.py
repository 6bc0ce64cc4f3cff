"""The 6 mission cards (content §4, SHO-CLAIM-05..07), loaded from `data/missions.toml`.

A mission's `goal` names the condition in the form the game evaluates, with its numbers;
`check` says when it is tested: `state` at the end of the holder's turn, `event` when the
named event happens (SHO-CLAIM-06).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from boardwright.games.shogun.datafile import (
    check_keys, fail, ident, read_data, rows, text, whole,
)

MISSIONS_FILE = "missions.toml"
MISSION_COUNT = 6
CHECKS = ("state", "event")
# Each goal and the check type it needs.
GOALS = {
    "peasants_adjacent_to_castle": "state",  # count own ordinary peasants next to this castle
    "prisoners_held": "state",  # hold count prisoners
    "hero_beaten": "event",  # an own attack on an opposing hero succeeds
    "shrine_searched": "event",  # complete a shrine search
    "is_emperor": "state",  # an own ordinary peasant on heian
    "hero_adjacent_with_treasures": "state",  # hero next to this castle, count treasures held
}
MISSION_KEYS = frozenset(("id", "name", "check", "condition", "on_complete", "goal", "count"))


@dataclass(frozen=True)
class Mission:
    id: str
    name: str
    check: str
    condition: str
    on_complete: str
    goal: str
    count: int
    gift: int = 0  # treasures given away on completion (m6)


def parse_missions(raw: Any, where: str = f"data file {MISSIONS_FILE}") -> tuple[Mission, ...]:
    """The mission cards; InvalidOptionError naming the card at fault."""
    table = check_keys(raw, where, frozenset(("missions",)))
    missions: list[Mission] = []
    for row in rows(table, "missions", where):
        mwhere = f"{where}, mission {row.get('id') if isinstance(row, dict) else None!r}"
        entry = check_keys(row, mwhere, MISSION_KEYS, frozenset(("gift",)))
        mission = Mission(
            id=ident(entry, "id", mwhere), name=text(entry, "name", mwhere),
            check=text(entry, "check", mwhere), condition=text(entry, "condition", mwhere),
            on_complete=text(entry, "on_complete", mwhere, empty=True),
            goal=text(entry, "goal", mwhere), count=whole(entry, "count", mwhere, 1, 15),
            gift=whole(entry, "gift", mwhere, 0, 3) if "gift" in entry else 0)
        if mission.check not in CHECKS:
            raise fail(mwhere, f"'check' must be one of {', '.join(CHECKS)}, not {mission.check!r}")
        if mission.goal not in GOALS:
            raise fail(mwhere, f"unknown goal {mission.goal!r}; known: {', '.join(GOALS)}")
        if GOALS[mission.goal] != mission.check:
            raise fail(mwhere, f"goal {mission.goal!r} is checked as a {GOALS[mission.goal]} "
                       f"mission, not {mission.check!r}")
        if any(m.id == mission.id for m in missions):
            raise fail(mwhere, "the id is listed twice")
        missions.append(mission)
    if len(missions) != MISSION_COUNT:
        raise fail(where, f"there are {MISSION_COUNT} mission cards, not {len(missions)}")
    return tuple(missions)


@lru_cache(maxsize=None)
def load_missions() -> tuple[Mission, ...]:
    return parse_missions(read_data(MISSIONS_FILE))
