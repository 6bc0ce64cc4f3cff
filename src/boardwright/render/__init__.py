"""Terminal renderers (Rich) for the command line.

Game modules never import Rich; everything that draws lives here. The words are the games'
(`Game.describe`, each game's texts.py): a renderer only styles them. Each renderer reads the
engine's own data (the state and the tile geometry it already holds), never a second copy.
`renderer_for(game)` picks the renderer of a game, falling back to a plain one that only
needs the game-agnostic API, so a newly registered game is playable in the terminal at once;
that one draws the position with the game's own `render(view, seat)` when the game supplies
one (`view_renderers`: the renderer hook), else with a generic drawing of the view. Text from
outside is shown through `safe_text`.
"""

from __future__ import annotations

import json
from typing import Any, Callable, Protocol, Sequence

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from boardwright.core.actions import Action
from boardwright.core.game import Game, State, Viewer
from boardwright.core.info import GameInfo
from boardwright.render.safe_text import Visible, safe_text, visible
from boardwright.render.view_renderers import generic_view, register_renderer, view_renderer


def seat_name(info: GameInfo, seat: int) -> str:
    """The name of a seat in a game (`GameInfo.seats`: players are called by their colour, as
    at the table)."""
    return info.seat(seat).name


def seat_text(info: GameInfo, seat: int, suffix: str = "") -> Text:
    """A seat's name, drawn in its colour (the seat's terminal style)."""
    entry = info.seat(seat)
    return Text(entry.name + suffix, style=entry.terminal_style)


class Renderer(Protocol):
    """What the command line needs from a game's terminal renderer."""

    def seat_text(self, seat: int, suffix: str = "") -> Text:
        """A seat's name in its colour, as the game's `info.seats` has it (a renderer may add
        to it, as Rise of the Shogun adds the seat's hero)."""
        ...

    def heading(self, state: State) -> Text:
        """The title above a human's decision (who decides, and in whose turn)."""
        ...

    def position(self, state: State, marks: bool = False) -> list[RenderableType]:
        """The board, scores and whatever else describes the position."""
        ...

    def menu(self, state: State) -> tuple[list[Action], list[RenderableType]]:
        """The legal actions in the order they are numbered (1-based), and their display."""
        ...

    def describe(self, state: State, action: Action, viewer: Viewer = None) -> str:
        """One line for `action`, taken in `state` (called before it is applied) by the seat
        to move, as `viewer` may read it (a seat, None: a spectator, OMNISCIENT: a finished
        game's record): the game's own words (`Game.describe`), which also decide what the
        viewer may not see."""
        ...

    def news(self, before: dict[str, Any], state: State) -> list[Text]:
        """Lines for what happened automatically since `before` (= `snapshot(state)`)."""
        ...

    def snapshot(self, state: State) -> dict[str, Any]:
        """Whatever `news` needs to tell what is new."""
        ...

    def final(self, state: State) -> list[RenderableType]:
        """The finished game: final position, scores and winner(s)."""
        ...

    def legend(self) -> list[Text]:
        """What the drawing's characters mean (printed once)."""
        ...


class GenericRenderer:
    """A renderer for any game: scores and numbered actions from the game-agnostic API, and
    the position as one seat sees it (`state.view(seat)`), drawn by the game's own
    `render(view, seat)` when it supplies one (`view_renderers`), else by `generic_view`.

    A human deciding sees their own view, secrets included (`screen`); otherwise the position
    is drawn for `viewer`: the one human at the terminal, or None (a spectator: several humans
    share the screen, or bots play alone)."""

    def __init__(self, game: Game, labels: Sequence[str] | None = None,
                 viewer: int | None = None) -> None:
        self.game = game
        self.labels = list(labels) if labels else None
        self.viewer = viewer
        self.render_view = view_renderer(game.name)

    def seat_text(self, seat: int, suffix: str = "") -> Text:
        """A seat's name in its colour, from the game's `info`."""
        return seat_text(self.game.info, seat, suffix)

    def heading(self, state: State) -> Text:
        return self.seat_text(state.current_player, " to play")

    def position(self, state: State, marks: bool = False) -> list[RenderableType]:
        """The scores, then the position as `viewer` sees it."""
        return self.seen_by(state, self.viewer)

    def screen(self, state: State, size: Any = None) -> list[RenderableType]:
        """A human's decision: the position as the deciding seat sees it (its own secrets
        included), then the numbered moves."""
        return [*self.seen_by(state, state.current_player), *self.menu(state)[1]]

    def seen_by(self, state: State, seat: int | None) -> list[RenderableType]:
        """The scores, then `state.view(seat)` drawn."""
        return [scores_table(state.scores, labels=self.labels, name=self.seat_text),
                self.draw(state, seat)]

    def draw(self, state: State, seat: int | None) -> RenderableType:
        """`state.view(seat)` as the game draws it, else as `generic_view` does (the fields
        only the seat sees apart)."""
        view = state.view(seat)
        if self.render_view is not None:  # the game's own drawing: made visible, not trusted
            return Visible(self.render_view(view, seat))
        public = None if seat is None else state.view(None)
        name = None if seat is None else seat_name(self.game.info, seat)
        return generic_view(view, seat, public, name=name)

    def shows_secrets(self, state: State, seat: int) -> bool:
        """Whether `seat`'s screen shows what a spectator may not see (hot seat hands the
        terminal over between such screens)."""
        return state.view(seat) != state.view(None)

    def menu(self, state: State) -> tuple[list[Action], list[RenderableType]]:
        actions = list(state.legal_actions())
        seat = state.current_player
        lines = [Text(f"{i:>3}  {visible(self.game.describe_action(a, seat, seat))}")
                 for i, a in enumerate(actions, 1)]
        return actions, lines

    def describe(self, state: State, action: Action, viewer: Viewer = None) -> str:
        return self.game.describe(state, action, viewer)

    def snapshot(self, state: State) -> dict[str, Any]:
        return {}

    def news(self, before: dict[str, Any], state: State) -> list[Text]:
        return []

    def final(self, state: State) -> list[RenderableType]:
        scores = state.scores
        best = max(scores) if scores else 0
        winners = ", ".join(seat_name(self.game.info, s)
                            for s, v in enumerate(scores) if v == best)
        return [self.draw(state, self.viewer),
                scores_table(scores, labels=self.labels, title="Final scores",
                             name=self.seat_text),
                Text(f"Winner(s): {winners}", style="bold")]

    def legend(self) -> list[Text]:
        return []


VIEW_TEXT = 200  # characters of a view field shown by the generic renderer


def view_table(view: dict[str, Any]) -> Table:
    """A game's view, one field a line: scalars and lists of scalars as they read, anything
    nested as compact JSON, each cut at VIEW_TEXT characters."""
    table = Table(show_header=False, show_edge=False, pad_edge=False, box=None)
    table.add_column(style="bold")
    table.add_column()
    for key, value in view.items():
        if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
            text = ", ".join("—" if v is None else str(v) for v in value) or "(none)"
        elif isinstance(value, (dict, list)):
            text = json.dumps(value, separators=(",", ":"), default=str)
        else:
            text = "—" if value is None else str(value)
        if len(text) > VIEW_TEXT:
            text = text[:VIEW_TEXT - 1] + "…"
        table.add_row(safe_text(str(key).replace("_", " ")), safe_text(text))
    return table


def scores_table(scores: Sequence[int], supply: Sequence[str] | None = None,
                 labels: Sequence[str] | None = None, title: str | None = None,
                 columns: Sequence[tuple[str, Sequence[str]]] = (), *,
                 name: Callable[[int], Text]) -> Table:
    """Seats with their scores, one row each, plus optional columns: `supply` (one text per
    seat) and `columns` as (header, one cell per seat), e.g. the pieces each seat has left.
    `name` draws a seat's name (the renderer's `seat_text`)."""
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False,
                  box=None, header_style="bold")
    table.add_column("Player")
    table.add_column("Score", justify="right")
    extra = list(columns)
    if supply is not None:
        extra.insert(0, ("Supply", supply))
    for header, cells in extra:
        numeric = all(cell.isdigit() for cell in cells)
        table.add_column(header, justify="right" if numeric else "left")
    for seat, score in enumerate(scores):
        who = name(seat)
        if labels is not None and seat < len(labels) and labels[seat]:
            who.append(f" ({visible(labels[seat])})", style="")
        row: list[RenderableType] = [who, str(score)]
        row.extend(cells[seat] if seat < len(cells) else "" for _, cells in extra)
        table.add_row(*row)
    return table


def winners_line(winners: Sequence[int], name: Callable[[int], Text]) -> Text:
    """ "Winner: Red" / "Winners (tied): Red, Blue" (or "No winner yet."), seats named by
    `name` (the renderer's `seat_text`)."""
    if not winners:
        return Text("No winner yet.")
    text = Text("Winner: " if len(winners) == 1 else "Winners (tied): ", style="bold")
    for i, seat in enumerate(winners):
        if i:
            text.append(", ")
        text.append_text(name(seat))
    return text


def renderer_for(game: Game, labels: Sequence[str] | None = None,
                 viewer: int | None = None) -> Renderer:
    """The terminal renderer of a game (a generic one for games without their own; `viewer`
    is the seat whose view it draws outside a decision, None for a spectator's).

    `labels` name what sits in each seat ("you", "random"), shown next to the seat's name;
    they come from outside (a record, the command line), so they are made `visible` here once.
    """
    labels = [visible(label) for label in labels] if labels else None
    if game.name == "carcassonne":
        from boardwright.render.carcassonne_text import CarcassonneRenderer

        return CarcassonneRenderer(game, labels)
    if game.name == "queens":
        from boardwright.render.queens_text import QueensRenderer

        return QueensRenderer(game, labels)
    if game.name == "shogun":
        from boardwright.render.shogun_text import ShogunRenderer

        return ShogunRenderer(game, labels)
    return GenericRenderer(game, labels, viewer)


__all__ = ["GenericRenderer", "Renderer", "register_renderer", "renderer_for", "scores_table",
           "seat_name", "seat_text", "winners_line"]
