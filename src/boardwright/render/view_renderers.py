"""How a game without a renderer of its own here draws its position in the terminal.

A game (a plug-in above all) may supply a function `render(view, seat) -> RenderableType`:
given `state.view(seat)`, the position as `seat` sees it (None: a spectator), it returns what
the terminal shows of it, any Rich renderable. It is found by the game's name, first among
those registered in this process (`register_renderer`), then among the installed entry points
of the group `boardwright.renderers`:

    [project.entry-points."boardwright.renderers"]
    liars_dice = "my_package.terminal:render"

A game that supplies none is drawn by `generic_view`: the view's fields one a line, and for a
seat, the fields only that seat sees first (its hand, its dice), apart. The game module itself
never imports Rich: the function lives beside it, in a module of the plug-in's own.
"""

from __future__ import annotations

from typing import Any, Callable

from rich.console import Group, RenderableType
from rich.text import Text

from boardwright.core import plugins
from boardwright.core.errors import PluginError
from boardwright.core.inputs import short_repr

RENDERERS_GROUP = "boardwright.renderers"

ViewRenderer = Callable[[dict[str, Any], "int | None"], RenderableType]

_REGISTERED: dict[str, ViewRenderer] = {}
_MISSING = object()


def register_renderer(game: str, render: ViewRenderer) -> None:
    """Draw the game named `game` with `render(view, seat)` in the terminal from now on (in
    this process; an installed package declares an entry point instead)."""
    if not isinstance(game, str) or not game:
        raise PluginError(f"a renderer is registered under a game's name, not {short_repr(game)}")
    if not callable(render):
        raise PluginError(f"the renderer of {game!r} must be a function of (view, seat), not "
                          f"{short_repr(render)}")
    _REGISTERED[game] = render


def unregister_renderer(game: str) -> None:
    """Forget the renderer registered for `game` (an installed entry point stays)."""
    _REGISTERED.pop(game, None)


def view_renderer(game: str) -> ViewRenderer | None:
    """The game's own `render(view, seat)`: registered, else installed (imported now; a
    PluginError names the entry point when it cannot be), else None."""
    if game in _REGISTERED:
        return _REGISTERED[game]
    point = plugins.entry_points(RENDERERS_GROUP).get(game)
    if point is None:
        return None
    render = plugins.load(point)
    if not callable(render):
        raise PluginError(f"{plugins.describe(point)} names {short_repr(render)}, which is not a "
                          "function of (view, seat)")
    return render


def own_fields(view: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    """The fields of a seat's `view` that a spectator's view (`public`) does not show as they
    are: what only that seat knows."""
    return {key: value for key, value in view.items() if public.get(key, _MISSING) != value}


def generic_view(view: dict[str, Any], seat: int | None, public: dict[str, Any] | None = None,
                 name: str | None = None) -> RenderableType:
    """The default drawing of a view: one field a line (`view_table`). For a seat, given the
    spectator's view `public`, the fields only the seat sees come first under "Only NAME
    sees", the others under "Everyone sees"."""
    from boardwright.render import view_table

    own = own_fields(view, public) if seat is not None and public is not None else {}
    if not own:
        return view_table(view)
    shared = {key: value for key, value in view.items() if key not in own}
    who = name or f"seat {seat}"
    parts: list[RenderableType] = [Text(f"Only {who} sees", style="bold underline"),
                                   view_table(own)]
    if shared:
        parts += [Text("Everyone sees", style="bold underline"), view_table(shared)]
    return Group(*parts)


__all__ = ["RENDERERS_GROUP", "ViewRenderer", "generic_view", "own_fields", "register_renderer",
           "unregister_renderer", "view_renderer"]
