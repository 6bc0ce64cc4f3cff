"""Carcassonne in the terminal: tiles as 5x3 character blocks, drawn with Rich.

Each tile becomes a block of 3 rows of 5 characters:

    WR+NL  NL  N  NR  NR+EL          .▓▓▓.     tile D: city on N,
      W    W'  m  E'    E            ─────     road W-E, the north
    SR+WL  SR  S  SL  ER+SL          .....     field strip in the corners

The middle cell `m` shows what the tile centre holds (monastery †, road bend or fork,
junction ●, house ⌂ at a dead end, or the city when it spans several sides). Cities are ▓/▒
(a second city on the same tile takes the other shade, so touching cities stay apart),
fields blank or dotted (alternating tile by tile so tiles stay apart without colour), roads
box-drawing lines, pennants ♦. An abbey is a framed block ╔═══╗ around its †.

Figures are letters in the colour of their seat, on the feature they stand on: followers by
role (K knight, H highwayman, F farmer, M monk), the mayor Y (y when lying flat: M is taken
by the monk), the wagon W. A barn stands where four tiles meet, so it is drawn as a 2x2
block of B on the four corner cells around that point.

The geometry comes from the engine's own `TileVariant`s (side types, features, monastery,
abbey), never from a second copy of the tiles, so a new tile set draws without changes here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from rich.columns import Columns
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from boardwright.core.actions import Action
from boardwright.core.game import Game, State, Viewer
from boardwright.games.carcassonne import texts
from boardwright.games.carcassonne.actions import (
    Deploy, Draw, Pass, Place, PlaceAbbey, pack, unpack,
)
from boardwright.games.carcassonne.tiles import (
    CITY, CORNERS, FIELD, FIELD_SIDE, KIND_NAMES, MONASTERY, ROAD, TileVariant,
)
from boardwright.core.info import Seat
from boardwright.games.carcassonne.game import CarcassonneGame
from boardwright.render import scores_table, winners_line
from boardwright.render import seat_text as shared_seat_text

CELL_W, CELL_H = 5, 3
N, E, S, W = 0, 1, 2, 3

# Phases of the engine (strings of its public API).
PLACE_TILE, DEPLOY, CHOOSE_TILE = "place_tile", "deploy", "choose_tile"
WAGON_MOVE, FINAL_ROUND = "wagon_move", "final_abbey_round"

ROLE_LETTER = {"knight": "K", "highwayman": "H", "farmer": "F", "monk": "M"}
# Figures other than followers have one letter whatever they stand on (M is the monk's).
FIGURE_LETTER = {"mayor": "Y", "wagon": "W", "barn": "B"}
LYING_MAYOR = "y"
KIND_ORDER = {CITY: 0, ROAD: 1, MONASTERY: 2, FIELD: 3}
FIGURE_ORDER = {"follower": 0, "mayor": 1, "wagon": 2, "barn": 3}
# Supply columns of the scores table, in this order, for the pieces a game has.
SUPPLY_COLUMNS = (("follower", "Followers"), ("mayor", "Mayors"), ("wagon", "Wagons"),
                  ("barn", "Barns"), ("abbey", "Abbeys"))

# Cell kinds of a tile block.
C_FIELD, C_CITY, C_ROAD, C_MONASTERY, C_JUNCTION, C_WALL, C_ABBEY = range(7)

# Where each side and half-edge shows in the 3x5 block, as (row, column).
CITY_CELLS = {N: ((0, 1), (0, 2), (0, 3)), S: ((2, 1), (2, 2), (2, 3)),
              W: ((1, 0), (1, 1)), E: ((1, 3), (1, 4))}
ROAD_CELLS = {N: ((0, 2),), S: ((2, 2),), W: ((1, 0), (1, 1)), E: ((1, 3), (1, 4))}
ROAD_END = {N: (0, 2), S: (2, 2), W: (1, 1), E: (1, 3)}  # where a road ending at a junction sits
SIDE_MIDDLE = {N: (0, 2), S: (2, 2), W: (1, 0), E: (1, 4)}
HALF_CELLS = ((0, 1), (0, 3), (0, 4), (2, 4), (2, 3), (2, 1), (2, 0), (0, 0))  # NL..WR
# corner cell -> (its two half-edges, its two sides)
CORNER_CELLS = {(0, 0): ((7, 0), (W, N)), (0, 4): ((1, 2), (N, E)),
                (2, 4): ((3, 4), (E, S)), (2, 0): ((5, 6), (S, W))}
# A tile corner by name -> its cell (barns and their option numbers are drawn there).
CORNER_CELL = {"NW": (0, 0), "NE": (0, 4), "SE": (2, 4), "SW": (2, 0)}
# The barn point corner(x, y): the tiles around it (offset from (x, y)) and their corner cell.
BARN_CELLS = (((0, 0), (2, 4)), ((1, 0), (2, 0)), ((0, 1), (0, 4)), ((1, 1), (0, 0)))
CENTRE = (1, 2)
# Cells in the order a feature's marker (follower, option number) prefers them.
PREFERENCE = ((1, 2), (0, 2), (2, 2), (1, 1), (1, 3), (0, 1), (0, 3), (2, 1), (2, 3),
              (1, 0), (1, 4), (0, 0), (0, 4), (2, 0), (2, 4))
ROAD_BENDS = {frozenset((N, S)): "│", frozenset((E, W)): "─", frozenset((N, E)): "└",
              frozenset((N, W)): "┘", frozenset((S, E)): "┌", frozenset((S, W)): "┐",
              frozenset((N, E, W)): "┴", frozenset((S, E, W)): "┬",
              frozenset((N, S, E)): "├", frozenset((N, S, W)): "┤",
              frozenset((N, E, S, W)): "┼"}
ABBEY_ROWS = ("╔═══╗", "║   ║", "╚═══╝")

# Colours: two shades per terrain, alternating like a chessboard so tiles stay apart.
FIELD_BG = ("#3f7a2a", "#4b8934")
CITY_BG = ("#b8793c", "#a86b31")
FIELD_CHARS = (" ", "·")
CITY_CHARS = ("▓", "▒")
ROAD_STYLE = "bold #f2f2e6 on {bg}"
MONASTERY_STYLE = "bold #ffffff on #a01818"
ABBEY_STYLE = "bold #efe6d2 on #5c4a3a"
PENNANT_STYLE = "bold #1f3fbf on {bg}"
MARK_STYLE = "bold cyan"
OPTION_STYLE = "bold black on bright_cyan"

Overlay = dict[tuple[int, int], dict[tuple[int, int], tuple[str, str]]]


@dataclass(frozen=True)
class TileLayout:
    """How one tile variant is drawn: a kind (and owning feature) per cell, plus anchors."""

    kinds: tuple[tuple[int, ...], ...]
    chars: tuple[tuple[str, ...], ...]  # fixed characters (roads, monastery); "" = by terrain
    anchors: dict[int, tuple[int, int]]  # local feature index -> cell of its marker
    pennants: tuple[tuple[int, int], ...]
    second_city: frozenset[tuple[int, int]] = frozenset()  # cells of a tile's other cities


_LAYOUTS: dict[int, tuple[TileVariant, TileLayout]] = {}


def layout(variant: TileVariant) -> TileLayout:
    """The block of a tile variant (computed once per variant: variants are static)."""
    cached = _LAYOUTS.get(id(variant))
    if cached is not None and cached[0] is variant:
        return cached[1]
    result = _abbey_layout(variant) if variant.abbey else _build_layout(variant)
    _LAYOUTS[id(variant)] = (variant, result)
    return result


def _abbey_layout(variant: TileVariant) -> TileLayout:
    """An abbey: a framed block (its edges close whatever faces them) around its monastery."""
    kinds = [[C_ABBEY] * CELL_W for _ in range(CELL_H)]
    chars = [list(row) for row in ABBEY_ROWS]
    kinds[1][2], chars[1][2] = C_MONASTERY, "†"
    return TileLayout(tuple(map(tuple, kinds)), tuple(map(tuple, chars)),
                      {variant.monastery: CENTRE}, ())


def _build_layout(variant: TileVariant) -> TileLayout:
    features = variant.features
    kinds = [[C_FIELD] * CELL_W for _ in range(CELL_H)]
    owner = [[-1] * CELL_W for _ in range(CELL_H)]
    chars = [[""] * CELL_W for _ in range(CELL_H)]

    def put(cell: tuple[int, int], kind: int, feature: int, char: str = "") -> None:
        r, c = cell
        kinds[r][c], owner[r][c], chars[r][c] = kind, feature, char

    # Fields first: everything else is drawn over them.
    fields = [f for f in features if f.kind == FIELD]
    edge_fields = [f for f in fields if f.halves]
    if edge_fields:
        main = max(edge_fields, key=lambda f: len(f.halves)).index
        for r in range(CELL_H):
            for c in range(CELL_W):
                owner[r][c] = main
    for f in edge_fields:
        for h in f.halves:
            put(HALF_CELLS[h], C_FIELD, f.index)
    for side in (N, E, S, W):
        field = variant.half_feature[2 * side]
        if variant.side_types[side] == FIELD_SIDE and field >= 0:
            put(SIDE_MIDDLE[side], C_FIELD, field)
            if side in (W, E):
                put(ROAD_END[side], C_FIELD, field)
    walls = []
    for cell, (halves, _) in CORNER_CELLS.items():
        a, b = (variant.half_feature[h] for h in halves)
        if a >= 0 or b >= 0:
            put(cell, C_FIELD, a if a >= 0 else b)
        else:
            put(cell, C_WALL, -1)
            walls.append(cell)
    # Enclosed meadows (IN1, IN2) touch no edge: they take the walled-in corners in turn.
    enclosed = [f for f in fields if not f.halves]
    for i, cell in enumerate(walls if enclosed else ()):
        put(cell, C_FIELD, enclosed[i % len(enclosed)].index)

    # Cities: their sides, the centre when they span several sides, corners between them.
    # The first city is drawn last, so it lies on top where two cross (AM02).
    cities = [f for f in features if f.kind == CITY]
    city_sides = {side for f in cities for side in f.sides}
    for f in reversed(cities):
        for side in f.sides:
            for cell in CITY_CELLS[side]:
                put(cell, C_CITY, f.index)
        if len(f.sides) >= 2:
            put(CENTRE, C_CITY, f.index)
        if N in f.sides and S in f.sides:  # a band across the tile, unless another city
            others = city_sides - set(f.sides)  # comes in from that side (AM02, AM03)
            for side, cell in ((W, (1, 1)), (E, (1, 3))):
                if side not in others:
                    put(cell, C_CITY, f.index)
        for cell, (_, (a, b)) in CORNER_CELLS.items():
            if a in f.sides and b in f.sides:
                put(cell, C_CITY, f.index)
    first_city = cities[0].index if cities else -1
    second_city = frozenset((r, c) for r in range(CELL_H) for c in range(CELL_W)
                            if kinds[r][c] == C_CITY and owner[r][c] != first_city)

    if variant.monastery >= 0:
        put(CENTRE, C_MONASTERY, variant.monastery, "†")

    roads = [f for f in features if f.kind == ROAD]
    ends = [f for f in roads if len(f.sides) == 1]
    linked = {i for link in variant.links for i in link}
    for f in roads:
        for side in f.sides:
            for cell in ROAD_CELLS[side]:
                put(cell, C_ROAD, f.index, "│" if side in (N, S) else "─")
        if len(f.sides) >= 2:
            put(CENTRE, C_ROAD, f.index, ROAD_BENDS[frozenset(f.sides)])
    if variant.monastery < 0:
        if len(ends) >= 3:
            put(CENTRE, C_JUNCTION, -1, "●")
        elif len(ends) == 1 and ends[0].index not in linked and kinds[1][2] == C_FIELD:
            put(CENTRE, C_JUNCTION, -1, "⌂")  # a dead end at a house (AM10)

    anchors: dict[int, tuple[int, int]] = {}
    taken: set[tuple[int, int]] = set()

    def owned(f_index: int, kind: int) -> list[tuple[int, int]]:
        return [cell for cell in PREFERENCE
                if owner[cell[0]][cell[1]] == f_index and kinds[cell[0]][cell[1]] == kind]

    for f in sorted(features, key=lambda f: KIND_ORDER[f.kind]):
        if f.kind == MONASTERY:
            cell = CENTRE
        elif f.kind == ROAD:
            cell = CENTRE if len(f.sides) >= 2 else ROAD_END[f.sides[0]]
        else:
            kind = C_CITY if f.kind == CITY else C_FIELD
            free = [c for c in owned(f.index, kind) if c not in taken]
            if free:
                cell = free[0]
            elif f.halves:
                cell = HALF_CELLS[f.halves[0]]
            else:
                cell = CENTRE
        anchors[f.index] = cell
        taken.add(cell)

    pennants = []
    for f in features:
        if f.kind == CITY and f.pennants:
            spare = [c for c in owned(f.index, C_CITY) if c not in taken]
            pennants.extend(spare[:f.pennants])

    return TileLayout(tuple(map(tuple, kinds)), tuple(map(tuple, chars)), anchors,
                      tuple(pennants), second_city)


def tile_lines(variant: TileVariant, parity: int = 0,
               overlay: dict[tuple[int, int], tuple[str, str]] | None = None) -> list[Text]:
    """The 3 lines of a tile block; `overlay` puts markers (char, style) on cells."""
    shape = layout(variant)
    field_bg = FIELD_BG[parity]
    lines = []
    for r in range(CELL_H):
        line = Text()
        for c in range(CELL_W):
            cell = (r, c)
            kind = shape.kinds[r][c]
            if overlay and cell in overlay:
                char, style = overlay[cell]
                line.append(char, style=style)
            elif kind == C_CITY:
                shade = parity ^ (cell in shape.second_city)
                if cell in shape.pennants:
                    line.append("♦", style=PENNANT_STYLE.format(bg=CITY_BG[shade]))
                else:
                    line.append(CITY_CHARS[shade], style=f"#8a5020 on {CITY_BG[shade]}")
            elif kind in (C_ROAD, C_JUNCTION):
                line.append(shape.chars[r][c], style=ROAD_STYLE.format(bg=field_bg))
            elif kind == C_MONASTERY:
                line.append(shape.chars[r][c], style=MONASTERY_STYLE)
            elif kind == C_ABBEY:
                line.append(shape.chars[r][c], style=ABBEY_STYLE)
            else:
                line.append(FIELD_CHARS[parity], style=f"#8cc46c on {field_bg}")
        lines.append(line)
    return lines


def empty_lines(mark: str | None = None) -> list[Text]:
    """An empty board square; with a mark (a letter), a small frame naming a legal position."""
    if mark is None:
        return [Text(" " * CELL_W) for _ in range(CELL_H)]
    return [Text("╭───╮", style="cyan"),
            Text.assemble(("│ ", "cyan"), (mark[:1], MARK_STYLE), (" │", "cyan")),
            Text("╰───╯", style="cyan")]


# Letters the prompt reads as commands (pan w/a/s/d, c centre, l last tile, h help, q quit)
# never name a position, so a typed letter is never ambiguous.
COMMAND_LETTERS = "acdhlqsw"
POSITION_ALPHABET = "".join(ch for ch in "abcdefghijklmnopqrstuvwxyz"
                            if ch not in COMMAND_LETTERS)
POSITION_ALPHABET += POSITION_ALPHABET.upper()


def position_letters(count: int) -> list[str]:
    """Names of the legal positions shown on the board: the letters that are no command
    (b, e, f, g, i, ..., then the capitals), then *."""
    alphabet = POSITION_ALPHABET
    return [alphabet[i] if i < len(alphabet) else "*" for i in range(count)]


def seat_text(seat: int, suffix: str = "") -> Text:
    """A seat's name in its colour (`CarcassonneGame.info`, the one table of them)."""
    return shared_seat_text(CarcassonneGame.info, seat, suffix)


def mark_style(seat: Seat) -> str:
    """A figure's letter on the board: on the seat's colour (the web's), in black or white,
    whichever reads better on it."""
    colour = seat.colour.lstrip("#")
    if len(colour) != 6:
        return "bold reverse"
    red, green, blue = (int(colour[i:i + 2], 16) for i in (0, 2, 4))
    light = 0.299 * red + 0.587 * green + 0.114 * blue > 140
    return f"bold {'black' if light else 'white'} on {seat.colour}"


def seat_mark(seat: int) -> str:
    return mark_style(CarcassonneGame.info.seat(seat))


def figure_letter(figure: dict[str, Any]) -> str:
    """The letter of a figure of `view()["followers"]`: role for followers, own for others."""
    kind = figure.get("figure", "follower")
    if kind == "mayor" and figure.get("lying"):
        return LYING_MAYOR
    if kind in FIGURE_LETTER:
        return FIGURE_LETTER[kind]
    return ROLE_LETTER.get(figure.get("role", ""), "?")


def follower_overlays(state: State) -> Overlay:
    """Per tile position, the figure markers (letters in seat colour) on its cells: followers,
    mayors and wagons on their feature, barns on the four corner cells around their point."""
    board = state.graph.board  # type: ignore[attr-defined]
    view = state.view(None)
    out: Overlay = {}
    for barn in view.get("barns", ()):
        x, y = barn["corner"]["x"], barn["corner"]["y"]
        for (dx, dy), cell in BARN_CELLS:
            if pack(x + dx, y + dy) in board:
                out.setdefault((x + dx, y + dy), {})[cell] = (
                    FIGURE_LETTER["barn"], seat_mark(barn["player"]))
    for follower in view["followers"]:
        x, y = follower["x"], follower["y"]
        variant = _variant_at(board, x, y)
        if variant is None:
            continue
        local = variant.location_index.get(follower["location"])
        if local is None:
            continue
        cell = layout(variant).anchors[local]
        out.setdefault((x, y), {})[cell] = (figure_letter(follower), seat_mark(follower["player"]))
    return out


def _variant_at(board: dict[int, Any], x: int, y: int) -> TileVariant | None:
    entry = board.get(pack(x, y))
    return None if entry is None else entry[0]


Window = tuple[int, int, int, int]  # x0, x1, y0, y1: the squares a board drawing shows


def board_extent(state: State, marks: dict[tuple[int, int], str] | None = None) -> Window:
    """The smallest window holding every tile and every marked square."""
    board = state.graph.board  # type: ignore[attr-defined]
    squares = {unpack(pos) for pos in board} | set(marks or {})
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    return min(xs), max(xs), min(ys), max(ys)


def label_width(window: Window) -> int:
    """Characters of the y labels on the left of a board drawing (and the space after them)."""
    return max(len(str(y)) for y in window[2:]) + 1


def board_lines(state: State, marks: dict[tuple[int, int], str] | None = None,
                extra: Overlay | None = None, window: Window | None = None) -> list[Text]:
    """The board with x across the top and y down the left side: all of it, or the squares
    of `window` (a viewport that fits the terminal).

    `marks` frames empty positions with a letter (legal placements, holes for the abbey);
    `extra` adds markers on placed tiles (option numbers). The last placed tile's coordinates
    are highlighted.
    """
    tiles = {unpack(pos): variant for pos, (variant, _) in state.graph.board.items()}  # type: ignore[attr-defined]
    marks = marks or {}
    x0, x1, y0, y1 = window if window is not None else board_extent(state, marks)
    followers = follower_overlays(state)
    for pos, cells in (extra or {}).items():
        followers.setdefault(pos, {}).update(cells)
    last = state.view(None)["last_placed"]
    last_xy = (last["x"], last["y"]) if last else None
    label_w = label_width((x0, x1, y0, y1))

    header = Text(" " * label_w)
    for x in range(x0, x1 + 1):
        style = "bold yellow" if last_xy and last_xy[0] == x else "dim"
        header.append(f"{x:^{CELL_W}}", style=style)
    lines = [header]
    for y in range(y0, y1 + 1):
        rows = [Text() for _ in range(CELL_H)]
        for r in range(CELL_H):
            if r == CELL_H // 2:
                style = "bold yellow" if last_xy and last_xy[1] == y else "dim"
                rows[r].append(f"{y:>{label_w - 1}} ", style=style)
            else:
                rows[r].append(" " * label_w)
        for x in range(x0, x1 + 1):
            if (x, y) in tiles:
                block = tile_lines(tiles[(x, y)], (x + y) & 1, followers.get((x, y)))
            else:
                block = empty_lines(marks.get((x, y)))
            for r in range(CELL_H):
                rows[r].append_text(block[r])
        lines.extend(rows)
    return lines


def rotations_lines(variants: Sequence[TileVariant], canonical: Sequence[int]) -> list[Text]:
    """The 4 rotations of a tile side by side, labelled; equivalent turns are dimmed."""
    gap = "   "
    label = Text()
    blocks = []
    for q, variant in enumerate(variants):
        same = canonical[q] != q
        text = f"{90 * q}°" + (f"={90 * canonical[q]}°" if same else "")
        label.append(f"{text:<{CELL_W + len(gap)}}", style="dim" if same else "bold")
        blocks.append(tile_lines(variant, 0))
    lines = []
    for r in range(CELL_H):
        line = Text()
        for block in blocks:
            line.append_text(block[r])
            line.append(gap)
        lines.append(line)
    lines.append(label)
    return lines


def join_lines(lines: Iterable[Text]) -> Text:
    """One Text of several lines that never wraps (a board is wider than it is tall)."""
    out = Text("\n").join(lines)
    out.no_wrap = True
    out.overflow = "ignore"
    return out


def legend(pieces: Iterable[str] = ("follower",), lying_mayor: bool = False) -> list[Text]:
    """What the characters mean (printed once, not under every board); `pieces` are the
    supply keys of the game, so the expansion's figures are explained only when present."""
    pieces = set(pieces)
    tiles = Text.assemble(
        "Tiles: ", ("▓", f"#8a5020 on {CITY_BG[0]}"), " city  ",
        ("─", ROAD_STYLE.format(bg=FIELD_BG[0])), " road  ",
        ("†", MONASTERY_STYLE), " monastery  ",
        ("●", ROAD_STYLE.format(bg=FIELD_BG[0])), " junction  ",
        ("♦", PENNANT_STYLE.format(bg=CITY_BG[0])), " pennant  ", style="dim")
    if "abbey" in pieces:
        tiles.append_text(Text.assemble(("╔═╗", ABBEY_STYLE), " abbey  ", style="dim"))
    tiles.append("(blank/· fields)", style="dim")
    figures = "Figures, in their player's colour: K knight, H highwayman, F farmer, M monk"
    if "mayor" in pieces:
        figures += ", Y mayor" + (" (y lying flat)" if lying_mayor else "")
    if "wagon" in pieces:
        figures += ", W wagon"
    if "barn" in pieces:
        figures += ", B barn (a 2x2 block where four tiles meet)"
    return [tiles, Text(figures + ". x grows east, y south.", style="dim")]


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


class CarcassonneRenderer:
    """Draws Carcassonne positions, menus and events for the command line."""

    def __init__(self, game: Game, labels: Sequence[str] | None = None) -> None:
        self.game = game
        self.labels = list(labels) if labels else None
        self.pieces = [key for key, _ in SUPPLY_COLUMNS
                       if key in game.supply_per_player]  # type: ignore[attr-defined]
        self._fitted: Any = None

    def seat_text(self, seat: int, suffix: str = "") -> Text:
        return seat_text(seat, suffix)

    def legend(self) -> list[Text]:
        config = getattr(self.game, "config", None)
        return legend(self.pieces, bool(getattr(config, "mayor_lies_flat", False)))

    # -- the position ---------------------------------------------------------------------

    def heading(self, state: State) -> Text:
        """The title of a human's decision: who decides, and in whose turn if not their own."""
        view = state.view(None)
        seat, phase = view["current_player"], view["phase"]
        if phase == WAGON_MOVE:
            text = seat_text(seat, "'s wagon")
            if view["turn_player"] != seat:
                text.append(" (in ", style="")
                text.append_text(seat_text(view["turn_player"], "'s turn"))
                text.append(")", style="")
            return text
        if phase == FINAL_ROUND:
            return seat_text(seat, ": final round for the abbeys")
        return seat_text(seat, " to play")

    def position(self, state: State, marks: bool = False) -> list[RenderableType]:
        """Board, scores, supplies and what the player to move has to decide.

        With `marks` (a human is about to decide) legal placements and holes are framed on the
        board and lettered, the tile in hand is shown in its 4 rotations, and figure options
        (deploys, wagon moves) are numbered on the board.
        """
        view = state.view(None)
        phase = view["phase"]
        out: list[RenderableType] = [self.status(state)]
        board_marks = None
        extra = None
        if marks and phase in (PLACE_TILE, CHOOSE_TILE, FINAL_ROUND):
            board_marks = self.position_marks(state)
        if marks and phase in (DEPLOY, WAGON_MOVE):
            actions, _ = self.menu(state)
            extra = self.option_overlay(state, actions)
        out.append(join_lines(board_lines(state, board_marks, extra)))
        out.append(self.scores(state))
        if marks:
            out.extend(self.task(state))
        return out

    def status(self, state: State) -> Text:
        """The turn, the pile and what is special about this moment of the game."""
        view = state.view(None)
        turn = view["turn"] + (1 if view["phase"] in (PLACE_TILE, CHOOSE_TILE, FINAL_ROUND)
                               else 0)
        status = Text(f"Turn {turn}", style="bold")
        status.append(f" · {plural(view['draw_pile_size'], 'tile')} in the pile", style="")
        if view.get("final_round") is not None:
            status.append(" · final round for the abbeys", style="bold")
        if view["discarded"]:
            status.append(f" · discarded: {' '.join(view['discarded'])}", style="")
        return status

    # -- the decision screen, fitted to the terminal (carcassonne_screen.py) ------------------

    @property
    def fitted(self) -> Any:
        if self._fitted is None:
            from boardwright.render.carcassonne_screen import CarcassonneScreen

            self._fitted = CarcassonneScreen(self)
        return self._fitted

    def screen(self, state: State, size: Any = None) -> list[RenderableType]:
        """The decision screen: position and menu, the board a window that fits `size`."""
        return self.fitted.screen(state, size)

    def final_screen(self, state: State, size: Any = None) -> list[RenderableType]:
        """The final position with the board cut to the terminal's width."""
        return self.fitted.final(state, size)

    def command(self, state: State, text: str) -> Any:
        """Pan and centre the board, or play at a position letter (None: not a command)."""
        return self.fitted.command(state, text)

    def prompt_keys(self) -> str:
        return self.fitted.prompt_keys()

    def help(self) -> list[Text]:
        return self.fitted.help()

    def task(self, state: State) -> list[RenderableType]:
        """What the player to move is asked, above the menu."""
        view = state.view(None)
        phase, seat = view["phase"], view["current_player"]
        if phase == PLACE_TILE and view["tile"] is not None:
            tile_type = self.game.tile_types[view["tile"]]  # type: ignore[attr-defined]
            head = seat_text(seat)
            head.append(f" to place tile {view['tile']}", style="bold")
            if tile_type.description:
                head.append(f" ({tile_type.description})", style="")
            return [head, join_lines(rotations_lines(tile_type.variants, tile_type.canonical))]
        head = seat_text(seat)
        if phase == CHOOSE_TILE:
            head.append(": draw a tile, or place your abbey into a hole (lettered on the board)",
                        style="")
        elif phase == FINAL_ROUND:
            head.append(": the last tile is placed; place your abbey into a hole (lettered on "
                        "the board)", style="")
        elif phase == DEPLOY:
            last = view["last_placed"]
            board = state.graph.board  # type: ignore[attr-defined]
            tile = _variant_at(board, last["x"], last["y"])
            name = "the abbey" if tile is not None and tile.abbey else f"tile {view['tile']}"
            head.append(f": put a figure on {name} at ({last['x']}, {last['y']}) or none "
                        "(option numbers on the board)", style="")
        elif phase == WAGON_MOVE:
            wagon = view["wagon"]
            where = f"({wagon['from']['x']}, {wagon['from']['y']})"
            head.append(f"'s wagon at {where} has scored: move it to a free road, city or "
                        "monastery (numbers on the board) or take it back", style="")
            for other in view.get("waiting_wagons", ())[1:]:
                head.append(" · then ", style="dim")
                head.append_text(seat_text(other["player"], "'s wagon"))
                head.append(f" at ({other['x']}, {other['y']})", style="dim")
        else:
            return []
        return [head]

    def scores(self, state: State, title: str | None = None, compact: bool = False) -> Table:
        """Scores, the pieces each seat has left (one column per kind of piece in the game)
        and, unless `compact`, its figures on the board."""
        view = state.view(None)
        on_board: dict[int, list[str]] = {}
        for f in view["followers"]:
            on_board.setdefault(f["player"], []).append(f"{figure_letter(f)}({f['x']},{f['y']})")
        for barn in view.get("barns", ()):
            corner = barn["corner"]
            on_board.setdefault(barn["player"], []).append(
                f"{FIGURE_LETTER['barn']}({corner['x']},{corner['y']})SE")
        for wagon in view.get("waiting_wagons", ()):
            on_board.setdefault(wagon["player"], []).append(
                f"{FIGURE_LETTER['wagon']}({wagon['x']},{wagon['y']}) waits")
        columns: list[tuple[str, list[str]]] = []
        for key, header in SUPPLY_COLUMNS:
            if key in self.pieces:
                columns.append((header, [str(s.get(key, 0)) for s in view["supply"]]))
        if not compact:
            columns.append(("On board", [" ".join(on_board.get(seat, []))
                                         for seat in range(len(view["supply"]))]))
        return scores_table(view["scores"], labels=self.labels, title=title, columns=columns,
                            name=seat_text)

    def position_marks(self, state: State) -> dict[tuple[int, int], str]:
        """Letters for the empty squares a decision is about: placements or abbey holes."""
        actions = self.sorted_actions(state)
        positions: list[tuple[int, int]] = []
        for action in actions:
            if isinstance(action, (Place, PlaceAbbey)) and (action.x, action.y) not in positions:
                positions.append((action.x, action.y))
        return dict(zip(positions, position_letters(len(positions))))

    def option_overlay(self, state: State, actions: Sequence[Action]) -> Overlay:
        """Option numbers (1-9) drawn where the figure would go; the first wins a cell."""
        out: Overlay = {}
        board = state.graph.board  # type: ignore[attr-defined]
        for number, action in enumerate(actions, 1):
            if not isinstance(action, Deploy) or number > 9:
                continue
            variant = _variant_at(board, action.x, action.y)
            if variant is None:
                continue
            if action.figure == "barn" and action.location in CORNER_CELL:
                cell = CORNER_CELL[action.location]
            elif action.location in variant.location_index:
                cell = layout(variant).anchors[variant.location_index[action.location]]
            else:
                continue
            out.setdefault((action.x, action.y), {}).setdefault(cell, (str(number), OPTION_STYLE))
        return out

    # -- the menu -------------------------------------------------------------------------

    def sorted_actions(self, state: State) -> list[Action]:
        """Legal actions in reading order: placements by y, x, rotation; drawing before the
        abbey holes (by y, x); deploys by feature kind (city, road, monastery, field, barn
        corners), location and figure; wagon moves by position; passing last."""
        def key(action: Action) -> tuple:
            if isinstance(action, Draw):
                return (0,)
            if isinstance(action, Place):
                return (1, action.y, action.x, action.rotation)
            if isinstance(action, PlaceAbbey):
                return (1, action.y, action.x, 0)
            if isinstance(action, Deploy):
                return (2, action.y, action.x, *self._deploy_order(state, action))
            return (3,)

        return sorted(state.legal_actions(), key=key)

    def _deploy_order(self, state: State, action: Deploy) -> tuple[int, str, int]:
        """Feature kind (city, road, monastery, field; barn corners after), location, figure."""
        if action.figure == "barn":
            corner = CORNERS.index(action.location) if action.location in CORNERS else 9
            return (9, str(corner), FIGURE_ORDER["barn"])
        kind = texts.kind_at(state, action)
        return (9 if kind is None else KIND_ORDER[kind], action.location,
                FIGURE_ORDER.get(action.figure, 9))

    def menu(self, state: State) -> tuple[list[Action], list[RenderableType]]:
        actions = self.sorted_actions(state)
        if state.phase == PLACE_TILE:
            return actions, [self._place_menu(actions)]
        letters = self.position_marks(state) if state.phase in (CHOOSE_TILE, FINAL_ROUND) else {}
        lines: list[RenderableType] = []
        for number, action in enumerate(actions, 1):
            line = Text(f"{number:>3}  ", style="bold")
            line.append(self.option_label(state, action, letters))
            lines.append(line)
        if state.phase == DEPLOY:
            view = state.view(None)
            seat = view["current_player"]
            left = view["supply"][seat] if seat >= 0 else {}
            names = {"follower": "follower", "mayor": "mayor", "wagon": "wagon", "barn": "barn"}
            parts = [plural(left.get(k, 0), names[k]) for k in self.pieces if k in names]
            lines.append(Text(f"     ({', '.join(parts)} in supply)", style="dim"))
        return actions, lines

    def _place_menu(self, actions: Sequence[Action]) -> RenderableType:
        groups: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for number, action in enumerate(actions, 1):
            assert isinstance(action, Place)
            groups.setdefault((action.x, action.y), []).append((number, action.rotation))
        entries = []
        for letter, ((x, y), options) in zip(position_letters(len(groups)), groups.items()):
            entry = Text()
            entry.append(letter, style=MARK_STYLE)
            entry.append(f" ({x},{y}) ")
            for number, rotation in options:
                entry.append(f" {number}:", style="bold")
                entry.append(f"{rotation}°")
            entries.append(entry)
        return Columns(entries, padding=(0, 3))

    def option_label(self, state: State, action: Action,
                     letters: dict[tuple[int, int], str] | None = None) -> str:
        """A menu entry: the game's words for choosing `action` (`texts.option_text`), the
        abbey's hole named by its letter on the board."""
        hole = (letters or {}).get((action.x, action.y), "") \
            if isinstance(action, PlaceAbbey) else ""
        return texts.option_text(state, action, hole)

    # -- the log --------------------------------------------------------------------------

    def describe(self, state: State, action: Action, viewer: Viewer = None) -> str:
        """The game's log line of a move (`Game.describe`)."""
        return self.game.describe(state, action, viewer)

    def snapshot(self, state: State) -> dict[str, Any]:
        log, discarded = state.log, state.discarded  # type: ignore[attr-defined]
        started = state.view(None).get("final_round") is not None
        return {"log": len(log), "discarded": len(discarded), "final_round": started}

    def news(self, before: dict[str, Any], state: State) -> list[Text]:
        """Discarded tiles, score events and the start of the final abbey round since `before`."""
        lines = []
        for tile in state.discarded[before.get("discarded", 0):]:  # type: ignore[attr-defined]
            lines.append(Text(texts.discarded_text(tile), style="italic"))
        log = state.log  # type: ignore[attr-defined]
        # Announced once, when the round opens with a seat to play (not if nobody can).
        new_round = not before.get("final_round") and state.phase == FINAL_ROUND
        for entry in log[before.get("log", 0):]:
            lines.extend(score_lines(entry))
        if new_round:
            lines.insert(0, Text(texts.FINAL_ROUND_TEXT, style="italic"))
        return lines

    def final(self, state: State) -> list[RenderableType]:
        """The end of the game: final board, scores and winner(s)."""
        out: list[RenderableType] = [join_lines(board_lines(state)),
                                     self.scores(state, title="Final scores")]
        out.append(winners_text(state.view(None)["winners"], state.scores))
        return out


def score_lines(entry: dict[str, Any]) -> list[Text]:
    """The game's lines of one scoring, one per player it paid (`texts.score_lines`, e.g.
    "Red +4 (city, completed)"), the seat's name in its colour."""
    return [seat_text(seat).append(f" {texts.score_gain(entry)}", style="")
            for seat in entry.get("players", ())]


def winners_text(winners: Sequence[int], scores: Sequence[int]) -> Text:
    text = winners_line(winners, seat_text)
    if winners:
        text.append(f" with {scores[winners[0]]} points", style="bold")
    return text


__all__ = ["CarcassonneRenderer", "board_lines", "figure_letter", "layout", "legend",
           "rotations_lines", "score_lines", "tile_lines", "winners_text"]
