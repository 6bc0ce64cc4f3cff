"""Queens & Princes in the terminal: the hex board drawn row by row, with Rich.

Each space is a 5-character cell, and each row of constant r is shifted by half a cell, so the
rows interlock like the hexagons they stand for (the layout of the rule document's map):

    r=+4              .     .     .     ^     .Pr   .QrCr .Pr     q=-5..1

A cell reads `T PP BB`: the terrain (`.` plain, `^` mountain), the mobile piece (`Q` Queen,
`P` Prince, `2` two stacked Princes) and the building (`C` City, `f` Field), each piece and
building followed by its owner's initial (r Red, b Blue, g Green, y Yellow) and drawn in the
owner's colour, so the board reads the same without colour. `.QrCr` is Red's Queen in a Red
City; `^2b` two Blue Princes on a mountain; `.Pbfr` a Blue Prince on a Red Field.

The legal actions are listed per piece (its destinations numbered on one line, attacks marked
with `x`), then joint attacks, founding and sowing, so a human sees at once what each piece can
do. Everything is read from the engine's state and the battle functions it uses itself.
"""

from __future__ import annotations

from typing import Any, Sequence

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from boardwright.core.actions import Action
from boardwright.core.game import Game, State, Viewer
from boardwright.games.queens import texts
from boardwright.games.queens.actions import Found, Joint, Move, Sow
from boardwright.games.queens.game import QueensGame
from boardwright.render import winners_line
from boardwright.render.queens_labels import (
    column, columns, label, looks_like_a_move, move_label, parse_move, parse_space,
    row_letter,
)
from boardwright.render.screen import Reply, Size, height_of, help_lines, shared_keys

MOUNTAIN_STYLE = "bold #b08850"
PLAIN_STYLE = "dim"
CELL = 5  # visible characters of a cell
PITCH = CELL + 1  # distance between two cells of a row (even: rows shift by half of it)
MENU_WIDTH = 96  # the menu's width when the terminal's is not known
ROW_LABEL = 3  # " f " before each row


def colour_name(seat: int) -> str:
    """A seat's colour name (`QueensGame.info`, the one table of them)."""
    return QueensGame.info.seat(seat).name


def seat_style(seat: int) -> str:
    return QueensGame.info.seat(seat).terminal_style


def seat_label(seat: int, suffix: str = "") -> Text:
    """A seat's colour name (Red, Blue, Green, Yellow: the game's own order), in its colour."""
    return Text(colour_name(seat) + suffix, style=seat_style(seat))


def initial(seat: int) -> str:
    return colour_name(seat)[0].lower()


def xy(coord: Sequence[int]) -> str:
    return f"({coord[0]},{coord[1]})"


def space_name(state: State, coord: Sequence[int]) -> str:
    """A space by its name on the board (`f11`: the game's, `texts.space_name`)."""
    return texts.space_name(state, coord)


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


# -- the board ---------------------------------------------------------------------------------

def cell(state: State, pos: int) -> Text:
    """The 5 characters of one space."""
    board = state.game.board  # type: ignore[attr-defined]
    text = Text()
    if board.is_mountain[pos]:
        text.append("^", style=MOUNTAIN_STYLE)
    else:
        text.append(".", style=PLAIN_STYLE)
    seat = state.occupant[pos]  # type: ignore[attr-defined]
    if seat >= 0:
        if state.queen[seat] == pos:  # type: ignore[attr-defined]
            kind = "Q"
        else:
            kind = "2" if state.princes_at[pos] == 2 else "P"  # type: ignore[attr-defined]
        text.append(kind + initial(seat), style=seat_style(seat))
    else:
        text.append("  ")
    city, field = state.city[pos], state.field[pos]  # type: ignore[attr-defined]
    if city >= 0:
        text.append("C" + initial(city), style=seat_style(city).replace("bold ", "") + " underline")
    elif field >= 0:
        text.append("f" + initial(field), style=seat_style(field).replace("bold ", ""))
    else:
        text.append("  ")
    return text


def ruler(radius: int) -> Text:
    """The column numbers, each above the first character of the cells in its column."""
    text = Text(" " * ROW_LABEL, style="dim")
    for c in range(1, columns(radius) + 1):
        text.append(f"{c:<{PITCH // 2}}", style="dim")
    return text


def board_lines(state: State) -> list[Text]:
    """One line per row r, shifted so that neighbours touch, between two rulers of column
    numbers and with the row letters on both sides: a space is named by its row letter and
    the column over it (`f11`: the game's names, games/queens/texts.py)."""
    board = state.game.board  # type: ignore[attr-defined]
    radius = board.radius
    lines = [ruler(radius)]
    for r in range(-radius, radius + 1):
        q_min, q_max = max(-radius, -radius - r), min(radius, radius - r)
        letter = row_letter(r, radius)
        line = Text(f" {letter} ".ljust(ROW_LABEL), style="bold")
        line.append(" " * ((column((q_min, r), radius) - 1) * PITCH // 2))
        for q in range(q_min, q_max + 1):
            line.append_text(cell(state, board.pos((q, r))))
            if q < q_max:
                line.append(" " * (PITCH - CELL))
        line.append(" " * ((columns(radius) - column((q_max, r), radius)) * PITCH // 2))
        line.append(f"  {letter}", style="bold")
        lines.append(line)
    lines.append(ruler(radius))
    return lines


def join_lines(lines: Sequence[Text]) -> Text:
    return Text("\n").join(lines)


def legend() -> list[Text]:
    text = Text("Board: ", style="bold")
    text.append(". plain  ^ mountain  ·  Q Queen  P Prince  2 two stacked Princes  ·  "
                "C City  f Field  ·  a letter after a piece or building is its owner's initial "
                "(r Red, b Blue, g Green, y Yellow). A space is named by its row letter and the "
                "column number over it: f11 is the centre.", style="")
    return [text]


# -- the players -------------------------------------------------------------------------------

def players_table(state: State, labels: Sequence[str] | None, title: str | None = None) -> Table:
    """Each seat: its place as the rules rank it (Fields on the board, then Cities, then
    Princes: QUE-END-04), those three counts, supplies, status. The engine's encoded standing
    (100 x Fields + 10 x Cities + Princes) only orders the seats; it is not shown."""
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False, box=None,
                  header_style="bold")
    for header in ("Player", "Place", "Fields", "Cities", "Princes", "Supply", "Queen"):
        table.add_column(header, justify="left" if header in ("Player", "Supply", "Queen")
                         else "right")
    view = state.view(None)
    places = standing_places(view["scores"])
    for seat, entry in enumerate(view["position"]["seats"]):
        name = seat_label(seat)
        if labels is not None and seat < len(labels) and labels[seat]:
            name.append(f" ({labels[seat]})", style="")
        supply = (f"{entry['city_supply']} Cit{'y' if entry['city_supply'] == 1 else 'ies'}, "
                  f"{plural(entry['field_supply'], 'Field')}")
        if entry["queen"] is not None:
            queen = space_name(state, entry["queen"])
        else:
            queen = "captured" if view["players"] == 2 else "eliminated"
        table.add_row(name, places[seat], str(view["fields_on_board"][seat]),
                      str(view["cities_on_board"][seat]), str(view["princes_on_board"][seat]),
                      supply, queen)
    return table


def standing_places(scores: Sequence[int]) -> list[str]:
    """Places from the standings: "1st", "=1st" when level on Fields, Cities and Princes,
    "out" once a seat's Queen is taken (its standing is -1)."""
    def ordinal(n: int) -> str:
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"

    places = []
    for score in scores:
        if score < 0:
            places.append("out")
            continue
        level = sum(1 for other in scores if other == score) > 1
        places.append(("=" if level else "") + ordinal(1 + sum(1 for o in scores if o > score)))
    return places


# -- the renderer --------------------------------------------------------------------------------

class QueensRenderer:
    """Draws Queens positions, menus and events for the command line."""

    def __init__(self, game: Game, labels: Sequence[str] | None = None) -> None:
        self.game = game
        self.labels = list(labels) if labels else None

    def seat_text(self, seat: int, suffix: str = "") -> Text:
        return seat_label(seat, suffix)

    def legend(self) -> list[Text]:
        return legend()

    def heading(self, state: State) -> Text:
        text = seat_label(state.current_player, " to play")
        text.append(f" · round {state.round}", style="")  # type: ignore[attr-defined]
        return text

    def status(self, state: State) -> Text:
        text = Text(f"Round {state.round} of at most 50", style="bold")  # type: ignore[attr-defined]
        if state.final_round:  # type: ignore[attr-defined]
            text.append(" · final round: the game ends when this round is complete", style="bold")
        return text

    def position(self, state: State, marks: bool = False) -> list[RenderableType]:
        return [self.status(state), join_lines(board_lines(state)),
                players_table(state, self.labels)]

    # -- the menu --------------------------------------------------------------------------

    def piece_name(self, state: State, coord: Sequence[int]) -> str:
        return texts.piece_name(state, coord)

    def is_attack(self, state: State, coord: Sequence[int]) -> bool:
        return texts.is_attack(state, coord)

    def sorted_actions(self, state: State) -> list[Action]:
        """The legal actions in menu order: the Queen's moves, each Prince's moves (by space),
        joint attacks, founding, sowing, passing."""
        actions = state.legal_actions()

        def key(action: Action) -> tuple:
            if isinstance(action, Move):
                queen_first = 0 if self.piece_name(state, action.src) == "Queen" else 1
                return (0, queen_first, action.src, action.dst)
            if isinstance(action, Joint):
                return (1, 0, action.target, (action.first, action.second))
            if isinstance(action, Found):
                return (2, 0, (), ())
            if isinstance(action, Sow):
                return (3, 0, action.at, ())
            return (4, 0, (), ())

        return sorted(actions, key=key)

    def menu(self, state: State, width: int = MENU_WIDTH
             ) -> tuple[list[Action], list[RenderableType]]:
        """The numbered actions, grouped by piece, in the board's labels; lines at most
        `width` characters."""
        actions = self.sorted_actions(state)
        groups: list[tuple[str, list[tuple[int, str]]]] = []
        for number, action in enumerate(actions, 1):
            if isinstance(action, Move):
                title = f"{self.piece_name(state, action.src)} {space_name(state, action.src)} to"
                attack = self.is_attack(state, action.dst)
                entry = space_name(state, action.dst) + ("x" if attack else "")
            elif isinstance(action, Joint):
                title = "Joint attacks"
                entry = move_label(action, state.game.board.radius)  # type: ignore[attr-defined]
            elif isinstance(action, Found):
                title, entry = "Found a City", f"on {space_name(state, self._queen(state))}"
            elif isinstance(action, Sow):
                title, entry = "Sow a Field on", space_name(state, action.at)
            else:
                title, entry = "Nothing else is possible", "pass"
            if not groups or groups[-1][0] != title:
                groups.append((title, []))
            groups[-1][1].append((number, entry))
        indent = max(len(title) for title, _ in groups) + 2
        if indent > width // 2:
            indent = 4
        lines: list[RenderableType] = []
        for title, entries in groups:
            line = Text(title.ljust(indent) if len(title) < indent else title, style="bold")
            used = len(line.plain)
            if len(title) >= indent:
                lines.append(line)
                line, used = Text(" " * indent), indent
            for number, entry in entries:
                item = f"{number:>3} {entry}  "
                if used + len(item.rstrip()) > width and used > indent:
                    lines.append(line)
                    line = Text(" " * indent)
                    used = indent
                line.append(f"{number:>3}", style="bold cyan")
                line.append(f" {entry}  ")
                used += len(item)
            line.rstrip()
            lines.append(line)
        note = Text("(x: an attack. Type a number, or a move in the board's labels: f11-e10, "
                    "sow e4, found; h: help)", style="dim")
        lines.append(note)
        return actions, lines

    # -- the terminal's screen, commands and help -------------------------------------------

    def screen(self, state: State, size: Size | None = None) -> list[RenderableType]:
        """The position and the menu, the menu as wide as the terminal. When the whole menu
        (up to ~120 moves) would push the board out of a short terminal (80x24), it is
        summed up instead, one entry per piece, and the moves are typed as the board labels
        them or listed per space (`j15`); their numbers stay valid."""
        width = MENU_WIDTH if size is None else size.width
        full = [*self.position(state, marks=True), *self.menu(state, width)[1]]
        if size is None or height_of(full, width) <= size.height:
            return full
        position = [join_lines(board_lines(state)), players_table(state, self.labels)]
        if state.final_round:  # type: ignore[attr-defined]
            position.insert(0, self.status(state))
        return [*position, *self.summary(state, width)]

    def summary(self, state: State, width: int) -> list[RenderableType]:
        """The menu in brief: how many moves each piece has, then how to name one."""
        counts: dict[str, int] = {}
        for action in self.sorted_actions(state):
            if isinstance(action, Move):
                name = f"{self.piece_name(state, action.src)} {space_name(state, action.src)}"
            elif isinstance(action, Joint):
                name = "joint attacks"
            elif isinstance(action, Found):
                name = "found a City"
            elif isinstance(action, Sow):
                name = "sow"
            else:
                name = "pass"
            counts[name] = counts.get(name, 0) + 1
        items = [name if name in ("found a City", "pass") else f"{name}: {count}"
                 for name, count in counts.items()]
        line = Text("Moves ", style="bold")
        line.append(" · ".join(items))
        note = Text("(type a move as the board labels it: f11-e10, e10+g10xf9, sow e4, found; "
                    "or a space, j15, to list its moves with their numbers; h: help)",
                    style="dim")
        return [line, note]

    def command(self, state: State, text: str) -> Reply | None:
        """A move typed in the board's labels (or axial pairs): the legal action it names,
        an explanation when it names none, None when the text is no move."""
        radius = state.game.board.radius  # type: ignore[attr-defined]
        action = parse_move(text, radius)
        space = parse_space(text, radius)
        if action is None and space is not None:
            return Reply(lines=[self.moves_at(state, space)])
        if action is None:
            if looks_like_a_move(text):
                return Reply(lines=[Text(f"{text!r} names no space of the board: spaces are a "
                                         "row letter and the column over it, e.g. f11.",
                                         style="bold red")])
            return None
        for legal in state.legal_actions():
            if legal == action:
                return Reply(action=legal)
        return Reply(lines=[Text(f"{text!r} is not a legal move now: pick one from the list "
                                 "(by its number or as it reads).", style="bold red")])

    def moves_at(self, state: State, space: tuple[int, int]) -> Text:
        """The numbered moves that start or end on a space (a space typed alone)."""
        radius = state.game.board.radius  # type: ignore[attr-defined]
        found = []
        for number, action in enumerate(self.sorted_actions(state), 1):
            touched = [getattr(action, key, None) for key in ("src", "dst", "first", "second",
                                                              "target", "at")]
            if space in touched:
                attack = isinstance(action, Move) and self.is_attack(state, action.dst)
                found.append(f"{number} {move_label(action, radius, attack)}")
        where = label(space, radius)
        if not found:
            return Text(f"No legal move starts or ends on {where}.", style="bold")
        return Text(f"Moves on {where}: " + ", ".join(found), style="bold")

    def prompt_keys(self) -> str:
        return " or f11-e10"

    def help(self) -> list[Text]:
        keys = shared_keys() + [
            ("f11-e10", "move the piece on f11 to e10 (f11xe10, an attack, reads too)"),
            ("e10+g10xf9", "the Princes on e10 and g10 attack f9 together"),
            ("sow e4", "sow a Field on e4"),
            ("found", "found a City where your Queen stands"),
            ("pass", "pass (only when nothing else is possible)"),
            ("j15", "a space alone: the moves that start or end there"),
        ]
        notes = ("A space is its row letter (left and right of the board) and the",
                 "column number over it (above and below): f11 is the centre.",
                 "The rules' axial pairs read too: (0,4)-(0,3).",
                 "A cell: terrain (. plain, ^ mountain), piece (Q, P, 2: two Princes),",
                 "building (C City, f Field), each followed by its owner's initial.")
        return help_lines("Queens & Princes", keys, notes)

    def _queen(self, state: State) -> tuple[int, int]:
        return texts.queen_space(state)

    # -- describing what happens ---------------------------------------------------------------

    def describe(self, state: State, action: Action, viewer: Viewer = None) -> str:
        """The game's line for `action` (`Game.describe`)."""
        return self.game.describe(state, action, viewer)

    def snapshot(self, state: State) -> dict[str, Any]:
        return {"log": len(state.log)}  # type: ignore[attr-defined]

    def news(self, before: dict[str, Any], state: State) -> list[Text]:
        """What the last action caused: defeats, captures, penalties, the final round."""
        lines = []
        for entry in state.log[before.get("log", 0):]:  # type: ignore[attr-defined]
            line = event_text(entry, state.game.board.radius)  # type: ignore[attr-defined]
            if line is not None:
                lines.append(line)
        return lines

    def final(self, state: State) -> list[RenderableType]:
        out: list[RenderableType] = [join_lines(board_lines(state)),
                                     players_table(state, self.labels, title="Final position")]
        out.append(winners_text(state))
        return out


def event_text(entry: dict[str, Any], radius: int | None = None) -> Text | None:
    """The game's sentence for one logged event (`texts.event_text`; None for the game-over
    entry: `final` says it), each seat's colour name drawn in its colour."""
    sentence = texts.event_text(entry, colour_name, radius)
    if sentence is None:
        return None
    text = Text(sentence, style="bold" if entry["event"] == "final_round" else "")
    for seat in range(len(QueensGame.info.seats)):
        text.highlight_words([colour_name(seat)], seat_style(seat))
    return text


def winners_text(state: State) -> Text:
    winners = state.winners  # type: ignore[attr-defined]
    text = winners_line(winners, seat_label)
    if not winners:
        return text
    reason = state.log[-1].get("reason", "") if state.log else ""  # type: ignore[attr-defined]
    if texts.end_text(reason):
        text.append(f" — {texts.end_text(reason)}", style="")
    return text


__all__ = ["QueensRenderer", "board_lines", "cell", "event_text", "legend", "players_table",
           "seat_label", "winners_text"]
