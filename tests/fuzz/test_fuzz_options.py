"""Fuzzed options, player counts and seeds for every game.

Real option sets (base Carcassonne, Abbey & Mayor, Queens with the default map, an inline map
and a custom position, Shogun with heroes and fixed orders) are mutated or replaced by
garbage. Only a `BoardwrightError` may come out of `bw.load` and `new_game`. A game that loads
keeps its own copy of the options: editing the caller's dict, `game.options` or a record's
options afterwards changes nothing, and its records replay.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from carcassonne_engines import over_games
from sizes import sized
from fuzz_support import HUGE, json_values, mutated, specials
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from randomgames import am_config, config

import boardwright as bw
from boardwright.games.shogun.content import load_content

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=sized(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def real_options() -> dict[str, list[dict[str, Any]]]:
    queens = bw.load("queens", 2)
    content = load_content()
    return {
        "carcassonne": [config(3).options(), am_config(7).options(), am_config(40).options(),
                        {"draw_order": ["A", "B", "C", "E"], "start_tile": "D"}],
        "queens": [{"map": "default"}, {"map": queens.config.map.to_json()},
                   {"map": "default", "position": queens.config.position.to_json()}],
        "shogun": [{"max_rounds": 3}, {"vp_threshold": 10, "own_peasant_step_cost": 1},
                   {"heroes": ["samurai", "ninja"], "custom_decks": False, "fixed_order": {
                       "first_player": 1, "treasure": [t.id for t in content.treasures],
                       "missions": [m.id for m in content.missions]}},
                   {"vp_threshold_4p": 24, "max_rounds": None}],
    }


REAL = real_options()
GAMES = ("carcassonne", "queens", "shogun")
players = st.one_of(st.integers(-2, 8), specials({
    "huge": lambda: HUGE, "2**64": lambda: 2**64, "true": lambda: True, "float": lambda: 2.0,
    "text": lambda: "2", "none": lambda: None, "list": lambda: [2]}))
seeds = st.one_of(st.integers(0, 2**64 - 1), st.integers(), specials({
    "huge": lambda: HUGE, "-1": lambda: -1, "2**64": lambda: 2**64, "true": lambda: True,
    "float": lambda: 7.0, "text": lambda: "7", "none": lambda: None, "list": lambda: [7]}))


def vandalize(value: Any, depth: int = 0) -> None:
    """Change every list and dict inside `value` in place."""
    if depth > 8:
        return
    if isinstance(value, list):
        for item in value:
            vandalize(item, depth + 1)
        value.append("junk")
    elif isinstance(value, dict):
        for item in list(value.values()):
            vandalize(item, depth + 1)
        value["junk"] = ["junk"]


def check_options(name: str, players_: Any, options: Any, seed: Any) -> None:
    try:
        game = bw.load(name, players_, options)
    except bw.BoardwrightError:
        return
    kept = json.dumps(game.options, sort_keys=True)
    vandalize(options)
    vandalize(game.options)
    assert json.dumps(game.options, sort_keys=True) == kept
    try:
        state = game.new_game(seed)
    except bw.InvalidOptionError:
        assert type(seed) is not int or not 0 <= seed < 2**64
        return
    assert seed is None or state.record.seed == seed
    rng = random.Random(0)
    for _ in range(3):
        if state.is_terminal:
            break
        state.apply(rng.choice(state.legal_actions()))
    vandalize(state.record.options)
    assert json.dumps(state.record.options, sort_keys=True) == kept
    assert bw.replay(bw.GameRecord.loads(state.record.dumps())) == state


@over_games("name", GAMES)
@FUZZ
@given(data=st.data(), players_=players, seed=seeds)
def test_mutated_real_options(name: str, data: st.DataObject, players_: Any, seed: Any) -> None:
    original = data.draw(st.sampled_from(REAL[name]))
    check_options(name, players_, data.draw(mutated(original)), seed)


@over_games("name", GAMES)
@FUZZ
@given(options=json_values | st.dictionaries(
    st.sampled_from(sorted({k for opts in REAL.values() for o in opts for k in o})), json_values,
    max_size=4), players_=players, seed=seeds)
def test_garbage_options(name: str, options: Any, players_: Any, seed: Any) -> None:
    check_options(name, players_, options, seed)


@pytest.mark.slow
@over_games("name", GAMES)
@SLOW
@given(data=st.data(), players_=players, seed=seeds)
def test_many_mutated_options(name: str, data: st.DataObject, players_: Any, seed: Any) -> None:
    original = data.draw(st.sampled_from(REAL[name]))
    check_options(name, players_, data.draw(mutated(original, max_changes=5)), seed)
