"""Text from outside shown safely in the terminal.

Seat names in a record, names given to `play`, options, agent strings, a plug-in game's words
and whatever a player types reach the terminal through the command line. A crafted text could
carry escape sequences (ESC, CSI, OSC: colours, cursor moves, a window title, a hyperlink),
a bell, a backspace or a carriage return that rewrites what was printed, or Rich markup such as
"[bold]" that Rich would read as styles. Every such text goes through this module before it is
printed: control characters are made visible as Python writes them (ESC as `\\x1b`), and the
text is a Rich `Text`, never markup. `visible` leaves ordinary text unchanged and is idempotent,
so text that went through it once may go through it again.

`Visible` wraps a renderable drawn by code that may hold outside text (a plug-in game's own
terminal renderer): whatever it draws is made visible the same way, line breaks excepted.
`guarded` is what the command line prints every drawing through.
"""

from __future__ import annotations

import re

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.markup import escape
from rich.measure import Measurement
from rich.segment import Segment
from rich.text import Text

# C0 controls (ESC, BEL, backspace, carriage return, line feed, tab...), DEL, the C1 controls
# (a one-character CSI or OSC among them), and the Unicode marks that reorder or hide text
# (bidirectional overrides and isolates, line and paragraph separators).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_CONTROL_BUT_NEWLINE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: object, newlines: bool = False) -> str:
    """`text` (any object, as `str` gives it) with every control character written out
    (`"\\x1b[31m"` -> `"\\\\x1b[31m"`); line breaks too unless `newlines` keeps them."""
    pattern = _CONTROL_BUT_NEWLINE if newlines else _CONTROL
    return pattern.sub(_shown, str(text))


def safe_text(text: object, style: str = "", newlines: bool = False) -> Text:
    """A Rich `Text` of `visible(text)` in `style`: its brackets are shown as they are, never
    read as markup."""
    return Text(visible(text, newlines), style=style)


def safe_markup(text: object) -> str:
    """`visible(text)` for a place that reads Rich markup (a table's title or caption): its
    brackets escaped, so "[bold]" is printed as it is written."""
    return escape(visible(text))


class Visible:
    """A renderable drawn as `renderable` draws it, with the control characters of its text
    made visible (its line breaks kept): for drawings made by code that may hold outside text
    and may not have escaped it. Rich's own control codes (cursor moves) are left alone."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.renderable, options):
            if segment.control or not _CONTROL_BUT_NEWLINE.search(segment.text):
                yield segment
            else:
                yield Segment(visible(segment.text, newlines=True), segment.style)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.renderable)


def guarded(renderable: RenderableType) -> RenderableType:
    """`renderable` to print with no control character reaching the terminal raw: a text
    without any as it is (printed exactly as before), anything else inside `Visible`."""
    if isinstance(renderable, (str, Text)):
        plain = renderable if isinstance(renderable, str) else renderable.plain
        if not _CONTROL_BUT_NEWLINE.search(plain):
            return renderable
    return Visible(renderable)


__all__ = ["Visible", "guarded", "safe_markup", "safe_text", "visible"]
