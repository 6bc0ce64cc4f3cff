"""The Carcassonne board in the terminal: the tiles laid out on their x/y grid, labelled
with their coordinates, and the figures on them.

Figures are letters in the colour of their seat, on the feature they stand on: followers by
role (K knight, H highwayman, F farmer, M monk), the mayor Y (y when lying flat: M is taken
by the monk), the wagon W. A barn stands where four tiles meet, so it is drawn as a 2x2
block of B on the four corner cells around that point. Each tile is a block of
`carcassonne_tiles`; the board can be drawn whole or through a window (a viewport that fits
the terminal, `carcassonne_screen`).
"""

from __future__ import annotations

from typing import Any, Iterable

from rich.text import Text

from boardwright.core.game import State
from boardwright.core.info import Seat
from boardwright.games.carcassonne.actions import pack, unpack
from boardwright.games.carcassonne.game import CarcassonneGame
from boardwright.games.carcassonne.tiles import TileVariant
from boardwright.render import seat_text as shared_seat_text
from boardwright.render.carcassonne_tiles import (
    ABBEY_STYLE, BARN_CELLS, CELL_H, CELL_W, CITY_BG, FIELD_BG, MONASTERY_STYLE, PENNANT_STYLE,
    ROAD_STYLE, empty_lines, layout, tile_lines,
)

ROLE_LETTER = {"knight": "K", "highwayman": "H", "farmer": "F", "monk": "M"}
# Figures other than followers have one letter whatever they stand on (M is the monk's).
FIGURE_LETTER = {"mayor": "Y", "wagon": "W", "barn": "B"}
LYING_MAYOR = "y"

Overlay = dict[tuple[int, int], dict[tuple[int, int], tuple[str, str]]]


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
        variant = variant_at(board, x, y)
        if variant is None:
            continue
        local = variant.location_index.get(follower["location"])
        if local is None:
            continue
        cell = layout(variant).anchors[local]
        out.setdefault((x, y), {})[cell] = (figure_letter(follower), seat_mark(follower["player"]))
    return out


def variant_at(board: dict[int, Any], x: int, y: int) -> TileVariant | None:
    """The tile variant placed at (x, y) of the engine's board, or None for an empty square."""
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


__all__ = ["Overlay", "Window", "board_extent", "board_lines", "figure_letter",
           "follower_overlays", "join_lines", "label_width", "legend", "mark_style",
           "seat_mark", "seat_text", "variant_at"]
