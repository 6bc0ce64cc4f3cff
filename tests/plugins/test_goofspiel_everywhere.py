"""What a game of one's own gets for free: the example game of examples/goofspiel, found through
its entry point and named nowhere in boardwright, is played by every agent, simulated by the
command line and the strength benchmark, stepped through by the Gymnasium, PettingZoo and
OpenSpiel adapters (which pass their API checkers); the web table plays it in
tests/web/test_web_plugins.py."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from types import ModuleType

import pytest
from cli_helpers import assert_clean_exit, run_cli
from play_helpers import play_out
from script_helpers import load_script

import boardwright as bw
from boardwright.agents import make_agent

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = {"cards": 5}


def play(specs: list[str], seed: int = 1, options: dict | None = None) -> bw.State:
    game = bw.load("goofspiel", len(specs), OPTIONS if options is None else options)
    return play_out(game, specs, seed)


@pytest.mark.parametrize("specs", [
    ["random", "greedy"], ["mcts:iters=40", "matcher"], ["mcts-v1", "easy", "greedy:depth=1"],
    ["mcts:iters=20,workers=2", "matcher:offset=1"], ["mcts-v2", "greedy"],
])
def test_every_agent_plays_it(specs: list[str]) -> None:
    # (the named baselines search a quarter second a decision: short games)
    short = {"cards": 4} if "mcts-v1" in specs else {"cards": 3} if "mcts-v2" in specs else None
    state = play(specs, options=short)
    assert state.is_terminal and len(state.record.actions) == len(specs) * state.game.cards


def test_the_rule_of_thumb_beats_random() -> None:
    """8 games, 4 from each seat (simulate measured 95% for the matcher over 60 games at 6
    cards); a tie counts half."""
    won = 0.0
    for seed in range(8):
        mine = seed % 2
        specs = ["matcher", "random"] if mine == 0 else ["random", "matcher"]
        scores = play(specs, seed=seed, options={"cards": 6}).scores
        won += 1.0 if scores[mine] > scores[1 - mine] else 0.5 if scores[0] == scores[1] else 0
    assert won >= 6


def test_the_example_agent_plays_it_and_registers_by_importing(tmp_path: Path) -> None:
    from boardwright.agents.registry import import_agents

    import_agents(str(ROOT / "examples" / "lookahead_agent.py"))
    state = play(["lookahead:samples=2", "matcher"])
    assert state.is_terminal
    with pytest.raises(bw.InvalidOptionError,
                       match=r"has no parameter 'depth' \(accepted: samples\)"):
        make_agent("lookahead:depth=2")
    with pytest.raises(bw.InvalidOptionError, match="samples must be at least 1"):
        make_agent("lookahead:samples=0")
    with pytest.raises(bw.PluginError, match="no such Python file"):
        import_agents(str(tmp_path / "nothing.py"))


def test_simulate_runs_it_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    result = run_cli("simulate", "goofspiel", "-a", "matcher,greedy", "-n", "6", "-w", "2",
                     "--seed", "3", "-o", "cards=5", "--out", str(out),
                     "--import", str(ROOT / "examples" / "lookahead_agent.py"))
    assert_clean_exit(result, 0)
    assert "Simulating 6 games of goofspiel (2 players)" in result.output
    data = json.loads(out.read_text())
    assert [row["agent"] for row in data["summary"]["agents"]] == ["matcher", "greedy"]
    assert len(data["games"]) == 6 and all(g["decisions"] == 10 for g in data["games"])
    bad = run_cli("simulate", "goofspiel", "-a", "matcher:depth=1,greedy", "-n", "1")
    assert_clean_exit(bad, 2)
    assert "agent 'matcher' has no parameter 'depth'" in bad.output


def test_the_terminal_game_shows_its_public_view(tmp_path: Path) -> None:
    """The generic renderer: the position as the spectator's view, one field a line (here the
    final one, the bots having played: every bid shown in the rounds)."""
    saved = tmp_path / "game.json"
    result = run_cli("play", "goofspiel", "--players", "matcher,random", "--seed", "2",
                     "-o", "cards=3", "--save", str(saved), columns=300)
    assert_clean_exit(result, 0)
    lines = [" ".join(line.split()) for line in result.output.splitlines()]
    state = bw.replay(json.loads(saved.read_text()))
    rounds = json.dumps(state.view(None)["rounds"], separators=(",", ":"))
    assert f"rounds {rounds}" in lines and "hand —" in lines and "prizes face down (none)" in lines
    assert "Red (matcher): bid a card (face down)" in lines  # a spectator's log
    assert "Winner(s):" in result.output


def load_match_script() -> ModuleType:
    return load_script(ROOT / "benchmarks" / "match.py", "match_benchmark")


def test_the_strength_benchmark_runs_plugin_and_registered_agents(tmp_path: Path, capsys) -> None:
    script = load_match_script()
    common = ["--game", "goofspiel", "--options", json.dumps(OPTIONS), "--workers", "2",
              "--deals", "30"]
    script.main(["matcher", "random", "--bar", "0.7", "--low", "0.4",
                 "--results", str(tmp_path / "a.jsonl"), *common])
    out = capsys.readouterr().out
    assert re.search(r"matcher vs random: PASS after \d+ deals", out), out
    script.main(["lookahead:samples=2", "first", "--bar", "0.7", "--low", "0.4",
                 "--import", str(ROOT / "examples" / "lookahead_agent.py"),
                 "--import", "plugin_agents_registering", "--results", str(tmp_path / "b.jsonl"),
                 *common])
    out = capsys.readouterr().out
    assert re.search(r"lookahead:samples=2 vs first: \w+ after \d+ deals", out), out
    with pytest.raises(SystemExit):
        script.main(["nobody", "random", "--game", "goofspiel"])


# -- reinforcement learning ------------------------------------------------------------------------

def test_gymnasium_steps_through_it_and_passes_the_checker() -> None:
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from boardwright.rl.gymnasium import env_id_of

    assert env_id_of("goofspiel") == "boardwright/Goofspiel-v0"
    env = gymnasium.make("boardwright/Goofspiel-v0", opponent="matcher", options=OPTIONS)
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=4)
    assert obs["observation"].shape == (2 + 512,) and obs["action_mask"].tolist() == [1] * 5
    terminated, steps, reward = False, 0, 0.0
    while not terminated:
        action = random.Random(steps).choice(info["legal_action_ids"])
        obs, reward, terminated, truncated, info = env.step(action)
        steps += 1
    assert steps == 5 and reward in (-1.0, 0.0, 1.0)


def test_gymnasium_takes_game_options_as_keywords_too() -> None:
    gymnasium = pytest.importorskip("gymnasium")

    env = gymnasium.make("boardwright/Goofspiel-v0", opponent="matcher", cards=4)
    assert env.unwrapped.game.options == {"cards": 4}
    assert gymnasium.make("boardwright/Goofspiel-v0", options={"cards": 4}).unwrapped.game.options \
        == {"cards": 4}
    with pytest.raises(bw.InvalidOptionError, match=r"unknown keyword 'card' for boardwright/"
                       r"Goofspiel-v0: neither an environment keyword \(opponent, .*\) nor a "
                       r"goofspiel option \(cards\)"):
        gymnasium.make("boardwright/Goofspiel-v0", card=4)
    with pytest.raises(bw.InvalidOptionError, match="'cards' is given twice"):
        gymnasium.make("boardwright/Goofspiel-v0", cards=4, options={"cards": 5})
    with pytest.raises(bw.InvalidOptionError, match="'cards' must be a whole number from 3"):
        gymnasium.make("boardwright/Goofspiel-v0", cards=2)


def test_pettingzoo_steps_through_it_and_passes_the_api_test() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from boardwright.rl.pettingzoo import env

    api_test(env("goofspiel", players=3, **OPTIONS), num_cycles=60)
    aec = env("goofspiel", **OPTIONS)
    aec.reset(seed=1)
    finals = {}
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, info = aec.last()
        if terminated or truncated:
            finals[agent] = reward
            aec.step(None)
        else:
            aec.step(int(info["legal_action_ids"][0]))
    assert sorted(finals.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_openspiel_loads_it_and_random_simulates_it() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import boardwright.rl.openspiel  # noqa: F401

    game = pyspiel.load_game("python_boardwright_goofspiel",
                             {"players": 3, "seed": 2, "options": json.dumps(OPTIONS)})
    assert game.num_distinct_actions() == 5 and game.num_players() == 3
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.get_type().max_num_players == 4
    # deterministic for its seed parameter (the prizes are dealt before the first bid), so it
    # serializes as every game does: no C++ RNG state is asked of it
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    _, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert again.history() == state.history() and str(again) == str(state)


def test_openspiel_gets_explicit_chance_from_a_game_that_draws() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from example_games import registered_example

    import boardwright.rl.openspiel as adapter

    with registered_example("liars_dice", "LiarsDiceGame"):
        adapter.register()
        game = pyspiel.load_game("python_boardwright_liars_dice",
                                 {"players": 2, "options": json.dumps({"dice": 2, "faces": 4})})
        assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert game.max_chance_outcomes() == 4
        state = game.new_initial_state()
        assert state.is_chance_node() and state.chance_outcomes() == [(o, 0.25) for o in range(4)]
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, 3) == "rolled a 4"
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_generic_encoder_sees_only_the_seats_view() -> None:
    np = pytest.importorskip("numpy")
    from boardwright.rl.observations import encoder_for
    from boardwright.rl.observations.generic import GenericEncoder

    game = bw.load("goofspiel", 2, OPTIONS)
    encoder = encoder_for(game)
    assert isinstance(encoder, GenericEncoder) and encoder.size == 2 + 512
    state = game.new_game(1)
    state.apply({"type": "bid", "card": 5})
    other = game.new_game(1)
    other.apply({"type": "bid", "card": 1})
    # seat 1 cannot tell the two bids apart; seat 0 can
    assert np.array_equal(encoder.encode(state.view(1), 1), encoder.encode(other.view(1), 1))
    assert not np.array_equal(encoder.encode(state.view(0), 0), encoder.encode(other.view(0), 0))
    assert encoder.encode(state.view(0), 0)[:2].tolist() == [1.0, 0.0]


def test_a_game_may_give_its_own_encoder_through_the_hook() -> None:
    pytest.importorskip("numpy")
    from boardwright.rl.observations import Encoder, encoder_for

    game = bw.load("goofspiel", 2, OPTIONS)
    mine = Encoder(game)
    game.observation_encoder = lambda: mine
    assert encoder_for(game) is mine
