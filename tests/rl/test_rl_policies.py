"""Policy files as agents (`policy:path=FILE`, boardwright.rl.policies): they load, play legal
moves to the end of Queens and Carcassonne games, repeat a game exactly from the same seed,
see what the training environments show, and refuse any bad file or a game they were not
trained for with a PolicyFileError naming the problem."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from hypothesis import given, settings
from hypothesis import strategies as st
from policy_helpers import CARCASSONNE_WEIGHTS, carcassonne_policy, queens_policy
from typer.testing import CliRunner

import boardwright as bw
from boardwright.agents import available_agents, make_agent, register_agent
from boardwright.agents.registry import lookup
from boardwright.cli import app
from boardwright.rl.policies import PolicyFileError, carcassonne_linear, load_policy, save_policy
from boardwright.rl.policies.agent import PolicyAgent


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("policies")
    return {"carcassonne": carcassonne_policy(folder / "carcassonne.npz"),
            "queens": queens_policy(folder / "queens.npz")}


def play(game, agents, seed: int) -> tuple[object, list]:
    """A whole game; every action a policy agent chooses is checked against the legal ones."""
    state = game.new_game(seed)
    actions = []
    while not state.is_terminal:
        agent = agents[state.current_player]
        action = agent.act(state)
        if isinstance(agent, PolicyAgent):
            legal = {json.dumps(a.to_json(), sort_keys=True) for a in state.legal_actions()}
            assert json.dumps(action.to_json(), sort_keys=True) in legal
        state.apply(action)
        actions.append(action.to_json())
    return state, actions


def test_a_carcassonne_policy_plays_legal_moves_to_the_end(files, carcassonne_engine) -> None:
    game = bw.load("carcassonne", 2)
    for seed in range(2):
        policy = make_agent(f"policy:path={files['carcassonne']}", seed=seed)
        seats = [policy, make_agent("random", seed=seed)]
        state, _ = play(game, seats[::-1] if seed else seats, seed)
        assert state.is_terminal


def test_the_queens_example_file_plays_queens(files) -> None:
    """The first format of examples/learn_queens.py's policy.npz (no "format" in its meta)."""
    policy = load_policy(files["queens"])
    assert (policy.game, policy.players, policy.architecture) == ("queens", 2, "queens-linear")
    assert policy.training == {"training_games": 48, "training_seconds": 1.5}
    game = bw.load("queens", 2)
    state, _ = play(game, [make_agent(f"policy:path={files['queens']}", seed=1),
                           make_agent("random", seed=2)], 3)
    assert state.is_terminal


@pytest.mark.parametrize("spec", ["policy:path={}", "policy:path={},sample=on,temperature=0.7"])
def test_the_same_seed_plays_the_same_game(files, spec) -> None:
    game = bw.load("carcassonne", 2)
    runs = [play(game, [make_agent(spec.format(files["carcassonne"]), seed=5),
                        make_agent("random", seed=6)], 11)[1] for _ in range(2)]
    assert runs[0] == runs[1]


def test_sampling_follows_the_softmax_and_argmax_takes_the_best(files) -> None:
    """In one position, argmax plays the top logit whatever the seed; sampling at a high
    temperature plays more than one action over seeds."""
    game = bw.load("carcassonne", 2)
    state = game.new_game(2)
    agent = make_agent(f"policy:path={files['carcassonne']}", seed=0)
    from boardwright.rl.action_spaces import action_space_for
    from boardwright.rl.policies.agent import bound

    legal = action_space_for(game).legal(state)
    logits = bound(agent.policy, game).logits(state, 0, legal.ids)
    best = {json.dumps(legal.action(int(i)).to_json()) for i in legal.ids[logits == logits.max()]}
    for seed in range(5):
        chosen = make_agent(f"policy:path={files['carcassonne']}", seed=seed).act(state)
        assert json.dumps(chosen.to_json()) in best
    sampled = {json.dumps(make_agent(f"policy:path={files['carcassonne']},sample=on,"
                                     f"temperature=50", seed=seed).act(state).to_json())
               for seed in range(12)}
    assert len(sampled) > 1


def test_the_agent_reads_what_the_vector_environment_shows(files) -> None:
    """The features of an env's observation and of its position's `encode_state` agree, so the
    agent plays what the training measured."""
    from boardwright.rl import make_vector_env

    env = make_vector_env(num_envs=3, opponent="random", seat=1, kernel="python", copy=True)
    obs, _ = env.reset(seed=5)
    featurizer = carcassonne_linear.Featurizer(env.game)
    rng = np.random.default_rng(0)
    for _ in range(12):
        batch = featurizer.batch(obs["board"], obs["scalars"])
        for row in range(3):
            ids = np.flatnonzero(obs["action_mask"][row])
            if not ids.size:
                continue
            seen = featurizer.features(batch, np.full(ids.size, row), ids)
            again = featurizer.position_features(env.state(row), 1, ids)
            assert np.array_equal(seen, again)
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0
                   for m in obs["action_mask"]]
        obs, *_ = env.step(actions)


def test_the_policy_agent_is_registered_and_parsed_like_the_others(files) -> None:
    assert "policy" in available_agents()
    assert sorted(lookup("policy").parameters) == ["path", "sample", "temperature"]
    with pytest.raises(bw.InvalidOptionError, match="taken by a built-in agent"):
        register_agent("policy", PolicyAgent)
    with pytest.raises(bw.InvalidOptionError, match="has no parameter 'depth'"):
        make_agent(f"policy:path={files['carcassonne']},depth=2")
    with pytest.raises(bw.InvalidOptionError, match="needs the policy file"):
        make_agent("policy")
    for bad in ("0", "-1", "nan"):
        with pytest.raises(bw.InvalidOptionError, match="temperature must be a positive"):
            make_agent(f"policy:path={files['carcassonne']},temperature={bad}")
    result = CliRunner().invoke(app, ["agents"])
    assert result.exit_code == 0 and "policy" in result.output


def test_a_policy_refuses_another_game_or_player_count(files, tmp_path) -> None:
    agent = make_agent(f"policy:path={files['carcassonne']}")
    queens = bw.load("queens", 2).new_game(1)
    before = json.dumps(queens.view(None), sort_keys=True)
    with pytest.raises(PolicyFileError, match=r"carcassonne.npz plays carcassonne, not queens"):
        agent.act(queens)
    assert json.dumps(queens.view(None), sort_keys=True) == before
    with pytest.raises(PolicyFileError, match="trained for 2 players; this game has 3"):
        agent.act(bw.load("carcassonne", 3).new_game(1))
    with pytest.raises(PolicyFileError, match="differ from this game's in what the policy reads"):
        agent.act(bw.load("carcassonne", 2, {"expansions": ["abbey_mayor"]}).new_game(1))
    # options the features do not read are fine
    agent.act(bw.load("carcassonne", 2, {"starting_seat": 1}).new_game(1))
    abbey = carcassonne_policy(tmp_path / "am.npz", options={"expansions": ["abbey_mayor"]})
    assert load_policy(abbey).options["expansions"] == ["abbey_mayor"]


def _archive(path: Path, **entries) -> Path:
    with open(path, "wb") as out:
        np.savez(out, **entries)
    return path


def test_bad_files_are_refused_with_what_is_wrong(files, tmp_path) -> None:
    good = dict(np.load(files["carcassonne"]))
    meta = json.loads(str(good["meta"]))
    cases = {
        "no such file": tmp_path / "missing.npz",
        "not a file": tmp_path,
        "is not a numpy archive": tmp_path / "text.npz",
        "has no meta entry": _archive(tmp_path / "nometa.npz", theta=good["theta"]),
        "meta entry is not JSON": _archive(tmp_path / "m1.npz", meta=np.array("{")),
        "is not a JSON text": _archive(tmp_path / "m2.npz", meta=np.zeros(3)),
        "does not say \"format\"": _archive(tmp_path / "m3.npz", meta=np.array("{}")),
        "format version 9": _archive(tmp_path / "v.npz", **{
            **good, "meta": np.array(json.dumps({**meta, "version": 9}))}),
        "architecture 'conv-9' is not known": _archive(tmp_path / "a.npz", **{
            **good, "meta": np.array(json.dumps({**meta, "architecture": "conv-9"}))}),
        "architecture 'carcassonne-linear' plays carcassonne, but the file says queens":
            _archive(tmp_path / "g.npz", **{
                **good, "meta": np.array(json.dumps({**meta, "game": "queens"}))}),
        "not carcassonne-linear weights (theta has shape (3,)": _archive(
            tmp_path / "s.npz", **{**good, "theta": np.zeros(3)}),
        "not carcassonne-linear weights (no entry 'value')": _archive(
            tmp_path / "k.npz", **{k: v for k, v in good.items() if k != "value"}),
        "entry 'theta' holds NaN or infinity": _archive(
            tmp_path / "n.npz", **{**good, "theta": np.full_like(good["theta"], np.nan)}),
        "entry 'theta' is neither numbers nor text": _archive(
            tmp_path / "b.npz", **{**good, "theta": np.zeros(2, dtype="V4")}),
    }
    (tmp_path / "text.npz").write_text("policy")
    for message, path in cases.items():
        with pytest.raises(PolicyFileError, match=None) as caught:
            make_agent(f"policy:path={path}")
        assert message in str(caught.value) and str(path) in str(caught.value), message


@settings(max_examples=40, deadline=None)
@given(data=st.binary(max_size=600), zipped=st.booleans())
def test_any_bytes_give_a_policy_file_error(tmp_path_factory, data, zipped) -> None:
    path = tmp_path_factory.mktemp("bytes") / "policy.npz"
    if zipped:  # a real zip archive holding the bytes as an entry
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("meta.npy", data)
            archive.writestr("theta.npy", data[::-1])
    else:
        path.write_bytes(data)
    with pytest.raises(PolicyFileError):
        load_policy(path)


def test_a_rewritten_file_is_read_again(tmp_path) -> None:
    path = carcassonne_policy(tmp_path / "p.npz")
    first = load_policy(path)
    assert load_policy(path) is first  # read once per process...
    carcassonne_policy(path, weights={**CARCASSONNE_WEIGHTS, "deploy_field": 1.0})
    again = load_policy(path)  # ...and again when it changes (a run rewriting its policy)
    assert again is not first
    assert again.model.theta[carcassonne_linear.COLUMN["deploy_field"]] == 1.0


def test_save_policy_records_the_game_and_architecture(tmp_path) -> None:
    game = bw.load("carcassonne", 2)
    save_policy(tmp_path / "p.npz", game, carcassonne_linear.Model(), training_games=7)
    policy = load_policy(tmp_path / "p.npz")
    assert (policy.game, policy.players, policy.architecture) == (
        "carcassonne", 2, "carcassonne-linear")
    assert policy.options == game.option_summary() and policy.training == {"training_games": 7}
    assert policy.signature == carcassonne_linear.signature(game)
    assert list(tmp_path.iterdir()) == [tmp_path / "p.npz"]  # no temporary file left


def test_simulate_plays_a_policy(files) -> None:
    runner = CliRunner()
    result = runner.invoke(app, ["simulate", "carcassonne", "--agents",
                                 f"policy:path={files['carcassonne']},random", "-n", "2",
                                 "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "policy:path=" in result.output and "2 games" in result.output
    result = runner.invoke(app, ["simulate", "queens", "--agents",
                                 f"policy:path={files['carcassonne']},random", "-n", "1"])
    assert result.exit_code == 2
    assert "plays carcassonne, not queens" in " ".join(result.output.split())
    result = runner.invoke(app, ["simulate", "carcassonne", "--agents",
                                 "policy:path=/no/such/policy.npz,random", "-n", "1"])
    assert result.exit_code == 2 and "no such file" in " ".join(result.output.split())
