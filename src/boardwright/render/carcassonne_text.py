"""Carcassonne in the terminal, drawn with Rich: the renderer the command line uses
(`renderer_for`), composed of three parts with one job each:

- `carcassonne_tiles`: one tile as a block of 3 rows of 5 characters (its geometry comes from
  the engine's `TileVariant`s);
- `carcassonne_board`: the tiles on their x/y grid, and the figures on them as letters in the
  colour of their seat;
- `carcassonne_menus`: the status line, the task of a decision and the numbered menu.

This module puts them together into positions, scores, the log of a move's consequences and
the end of a game; `carcassonne_screen` fits the decision screen to the terminal. The names of
the three parts stay importable from here.
"""

from __future__ import annotations

from typing import Any, Sequence

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from boardwright.core.actions import Action
from boardwright.core.game import Game, State, Viewer
from boardwright.games.carcassonne import texts
from boardwright.render import scores_table, winners_line
# The parts' names stay importable from here, as they were when this module drew it all.
from boardwright.render.carcassonne_board import (
    FIGURE_LETTER, LYING_MAYOR, ROLE_LETTER, Overlay, Window, board_extent, board_lines,
    figure_letter, follower_overlays, join_lines, label_width, legend, mark_style, seat_mark,
    seat_text, variant_at,
)
from boardwright.render.carcassonne_menus import (
    CHOOSE_TILE, COMMAND_LETTERS, DEPLOY, FIGURE_ORDER, FINAL_ROUND, PLACE_TILE,
    POSITION_ALPHABET, WAGON_MOVE, CarcassonneMenus, plural, position_letters,
)
from boardwright.render.carcassonne_tiles import (
    ABBEY_ROWS, ABBEY_STYLE, BARN_CELLS, C_ABBEY, C_CITY, C_FIELD, C_JUNCTION, C_MONASTERY,
    C_ROAD, C_WALL, CELL_H, CELL_W, CENTRE, CITY_BG, CITY_CELLS, CITY_CHARS, CORNER_CELL,
    CORNER_CELLS, E, FIELD_BG, FIELD_CHARS, HALF_CELLS, KIND_ORDER, MARK_STYLE, MONASTERY_STYLE,
    OPTION_STYLE, PENNANT_STYLE, PREFERENCE, ROAD_BENDS, ROAD_CELLS, ROAD_END, ROAD_STYLE,
    SIDE_MIDDLE, N, S, TileLayout, W, empty_lines, layout, rotations_lines, tile_lines,
)

# Supply columns of the scores table, in this order, for the pieces a game has.
SUPPLY_COLUMNS = (("follower", "Followers"), ("mayor", "Mayors"), ("wagon", "Wagons"),
                  ("barn", "Barns"), ("abbey", "Abbeys"))


class CarcassonneRenderer(CarcassonneMenus):
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

    # -- the position (the decision's parts: CarcassonneMenus) ------------------------------

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
