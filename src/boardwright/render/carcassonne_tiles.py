"""One Carcassonne tile as a block of 3 rows of 5 characters, drawn with Rich.

Each tile becomes a block of 3 rows of 5 characters:

    WR+NL  NL  N  NR  NR+EL          .▓▓▓.     tile D: city on N,
      W    W'  m  E'    E            ─────     road W-E, the north
    SR+WL  SR  S  SL  ER+SL          .....     field strip in the corners

The middle cell `m` shows what the tile centre holds (monastery †, road bend or fork,
junction ●, house ⌂ at a dead end, or the city when it spans several sides). Cities are ▓/▒
(a second city on the same tile takes the other shade, so touching cities stay apart),
fields blank or dotted (alternating tile by tile so tiles stay apart without colour), roads
box-drawing lines, pennants ♦. An abbey is a framed block ╔═══╗ around its †.

The geometry comes from the engine's own `TileVariant`s (side types, features, monastery,
abbey), never from a second copy of the tiles, so a new tile set draws without changes here.
Each feature gets an anchor cell, where a figure or an option number on it is drawn
(`carcassonne_board`); the board, the menus and the renderer build on these blocks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from rich.text import Text

from boardwright.games.carcassonne.tiles import (
    CITY, FIELD, FIELD_SIDE, MONASTERY, ROAD, TileVariant,
)

CELL_W, CELL_H = 5, 3
N, E, S, W = 0, 1, 2, 3
KIND_ORDER = {CITY: 0, ROAD: 1, MONASTERY: 2, FIELD: 3}

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


__all__ = ["TileLayout", "empty_lines", "layout", "rotations_lines", "tile_lines"]
