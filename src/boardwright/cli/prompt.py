"""Reading a human's answers in the terminal: the prompter (line by line from stdin, so games can
be scripted by piping answers in), the numbered choice of a move, and the bot's hints."""

from __future__ import annotations

import sys
from typing import Any, Callable

from rich.console import Console
from rich.text import Text

import boardwright as bw
from boardwright.agents.advice import suggest
from boardwright.render.safe_text import safe_text, visible
from boardwright.render.screen import HELP_KEYS

class InputEnded(Exception):
    """stdin ran out while a human had to decide."""



class Prompter:
    """Reads answers line by line from stdin.

    On a terminal it uses Rich's input (line editing). Otherwise (piped input, tests) it echoes
    each answer after the prompt, so a transcript reads like an interactive session.
    """

    def __init__(self, console: Console) -> None:
        self.console = console
        try:
            self.tty = sys.stdin.isatty()
        except (AttributeError, ValueError):
            self.tty = False

    def ask(self, prompt: str | Text) -> str:
        """One line, stripped; raises InputEnded at the end of input. Its echo is made
        visible; messages that quote it use its repr."""
        if isinstance(prompt, str):
            prompt = safe_text(prompt)  # literal: "[y/N]" is not Rich markup
        if self.tty:
            try:
                return self.console.input(prompt).strip()
            except EOFError:
                self.console.print()
                raise InputEnded from None
        self.console.print(prompt, end="")
        line = sys.stdin.readline()
        if not line:
            self.console.print()
            raise InputEnded
        answer = line.rstrip("\r\n")
        self.console.print(safe_text(answer), soft_wrap=True)
        return answer.strip()

    def error(self, message: str) -> None:
        self.console.print(safe_text(message, style="bold red"), soft_wrap=True)


HINT = -1  # ask_choice's answer to "?": show the bot's best moves
HELP = -2  # ask_choice's answer to h / help: show how to play here


def choice_prompt(who: Text, count: int, keys: str = "") -> Text:
    """The prompt of a human's decision, e.g. "Red, your choice [1-12, ? hint, h help,
    q quit]: "; `keys` adds a game's own commands after the numbers (", w/a/s/d pan"). It
    fits one line of an 80-column terminal."""
    prompt = who.copy()
    prompt.append(f", your choice [1-{count}{keys}, ? hint, h help, q quit]: ", style="")
    return prompt


def ask_choice(prompter: Prompter, count: int, who: Text,
               command: Callable[[str], Any] | None = None, keys: str = "") -> Any:
    """A number in 1..count typed by a human; HINT for ?; HELP for h or help; None when they
    type q; whatever `command` returns for a text it reads (a game's own command, e.g. a move
    named by board labels or a pan of the board). Asks until valid."""
    prompt = choice_prompt(who, count, keys)
    while True:
        answer = prompter.ask(prompt)
        if answer.lower() in ("q", "quit", "exit"):
            return None
        if answer == "?":
            return HINT
        if answer.lower() in HELP_KEYS:
            return HELP
        if not answer:
            prompter.error(f"Type the number of a move (1 to {count}), ? for a hint, "
                           "h for help, or q to quit.")
            continue
        if command is not None:
            reply = command(answer)
            if reply is not None:
                return reply
        try:
            number = int(answer)
        except ValueError:
            prompter.error(f"{answer!r} is not a number: type 1 to {count}, ? for a hint, "
                           "h for help, or q to quit.")
            continue
        if not 1 <= number <= count:
            prompter.error(f"There is no move {number}: type a number from 1 to {count}, "
                           "or q to quit.")
            continue
        return number


def hint_lines(state: bw.State, actions: list[Any], describe: Callable[[Any], str],
               seconds: float = 1.0) -> list[Text]:
    """The bot's three best moves for the player to move, by their menu numbers, with the
    expected margin of each (its lead in points over the best other player)."""
    lines = [Text(f"Hint ({seconds:g} s of search; expected margin in points):", style="bold")]
    for hint in suggest(state, count=3, seconds=seconds):
        number = actions.index(hint.action) + 1
        lines.append(Text(f"  {number}. {visible(describe(hint.action))}  {hint.margin:+.1f}"))
    return lines
