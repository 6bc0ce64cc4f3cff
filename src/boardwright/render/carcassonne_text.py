"""Carcassonne in the terminal: tiles as 5x3 character blocks, drawn with Rich.

Each tile becomes a block of 3 rows of 5 characters:

    WR+NL  NL  N  NR  NR+EL          .▓▓▓.     tile D: city on N,
      W    W'  m  E'    E            ─────     road W-E, the north
    SR+WL  SR  S  SL  ER+SL          .....     field strip in the corners

The middle cell `m` shows what the tile centre holds (monastery †, road bend, junction ●,
or the city when it spans several sides). Cities are ▓/▒, fields blank or dotted (alternating
tile by tile so tiles stay apart without colour), roads box-drawing lines, pennants ♦.
Followers show their role letter (K knight, H highwayman, F farmer, M monk) on the feature
they stand on, in the colour of their seat.

The geometry comes from the engine's own `TileVariant`s (side types, features, monastery),
never from a second copy of the tiles, so a new tile set draws without changes here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from rich.columns import Columns
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from boardwright.core.actions import Action
from boardwright.core.game import Game, State
from boardwright.games.carcassonne.actions import Deploy, Pass, Place, pack, unpack
from boardwright.games.carcassonne.tiles import (
    CITY, FIELD, FIELD_SIDE, KIND_NAMES, MONASTERY, ROAD, TileVariant,
)
from boardwright.render import scores_table, seat_text

CELL_W, CELL_H = 5, 3
N, E, S, W = 0, 1, 2, 3

ROLE_OF_KIND = {CITY: "knight", ROAD: "highwayman", FIELD: "farmer", MONASTERY: "monk"}
ROLE_LETTER = {"knight": "K", "highwayman": "H", "farmer": "F", "monk": "M"}
KIND_ORDER = {CITY: 0, ROAD: 1, MONASTERY: 2, FIELD: 3}

# Cell kinds of a tile block.
C_FIELD, C_CITY, C_ROAD, C_MONASTERY, C_JUNCTION, C_WALL = range(6)

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
CENTRE = (1, 2)
# Cells in the order a feature's marker (follower, option number) prefers them.
PREFERENCE = ((1, 2), (0, 2), (2, 2), (1, 1), (1, 3), (0, 1), (0, 3), (2, 1), (2, 3),
              (1, 0), (1, 4), (0, 0), (0, 4), (2, 0), (2, 4))
ROAD_BENDS = {frozenset((N, S)): "│", frozenset((E, W)): "─", frozenset((N, E)): "└",
              frozenset((N, W)): "┘", frozenset((S, E)): "┌", frozenset((S, W)): "┐"}

# Colours: two shades per terrain, alternating like a chessboard so tiles stay apart.
FIELD_BG = ("#3f7a2a", "#4b8934")
CITY_BG = ("#b8793c", "#a86b31")
FIELD_CHARS = (" ", "·")
CITY_CHARS = ("▓", "▒")
SEAT_MARKS = ("bold white on red", "bold white on blue", "bold black on yellow",
              "bold black on bright_green", "bold white on grey15", "bold black on white")
MARK_STYLE = "bold cyan"
OPTION_STYLE = "bold black on bright_cyan"


@dataclass(frozen=True)
class TileLayout:
    """How one tile variant is drawn: a kind (and owning feature) per cell, plus anchors."""

    kinds: tuple[tuple[int, ...], ...]
    chars: tuple[tuple[str, ...], ...]  # fixed characters (roads, monastery); "" = by terrain
    anchors: dict[int, tuple[int, int]]  # local feature index -> cell of its marker
    pennants: tuple[tuple[int, int], ...]


_LAYOUTS: dict[int, tuple[TileVariant, TileLayout]] = {}


def layout(variant: TileVariant) -> TileLayout:
    """The block of a tile variant (computed once per variant: variants are static)."""
    cached = _LAYOUTS.get(id(variant))
    if cached is not None and cached[0] is variant:
        return cached[1]
    result = _build_layout(variant)
    _LAYOUTS[id(variant)] = (variant, result)
    return result


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
    if fields:
        main = max(fields, key=lambda f: len(f.halves)).index
        for r in range(CELL_H):
            for c in range(CELL_W):
                owner[r][c] = main
    for f in fields:
        for h in f.halves:
            put(HALF_CELLS[h], C_FIELD, f.index)
    for side in (N, E, S, W):
        field = variant.half_feature[2 * side]
        if variant.side_types[side] == FIELD_SIDE and field >= 0:
            put(SIDE_MIDDLE[side], C_FIELD, field)
            if side in (W, E):
                put(ROAD_END[side], C_FIELD, field)
    for cell, (halves, _) in CORNER_CELLS.items():
        a, b = (variant.half_feature[h] for h in halves)
        if a >= 0 or b >= 0:
            put(cell, C_FIELD, a if a >= 0 else b)
        else:
            put(cell, C_WALL, -1)

    # Cities: their sides, the centre when they span several sides, corners between them.
    for f in features:
        if f.kind != CITY:
            continue
        for side in f.sides:
            for cell in CITY_CELLS[side]:
                put(cell, C_CITY, f.index)
        if len(f.sides) >= 2:
            put(CENTRE, C_CITY, f.index)
        if N in f.sides and S in f.sides:
            put((1, 1), C_CITY, f.index)
            put((1, 3), C_CITY, f.index)
        for cell, (_, (a, b)) in CORNER_CELLS.items():
            if a in f.sides and b in f.sides:
                put(cell, C_CITY, f.index)

    if variant.monastery >= 0:
        put(CENTRE, C_MONASTERY, variant.monastery, "†")

    roads = [f for f in features if f.kind == ROAD]
    ends = [f for f in roads if len(f.sides) == 1]
    for f in roads:
        for side in f.sides:
            for cell in ROAD_CELLS[side]:
                put(cell, C_ROAD, f.index, "│" if side in (N, S) else "─")
        if len(f.sides) == 2:
            put(CENTRE, C_ROAD, f.index, ROAD_BENDS[frozenset(f.sides)])
    if len(ends) >= 2 and variant.monastery < 0:
        put(CENTRE, C_JUNCTION, -1, "●")

    anchors: dict[int, tuple[int, int]] = {}
    taken: set[tuple[int, int]] = set()

    def owned(f_index: int, kind: int) -> list[tuple[int, int]]:
        return [cell for cell in PREFERENCE
                if owner[cell[0]][cell[1]] == f_index and kinds[cell[0]][cell[1]] == kind]

    for f in sorted(features, key=lambda f: KIND_ORDER[f.kind]):
        if f.kind == MONASTERY:
            cell = CENTRE
        elif f.kind == ROAD:
            cell = CENTRE if len(f.sides) == 2 else ROAD_END[f.sides[0]]
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
                      tuple(pennants))


def tile_lines(variant: TileVariant, parity: int = 0,
               overlay: dict[tuple[int, int], tuple[str, str]] | None = None) -> list[Text]:
    """The 3 lines of a tile block; `overlay` puts markers (char, style) on cells."""
    shape = layout(variant)
    field_bg, city_bg = FIELD_BG[parity], CITY_BG[parity]
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
                if cell in shape.pennants:
                    line.append("♦", style=f"bold #1f3fbf on {city_bg}")
                else:
                    line.append(CITY_CHARS[parity], style=f"#8a5020 on {city_bg}")
            elif kind == C_ROAD:
                line.append(shape.chars[r][c], style=f"bold #f2f2e6 on {field_bg}")
            elif kind == C_MONASTERY:
                line.append(shape.chars[r][c], style="bold #ffffff on #a01818")
            elif kind == C_JUNCTION:
                line.append(shape.chars[r][c], style=f"bold #f2f2e6 on {field_bg}")
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


def position_letters(count: int) -> list[str]:
    """Names of the legal positions shown on the board: a..z, A..Z, then *."""
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return [alphabet[i] if i < len(alphabet) else "*" for i in range(count)]


def follower_overlays(state: State) -> dict[tuple[int, int], dict[tuple[int, int], tuple[str, str]]]:
    """Per tile position, the follower markers (role letter in seat colour) on its cells."""
    board = state.graph.board  # type: ignore[attr-defined]
    out: dict[tuple[int, int], dict[tuple[int, int], tuple[str, str]]] = {}
    for follower in state.view(None)["followers"]:
        x, y = follower["x"], follower["y"]
        variant = _variant_at(board, x, y)
        if variant is None:
            continue
        local = variant.location_index.get(follower["location"])
        if local is None:
            continue
        cell = layout(variant).anchors[local]
        seat = follower["player"]
        style = SEAT_MARKS[seat] if seat < len(SEAT_MARKS) else "bold reverse"
        out.setdefault((x, y), {})[cell] = (ROLE_LETTER.get(follower["role"], "?"), style)
    return out


def _variant_at(board: dict[int, Any], x: int, y: int) -> TileVariant | None:
    entry = board.get(pack(x, y))
    return None if entry is None else entry[0]


def board_lines(state: State, marks: dict[tuple[int, int], str] | None = None,
                extra: dict[tuple[int, int], dict[tuple[int, int], tuple[str, str]]] | None = None
                ) -> list[Text]:
    """The whole board with x across the top and y down the left side.

    `marks` frames empty positions with a letter (legal placements); `extra` adds markers on
    placed tiles (deploy option numbers). The last placed tile's coordinates are highlighted.
    """
    tiles = {unpack(pos): variant for pos, (variant, _) in state.graph.board.items()}  # type: ignore[attr-defined]
    marks = marks or {}
    squares = set(tiles) | set(marks)
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    followers = follower_overlays(state)
    for pos, cells in (extra or {}).items():
        followers.setdefault(pos, {}).update(cells)
    last = state.view(None)["last_placed"]
    last_xy = (last["x"], last["y"]) if last else None
    label_w = max(len(str(y)) for y in (y0, y1)) + 1

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


def legend() -> list[Text]:
    """What the characters mean (printed once, not under every board)."""
    return [
        Text.assemble(
            "Tiles: ", ("▓", f"#8a5020 on {CITY_BG[0]}"), " city  ",
            ("─", f"bold #f2f2e6 on {FIELD_BG[0]}"), " road  ",
            ("†", "bold #ffffff on #a01818"), " monastery  ",
            ("●", f"bold #f2f2e6 on {FIELD_BG[0]}"), " junction  ",
            ("♦", f"bold #1f3fbf on {CITY_BG[0]}"), " pennant  (blank/· fields)", style="dim"),
        Text("Followers: K knight, H highwayman, F farmer, M monk, in their player's colour. "
             "x grows east, y south.", style="dim"),
    ]


class CarcassonneRenderer:
    """Draws Carcassonne positions, menus and events for the command line."""

    def __init__(self, game: Game, labels: Sequence[str] | None = None) -> None:
        self.game = game
        self.labels = list(labels) if labels else None

    def legend(self) -> list[Text]:
        return legend()

    # -- the position ---------------------------------------------------------------------

    def position(self, state: State, marks: bool = False) -> list[RenderableType]:
        """Board, scores, supplies and the tile in hand.

        With `marks` (a human is about to decide) legal placements are framed on the board
        and lettered, the tile in hand is shown in its 4 rotations, and deploy options are
        numbered on the tile just placed.
        """
        view = state.view(None)
        out: list[RenderableType] = []
        turn = view["turn"] + (1 if view["phase"] == "place_tile" else 0)
        status = Text(f"Turn {turn}", style="bold")
        status.append(f" · {view['draw_pile_size']} tiles in the pile", style="")
        if view["discarded"]:
            status.append(f" · discarded: {' '.join(view['discarded'])}", style="")
        out.append(status)
        board_marks = self.position_marks(state) if marks and view["phase"] == "place_tile" else None
        extra = None
        if marks and view["phase"] == "deploy":
            actions, _ = self.menu(state)
            extra = self.option_overlay(state, actions)
        out.append(join_lines(board_lines(state, board_marks, extra)))
        out.append(self.scores(state))
        if view["tile"] is not None and view["phase"] == "place_tile":
            tile_type = self.game.tile_types[view["tile"]]  # type: ignore[attr-defined]
            head = seat_text(view["current_player"])
            head.append(f" to place tile {view['tile']}", style="bold")
            if tile_type.description:
                head.append(f" ({tile_type.description})", style="")
            out.append(head)
            out.append(join_lines(rotations_lines(tile_type.variants, tile_type.canonical)))
        return out

    def scores(self, state: State, title: str | None = None) -> Table:
        view = state.view(None)
        on_board: dict[int, list[str]] = {}
        for f in view["followers"]:
            on_board.setdefault(f["player"], []).append(
                f"{ROLE_LETTER.get(f['role'], '?')}({f['x']},{f['y']})")
        supply = []
        for seat, figures in enumerate(view["supply"]):
            left = figures.get("follower", 0)
            text = f"{left} follower{'s' if left != 1 else ''}"
            if on_board.get(seat):
                text += "; on board: " + " ".join(on_board[seat])
            supply.append(text)
        return scores_table(view["scores"], supply, self.labels, title)

    def position_marks(self, state: State) -> dict[tuple[int, int], str]:
        actions, _ = self.menu(state)
        positions: list[tuple[int, int]] = []
        for action in actions:
            if isinstance(action, Place) and (action.x, action.y) not in positions:
                positions.append((action.x, action.y))
        return dict(zip(positions, position_letters(len(positions))))

    def option_overlay(self, state: State, actions: Sequence[Action]
                       ) -> dict[tuple[int, int], dict[tuple[int, int], tuple[str, str]]]:
        """Deploy option numbers drawn on the features of the tile just placed."""
        out: dict[tuple[int, int], dict[tuple[int, int], tuple[str, str]]] = {}
        board = state.graph.board  # type: ignore[attr-defined]
        for number, action in enumerate(actions, 1):
            if not isinstance(action, Deploy) or number > 9:
                continue
            variant = _variant_at(board, action.x, action.y)
            if variant is None or action.location not in variant.location_index:
                continue
            cell = layout(variant).anchors[variant.location_index[action.location]]
            out.setdefault((action.x, action.y), {})[cell] = (str(number), OPTION_STYLE)
        return out

    # -- the menu -------------------------------------------------------------------------

    def sorted_actions(self, state: State) -> list[Action]:
        """Legal actions in reading order: placements by y, x, rotation; deploys by feature
        kind (city, road, monastery, field) and location; passing last."""
        actions = list(state.legal_actions())
        board = state.graph.board  # type: ignore[attr-defined]

        def key(action: Action) -> tuple:
            if isinstance(action, Place):
                return (0, action.y, action.x, action.rotation, "")
            if isinstance(action, Deploy):
                variant = _variant_at(board, action.x, action.y)
                kind = 9
                if variant is not None and action.location in variant.location_index:
                    kind = KIND_ORDER[variant.features[variant.location_index[action.location]].kind]
                return (1, kind, action.y, action.x, action.location)
            return (2, 0, 0, 0, "")

        return sorted(actions, key=key)

    def menu(self, state: State) -> tuple[list[Action], list[RenderableType]]:
        actions = self.sorted_actions(state)
        if actions and isinstance(actions[0], Place):
            return actions, [self._place_menu(actions)]
        view = state.view(None)
        seat = view["current_player"]
        left = view["supply"][seat].get("follower", 0) if seat >= 0 else 0
        lines: list[RenderableType] = []
        for number, action in enumerate(actions, 1):
            line = Text(f"{number:>3}  ", style="bold")
            line.append(self.deploy_label(state, action))
            lines.append(line)
        lines.append(Text(f"     ({left} follower{'s' if left != 1 else ''} in supply)",
                          style="dim"))
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

    def deploy_label(self, state: State, action: Action) -> str:
        if isinstance(action, Pass):
            return "no figure"
        if isinstance(action, Deploy):
            kind = self._kind_at(state, action)
            if kind is None:
                return self.game.describe_action(action)
            return f"{ROLE_OF_KIND[kind]} on the {KIND_NAMES[kind]} {action.location}"
        return self.game.describe_action(action)

    def _kind_at(self, state: State, action: Deploy) -> int | None:
        variant = _variant_at(state.graph.board, action.x, action.y)  # type: ignore[attr-defined]
        if variant is None or action.location not in variant.location_index:
            return None
        return variant.features[variant.location_index[action.location]].kind

    # -- the log --------------------------------------------------------------------------

    def describe(self, state: State, action: Action) -> str:
        """The log line of a move: the engine's description plus what it needs to be read
        alone, e.g. "place U at (1, 0) turned 90°" or "follower on E.W of (1, 0) (highwayman
        on the road)"."""
        text = self.game.describe_action(action)
        tile = state.view(None)["tile"]
        if isinstance(action, Place) and tile and text.startswith("place "):
            return f"place {tile} " + text[len("place "):]
        if isinstance(action, Deploy):
            kind = self._kind_at(state, action)
            if kind is not None:
                return f"{text} ({ROLE_OF_KIND[kind]} on the {KIND_NAMES[kind]})"
        return text

    def snapshot(self, state: State) -> dict[str, Any]:
        return {"log": len(state.log), "discarded": len(state.discarded)}  # type: ignore[attr-defined]

    def news(self, before: dict[str, Any], state: State) -> list[Text]:
        """Score events and discarded tiles since `before`."""
        lines = []
        for tile in state.discarded[before.get("discarded", 0):]:  # type: ignore[attr-defined]
            lines.append(Text(f"Tile {tile} fits nowhere on the board: discarded.", style="italic"))
        for entry in state.log[before.get("log", 0):]:  # type: ignore[attr-defined]
            lines.extend(score_lines(entry))
        return lines

    def final(self, state: State) -> list[RenderableType]:
        """The end of the game: final board, scores and winner(s)."""
        out: list[RenderableType] = [join_lines(board_lines(state)),
                                     self.scores(state, title="Final scores")]
        out.append(winners_text(state.view(None)["winners"], state.scores))
        return out


def score_lines(entry: dict[str, Any]) -> list[Text]:
    """One line per player an event scored for, e.g. "Red +4 (city, completed)"."""
    status = "completed" if entry.get("complete") else "final scoring"
    shared = ", shared" if len(entry.get("players", ())) > 1 else ""
    out = []
    for seat in entry.get("players", ()):
        line = seat_text(seat)
        line.append(f" +{entry['points']} ({entry['feature']}, {status}{shared})", style="")
        out.append(line)
    return out


def winners_text(winners: Sequence[int], scores: Sequence[int]) -> Text:
    if not winners:
        return Text("No winner yet.")
    text = Text("Winner: " if len(winners) == 1 else "Winners (tied): ", style="bold")
    for i, seat in enumerate(winners):
        if i:
            text.append(", ")
        text.append_text(seat_text(seat))
    text.append(f" with {scores[winners[0]]} points", style="bold")
    return text


__all__ = ["CarcassonneRenderer", "board_lines", "layout", "legend", "rotations_lines",
           "score_lines", "tile_lines", "winners_text"]
