"""Games of other packages, found through `boardwright.games` entry points: listed without being
imported, loaded on first use, and a broken one named in a clear error that leaves the built-in
games (and the other plugins) working."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import assert_clean_exit, run_cli
from example_plugins import write_dist_info

import boardwright as bw
from boardwright.core import plugins

BAD_MODULE = '''
from boardwright_goofspiel import GoofspielGame

class Misnamed(GoofspielGame):
    name = "something_else"

NOT_A_GAME = 42

def crash_factory(players, options):
    raise RuntimeError("the plugin's own bug")
'''

BAD_POINTS = """[project]
name = "bad-plugins"
version = "0.1"

[project.entry-points."boardwright.games"]
missing = "no_such_module_anywhere:Game"
raising = "bad_plugin_with_error:Game"
misnamed = "bad_plugin:Misnamed"
constant = "bad_plugin:NOT_A_GAME"
silent = "bad_plugin"
carcassonne = "bad_plugin:Misnamed"

[project.entry-points."boardwright.agents"]
gone = "no_such_module_anywhere:Agent"
greedy = "bad_plugin:NOT_A_GAME"
"""


@pytest.fixture
def bad_plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An installed distribution whose game entry points are all broken in their own way."""
    package = tmp_path / "bad"
    package.mkdir()
    (package / "pyproject.toml").write_text(BAD_POINTS)
    (package / "bad_plugin.py").write_text(BAD_MODULE)
    (package / "bad_plugin_with_error.py").write_text("raise ImportError('needs libfoo')\n")
    write_dist_info(package, tmp_path / "site")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.syspath_prepend(str(package))
    return package


def test_the_example_game_is_found_through_its_entry_point() -> None:
    point = plugins.entry_points(plugins.GAMES_GROUP)["goofspiel"]
    assert point.value == "boardwright_goofspiel:GoofspielGame"
    assert "goofspiel" in bw.available_games()
    game = bw.load("goofspiel", 3, {"cards": 4})
    assert type(game).__module__ == "boardwright_goofspiel.game" and game.num_players == 3


def test_listing_games_does_not_import_a_plugin() -> None:
    """A fresh interpreter with the tests' sys.path: names listed, the plugin imported only by
    the first load."""
    code = ("import sys, boardwright as bw; names = bw.available_games(); "
            "before = 'boardwright_goofspiel' in sys.modules; bw.load('goofspiel', 2); "
            "print(names, before, 'boardwright_goofspiel' in sys.modules)")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['carcassonne', 'goofspiel', 'queens', 'shogun'] False True"


@pytest.mark.parametrize("name, message", [
    ("missing", r"entry point 'missing = no_such_module_anywhere:Game' \(boardwright.games, "
                r"distribution bad-plugins 0.1\) cannot be loaded: ModuleNotFoundError"),
    ("raising", "entry point 'raising = bad_plugin_with_error:Game' .* cannot be loaded: "
                "ImportError: needs libfoo"),
    ("misnamed", "names the game class Misnamed, whose name is 'something_else': records name "
                 "a game by Game.name, so it must be 'misnamed'"),
    ("constant", "names 42, which is neither a Game class nor a factory"),
    ("silent", "names a module that registers no game 'silent'"),
])
def test_a_broken_plugin_is_named_and_breaks_nothing_else(bad_plugins: Path, name: str,
                                                          message: str) -> None:
    assert name in bw.available_games()  # listed: it is installed
    with pytest.raises(bw.PluginError, match=message):
        bw.load(name, 2)
    with pytest.raises(bw.PluginError, match=message):  # and again: nothing half-registered
        bw.load(name, 2)
    assert bw.load("queens", 2).name == "queens"
    assert bw.load("goofspiel", 2).name == "goofspiel"
    record = bw.load("goofspiel", 2).new_game(1).record.to_json()
    record["game"] = name
    with pytest.raises(bw.CorruptRecordError, match=f"record cannot be loaded: .*{name}"):
        bw.replay(record)


def test_a_plugin_cannot_take_a_built_in_name(bad_plugins: Path) -> None:
    assert bw.available_games().count("carcassonne") == 1
    assert type(bw.load("carcassonne", 2)).__name__ == "CarcassonneGame"


def test_the_games_command_says_which_plugin_does_not_load(bad_plugins: Path) -> None:
    result = run_cli("games", columns=400)
    assert_clean_exit(result, 0)
    assert "goofspiel" in result.output and "Goofspiel: bid cards 1..N" in result.output
    line = next(line for line in result.output.splitlines() if line.strip().startswith("missing"))
    assert "(cannot be loaded) entry point 'missing = no_such_module_anywhere:Game'" in line


def test_a_records_game_is_loaded_from_its_plugin_on_replay() -> None:
    state = bw.load("goofspiel", 2, {"cards": 5}).new_game(4)
    while not state.is_terminal:
        state.apply(state.legal_actions()[0])
    again = bw.replay(json.loads(json.dumps(state.record.to_json())))
    assert again.scores == state.scores and again.view(None) == state.view(None)


def test_a_broken_agent_plugin_is_named_and_breaks_nothing_else(bad_plugins: Path) -> None:
    from boardwright.agents import make_agent

    assert "gone" in bw.available_agents() and bw.available_agents().count("greedy") == 1
    with pytest.raises(bw.PluginError, match="entry point 'gone = no_such_module_anywhere:Agent' "
                       r"\(boardwright.agents, distribution bad-plugins 0.1\) cannot be loaded"):
        make_agent("gone")
    assert type(make_agent("greedy")).__name__ == "GreedyAgent"  # a built-in name stays built in
    assert type(make_agent("matcher")).__name__ == "MatchPrizeAgent"
    result = run_cli("agents", columns=400)
    assert_clean_exit(result, 0)
    line = next(line for line in result.output.splitlines() if line.strip().startswith("gone"))
    assert "(cannot be loaded) entry point 'gone = no_such_module_anywhere:Agent'" in line
    assert "entry point 'matcher = boardwright_goofspiel.agents:MatchPrizeAgent'" in result.output


def test_openspiel_registers_the_plugins_that_load_and_warns_of_the_others(
        bad_plugins: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import boardwright.rl.openspiel as adapter

    with pytest.warns(UserWarning, match="missing is not registered with OpenSpiel: entry point"):
        adapter.register()
    names = set(pyspiel.registered_names())
    assert {"python_boardwright_goofspiel", "python_boardwright_queens"} <= names
    assert "python_boardwright_missing" not in names
