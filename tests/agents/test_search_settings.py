"""Search settings beyond the tree: what a leaf is worth with several rivals (`objective`),
which root actions a paired search compares (`distinct_priors`), and Queens' own defaults."""

from __future__ import annotations

import pytest

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.agents.mcts import MCTSAgent, Node
from boardwright.agents.search_returns import soft_returns
from boardwright.games.queens.texts import space_name

# Red may sow on six plains around its City; a Blue Prince one step from (0, 3) can end its
# move there next turn, capturing a Field sown on it (QUE-FIELD-05). The other five are safe.
EXPOSED_SOW = {"seats": [{"queen": [0, 4], "princes": [], "cities": [[0, 4]]},
                         {"queen": [0, -4], "princes": [[0, 2]], "cities": [[0, -4]]}],
               "to_play": 0}


def test_first_place_values_points_taken_from_the_leading_rival_more() -> None:
    """Four seats, the searcher (0) level with seat 1 and ahead of 2 and 3: six points taken
    from seat 1 or from seat 3 are alike for the mean of pairwise leads, but only the first
    changes who could finish ahead of the searcher."""
    base = [50.0, 50.0, 40.0, 30.0]
    from_leader = [50.0, 44.0, 40.0, 30.0]
    from_last = [50.0, 50.0, 40.0, 24.0]
    mean = [soft_returns(v, 12.0, base)[0] for v in (from_leader, from_last)]
    first = [soft_returns(v, 12.0, base, "first")[0] for v in (from_leader, from_last)]
    assert mean[0] == pytest.approx(mean[1])
    assert first[0] > 0.3 and first[1] == pytest.approx(0.0)


def test_with_two_players_both_objectives_are_the_same() -> None:
    for values, base in (([60.0, 41.0], [50.0, 50.0]), ([3.0, 9.0], None)):
        assert soft_returns(values, 12.0, base, "first") == pytest.approx(
            soft_returns(values, 12.0, base, "mean"))


def test_objective_is_an_agent_parameter_with_named_choices() -> None:
    assert make_agent("mcts:iters=4,objective=first").config.objective == "first"
    assert make_agent("mcts:iters=4").config.objective == "mean"
    with pytest.raises(bw.InvalidOptionError, match="objective 'best' is not one of mean, first"):
        make_agent("mcts:objective=best")


def test_a_paired_root_thins_equal_priors_only_when_asked() -> None:
    agent = MCTSAgent(seed=0, iterations=8, paired=3)
    root = Node(player=0)
    for action, prior in (("a", 1.0), ("b", 1.0), ("c", 0.5), ("d", 0.2)):
        root.children[action] = Node(player=-2, prior=prior)
    agent._root_order = ["a", "b", "c", "d"]
    assert agent._candidates(root) == ["a", "c", "d"]
    agent.config.distinct_priors = False
    assert agent._candidates(root) == ["a", "b", "c"]
    assert make_agent("mcts:iters=4,distinct_priors=off").config.distinct_priors is False


def test_queens_search_reads_the_reply_that_takes_a_field() -> None:
    """Every sow scores alike one move ahead (the greedy prior), so only the reply tells the
    exposed one apart: Queens' defaults compare all six on greedy replies and judge it worst."""
    game = bw.load("queens", 2, {"position": EXPOSED_SOW})
    state = game.new_game(seed=0)
    agent = make_agent("mcts:iterations=16", seed=1)
    agent.adopt(game)
    assert (agent.config.paired, agent.config.horizon, agent.config.distinct_priors) == (8, 2, False)
    root = agent.search(state, state.legal_actions())
    means = {game.action_text(action): child.totals[0] / child.visits
             for action, child in root.children.items()
             if child.visits and game.action_text(action).startswith("sow")}
    assert len(means) == 6
    exposed_text = f"sow a Field on {space_name(state, (0, 3))}"
    exposed = means.pop(exposed_text)
    assert exposed < min(means.values())
    assert game.action_text(agent.best_action(root, state.legal_actions())) != exposed_text


def test_thinned_by_prior_the_same_search_compares_one_sow_only() -> None:
    game = bw.load("queens", 2, {"position": EXPOSED_SOW})
    state = game.new_game(seed=0)
    agent = make_agent("mcts:iterations=16,distinct_priors=on", seed=1)
    agent.adopt(game)
    root = agent.search(state, state.legal_actions())
    sows = [a for a, child in root.children.items()
            if child.visits and game.action_text(a).startswith("sow")]
    assert len(sows) == 1


def test_shogun_search_judges_its_leaves_where_the_tree_ends() -> None:
    """Shogun's defaults stop playouts at the tree's edge (a turn is many small decisions; a
    random rest of the turn would judge a move by a random reply); a given setting still wins."""
    game = bw.load("shogun", 2)
    state = game.new_game(seed=3)
    agent = make_agent("mcts:iterations=30", seed=1)
    agent.adopt(game)
    assert agent.config.turn_leaves is False
    explicit = make_agent("mcts:iterations=30,turn_leaves=on", seed=1)
    explicit.adopt(game)
    assert explicit.config.turn_leaves is True
    before = state.clone()
    action = agent.act(state)
    assert action in state.legal_actions()
    assert state.view(None) == before.view(None)  # the search never played on the real state


def _carcassonne_midgame(players: int, seed: int):
    game = bw.load("carcassonne", players, {"expansions": ["abbey_mayor"]})
    state = game.new_game(seed=seed)
    greedy = make_agent("greedy", seed=seed)
    for _ in range(12):
        state.apply(greedy.act(state))
    while len(state.legal_actions()) < 6:
        state.apply(greedy.act(state))
    return state


def test_a_race_drops_the_candidates_that_trail_and_gives_their_playouts_to_the_rest() -> None:
    state = _carcassonne_midgame(2, seed=4)
    flat = make_agent("mcts:iterations=160,paired=4,horizon=1", seed=3)
    raced = make_agent("mcts:iterations=160,paired=4,horizon=1,race=2", seed=3)
    flat_root = flat.search(state, state.legal_actions())
    raced_root = raced.search(state, state.legal_actions())
    flat_visits = sorted(c.visits for c in flat_root.children.values() if c.visits)
    raced_visits = sorted(c.visits for c in raced_root.children.values() if c.visits)
    assert flat_visits == [40, 40, 40, 40]
    assert sum(raced_visits) == 160 and raced_visits[-1] > 40  # the budget moved to the rest
    assert raced._dropped and len(raced_visits) - len(raced._dropped) >= 2
    best = raced.best_action(raced_root, state.legal_actions())
    assert best not in raced._dropped


def test_a_race_keeps_at_least_the_candidates_asked_for_and_never_races_an_analysis() -> None:
    state = _carcassonne_midgame(2, seed=4)
    agent = make_agent("mcts:iterations=160,paired=4,horizon=1,race=0.01", seed=3)
    agent.min_candidates = 3  # a hint shows three moves
    agent.search(state, state.legal_actions())
    assert len(agent._samples) - len(agent._dropped) >= 3
    played = state.legal_actions()[-1]
    agent.min_candidates = 2
    root = agent.search(state, state.legal_actions(), include=[played])
    assert not agent._dropped
    visits = {c.visits for c in root.children.values() if c.visits}
    assert len(visits) == 1  # every candidate and the played move on the same samples


def test_race_is_an_agent_parameter() -> None:
    assert make_agent("mcts:iters=5,race=2.5").config.race == 2.5
    assert make_agent("mcts:iters=5").config.race == 0.0
