"""What a lobby row says about a game: the words beside its summary's data.

Someone choosing a game to join or watch reads its title, who sits where (a name, a bot's
level, an open seat), the time control, whether it is rated, the options that matter and who
created it. The server words all of that once (`presented`), for every page that lists games
(the lobby, "My games"): the title and seats from the game's `GameInfo`, the options and the
scores in the game's own words (`Game.setup_words`, `Game.score_words`), the rest here.
"""

from __future__ import annotations

import logging
from typing import Any

from boardwright.core.registry import game_info, score_words, setup_words

log = logging.getLogger("boardwright.web")

NO_CLOCK = "no clock"


def number(value: float) -> str:
    """5.0 -> "5", 0.5 -> "0.5"."""
    return f"{value:g}"


def control_words(control: dict[str, Any] | None) -> str:
    """A time control as players say it: "5 min + 3 s", "5 min", "4 s per move", "no clock"."""
    if not control:
        return NO_CLOCK
    if control.get("per_move") is not None:
        return f"{number(control['per_move'])} s per move"
    minutes = control.get("minutes")
    if minutes is None:
        return NO_CLOCK
    increment = control.get("increment") or 0
    return f"{number(minutes)} min" + (f" + {number(increment)} s" if increment else "")


def seat_words(seat: dict[str, Any]) -> str:
    """Who sits in a seat, for a row: the player's name, "open seat", a level's bot ("hard
    bot"), another bot by its agent string, or "guest" (a human seat joined by link)."""
    if seat.get("name"):
        return str(seat["name"])
    if seat.get("open"):
        return "open seat"
    if seat.get("level"):
        return f"{seat['level']} bot"
    kind = str(seat.get("kind", ""))
    if kind == "human":
        return "guest"
    return "trained policy" if kind.startswith("policy:") else f"bot {kind}"


def _words(what: str, function: Any, *args: Any) -> list[str]:
    """A game's words, or none when its hook fails (a plug-in's gap must not empty the lobby)."""
    try:
        return [str(w) for w in function(*args)]
    except Exception:  # noqa: BLE001 - one game's words must never cost the whole listing
        log.exception("the %s of %s cannot be worded", what, args[0])
        return []


def presented(summary: dict[str, Any]) -> dict[str, Any]:
    """`summary` (a game's listing entry) with what its row shows, in words: `title`,
    `time_control`, `setup` (the options that matter), `score_words`, and per seat its `label`
    (who sits there), `seat_name` and `colour` (the game's seat table)."""
    name = summary["game"]
    try:
        info = game_info(name)
        title, seats = info.title, info.seats_for(summary["players"])
    except Exception:  # noqa: BLE001 - a game no longer installed is still listed
        title, seats = name, ()
    scores = summary.get("scores") or []
    worded = _words("scores", score_words, name, list(scores)) if scores else []
    out = dict(summary)
    out["title"] = title
    out["time_control"] = control_words(summary.get("clock"))
    out["setup"] = _words("options", setup_words, name, summary.get("options") or {},
                          summary["players"])
    out["score_words"] = worded if len(worded) == len(scores) else [str(s) for s in scores]
    out["seats"] = [{**seat, "label": seat_words(seat),
                     **({"seat_name": seats[i].name, "colour": seats[i].colour}
                        if i < len(seats) else {})}
                    for i, seat in enumerate(summary.get("seats") or [])]
    return out
