"""What the Carcassonne terminal asks of the player to move: the status line, the heading
and the task of a decision, the menu of legal actions in reading order, and the letters and
numbers that tie the menu to the board (legal positions framed and lettered on empty squares,
figure options numbered on the placed tile).

`CarcassonneMenus` is mixed into `CarcassonneRenderer` (`carcassonne_text`), which draws the
position around them; the fitted decision screen (`carcassonne_screen`) lays out the same menu
beside a window of the board.
"""

from __future__ import annotations

from typing import Sequence

from rich.columns import Columns
from rich.console import RenderableType
from rich.text import Text

from boardwright.core.actions import Action
from boardwright.core.game import Game, State
from boardwright.games.carcassonne import texts
from boardwright.games.carcassonne.actions import Deploy, Draw, Place, PlaceAbbey
from boardwright.games.carcassonne.tiles import CORNERS
from boardwright.render.carcassonne_board import Overlay, join_lines, seat_text, variant_at
from boardwright.render.carcassonne_tiles import (
    CORNER_CELL, KIND_ORDER, MARK_STYLE, OPTION_STYLE, layout, rotations_lines,
)

# Phases of the engine (strings of its public API).
PLACE_TILE, DEPLOY, CHOOSE_TILE = "place_tile", "deploy", "choose_tile"
WAGON_MOVE, FINAL_ROUND = "wagon_move", "final_abbey_round"
FIGURE_ORDER = {"follower": 0, "mayor": 1, "wagon": 2, "barn": 3}

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


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


class CarcassonneMenus:
    """The decision half of `CarcassonneRenderer`: what is asked, and the numbered answers."""

    game: Game
    pieces: list[str]  # the supply keys of the game, in the scores table's order

    # -- the decision ---------------------------------------------------------------------

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
            tile = variant_at(board, last["x"], last["y"])
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
            variant = variant_at(board, action.x, action.y)
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


__all__ = ["CHOOSE_TILE", "DEPLOY", "FINAL_ROUND", "PLACE_TILE", "WAGON_MOVE",
           "CarcassonneMenus", "plural", "position_letters"]
