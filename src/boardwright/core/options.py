"""What a game's options are: one `OptionSpec` per option, declared once by the game.

A game lists its options through `Game.option_specs(players)`; the same list validates what a
caller gives (`check_options`: an unknown option, a value of the wrong type, out of range or not
among the choices raises InvalidOptionError naming the option), is shown by the CLI
(`describe_specs`) and is served to the web lobby, which builds its create form from it. Rules
that tie options together (a tile name that must exist, one hero per seat) stay in the game.

Types (`OptionSpec.type`):

- "bool": true or false;
- "int": a whole number from `min` to `max` (either bound may be None);
- "str": a string, one of `choices` when there are some;
- "list": a list of strings, each one of `choices` when there are some, from `min` to `max`
  items long (a list whose length is fixed, min == max, is one choice per item: one hero per
  seat; a list of choices of open length is a set of switches: the expansions);
- "object": a JSON object (a map, a position): the game checks its content;
- "json": any JSON value the game checks itself (what a plugin game's options are known as
  when it declares only their names and help).

A spec whose `default` is None may be given as None, meaning "not set". `requires` names
options that must hold given values for this one to apply (Carcassonne's abbey count needs the
Abbey & Mayor expansion): for a list option the value must be among its items.

For people, a spec may carry a `label` (its name in players' words: "Starting tile"),
`advanced` (set-ups for puzzles, tests and tools: the lobby folds them away) and `seat` (a
whole number that names a seat: 0 in the data, shown as "Seat 1").
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from boardwright.core.errors import InvalidOptionError
from boardwright.core.inputs import short_repr

OPTION_TYPES = ("bool", "int", "str", "list", "object", "json")


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game: its name, type, default, allowed values and what it does."""

    name: str
    type: str
    default: Any = None
    choices: tuple[Any, ...] = ()
    help: str = ""
    min: int | None = None
    max: int | None = None
    requires: tuple[tuple[str, Any], ...] = ()
    # Names for the choices, for people (e.g. "abbey_mayor" -> "Abbey & Mayor"); optional.
    labels: tuple[tuple[str, str], ...] = field(default=())
    label: str = ""  # the option's name for people ("Starting tile"); the name when empty
    advanced: bool = False  # for puzzles, tests and tools: folded away in the lobby's form
    seat: bool = False  # an "int" that names a seat (0-based), shown counted from 1

    @property
    def title(self) -> str:
        """What people call the option: its label, else its name in words."""
        return self.label or self.name.replace("_", " ")

    def __post_init__(self) -> None:
        if self.type not in OPTION_TYPES:
            raise ValueError(f"option {self.name!r}: unknown type {self.type!r}; "
                             f"types: {', '.join(OPTION_TYPES)}")

    def to_json(self) -> dict[str, Any]:
        """The spec as the web catalog serves it (JSON-able)."""
        data: dict[str, Any] = {"name": self.name, "type": self.type, "default": _json(self.default),
                                "help": self.help}
        if self.choices:
            data["choices"] = list(self.choices)
        if self.labels:
            data["labels"] = dict(self.labels)
        if self.min is not None:
            data["min"] = self.min
        if self.max is not None:
            data["max"] = self.max
        if self.requires:
            data["requires"] = dict(self.requires)
        if self.label:
            data["label"] = self.label
        if self.advanced:
            data["advanced"] = True
        if self.seat:
            data["seat"] = True
        return data

    def applies(self, values: Mapping[str, Any]) -> bool:
        """Whether every option this one requires holds its value in `values`."""
        return all(_holds(values.get(key), wanted) for key, wanted in self.requires)

    def check(self, value: Any) -> Any:
        """`value` when it fits this spec; InvalidOptionError naming the option otherwise."""
        if value is None and self.default is None:
            return None
        key = self.name
        if self.type == "bool":
            if not isinstance(value, bool):
                raise InvalidOptionError(f"option {key!r} must be true or false, "
                                         f"not {short_repr(value)}")
        elif self.type == "int":
            low = -(2**63) if self.min is None else self.min
            high = 2**63 if self.max is None else self.max
            if type(value) is not int or not low <= value <= high:
                raise InvalidOptionError(f"option {key!r} must be a whole number {_span(self)}, "
                                         f"not {short_repr(value)}")
        elif self.type == "str":
            if self.choices and value not in self.choices:
                raise InvalidOptionError(
                    f"option {key!r} must be one of {', '.join(map(repr, self.choices))}, "
                    f"not {short_repr(value)}")
            if not isinstance(value, str):
                raise InvalidOptionError(f"option {key!r} must be a string, not "
                                         f"{short_repr(value)}")
        elif self.type == "list":
            _check_list(self, value)
        elif self.type == "object":
            if not isinstance(value, dict):
                raise InvalidOptionError(f"option {key!r} must be an object, not "
                                         f"{short_repr(value)}")
        return value


def _json(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _holds(value: Any, wanted: Any) -> bool:
    if isinstance(value, (list, tuple)):
        return wanted in value
    return value == wanted


def _span(spec: OptionSpec) -> str:
    if spec.min is not None and spec.max is not None:
        return f"from {spec.min} to {spec.max}"
    if spec.min is not None:
        return f"of at least {spec.min}"
    if spec.max is not None:
        return f"of at most {spec.max}"
    return "in range"


def _check_list(spec: OptionSpec, value: Any) -> None:
    key = spec.name
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise InvalidOptionError(f"option {key!r} must be a list of strings, not "
                                 f"{short_repr(value)}")
    if spec.max is not None and len(value) > spec.max:
        raise InvalidOptionError(f"option {key!r} lists {len(value)} items; at most {spec.max}")
    if spec.min is not None and len(value) < spec.min:
        raise InvalidOptionError(f"option {key!r} lists {len(value)} items; at least {spec.min}")
    for index, item in enumerate(value):
        if spec.choices and item not in spec.choices:
            raise InvalidOptionError(
                f"option {key!r}: unknown item {short_repr(item)} at #{index}; known: "
                f"{', '.join(map(str, spec.choices))}")


def check_unknown(specs: Sequence[OptionSpec], raw: Mapping[str, Any], game: str) -> None:
    """InvalidOptionError naming every option of `raw` that no spec describes."""
    known = [spec.name for spec in specs]
    unknown = sorted(set(raw) - set(known), key=str)
    if unknown:
        raise InvalidOptionError(f"unknown {game} option(s) {', '.join(map(repr, unknown))}; "
                                 f"known: {', '.join(known)}")


def check_options(specs: Sequence[OptionSpec], raw: Mapping[str, Any], game: str, *,
                  own: Iterable[str] = ()) -> dict[str, Any]:
    """Check `raw` against `specs`: no unknown option, each value of its spec's type and range,
    and no option whose `requires` do not hold. Returns the given options with the defaults of
    the others that apply (None defaults left out). Options named in `own` are only checked
    for being known: the game checks their values itself (their content depends on other
    options, e.g. a draw pile's tile names)."""
    check_unknown(specs, raw, game)
    skip = set(own)
    given = dict(raw)
    out: dict[str, Any] = {}
    for spec in specs:
        if spec.name in raw:
            out[spec.name] = raw[spec.name] if spec.name in skip else spec.check(raw[spec.name])
    for spec in specs:
        if spec.name in raw and not spec.applies(given):
            needed = ", ".join(f"{k} = {short_repr(v)}" for k, v in spec.requires)
            raise InvalidOptionError(f"option {spec.name!r} needs {needed}")
        if spec.name not in raw and spec.default is not None and spec.applies(given):
            out[spec.name] = _json(spec.default)
    return out


def spec_map(specs: Iterable[OptionSpec]) -> dict[str, OptionSpec]:
    return {spec.name: spec for spec in specs}


def derive_specs(defaults: Mapping[str, Any], help_texts: Mapping[str, Any]) -> list[OptionSpec]:
    """Specs for a game that declares none: one per option its default options hold or its
    `options_help` describes, typed from the default value ("json" when none tells)."""
    names = list(dict.fromkeys([*defaults, *help_texts]))
    specs = []
    for name in names:
        default = defaults.get(name)
        kind = _type_of(default)
        specs.append(OptionSpec(str(name), kind, default if kind != "json" else None,
                                help=str(help_texts.get(name, ""))))
    return specs


def _type_of(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return "list"
    if isinstance(value, dict):
        return "object"
    return "json"


def value_words(spec: OptionSpec, value: Any) -> str:
    """One option's value as people read it: its choices' labels, yes/no, seats from 1."""
    labels = dict(spec.labels)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if spec.seat and type(value) is int:
        return f"seat {value + 1}"
    if isinstance(value, (list, tuple)):
        return ", ".join(labels.get(v, str(v)) for v in value) or "none"
    return labels.get(value, str(value)) if isinstance(value, str) else str(value)


def changed_words(specs: Sequence[OptionSpec], options: Mapping[str, Any]) -> list[str]:
    """The options of `options` set away from their defaults, in words ("cards: 5"), leaving
    out advanced ones and those only tools give (objects, JSON)."""
    out = []
    for spec in specs:
        if spec.name not in options or spec.advanced or spec.type in ("object", "json"):
            continue
        value = options[spec.name]
        if value is None or _json(value) == _json(spec.default):
            continue
        out.append(f"{spec.title}: {value_words(spec, value)}")
    return out


def describe_specs(specs: Sequence[OptionSpec]) -> list[tuple[str, str, str]]:
    """(name, type and range, help with default) per option: what the CLI prints."""
    rows = []
    for spec in specs:
        kind = spec.type
        if spec.type == "int" and (spec.min is not None or spec.max is not None):
            kind = f"int {_span(spec)}"
        elif spec.choices:
            kind = f"{spec.type}: {' | '.join(map(str, spec.choices))}"
        default = "not set" if spec.default is None else json.dumps(_json(spec.default))
        needs = "".join(f"; needs {k} = {v}" for k, v in spec.requires)
        rows.append((spec.name, kind, f"{spec.help} (default {default}{needs})"))
    return rows
