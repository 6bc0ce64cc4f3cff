"""Queens & Princes in words: spaces by their board names, moves and logged events as
sentences, for every front end (the web table's log and menus, the terminal, replays).

A space is named by its row letter and half-cell column (`f11` is the centre of the standard
board): the rows are lettered from the top and the columns numbered from the left of the board
as it is drawn, rows shifted by half a cell so that neighbours touch. Every space has one such
name and every name one space. Seats are named by colour (Red, Blue, Green, Yellow: the
game's order). Every action of this game is public; `describe` still asks the game's
`hides_from` first, as every game's does.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from boardwright.core.actions import Action
from boardwright.core.seatwords import sentence
from boardwright.games.queens.actions import Found, Joint, Move, Pass, Sow
from boardwright.games.queens.battle import attack_value, defence_value

Coord = tuple[int, int]
ROW_LETTERS = "abcdefghijklmnopqrstuvwxyz"
# Why a game ended (the game_over entry's `reason`).
END_REASONS = {
    "queen_captured": "the enemy Queen is captured",
    "last_survivor": "the last player left in the game",
    "final_round": "the Field race: a player has sown every Field, and the round is complete",
    "round_limit": "the end of round 50",
}

# Every kind of entry the engine logs (effects.event), each worded by `entry_text`.
EVENT_KINDS = ("princes_defeated", "queen_captured", "city_destroyed", "field_captured",
               "field_kept", "stack_penalty", "final_round", "eliminated", "game_over")


# -- spaces ------------------------------------------------------------------------------------

def column(coord: Sequence[int], radius: int) -> int:
    """The half-cell column of a space, 1 at the board's left edge."""
    q, r = coord[0], coord[1]
    return 2 * (q + radius) + r + 1


def columns(radius: int) -> int:
    """Columns of a board of that radius (21 for radius 5)."""
    return 4 * radius + 1


def row_letter(r: int, radius: int) -> str:
    return ROW_LETTERS[r + radius]


def label(coord: Sequence[int], radius: int) -> str:
    """The board name of a space, e.g. (0, 0) -> "f11" on the board of radius 5."""
    return f"{row_letter(coord[1], radius)}{column(coord, radius)}"


def space_name(state: Any, coord: Sequence[int]) -> str:
    """A space of `state`'s board by its name (`f11`)."""
    return label(coord, state.game.board.radius)


# -- pieces and moves --------------------------------------------------------------------------

def piece_name(state: Any, coord: Sequence[int]) -> str:
    """"Queen", "Prince" or "Prince (of the stack)" for the piece on a space."""
    pos = state.game.board.pos(tuple(coord))
    seat = state.occupant[pos]
    if seat >= 0 and state.queen[seat] == pos:
        return "Queen"
    if state.princes_at[pos] == 2:
        return "Prince (of the stack)"
    return "Prince"


def is_attack(state: Any, coord: Sequence[int]) -> bool:
    """Whether moving onto `coord` attacks (an enemy piece or City stands there)."""
    pos = state.game.board.pos(tuple(coord))
    me = state.current_player
    return state.occupant[pos] not in (-1, me) or state.city[pos] not in (-1, me)


def queen_space(state: Any) -> Coord:
    """Where the seat to move has its Queen."""
    return state.seat_position(state.current_player).queen


def describe(game: Any, state: Any, action: Action, viewer: Any = None) -> str:
    """A move as the log reads it after the seat's name, taken in `state` (before it), e.g.
    "moves the Prince f11 → e10", "Queen f11 attacks e10 (3 against 2)"."""
    actor = state.current_player
    if game.hides_from(action, actor, viewer):
        return game.describe_action(action, viewer, actor)
    board = state.game.board
    S = lambda coord: space_name(state, coord)  # noqa: E731
    if isinstance(action, Move):
        piece = piece_name(state, action.src).replace(" (of the stack)", "")
        if is_attack(state, action.dst):
            t = board.pos(action.dst)
            return (f"{piece} {S(action.src)} attacks {S(action.dst)} "
                    f"({attack_value(state, actor, t)} against {defence_value(state, t)})")
        return f"moves the {piece} {S(action.src)} → {S(action.dst)}"
    if isinstance(action, Joint):
        t = board.pos(action.target)
        return (f"Princes {S(action.first)} and {S(action.second)} attack {S(action.target)} "
                f"together ({2 * attack_value(state, actor, t)} against "
                f"{defence_value(state, t)})")
    if isinstance(action, Found):
        return f"founds a City on {S(queen_space(state))}"
    if isinstance(action, Sow):
        return f"sows a Field on {S(action.at)}"
    if isinstance(action, Pass):
        return "passes (nothing else is possible)"
    return game.describe_action(action, viewer, actor)


# -- logged events -----------------------------------------------------------------------------

def event_text(entry: Mapping[str, Any], name: Callable[[int], str],
               radius: int | None = None) -> str | None:
    """A sentence for one logged event, spaces by their board names given the board's
    `radius` (else axial), seats by `name`; None for the game-over entry (`end_text` words
    it)."""
    kind = entry["event"]
    who = name(entry.get("player", -1))
    by = f" by {name(entry['by'])}" if "by" in entry else ""
    at = ""
    if "at" in entry:
        coord = entry["at"]
        at = f"({coord[0]},{coord[1]})" if radius is None else label(coord, radius)
    if kind == "princes_defeated":
        two = entry.get("count", 1) == 2
        return f"{who}'s {'two Princes' if two else 'Prince'} on {at} " \
               f"{'are' if two else 'is'} defeated{by}."
    if kind == "queen_captured":
        return f"{who}'s Queen on {at} is captured{by}."
    if kind == "city_destroyed":
        return f"{who}'s City on {at} is destroyed{by} (back to supply)."
    if kind == "field_captured":
        return f"{name(entry['by'])} captures {who}'s Field on {at}."
    if kind == "field_kept":
        return f"{name(entry['by'])} has no Field left to swap in: the Field on {at} stays " \
               f"{who}."
    if kind == "stack_penalty":
        return f"{who} did not split the stack on {at}: one of its Princes is lost."
    if kind == "final_round":
        return f"{who} has sown every Field: this is the final round."
    if kind == "eliminated":
        return f"{who} is eliminated: its Princes and Cities leave the board, its Fields stay."
    return None


def game_over_text(entry: Mapping[str, Any], name: Callable[[int], str]) -> str:
    """The game-over entry in words: who won and why, or a draw between the players level on
    Fields, Cities and Princes (QUE-END-04), e.g. "Game over: Blue wins (the enemy Queen is
    captured)."."""
    winners = [seat for seat in entry.get("winners", []) if type(seat) is int]
    reason = end_text(entry.get("reason", ""))
    why = f" ({reason})" if reason else ""
    if len(winners) == 1:
        return f"Game over: {name(winners[0])} wins{why}."
    if winners:
        names = [name(seat) for seat in winners]
        listed = ", ".join(names[:-1]) + f" and {names[-1]}"
        return f"Game over: a draw between {listed}, level on Fields, Cities and Princes{why}."
    return f"Game over{why}."


def end_text(reason: str) -> str:
    """Why the game ended, as the winners' line adds it ("" for an unknown reason)."""
    return END_REASONS.get(reason, "")


def with_texts(log: Sequence[Mapping[str, Any]], name: Callable[[int], str],
               radius: int) -> list[dict[str, Any]]:
    """The log's entries, each a copy with its sentence as `text` ("Game over: the enemy Queen
    is captured." for the last) and, when it names seats, as `words`: what a view sends."""
    return [dict(entry, **sentence(lambda seat_name, e=entry: entry_text(e, seat_name, radius),
                                   name)) for entry in log]


def entry_text(entry: Mapping[str, Any], name: Callable[[int], str], radius: int) -> str:
    """The sentence of one entry of the log, the game-over entry's included; with
    `with_texts`, also as `words` whose seats a front end names (core.seatwords)."""
    text = event_text(entry, name, radius)
    if entry["event"] == "game_over":
        return game_over_text(entry, name)
    if text is None:
        return str(entry["event"]).replace("_", " ").capitalize() + "."
    return text


__all__ = ["END_REASONS", "EVENT_KINDS", "column", "columns", "describe", "end_text", "entry_text",
           "event_text", "game_over_text", "is_attack", "label", "piece_name", "row_letter",
           "space_name", "with_texts"]


# -- listings ----------------------------------------------------------------------------------

def counted(n: int, one: str, many: str) -> str:
    """A count with its noun in the right number: "1 City", "2 Cities", "0 Fields"."""
    return f"{n} {one if n == 1 else many}"


def standing_figures(score: int) -> tuple[int, int, int]:
    """(Fields, Cities, Princes) on the board from a seat's score (`turn.standing`: 100 x
    Fields + 10 x Cities + Princes, exact since a player owns at most 3 Cities and 4 Princes);
    the score of a seat still in the game."""
    fields, rest = divmod(score, 100)
    cities, princes = divmod(rest, 10)
    return fields, cities, princes


def standing_words(score: int) -> str:
    """A seat's standing as the rules rank it (QUE-END-04), from its score (`turn.standing`:
    100 x Fields + 10 x Cities + Princes, exact since a player owns at most 3 Cities and 4
    Princes), e.g. "2 Fields, 1 City, 4 Princes"; "out" once eliminated."""
    if type(score) is not int or score < 0:
        return "out"
    fields, cities, princes = standing_figures(score)
    return (f"{counted(fields, 'Field', 'Fields')}, {counted(cities, 'City', 'Cities')}, "
            f"{counted(princes, 'Prince', 'Princes')}")


def standing_parts(fields: int, field_supply: int, cities: int, city_supply: int,
                   princes: int) -> list[str]:
    """The three figures of a standing as the players panel shows them, with what is left in
    supply: ["3 Fields (7 in supply)", "1 City (2 in supply)", "4 Princes"] (the order and
    nouns of `standing_words`)."""
    return [f"{counted(fields, 'Field', 'Fields')} ({field_supply} in supply)",
            f"{counted(cities, 'City', 'Cities')} ({city_supply} in supply)",
            counted(princes, "Prince", "Princes")]


def standing_view(score: int, fields: int, field_supply: int, cities: int, city_supply: int,
                  princes: int) -> dict[str, Any]:
    """A seat's standing in words for a view: `words` as the lobby says it (`score_words`)
    and its `parts` with the supplies, for the players panel."""
    return {"words": standing_words(score),
            "parts": standing_parts(fields, field_supply, cities, city_supply, princes)}


STANDING_RULE = ("Ranked by Fields on the board, then Cities, then Princes; players level on "
                 "all three share the win.")
STANDING_NOUNS = ("Fields", "Cities", "Princes")


def standing_rule_text(scores: Sequence[int], name: Callable[[int], str]) -> str:
    """What separates the two leading seats now, in the rules' order (Fields, then Cities,
    then Princes; level on all three share the win): the rule, then who leads whom on what,
    read from their scores (`standing_figures`); an eliminated seat (a negative score) is left
    out."""
    alive = sorted(((score, seat) for seat, score in enumerate(scores) if score >= 0),
                   key=lambda pair: (-pair[0], pair[1]))
    if len(alive) < 2:
        return STANDING_RULE
    (top, first), (next_, second) = alive[0], alive[1]
    if top == next_:
        return f"{STANDING_RULE} {name(first)} and {name(second)} are level on all three."
    a, b = standing_figures(top), standing_figures(next_)
    i = next(k for k in range(3) if a[k] != b[k])
    level = f" (level on {' and '.join(STANDING_NOUNS[:i])})" if i else ""
    return (f"{STANDING_RULE} {name(first)} leads {name(second)} on {STANDING_NOUNS[i]}: "
            f"{a[i]} to {b[i]}{level}.")


def standing_rule(scores: Sequence[int], name: Callable[[int], str]) -> dict[str, Any]:
    """`standing_rule_text` as a view's sentence: `text`, and `words` with the seats left open
    for a front end that names them its way (core/seatwords.py)."""
    return sentence(lambda who: standing_rule_text(scores, who), name, len(scores))


def setup_words(options: Mapping[str, Any]) -> list[str]:
    """What a game's options mean to someone choosing it: the map ("standard map", a shipped
    map's name, or a custom one) and a set starting position."""
    chosen = options.get("map", "default")
    if isinstance(chosen, str):
        words = ["standard map" if chosen == "default" else f"{chosen} map"]
    else:
        name = chosen.get("name") if isinstance(chosen, Mapping) else None
        words = [f"custom map {name}" if isinstance(name, str) and name else "custom map"]
    if options.get("position"):
        words.append("from a set position")
    return words
