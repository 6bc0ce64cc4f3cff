"""examples/learn_carcassonne.py: REINFORCE on the Carcassonne vector environment.

The 15-minute run is a measurement reported in the README; these tests play a few games on 2
envs (the Python kernel): an update moves the weights with a finite loss, the gradient is the
derivative of the REINFORCE objective, only legal ids are chosen, and a tiny run writes a
policy file that `policy:path=...` plays, its curve.json and its PNG.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from script_helpers import load_script

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("matplotlib")

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.rl import make_vector_env

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "learn_carcassonne.py"


def _load_example():
    return load_script(EXAMPLE, "learn_carcassonne")


lc = _load_example()


def _games(count: int, seed: int = 0):
    """`count` finished training games from 2 envs (one per seat), the untrained policy."""
    config = lc.TrainConfig(kernel="python", envs=2)
    envs = lc.make_envs(config, 1, "random")
    learner = lc.Learner.new(envs[0].game, config)
    collectors = [lc.Collector(env, env.seat, [seed * 10 + env.seat]) for env in envs]
    rng = np.random.default_rng(seed)
    games = []
    while len(games) < count:
        for collector in collectors:
            games += collector.step(learner.featurizer, learner.model.theta, rng)
    return learner, games


def test_an_update_moves_the_weights_with_a_finite_loss():
    learner, games = _games(2)
    assert sorted(g.seat for g in games) == [0, 1]
    assert all(len(g.decisions) > 30 and g.result in (-1.0, 0.0, 1.0) for g in games)
    theta, value = learner.model.theta.copy(), learner.model.value.copy()
    policy_loss, value_loss = learner.update(games)
    assert np.isfinite(policy_loss) and np.isfinite(value_loss) and value_loss > 0
    assert np.any(learner.model.theta != theta) and np.any(learner.model.value != value)
    assert np.all(np.isfinite(learner.model.theta))


def test_the_gradient_is_the_derivative_of_the_objective():
    """g_theta = d/dtheta mean(A * log pi(a)), A held fixed: checked by central differences at
    random weights."""
    learner, games = _games(2, seed=1)
    model = learner.model
    rng = np.random.default_rng(3)
    model.theta[:] = rng.normal(0, 0.5, model.theta.size)
    model.value[:] = rng.normal(0, 0.1, model.value.size)
    g_theta, *_ = lc.gradients(model, games, margin=0.5)
    decisions = [d for g in games for d in g.decisions]
    returns = np.concatenate([np.full(len(g.decisions), r)
                              for g, r in zip(games, lc.returns(games, 0.5))])
    advantage = returns - np.stack([d.x for d in decisions]) @ model.value

    def objective(theta):
        total = 0.0
        for d, a in zip(decisions, advantage):
            logits = d.phi.astype(np.float64) @ theta
            total += a * (logits[d.choice] - np.log(np.exp(logits - logits.max()).sum())
                          - logits.max())
        return total / len(decisions)

    for k in rng.choice(model.theta.size, 6, replace=False):
        step = np.zeros_like(model.theta)
        step[k] = 1e-4
        numeric = (objective(model.theta + step) - objective(model.theta - step)) / 2e-4
        assert g_theta[k] == pytest.approx(numeric, rel=1e-3, abs=1e-5)


def test_choices_are_legal_and_argmax_takes_the_best():
    env = make_vector_env(num_envs=4, opponent="random", kernel="python", copy=True)
    obs, _ = env.reset(seed=2)
    featurizer = lc.Featurizer(env.game)
    rng = np.random.default_rng(0)
    theta = rng.normal(0, 1, len(lc.ACTION_FEATURES))
    for _ in range(30):
        mask = obs["action_mask"]
        sampled, decisions = lc.choose(featurizer, theta, obs, rng)
        best, none = lc.choose(featurizer, theta, obs, rng, sample=False)
        assert none == {}
        batch = featurizer.batch(obs["board"], obs["scalars"])
        for row in range(4):
            ids = np.flatnonzero(mask[row])
            assert mask[row, sampled[row]] == 1 and mask[row, best[row]] == 1
            logits = featurizer.features(batch, np.full(ids.size, row), ids) @ theta
            assert logits[np.searchsorted(ids, best[row])] >= logits.max() - 1e-9
            if ids.size > 1:
                assert decisions[row].phi.shape == (ids.size, len(lc.ACTION_FEATURES))
        obs, *_ = env.step(sampled)


def test_a_tiny_run_writes_a_policy_the_agent_plays(tmp_path):
    out = tmp_path / "run"
    code = lc.main(["--games", "4", "--envs", "2", "--batch", "2", "--kernel", "python",
                    "--curve-games", "2", "--eval-every", "1000000", "--eval-against",
                    "random:2", "--seed", "3", "--out", str(out)])
    assert code == 0
    summary = json.loads((out / "curve.json").read_text())
    assert summary["training_games"] == 4 and summary["kernel"] == "python"
    assert [p["games"] for p in summary["curve"]] == [0, 4]
    final = summary["evaluation"]["random"]
    assert final["games"] == 2 and final["wins"] + final["draws"] + final["losses"] == 2
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    agent = make_agent(f"policy:path={out / 'policy.npz'}", seed=1)
    assert agent.policy.training["training_games"] == 4
    state = bw.load("carcassonne", 2).new_game(5)
    assert agent.act(state) in state.legal_actions()
    (out / "curve.png").unlink()
    assert lc.main(["--replot", "--out", str(out)]) == 0 and (out / "curve.png").exists()


def test_evaluation_games_are_fresh():
    train = {lc.game_seed(7, lc.TRAIN, i) for i in range(10**5)}
    curve = {lc.game_seed(7, lc.CURVE, i) for i in range(10**5)}
    final = {lc.game_seed(7, lc.FINAL, i) for i in range(10**5)}
    assert not (train & curve or train & final or curve & final)
