"""Each game's option specs (`Game.option_specs`, core/options.py): the one description of its
options. The defaults they declare are accepted by the game and are what it plays with when
nothing is given; a value of the wrong type, out of range or not among the choices is refused
with an InvalidOptionError naming the option; a game that declares nothing gets specs derived
from what it has (its default options and an `options_help` attribute)."""

from __future__ import annotations

from typing import Any

import pytest

import boardwright as bw
from boardwright.core.game import Game
from boardwright.core.options import OptionSpec, check_options, derive_specs, describe_specs

BUILT_IN = ("carcassonne", "queens", "shogun")
COUNTS = {"carcassonne": (1, 2, 5), "queens": (2, 3, 4), "shogun": (2, 3, 4)}
AM = {"expansions": ["abbey_mayor"]}


def _cases() -> list[tuple[str, int]]:
    return [(name, players) for name in BUILT_IN for players in COUNTS[name]]


def _context(spec: OptionSpec) -> dict[str, Any]:
    """The other options `spec` needs to apply (the expansion it belongs to)."""
    return {key: [value] for key, value in spec.requires}


def _defaults(specs: list[OptionSpec], base: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for spec in specs:
        if spec.default is not None and spec.applies(out) and spec.name not in out:
            out[spec.name] = list(spec.default) if isinstance(spec.default, tuple) else spec.default
    return out


@pytest.mark.parametrize(("name", "players"), _cases())
def test_specs_are_well_formed(name: str, players: int) -> None:
    specs = bw.option_specs(name, players)
    assert specs and all(isinstance(spec, OptionSpec) for spec in specs)
    names = [spec.name for spec in specs]
    assert len(names) == len(set(names))
    for spec in specs:
        assert spec.help, f"{name}: option {spec.name} has no help"
        if spec.default is not None and spec.type in ("bool", "int", "str", "list"):
            spec.check(spec.default if not isinstance(spec.default, tuple) else list(spec.default))
        for key, _ in spec.requires:
            assert key in names


@pytest.mark.parametrize(("name", "players", "base"),
                         [(n, p, {}) for n, p in _cases()] + [("carcassonne", 2, AM),
                                                              ("carcassonne", 6, AM)])
def test_the_declared_defaults_are_what_the_game_plays_with(name: str, players: int,
                                                             base: dict[str, Any]) -> None:
    specs = bw.option_specs(name, players)
    explicit = _defaults(specs, base)
    assert len(explicit) > len(base)
    implicit = bw.load(name, players, base)
    given = bw.load(name, players, explicit)
    # the same rules: a game given every default plays exactly like one given none
    a, b = implicit.new_game(9), given.new_game(9)
    assert a.view(None) == b.view(None)
    for step in range(6):
        if a.is_terminal:
            break
        action = a.legal_actions()[step % len(a.legal_actions())]
        a.apply(action)
        b.apply(action)
        assert a.view(None) == b.view(None)
    summary = implicit.option_summary()
    for key, value in explicit.items():
        if key in summary:
            assert summary[key] == value, key


def _bad_values(spec: OptionSpec, players: int) -> list[Any]:
    if spec.type == "bool":
        return [7, "true", None if spec.default is not None else 0]
    if spec.type == "int":
        bad: list[Any] = ["5", 1.5, True]
        if spec.min is not None:
            bad.append(spec.min - 1)
        if spec.max is not None:
            bad.append(spec.max + 1)
        return bad
    if spec.type == "str":
        return [5, ["x"], "no_such_value"] if spec.choices else [5]
    if spec.type == "list":
        bad = [5, "abc", [1, 2]]
        if spec.choices:
            bad.append(["no_such_item"] * (spec.min or 1))
        if spec.max is not None and spec.max < 1000:
            bad.append([spec.choices[0] if spec.choices else "D"] * (spec.max + 1))
        return bad
    if spec.type == "object":
        return [5, [1]]
    return []


def _bad_cases() -> list[tuple[str, int, str, Any]]:
    cases = []
    for name, players in _cases():
        for spec in bw.option_specs(name, players):
            for value in _bad_values(spec, players):
                cases.append((name, players, spec.name, value))
    return cases


@pytest.mark.parametrize(("name", "players", "key", "value"), _bad_cases())
def test_a_bad_value_is_refused_naming_the_option(name: str, players: int, key: str,
                                                  value: Any) -> None:
    spec = next(s for s in bw.option_specs(name, players) if s.name == key)
    options = {**_context(spec), key: value}
    with pytest.raises(bw.InvalidOptionError) as info:
        bw.load(name, players, options)
    assert key in str(info.value)


@pytest.mark.parametrize("name", BUILT_IN)
def test_an_unknown_option_is_refused_by_name(name: str) -> None:
    with pytest.raises(bw.InvalidOptionError, match="no_such_option"):
        bw.load(name, 2, {"no_such_option": 1})


def test_an_option_of_an_expansion_that_is_off_is_refused() -> None:
    for spec in bw.option_specs("carcassonne", 2):
        if spec.requires:
            with pytest.raises(bw.InvalidOptionError, match="needs the 'abbey_mayor' expansion"):
                bw.load("carcassonne", 2, {spec.name: spec.default})


def test_specs_follow_the_player_count() -> None:
    seat = {s.name: s for s in bw.option_specs("carcassonne", 4)}["starting_seat"]
    assert (seat.min, seat.max) == (0, 3)
    bw.load("carcassonne", 4, {"starting_seat": 3})
    with pytest.raises(bw.InvalidOptionError, match="starting_seat"):
        bw.load("carcassonne", 3, {"starting_seat": 3})
    for players, points in ((2, 24), (3, 22), (4, 20)):
        specs = {s.name: s for s in bw.option_specs("shogun", players)}
        assert specs["vp_threshold"].default == points
        assert (specs["heroes"].min, specs["heroes"].max) == (players, players)


def test_check_options_fills_defaults_that_apply_and_refuses_what_does_not() -> None:
    specs = [OptionSpec("mode", "str", "a", choices=("a", "b"), help="m"),
             OptionSpec("limit", "int", None, min=1, max=3, help="l"),
             OptionSpec("extra", "bool", True, requires=(("mode", "b"),), help="e")]
    assert check_options(specs, {}, "Test") == {"mode": "a"}
    assert check_options(specs, {"mode": "b"}, "Test") == {"mode": "b", "extra": True}
    assert check_options(specs, {"limit": None}, "Test") == {"limit": None, "mode": "a"}
    with pytest.raises(bw.InvalidOptionError, match="option 'extra' needs mode = 'b'"):
        check_options(specs, {"extra": False}, "Test")
    with pytest.raises(bw.InvalidOptionError, match="unknown Test option.*'zz'.*known: mode"):
        check_options(specs, {"zz": 1}, "Test")
    with pytest.raises(bw.InvalidOptionError, match="'limit' must be a whole number from 1 to 3"):
        check_options(specs, {"limit": 4}, "Test")
    with pytest.raises(ValueError):
        OptionSpec("x", "float")


class _Quiet(Game):
    """A game that declares no specs: only default options and an options_help mapping."""

    name = "quiet"
    options_help = {"rounds": "how many rounds", "style": "how it looks", "extra": "anything"}

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, {"rounds": 3, "style": "plain", "fast": False, **options})

    def new_game(self, seed: int | None = None) -> Any:
        raise NotImplementedError

    def action_from_json(self, data: Any) -> Any:
        raise NotImplementedError

    def action_id(self, action: Any) -> int:
        raise NotImplementedError

    def action_from_id(self, action_id: int) -> Any:
        raise NotImplementedError

    @property
    def num_distinct_actions(self) -> int:
        return 0


def test_a_game_that_declares_nothing_gets_specs_from_what_it_has() -> None:
    specs = {s.name: s for s in _Quiet.option_specs(2)}
    assert list(specs) == ["rounds", "style", "fast", "extra"]
    assert (specs["rounds"].type, specs["rounds"].default, specs["rounds"].help) == \
        ("int", 3, "how many rounds")
    assert (specs["style"].type, specs["fast"].type, specs["extra"].type) == ("str", "bool", "json")
    assert specs["fast"].help == "" and specs["extra"].default is None
    assert derive_specs({}, {}) == []


def test_the_cli_description_names_type_range_and_default() -> None:
    rows = {name: (kind, text) for name, kind, text in
            describe_specs(bw.option_specs("carcassonne", 2))}
    assert rows["abbeys"][0] == "int from 0 to 20"
    assert "default 1; needs expansions = abbey_mayor" in rows["abbeys"][1]
    assert rows["small_city_scoring"][0] == "str: standard | first_edition"
    assert "default not set" in rows["draw_order"][1]
