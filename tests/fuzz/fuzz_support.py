"""Positions, garbage and checks shared by the fuzz tests of every game.

Positions come from random games of each family (Carcassonne without and with Abbey & Mayor,
Queens, Shogun) stopped at random depths, built once per session (and Carcassonne engine) with
the random-game helpers of each game's own tests. The garbage is of four kinds: arbitrary JSON
values (deep nesting, huge integers, non-finite floats, booleans where integers go, any
unicode), mutations of real legal actions, records and options (a field dropped, replaced,
added, retyped or shifted), foreign Python objects (objects whose `to_json` returns junk or
raises, whose `__eq__`, `__hash__` or `__repr__` raise, other games' actions, look-alike
dataclasses, the game's own action classes holding junk), and raw bytes.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from dataclasses import dataclass
from typing import Any, Callable

from carcassonne_engines import per_engine_cache
from hypothesis import strategies as st
from queens_helpers import new_game as queens_game
from randomgames import am_config, config, state_at

import boardwright as bw
from boardwright.duel.actions import PlayCard
from boardwright.games.carcassonne import Deploy, Place
from boardwright.games.carcassonne import Pass as CarcassonnePass
from boardwright.games.queens import Joint, Sow
from boardwright.games.queens import Move as QueensMove
from boardwright.games.shogun.actions import Attack, Exchange
from boardwright.games.shogun.actions import Move as ShogunMove

FAMILIES = ("carcassonne", "carcassonne_am", "queens", "shogun")
POSITIONS = 8  # per family
SHOGUN_ROUNDS = 6
HUGE = 10**5000  # more digits than Python will print
NON_ASCII_SEATS = ["Zoë", "渡辺", "Åsa"]


def nested(depth: int, leaf: Any = 0) -> Any:
    """A list nested `depth` levels deep (deeper than `repr` or `json` recurse, if asked)."""
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


# -- positions ------------------------------------------------------------------------------------

def _play(state: bw.State, rng: random.Random, steps: int) -> bw.State:
    for _ in range(steps):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    return state


@per_engine_cache()
def positions(family: str) -> tuple[bw.State, ...]:
    """Positions of random games of one family at random depths (the last one finished)."""
    out: list[bw.State] = []
    rng = random.Random(f"fuzz {family}")
    for i in range(POSITIONS):
        depth = 10_000 if i == POSITIONS - 1 else rng.randrange(0, 160)
        if family == "carcassonne":
            state = state_at(config(7 * i + 3), depth)
        elif family == "carcassonne_am":
            state = state_at(am_config(11 * i + 5), depth)
        elif family == "queens":
            state = _play(queens_game(2 + i % 3, seed=i), random.Random(i), depth)
        else:
            game = bw.load("shogun", 2 + i % 3, {"max_rounds": SHOGUN_ROUNDS})
            state = _play(game.new_game(i), random.Random(i), depth * 2)
        state.meta["seats"] = [NON_ASCII_SEATS[s % 3] for s in range(state.game.num_players)]
        out.append(state)
    return tuple(out)


def position(family: str, index: int) -> bw.State:
    """A fresh clone of one of the family's positions (tests may change it)."""
    states = positions(family)
    return states[index % len(states)].clone()


def snapshot(state: Any) -> tuple[Any, ...]:
    """Everything a refused input must leave as it was."""
    return (state.signature(), state.record.dumps(), state.current_player, state.is_terminal,
            json.dumps(state.view(None), sort_keys=True))


def assert_unchanged(state: Any, before: tuple[Any, ...], twin: Any) -> None:
    assert snapshot(state) == before
    assert state == twin


# -- JSON garbage ---------------------------------------------------------------------------------

# Values that break `repr` or `json` are built on demand from their names: hypothesis shows the
# strategies it is given, and could not show these.
SPECIAL_VALUES: dict[str, Callable[[], Any]] = {
    "huge": lambda: HUGE, "-huge": lambda: -HUGE, "2**64": lambda: 2**64,
    "-2**63-1": lambda: -(2**63) - 1, "2**31": lambda: 2**31, "-1": lambda: -1,
    "true": lambda: True, "false": lambda: False, "0.0": lambda: 0.0, "-0.0": lambda: -0.0,
    "1e308": lambda: 1e308, "nan": lambda: float("nan"), "inf": lambda: float("inf"),
    "-inf": lambda: float("-inf"), "empty": lambda: "", "nul": lambda: "\x00",
    "surrogate": lambda: "\ud800", "long accents": lambda: "é" * 300,
    "long text": lambda: "x" * 5000, "[]": lambda: [], "{}": lambda: {},
    "deep 7": lambda: nested(7), "deep 1100": lambda: nested(1_100),
    "deep 6000": lambda: nested(6_000), "deep in dict": lambda: {"a": nested(50)},
}


def specials(table: dict[str, Callable[[], Any]]) -> st.SearchStrategy[Any]:
    return st.sampled_from(sorted(table)).map(lambda name: table[name]())


json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-600, 600), st.integers(), st.floats(),
    st.text(max_size=12), specials(SPECIAL_VALUES),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=10,
)


def _paths(value: Any, prefix: tuple[Any, ...] = (), depth: int = 0) -> list[tuple[Any, ...]]:
    """Every path into a (small) JSON value, the root included."""
    out = [prefix]
    if depth > 6:
        return out
    if isinstance(value, dict):
        for key, item in value.items():
            out.extend(_paths(item, prefix + (key,), depth + 1))
    elif isinstance(value, list):
        for index, item in enumerate(value[:20]):
            out.extend(_paths(item, prefix + (index,), depth + 1))
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _text(value: Any) -> str:
    try:
        return str(value)[:20]
    except (ValueError, RecursionError):  # a huge integer, a deep list
        return "junk"


RETYPE: list[Callable[[Any], Any]] = [
    _text, lambda v: [v], lambda v: {"value": v}, lambda v: None,
    lambda v: float(v) if isinstance(v, int) and abs(v) < 2**60 else 1.5,
    lambda v: bool(v) if not isinstance(v, (dict, list)) else True,
    lambda v: v + 1 if type(v) is int else 0,
    lambda v: v - 1_000_000 if type(v) is int else -1,
    lambda v: v * HUGE if type(v) is int else -HUGE,
    lambda v: v[::-1] if isinstance(v, (str, list)) else v,
    lambda v: v.upper() if isinstance(v, str) else v,
]


@st.composite
def mutated(draw: st.DrawFn, original: Any, max_changes: int = 3) -> Any:
    """`original` with one to `max_changes` changes at random places: a field dropped,
    replaced by garbage, added, retyped or shifted, a list cut or grown."""
    value = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, max_changes))):
        path = draw(st.sampled_from(_paths(value)))
        op = draw(st.sampled_from(["drop", "replace", "add", "retype", "retype", "grow"]))
        if not path:
            if op in ("replace", "retype"):
                value = (draw(json_values) if op == "replace"
                         else draw(st.sampled_from(RETYPE))(value))
            continue
        parent, key = _get(value, path[:-1]), path[-1]
        if op == "drop":
            del parent[key]
        elif op == "replace":
            parent[key] = draw(json_values)
        elif op == "retype":
            parent[key] = draw(st.sampled_from(RETYPE))(parent[key])
        elif op == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(json_values)
        elif op == "grow" and isinstance(parent[key], list):
            parent[key].append(draw(json_values))
        elif op == "grow" and isinstance(parent[key], dict):
            parent[key][draw(st.sampled_from(["type", "x", "y", "space", "card", "from"]))] = \
                draw(json_values)
        if not _paths(value):
            break
    return value


# -- foreign objects ------------------------------------------------------------------------------

class JunkToJson:
    """Looks like an action: its `to_json` answers junk."""

    def __init__(self, junk: Any) -> None:
        self.junk = junk

    def to_json(self) -> Any:
        return self.junk


class RaisingToJson:
    """Its `to_json` raises (an engine must not call a stranger's methods)."""

    def to_json(self) -> Any:
        raise KeyError("to_json")


class Hostile:
    """Every method an engine might use raises."""

    def to_json(self) -> Any:
        raise RuntimeError("to_json")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("__eq__")

    def __hash__(self) -> int:
        raise RuntimeError("__hash__")

    def __repr__(self) -> str:
        raise RuntimeError("__repr__")

    def __str__(self) -> str:
        raise RuntimeError("__str__")


class Liar:
    """Claims to equal everything, with the JSON of a legal-looking action."""

    def __init__(self, data: Any) -> None:
        self.data = data

    def to_json(self) -> Any:
        return self.data

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


@dataclass(frozen=True)
class LookAlikePlace:
    x: int
    y: int
    rotation: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "place", "x": self.x, "y": self.y, "rotation": self.rotation}


@dataclass(frozen=True)
class LookAlikeMove:
    space: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "move", "space": self.space}


class WeirdKeys(dict):
    """A dict subclass (apply parses dicts) with keys JSON could never hold."""


def weird_keys(data: dict[Any, Any]) -> WeirdKeys:
    out = WeirdKeys(data)
    out[1] = "one"
    out[(1, 2)] = "pair"
    out[None] = None
    return out


OTHER_ACTIONS: list[Any] = [
    Place(0, 0, 0), Deploy(0, 0, "N", "follower"), CarcassonnePass(), QueensMove((0, 4), (0, 3)),
    Joint((0, 4), (1, 3), (0, 2)), Sow((0, 0)), ShogunMove("kai"), Attack("higo", "t_oni"),
    Exchange(1, "blue"), PlayCard("sam_katana_cut", 3),
]
JUNK_FIELD_VALUES: dict[str, Callable[[], Any]] = {
    "huge": lambda: HUGE, "-huge": lambda: -HUGE, "2**64": lambda: 2**64,
    "deep 6000": lambda: nested(6_000), "deep 3": lambda: nested(3), "list": lambda: [1, 2],
    "dict": lambda: {"q": 1}, "set": lambda: {1, 2}, "1-tuple": lambda: (1,),
    "3-tuple": lambda: (1, 2, 3), "huge pair": lambda: (HUGE, 0), "text pair": lambda: ("a", "b"),
    "deep pair": lambda: (0, nested(5_000)), "float": lambda: 1.5, "nan": lambda: float("nan"),
    "none": lambda: None, "true": lambda: True, "empty": lambda: "", "long": lambda: "x" * 5000,
    "N.N": lambda: "N.N", "hostile": lambda: Hostile(), "object": lambda: object(),
}


def game_of(action: Any) -> str:
    """The game an action class belongs to (duel actions are Shogun's)."""
    module = type(action).__module__
    return "shogun" if module.startswith("boardwright.duel") else module.split(".")[2]


def junk_instance(action: Any, field: str, value: Any) -> Any:
    """The game's own action class holding junk in one field (built past `__init__`)."""
    clone = copy.copy(action)
    object.__setattr__(clone, field, value)
    return clone


@st.composite
def foreign_objects(draw: st.DrawFn, state: Any) -> Any:
    """A Python object that is not a valid action of `state`'s game."""
    legal = state.legal_actions()
    kind = draw(st.sampled_from(["junk_to_json", "raising", "hostile", "liar", "other_game",
                                 "look_alike", "own_junk", "own_junk", "weird_keys", "builtin",
                                 "class"]))
    if kind == "junk_to_json":
        return JunkToJson(draw(json_values | st.sampled_from([a.to_json() for a in legal] or [{}])))
    if kind == "raising":
        return RaisingToJson()
    if kind == "hostile":
        return Hostile()
    if kind == "liar":
        return Liar(draw(st.sampled_from([a.to_json() for a in legal] or [{"type": "pass"}])))
    if kind == "other_game":
        return draw(st.sampled_from([a for a in OTHER_ACTIONS if game_of(a) != state.game.name]))
    if kind == "look_alike":
        return draw(specials({"place": lambda: LookAlikePlace(0, 1, 0),
                              "move": lambda: LookAlikeMove("kai"),
                              "huge place": lambda: LookAlikePlace(HUGE, 0, 0)}))
    if kind == "own_junk":
        with_fields = [a for a in legal if dataclasses.fields(a)] or [
            a for a in OTHER_ACTIONS if game_of(a) == state.game.name and dataclasses.fields(a)]
        action = draw(st.sampled_from(with_fields))
        field = draw(st.sampled_from([f.name for f in dataclasses.fields(action)]))
        return junk_instance(action, field, draw(specials(JUNK_FIELD_VALUES)))
    if kind == "weird_keys":
        return weird_keys(draw(st.sampled_from([a.to_json() for a in legal] or [{}])))
    if kind == "class":
        return draw(st.sampled_from([Place, QueensMove, ShogunMove, dict, type(legal[0])
                                     if legal else object]))
    return draw(specials({"0": lambda: 0, "-1": lambda: -1, "huge": lambda: HUGE,
                          "float": lambda: 1.5, "pass": lambda: "pass",
                          "json text": lambda: '{"type": "pass"}', "bytes": lambda: b"{}",
                          "none": lambda: None, "list": lambda: [], "deep": lambda: nested(6_000),
                          "set": lambda: set(), "object": lambda: object(),
                          "pair": lambda: (1, 2)}))


def action_ids(size: int) -> st.SearchStrategy[Any]:
    """Action ids: inside the space, just outside, far outside, or not integers at all."""
    return st.one_of(
        st.integers(0, size - 1), st.integers(-5, -1), st.integers(size, size + 5),
        st.integers(), specials({"huge": lambda: HUGE, "-huge": lambda: -HUGE,
                                 "true": lambda: True, "false": lambda: False, "1.0": lambda: 1.0,
                                 "nan": lambda: float("nan"), "text": lambda: "3",
                                 "none": lambda: None, "list": lambda: [1], "tuple": lambda: (1,),
                                 "object": lambda: object()}),
    )


# -- records --------------------------------------------------------------------------------------

@per_engine_cache()
def record_texts(family: str) -> tuple[str, ...]:
    """Saved records of the family's positions, non-ASCII seat names written as they are."""
    return tuple(json.dumps(s.record.to_json(), ensure_ascii=False, indent=1)
                 for s in positions(family))


ENCODINGS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "latin-1",
             "cp1252", "ascii")


@st.composite
def record_bytes(draw: st.DrawFn, text: str) -> bytes:
    """The bytes of a saved record in some encoding, maybe damaged: cut, bytes flipped,
    garbage inserted, a slice removed, or nothing of the record at all."""
    encoding = draw(st.sampled_from(ENCODINGS))
    data = text.encode(encoding, errors="replace")
    op = draw(st.sampled_from(["none", "none", "cut", "flip", "insert", "delete", "binary"]))
    if op == "cut":
        data = data[:draw(st.integers(0, len(data)))]
    elif op == "flip":
        buffer = bytearray(data)
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(buffer) - 1))
            buffer[at] ^= draw(st.integers(1, 255))
        data = bytes(buffer)
    elif op == "insert":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
    elif op == "delete":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + data[at + draw(st.integers(1, 40)):]
    elif op == "binary":
        data = draw(st.binary(max_size=64))
    return data
