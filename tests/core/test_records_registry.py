"""The game-agnostic core: loading games, validating options, records, replay, action ids, returns.

Carcassonne is the only registered game, so it stands in for "a game" here; the tests only use
the core API (load, new_game, apply, record, replay, action ids) and never its rules.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from carcassonne_engines import per_engine_cache

import boardwright as bw
from boardwright.core.game import rank_returns
from boardwright.core.record import GameRecord

GAME = "carcassonne"
pytestmark = pytest.mark.usefixtures("carcassonne_engine")  # on each Carcassonne engine


def random_game(players: int = 3, seed: int = 11, steps: int | None = None,
                options: dict[str, Any] | None = None) -> bw.State:
    """A game played with random legal actions for `steps` actions (None: to the end)."""
    state = bw.load(GAME, players, options).new_game(seed)
    rng = random.Random(seed)
    done = 0
    while not state.is_terminal and (steps is None or done < steps):
        state.apply(rng.choice(state.legal_actions()))
        done += 1
    return state


def finished_record() -> GameRecord:
    return random_game(players=2, seed=5).record


# -- load: games, player counts, options -------------------------------------------------------

def test_carcassonne_is_available() -> None:
    assert GAME in bw.available_games()
    game = bw.load(GAME, 3)
    assert game.name == GAME and game.num_players == 3


@pytest.mark.parametrize("name", ["chess", "Carcassonne", "", "carcassonne "])
def test_unknown_game_is_named(name: str) -> None:
    with pytest.raises(bw.UnknownGameError) as info:
        bw.load(name, 2)
    assert repr(name) in str(info.value)


@pytest.mark.parametrize("name", [None, 5, ["carcassonne"]])
def test_game_name_that_is_no_string(name: Any) -> None:
    with pytest.raises(bw.UnknownGameError, match="must be a string"):
        bw.load(name, 2)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_supported_player_counts(players: int) -> None:
    game = bw.load(GAME, players)
    assert game.num_players == players
    assert len(game.new_game(1).scores) == players


@pytest.mark.parametrize("players", [0, 6, -1, 100, "2", True, False, 2.0, None])
def test_bad_player_count_is_named(players: Any) -> None:
    with pytest.raises(bw.InvalidOptionError) as info:
        bw.load(GAME, players)
    assert "players" in str(info.value)
    assert repr(players) in str(info.value) or str(players) in str(info.value)


BAD_OPTIONS: list[tuple[str, Any]] = [
    ("farmers", 1),
    ("farmers", "yes"),
    ("farmers", None),
    ("small_city_scoring", "classic"),
    ("small_city_scoring", 2),
    ("small_city_scoring", None),
    ("small_city_scoring", ["standard"]),
    ("starting_seat", "0"),
    ("starting_seat", 1.0),
    ("starting_seat", True),
    ("starting_seat", None),
    ("starting_seat", -1),
    ("starting_seat", 3),  # 3 players: seats 0..2
    ("start_tile", "Z"),
    ("start_tile", "d"),
    ("start_tile", 5),
    ("start_tile", None),
    ("start_tile", ["D"]),
    ("draw_order", "ABC"),
    ("draw_order", 5),
    ("draw_order", ["A", "Z"]),
    ("draw_order", ["A", 1]),
    ("draw_order", ["A", ["B"]]),
    ("draw_order", ["A"] * 501),
    ("expansions", ["inns_and_cathedrals"]),
    ("expansions", ["inns_cathedrals"]),
    ("expansions", "abbey_mayor"),
    ("expansions", [1]),
    ("expansions", None),
]


@pytest.mark.parametrize(("option", "value"), BAD_OPTIONS,
                         ids=[f"{o}={v!r}"[:40] for o, v in BAD_OPTIONS])
def test_bad_option_value_is_named(option: str, value: Any) -> None:
    """Every wrong type or value of every option raises InvalidOptionError naming the option."""
    with pytest.raises(bw.InvalidOptionError) as info:
        bw.load(GAME, 3, {option: value})
    assert repr(option) in str(info.value)


@pytest.mark.parametrize("key", ["farmer", "expansion", "seed", ""])
def test_unknown_option_is_named(key: str) -> None:
    with pytest.raises(bw.InvalidOptionError) as info:
        bw.load(GAME, 2, {key: True})
    assert repr(key) in str(info.value)


@pytest.mark.parametrize("options", [[("farmers", True)], "farmers", 3])
def test_options_must_be_a_mapping(options: Any) -> None:
    with pytest.raises(bw.InvalidOptionError, match="options"):
        bw.load(GAME, 2, options)


def test_valid_options_are_normalised() -> None:
    game = bw.load(GAME, 4, {"farmers": False, "small_city_scoring": "first_edition",
                             "starting_seat": 3, "start_tile": "C", "expansions": [],
                             "draw_order": ["A", "B"]})
    assert game.option_summary() == {
        "farmers": False, "small_city_scoring": "first_edition", "starting_seat": 3,
        "start_tile": "C", "expansions": [], "draw_order": ["A", "B"]}
    assert bw.load(GAME, 2, {"draw_order": None}).option_summary() == bw.load(GAME, 2).option_summary()


# -- Abbey & Mayor options ---------------------------------------------------------------------

AM = {"expansions": ["abbey_mayor"]}
# Each expansion option with a valid value other than its default.
AM_VALID: dict[str, Any] = {
    "abbey_mayor_tiles": False, "abbeys": 2, "mayors": 0, "wagons": 20, "barns": 3,
    "abbey_end_of_game": "voluntary_round", "wagon_adjacency": "connected",
    "wagon_traverse": False, "mayor_lies_flat": True,
}
AM_DEFAULTS: dict[str, Any] = {
    "abbey_mayor_tiles": True, "abbeys": 1, "mayors": 1, "wagons": 1, "barns": 1,
    "abbey_end_of_game": "mandatory_round", "wagon_adjacency": "nearby",
    "wagon_traverse": False, "mayor_lies_flat": False,
}
AM_COUNTS = ("abbeys", "mayors", "wagons", "barns")
AM_BAD_OPTIONS: list[tuple[str, Any]] = [
    *[(key, value) for key in AM_COUNTS for value in (-1, 21, "1", True, False, 1.0, None, [1])],
    *[(key, value) for key in ("abbey_mayor_tiles", "wagon_traverse", "mayor_lies_flat")
      for value in (1, 0, "yes", "true", None)],
    ("abbey_end_of_game", "mandatory"), ("abbey_end_of_game", "Mandatory_Round"),
    ("abbey_end_of_game", ""), ("abbey_end_of_game", None), ("abbey_end_of_game", 1),
    ("abbey_end_of_game", ["none"]), ("abbey_end_of_game", "voluntary"),
    ("wagon_adjacency", "adjacent"), ("wagon_adjacency", "Nearby"), ("wagon_adjacency", None),
    ("wagon_adjacency", ["connected"]), ("wagon_adjacency", 2),
]


@pytest.mark.parametrize("key", sorted(AM_VALID))
@pytest.mark.parametrize("expansions", [None, []], ids=["no-key", "empty"])
def test_am_option_without_the_expansion_is_rejected(key: str, expansions: Any) -> None:
    """Expansion options exist only with Abbey & Mayor: without it even a valid value (or the
    default) is an error that names the option."""
    for value in (AM_VALID[key], AM_DEFAULTS[key]):
        options = {key: value} if expansions is None else {key: value, "expansions": expansions}
        with pytest.raises(bw.InvalidOptionError) as info:
            bw.load(GAME, 3, options)
        assert repr(key) in str(info.value)
    bw.load(GAME, 3, {**AM, key: AM_VALID[key]})  # the same value is fine with the expansion


@pytest.mark.parametrize(("option", "value"), AM_BAD_OPTIONS,
                         ids=[f"{o}={v!r}"[:40] for o, v in AM_BAD_OPTIONS])
def test_am_bad_option_value_is_named(option: str, value: Any) -> None:
    with pytest.raises(bw.InvalidOptionError) as info:
        bw.load(GAME, 3, {**AM, option: value})
    assert repr(option) in str(info.value)


@pytest.mark.parametrize("key", AM_COUNTS)
@pytest.mark.parametrize("count", [0, 1, 20])
def test_am_piece_counts_from_0_to_20(key: str, count: int) -> None:
    """Counts are whole numbers from 0 to 20; each seat starts with that many (0: none)."""
    game = bw.load(GAME, 2, {**AM, key: count})
    assert game.option_summary()[key] == count
    piece = key[:-1]
    assert [supply.get(piece, 0) for supply in game.new_game(1).view(None)["supply"]] == [count] * 2


@pytest.mark.parametrize("adjacency", [None, "nearby"])
def test_am_wagon_traverse_needs_connected_adjacency(adjacency: str | None) -> None:
    options: dict[str, Any] = {**AM, "wagon_traverse": True}
    if adjacency is not None:
        options["wagon_adjacency"] = adjacency
    with pytest.raises(bw.InvalidOptionError) as info:
        bw.load(GAME, 3, options)
    assert "'wagon_traverse'" in str(info.value)
    game = bw.load(GAME, 3, {**options, "wagon_adjacency": "connected"})
    assert game.option_summary()["wagon_traverse"] is True


@pytest.mark.parametrize(("players", "options"), [
    (7, AM), (0, AM), (8, AM), (6, {}), (6, {"expansions": []}), (7, {}),
])
def test_player_count_with_and_without_the_expansion(players: int, options: dict) -> None:
    """1-5 players in the base game, 1-6 with Abbey & Mayor (its sixth colour)."""
    with pytest.raises(bw.InvalidOptionError) as info:
        bw.load(GAME, players, options)
    assert "players" in str(info.value) and str(players) in str(info.value)


@pytest.mark.parametrize("players", [1, 2, 6])
def test_am_player_counts_accepted(players: int) -> None:
    state = bw.load(GAME, players, AM).new_game(3)
    assert len(state.scores) == players and len(state.view(None)["supply"]) == players


def test_am_options_are_normalised() -> None:
    """Defaults are filled in, the alias and repeated names become one canonical name, and
    the base game's summary carries no expansion option."""
    assert bw.load(GAME, 2, AM).option_summary() == {
        "farmers": True, "small_city_scoring": "standard", "starting_seat": 0,
        "start_tile": "D", "expansions": ["abbey_mayor"], **AM_DEFAULTS}
    for names in (["abbey_and_mayor"], ["abbey_mayor", "abbey_and_mayor"]):
        summary = bw.load(GAME, 2, {"expansions": names, **AM_VALID}).option_summary()
        assert summary["expansions"] == ["abbey_mayor"]
        assert {key: summary[key] for key in AM_VALID} == AM_VALID
    assert not set(AM_DEFAULTS) & set(bw.load(GAME, 2).option_summary())


@pytest.mark.parametrize(("options", "valid"), [
    ({"start_tile": "AM05"}, False), ({**AM, "start_tile": "AM05"}, True),
    ({**AM, "abbey_mayor_tiles": False, "start_tile": "AM05"}, False),
    ({**AM, "start_tile": "ABBEY"}, False), ({"draw_order": ["A", "AM12"]}, False),
    ({**AM, "draw_order": ["A", "AM12"]}, True), ({**AM, "draw_order": ["ABBEY"]}, False),
    ({**AM, "abbey_mayor_tiles": False, "draw_order": ["AM01"]}, False),
])
def test_am_tiles_only_with_the_expansion_tiles(options: dict, valid: bool) -> None:
    """The 12 new landscape tiles may start or be drawn only when they are in the game; the
    abbey is never a landscape tile."""
    key = "start_tile" if "start_tile" in options else "draw_order"
    if valid:
        assert bw.load(GAME, 2, options).option_summary()[key] == options[key]
    else:
        with pytest.raises(bw.InvalidOptionError) as info:
            bw.load(GAME, 2, options)
        assert repr(key) in str(info.value)


def test_am_record_round_trip_and_replay() -> None:
    """An A&M record carries every expansion option and replays to the same final state."""
    options = {**AM, "abbeys": 2, "wagon_adjacency": "connected", "wagon_traverse": True,
               "abbey_end_of_game": "voluntary_round"}
    state = random_game(players=6, seed=12, options=options)
    record = GameRecord.loads(state.record.dumps())
    assert record.options == state.game.option_summary() and record.options["abbeys"] == 2
    assert bw.replay(record).signature() == state.signature()


@pytest.mark.parametrize(("change", "named"), [
    ({"expansions": []}, "needs the 'abbey_mayor' expansion"), ({"abbeys": 21}, "'abbeys'"),
    ({"wagon_adjacency": "nearby", "wagon_traverse": True}, "'wagon_traverse'"),
])
def test_am_record_with_bad_expansion_options(change: dict, named: str) -> None:
    data = random_game(players=2, seed=4, steps=12, options=AM).record.to_json()
    data["options"].update(change)
    with pytest.raises(bw.CorruptRecordError) as info:
        _replay_data(data)
    assert named in str(info.value)


def test_engine_imports_only_the_standard_library() -> None:
    """The engine stays usable without the CLI's dependencies: a fresh interpreter that imports
    the game (and loads it through the registry) pulls in nothing but the standard library."""
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import boardwright.games.carcassonne\n"
        "import boardwright as bw\n"
        "bw.load('carcassonne', 2).new_game(1)\n"
        "new = sorted(set(sys.modules) - before)\n"
        "print('\\n'.join(new))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    modules = result.stdout.split()
    assert "boardwright.games.carcassonne" in modules
    assert not [m for m in modules if m.split(".")[0] in ("rich", "typer")]
    outside = [m for m in modules if m.split(".")[0] not in sys.stdlib_module_names
               and m.split(".")[0] != "boardwright"]
    assert outside == []


def test_loading_one_game_by_name_needs_no_explicit_import() -> None:
    code = ("import boardwright as bw, sys\n"
            "assert 'boardwright.games.carcassonne' not in sys.modules\n"
            "print(bw.load('carcassonne', 2).name)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "carcassonne"


# -- records: round trips --------------------------------------------------------------------

def test_record_describes_the_game() -> None:
    state = random_game(players=3, seed=21, steps=10, options={"farmers": False})
    record = state.record
    assert (record.game, record.version, record.seed, record.players) == (GAME, "1", 21, 3)
    assert record.options == state.game.option_summary()
    assert record.options["farmers"] is False
    assert len(record.actions) == 10
    assert all(isinstance(a, dict) and "type" in a for a in record.actions)


def test_record_json_round_trip() -> None:
    record = finished_record()
    data = record.to_json()
    assert json.loads(json.dumps(data)) == data  # plain JSON
    assert GameRecord.from_json(data) == record
    assert GameRecord.loads(record.dumps()) == record
    assert GameRecord.loads(record.dumps(indent=2)) == record


def test_record_file_round_trip(tmp_path: Path) -> None:
    record = finished_record()
    record.meta["names"] = ["Ann", "Bob"]
    path = tmp_path / "game.json"
    record.save(path)
    loaded = GameRecord.load(path)
    assert loaded == record
    assert loaded.meta == {"names": ["Ann", "Bob"]}
    assert GameRecord.load(str(path)) == record


def test_record_without_meta_is_accepted() -> None:
    data = finished_record().to_json()
    del data["meta"]
    assert GameRecord.from_json(data).meta == {}


# -- records: corrupt input ------------------------------------------------------------------

@pytest.mark.parametrize("text", ["", "{", "not json", "[1, 2", "{'game': 'carcassonne'}"])
def test_record_that_is_not_json(text: str) -> None:
    with pytest.raises(bw.CorruptRecordError, match="not valid JSON"):
        GameRecord.loads(text)


@pytest.mark.parametrize("text", ["[]", "1", "null", '"record"'])
def test_record_that_is_not_an_object(text: str) -> None:
    with pytest.raises(bw.CorruptRecordError, match="JSON object"):
        GameRecord.loads(text)


@pytest.mark.parametrize("field", ["game", "version", "options", "seed", "players", "actions"])
def test_record_missing_field(field: str) -> None:
    data = finished_record().to_json()
    del data[field]
    with pytest.raises(bw.CorruptRecordError) as info:
        GameRecord.from_json(data)
    assert repr(field) in str(info.value) and "missing" in str(info.value)


WRONG_TYPES: list[tuple[str, Any]] = [
    ("game", 5), ("game", None), ("version", 1), ("options", []), ("options", "farmers"),
    ("seed", "5"), ("seed", 5.0), ("seed", True), ("players", "2"), ("players", False),
    ("actions", {}), ("actions", "pass"), ("meta", []), ("meta", "x"),
]


@pytest.mark.parametrize(("field", "value"), WRONG_TYPES, ids=[f"{f}={v!r}" for f, v in WRONG_TYPES])
def test_record_field_of_wrong_type(field: str, value: Any) -> None:
    data = finished_record().to_json()
    data[field] = value
    with pytest.raises(bw.CorruptRecordError) as info:
        GameRecord.from_json(data)
    assert repr(field) in str(info.value)


@pytest.mark.parametrize("action", [1, "pass", ["place", 0, 1, 0], None])
def test_record_action_that_is_not_an_object(action: Any) -> None:
    data = finished_record().to_json()
    data["actions"][3] = action
    with pytest.raises(bw.CorruptRecordError, match="action #3 is not an object"):
        GameRecord.from_json(data)


def test_missing_record_file(tmp_path: Path) -> None:
    with pytest.raises(bw.CorruptRecordError, match="cannot read record"):
        GameRecord.load(tmp_path / "nothing.json")


def _replay_data(data: dict[str, Any]) -> bw.State:
    return bw.replay(GameRecord.from_json(data))


def test_record_of_unknown_game() -> None:
    data = finished_record().to_json()
    data["game"] = "chess"
    with pytest.raises(bw.CorruptRecordError, match="'chess'"):
        _replay_data(data)


def test_record_of_other_version() -> None:
    data = finished_record().to_json()
    data["version"] = "99"
    with pytest.raises(bw.CorruptRecordError, match="version 99"):
        _replay_data(data)


@pytest.mark.parametrize(("field", "value", "named"), [
    ("options", {"farmers": "no"}, "'farmers'"),
    ("options", {"colour": "red"}, "'colour'"),
    ("players", 9, "players"),
])
def test_record_with_bad_configuration(field: str, value: Any, named: str) -> None:
    data = finished_record().to_json()
    data[field] = value
    with pytest.raises(bw.CorruptRecordError) as info:
        _replay_data(data)
    assert named in str(info.value)


def test_record_with_an_illegal_action() -> None:
    """Action #4 is a placement; a pass at that point is illegal and must be reported as such."""
    data = finished_record().to_json()
    assert data["actions"][4]["type"] == "place"
    data["actions"][4] = {"type": "pass"}
    with pytest.raises(bw.CorruptRecordError, match="action #4 does not replay"):
        _replay_data(data)


def test_record_with_a_placement_on_a_taken_position() -> None:
    data = finished_record().to_json()
    data["actions"][6] = {"type": "place", "x": 0, "y": 0, "rotation": 0}
    with pytest.raises(bw.CorruptRecordError, match="action #6 does not replay"):
        _replay_data(data)


@pytest.mark.parametrize("action", [{"type": "jump"}, {"type": "place", "x": 0},
                                    {"type": "pass", "x": 1}, {}])
def test_record_with_a_malformed_action(action: dict[str, Any]) -> None:
    data = finished_record().to_json()
    data["actions"][2] = action
    with pytest.raises(bw.CorruptRecordError, match="action #2 does not replay"):
        _replay_data(data)


def test_record_with_an_action_after_the_end() -> None:
    data = finished_record().to_json()
    count = len(data["actions"])
    data["actions"].append({"type": "pass"})
    with pytest.raises(bw.CorruptRecordError, match=f"action #{count} does not replay"):
        _replay_data(data)


# -- replay ----------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 2, 5])
def test_replay_rebuilds_the_final_state(players: int) -> None:
    state = random_game(players=players, seed=40 + players)
    assert state.is_terminal
    again = bw.replay(state.record)
    assert again.signature() == state.signature()
    assert again.scores == state.scores and again.is_terminal
    assert bw.replay(state.record.to_json()).signature() == state.signature()


def test_replay_of_an_unfinished_game() -> None:
    state = random_game(players=3, seed=8, steps=37)
    again = bw.replay(state.record)
    assert again == state
    rng = random.Random(1)
    action = rng.choice(state.legal_actions())
    state.apply(action)
    again.apply(action)
    assert again == state  # and both play on identically


def test_replay_with_steps_matches_every_prefix() -> None:
    state = bw.load(GAME, 3, {"starting_seat": 1}).new_game(99)
    rng = random.Random(99)
    signatures = [state.signature()]
    while not state.is_terminal:
        state.apply(rng.choice(state.legal_actions()))
        signatures.append(state.signature())
    record = state.record
    assert len(record.actions) == len(signatures) - 1
    for k in [0, 1, 2, 3, 10, 51, len(signatures) // 2, len(signatures) - 2, len(signatures) - 1]:
        assert bw.replay(record, steps=k).signature() == signatures[k], f"steps={k}"


def test_replay_restores_meta() -> None:
    state = random_game(players=2, seed=3, steps=5)
    state.meta["names"] = ["Ann", "Bob"]
    assert bw.replay(state.record).meta == {"names": ["Ann", "Bob"]}


def test_replay_is_deterministic_with_draw_order() -> None:
    state = random_game(players=2, seed=1, options={"draw_order": ["E", "U", "K", "B", "V"]})
    assert state.is_terminal
    assert bw.replay(state.record).signature() == state.signature()


# -- actions: JSON and ids -------------------------------------------------------------------

@per_engine_cache()
def _seen_actions() -> tuple[bw.Game, list[Any]]:
    """Every legal action offered during a few random games of one configured game."""
    game = bw.load(GAME, 2)
    seen: dict[Any, None] = {}
    for seed in range(6):
        state = game.new_game(seed)
        rng = random.Random(seed)
        while not state.is_terminal:
            actions = state.legal_actions()
            seen.update(dict.fromkeys(actions))
            state.apply(rng.choice(actions))
    return game, list(seen)


@pytest.fixture
def seen_actions() -> tuple[bw.Game, list[Any]]:
    return _seen_actions()


def test_action_json_round_trip(seen_actions: tuple[bw.Game, list[Any]]) -> None:
    game, actions = seen_actions
    kinds = {a.to_json()["type"] for a in actions}
    assert kinds == {"place", "deploy", "pass"}
    for action in actions:
        data = action.to_json()
        assert game.action_from_json(data) == action
        assert game.action_from_json(json.loads(json.dumps(data))) == action


def test_action_id_round_trip(seen_actions: tuple[bw.Game, list[Any]]) -> None:
    game, actions = seen_actions
    ids: dict[int, Any] = {}
    for action in actions:
        action_id = game.action_id(action)
        assert isinstance(action_id, int) and 0 <= action_id < game.num_distinct_actions
        assert game.action_from_id(action_id) == action
        assert ids.setdefault(action_id, action) == action, "two actions share an id"
    assert len(ids) == len(actions) > 1000


def test_every_sampled_id_round_trips() -> None:
    game = bw.load(GAME, 4)
    rng = random.Random(0)
    size = game.num_distinct_actions
    for action_id in [0, 1, size - 2, size - 1] + [rng.randrange(size) for _ in range(3000)]:
        action = game.action_from_id(action_id)
        assert game.action_id(action) == action_id
        assert game.action_from_json(action.to_json()) == action


def test_action_ids_are_the_same_for_every_game_object() -> None:
    """Ids are stable: a fresh load with other options numbers actions identically."""
    a, b = bw.load(GAME, 2), bw.load(GAME, 5, {"farmers": False, "starting_seat": 4})
    assert a.num_distinct_actions == b.num_distinct_actions
    state = a.new_game(4)
    rng = random.Random(4)
    while not state.is_terminal:
        for action in state.legal_actions():
            assert a.action_id(action) == b.action_id(action)
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("bad", [-1, "bad-size", "7", None, 1.5])
def test_action_id_outside_the_space(bad: Any) -> None:
    game = bw.load(GAME, 2)
    if bad == "bad-size":
        bad = game.num_distinct_actions
    with pytest.raises(bw.MalformedActionError):
        game.action_from_id(bad)


# -- returns ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_returns_zero_until_the_end_then_rank_based(players: int) -> None:
    state = bw.load(GAME, players).new_game(players)
    rng = random.Random(players)
    while not state.is_terminal:
        assert state.returns() == [0.0] * players
        state.apply(rng.choice(state.legal_actions()))
    returns = state.returns()
    assert returns == rank_returns(state.scores)
    assert sum(returns) == pytest.approx(0.0 if players > 1 else 1.0)
    best = max(state.scores)
    for score, value in zip(state.scores, returns):
        assert -1.0 <= value <= 1.0
        if players > 1 and score == best and state.scores.count(best) == 1:
            assert value == 1.0


@pytest.mark.parametrize(("scores", "expected"), [
    ([0], [1.0]),
    ([37], [1.0]),
    ([10, 5], [1.0, -1.0]),
    ([5, 10], [-1.0, 1.0]),
    ([7, 7], [0.0, 0.0]),
    ([10, 5, 0], [1.0, 0.0, -1.0]),
    ([5, 5, 0], [0.5, 0.5, -1.0]),
    ([0, 5, 5], [-1.0, 0.5, 0.5]),
    ([10, 0, 0], [1.0, -0.5, -0.5]),
    ([3, 3, 3], [0.0, 0.0, 0.0]),
    ([9, 9, 3, 1], [2 / 3, 2 / 3, -1 / 3, -1.0]),
    ([4, 4, 4, 0], [1 / 3, 1 / 3, 1 / 3, -1.0]),
    ([1, 8, 8, 8], [-1.0, 1 / 3, 1 / 3, 1 / 3]),
    ([20, 10, 10, 0], [1.0, 0.0, 0.0, -1.0]),
    ([2, 2, 2, 2], [0.0, 0.0, 0.0, 0.0]),
    ([40, 30, 20, 10], [1.0, 1 / 3, -1 / 3, -1.0]),
])
def test_rank_returns(scores: list[int], expected: list[float]) -> None:
    values = rank_returns(scores)
    assert values == pytest.approx(expected)
    if len(scores) > 1:
        assert sum(values) == pytest.approx(0.0)


def test_bots_only_options_are_the_games_own() -> None:
    # Rise of the Shogun has no round limit: games between bots get one, unless set.
    assert bw.bots_only_options("shogun", {}) == ({"max_rounds": 30}, {"max_rounds": 30})
    assert bw.bots_only_options("shogun", {"max_rounds": 4}) == ({"max_rounds": 4}, {})
    # games that always end add nothing
    assert bw.bots_only_options("queens", {"map": "default"}) == ({"map": "default"}, {})
    assert bw.bots_only_options("carcassonne") == ({}, {})
    with pytest.raises(bw.UnknownGameError):
        bw.bots_only_options("chess", {})
