"""How a game ended, as the results say it: the reason (score, time, resignation,
abandonment), who resigned, lost on time, left or claimed, and the standings (each seat's
place, score, name and rating change).

What is stored, in the game's seats (no column of its own, so a finished row says it all):

* `"out": "resigned" | "left"` and `"out_step"` on a seat that resigned or whose player left
  a game that was claimed (resigning.py); a seat that lost on time is in the clock's `lost`
  (clocks.py);
* `"ended": true` on the seat whose resignation ended the game;
* `"claimed": "win" | "none"` on the seat whose player claimed the game its opponents left;
* `"place"` on every seat of a game that ended with a result (1 = winner, ties share a
  place), written with the finished record (`placed`).

Places come from the result the game is rated by (`standing_returns`): the game's own returns
for the seats still in, and below all of them the seats that went out (lost on time, resigned,
left), the first to go out lowest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boardwright.agents import HUMAN
from boardwright.web.ratings import finishing

SCORE, TIME, RESIGNATION, ABANDONMENT = "score", "time", "resignation", "abandonment"
WIN, NONE = "win", "none"  # a claim: a win for the one who stayed, or an end with no result


def lost_on_time(clock: dict[str, Any] | None) -> list[int]:
    return list((clock or {}).get("lost") or ())


def out_order(seats: Sequence[dict[str, Any]], clock: dict[str, Any] | None) -> list[int]:
    """The seats that went out of the game, in the order they went: those that lost on time
    (in their order), then those that resigned or left, by the step they went at."""
    lost = lost_on_time(clock)
    others = sorted((s for s, seat in enumerate(seats) if seat.get("out") and s not in lost),
                    key=lambda s: (seats[s].get("out_step", 0), s))
    return lost + others


def still_in(seats: Sequence[dict[str, Any]], clock: dict[str, Any] | None) -> list[int]:
    """The seats still playing: not lost on time, not resigned, not left."""
    out = set(out_order(seats, clock))
    return [s for s in range(len(seats)) if s not in out]


def ended_early(seats: Sequence[dict[str, Any]]) -> bool:
    """Whether a resignation or a claim ended the game before its end."""
    return any(seat.get("ended") or seat.get("claimed") for seat in seats)


def standing_returns(seats: Sequence[dict[str, Any]], clock: dict[str, Any] | None,
                     returns: Sequence[float]) -> list[float]:
    """The result a game is rated and placed by: `returns` (the game's own, or a claim's) for
    the seats still in, and below all of them the seats that went out, the first to go out
    lowest."""
    order = out_order(seats, clock)
    out = [float(r) for r in returns]
    if not order:
        return out
    playing = [s for s in range(len(out)) if s not in order]
    floor = min((out[s] for s in playing), default=0.0)
    for rank, seat in enumerate(order):
        out[seat] = floor - len(order) + rank
    return out


def places(returns: Sequence[float]) -> list[int]:
    """Each seat's place by its return: 1 + the number of seats with a higher one."""
    return [1 + sum(1 for other in returns if other > mine) for mine in returns]


def placed(seats: Sequence[dict[str, Any]], returns: Sequence[float]) -> list[dict[str, Any]]:
    """The seats with their places, as the finished record stores them."""
    return [{**seat, "place": place} for seat, place in zip(seats, places(returns))]


def reason(seats: Sequence[dict[str, Any]], clock: dict[str, Any] | None) -> str:
    """Why the game ended: a claim (abandonment), a resignation that left nobody to play,
    the clock ("lose" mode), else the game was played to its end (score)."""
    if any(seat.get("claimed") for seat in seats):
        return ABANDONMENT
    if any(seat.get("ended") for seat in seats):
        return RESIGNATION
    if (clock or {}).get("ended"):
        return TIME
    return SCORE


def _fallback_places(scores: Sequence[Any]) -> list[int]:
    """Places by the public scores, for a game finished before places were stored."""
    numbers = [float(s) if isinstance(s, (int, float)) else 0.0 for s in scores]
    return places(numbers)


def result(seats: Sequence[dict[str, Any]], clock: dict[str, Any] | None, status: str,
           scores: Sequence[Any]) -> dict[str, Any] | None:
    """How a finished game ended (None while it is not finished), for the API, the frames and
    the pages: `reason`, who `resigned`, `lost_on_time` and `left` (seats, in the order they
    went), `claimed_by` and the claim's `outcome` ("win" or "none"), `winners`, and the
    `standings` best first, each with seat, place, score, name, kind, how it went out and
    its rating change (rated games). A game claimed with no result has no places and no
    winners."""
    if status != "finished":
        return None
    lost = lost_on_time(clock)
    claimer = next((s for s, seat in enumerate(seats) if seat.get("claimed")), None)
    outcome = seats[claimer]["claimed"] if claimer is not None else None
    stored = [seat.get("place") for seat in seats]
    if outcome == NONE:
        seat_places: list[int | None] = [None] * len(seats)
    elif all(isinstance(p, int) for p in stored):
        seat_places = list(stored)
    else:
        seat_places = list(_fallback_places(standing_returns(
            seats, clock, _fallback_scores(scores, len(seats)))))
    standings = []
    for s, seat in enumerate(seats):
        how = "time" if s in lost else seat.get("out")
        entry: dict[str, Any] = {"seat": s, "place": seat_places[s],
                                 "score": scores[s] if s < len(scores) else None,
                                 "name": seat.get("name"), "kind": seat.get("kind", HUMAN),
                                 "out": how}
        if seat.get("rating"):
            entry["rating"] = seat["rating"]
        standings.append(entry)
    standings.sort(key=lambda e: (e["place"] if e["place"] is not None else 0, e["seat"]))
    order = out_order(seats, clock)
    return {
        "reason": reason(seats, clock),
        "resigned": [s for s in order if seats[s].get("out") == "resigned"],
        "lost_on_time": lost,
        "left": [s for s in order if seats[s].get("out") == "left"],
        "claimed_by": claimer, "outcome": outcome,
        "winners": [e["seat"] for e in standings if e["place"] == 1],
        "standings": standings,
    }


def _fallback_scores(scores: Sequence[Any], players: int) -> list[float]:
    return [float(scores[s]) if s < len(scores) and isinstance(scores[s], (int, float))
            else 0.0 for s in range(players)]


def ranking(seats: Sequence[dict[str, Any]], clock: dict[str, Any] | None,
            scores: Sequence[Any]) -> list[int]:
    """The seats best first once the game is over (the clock panel's `ranking`)."""
    found = result(seats, clock, "finished", scores)
    assert found is not None
    return [e["seat"] for e in found["standings"]]


def closing(storage: Any, live: Any, seats: Sequence[dict[str, Any]],
            clock: dict[str, Any] | None, returns: Sequence[float],
            values: dict[str, Any]) -> Any:
    """The write that ends a game: `values` with the seats placed by their standing (and the
    rating update of a rated game, ratings.py, in the same transaction). The seats stored are
    `values["seats"]`, or the operation's `seats` once it has run (with their ratings)."""
    standing = standing_returns(seats, clock, returns)
    values["seats"] = placed(seats, standing)
    finish = finishing(storage, live.id, live.name, live.rated, values["seats"], standing,
                       values)
    return values if finish is None else finish


def stored_seats(write: Any) -> list[dict[str, Any]]:
    """The seats a `closing` write stored, once it has run."""
    return list(write["seats"]) if isinstance(write, dict) else list(write.seats)
