"""Card effects as data: the HeroCard keywords and the parser of their structured text.

Deck files give every effect twice: as card text for people and as structured text for the
engine, e.g. ``look_hand(chosen_opponent); discard(chosen_opponent,1,picked_by_owner)``. This
module turns the structured text into frozen effect objects, so the duel never interprets
strings while it runs, and a typo in a deck file fails when the deck is loaded, naming the card.

Grammar: effects are separated by ``;``; each is ``name(arg, ...)`` where an argument is a word,
an integer (``+2`` is 2) or, for ``on_success``/``on_failure``, a nested effect.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from boardwright.core.errors import InvalidOptionError

# Who an effect points at. "attacker"/"defender" are duel roles; "opponent" is the other duel
# participant; "chosen_opponent" is an opponent the card's owner names (the other participant
# inside a duel, SHO-DUEL-06).
WHO = ("attacker", "defender", "opponent", "chosen_opponent")
IGNORE_KINDS = ("any", "modifier", "basic", "special")
DISCARD_MODES = ("choice", "random", "picked_by_owner")


@dataclass(frozen=True, slots=True)
class Ignore:
    """Make one active card of `kind` the opponent played in this duel inactive (SHO-DUEL-15)."""

    kind: str

    def text(self) -> str:
        return f"ignore(opponent,{self.kind})"


@dataclass(frozen=True, slots=True)
class Purge:
    """Remove one not-yet-purged card the opponent played in this duel (SHO-DUEL-16)."""

    kind: str = "any"

    def text(self) -> str:
        return f"purge(opponent,{self.kind})"


@dataclass(frozen=True, slots=True)
class Draw:
    """The owner draws `n` cards, stopping at the hand limit (SHO-DUEL-18)."""

    n: int

    def text(self) -> str:
        return f"draw({self.n})"


@dataclass(frozen=True, slots=True)
class Discard:
    """`who` discards `n` cards from hand: their choice, at random, or picked by the card's
    owner after a look at the hand (SHO-DUEL-19)."""

    who: str
    n: int
    mode: str

    def text(self) -> str:
        return f"discard({self.who},{self.n},{self.mode})"


@dataclass(frozen=True, slots=True)
class Clear:
    """The owner clears up to `n` pile tops, never the card itself (SHO-DUEL-20)."""

    n: int

    def text(self) -> str:
        return f"clear({self.n})"


@dataclass(frozen=True, slots=True)
class Combo:
    """+`bonus` at resolution if the owner played a card tagged `tag` in this duel
    (SHO-DUEL-21)."""

    tag: str
    bonus: int

    def text(self) -> str:
        return f"combo({self.tag},+{self.bonus})"


@dataclass(frozen=True, slots=True)
class OnSuccess:
    """Effects applied after resolution if the attack succeeded and the card is active
    (SHO-DUEL-22)."""

    effects: tuple[Effect, ...]

    def text(self) -> str:
        return f"on_success({'; '.join(e.text() for e in self.effects)})"


@dataclass(frozen=True, slots=True)
class OnFailure:
    """Effects applied after resolution if the attack failed and the card is active
    (SHO-DUEL-22)."""

    effects: tuple[Effect, ...]

    def text(self) -> str:
        return f"on_failure({'; '.join(e.text() for e in self.effects)})"


@dataclass(frozen=True, slots=True)
class Recall:
    """The owner takes up to `n` cards of their choice from their discard pile back to hand."""

    n: int

    def text(self) -> str:
        return f"recall({self.n})"


@dataclass(frozen=True, slots=True)
class CleanupLimit:
    """In `who`'s next Cleanup phase they may clear at most `n` cards."""

    who: str
    n: int

    def text(self) -> str:
        return f"cleanup_limit({self.who},{self.n})"


@dataclass(frozen=True, slots=True)
class LookHand:
    """The owner looks at `who`'s hand (it is shown to them for the choice that follows)."""

    who: str

    def text(self) -> str:
        return f"look_hand({self.who})"


Effect = Union[Ignore, Purge, Draw, Discard, Clear, Combo, OnSuccess, OnFailure, Recall,
               CleanupLimit, LookHand]

_TOKEN = re.compile(r"\s*(?:([A-Za-z_]+)|([+-]?\d+)|(.))")


class _Parser:
    """A recursive-descent parser over the tokens of one effect text."""

    def __init__(self, text: str, where: str) -> None:
        self.where = where
        self.text = text
        self.tokens: list[tuple[str, str]] = []
        for match in _TOKEN.finditer(text):
            word, number, other = match.groups()
            if word:
                self.tokens.append(("word", word))
            elif number:
                self.tokens.append(("int", number))
            elif other and not other.isspace():
                self.tokens.append(("sym", other))
        self.pos = 0

    def fail(self, message: str) -> InvalidOptionError:
        return InvalidOptionError(f"{self.where}: effect {self.text!r}: {message}")

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, kind: str, value: str | None = None) -> str:
        token = self.peek()
        if token is None or token[0] != kind or (value is not None and token[1] != value):
            wanted = value or kind
            found = "the end" if token is None else repr(token[1])
            raise self.fail(f"expected {wanted!r}, found {found}")
        self.pos += 1
        return token[1]

    def sequence(self, closing: str | None) -> tuple[Effect, ...]:
        effects = [self.effect()]
        while self.peek() == ("sym", ";"):
            self.pos += 1
            effects.append(self.effect())
        if closing is None and self.peek() is not None:
            raise self.fail(f"unexpected {self.peek()[1]!r}")  # type: ignore[index]
        return tuple(effects)

    def args(self) -> list[str | tuple[Effect, ...]]:
        self.take("sym", "(")
        out: list[str | tuple[Effect, ...]] = []
        while True:
            token = self.peek()
            if token is None:
                raise self.fail("missing ')'")
            if token[0] == "word" and self.pos + 1 < len(self.tokens) \
                    and self.tokens[self.pos + 1] == ("sym", "("):
                out.append(self.sequence(closing=")"))
            elif token[0] in ("word", "int"):
                self.pos += 1
                out.append(token[1])
            else:
                raise self.fail(f"unexpected {token[1]!r}")
            if self.peek() == ("sym", ","):
                self.pos += 1
                continue
            self.take("sym", ")")
            return out

    def effect(self) -> Effect:
        name = self.take("word")
        args = self.args()
        return _build(name, args, self)


def _count(parser: _Parser, value: object, what: str) -> int:
    if not isinstance(value, str) or not re.fullmatch(r"\+?\d+", value) or int(value) < 1:
        raise parser.fail(f"{what} must be a whole number of at least 1, not {value!r}")
    return int(value)


def _word(parser: _Parser, value: object, allowed: tuple[str, ...], what: str) -> str:
    if value not in allowed:
        raise parser.fail(f"{what} must be one of {', '.join(allowed)}, not {value!r}")
    return value  # type: ignore[return-value]


def _arity(parser: _Parser, name: str, args: list, n: int) -> None:
    if len(args) != n:
        raise parser.fail(f"{name} takes {n} argument(s), not {len(args)}")


def _build(name: str, args: list, parser: _Parser) -> Effect:
    if name in ("ignore", "purge"):
        _arity(parser, name, args, 2)
        _word(parser, args[0], ("opponent",), f"the first argument of {name}")
        if name == "purge":
            return Purge(_word(parser, args[1], ("any",), "the kind of purge"))
        return Ignore(_word(parser, args[1], IGNORE_KINDS, "the kind of ignore"))
    if name in ("draw", "clear", "recall"):
        _arity(parser, name, args, 1)
        n = _count(parser, args[0], f"the count of {name}")
        return {"draw": Draw, "clear": Clear, "recall": Recall}[name](n)
    if name == "discard":
        _arity(parser, name, args, 3)
        return Discard(_word(parser, args[0], WHO, "who discards"),
                       _count(parser, args[1], "the count of discard"),
                       _word(parser, args[2], DISCARD_MODES, "the discard mode"))
    if name == "combo":
        _arity(parser, name, args, 2)
        if not isinstance(args[0], str) or not args[0].isidentifier():
            raise parser.fail(f"the combo tag must be a word, not {args[0]!r}")
        return Combo(args[0], _count(parser, args[1], "the combo bonus"))
    if name in ("on_success", "on_failure"):
        _arity(parser, name, args, 1)
        if not isinstance(args[0], tuple):
            raise parser.fail(f"{name} needs an effect as its argument")
        inner = args[0]
        if any(isinstance(e, (Ignore, Purge, Combo, OnSuccess, OnFailure)) for e in inner):
            raise parser.fail(f"{name} may hold only draw, discard, clear, recall, "
                              "cleanup_limit or look_hand")
        return OnSuccess(inner) if name == "on_success" else OnFailure(inner)
    if name == "cleanup_limit":
        _arity(parser, name, args, 2)
        return CleanupLimit(_word(parser, args[0], WHO, "who is limited"),
                            _count(parser, args[1], "the cleanup limit"))
    if name == "look_hand":
        _arity(parser, name, args, 1)
        return LookHand(_word(parser, args[0], WHO, "whose hand is seen"))
    raise parser.fail(f"unknown keyword {name!r}")


def parse_effects(text: str, where: str = "card") -> tuple[Effect, ...]:
    """The effects of a structured effect text ("" or "—" means none).

    Raises InvalidOptionError naming `where` when the text does not parse, or when a discard
    "picked_by_owner" is not preceded by a look at the same player's hand.
    """
    stripped = text.strip()
    if stripped in ("", "—", "-"):
        return ()
    parser = _Parser(stripped, where)
    effects = parser.sequence(closing=None)
    _check_sequence(effects, parser)
    return effects


def _check_sequence(effects: tuple[Effect, ...], parser: _Parser) -> None:
    looked: set[str] = set()
    targeted = 0
    for effect in effects:
        if isinstance(effect, LookHand):
            looked.add(effect.who)
        if isinstance(effect, Discard) and effect.mode == "picked_by_owner" \
                and effect.who not in looked:
            raise parser.fail("a discard picked by the owner needs a look_hand of the same "
                              "player before it")
        if isinstance(effect, (Ignore, Purge)):
            targeted += 1
        if isinstance(effect, (OnSuccess, OnFailure)):
            _check_sequence(effect.effects, parser)
    if targeted > 1:
        raise parser.fail("a card may ignore or purge only one card")


def effects_text(effects: tuple[Effect, ...]) -> str:
    """The structured text of effects (parse_effects(effects_text(e)) == e)."""
    return "; ".join(e.text() for e in effects)


def who_in(effects: tuple[Effect, ...]) -> set[str]:
    """Every `who` named by the effects, nested ones included."""
    out: set[str] = set()
    for effect in effects:
        if isinstance(effect, (Discard, CleanupLimit, LookHand)):
            out.add(effect.who)
        elif isinstance(effect, (OnSuccess, OnFailure)):
            out |= who_in(effect.effects)
    return out
