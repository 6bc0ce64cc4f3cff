"""Carcassonne's decision screen fitted to the terminal: a board viewport, pan commands and
the help of the prompt.

By mid-game the whole board no longer fits a terminal, so the screen shows a window of it: as
many tile columns as the width allows and as many rows as the height leaves once the status,
the scores, the task and the menu are drawn. The window follows the decision (the open spots
of a placement, the tile just placed for a figure) until the player pans it with w/a/s/d; `c`
centres it on the decision again and `l` on the last tile placed. Each new decision starts
centred on its own focus.

When even a board of `MIN_ROWS` rows leaves no room for the whole menu, the screen gives up
comfort in this order: the scores drop their "On board" column (the board shows the figures),
then the menu lists only the options on the squares in view (their numbers are unchanged: the
numbers of the full menu), saying how many are out of view.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from rich.columns import Columns
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from boardwright.core.actions import Action
from boardwright.core.game import State
from boardwright.games.carcassonne.actions import Deploy, Place, PlaceAbbey
from boardwright.render.carcassonne_board import (
    Window, board_extent, board_lines, join_lines, label_width,
)
from boardwright.render.carcassonne_menus import (
    CHOOSE_TILE, DEPLOY, FINAL_ROUND, PLACE_TILE, WAGON_MOVE,
)
from boardwright.render.carcassonne_tiles import CELL_H, CELL_W, MARK_STYLE, rotations_lines
from boardwright.render.screen import Reply, Size, height_of, help_lines, shared_keys

if TYPE_CHECKING:
    from boardwright.render.carcassonne_text import CarcassonneRenderer

MIN_ROWS = 2  # tile rows the board keeps however small the terminal
STEPS = {"w": (0, -1), "a": (-1, 0), "s": (0, 1), "d": (1, 0)}
PAN = re.compile(r"^([wasd])\s*(\d{0,3})$", re.IGNORECASE)
ROTATION_GAP = 2  # columns between the tile's rotations and the menu beside them


@dataclass
class Viewport:
    """Where the board window stands: its centre square, set by panning; None follows the
    decision. `decision` is the record length and phase it was set for: a new decision
    forgets a pan."""

    centre: tuple[int, int] | None = None
    decision: tuple[int, str] | None = None
    last_window: Window | None = None  # the window last drawn (panning moves from there)

    def follow(self, state: State) -> None:
        key = (len(state.record.actions), state.phase)
        if key != self.decision:
            self.centre, self.decision, self.last_window = None, key, None


def window_for(extent: Window, centre: tuple[int, int], cols: int, rows: int) -> Window:
    """The window of `cols` x `rows` squares around `centre`, kept inside the board's extent
    (a board smaller than the window is shown whole)."""
    x0, x1, y0, y1 = extent

    def span(low: int, high: int, middle: int, size: int) -> tuple[int, int]:
        if high - low + 1 <= size:
            return low, high
        start = min(max(middle - (size - 1) // 2, low), high - size + 1)
        return start, start + size - 1

    wx0, wx1 = span(x0, x1, centre[0], cols)
    wy0, wy1 = span(y0, y1, centre[1], rows)
    return wx0, wx1, wy0, wy1


def centre_of(squares: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """The middle of the squares' bounding box."""
    xs = [x for x, _ in squares]
    ys = [y for _, y in squares]
    return (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2


def in_window(window: Window, x: int, y: int) -> bool:
    return window[0] <= x <= window[1] and window[2] <= y <= window[3]


class CarcassonneScreen:
    """The fitted screen, commands and help of one Carcassonne renderer."""

    def __init__(self, renderer: CarcassonneRenderer) -> None:
        self.renderer = renderer
        self.viewport = Viewport()

    # -- the focus of a decision ------------------------------------------------------------

    def last_tile(self, state: State) -> tuple[int, int] | None:
        last = state.view(None)["last_placed"]
        return (last["x"], last["y"]) if last else None

    def focus(self, state: State) -> tuple[int, int]:
        """What the decision is about: the open spots (placements, abbey holes), the squares
        a figure may go to, else the last tile placed, else the start tile."""
        marks = list(self.renderer.position_marks(state)) if state.phase in (
            PLACE_TILE, CHOOSE_TILE, FINAL_ROUND) else []
        if not marks and state.phase == WAGON_MOVE:
            marks = [(a.x, a.y) for a in state.legal_actions() if isinstance(a, Deploy)]
        if marks:
            return centre_of(marks)
        return self.last_tile(state) or (0, 0)

    # -- commands ---------------------------------------------------------------------------

    def command(self, state: State, text: str) -> Reply | None:
        """Pan (w/a/s/d, optionally with a number of squares: `d3`), centre (`c`), the last
        tile (`l`), or a position letter of the board; None for anything else."""
        self.viewport.follow(state)
        answer = text.strip()
        pan = PAN.match(answer)
        if pan:
            dx, dy = STEPS[pan.group(1).lower()]
            window = self.viewport.last_window
            if window is None:  # not drawn yet: a window of 5x5 squares around the focus
                fx, fy = self.viewport.centre or self.focus(state)
                window = (fx - 2, fx + 2, fy - 2, fy + 2)
            if pan.group(2):
                step = int(pan.group(2))
            else:  # half the window, at least one square
                step = max(1, (window[1] - window[0] + 1) // 2 if dx else
                           (window[3] - window[2] + 1) // 2)
            cx, cy = (window[0] + window[1]) // 2, (window[2] + window[3]) // 2
            x0, x1, y0, y1 = board_extent(state, self.renderer.position_marks(state))
            self.viewport.centre = (min(max(cx + dx * step, x0), x1),
                                    min(max(cy + dy * step, y0), y1))
            return Reply(redraw=True)
        if answer.lower() == "c":
            self.viewport.centre = self.focus(state)
            return Reply(redraw=True)
        if answer.lower() == "l":
            self.viewport.centre = self.last_tile(state) or self.focus(state)
            return Reply(redraw=True)
        return self.letter(state, answer)

    def letter(self, state: State, answer: str) -> Reply | None:
        """A position letter typed alone: the abbey into that hole, or the placement there
        when one rotation is legal (else the numbers of its rotations)."""
        if len(answer) != 1 or state.phase not in (PLACE_TILE, CHOOSE_TILE, FINAL_ROUND):
            return None
        marks = self.renderer.position_marks(state)
        where = [xy for xy, mark in marks.items() if mark == answer]
        if not where:
            return None
        actions = self.renderer.sorted_actions(state)
        options = [(n, a) for n, a in enumerate(actions, 1)
                   if isinstance(a, (Place, PlaceAbbey)) and (a.x, a.y) == where[0]]
        if len(options) == 1:
            return Reply(action=options[0][1])
        choices = ", ".join(f"{n} ({a.rotation}°)" for n, a in options  # type: ignore[union-attr]
                            if isinstance(a, Place))
        return Reply(lines=[Text(f"Position {answer} at {where[0]}: type the number of a "
                                 f"rotation: {choices}.", style="bold")])

    def prompt_keys(self) -> str:
        return ", w/a/s/d pan"

    def help(self) -> list[Text]:
        keys = shared_keys() + [
            ("w a s d", "pan the board up, left, down, right (d3: 3 squares east)"),
            ("c", "centre the board on the open spots (or the tile just placed)"),
            ("l", "centre the board on the last tile placed"),
            ("b, e, f...", "a letter on the board: place there (the abbey: into it)"),
        ]
        notes = ("A tile: its 4 turns are drawn beside the list, which numbers each",
                 "legal turn at each lettered spot. Then a figure: the numbers on the",
                 "tile are the places a figure may take; 'no figure' is in the list.",
                 "The board is a window of the table: its last line says what lies",
                 "beyond each edge.")
        return help_lines("Carcassonne", keys, notes)

    # -- the screen -------------------------------------------------------------------------

    def screen(self, state: State, size: Size | None) -> list[RenderableType]:
        """The position and the menu, the board cut to the window that leaves room for the
        rest within `size` (everything when `size` is None)."""
        renderer = self.renderer
        if size is None:
            return [*renderer.position(state, marks=True), *renderer.menu(state)[1]]
        self.viewport.follow(state)
        phase = state.phase
        marks = renderer.position_marks(state) if phase in (
            PLACE_TILE, CHOOSE_TILE, FINAL_ROUND) else {}
        actions = renderer.sorted_actions(state)
        extra = renderer.option_overlay(state, actions) if phase in (DEPLOY, WAGON_MOVE) else None
        extent = board_extent(state, marks)
        centre = self.viewport.centre or self.focus(state)
        status = renderer.status(state)
        width = size.width
        label_w = label_width((0, 0, extent[2] - 1, extent[3] + 1))
        cols = max(1, (width - label_w) // CELL_W)
        players = len(state.scores)
        scores = renderer.scores(state)
        if height_of([scores], width) > players + 1:  # "On board" wraps: the board shows it
            scores = renderer.scores(state, compact=True)
        full_menu = self.menu(state, actions, marks, None, width)
        rest = height_of([status, scores, *full_menu], width)
        rows = (size.height - rest - 2) // CELL_H  # 2: the x labels and the "more board" line
        if rows >= MIN_ROWS:
            window = window_for(extent, centre, cols, rows)
            self.viewport.last_window = window
            return [status, *self.board(state, marks, extra, window, extent, width), scores,
                    *full_menu]
        parts: list[RenderableType] = []
        for rows in range(max(MIN_ROWS, (size.height - 4) // CELL_H), MIN_ROWS - 1, -1):
            window = window_for(extent, centre, cols, rows)
            menu = self.menu(state, actions, marks, window, width)
            parts = [status, *self.board(state, marks, extra, window, extent, width), scores, *menu]
            self.viewport.last_window = window
            if height_of(parts, width) <= size.height:
                break
        return parts

    def final(self, state: State, size: Size | None) -> list[RenderableType]:
        """The end of the game: the final board as wide as the terminal (every row of it,
        the columns around its middle: the game is over, the screen may scroll), the scores
        and the winners."""
        out = self.renderer.final(state)
        if size is None:
            return out
        extent = board_extent(state)
        cols = max(1, (size.width - label_width(extent)) // CELL_W)
        window = window_for(extent, centre_of([extent[:3:2], extent[1::2]]), cols,
                            extent[3] - extent[2] + 1)
        return [*self.board(state, {}, None, window, extent, size.width), *out[1:]]

    def board(self, state: State, marks: dict[tuple[int, int], str], extra: object,
              window: Window, extent: Window, width: int) -> list[RenderableType]:
        """The board window and, when it does not show the whole board, a line saying what
        lies beyond each edge."""
        lines = board_lines(state, marks, extra, window)  # type: ignore[arg-type]
        out: list[RenderableType] = [join_lines(lines)]
        if window != extent:
            beyond = []
            for name, more in (("west", window[0] - extent[0]), ("east", extent[1] - window[1]),
                               ("north", window[2] - extent[2]), ("south", extent[3] - window[3])):
                if more > 0:
                    beyond.append(f"{more} {name}")
            hidden = sum(1 for xy in marks if not in_window(window, *xy))
            text = Text("More board: " + ", ".join(beyond), style="dim")
            if hidden:
                text.append(f" · {hidden} lettered spot{'s' if hidden > 1 else ''} out of view",
                            style="bold")
            text.append(" (w/a/s/d pan, c centre)", style="dim")
            text.truncate(width, overflow="ellipsis")
            out.append(text)
        return out

    def menu(self, state: State, actions: Sequence[Action], marks: dict[tuple[int, int], str],
             window: Window | None, width: int) -> list[RenderableType]:
        """The task and the numbered options (only those in `window` when given)."""
        renderer = self.renderer
        task = renderer.task(state)
        if state.phase != PLACE_TILE:
            _, lines = renderer.menu(state)
            if window is None:
                return [*task, *lines]
            kept: list[RenderableType] = []
            for action, line in zip(actions, lines):
                xy = getattr(action, "x", None), getattr(action, "y", None)
                if xy[0] is None or in_window(window, *xy):  # type: ignore[arg-type]
                    kept.append(line)
            kept.extend(lines[len(actions):])
            return [*task, *kept]
        head = task[0] if task else Text()
        tile_type = renderer.game.tile_types[state.view(None)["tile"]]  # type: ignore[attr-defined]
        turns = join_lines(rotations_lines(tile_type.variants, tile_type.canonical))
        entries = self.place_entries(actions, marks, window)
        room = width - max(len(line) for line in turns.plain.splitlines()) - ROTATION_GAP
        grid = Table.grid(padding=(0, ROTATION_GAP))
        grid.add_column(no_wrap=True)
        grid.add_column(max_width=max(room, 10))
        grid.add_row(turns, Columns(entries, padding=(0, 2)))
        return [head, grid]

    def place_entries(self, actions: Sequence[Action], marks: dict[tuple[int, int], str],
                      window: Window | None) -> list[Text]:
        """One entry per lettered spot: its letter and the number of each legal turn, e.g.
        `b 1:0° 2:90°`; only the spots in `window` when given, and then a count of the rest."""
        groups: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for number, action in enumerate(actions, 1):
            if isinstance(action, Place):
                groups.setdefault((action.x, action.y), []).append((number, action.rotation))
        entries = []
        hidden = 0
        for xy, options in groups.items():
            if window is not None and not in_window(window, *xy):
                hidden += 1
                continue
            entry = Text()
            entry.append(marks.get(xy, "*"), style=MARK_STYLE)
            for number, rotation in options:
                entry.append(f" {number}:", style="bold")
                entry.append(f"{rotation}°")
            entries.append(entry)
        if hidden:
            entries.append(Text(f"(+{hidden} out of view)", style="dim"))
        return entries


__all__ = ["CarcassonneScreen", "MIN_ROWS", "Viewport", "window_for"]
