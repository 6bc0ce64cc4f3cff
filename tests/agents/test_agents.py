"""Agents: legal choices, reproducibility, bounded memory, and no peeking at hidden information."""

from __future__ import annotations

import random
from typing import Any

import pytest

import boardwright as bw
from boardwright.agents import make_agent
from boardwright.agents.mcts import MCTSAgent, Node
from boardwright.agents.search_returns import soft_returns
from boardwright.games.carcassonne.state import CarcassonneState

AM = {"expansions": ["abbey_mayor"]}
# The searching agents play on the default engine (the native one where it is built); tests
# that spy on the search's Python playout path name the Python engine, and the game's own
# playout policy and turn structure are checked on both engines.


def play_out(game: bw.Game, specs: list[str], seed: int, max_decisions: int | None = None) -> bw.State:
    """Play a game (or its first decisions) with the named agents, checking every choice."""
    state = game.new_game(seed)
    agents = [make_agent(spec, seed=seed + seat) for seat, spec in enumerate(specs)]
    decisions = 0
    while not state.is_terminal and (max_decisions is None or decisions < max_decisions):
        action = agents[state.current_player].act(state)
        assert action in state.legal_actions()
        state.apply(action)
        decisions += 1
    return state


@pytest.mark.parametrize("options", [{}, AM], ids=["base", "abbey_mayor"])
def test_greedy_and_random_play_whole_games_legally(options: dict) -> None:
    game = bw.load("carcassonne", 3, options)
    state = play_out(game, ["greedy", "random", "greedy"], seed=5)
    assert state.is_terminal


@pytest.mark.parametrize("options", [{}, AM], ids=["base", "abbey_mayor"])
def test_mcts_plays_a_whole_game_legally(options: dict) -> None:
    game = bw.load("carcassonne", 2, options)
    state = play_out(game, ["mcts:iters=15", "random"], seed=2)
    assert state.is_terminal


def test_greedy_beats_random_clearly() -> None:
    """Not a strength benchmark (see benchmarks/strength.py): a sanity check over 6 games."""
    game = bw.load("carcassonne", 2, AM)
    margins = []
    for seed in range(6):
        specs = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        state = play_out(game, specs, seed)
        greedy_seat = seed % 2
        margins.append(state.scores[greedy_seat] - state.scores[1 - greedy_seat])
    assert all(margin > 0 for margin in margins), margins


def test_mcts_with_a_seed_is_deterministic() -> None:
    game = bw.load("carcassonne", 2, AM)
    runs = []
    for _ in range(2):
        state = game.new_game(11)
        agent = MCTSAgent(seed=4, iterations=40)
        chosen = []
        for _ in range(6):
            action = agent.act(state)
            chosen.append(action)
            state.apply(action)
        runs.append(chosen)
    assert runs[0] == runs[1]


def test_root_parallel_mcts_is_legal_and_deterministic() -> None:
    """Two worker processes search independent trees; their votes decide, reproducibly."""
    game = bw.load("carcassonne", 2, AM)
    chosen = []
    for _ in range(2):
        state = game.new_game(5)
        agent = make_agent("mcts:iters=20,workers=2", seed=8)
        action = agent.act(state)
        assert action in state.legal_actions()
        assert agent.total_iterations == 40  # both workers ran their full budget
        chosen.append(action)
    assert chosen[0] == chosen[1]


def test_mcts_tree_is_capped() -> None:
    game = bw.load("carcassonne", 2, AM)
    state = game.new_game(3)
    agent = MCTSAgent(seed=1, iterations=400, max_nodes=60)
    agent.act(state)
    assert agent.nodes <= max(60, 1 + len(state.legal_actions()))


class PoisonedState(CarcassonneState):
    """A position whose hidden draw pile is garbage; only `determinize` gives a sound copy.

    Any search that plays on this object (or a clone of it) instead of a determinized copy
    draws a tile that does not exist and crashes."""

    __slots__ = ("truth", "determinized")

    def determinize(self, player: int, rng: random.Random) -> CarcassonneState:
        self.determinized += 1
        return self.truth.determinize(player, rng)


def poisoned_copy(state: CarcassonneState) -> PoisonedState:
    poisoned = PoisonedState.__new__(PoisonedState)
    for slot in CarcassonneState.__slots__:
        setattr(poisoned, slot, getattr(state, slot))
    poisoned.pile = ["POISON"] * len(state.pile)
    poisoned.truth = state
    poisoned.determinized = 0
    return poisoned


@pytest.mark.parametrize("spec", ["mcts:iters=30", "greedy"])
def test_search_never_reads_the_hidden_pile(spec: str) -> None:
    game = bw.load("carcassonne", 2, AM, engine="python")  # spies on the Python playout path
    state = game.new_game(9)
    poisoned = poisoned_copy(state)
    with pytest.raises(KeyError):  # the poison is real: playing on the copy crashes
        probe = poisoned.clone()
        while probe.pile == poisoned.pile:
            probe.apply(probe.legal_actions()[-1])
    agent = make_agent(spec, seed=1)
    action = agent.act(poisoned)
    assert action in state.legal_actions()
    assert poisoned.determinized >= 1
    if spec.startswith("mcts"):
        # One determinization for the priors, then one a round of the paired search, from
        # which every candidate of the round is played out.
        samples = [count for _, count in agent.margins.values()]
        rounds = max(samples)
        assert sum(samples) >= 30 and rounds >= 30 / len(samples)
        assert poisoned.determinized == 1 + rounds


def test_soft_returns_are_zero_sum_and_bounded() -> None:
    values = soft_returns([30.0, 10.0, 10.0], 12.0)
    assert abs(sum(values)) < 1e-9
    assert all(-1.0 <= v <= 1.0 for v in values)
    assert values[0] > 0 > values[1] == values[2]


def test_zero_playout_plies_and_root_widening_are_accepted() -> None:
    agent = make_agent("mcts:iters=30,rollout=0,root_widening=0", seed=1)
    assert (agent.config.rollout_plies, agent.config.root_widening) == (0, 0.0)
    state = bw.load("carcassonne", 2).new_game(3)
    assert agent.act(state) in state.legal_actions()


@pytest.mark.parametrize("spec, message", [
    ("mcts:iters=0", "must be positive"),
    ("mcts:rollout=-1", "must be 0 or more"),
    ("mcts:iters=abc", "must be an integer"),
    ("mcts:bogus=1", "no parameter 'bogus'"),
    ("greedy:iters=3", "no parameter 'iters'"),
    ("alphazero", "unknown agent"),
])
def test_bad_agent_strings_are_named(spec: str, message: str) -> None:
    with pytest.raises(bw.InvalidOptionError, match=message):
        make_agent(spec)


def test_soft_returns_measure_leads_from_the_root() -> None:
    """A 30-point lead at the root must not saturate the values of the moves searched from it."""
    centered = soft_returns([133.0, 100.0], 12.0, base=[130.0, 100.0])
    assert centered == pytest.approx(soft_returns([3.0, 0.0], 12.0))
    assert soft_returns([133.0, 100.0], 12.0)[0] > 0.99  # what centring avoids
    assert soft_returns([130.0, 100.0], 12.0, base=[130.0, 100.0]) == [0.0, 0.0]


def test_the_tree_of_the_tile_is_reused_for_the_figure() -> None:
    """After a placement, the figure decision continues the subtree below that placement (in
    the tree search; a paired root keeps no subtree)."""
    game = bw.load("carcassonne", 2, AM)
    reused = {}
    for flag in ("1", "0"):
        agent = make_agent(f"mcts:iters=60,paired=0,reuse={flag}", seed=3)
        state = game.new_game(4)
        for _ in range(12):
            action = agent.act(state)
            assert action in state.legal_actions()
            state.apply(action)
        reused[flag] = agent.reused
    assert reused["1"] > 0
    assert reused["0"] == 0


def test_a_kept_subtree_is_dropped_for_an_unrelated_position() -> None:
    game = bw.load("carcassonne", 2, AM)
    agent = MCTSAgent(seed=2, iterations=40)
    agent.act(game.new_game(1))
    other = game.new_game(2)
    for _ in range(3):
        other.apply(other.legal_actions()[0])
    action = agent.act(other)
    assert action in other.legal_actions()
    assert agent.reused == 0


def test_root_widening_searches_the_best_prior_actions_first() -> None:
    game = bw.load("carcassonne", 2, AM)
    state = game.new_game(6)
    rng = random.Random(0)
    while len(state.legal_actions()) <= 8:
        state.apply(rng.choice(state.legal_actions()))
    actions = state.legal_actions()
    agent = MCTSAgent(seed=1, iterations=48, root_widening=0.5)
    root = agent.search(state, actions)
    width = 4  # ceil(0.5 * sqrt(48)) after the last iteration, at most
    ranked = sorted(actions, key=lambda a: -root.children[a].prior)
    searched = {a for a, child in root.children.items() if child.visits}
    assert len(actions) > width
    assert searched and searched <= set(ranked[:width])


def test_a_subtree_grown_over_a_hidden_draw_is_not_reused() -> None:
    """After "draw a tile" (instead of placing an abbey) the statistics below the draw mix
    every tile the determinizations drew; the next decision must search afresh, legally."""
    game = bw.load("carcassonne", 2, AM)
    rng = random.Random(3)
    state = game.new_game(3)
    while state.phase != "choose_tile":
        state.apply(rng.choice(state.legal_actions()))
    agent = MCTSAgent(seed=1, iterations=120)
    root = agent.search(state, state.legal_actions())
    draw = next(a for a in state.legal_actions() if type(a).__name__ == "Draw")
    agent._kept = (root.children[draw], len(state.history) + 1, draw)
    state.apply(draw)
    action = agent.act(state)
    assert action in state.legal_actions()
    assert agent.reused == 0


@pytest.mark.usefixtures("carcassonne_engine")
def test_carcassonne_playouts_keep_their_figures() -> None:
    """The playout policy places tiles at random and never puts a figure (it passes)."""
    game = bw.load("carcassonne", 2, AM)
    rng = random.Random(1)
    state = game.new_game(2)
    phases = set()
    while not state.is_terminal:
        actions = state.legal_actions()
        action = game.rollout_action(state, actions, rng)
        assert action in actions
        if state.phase == "deploy":
            assert type(action).__name__ == "Pass"
        phases.add(state.phase)
        state.apply(action)
    assert {"place_tile", "deploy"} <= phases
    assert all(not supply or supply.get("follower") == 7 for supply in state.supply)


@pytest.mark.usefixtures("carcassonne_engine")
def test_carcassonne_turns_start_at_the_draw_or_the_abbey_choice() -> None:
    """`at_turn_start` holds when the turn player is about to place the tile drawn for the
    turn or to choose the abbey, and not while the same turn waits for the tile drawn after
    that choice, for its figure or for a wagon move."""
    game = bw.load("carcassonne", 2, AM)
    rng = random.Random(5)
    state = game.new_game(5)
    seen: dict[str, set[bool]] = {}
    while not state.is_terminal:
        after_draw = bool(state.history) and type(state.history[-1]).__name__ == "Draw"
        seen.setdefault(state.phase, set()).add(state.at_turn_start)
        if state.phase == "place_tile":
            assert state.at_turn_start == (not after_draw)
        if state.at_turn_start:
            assert state.current_player == state.turn_player
        state.apply(rng.choice(state.legal_actions()))
    assert seen["place_tile"] == {True, False}
    assert seen["deploy"] == {False}
    assert seen.get("choose_tile", {True}) == {True}


@pytest.mark.parametrize("turn_leaves, paired", [(True, 0), (False, 0), (True, 4)],
                         ids=["tree", "tree-without-turn-leaves", "paired-greedy"])
def test_mcts_judges_its_leaves_at_the_start_of_its_own_turn(turn_leaves: bool,
                                                               paired: int) -> None:
    """With `turn_leaves` every evaluation of a playout's leaf sees the searcher about to begin
    a turn (greedy playouts evaluate positions inside the turns they play, so only the leaves
    are counted); without it, leaves fall at any point of the turn cycle."""
    game = bw.load("carcassonne", 2, AM, engine="python")  # spies on the Python playout path
    state = play_out(game, ["greedy", "greedy"], seed=8, max_decisions=20)
    me = state.current_player
    agent = MCTSAgent(seed=1, iterations=150 if not paired else 120, rollout_plies=0,
                      turn_leaves=turn_leaves, paired=paired, greedy_playouts=bool(paired))
    judged: list[tuple[int, bool]] = []
    evaluation = game.evaluation
    rollout = agent._rollout

    def spy(position: bw.State) -> list[float]:
        judged.append((position.current_player, position.at_turn_start))
        return evaluation(position)

    def spied_rollout(position: bw.State, *rng: random.Random) -> list[float]:
        if paired:  # greedy playouts call the heuristic along the way: judge the leaf only
            returns = rollout(position, *rng)
            spy(position)
            return returns
        position.game.evaluation = spy  # type: ignore[method-assign]
        try:
            return rollout(position, *rng)
        finally:
            del position.game.evaluation

    agent._rollout = spied_rollout  # type: ignore[method-assign]
    action = agent.act(state)
    assert action in state.legal_actions()
    assert len(judged) > 100
    at_my_turn = [player == me and start for player, start in judged]
    if turn_leaves:
        assert all(at_my_turn)
    else:
        assert not all(at_my_turn)


def test_turn_leaves_is_an_agent_parameter() -> None:
    assert make_agent("mcts:iters=5,turn_leaves=off").config.turn_leaves is False
    assert make_agent("mcts:iters=5").config.turn_leaves is True


def test_a_paired_search_plays_every_candidate_on_the_same_samples(monkeypatch) -> None:
    """Each round draws one determinization and plays every candidate out from it (common
    random numbers): the piles the playouts start from come in runs of one per candidate,
    rounds differ, and each round's sample is drawn once."""
    game = bw.load("carcassonne", 2, AM, engine="python")  # spies on the Python playout path
    state = play_out(game, ["greedy", "greedy"], seed=4, max_decisions=12)
    while len(state.legal_actions()) < 4:
        state.apply(state.legal_actions()[0])
    piles: list[tuple[str, ...]] = []
    draws: list[tuple[str, ...]] = []
    determinize = CarcassonneState.determinize
    rollout = MCTSAgent._rollout

    def spy_draw(self: CarcassonneState, player: int, rng: random.Random) -> CarcassonneState:
        sample = determinize(self, player, rng)
        draws.append(tuple(sample.pile))
        return sample

    def spy_rollout(self: MCTSAgent, sample: CarcassonneState, rng: Any = None) -> list[float]:
        piles.append(tuple(sample.pile))
        return rollout(self, sample, rng)

    monkeypatch.setattr(CarcassonneState, "determinize", spy_draw)
    monkeypatch.setattr(MCTSAgent, "_rollout", spy_rollout)
    agent = MCTSAgent(seed=2, iterations=24, paired=3)
    actions = state.legal_actions()
    root = agent.search(state, actions)
    candidates = [a for a in actions if root.children[a].visits]
    k = len(candidates)
    assert 2 <= k <= 3
    assert all(root.children[a].visits == 24 // k for a in candidates)
    assert len(piles) == 24
    rounds = [piles[i:i + k] for i in range(0, 24, k)]
    assert all(len(set(run)) == 1 for run in rounds)
    assert len({run[0] for run in rounds}) == len(rounds)
    assert len(draws) == 1 + len(rounds)  # draws[0]: the root priors


def test_a_paired_search_plays_the_best_mean_not_the_most_visits() -> None:
    agent = MCTSAgent(seed=0, iterations=10, paired=2)
    root = Node(player=0, totals=[0.0, 0.0])
    root.children = {
        "often": Node(player=1, visits=10, totals=[2.0, -2.0], prior=1.0),   # mean 0.2
        "better": Node(player=1, visits=8, totals=[4.0, -4.0], prior=0.5),   # mean 0.5
        "unseen": Node(player=1, visits=0, totals=[0.0, 0.0], prior=0.9),
    }
    assert agent.best_action(root, ["often", "better", "unseen"]) == "better"
    agent.config.paired = 0
    assert agent.best_action(root, ["often", "better", "unseen"]) == "often"


def test_greedy_playouts_play_the_greedy_choice(monkeypatch) -> None:
    """With `greedy_playouts`, every playout decision is the greedy agent's; the game's cheap
    playout policy is not used."""
    import boardwright.agents.mcts as mcts_module

    game = bw.load("carcassonne", 2, AM, engine="python")  # spies on the Python playout path
    state = play_out(game, ["greedy", "greedy"], seed=6, max_decisions=8)
    calls = []
    greedy_action = mcts_module.greedy_action

    def counted(position: bw.State, actions: list, rng: random.Random) -> object:
        calls.append(position.current_player)
        return greedy_action(position, actions, rng)

    def forbidden(*args: object) -> None:
        raise AssertionError("the game's playout policy was used")

    monkeypatch.setattr(mcts_module, "greedy_action", counted)
    monkeypatch.setattr(game, "rollout_action", forbidden)
    agent = MCTSAgent(seed=3, iterations=8, paired=2, greedy_playouts=True)
    action = agent.act(state)
    assert action in state.legal_actions()
    assert 1 - state.current_player in calls  # the opponent's turn was played greedily


def test_paired_and_greedy_playouts_are_agent_parameters() -> None:
    agent = make_agent("mcts:iters=5,paired=3,greedy_playouts=on")
    assert agent.config.paired == 3 and agent.config.greedy_playouts is True
    assert make_agent("mcts:iters=5,paired=0").config.paired == 0
    with pytest.raises(bw.BoardwrightError, match="paired must be 0 or more"):
        make_agent("mcts:paired=-1")


def test_a_game_s_search_defaults_fill_what_the_agent_string_left_unset() -> None:
    carcassonne = bw.load("carcassonne", 2, AM)
    queens = bw.load("queens", 2, {})
    agent = make_agent("mcts:iters=8", seed=1)
    agent.act(carcassonne.new_game(1))
    assert agent.config.paired == 8 and agent.config.greedy_playouts is True
    agent.act(queens.new_game(1))
    assert (agent.config.paired, agent.config.horizon, agent.config.distinct_priors) == (8, 2, False)
    agent.act(bw.load("shogun", 2, {}).new_game(1))  # a game with no defaults of its own
    assert agent.config.paired == 0 and agent.config.greedy_playouts is False
    assert agent.config.distinct_priors is True
    explicit = make_agent("mcts:iters=8,paired=0", seed=1)
    explicit.act(carcassonne.new_game(1))
    assert explicit.config.paired == 0 and explicit.config.greedy_playouts is True


@pytest.mark.parametrize("players, horizon", [(2, 4), (3, 3), (4, 3), (5, 2), (6, 2)])
def test_carcassonne_searches_fewer_of_its_turns_ahead_the_more_players_there_are(
        players: int, horizon: int) -> None:
    """Each other player's turn is a greedy turn of a playout too: at most about twelve."""
    agent = make_agent("mcts:iters=4", seed=1)
    agent.act(bw.load("carcassonne", players, AM).new_game(1))
    assert agent.config.horizon == horizon
    assert agent.config.horizon * players in range(6, 13)
    explicit = make_agent("mcts:iters=4,horizon=1", seed=1)
    explicit.act(bw.load("carcassonne", players, AM).new_game(1))
    assert explicit.config.horizon == 1


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_with_rivals_carcassonne_races_six_moves_for_first_place(players: int) -> None:
    """Two players: the eight best moves raced, by mean lead (what beat mcts-v2); more: six
    moves raced, each playout valued by the lead over the best rival."""
    agent = make_agent("mcts:iters=4", seed=1)
    agent.act(bw.load("carcassonne", players, AM).new_game(1))
    config = agent.config
    if players == 2:
        assert (config.paired, config.race, config.objective) == (8, 2.0, "mean")
    else:
        assert (config.paired, config.race, config.objective) == (6, 2.0, "first")
