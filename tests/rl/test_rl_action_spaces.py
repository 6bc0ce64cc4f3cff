"""The action ids of the adapters: each game's learning action space (Carcassonne's compact one,
the stable ids of the others), the same in Gymnasium, PettingZoo and OpenSpiel."""

import random

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

import boardwright as bw
import boardwright.rl.gymnasium  # noqa: F401
from boardwright.core.errors import IllegalActionError, InvalidOptionError, MalformedActionError
from boardwright.games.carcassonne.learning_space import DEFAULT_RADIUS, CarcassonneActionSpace
from boardwright.rl import make_game
from boardwright.rl.action_spaces import StableActionSpace, action_space_for
from boardwright.rl.gymnasium import BoardwrightEnv
from boardwright.rl.observations.carcassonne import WINDOW
from boardwright.rl.pettingzoo import env as pettingzoo_env

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
AM = {"expansions": ["abbey_mayor"], "abbeys": 20, "wagons": 20, "barns": 20, "mayors": 20}


@pytest.mark.usefixtures("carcassonne_engine")
def test_carcassonne_make_vec_plays_with_the_learning_space():
    """Two 3-player A&M environments in a sync vector env: masks of 10,848 ids (the stable ids:
    28 million), each
    env's legal ids decode to exactly the engine's legal actions, random legal play runs."""
    venv = gymnasium.make_vec("boardwright/Carcassonne-v0", num_envs=2, vectorization_mode="sync",
                              players=3, options=AM)
    space = venv.envs[0].unwrapped.space
    assert isinstance(space, CarcassonneActionSpace)
    assert venv.single_action_space.n == space.size == 10_848
    assert venv.single_observation_space["action_mask"].shape == (space.size,)
    rng = np.random.default_rng(3)
    obs, info = venv.reset(seed=3)
    for _ in range(150):
        for i in range(2):
            env = venv.envs[i].unwrapped
            ids = info["legal_action_ids"][i]
            assert ids == tuple(np.flatnonzero(obs["action_mask"][i]))
            if ids:
                legal = space.legal(env.state)
                assert sorted(map(str, (legal.action(a) for a in ids))) == sorted(
                    map(str, env.state.legal_actions()))
        actions = [int(rng.choice(ids)) if ids else 0 for ids in info["legal_action_ids"]]
        obs, _rewards, _term, _trunc, info = venv.step(np.array(actions))
        assert "illegal_action" not in info
    venv.close()


@pytest.mark.usefixtures("carcassonne_engine")
def test_stable_ids_stay_available():
    env = BoardwrightEnv("carcassonne", actions="stable")
    assert env.action_space.n == env.game.num_distinct_actions == 1_554_126
    _obs, info = env.reset(seed=1)
    assert info["legal_action_ids"] == tuple(sorted(env.state.legal_action_ids()))
    with pytest.raises(InvalidOptionError):
        BoardwrightEnv("carcassonne", actions="compact")


@pytest.mark.usefixtures("carcassonne_engine")
def test_an_id_outside_the_space_ends_the_gymnasium_episode_as_illegal():
    env = BoardwrightEnv("carcassonne")
    env.reset(seed=2)
    before = env.state.legal_actions()
    _obs, reward, terminated, _trunc, info = env.step(env.action_space.n + 5)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert env.state.legal_actions() == before


@pytest.mark.usefixtures("carcassonne_engine")
def test_pettingzoo_uses_the_learning_space_and_refuses_bad_ids():
    e = pettingzoo_env("carcassonne", players=2)
    e.reset(seed=4)
    agent = e.agent_selection
    info = e.infos[agent]["legal_action_ids"]
    assert isinstance(info, tuple) and all(type(i) is int for i in info)
    assert info == tuple(np.flatnonzero(e.observe(agent)["action_mask"]))
    assert e.action_space(agent).n == e.game.learning_action_space().size
    history = len(e.state.history)
    with pytest.raises(MalformedActionError):
        e.step(e.space.size)
    with pytest.raises(IllegalActionError):
        e.step(next(i for i in range(e.space.size) if i not in info))
    assert len(e.state.history) == history and e.agent_selection == agent


@pytest.mark.parametrize("name", ["queens", "shogun"])
def test_other_games_keep_their_stable_ids(name):
    game = make_game(name)
    space = action_space_for(game)
    assert isinstance(space, StableActionSpace) and game.learning_action_space() is None
    assert space.size == game.num_distinct_actions
    state = game.new_game(5)
    legal = space.legal(state)
    assert legal.ids.tolist() == sorted(state.legal_action_ids())
    action = state.legal_actions()[0]
    assert legal.action(legal.id_of(action)) == action
    with pytest.raises(MalformedActionError):
        legal.action(-1)


def test_the_window_is_the_observation_window():
    """The place planes and the observation's board planes cover the same cells."""
    assert DEFAULT_RADIUS == WINDOW


def test_openspiel_speaks_the_learning_ids():
    pyspiel = pytest.importorskip("pyspiel")
    import boardwright.rl.openspiel  # noqa: F401

    game = pyspiel.load_game("python_boardwright_carcassonne", {"players": 2})
    assert game.num_distinct_actions() == bw.load("carcassonne").learning_action_space().size
    state = game.new_initial_state()
    space = state.bw_state.game.learning_action_space()
    rng = random.Random(1)
    decisions = 0
    while decisions < 20:
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights)[0])
            continue
        action = state.legal_actions()[-1]
        chosen = space.legal(state.bw_state.inner).action(action)
        seat = state.current_player()
        assert state.action_to_string(seat, action) == state.bw_state.game.describe_action(
            chosen, seat, seat)
        state.apply_action(action)
        bw_state = state.bw_state
        if hasattr(bw_state, "steps"):  # the Python engine's ExplicitChanceState
            assert bw_state.steps[-1] == ("action", chosen, seat)
        else:  # a native chance-mode state: its own history
            assert bw_state.history[-1] == chosen
        decisions += 1