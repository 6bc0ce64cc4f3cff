"""Carcassonne in words: moves and scorings as sentences, for every front end.

The web table's move log and menus, its scoring list and the labels of the final board, the
terminal's log, menus and news and a replay all read these, so a move or a scoring reads the
same wherever it is shown. The front ends only style them (colours, bold). Every action of this
game is public (a drawn tile is shown to all), so no wording depends on the viewer beyond what
`Game.public_action` decides, which `describe` asks first all the same.

Scoring lines are functions of the game's own records: an entry of the state's log (`view()
["log"]`: turn, feature, complete, points, players, reason) or a scoring of the final account
(`outlook.Scoring`, which adds `end`).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from boardwright.core.actions import Action
from boardwright.core.seatwords import sentence
from boardwright.games.carcassonne.actions import Deploy, Draw, Pass, Place, PlaceAbbey, pack
from boardwright.games.carcassonne.tiles import CITY, FIELD, KIND_NAMES, MONASTERY, ROAD

# Phases of the engine (strings of its public API).
WAGON_MOVE, FINAL_ROUND = "wagon_move", "final_abbey_round"

ROLE_OF_KIND = {CITY: "knight", ROAD: "highwayman", FIELD: "farmer", MONASTERY: "monk"}
# Why a field was scored during play (the log's `reason`), as a scoring line says it.
REASONS = {"barn placed": "farmers scored, a barn was placed",
           "farmers joined a barn": "farmers joined a barn"}

SeatName = Callable[[int], str]


def seat_names(game: Any) -> SeatName:
    """How `game` names its seats: by colour, from its `info` (the one table of them)."""
    info = game.info
    return lambda seat: info.seat(seat).name


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def names(seats: Sequence[int], name: SeatName) -> str:
    """ "Red", "Red and Blue", "Red, Blue and Green"."""
    words = [name(s) for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# -- where a figure goes -------------------------------------------------------------------------

def variant_at(state: Any, x: int, y: int) -> Any:
    """The placed tile variant at (x, y), or None."""
    entry = state.graph.board.get(pack(x, y))
    return None if entry is None else entry[0]


def kind_at(state: Any, action: Deploy) -> int | None:
    """The kind of feature (CITY, ROAD, FIELD, MONASTERY) a figure would stand on."""
    variant = variant_at(state, action.x, action.y)
    if variant is None or action.location not in variant.location_index:
        return None
    return variant.features[variant.location_index[action.location]].kind


def figure_name(state: Any, action: Deploy) -> str:
    """The figure as players name it: a follower by its role, other figures by kind."""
    if action.figure == "follower":
        kind = kind_at(state, action)
        return ROLE_OF_KIND[kind] if kind is not None else "follower"
    return action.figure


def figure_place(state: Any, action: Deploy) -> str:
    """Where a figure goes, e.g. "city E.N.S", "road E.W", "abbey" or "barn on the SE
    corner"."""
    if action.figure == "barn":
        return f"barn on the {action.location} corner"
    kind = kind_at(state, action)
    if kind == MONASTERY:
        variant = variant_at(state, action.x, action.y)
        return "abbey" if variant is not None and variant.abbey else "monastery"
    name = KIND_NAMES[kind] if kind is not None else "feature"
    return f"{name} {action.location}"


# -- moves -------------------------------------------------------------------------------------

def describe(game: Any, state: Any, action: Action, viewer: Any = None) -> str:
    """The log line of a move, read after the seat's name, e.g. "places U at (1, 0) turned
    90°", "puts a highwayman on the road E.W of (1, 0)", "moves the wagon from (1, 2) to the
    city N of (2, 2)". `state` is the position the move is taken in (before it)."""
    actor = state.current_player
    if game.hides_from(action, actor, viewer):
        return game.describe_action(action, viewer, actor)
    view = state.view(None)
    phase = view["phase"]
    if isinstance(action, Place):
        tile = view["tile"] or "a tile"
        return f"places {tile} at ({action.x}, {action.y}) turned {action.rotation}°"
    if isinstance(action, Draw):
        return "draws a tile"
    if isinstance(action, PlaceAbbey):
        return f"places the abbey at ({action.x}, {action.y})"
    if phase == WAGON_MOVE:
        wagon = view["wagon"]
        origin = f"({wagon['from']['x']}, {wagon['from']['y']})"
        if isinstance(action, Pass):
            return f"takes the wagon back from {origin}"
        if isinstance(action, Deploy):
            return (f"moves the wagon from {origin} to the {figure_place(state, action)} "
                    f"of ({action.x}, {action.y})")
    if isinstance(action, Pass):
        return "does not place the abbey" if phase == FINAL_ROUND else "places no figure"
    if isinstance(action, Deploy):
        where = f"{figure_place(state, action)} of ({action.x}, {action.y})"
        if action.figure == "barn":
            return f"puts a {where}"
        return f"puts a {figure_name(state, action)} on the {where}"
    return game.describe_action(action, viewer, actor)


def option_text(state: Any, action: Action, hole: str = "") -> str:
    """A menu entry: what choosing `action` does, in the words of the current phase; `hole`
    names the abbey's hole as the menu marks it ("b")."""
    phase = state.phase
    if isinstance(action, Draw):
        left = state.view(None)["draw_pile_size"]
        return f"draw a tile ({plural(left, 'tile')} in the pile)"
    if isinstance(action, PlaceAbbey):
        where = f"hole {hole} " if hole else "the hole "
        return f"place the abbey into {where}at ({action.x}, {action.y})"
    if isinstance(action, Pass):
        if phase == WAGON_MOVE:
            return "take the wagon back"
        if phase == FINAL_ROUND:
            return "pass (keep the abbey)"
        return "no figure"
    if isinstance(action, Deploy):
        where = figure_place(state, action)
        if phase == WAGON_MOVE:
            return f"move the wagon to the {where} of ({action.x}, {action.y})"
        if action.figure == "barn":
            return where
        return f"{figure_name(state, action)} on the {where}"
    seat = state.current_player  # a menu: the deciding seat reads it
    return state.game.describe_action(action, seat, seat)


# -- what happens between moves ---------------------------------------------------------------

FINAL_ROUND_TEXT = "The last landscape tile is placed: final round for the abbeys."


def discarded_text(tile: str) -> str:
    """A drawn tile that fits nowhere (it is discarded and another drawn)."""
    return f"Tile {tile} fits nowhere on the board: discarded."


# -- scorings ----------------------------------------------------------------------------------

def score_status(entry: Mapping[str, Any]) -> str:
    """Why the points came: "completed", "final scoring", or the reason of a field scored
    during play ("farmers scored, a barn was placed")."""
    reason = entry.get("reason")
    if reason:
        return REASONS.get(reason, reason)
    if entry.get("end") or not entry.get("complete"):
        return "final scoring"
    return "completed"


def score_detail(entry: Mapping[str, Any]) -> str:
    """ "city, completed", "field, final scoring, shared" (the bracket of a scoring line)."""
    shared = ", shared" if len(entry.get("players", ())) > 1 else ""
    return f"{entry['feature']}, {score_status(entry)}{shared}"


def score_gain(entry: Mapping[str, Any]) -> str:
    """What each seat named by the entry got: "+4 (city, completed)"."""
    return f"+{entry['points']} ({score_detail(entry)})"


def score_lines(entry: Mapping[str, Any], name: SeatName) -> list[str]:
    """One line per seat the scoring paid, e.g. "Red +4 (city, completed)", "Blue +6 (field,
    farmers scored, a barn was placed)", "Red +8 (barn, final scoring)"."""
    return [f"{name(seat)} {score_gain(entry)}" for seat in entry.get("players", ())]


def scoring_text(entry: Mapping[str, Any], name: SeatName) -> str:
    """One scoring in one line: "Red +4 (city, completed)", "Red and Blue +3 (road,
    completed, shared)"; a feature no one wins (a mayor in a city without pennants):
    "nobody scores (city worth 8, completed)"."""
    players = list(entry.get("players", ()))
    if not players:
        return f"nobody scores ({entry['feature']} worth {entry['points']}, " \
               f"{score_status(entry)})"
    return f"{names(players, name)} {score_gain(entry)}"


def scoring_line(entry: Mapping[str, Any], name: SeatName) -> str:
    """A scoring as a list of them reads it: "Turn 5: Red +4 (city, completed)"."""
    return f"Turn {entry['turn']}: {scoring_text(entry, name)}"


def scoring_sentence(entry: Mapping[str, Any], name: SeatName) -> dict[str, Any]:
    """A scoring's line (`scoring_line`) as a view sends it: `text`, and `words` with the seats
    left for a front end to name (core.seatwords)."""
    return sentence(lambda seat_name: scoring_line(entry, seat_name), name)


def with_texts(log: Sequence[Mapping[str, Any]], name: SeatName) -> list[dict[str, Any]]:
    """The log's entries, each a copy with its `text` (`scoring_line`) and `words`: what a
    view sends."""
    return [dict(entry, **scoring_sentence(entry, name)) for entry in log]


__all__ = ["FINAL_ROUND_TEXT", "REASONS", "describe", "discarded_text", "figure_name",
           "figure_place", "kind_at", "option_text", "score_detail", "score_gain", "score_lines",
           "scoring_line", "scoring_sentence", "scoring_text", "seat_names", "setup_words",
           "variant_at", "with_texts"]


# -- listings ----------------------------------------------------------------------------------

def setup_words(options: Mapping[str, Any]) -> list[str]:
    """What a game's options mean to someone choosing it (the web lobby's rows): the
    expansions ("Abbey & Mayor", else "base game"), then the rules changed from the
    rulebook's ("no farmers", "two-tile cities score 2", "fixed draw pile")."""
    expansions = options.get("expansions") or []
    words = ["Abbey & Mayor" if "abbey_mayor" in expansions else "base game"]
    if options.get("farmers") is False:
        words.append("no farmers")
    if options.get("small_city_scoring") == "first_edition":
        words.append("two-tile cities score 2")
    if options.get("draw_order"):
        words.append("fixed draw pile")
    if "abbey_mayor" in expansions:
        for key, one, many in (("abbeys", "abbey", "abbeys"), ("mayors", "mayor", "mayors"),
                               ("wagons", "wagon", "wagons"), ("barns", "barn", "barns")):
            count = options.get(key, 1)
            if type(count) is int and count != 1:
                words.append(f"no {many}" if count == 0 else f"{count} {many} each")
    return words
